//! An engine process: its input, a channel of its output lines, its stderr kept in a log and
//! its last lines quoted on failure, and its death with the runner.

use super::*;

/// A running program with its input and a channel of its output lines.
pub struct Pipe {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    stop: Receiver<()>,
    /// The last lines of its stderr.
    stderr_tail: Arc<Mutex<VecDeque<String>>>,
    /// Disconnected when its stderr closes (the program ended).
    stderr_closed: Receiver<()>,
    /// The name of the pipe of its output (`/proc`'s `pipe:[inode]`, Linux), to find the processes
    /// that keep it open once the program has exited.
    output_pipe: Option<std::path::PathBuf>,
}

/// The most bytes of one engine process's stderr written to its log: an engine that floods its
/// stderr must not fill the disk over a long match. The tail kept for messages goes on.
#[cfg(not(test))]
const MAX_STDERR_LOG: u64 = 256 << 20;
/// A small cap for the unit tests, which check what happens past it.
#[cfg(test)]
const MAX_STDERR_LOG: u64 = 4 << 10;

/// How often a wait looks whether the program has exited: its output stays open after it exits
/// when a process it started holds it, and then no end of the output tells.
const EXIT_CHECK: Duration = Duration::from_millis(100);

/// How many of an engine's last stderr lines are kept for messages.
const STDERR_TAIL_LINES: usize = 3;

/// The longest line kept of an engine's output (stdout or stderr); the rest of a longer line is
/// read and dropped, so an engine that writes without newlines cannot exhaust the runner's memory.
const MAX_LINE: usize = 1 << 16;

/// Output lines read ahead of the runner: a reader blocks (and so does the engine's writing) when
/// this many wait, so an engine that floods its output cannot exhaust the runner's memory either.
const LINES_AHEAD: usize = 10_000;

/// Reads one line into `line` (cleared first), keeping at most [`MAX_LINE`] bytes of it; false at
/// the end of the stream or on an error.
fn read_line_capped(reader: &mut impl BufRead, line: &mut Vec<u8>) -> bool {
    line.clear();
    let mut overlong = false;
    loop {
        let (done, used) = match reader.fill_buf() {
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Ok([]) | Err(_) => return !line.is_empty() || overlong,
            Ok(buf) => {
                let (chunk, done) = match buf.iter().position(|&b| b == b'\n') {
                    Some(i) => (&buf[..=i], true),
                    None => (buf, false),
                };
                let room = MAX_LINE.saturating_sub(line.len());
                overlong |= chunk.len() > room;
                line.extend_from_slice(&chunk[..chunk.len().min(room)]);
                (done, chunk.len())
            }
        };
        reader.consume(used);
        if done {
            return true;
        }
    }
}

