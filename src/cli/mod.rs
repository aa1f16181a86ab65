//! The command line's tools, one file each: a tool's arguments (clap), its handler and its output.
//! `main.rs` parses the command line and dispatches; a handler prints its results on stdout and
//! returns an error as text, which only `main` prints (library code returns typed errors; they
//! become text here).

/// `print!` that drops the text when standard output is closed, instead of panicking: for the
/// tools that keep SIGPIPE ignored because they write to engines' pipes (`match`, `tune`), whose
/// output a user may cut short (`wedge match ... | head`) while games go on. Any other failure (a
/// full disk) is kept as [`out`] keeps it, and fails the tool at its end.
macro_rules! print_or_drop {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let mut out = std::io::stdout().lock();
        let written = write!(out, $($arg)*).and_then(|()| out.flush());
        crate::cli::keep_stdout_failure(written);
    }};
}

/// `print!` for a tool's results that never panics: a failed write (a full disk, a device error)
/// is kept ([`stdout_failure`]) and the tool goes on, so that the files it writes after its
/// output are not lost; `main` then reports the failure and exits with an error. A closed pipe
/// never gets here: it ends the process first (SIGPIPE, `main.rs`).
macro_rules! out {
    ($($arg:tt)*) => {
        crate::cli::write_stdout(format_args!($($arg)*))
    };
}

/// `println!` of [`out`]'s kind.
macro_rules! outln {
    () => {
        out!("\n")
    };
    ($($arg:tt)*) => {
        out!("{}\n", format_args!($($arg)*))
    };
}

/// The first failed write to standard output, as the error to report.
static STDOUT_FAILED: std::sync::OnceLock<String> = std::sync::OnceLock::new();

/// Writes a tool's result to standard output; a failure is kept for [`stdout_failure`].
pub fn write_stdout(args: std::fmt::Arguments) {
    use std::io::Write as _;
    if let Err(e) = std::io::stdout().lock().write_fmt(args) {
        let _ = STDOUT_FAILED.set(format!("cannot write to standard output: {e}"));
    }
}

/// Keeps a failed write to standard output for [`stdout_failure`], unless the reader closed it.
pub fn keep_stdout_failure(written: std::io::Result<()>) {
    if let Err(e) = written {
        if e.kind() != std::io::ErrorKind::BrokenPipe {
            let _ = STDOUT_FAILED.set(format!("cannot write to standard output: {e}"));
        }
    }
}

/// Why a tool's output could not be written, if it could not.
pub fn stdout_failure() -> Option<&'static str> {
    STDOUT_FAILED.get().map(String::as_str)
}

/// `eprintln!` that drops the line when standard error is closed ([`print_or_drop`]'s reason).
macro_rules! eprintln_or_drop {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr().lock(), $($arg)*);
    }};
}

pub mod analyze;
pub mod bench;
pub mod book;
pub mod client;
pub mod data;
pub mod engine;
pub mod evaltest;
pub mod gui;
pub mod matches;
pub mod mpc;
pub mod perft;
pub mod play;
pub mod server;
pub mod solve;
pub mod training;
pub mod tune;
pub mod variant;
pub mod weights;

use std::path::Path;
use std::time::Instant;

/// A number of threads (or games, or jobs) at once: 1 to 1024.
pub fn thread_count(text: &str) -> Result<usize, String> {
    bounded_count(text, 1, 1024)
}

/// Threads of one search, as the engine's `Threads` option allows: 1 to 256.
pub fn search_threads(text: &str) -> Result<usize, String> {
    bounded_count(text, 1, 256)
}

/// Games played at once by `match` and `tune`: 1 to 256 (each game runs its own engines).
pub fn concurrency(text: &str) -> Result<usize, String> {
    bounded_count(text, 1, 256)
}

/// A table size in MB: 1 MB to 1 TB (whether the memory is there is checked when it is allocated).
pub fn hash_mb(text: &str) -> Result<usize, String> {
    bounded_count(text, 1, 1 << 20)
}

