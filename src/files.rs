//! Reading files that come from outside (option values, command-line arguments, protocol
//! commands), and writing output files whole ([`write_whole`]). Only a regular file of a sane
//! size is read: a FIFO or `/dev/stdin` would block the engine's command loop until someone
//! writes to it, and `/dev/zero` or a huge file would be read until memory runs out. The checks
//! look at the file's metadata, which never blocks, before it is opened.

use std::io::{self, Read};
use std::path::Path;

/// The largest text or weights file read whole (openings, OBF problems, weights, GGF games): far
/// above any real one (the built-in pattern weights are 2 MB).
pub const MAX_TEXT_BYTES: u64 = 256 << 20;

/// The largest book file read whole (a book of 10 million positions is about 200 MB).
pub const MAX_BOOK_BYTES: u64 = 1 << 30;

/// The largest training data file read whole: 16 GB, some 4 billion positions in format version 2.
/// Its bytes are reserved with a check (too little memory is an error); the positions decoded from
/// them take several times as much, which is checked before they are decoded.
pub const MAX_DATA_BYTES: u64 = 1 << 34;

/// Opens `path` for writing with `options`, refusing anything but a regular file: a FIFO is
/// opened without waiting for a reader (on Unix; with none, the open fails at once) and then
/// refused, so an output path never blocks a run.
pub fn open_output(options: &mut std::fs::OpenOptions, path: &Path) -> io::Result<std::fs::File> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    let file = options.open(path).map_err(|e| match e.raw_os_error() {
        // What a FIFO without a reader answers to a non-blocking open for writing.
        #[cfg(unix)]
        Some(libc::ENXIO) => not_regular_output(),
        _ => e,
    })?;
    if !file.metadata()?.is_file() {
        return Err(not_regular_output());
    }
    Ok(file)
}

/// The error for an output that is not a regular file.
fn not_regular_output() -> io::Error {
    FileFault::NotRegularOutput.into()
}

/// What wedge's own checks of a file found wrong, carried inside an [`io::Error`] (so that the
/// file functions keep returning `io::Result`; `e.get_ref()` and a downcast reach it). A failure
/// with the `.partial` file of [`write_whole`] is [`FileFault::Helper`] around the error met
/// there, a system's or another fault.
#[derive(Debug)]
pub enum FileFault {
    /// An output that is not a regular file (a FIFO, device or socket).
    NotRegularOutput,
    /// A file kept beside an output (a run's `X.run`) that is not a regular file.
    NotRegularBeside,
    /// An input that is a folder.
    FolderInput,
    /// An input that is not a regular file (a FIFO, device or socket).
    NotRegularInput,
    /// A file larger than it may be: its size when known before reading, and the limit in bytes.
    TooLarge {
        /// The file's size, if known before reading.
        len: Option<u64>,
        /// The most bytes it may have.
        max: u64,
    },
    /// No memory to read a file of this many bytes.
    NoMemory(u64),
    /// A failure with the helper file beside an output (`X.partial`).
    Helper(std::path::PathBuf, io::Error),
    /// Another process writes the file (a datagen run holds its lock).
    Locked,
    /// A game of more positions than a data file's block may hold: the game, its positions and
    /// the limit.
    BlockTooLong(u64, usize, u32),
    /// A text data file would grow past its limit (in bytes).
    TextDataFull(u64),
}

impl FileFault {
    fn kind(&self) -> io::ErrorKind {
        match self {
            FileFault::NoMemory(_) => io::ErrorKind::OutOfMemory,
            FileFault::Helper(_, e) => e.kind(),
            FileFault::Locked => io::ErrorKind::WouldBlock,
            FileFault::NotRegularBeside | FileFault::TextDataFull(_) => io::ErrorKind::Other,
            _ => io::ErrorKind::InvalidInput,
        }
    }
}

impl From<FileFault> for io::Error {
    fn from(fault: FileFault) -> io::Error {
        io::Error::new(fault.kind(), fault)
    }
}

