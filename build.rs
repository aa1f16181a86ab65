//! Build script: records what a bug report needs to know about the binary, for `wedge --version`:
//! the commit it was built from (`WEDGE_COMMIT`, "unknown" outside a git checkout; `-modified` after
//! it when tracked files differ from that commit) and the CPU it was
//! built for (`WEDGE_TARGET_CPU`, from `-C target-cpu` in the rustflags; "generic" when none is given).
//! The instruction set extensions themselves are read by the binary from `cfg!(target_feature)`.

use std::process::Command;

/// What the binary is built from: the sources, the manifest, this script and the embedded book.
const BUILT_FROM: [&str; 5] = [
    "src",
    "Cargo.toml",
    "Cargo.lock",
    "build.rs",
    "book/wedge.book",
];

fn main() {
    let commit = Command::new("git")
        .args(["rev-parse", "--short=12", "HEAD"])
        .output()
        .ok()
        .filter(|out| out.status.success())
        .and_then(|out| String::from_utf8(out.stdout).ok())
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| "unknown".to_string());
    // Built from changed sources, the binary is not that commit: say so.
    let modified = commit != "unknown"
        && Command::new("git")
            .args(["status", "--porcelain", "--untracked-files=no", "--"])
            .args(BUILT_FROM)
            .output()
            .ok()
            .filter(|out| out.status.success())
            .is_some_and(|out| !out.stdout.is_empty());
    let suffix = if modified { "-modified" } else { "" };
    println!("cargo:rustc-env=WEDGE_COMMIT={commit}{suffix}");

    let flags = std::env::var("CARGO_ENCODED_RUSTFLAGS").unwrap_or_default();
    let flags: Vec<&str> = flags.split('\x1f').collect();
    let mut cpu = "generic".to_string();
    for (i, flag) in flags.iter().enumerate() {
        let value = if let Some(v) = flag.strip_prefix("-Ctarget-cpu=") {
            Some(v)
        } else if let Some(v) = flag.strip_prefix("target-cpu=") {
            (i > 0 && flags[i - 1] == "-C").then_some(v)
        } else {
            None
        };
        if let Some(v) = value {
            cpu = v.to_string();
        }
    }
    println!("cargo:rustc-env=WEDGE_TARGET_CPU={cpu}");

    // A new commit changes HEAD's target; the paths may not exist (a source tarball), which is fine.
    for path in [".git/HEAD", ".git/packed-refs"] {
        println!("cargo:rerun-if-changed={path}");
    }
    if let Ok(head) = std::fs::read_to_string(".git/HEAD") {
        if let Some(reference) = head.trim().strip_prefix("ref: ") {
            println!("cargo:rerun-if-changed=.git/{reference}");
        }
    }
    // An edit to what the binary is built from makes the build a modified one (or no longer).
    for path in BUILT_FROM {
        println!("cargo:rerun-if-changed={path}");
    }
    println!("cargo:rerun-if-env-changed=CARGO_ENCODED_RUSTFLAGS");
}