impl Pipe {
    /// Starts `cmd` with `args`, stdin and stdout piped, stderr appended to `stderr_log` (if any);
    /// waits end early when `stop` disconnects.
    pub fn spawn(
        cmd: &str,
        args: &[String],
        stderr_log: Option<&Path>,
        stop: Receiver<()>,
    ) -> Result<Pipe, Failure> {
        let mut log = match stderr_log {
            Some(path) => Some(
                crate::files::open_output(
                    std::fs::OpenOptions::new().create(true).append(true),
                    path,
                )
                .map_err(|e| Failure::Log {
                    path: path.to_path_buf(),
                    error: e.to_string(),
                })?,
            ),
            None => None,
        };
        // A program file that was just written can be briefly "busy" (ETXTBSY) while another thread
        // forks; that clears within milliseconds, so it is retried a few times.
        let mut attempt = 0;
        let mut command = Command::new(cmd);
        command
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        die_with_parent(&mut command);
        let mut child = loop {
            let spawned = command.spawn();
            match spawned {
                Ok(c) => break c,
                Err(e) if e.raw_os_error() == Some(26) && attempt < 20 => {
                    attempt += 1;
                    std::thread::sleep(Duration::from_millis(10));
                }
                Err(e) => {
                    return Err(Failure::Start {
                        what: cmd.to_string(),
                        error: e.to_string(),
                    })
                }
            }
        };
        let (Some(stdin), Some(stdout), Some(stderr)) =
            (child.stdin.take(), child.stdout.take(), child.stderr.take())
        else {
            let _ = child.kill();
            return Err(Failure::Start {
                what: cmd.to_string(),
                error: "no pipes to the engine".into(),
            });
        };
        let output_pipe = pipe_name(&stdout);
        let stderr_tail = Arc::new(Mutex::new(VecDeque::new()));
        let (closed_tx, stderr_closed) = crossbeam_channel::bounded::<()>(0);
        let tail = stderr_tail.clone();
        std::thread::spawn(move || {
            // Bytes, not text: an engine's stderr need not be UTF-8, and the log keeps it as written.
            let mut reader = BufReader::new(stderr);
            let mut line = Vec::new();
            let mut logged = 0u64;
            while read_line_capped(&mut reader, &mut line) {
                if let Some(f) = log.as_mut() {
                    if !line.ends_with(b"\n") {
                        line.push(b'\n');
                    }
                    logged += line.len() as u64;
                    // A log that cannot be written must not stop the engine: the line is dropped.
                    if logged <= MAX_STDERR_LOG {
                        let _ = f.write_all(&line);
                    } else {
                        let _ = writeln!(
                            f,
                            "[wedge match: this engine's stderr past {} MB is not kept]",
                            MAX_STDERR_LOG >> 20
                        );
                        log = None;
                    }
                }
                let text = String::from_utf8_lossy(&line).trim_end().to_string();
                if !text.is_empty() {
                    let mut tail = tail.lock().unwrap_or_else(|p| p.into_inner());
                    if tail.len() == STDERR_TAIL_LINES {
                        tail.pop_front();
                    }
                    tail.push_back(text);
                }
            }
            drop(closed_tx);
        });
        let (tx, lines) = crossbeam_channel::bounded(LINES_AHEAD);
        std::thread::spawn(move || {
            let (mut reader, mut line) = (BufReader::new(stdout), Vec::new());
            while read_line_capped(&mut reader, &mut line) {
                let text = String::from_utf8_lossy(&line);
                if tx
                    .send(text.trim_end_matches(['\n', '\r']).to_string())
                    .is_err()
                {
                    break;
                }
            }
        });
        Ok(Pipe {
            child,
            stdin,
            lines,
            stop,
            stderr_tail,
            stderr_closed,
            output_pipe,
        })
    }

    /// Writes one line.
    pub fn send(&mut self, line: &str) -> Result<(), Failure> {
        if writeln!(self.stdin, "{line}")
            .and_then(|_| self.stdin.flush())
            .is_err()
        {
            return Err(self.exited("closed its input"));
        }
        Ok(())
    }

    /// Reads lines until one satisfies `done`; returns it.
    pub fn wait_for(
        &mut self,
        done: impl Fn(&str) -> bool,
        deadline: Instant,
    ) -> Result<String, Failure> {
        let mut found = None;
        self.wait(deadline, |l| {
            let last = done(l);
            if last {
                found = Some(l.to_string());
            }
            last
        })?;
        Ok(found.unwrap_or_default())
    }

    /// Hands each line read to `each` until it returns true, the deadline passes, the program
    /// exits or the match stops.
    pub fn wait(
        &mut self,
        deadline: Instant,
        mut each: impl FnMut(&str) -> bool,
    ) -> Result<(), Failure> {
        let timeout = crossbeam_channel::at(deadline);
        let check = crossbeam_channel::tick(EXIT_CHECK);
        loop {
            select! {
                recv(self.lines) -> line => match line {
                    Ok(l) => {
                        if each(&l) {
                            return Ok(());
                        }
                    }
                    Err(_) => return Err(self.exited("exited")),
                },
                recv(self.stop) -> _ => return Err(Failure::Stopped),
                recv(timeout) -> _ => return Err(Failure::Timeout),
                recv(check) -> _ => {
                    if matches!(self.child.try_wait(), Ok(Some(_))) {
                        return self.exited_with_output_held(&mut each);
                    }
                }
            }
        }
    }

    /// The program exited while its output stays open (a process it started holds it): the
    /// holders are killed (else they outlive the match), which ends the output, and what the
    /// program wrote before it exited is read to that end; then its exit is the failure.
    fn exited_with_output_held(
        &mut self,
        each: &mut impl FnMut(&str) -> bool,
    ) -> Result<(), Failure> {
        kill_all(&holders(self.output_pipe.as_deref()));
        // The end comes once the holders are gone; a holder that could not be killed leaves
        // the pipe open, so the reading is bounded too.
        let until = Instant::now() + Duration::from_secs(2);
        while let Ok(l) = self.lines.recv_deadline(until) {
            if each(&l) {
                return Ok(());
            }
        }
        Err(self.exited("exited"))
    }