impl std::fmt::Display for FileFault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FileFault::NotRegularOutput => f.write_str(
                "not a regular file (a FIFO, device or socket): only regular files are written",
            ),
            FileFault::NotRegularBeside => {
                f.write_str("not a regular file (a FIFO, device or folder)")
            }
            FileFault::FolderInput => f.write_str("a directory: only regular files are read"),
            FileFault::NotRegularInput => f.write_str(
                "not a regular file (a FIFO, device or socket): only regular files are read",
            ),
            FileFault::TooLarge {
                len: Some(len),
                max,
            } => write!(
                f,
                "{len} bytes, more than the {} MB this file may have",
                max >> 20
            ),
            FileFault::TooLarge { len: None, max } => {
                write!(f, "more than the {} MB this file may have", max >> 20)
            }
            FileFault::NoMemory(len) => write!(f, "not enough memory to read its {len} bytes"),
            FileFault::Helper(path, e) => write!(f, "{}: {e}", path.display()),
            FileFault::Locked => f.write_str(
                "another process is writing this file (a wedge datagen run holds its lock)",
            ),
            FileFault::BlockTooLong(game, positions, max) => write!(
                f,
                "game {game} has {positions} positions, more than the {max} a block may hold"
            ),
            FileFault::TextDataFull(max) => write!(
                f,
                "the file would grow past the {} MB a text data file may hold; write a .wdb file \
                 instead (wedge data merge converts this one)",
                max >> 20
            ),
        }
    }
}

impl std::error::Error for FileFault {}

/// Writes `bytes` to `<path>.partial`, syncs it and renames it over `path`: a reader never sees
/// half a file, and a failed write (a full disk) leaves the old file as it was and no partial one.
/// A `.partial` left there (by a run killed while writing) is replaced; one that is not a regular
/// file is refused, named. A symbolic link is written through (the file it names is replaced, the
/// link kept), and a file replaced keeps its permissions. A file that a `wedge datagen` run is
/// writing (its lock is held and its `.run` file is beside it) is refused
/// ([`FileFault::Locked`]): replaced under the run, its games would go on into a file no longer
/// there.
pub fn write_whole(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let target = link_target(path);
    if std::fs::metadata(&target).is_ok_and(|m| !m.is_file()) {
        return Err(not_regular_output());
    }
    // The lock is held until the new file is in place: no run starts on the old one meanwhile.
    let held = match open_output(std::fs::OpenOptions::new().write(true), &target) {
        Ok(file) => match file.try_lock() {
            Ok(()) => Some(file),
            // Only a datagen run's file (its `.run` beside it) is refused: another holder of a
            // lock (`flock FILE wedge ... --out FILE`) is no writer of it.
            Err(std::fs::TryLockError::WouldBlock) => {
                if crate::tools::run::run_file(&target).exists() {
                    return Err(FileFault::Locked.into());
                }
                None
            }
            // A file system without locks: written unguarded, as datagen then writes.
            Err(std::fs::TryLockError::Error(_)) => None,
        },
        // No file yet, or one this user may not open (the rename still replaces it, as before).
        Err(_) => None,
    };
    let written = replace_whole(path, bytes);
    drop(held);
    written
}

/// `1 byte`, `2 bytes`: a size in messages.
pub fn byte_count(n: u64) -> String {
    format!("{n} {}", if n == 1 { "byte" } else { "bytes" })
}

/// The file a whole-file write of `path` goes through before it is renamed over it:
/// `<path>.partial` beside the file `path` resolves to. A file there is taken for what a killed
/// run left and replaced, so a writer refuses an input of that name before it starts.
pub fn partial_path(path: &Path) -> std::path::PathBuf {
    let mut partial = link_target(path).into_os_string();
    partial.push(".partial");
    std::path::PathBuf::from(partial)
}