/// Games (or pairs of games) a tool plays: 1 to [`MAX_GAMES`]. Tools hold a plan of their games
/// in memory, so an absurd count is refused here rather than failing an allocation.
pub fn game_count(text: &str) -> Result<usize, String> {
    bounded_count(text, 1, MAX_GAMES)
}

/// The most games a tool plays in one run (ten million: weeks of play at any time control).
pub const MAX_GAMES: usize = 10_000_000;

/// A time limit in whole seconds: 1 second to a day.
pub fn timeout_seconds(text: &str) -> Result<u64, String> {
    bounded_count(text, 1, 86_400).map(|n| n as u64)
}

/// A Multi-ProbCut confidence in percent as the tools take it: one of the levels' confidences
/// (73, 87, 95, 98, 99) or 100 (full width). The `Selectivity` option rounds a value in between
/// up, as a spin must; a tool's flag refuses it, so that a run records what it ran.
pub fn selectivity_percent(text: &str) -> Result<u8, String> {
    use wedge::search::selectivity::MPC_CONFIDENCE;
    let listed = || {
        let all: Vec<String> = MPC_CONFIDENCE.iter().map(|c| c.to_string()).collect();
        format!("{} or 100 (full width)", all.join(", "))
    };
    let n: u8 = text
        .trim()
        .parse()
        .map_err(|_| format!("'{text}' is not one of {}", listed()))?;
    if n == 100 || MPC_CONFIDENCE.contains(&n) {
        Ok(n)
    } else {
        Err(format!("{n} is not one of {}", listed()))
    }
}

/// A whole number of at least 1 (a count, a time in milliseconds).
pub fn at_least_one<T: std::str::FromStr + PartialOrd + From<u8>>(text: &str) -> Result<T, String> {
    match text.trim().parse::<T>() {
        Ok(n) if n >= T::from(1) => Ok(n),
        _ => Err(format!("'{text}' is not a whole number of at least 1")),
    }
}

/// A shard of a long job: parses `I/N` (1 <= I <= N) into (I - 1, N).
pub fn parse_shard(text: &str) -> Result<(usize, usize), String> {
    let bad = || format!("'{text}': expected I/N with 1 <= I <= N, e.g. 3/8");
    let (i, n) = text.split_once('/').ok_or_else(bad)?;
    let (i, n): (usize, usize) = (
        i.trim().parse().map_err(|_| bad())?,
        n.trim().parse().map_err(|_| bad())?,
    );
    if i == 0 || i > n {
        return Err(bad());
    }
    Ok((i - 1, n))
}

/// A whole number from `text` between `min` and `max` inclusive, or an error saying the range.
pub fn bounded_count(text: &str, min: usize, max: usize) -> Result<usize, String> {
    let n: usize = text
        .trim()
        .parse()
        .map_err(|_| format!("'{text}' is not a whole number"))?;
    if n < min || n > max {
        return Err(format!("must be {min} to {max}, got {n}"));
    }
    Ok(n)
}

