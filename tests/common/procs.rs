//! Processes seen through Linux's `/proc`: the family a test's process started, whether each still
//! runs, and what is left of it once the process should have ended it.

use std::process::{Child, Command};
use std::time::{Duration, Instant};

/// The processes whose parent is `parent`.
pub fn children_of(parent: u32) -> Vec<u32> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
            continue;
        };
        // `pid (comm) state ppid ...`: the command may hold spaces, so read after the ')'.
        let ppid = stat
            .rsplit_once(')')
            .and_then(|(_, rest)| rest.split_whitespace().nth(1)?.parse::<u32>().ok());
        if ppid == Some(parent) {
            found.push(pid);
        }
    }
    found
}

/// Every process under `root`: its children, theirs, and so on.
pub fn family(root: u32) -> Vec<u32> {
    let (mut all, mut queue) = (Vec::new(), vec![root]);
    while let Some(p) = queue.pop() {
        for c in children_of(p) {
            all.push(c);
            queue.push(c);
        }
    }
    all
}

/// Whether process `pid` runs (is neither gone nor a zombie).
pub fn alive(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .map(|s| !s.rsplit_once(')').unwrap().1.trim_start().starts_with('Z'))
        .unwrap_or(false)
}

/// Waits up to `limit` for `child` to exit; whether it did.
pub fn exits_within(child: &mut Child, limit: Duration) -> bool {
    let deadline = Instant::now() + limit;
    while child.try_wait().unwrap().is_none() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    child.try_wait().unwrap().is_some()
}

/// Those of `pids` still running, each then killed so no test leaves them behind.
pub fn survivors(pids: &[u32]) -> Vec<u32> {
    let left: Vec<u32> = pids.iter().copied().filter(|&p| alive(p)).collect();
    for &pid in &left {
        let _ = Command::new("kill").args(["-9", &pid.to_string()]).status();
    }
    left
}