/// [`write_whole`] for a caller that holds the file's lock itself (a writer of data files).
pub(crate) fn replace_whole(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let resolved = link_target(path);
    let path = resolved.as_path();
    let kept = std::fs::metadata(path).ok().map(|m| m.permissions());
    let partial = partial_path(path);
    let named = |e: io::Error| io::Error::from(FileFault::Helper(partial.clone(), e));
    match std::fs::symlink_metadata(&partial) {
        Ok(m) if !m.is_file() => return Err(named(not_regular_output())),
        // A run killed while writing left it; it may have the replaced file's mode (read-only).
        Ok(_) => std::fs::remove_file(&partial).map_err(named)?,
        Err(_) => {}
    }
    let written = (|| {
        let mut options = std::fs::OpenOptions::new();
        options.write(true).create(true).truncate(true);
        let mut f = open_output(&mut options, &partial).map_err(named)?;
        if let Some(permissions) = kept.clone() {
            f.set_permissions(permissions)?;
        }
        io::Write::write_all(&mut f, bytes)?;
        f.sync_all()?;
        std::fs::rename(&partial, path)
    })();
    if written.is_err() && std::fs::symlink_metadata(&partial).is_ok_and(|m| m.is_file()) {
        let _ = std::fs::remove_file(&partial);
    }
    written
}

/// The file a write to `path` replaces: `path`, or where its symbolic links lead, followed link
/// by link (each relative to its own folder) to the end, even where that end does not exist yet
/// (it is then made there). A loop of links ends after 40 steps, as the system's own lookup does.
pub fn link_target(path: &Path) -> std::path::PathBuf {
    let mut at = path.to_path_buf();
    for _ in 0..40 {
        if !std::fs::symlink_metadata(&at).is_ok_and(|m| m.file_type().is_symlink()) {
            break;
        }
        let Ok(to) = std::fs::read_link(&at) else {
            break;
        };
        at = match at.parent() {
            Some(dir) => dir.join(to),
            None => to,
        };
    }
    at
}

/// Checks that `path` names a regular file of at most `max_bytes` bytes, without opening it.
pub fn check_regular(path: &Path, max_bytes: u64) -> io::Result<u64> {
    let meta = std::fs::metadata(path)?;
    if !meta.is_file() {
        let fault = if meta.is_dir() {
            FileFault::FolderInput
        } else {
            FileFault::NotRegularInput
        };
        return Err(fault.into());
    }
    if meta.len() > max_bytes {
        let len = Some(meta.len());
        return Err(FileFault::TooLarge {
            len,
            max: max_bytes,
        }
        .into());
    }
    Ok(meta.len())
}

/// Reads a whole regular file of at most `max_bytes` bytes (checked before it is opened, and again
/// while reading, in case it grows). Memory that cannot be had is an error, not an abort.
pub fn read_regular(path: &Path, max_bytes: u64) -> io::Result<Vec<u8>> {
    let len = check_regular(path, max_bytes)?;
    let mut bytes = Vec::new();
    bytes
        .try_reserve_exact(len as usize)
        .map_err(|_| io::Error::from(FileFault::NoMemory(len)))?;
    std::fs::File::open(path)?
        .take(max_bytes + 1)
        .read_to_end(&mut bytes)?;
    if bytes.len() as u64 > max_bytes {
        let len = None;
        return Err(FileFault::TooLarge {
            len,
            max: max_bytes,
        }
        .into());
    }
    Ok(bytes)
}

/// A piece of a file's content quoted in an error message, shortened to its first
/// [`Excerpt::CHARS`] characters when longer (with its length in bytes), so that a file of one
/// huge token gives an error line of bounded length, as the protocols' 64 KB line limit expects.
#[derive(Clone, Copy, Debug)]
pub struct Excerpt<'a>(pub &'a str);

impl Excerpt<'_> {
    /// The most characters quoted.
    pub const CHARS: usize = 60;
}

impl std::fmt::Display for Excerpt<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.0.char_indices().nth(Self::CHARS) {
            None => f.write_str(self.0),
            Some((cut, _)) => write!(f, "{}... ({} bytes)", &self.0[..cut], self.0.len()),
        }
    }
}

/// FNV-1a over `bytes`: the checksum of wedge's binary files (book, pattern weights), which detects
/// truncation and corruption.
pub fn checksum(bytes: &[u8]) -> u64 {
    checksum_parts(&[bytes])
}