/// A progress reporter for long jobs (book build and extend, datagen): an indicatif bar with rate
/// and ETA redrawn in place on a terminal; a log line every 10 seconds otherwise (indicatif draws
/// nothing when stderr is not a terminal, so logs and CI output get the plain lines).
pub fn progress_reporter(what: &'static str) -> impl Fn(usize, usize) + Sync {
    use std::io::IsTerminal;
    let start = Instant::now();
    let tty = std::io::stderr().is_terminal();
    let bar = indicatif::ProgressBar::new(0);
    if let Ok(style) = indicatif::ProgressStyle::with_template(
        "{prefix} [{bar:30}] {pos}/{len} {per_sec} ETA {eta}",
    ) {
        bar.set_style(style.progress_chars("#>-"));
    }
    bar.set_prefix(what);
    let last_log = std::sync::Mutex::new(Instant::now());
    let first_done = std::sync::OnceLock::new();
    move |done: usize, total: usize| {
        if tty {
            bar.set_length(total as u64);
            bar.set_position(done as u64);
            if done == total {
                bar.finish();
            }
            return;
        }
        // The rate counts only this run's work: a resumed run starts with work already done.
        let before = *first_done.get_or_init(|| done.saturating_sub(1));
        let secs = start.elapsed().as_secs_f64();
        let rate = done.saturating_sub(before) as f64 / secs.max(1e-3);
        let eta = if rate > 0.0 {
            (total.saturating_sub(done)) as f64 / rate
        } else {
            0.0
        };
        if let Ok(mut last) = last_log.lock() {
            if last.elapsed().as_secs() >= 10 || done == total {
                *last = Instant::now();
                eprintln!(
                    "{what}: {done}/{total} ({:.1}%), {rate:.1}/s, ETA {eta:.0}s",
                    100.0 * done as f64 / total.max(1) as f64
                );
            }
        }
    }
}

/// The evaluation a weights file gives (either kind), as `setoption name EvalFile` would load it;
/// an error starts with `--eval-file`, the flag that names the file.
pub fn load_evaluator(path: &Path) -> Result<wedge::eval::Evaluator, String> {
    let mut options = wedge::engine::options::Options::default();
    options
        .set("EvalFile", Some(&path.to_string_lossy()))
        .map_err(|e| format!("--eval-file: {}", e.detail()))?;
    Ok(options.evaluator())
}

/// Writes `bytes` beside `path` and renames them over it, so that a reader never sees half a file
/// and a failed write (a full disk) leaves the old file as it was.
pub fn write_atomically(path: &Path, bytes: impl AsRef<[u8]>) -> Result<(), String> {
    wedge::files::write_whole(path, bytes.as_ref())
        .map_err(|e| format!("writing {}: {e}", path.display()))
}

/// Writes a JSON document with [`write_atomically`].
pub fn write_json(path: &Path, doc: &impl serde::Serialize) -> Result<(), String> {
    let text = serde_json::to_string_pretty(doc).map_err(|e| e.to_string())? + "\n";
    write_atomically(path, text)
}

/// Refuses an output that is one of the inputs under any name (writing it would destroy what the
/// run reads), naming the command, or that cannot be written ([`check_output`]).
pub fn check_not_input<'a>(
    command: &str,
    out: &Path,
    inputs: impl IntoIterator<Item = &'a Path>,
) -> Result<(), String> {
    check_outputs(command, &[("--out", out)], inputs)
}

/// The file a path names, for comparing paths: the canonical path of an existing file, else its
/// canonical folder and its name (a file not yet written).
fn file_identity(path: &Path) -> Option<std::path::PathBuf> {
    if let Ok(p) = std::fs::canonicalize(path) {
        return Some(p);
    }
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    Some(std::fs::canonicalize(dir).ok()?.join(path.file_name()?))
}

/// Refuses outputs (each with the flag that names it) that are one of the inputs or the same file
/// as another output: writing one would destroy an input, or the last written would replace the
/// other. Also checks each output with [`check_output`].
pub fn check_outputs<'a>(
    command: &str,
    outputs: &[(&str, &Path)],
    inputs: impl IntoIterator<Item = &'a Path>,
) -> Result<(), String> {
    let inputs: Vec<_> = inputs.into_iter().filter_map(file_identity).collect();
    let targets: Vec<_> = outputs.iter().map(|(_, out)| file_identity(out)).collect();
    for (i, &(flag, out)) in outputs.iter().enumerate() {
        check_output(out)?;
        let Some(target) = &targets[i] else {
            continue;
        };
        if inputs.contains(target) {
            return Err(format!(
                "{command}: {}: {flag} is one of the inputs",
                out.display()
            ));
        }
        let partial = wedge::files::partial_path(out);
        if file_identity(&partial).is_some_and(|p| inputs.contains(&p)) {
            return Err(format!(
                "{command}: {}: an input, and the file {flag} is written through (use another \
                 name for it)",
                partial.display()
            ));
        }
        if let Some(j) = targets[..i].iter().position(|t| t.as_ref() == Some(target)) {
            let other = outputs[j].0;
            return Err(format!(
                "{command}: {}: {flag} and {other} name the same file",
                out.display()
            ));
        }
    }
    Ok(())
}

