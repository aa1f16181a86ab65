//! Search tables of a size in MB, for every game: how many entries a size holds, how the memory
//! is asked for (huge pages where the system has them), and the one policy when it is not there.
//!
//! **Policy.** An allocation the system refuses is a [`TableAllocError`], never an abort. A table
//! being resized keeps the table in use and the error goes back to the caller (the engine reports
//! a refused `Hash`); a searcher that must have a table takes a small one so that the engine still
//! plays: the variant search the smallest ([`alloc_or_smallest`]), the 8 x 8 worker at its start a
//! 1 MB one.

/// Runs `clear` on every entry of `entries`, in up to `threads` parts at once: clearing a table
/// of gigabytes is bound by memory bandwidth, which one core does not fill, and it is what a `go`
/// after a new game waits for. A part whose thread cannot be started is cleared by the caller.
pub fn clear_in_parts<T: Sync>(entries: &[T], threads: usize, clear: impl Fn(&T) + Sync) {
    // Below this many entries a thread costs more than it saves.
    const SMALLEST_PART: usize = 1 << 16;
    let parts = threads
        .clamp(1, 64)
        .min(entries.len().div_ceil(SMALLEST_PART).max(1));
    let part = entries.len().div_ceil(parts).max(1);
    let clear = &clear;
    std::thread::scope(|s| {
        let mut chunks = entries.chunks(part);
        let first = chunks.next().unwrap_or(&[]);
        for chunk in chunks {
            let job = move || chunk.iter().for_each(clear);
            if std::thread::Builder::new().spawn_scoped(s, job).is_err() {
                chunk.iter().for_each(clear);
            }
        }
        first.iter().for_each(clear);
    });
}

/// A table could not be allocated: the memory asked for is not there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableAllocError {
    /// The size asked for, in bytes.
    pub bytes: usize,
    /// How many tables share that size (1 for one table; the jobs' or threads' tables of a tool,
    /// checked together before any is made: [`check_room`]).
    pub tables: usize,
}

impl TableAllocError {
    /// One table of `bytes` that could not be allocated.
    pub fn one(bytes: usize) -> TableAllocError {
        TableAllocError { bytes, tables: 1 }
    }
}

impl std::fmt::Display for TableAllocError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mb = self.bytes.div_ceil(1 << 20);
        match self.tables {
            0 | 1 => write!(
                f,
                "cannot allocate {mb} MB for a hash table (not enough memory)"
            ),
            n => write!(
                f,
                "cannot allocate {mb} MB for {n} tables together (not enough memory)"
            ),
        }
    }
}

impl std::error::Error for TableAllocError {}

/// Tables of at least this many bytes are checked against the memory available (smaller ones are
/// not worth reading `/proc` for).
pub const CHECKED_BYTES: usize = 1 << 20;

/// A vector of `len` values made by `make`, whose memory the kernel is asked to back with huge
/// pages (2 MB) where it can. The solver's and the search's tables are probed at random, nearly
/// every probe on a different 4 KB page: with small pages most probes also miss the TLB and walk
/// the page tables; a 256 MB table in huge pages needs 128 TLB entries, which the second-level TLB
/// holds. Only a hint: the values and the vector are the same either way. An allocation the system
/// refuses is an error, not an abort (a `Hash` option or `--hash` larger than the memory).
///
/// On Linux a table larger than the memory available ([`super::memory::available_memory`]: what
/// the system can give without swapping out, and the room under a container's or job's limit)
/// is refused too: the system grants such a request and kills the process when the table is
/// filled. Every table from [`CHECKED_BYTES`] up is checked, and each is filled before the next is
/// asked for, so the tables of many jobs or threads add up and the one that does not fit is the
/// error.
pub fn huge_page_vec<T>(len: usize, make: impl FnMut() -> T) -> Result<Vec<T>, TableAllocError> {
    let bytes = len.saturating_mul(std::mem::size_of::<T>());
    if !fits(bytes, super::memory::available_memory) {
        return Err(TableAllocError::one(bytes));
    }
    let mut v = Vec::new();
    v.try_reserve_exact(len)
        .map_err(|_| TableAllocError::one(bytes))?;
    // Asked before the first write: a page is backed (small or huge) when it is first touched.
    advise_huge_pages(v.as_mut_ptr() as usize, bytes);
    v.extend(std::iter::repeat_with(make).take(len));
    Ok(v)
}

/// Refuses, before any is made, `tables` tables of `mb_each` MB that the memory cannot hold
/// together. [`huge_page_vec`] checks one table at a time and fills each before the next is asked
/// for, so the jobs' or threads' tables of a tool would fill the memory up to the one that does not
/// fit, and leave the machine short of memory while they did; a tool that makes many checks their
/// sum first. `mb_each` is an upper bound (tables round their size down to a power of two).
pub fn check_room(tables: usize, mb_each: usize) -> Result<(), TableAllocError> {
    let bytes = tables.saturating_mul(mb_each).saturating_mul(1 << 20);
    if fits(bytes, super::memory::available_memory) {
        Ok(())
    } else {
        Err(TableAllocError { bytes, tables })
    }
}

