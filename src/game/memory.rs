//! How much memory a table may take: what Linux says can be allocated without swapping out, and,
//! where the process runs under a memory limit (a container, a Slurm job, a systemd unit), the
//! room left under that limit. Both are read from the files the kernel offers; elsewhere nothing
//! is known and nothing is refused in advance.
//!
//! A request beyond either is granted by Linux and ends with the process killed when the table is
//! filled (by the kernel's out-of-memory killer, or the control group's), so the tables refuse it
//! first ([`super::table::huge_page_vec`]).

/// The memory a table may take, in bytes: the least of `MemAvailable` plus the free swap and the
/// room under every control-group limit the process is in; `None` where none is known.
pub fn available_memory() -> Option<u64> {
    if !cfg!(target_os = "linux") {
        return None;
    }
    let read = |path: &str| std::fs::read_to_string(path).ok();
    let system = read("/proc/meminfo").and_then(|t| available_in_meminfo(&t));
    match (system, cgroup_room(&read)) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

/// `MemAvailable` plus `SwapFree` of a `/proc/meminfo` text, in bytes.
pub(crate) fn available_in_meminfo(text: &str) -> Option<u64> {
    let kb = |name: &str| field(text, name, ':');
    Some(kb("MemAvailable")?.saturating_add(kb("SwapFree").unwrap_or(0)) * 1024)
}

/// The first number after `name` and `sep` at the start of a line of `text`.
fn field(text: &str, name: &str, sep: char) -> Option<u64> {
    text.lines()
        .find_map(|l| l.strip_prefix(name)?.strip_prefix(sep))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
}

/// Limits at or above this many bytes mean "no limit" (cgroup v1 writes 2^63 rounded to a page).
const NO_LIMIT: u64 = 1 << 62;

/// The room left under the memory limits of the process's control groups, in bytes: for each
/// group on the path from the process's own up to the root of its hierarchy that has a limit, the
/// limit less what the group uses beyond its page cache (which the kernel reclaims before it
/// kills), and the least of those. `read` returns a file's text (a parameter, so that tests can
/// give a made-up tree). `None` where no group has a limit or none can be read.
pub(crate) fn cgroup_room(read: &dyn Fn(&str) -> Option<String>) -> Option<u64> {
    let groups = read("/proc/self/cgroup")?;
    let mut room: Option<u64> = None;
    for line in groups.lines() {
        let mut parts = line.splitn(3, ':');
        let (Some(id), Some(controllers), Some(path)) = (parts.next(), parts.next(), parts.next())
        else {
            continue;
        };
        let (root, v2) = if id == "0" && controllers.is_empty() {
            ("/sys/fs/cgroup", true)
        } else if controllers.split(',').any(|c| c == "memory") {
            ("/sys/fs/cgroup/memory", false)
        } else {
            continue;
        };
        // The group's own folder, then every parent; in a container whose groups are mounted at
        // its own root the deeper folders do not exist and the root is the container's group.
        let mut dir = path.trim_end_matches('/').to_string();
        loop {
            let at = format!("{root}{dir}");
            let num = |name: &str| read(&format!("{at}/{name}"))?.trim().parse::<u64>().ok();
            let stat = read(&format!("{at}/memory.stat")).unwrap_or_default();
            let here = if v2 {
                num("memory.max").map(|limit| {
                    let cache = field(&stat, "file", ' ').unwrap_or(0);
                    (
                        limit,
                        num("memory.current").unwrap_or(0).saturating_sub(cache),
                    )
                })
            } else {
                num("memory.limit_in_bytes").map(|limit| {
                    let cache = field(&stat, "total_cache", ' ')
                        .or_else(|| field(&stat, "cache", ' '))
                        .unwrap_or(0);
                    let used = num("memory.usage_in_bytes").unwrap_or(0);
                    (limit, used.saturating_sub(cache))
                })
            };
            if let Some((limit, used)) = here.filter(|&(limit, _)| limit < NO_LIMIT) {
                let r = limit.saturating_sub(used);
                room = Some(room.map_or(r, |m| m.min(r)));
            }
            match dir.rfind('/') {
                Some(cut) if !dir.is_empty() => dir.truncate(cut),
                _ => break,
            }
        }
    }
    room
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    #[test]
    fn the_memory_available_is_read_from_meminfo() {
        let text = "MemTotal:       24000000 kB\nMemFree:  100 kB\nMemAvailable:   20000000 kB\n\
                    SwapTotal: 0 kB\nSwapFree:        1000 kB\n";
        assert_eq!(available_in_meminfo(text), Some(20_001_000 * 1024));
        assert_eq!(available_in_meminfo("MemTotal: 5 kB\n"), None);
        if cfg!(target_os = "linux") {
            assert!(available_memory().is_some_and(|a| a > 0));
        }
    }

    fn tree(files: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> {
        let map: HashMap<String, String> = files
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        move |p: &str| map.get(p).cloned()
    }

    #[test]
    fn a_cgroup_v2_limit_anywhere_on_the_path_bounds_the_room() {
        // A Slurm-like tree: the job's group is limited to 8 GB and uses 3 GB, 1 GB of it page
        // cache; the step below it has no limit of its own; the root's is "max".
        let read = tree(&[
            ("/proc/self/cgroup", "0::/slurm/job_7/step_0\n"),
            ("/sys/fs/cgroup/slurm/job_7/step_0/memory.max", "max\n"),
            ("/sys/fs/cgroup/slurm/job_7/step_0/memory.current", "2000\n"),
            ("/sys/fs/cgroup/slurm/job_7/memory.max", "8000000000\n"),
            ("/sys/fs/cgroup/slurm/job_7/memory.current", "3000000000\n"),
            (
                "/sys/fs/cgroup/slurm/job_7/memory.stat",
                "anon 2000000000\nfile 1000000000\nkernel 0\n",
            ),
            ("/sys/fs/cgroup/memory.max", "max\n"),
        ]);
        assert_eq!(cgroup_room(&read), Some(6_000_000_000));
        // No limit anywhere: nothing known.
        let free = tree(&[
            ("/proc/self/cgroup", "0::/user.slice\n"),
            ("/sys/fs/cgroup/user.slice/memory.max", "max\n"),
        ]);
        assert_eq!(cgroup_room(&free), None);
        assert_eq!(cgroup_room(&tree(&[])), None);
    }

    #[test]
    fn a_cgroup_v1_memory_limit_counts_and_an_unlimited_one_does_not() {
        // As on this kind of host: the memory controller on its own line, unlimited at 2^63
        // rounded down to a page; a container's limit at the mounted root.
        let mut files = vec![
            (
                "/proc/self/cgroup",
                "4:memory:/docker/abc\n3:cpuset:/\n0::/\n",
            ),
            (
                "/sys/fs/cgroup/memory/docker/abc/memory.limit_in_bytes",
                "9223372036854771712\n",
            ),
            (
                "/sys/fs/cgroup/memory/docker/abc/memory.usage_in_bytes",
                "5\n",
            ),
        ];
        assert_eq!(cgroup_room(&tree(&files)), None);
        files.extend([
            (
                "/sys/fs/cgroup/memory/memory.limit_in_bytes",
                "4000000000\n",
            ),
            (
                "/sys/fs/cgroup/memory/memory.usage_in_bytes",
                "1500000000\n",
            ),
            (
                "/sys/fs/cgroup/memory/memory.stat",
                "cache 100\ntotal_cache 500000000\n",
            ),
        ]);
        assert_eq!(cgroup_room(&tree(&files)), Some(3_000_000_000));
        // Usage above the limit (a racing reader) leaves no room rather than wrapping around.
        files[1] = (
            "/sys/fs/cgroup/memory/docker/abc/memory.limit_in_bytes",
            "1\n",
        );
        assert_eq!(cgroup_room(&tree(&files)), Some(0));
    }
}
