//! The identity of a long job's run, so that its parts (shards, resumes) can be told from another
//! run's: a hash of everything that decides the job's results, kept beside a data file in
//! `<file>.run` (training data) or in each game record (matches, `GN[... run <id>]`).

use std::fmt;
use std::path::{Path, PathBuf};

/// A run's identity: the 64-bit FNV-1a hash of `text` (everything that decides the run's results)
/// as 16 hex digits. An identity, not a secret.
pub fn run_id(text: &str) -> String {
    let hash = text.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, c| {
        (h ^ u64::from(c)).wrapping_mul(0x0100_0000_01b3)
    });
    format!("{hash:016x}")
}

/// Where a data file's run is recorded: `<file>.run`.
pub fn run_file(data: &Path) -> PathBuf {
    let mut p = data.as_os_str().to_owned();
    p.push(".run");
    PathBuf::from(p)
}

/// The text of `data`'s run file: a regular file of a few lines (a FIFO or device there is not
/// one, and would block the reading), read as text even where bytes are not UTF-8.
fn run_text(data: &Path) -> Option<String> {
    let bytes = crate::files::read_regular(&run_file(data), 1 << 16).ok()?;
    Some(String::from_utf8_lossy(&bytes).into_owned())
}

/// The run recorded beside `data`, if one is.
pub fn recorded_run(data: &Path) -> Option<String> {
    let text = run_text(data)?;
    Some(text.lines().next()?.trim().to_string())
}

/// The part of its run that `data` holds (`I/N`, a shard), where its run file records one.
pub fn recorded_part(data: &Path) -> Option<String> {
    let text = run_text(data)?;
    text.lines()
        .find_map(|l| l.strip_prefix("part "))
        .map(|p| p.trim().to_string())
}

/// Why a run could not go on in a file.
#[derive(Debug)]
pub enum RunError {
    /// The file holds the data of another run.
    Other {
        /// The data file.
        data: PathBuf,
        /// The run it holds.
        then: String,
        /// The run now.
        now: String,
    },
    /// The file holds another part of the same run (another `--shard`).
    OtherPart {
        /// The data file.
        data: PathBuf,
        /// The part it holds.
        then: String,
        /// The part now.
        now: String,
    },
    /// The run file could not be written.
    Write(PathBuf, std::io::Error),
    /// The file has data but no run file: it was not written by a run (another kind of file, or
    /// the job's input given as its output); nothing is appended to it or cut from it.
    NotARun(PathBuf),
}

impl fmt::Display for RunError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RunError::Other { data, then, now } => write!(
                f,
                "{} holds the data of another run (run {then}, now {now}: other arguments, \
                 openings or version); give another --out, or the same arguments to resume it",
                data.display()
            ),
            RunError::OtherPart { data, then, now } => write!(
                f,
                "{} holds part {then} of this run, not part {now}: give each --shard its own \
                 --out (a part resumes with its own --shard)",
                data.display()
            ),
            RunError::Write(path, e) => write!(f, "{}: {e}", path.display()),
            RunError::NotARun(data) => write!(
                f,
                "{} exists and no {} says a run wrote it (another file, or an input given as \
                 the output?); give another --out (a run's data that lost its run file still \
                 merges into training data as it is)",
                data.display(),
                run_file(data).display()
            ),
        }
    }
}

impl std::error::Error for RunError {}

/// The openings of a run as one line of text for its [`run_id`]: each start position and moves.
pub fn openings_text(openings: &[crate::board::text::Game]) -> String {
    let mut text = String::new();
    for o in openings {
        text.push_str(&o.start.to_string());
        text.push_str(&o.transcript());
        text.push('|');
    }
    text
}