/// Refuses an output path that cannot be written before a long run starts, rather than after it:
/// a folder, a file in a folder that does not exist, an existing file this user cannot open for
/// writing, or a new one in a folder that takes no new file.
pub fn check_output(path: &Path) -> Result<(), String> {
    // `out/` names a folder even where none exists yet (the file would be `out/.partial`).
    let text = path.as_os_str().as_encoded_bytes();
    if path.is_dir() || text.ends_with(b"/") || path.file_name().is_none() {
        return Err(format!("{}: a folder, not a file to write", path.display()));
    }
    // A symbolic link is written through: the folder that matters is its target's.
    let target = wedge::files::link_target(path);
    // Results go through a file beside it, renamed over it, or are read back before more is
    // appended: a device or FIFO would hang the reading or lose the writing.
    if std::fs::metadata(path).is_ok_and(|m| !m.is_file()) {
        return Err(format!(
            "{}: not a regular file (a FIFO, device or socket): only regular files are written",
            path.display()
        ));
    }
    let dir = match target.parent() {
        Some(dir) if dir.as_os_str().is_empty() => Path::new("."),
        Some(dir) => dir,
        None => return Ok(()),
    };
    if !dir.is_dir() {
        return Err(format!(
            "{}: the folder {} does not exist",
            path.display(),
            dir.display()
        ));
    }
    // A file there must open for writing (some outputs are appended to in place), and the folder
    // must take a new file (whole outputs are written beside and renamed over the old one, and
    // appended ones keep their run record or logs beside): a probe file is made and removed.
    if path.is_file() {
        if let Err(e) = std::fs::OpenOptions::new().append(true).open(path) {
            return Err(format!("{}: cannot write it: {e}", path.display()));
        }
    }
    let probe = dir.join(format!(".wedge-probe-{}", std::process::id()));
    match std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&probe)
    {
        Ok(_) => {
            let _ = std::fs::remove_file(&probe);
            Ok(())
        }
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(()),
        Err(e) => Err(format!(
            "{}: cannot write in the folder {}: {e}",
            path.display(),
            dir.display()
        )),
    }
}

/// A channel that disconnects on the first SIGINT, SIGTERM or SIGHUP (`None` where no handler
/// could be set), and the signal's number once it came (0 before): a match or tuning run then
/// ends its engines (with what they started) and reports what it played. A second signal ends the
/// runner at once with status 128 + its number. Without the handler the signals keep their default
/// action: the runner ends, and only its own children die with it.
pub fn interrupt_on_signals() -> (
    Option<crossbeam_channel::Receiver<()>>,
    std::sync::Arc<std::sync::atomic::AtomicI32>,
) {
    use std::sync::{atomic::AtomicI32, Arc};
    let came = Arc::new(AtomicI32::new(0));
    #[cfg(unix)]
    {
        use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
        use std::sync::atomic::Ordering;
        // SIGHUP too: a closed terminal or SSH session must not leave what a wrapper started.
        if let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP]) {
            let (tx, rx) = crossbeam_channel::bounded::<()>(0);
            let seen = came.clone();
            std::thread::spawn(move || {
                let mut tx = Some(tx);
                for signal in signals.forever() {
                    if tx.is_none() {
                        std::process::exit(128 + signal);
                    }
                    // The number first: the match may end as soon as the channel disconnects.
                    seen.store(signal, Ordering::SeqCst);
                    drop(tx.take());
                }
            });
            return (Some(rx), came);
        }
    }
    (None, came)
}
