//! The tuner's unit tests: parameters, schedules, signs, states.

use super::*;

fn config(params: Vec<Param>, iterations: usize) -> TuneConfig {
    TuneConfig {
        engine: EngineSpec::parse("name=e cmd=wedge").unwrap(),
        params,
        iterations,
        pairs: 1,
        openings: vec![Game::new(crate::board::Position::START)],
        tc: TimeControl::Depth(1),
        concurrency: 1,
        seed: 3,
        move_timeout: Duration::from_secs(5),
        interrupt: None,
    }
}

#[test]
fn params_parse_and_are_checked() {
    let p = Param::parse("MobilityMid,-500,-2000,2000,100").unwrap();
    assert_eq!(
        (p.start, p.min, p.max, p.c_end, p.r_end),
        (-500.0, -2000.0, 2000.0, 100.0, DEFAULT_R_END)
    );
    assert_eq!(Param::parse("X, 1, 0, 2, 0.5, 0.01").unwrap().r_end, 0.01);
    assert!(Param::parse("Move Overhead,1,0,2,1").is_err());
    for bad in [
        "X,1,0,2",
        "X,3,0,2,1",
        "X,1,0,2,0",
        "X,1,0,2,a",
        ",1,0,2,1",
        "X,1,0,2,1,1,1",
    ] {
        assert!(Param::parse(bad).is_err(), "{bad}");
    }
}

#[test]
fn the_schedule_reaches_the_end_values() {
    let p = Param::parse("X,0,-100,100,10,0.5").unwrap();
    let c = config(vec![p.clone()], 200);
    assert!((c_k(&c, &p, 199) - 10.0).abs() < 1e-9);
    assert!((a_k(&c, &p, 199) - 0.5 * 100.0).abs() < 1e-9);
    assert!(c_k(&c, &p, 0) > c_k(&c, &p, 100));
    assert!(a_k(&c, &p, 0) > a_k(&c, &p, 100));
}

#[test]
fn the_state_reads_back_and_refuses_another_run() {
    let params = vec![
        Param::parse("A,0,-100,100,10").unwrap(),
        Param::parse("B,5,-100,100,10").unwrap(),
    ];
    let c = config(params, 20);
    let mut s = TuneState::new(&c);
    s.done = 2;
    s.theta = vec![1.25, -3.5];
    s.plus = [3, 0, 1];
    s.history = vec![vec![0.5, 4.0], vec![1.25, -3.5]];
    let text = s.to_text(&c);
    assert_eq!(TuneState::parse(&text, &c).unwrap(), s);
    let mut other = c.clone();
    other.params[1].c_end = 20.0;
    assert!(TuneState::parse(&text, &other)
        .unwrap_err()
        .to_string()
        .contains("--param B,5,-100,100,20"));
    other = c.clone();
    other.seed = 4;
    assert!(TuneState::parse(&text, &other)
        .unwrap_err()
        .to_string()
        .contains("seed"));
    other = c.clone();
    other.params.pop();
    assert!(TuneState::parse(&text, &other)
        .unwrap_err()
        .to_string()
        .contains("tunes A B"));
    // Another engine option, time control or opening set: another run.
    for change in 0..3 {
        other = c.clone();
        match change {
            0 => other.engine = EngineSpec::parse("name=e cmd=wedge option.Hash=2").unwrap(),
            1 => other.tc = TimeControl::Depth(2),
            _ => other
                .openings
                .push(Game::new(crate::board::Position::START)),
        }
        assert!(matches!(
            TuneState::parse(&text, &other),
            Err(StateError::Setup)
        ));
    }
    // A state without a run id resumes without that check.
    let old = text.replace(&format!("\"run\": \"{}\",", c.run_id()), "");
    assert_ne!(old, text);
    assert_eq!(TuneState::parse(&old, &other).unwrap(), s);
    assert!(TuneState::parse("done x\n", &c)
        .unwrap_err()
        .to_string()
        .contains("line 1"));
    assert!(TuneState::parse("# wedge tune state\niterations 20\n", &c)
        .unwrap_err()
        .to_string()
        .contains("text format of an earlier wedge"));
}

#[test]
fn signs_depend_on_the_seed_and_iteration_only() {
    let params = (0..8)
        .map(|i| Param::parse(&format!("P{i},0,-1,1,1")).unwrap())
        .collect();
    let c = config(params, 10);
    assert_eq!(signs(&c, 3), signs(&c, 3));
    assert!((0..10).any(|k| signs(&c, k) != signs(&c, 0)));
    assert!(signs(&c, 0).iter().all(|s| s.abs() == 1.0));
}

#[test]
fn the_signs_of_two_seeds_are_not_one_pattern_apart() {
    // Two seeds' signs: their products over the iterations must vary (the lowest bit of the
    // generator made them one fixed pattern apart, the same at every iteration).
    let params = vec![Param::parse("A,0,-100,100,10").unwrap()];
    let mut a = config(params.clone(), 100);
    let mut b = config(params, 100);
    a.seed = 1;
    b.seed = 2;
    let products: Vec<f64> = (0..100)
        .map(|k| signs(&a, k)[0] * signs(&b, k)[0])
        .collect();
    assert!(
        products.contains(&1.0) && products.contains(&-1.0),
        "{products:?}"
    );
    // And each seed's own signs are about half each way.
    let plus = (0..1000).filter(|&k| signs(&a, k)[0] > 0.0).count();
    assert!((400..600).contains(&plus), "{plus}");
}

#[test]
fn values_sent_are_whole_numbers_within_the_bounds() {
    let p = Param::parse("X,-3,-7.5,7.5,2.4,0.3").unwrap();
    assert_eq!(p.whole(-7.9), -7);
    assert_eq!(p.whole(7.6), 7);
    assert_eq!(p.whole(2.5), 3);
    assert_eq!(p.whole(-2.5), -3);
    // No whole number between the bounds, or a gain that overflows, is refused.
    assert!(Param::parse("X,0.5,0.2,0.8,1").is_err());
    assert!(Param::parse("X,0,-10000,10000,1e160").is_err());
}