/// Records run `id` (described by `about`, a line for people) and the file's `part` of it (`I/N`)
/// beside `data`, or checks that the ones recorded there are the same: a resumed or sharded run
/// appends only to its own data, and a shard only to its own part (a run file without a part is
/// taken for any). A data
/// file with no run recorded is refused (it is not a run's); a run recorded for a missing or empty
/// data file (a run that failed before writing) is replaced, unless a run holds the file's lock
/// (it is still playing its first game). A file of at most `header` bytes (a binary data file's
/// header, written before the first game) counts as empty.
pub fn claim_run(
    data: &Path,
    id: &str,
    about: &str,
    part: &str,
    header: u64,
) -> Result<(), RunError> {
    let in_use = std::fs::File::open(data)
        .is_ok_and(|f| matches!(f.try_lock(), Err(std::fs::TryLockError::WouldBlock)));
    let has_data = in_use || std::fs::metadata(data).is_ok_and(|m| m.len() > header);
    match recorded_run(data) {
        Some(then) if then == id => match recorded_part(data) {
            Some(p) if p != part && has_data => Err(RunError::OtherPart {
                data: data.to_path_buf(),
                then: p,
                now: part.to_string(),
            }),
            Some(p) if p == part => Ok(()),
            None if has_data => Ok(()),
            _ => write_run_file(data, id, about, part),
        },
        None if has_data => Err(RunError::NotARun(data.to_path_buf())),
        Some(then) if has_data => Err(RunError::Other {
            data: data.to_path_buf(),
            then,
            now: id.to_string(),
        }),
        _ => write_run_file(data, id, about, part),
    }
}

fn write_run_file(data: &Path, id: &str, about: &str, part: &str) -> Result<(), RunError> {
    let path = run_file(data);
    // Opening a FIFO there to write would wait for a reader forever.
    if std::fs::metadata(&path).is_ok_and(|m| !m.is_file()) {
        let e = crate::files::FileFault::NotRegularBeside.into();
        return Err(RunError::Write(path, e));
    }
    std::fs::write(&path, format!("{id}\n{about}\npart {part}\n"))
        .map_err(|e| RunError::Write(path, e))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_is_claimed_once_and_others_are_refused() {
        let dir = std::env::temp_dir().join(format!("wedge-run-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let data = dir.join("d.wdb");
        let _ = std::fs::remove_file(run_file(&data));
        let (a, b) = (run_id("seed 1"), run_id("seed 2"));
        assert_ne!(a, b);
        assert_eq!(a.len(), 16);
        claim_run(&data, &a, "datagen seed 1", "1/1", 0).unwrap();
        claim_run(&data, &a, "datagen seed 1", "1/1", 0).unwrap();
        assert_eq!(recorded_run(&data), Some(a.clone()));
        // While the data file is missing or empty, another run may take it over.
        claim_run(&data, &b, "datagen seed 2", "1/1", 0).unwrap();
        assert_eq!(recorded_run(&data), Some(b.clone()));
        // A header and no game yet (a run killed in its first game) is still no data.
        std::fs::write(&data, [0u8; 16]).unwrap();
        claim_run(&data, &a, "datagen seed 1", "1/1", 16).unwrap();
        assert_eq!(recorded_run(&data), Some(a.clone()));
        let e = claim_run(&data, &b, "datagen seed 2", "1/1", 15).unwrap_err();
        assert!(e.to_string().contains("another run"), "{e}");
        claim_run(&data, &b, "datagen seed 2", "1/1", 16).unwrap();
        std::fs::write(&data, "f5 +0\n").unwrap();
        let e = claim_run(&data, &a, "datagen seed 1", "1/1", 0).unwrap_err();
        assert!(e.to_string().contains("another run"), "{e}");
        claim_run(&data, &b, "datagen seed 2", "1/1", 0).unwrap();
        // A file with data that no run claims (an openings file given as --out) is refused.
        let other = dir.join("openings.txt");
        std::fs::write(&other, "f5d6\n").unwrap();
        let e = claim_run(&other, &a, "datagen seed 1", "1/1", 0).unwrap_err();
        assert!(e.to_string().contains("no "), "{e}");
        assert_eq!(std::fs::read_to_string(&other).unwrap(), "f5d6\n");
        // A file holds one part of its run: another --shard of the same run is refused.
        let e = claim_run(&data, &b, "datagen seed 2", "1/3", 0).unwrap_err();
        assert!(e.to_string().contains("part 1/1"), "{e}");
        claim_run(&data, &b, "datagen seed 2", "1/1", 0).unwrap();
        // A FIFO where the run file goes is neither read nor written (either would block).
        let piped = dir.join("p.wdb");
        let made = std::process::Command::new("mkfifo")
            .arg(run_file(&piped))
            .status();
        if made.is_ok_and(|s| s.success()) {
            assert_eq!(recorded_run(&piped), None);
            let e = claim_run(&piped, &a, "datagen seed 1", "1/1", 0).unwrap_err();
            assert!(e.to_string().contains("not a regular file"), "{e}");
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
