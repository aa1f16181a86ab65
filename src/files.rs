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

/// Writes `bytes` to `<path>.partial`, syncs it and renames it over `path`: a reader never sees
/// half a file, and a failed write (a full disk) leaves the old file as it was and no partial one.
pub fn write_whole(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let mut partial = path.as_os_str().to_owned();
    partial.push(".partial");
    let partial = std::path::PathBuf::from(partial);
    let written = (|| {
        let mut f = std::fs::File::create(&partial)?;
        io::Write::write_all(&mut f, bytes)?;
        f.sync_all()?;
        std::fs::rename(&partial, path)
    })();
    if written.is_err() {
        let _ = std::fs::remove_file(&partial);
    }
    written
}

/// Checks that `path` names a regular file of at most `max_bytes` bytes, without opening it.
pub fn check_regular(path: &Path, max_bytes: u64) -> io::Result<u64> {
    let meta = std::fs::metadata(path)?;
    if !meta.is_file() {
        let kind = if meta.is_dir() {
            "a directory"
        } else {
            "not a regular file (a FIFO, device or socket)"
        };
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("{kind}: only regular files are read"),
        ));
    }
    if meta.len() > max_bytes {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!(
                "{} bytes, more than the {} MB this file may have",
                meta.len(),
                max_bytes >> 20
            ),
        ));
    }
    Ok(meta.len())
}

/// Reads a whole regular file of at most `max_bytes` bytes (checked before it is opened, and again
/// while reading, in case it grows). Memory that cannot be had is an error, not an abort.
pub fn read_regular(path: &Path, max_bytes: u64) -> io::Result<Vec<u8>> {
    let len = check_regular(path, max_bytes)?;
    let mut bytes = Vec::new();
    bytes.try_reserve_exact(len as usize).map_err(|_| {
        io::Error::new(
            io::ErrorKind::OutOfMemory,
            format!("not enough memory to read its {len} bytes"),
        )
    })?;
    std::fs::File::open(path)?
        .take(max_bytes + 1)
        .read_to_end(&mut bytes)?;
    if bytes.len() as u64 > max_bytes {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("more than the {} MB this file may have", max_bytes >> 20),
        ));
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

    #[test]
    fn the_checksum_is_fnv_1a() {
        // The published FNV-1a 64-bit values.
        assert_eq!(checksum(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(checksum(b"a"), 0xaf63_dc4c_8601_ec8c);
    }
}
