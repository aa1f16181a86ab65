//! What this binary is: its version, the commit it was built from and the CPU features it was
//! compiled for (recorded by `build.rs`). `wedge --version` prints it, so a bug report carries it.

/// The package version (`Cargo.toml`).
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// The commit the binary was built from (12 hex digits, with `-modified` when tracked files differed
/// from it), or `unknown` outside a git checkout.
pub const COMMIT: &str = env!("WEDGE_COMMIT");

/// The `-C target-cpu` the binary was compiled for (`native` by default: the building machine's),
/// or `generic`.
pub const TARGET_CPU: &str = env!("WEDGE_TARGET_CPU");

/// The instruction set extensions that wedge's code paths look at, each with whether this binary
/// was compiled to use it. A binary runs only on CPUs that have every extension it was built with.
pub fn cpu_features() -> Vec<(&'static str, bool)> {
    vec![
        ("popcnt", cfg!(target_feature = "popcnt")),
        ("lzcnt", cfg!(target_feature = "lzcnt")),
        ("bmi2", cfg!(target_feature = "bmi2")),
        ("avx2", cfg!(target_feature = "avx2")),
        ("avx512vl", cfg!(target_feature = "avx512vl")),
        ("avx512cd", cfg!(target_feature = "avx512cd")),
    ]
}

/// The long version text: `0.1.0 (commit 0123456789ab)` and a second line with the target CPU
/// and the extensions compiled in.
pub fn long_version() -> String {
    let on: Vec<&str> = cpu_features()
        .into_iter()
        .filter(|&(_, used)| used)
        .map(|(name, _)| name)
        .collect();
    let features = if on.is_empty() {
        "none".to_string()
    } else {
        on.join(" ")
    };
    format!(
        "{VERSION} (commit {COMMIT})\nbuilt for {} {}, target-cpu {TARGET_CPU}, features: {features}",
        std::env::consts::ARCH,
        std::env::consts::OS,
    )
}
