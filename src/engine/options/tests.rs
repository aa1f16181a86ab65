//! Tests of the engine options: parsing, ranges, files and their errors.

use super::*;

#[test]
fn set_by_any_case_and_errors_change_nothing() {
    let mut o = Options::default();
    assert_eq!(o.set("hash", Some("32")), Ok(Effect::ResizeHash(32)));
    assert_eq!(o.hash_mb, 32);
    assert!(o.set("Hash", Some("0")).is_err());
    assert!(o.set("Hash", Some("x")).is_err());
    assert!(o.set("Hash", None).is_err());
    assert_eq!(o.hash_mb, 32);
    assert_eq!(
        o.set("Contempt", Some("1")),
        Err(OptionError::Unknown("Contempt".into()))
    );
    assert!(matches!(
        o.set("Hash", Some("0")),
        Err(OptionError::BadValue {
            option: "Hash",
            fault: ValueFault::OutOfRange { got: 0, .. }
        })
    ));
    let err = o.set("EvalFile", Some("/nonexistent/w.txt")).unwrap_err();
    assert!(
        matches!(
            err,
            OptionError::File {
                option: "EvalFile",
                ..
            }
        ),
        "{err:?}"
    );
    assert!(
        err.to_string().starts_with("EvalFile: /nonexistent/w.txt"),
        "{err}"
    );
    assert_eq!(o.set("ownbook", Some("FALSE")), Ok(Effect::None));
    assert!(!o.own_book);
    assert!(o.set("OwnBook", Some("maybe")).is_err());
    assert_eq!(o.set("mobilitymid", Some("3")), Ok(Effect::Weights));
    assert_eq!(o.weights.get(weights::id::MOBILITY_MID), 3);
    assert!(o.set("MobilityMid", Some("100000")).is_err());
    assert_eq!(o.set("clear hash", None), Ok(Effect::ClearHash));
    assert!(o.set("EvalFile", Some("/nonexistent/w.txt")).is_err());
    assert_eq!(o.weights.get(weights::id::MOBILITY_MID), 3);
    // A string option without `value` is refused (the empty value resets it, so a forgotten
    // value must not), and the weights set above stay.
    for name in ["EvalFile", "BookFile", "MpcFile"] {
        let err = o.set(name, None).unwrap_err();
        assert!(err.to_string().contains("needs a value"), "{err}");
    }
    // A table that cannot be read leaves the one in use.
    let mpc = o.mpc.clone();
    assert!(o.set("MpcFile", Some("/nonexistent/mpc.txt")).is_err());
    assert!(std::sync::Arc::ptr_eq(&o.mpc, &mpc));
    assert_eq!(
        o.set("BookFile", Some("")),
        Ok(Effect::BookFile(String::new()))
    );
    assert_eq!(o.weights.get(weights::id::MOBILITY_MID), 3);
}

#[test]
fn every_option_takes_its_own_default() {
    for option in ENGINE_OPTIONS {
        let default = match option.kind {
            Kind::Spin { default, .. } => Some(default.to_string()),
            Kind::Check { default } => Some(default.to_string()),
            Kind::Combo { default, .. } => Some(default.to_string()),
            Kind::Text { .. } => Some(String::new()),
            Kind::Button => None,
        };
        let mut o = Options::default();
        assert!(
            o.set(&option.name.to_lowercase(), default.as_deref())
                .is_ok(),
            "{} refuses its default",
            option.name
        );
    }
}

#[test]
fn every_option_is_listed_once() {
    let all = declarations();
    assert_eq!(
        all.len(),
        ENGINE_OPTIONS.len() + weights::COUNT + crate::variant::eval::WEIGHT_SPECS.len()
    );
    let mut names: Vec<String> = all.iter().map(|d| d.name.to_lowercase()).collect();
    names.sort();
    names.dedup();
    assert_eq!(names.len(), all.len(), "two options of one name");
    assert!(all
        .iter()
        .any(|d| d.name == "Clear Hash" && d.kind == Kind::Button));
    assert!(all
        .iter()
        .any(|d| d.name == "CornerMid" && matches!(d.kind, Kind::Spin { .. })));
}