/// Whether `bytes` may be asked for, given what `available` says the memory holds: small sizes
/// always (not worth reading `/proc` for), and every size where nothing is known.
fn fits(bytes: usize, available: impl FnOnce() -> Option<u64>) -> bool {
    bytes < CHECKED_BYTES || available().is_none_or(|a| bytes as u64 <= a)
}

/// Asks Linux to back the whole 2 MB pages inside `start..start + bytes` with huge pages
/// (transparent huge pages, `madvise` mode; with `always` they are used anyway, with `never` the
/// call changes nothing). Elsewhere it does nothing.
#[cfg(target_os = "linux")]
fn advise_huge_pages(start: usize, bytes: usize) {
    const HUGE_PAGE: usize = 2 << 20;
    let begin = start.next_multiple_of(HUGE_PAGE);
    let end = (start + bytes) / HUGE_PAGE * HUGE_PAGE;
    if end > begin {
        // SAFETY: `madvise` with `MADV_HUGEPAGE` only changes how the kernel backs the pages of the
        // range: it neither reads nor writes them, nor unmaps or moves them, so no Rust reference or
        // value can be affected. The range lies inside one live allocation of ours (rounded
        // inwards to page boundaries, as the call requires); an invalid range would only make the
        // call fail with an error code, which is ignored since the advice is a hint.
        let _ =
            unsafe { libc::madvise(begin as *mut libc::c_void, end - begin, libc::MADV_HUGEPAGE) };
    }
}

/// The entries of a power-of-two table of about `mb` MB of `T`s: the largest power of two that
/// fits, and at least `min` (a power of two).
pub fn entries<T>(mb: usize, min: usize) -> usize {
    let bytes = mb.max(1).saturating_mul(1 << 20);
    let want = (bytes / std::mem::size_of::<T>().max(1)).max(min.max(1));
    if want.is_power_of_two() {
        want
    } else {
        want.next_power_of_two() >> 1
    }
}

/// A table of about `mb` MB ([`entries`]) of values made by `make`; when the memory is not there,
/// the smallest table of `min` entries and the error, to report: a size from outside never
/// leaves a searcher without a table.
pub fn alloc_or_smallest<T>(
    mb: usize,
    min: usize,
    mut make: impl FnMut() -> T,
) -> (Vec<T>, Option<TableAllocError>) {
    match huge_page_vec(entries::<T>(mb, min), &mut make) {
        Ok(table) => (table, None),
        Err(e) => {
            let mut small = Vec::with_capacity(min);
            small.extend(std::iter::repeat_with(make).take(min));
            (small, Some(e))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clearing_in_parts_reaches_every_entry() {
        use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
        for (len, threads) in [(0, 3), (5, 3), (300_001, 3), (300_001, 1), (1 << 17, 200)] {
            let entries: Vec<AtomicU64> = (0..len).map(|i| AtomicU64::new(i as u64 + 1)).collect();
            clear_in_parts(&entries, threads, |e| e.store(0, Relaxed));
            assert!(
                entries.iter().all(|e| e.load(Relaxed) == 0),
                "{len} {threads}"
            );
        }
    }

    #[test]
    fn sizes_are_powers_of_two_within_the_budget() {
        assert_eq!(entries::<u64>(1, 16), 1 << 17);
        assert_eq!(entries::<[u8; 24]>(1, 16), 1 << 15);
        assert_eq!(entries::<[u8; 1 << 21]>(1, 16), 16);
        // A size the address space cannot hold is an error, and the smallest table is kept.
        let (table, error) = alloc_or_smallest::<u64>(usize::MAX >> 21, 8, || 0);
        assert_eq!(table.len(), 8);
        assert!(error.is_some());
    }

    #[test]
    fn sizes_are_checked_against_the_memory_available() {
        let gib = 1usize << 30;
        assert!(fits(4 * gib, || Some(8 << 30)));
        assert!(!fits(9 * gib, || Some(8 << 30)));
        assert!(fits(9 * gib, || None));
        // Below the checked size nothing is read.
        assert!(fits(CHECKED_BYTES - 1, || panic!("read")));
        // Tables together: 256 of 4 GB fit in no machine's memory; the error counts them.
        if super::super::memory::available_memory().is_some() {
            let e = check_room(256, 1 << 20).unwrap_err();
            assert_eq!(e.tables, 256);
            assert!(e.to_string().contains("for 256 tables"), "{e}");
        }
        assert!(check_room(2, 1).is_ok());
    }
}