    /// The failure for a program that went away: `what` it did, and its exit status once known.
    fn exited(&mut self, what: &'static str) -> Failure {
        // The output closes a moment before the process can be reaped; wait a little for its status.
        let mut status = None;
        for _ in 0..20 {
            if let Ok(Some(s)) = self.child.try_wait() {
                status = Some(s);
                break;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        // What it started that still holds its output (its stderr too, as a rule) goes with it.
        if status.is_some() {
            kill_all(&holders(self.output_pipe.as_deref()));
        }
        // Its last words on stderr, once the reader has seen them to the end.
        let _ = self.stderr_closed.recv_timeout(Duration::from_millis(200));
        Failure::Exited {
            what,
            status: status.map(|s| s.to_string()),
            stderr: self.stderr_tail(),
        }
    }

    /// The last lines the program wrote to stderr, joined with ` | ` and cut to a readable length.
    pub fn stderr_tail(&self) -> String {
        const MAX: usize = 300;
        let tail = self.stderr_tail.lock().unwrap_or_else(|p| p.into_inner());
        let text = tail.iter().cloned().collect::<Vec<_>>().join(" | ");
        if text.chars().count() > MAX {
            let cut: String = text.chars().take(MAX).collect();
            format!("{cut}...")
        } else {
            text
        }
    }
}

/// Makes the program die with the runner, even a runner killed by SIGKILL (which runs no `Drop`):
/// the kernel sends it SIGKILL when the thread that started it ends. It gets a process group of
/// its own, so that the terminal's signals reach the runner alone. The match starts each engine in
/// the worker thread that uses it to the end of the match, so that is the runner's end.
#[cfg(target_os = "linux")]
fn die_with_parent(command: &mut Command) {
    use std::os::unix::process::CommandExt;
    let runner = std::process::id() as libc::pid_t;
    // SAFETY: the hook runs in the child between fork and exec, where only async-signal-safe work
    // is allowed (another thread of the runner may have held a lock at the fork). It calls only
    // prctl, getppid and setpgid, which are plain system calls that take no lock and allocate
    // nothing, reads the captured integer, and on error builds an io::Error from a raw errno, which
    // does not allocate either. No memory is shared with the parent's threads.
    unsafe {
        command.pre_exec(move || {
            if libc::prctl(
                libc::PR_SET_PDEATHSIG,
                libc::SIGKILL as libc::c_ulong,
                0 as libc::c_ulong,
                0 as libc::c_ulong,
                0 as libc::c_ulong,
            ) == -1
            {
                return Err(std::io::Error::last_os_error());
            }
            // The runner may have died before the prctl took effect; then nobody would send the
            // signal, so the child must not go on.
            if libc::getppid() != runner {
                return Err(std::io::Error::from_raw_os_error(libc::ESRCH));
            }
            // A process group of its own: a Ctrl-C at the terminal goes to the runner alone, which
            // ends the match and its engines in order, instead of killing the engines mid-game
            // (their games counted as crashes) while the runner looks on.
            if libc::setpgid(0, 0) == -1 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
}

/// Elsewhere the engines are only killed when their [`Pipe`] is dropped.
#[cfg(not(target_os = "linux"))]
fn die_with_parent(_: &mut Command) {}

impl Drop for Pipe {
    fn drop(&mut self) {
        // What the engine started (a wrapper script's engine), taken before `quit` lets the
        // wrapper end and its children pass to another parent.
        let mut family = descendants(self.child.id());
        let _ = writeln!(self.stdin, "quit");
        let _ = self.stdin.flush();
        let deadline = Instant::now() + Duration::from_millis(500);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                kill_all(&family);
                kill_all(&holders(self.output_pipe.as_deref()));
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        family.extend(descendants(self.child.id()));
        kill_all(&family);
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A process: its id and its start time (in clock ticks after boot, from `/proc/PID/stat`), which
/// tell it from a later process given the same id.
type Process = (u32, u64);

/// The start time of process `pid`, if it is running (or a zombie).
#[cfg(target_os = "linux")]
fn start_time(pid: u32) -> Option<u64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The fields after the command name's closing parenthesis; the start time is field 22 of the
    // line, the 20th of these.
    let fields = stat.rsplit_once(')')?.1;
    fields.split_whitespace().nth(19)?.parse().ok()
}

/// The processes `pid` started, and theirs, from `/proc/PID/task/TID/children`: an engine run by a
/// wrapper script that did not `exec` it is the script's child, and is killed with the script.
#[cfg(target_os = "linux")]
fn descendants(pid: u32) -> Vec<Process> {
    let mut found: Vec<Process> = Vec::new();
    let mut queue = vec![pid];
    while let Some(p) = queue.pop() {
        let Ok(tasks) = std::fs::read_dir(format!("/proc/{p}/task")) else {
            continue;
        };
        for task in tasks.flatten() {
            let Ok(text) = std::fs::read_to_string(task.path().join("children")) else {
                continue;
            };
            for child in text
                .split_whitespace()
                .filter_map(|w| w.parse::<u32>().ok())
            {
                // A process tree has no cycles, but a pid reused while it is read could make one.
                if child != pid && !found.iter().any(|&(f, _)| f == child) {
                    if let Some(start) = start_time(child) {
                        found.push((child, start));
                        queue.push(child);
                    }
                }
            }
        }
    }
    found
}

/// Elsewhere only the engine's own process is followed.
#[cfg(not(target_os = "linux"))]
fn descendants(_: u32) -> Vec<Process> {
    Vec::new()
}

/// The name `/proc` gives the pipe behind `fd` (`pipe:[inode]`, the same for both ends).
#[cfg(target_os = "linux")]
fn pipe_name(fd: &impl std::os::fd::AsRawFd) -> Option<std::path::PathBuf> {
    std::fs::read_link(format!("/proc/self/fd/{}", fd.as_raw_fd())).ok()
}

#[cfg(not(target_os = "linux"))]
fn pipe_name<T>(_: &T) -> Option<std::path::PathBuf> {
    None
}

/// The processes that hold the write end of the pipe named `pipe` open: after an engine has
/// exited, those it started that inherited its output (they passed to another parent, so
/// [`descendants`] no longer finds them). The runner holds only the read end, and so does a child
/// of the runner between its fork and its exec (another engine being started), whose copies of
/// the runner's descriptors include that read end: such children are left out as well. A process's
/// start time is read before its descriptors, so a reused id is never taken for the holder.
#[cfg(target_os = "linux")]
fn holders(pipe: Option<&Path>) -> Vec<Process> {
    let (Some(pipe), Ok(all)) = (pipe, std::fs::read_dir("/proc")) else {
        return Vec::new();
    };
    let runner = std::process::id();
    let writes = |pid: u32, fd: &std::fs::DirEntry| {
        std::fs::read_link(fd.path()).is_ok_and(|l| l == pipe)
            && std::fs::read_to_string(format!(
                "/proc/{pid}/fdinfo/{}",
                fd.file_name().to_string_lossy()
            ))
            .ok()
            .and_then(|info| field_after(&info, "flags:"))
            .and_then(|flags| u32::from_str_radix(&flags, 8).ok())
            .is_some_and(|flags| flags & 3 != 0)
    };
    all.flatten()
        .filter_map(|e| e.file_name().to_str()?.parse::<u32>().ok())
        .filter(|&pid| pid != runner && parent(pid) != Some(runner))
        .filter_map(|pid| Some((pid, start_time(pid)?)))
        .filter(|&(pid, _)| {
            std::fs::read_dir(format!("/proc/{pid}/fd"))
                .is_ok_and(|fds| fds.flatten().any(|fd| writes(pid, &fd)))
        })
        .collect()
}

/// The first word after `name` at the start of a line of `text`.
#[cfg(target_os = "linux")]
fn field_after(text: &str, name: &str) -> Option<String> {
    text.lines()
        .find_map(|l| l.strip_prefix(name))
        .and_then(|v| v.split_whitespace().next())
        .map(str::to_string)
}

/// The parent of process `pid`, from `/proc/PID/stat`.
#[cfg(target_os = "linux")]
fn parent(pid: u32) -> Option<u32> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // After the command name's closing parenthesis: the state, then the parent.
    stat.rsplit_once(')')?
        .1
        .split_whitespace()
        .nth(1)?
        .parse()
        .ok()
}

#[cfg(not(target_os = "linux"))]
fn holders(_: Option<&Path>) -> Vec<Process> {
    Vec::new()
}

/// Sends SIGKILL to each of `processes` that still runs: one whose id now names a process started
/// at another time (the id was reused) is left alone.
#[cfg(target_os = "linux")]
fn kill_all(processes: &[Process]) {
    for &(pid, start) in processes {
        if start_time(pid) == Some(start) {
            // SAFETY: kill(2) takes plain integers and touches no memory of this process.
            unsafe {
                libc::kill(pid as libc::pid_t, libc::SIGKILL);
            }
        }
    }
}

#[cfg(not(target_os = "linux"))]
fn kill_all(_: &[Process]) {}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whether process `pid` is gone or a zombie waiting for its new parent to reap it.
    #[cfg(target_os = "linux")]
    fn ended(pid: u32) -> bool {
        match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
            Err(_) => true,
            // The state follows the command name's closing parenthesis.
            Ok(stat) => stat
                .rsplit(')')
                .next()
                .unwrap_or("")
                .trim_start()
                .starts_with('Z'),
        }
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn an_engine_a_wrapper_script_started_ends_with_the_wrapper() {
        let dir = std::env::temp_dir().join(format!("wedge-pipe-wrapper-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        // The wrapper starts its "engine" without exec, then waits for it ignoring `quit` (killed
        // after the grace), or ends at `quit` leaving it behind.
        for (k, end) in ["wait", "read line"].into_iter().enumerate() {
            wrapper_case(&dir.join(format!("engine-{k}.pid")), end);
        }
        std::fs::remove_dir_all(&dir).ok();
    }

    #[cfg(target_os = "linux")]
    fn wrapper_case(pid_file: &std::path::Path, end: &str) {
        let script = format!("sleep 300 & echo $! > {}; {end}", pid_file.display());
        let (_stop_tx, stop) = crossbeam_channel::bounded::<()>(0);
        let pipe = Pipe::spawn("sh", &["-c".to_string(), script], None, stop).unwrap();
        let deadline = Instant::now() + Duration::from_secs(10);
        let engine = loop {
            if let Some(pid) = std::fs::read_to_string(pid_file)
                .ok()
                .and_then(|t| t.trim().parse::<u32>().ok())
            {
                break pid;
            }
            assert!(
                Instant::now() < deadline,
                "the wrapper did not start its engine"
            );
            std::thread::sleep(Duration::from_millis(10));
        };
        assert!(!ended(engine));
        drop(pipe);
        let deadline = Instant::now() + Duration::from_secs(10);
        while !ended(engine) && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(10));
        }
        let survived = !ended(engine);
        if survived {
            if let Some(start) = start_time(engine) {
                kill_all(&[(engine, start)]);
            }
        }
        assert!(
            !survived,
            "{end}: the wrapper's engine outlived the runner's kill"
        );
    }

    /// An engine that exits while a process it started keeps its output open is seen to have
    /// exited (its status named, not a wait to the deadline taken for a hang), what it wrote
    /// before is still read, and the process holding its output is killed.
    #[cfg(target_os = "linux")]
    #[test]
    fn an_exit_with_the_output_held_open_is_an_exit() {
        let dir = std::env::temp_dir().join(format!("wedge-pipe-held-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let pid_file = dir.join("holder.pid");
        let script = format!(
            "sleep 300 & echo $! > {}; echo ready; read line; echo last words; exit 4",
            pid_file.display()
        );
        let (_stop_tx, stop) = crossbeam_channel::bounded::<()>(0);
        let mut pipe = Pipe::spawn("sh", &["-c".to_string(), script], None, stop).unwrap();
        let deadline = Instant::now() + Duration::from_secs(60);
        assert_eq!(pipe.wait_for(|l| l == "ready", deadline).unwrap(), "ready");
        let holder: u32 = std::fs::read_to_string(&pid_file)
            .unwrap()
            .trim()
            .parse()
            .unwrap();
        pipe.send("go").unwrap();
        let last = pipe.wait_for(|l| l == "last words", deadline);
        let failure = pipe.wait_for(|l| l == "never", deadline).unwrap_err();
        let gone = Instant::now() + Duration::from_secs(10);
        while !ended(holder) && Instant::now() < gone {
            std::thread::sleep(Duration::from_millis(10));
        }
        let survived = !ended(holder);
        if let (true, Some(start)) = (survived, start_time(holder)) {
            kill_all(&[(holder, start)]);
        }
        std::fs::remove_dir_all(&dir).ok();
        assert_eq!(last.unwrap(), "last words");
        match failure {
            Failure::Exited { status, .. } => {
                assert_eq!(status.as_deref(), Some("exit status: 4"))
            }
            other => panic!("expected an exit, got {other:?}"),
        }
        assert!(
            !survived,
            "the process holding the output outlived the engine"
        );
    }

    /// An engine's stderr log stops at its cap with a line that says so; the tail for messages is
    /// still the engine's last lines.
    #[cfg(unix)]
    #[test]
    fn a_flood_on_stderr_stops_at_the_logs_cap() {
        let dir = std::env::temp_dir().join(format!("wedge-pipe-flood-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let log = dir.join("e.stderr.log");
        let script = "i=0; while [ $i -lt 500 ]; do echo \"noise line $i\" >&2; i=$((i+1)); done; \
                      echo last words >&2; echo done; read line";
        let (_stop_tx, stop) = crossbeam_channel::bounded::<()>(0);
        let mut pipe =
            Pipe::spawn("sh", &["-c".to_string(), script.into()], Some(&log), stop).unwrap();
        let deadline = Instant::now() + Duration::from_secs(60);
        pipe.wait_for(|l| l == "done", deadline).unwrap();
        // The stderr reader may lag the output a moment.
        while !pipe.stderr_tail().contains("last words") && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(10));
        }
        let tail = pipe.stderr_tail();
        drop(pipe);
        let text = std::fs::read_to_string(&log).unwrap();
        std::fs::remove_dir_all(&dir).ok();
        assert!(tail.contains("last words"), "{tail}");
        assert!(
            text.len() as u64 <= MAX_STDERR_LOG + 100,
            "{} bytes",
            text.len()
        );
        assert!(text.starts_with("noise line 0\n"), "{text}");
        assert!(
            text.ends_with("[wedge match: this engine's stderr past 0 MB is not kept]\n"),
            "{text}"
        );
    }

    #[test]
    fn lines_are_read_whole_up_to_the_cap_and_cut_beyond_it() {
        let mut input = b"info depth 1\r\n".to_vec();
        input.extend(std::iter::repeat_n(b'x', 3 * MAX_LINE + 5));
        input.extend_from_slice(b"\nbestmove d3\nlast");
        // A small buffer, so that lines span many reads.
        let mut reader = BufReader::with_capacity(7, &input[..]);
        let mut line = Vec::new();
        let mut lines = Vec::new();
        while read_line_capped(&mut reader, &mut line) {
            lines.push(line.clone());
        }
        assert_eq!(lines.len(), 4);
        assert_eq!(lines[0], b"info depth 1\r\n");
        assert_eq!(lines[1].len(), MAX_LINE);
        assert!(lines[1].iter().all(|&b| b == b'x'));
        assert_eq!(lines[2], b"bestmove d3\n");
        assert_eq!(lines[3], b"last");
        // An overlong last line without a newline still counts as a line.
        let long = vec![b'y'; MAX_LINE + 1];
        let mut reader = BufReader::new(&long[..]);
        assert!(read_line_capped(&mut reader, &mut line));
        assert_eq!(line.len(), MAX_LINE);
        assert!(!read_line_capped(&mut reader, &mut line));
        // A line of exactly the cap, and a `\r\n` split between two reads of the buffer.
        let mut input = vec![b'z'; MAX_LINE];
        input.extend_from_slice(b"\nok\r\nend\n");
        let mut reader = BufReader::with_capacity(MAX_LINE + 4, &input[..]);
        assert!(read_line_capped(&mut reader, &mut line));
        assert_eq!(line.len(), MAX_LINE);
        assert!(read_line_capped(&mut reader, &mut line));
        assert_eq!(line, b"ok\r\n");
        assert!(read_line_capped(&mut reader, &mut line));
        assert_eq!(line, b"end\n");
    }
}