/// [`checksum`] of the concatenation of `parts`, without joining them.
pub fn checksum_parts(parts: &[&[u8]]) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    for &b in parts.iter().flat_map(|part| part.iter()) {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01B3);
    }
    h
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_a_run_holds_the_lock_of_is_not_replaced() {
        let dir = std::env::temp_dir().join(format!("wedge-files-lock-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("games.wdb");
        std::fs::write(&path, b"the run's games").unwrap();
        // Another open file description holds the lock: without a run file beside it that is
        // someone else's lock (`flock FILE wedge ... --out FILE`), and the file is written.
        let run = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
        run.lock().unwrap();
        write_whole(&path, b"notes").unwrap();
        // With one, a datagen run is writing it: refused, the file kept.
        std::fs::write(&path, b"the run's games").unwrap();
        std::fs::write(crate::tools::run::run_file(&path), b"run").unwrap();
        let run = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
        run.lock().unwrap();
        let e = write_whole(&path, b"weights").unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::WouldBlock, "{e}");
        assert!(e.to_string().contains("another process is writing"), "{e}");
        assert_eq!(std::fs::read(&path).unwrap(), b"the run's games");
        drop(run);
        write_whole(&path, b"weights").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"weights");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn only_regular_files_of_a_sane_size_are_read() {
        let dir = std::env::temp_dir().join(format!("wedge-files-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let f = dir.join("small.txt");
        std::fs::write(&f, b"hello").unwrap();
        assert_eq!(read_regular(&f, 100).unwrap(), b"hello");
        assert!(read_regular(&f, 4)
            .unwrap_err()
            .to_string()
            .contains("more than"));
        assert!(read_regular(&dir, 100)
            .unwrap_err()
            .to_string()
            .contains("directory"));
        #[cfg(unix)]
        for dev in ["/dev/zero", "/dev/null", "/dev/stdin"] {
            let e = read_regular(Path::new(dev), 100).unwrap_err().to_string();
            assert!(e.contains("regular"), "{dev}: {e}");
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// Whole writes: through a link (kept), keeping the replaced file's permissions, and a FIFO
    /// where the output or its `.partial` goes refused at once (no reader would ever come).
    #[cfg(unix)]
    #[test]
    fn whole_writes_keep_links_and_permissions_and_refuse_fifos() {
        use std::os::unix::fs::PermissionsExt;
        let dir = std::env::temp_dir().join(format!("wedge-whole-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("real")).unwrap();
        let target = dir.join("real/w.bin");
        std::fs::write(&target, b"old").unwrap();
        std::fs::set_permissions(&target, std::fs::Permissions::from_mode(0o600)).unwrap();
        let link = dir.join("w.bin");
        std::os::unix::fs::symlink("real/w.bin", &link).unwrap();
        write_whole(&link, b"new").unwrap();
        assert!(std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink());
        assert_eq!(std::fs::read(&target).unwrap(), b"new");
        let mode = std::fs::metadata(&target).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
        // A chain of links to a file not made yet: made where the last one points.
        std::os::unix::fs::symlink("real/new.bin", dir.join("link1.bin")).unwrap();
        std::os::unix::fs::symlink("link1.bin", dir.join("link2.bin")).unwrap();
        write_whole(&dir.join("link2.bin"), b"made").unwrap();
        assert_eq!(std::fs::read(dir.join("real/new.bin")).unwrap(), b"made");
        assert!(std::fs::symlink_metadata(dir.join("link1.bin"))
            .unwrap()
            .file_type()
            .is_symlink());

        let fifo = |path: &Path| {
            let made = std::process::Command::new("mkfifo").arg(path).status();
            assert!(made.unwrap().success());
        };
        let out = dir.join("f.bin");
        fifo(&out);
        let mut options = std::fs::OpenOptions::new();
        options.create(true).append(true);
        let e = open_output(&mut options, &out).unwrap_err();
        assert!(e.to_string().contains("regular"), "{e}");
        let partial = dir.join("g.bin.partial");
        fifo(&partial);
        let e = write_whole(&dir.join("g.bin"), b"x")
            .unwrap_err()
            .to_string();
        assert!(e.contains("g.bin.partial") && e.contains("regular"), "{e}");
        assert!(!dir.join("g.bin").exists());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_checksum_is_fnv_1a() {
        // The published FNV-1a 64-bit values.
        assert_eq!(checksum(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(checksum(b"a"), 0xaf63_dc4c_8601_ec8c);
    }
}
