//! Short lists of moves with ordering keys, on the stack (no allocation per node): one kept sorted
//! as moves are inserted, and one that picks the best move left when it is needed. Both hold
//! [`MAX_MOVES`] moves, one per square, so no position can overflow them: reachable positions have
//! at most 33 legal moves, but `position board` accepts any setup (some have 34 and more).

/// The most legal moves any position can have: a move is an empty square, so 64 bounds it.
pub const MAX_MOVES: usize = 64;

/// A move list on the stack, kept sorted by key (smallest first) as moves are inserted.
#[derive(Clone, Copy)]
pub struct MoveList {
    keys: [i32; MAX_MOVES],
    squares: [u8; MAX_MOVES],
    len: usize,
}

impl Default for MoveList {
    fn default() -> MoveList {
        MoveList {
            keys: [0; MAX_MOVES],
            squares: [0; MAX_MOVES],
            len: 0,
        }
    }
}

impl MoveList {
    /// Inserts a move keeping the keys in ascending order (each square at most once, so at most
    /// [`MAX_MOVES`] moves).
    #[inline]
    pub fn insert(&mut self, key: i32, sq: u8) {
        debug_assert!(self.len < MAX_MOVES);
        if self.len >= MAX_MOVES {
            return;
        }
        let mut j = self.len;
        while j > 0 && self.keys[j - 1] > key {
            self.keys[j] = self.keys[j - 1];
            self.squares[j] = self.squares[j - 1];
            j -= 1;
        }
        self.keys[j] = key;
        self.squares[j] = sq;
        self.len += 1;
    }

    /// The squares in order.
    #[inline]
    pub fn squares(&self) -> &[u8] {
        &self.squares[..self.len]
    }

    /// Moves `sq` to the front if present.
    #[inline]
    pub fn move_to_front(&mut self, sq: u8) {
        if let Some(pos) = self.squares().iter().position(|&s| s == sq) {
            self.squares[..=pos].rotate_right(1);
            self.keys[..=pos].rotate_right(1);
        }
    }
}

/// Moves with ordering keys, unsorted: each [`MovePicker::pop`] takes the smallest key left with a
/// branch-free scan. Where a cut-off usually comes at the first move, this skips most of the
/// sorting, and it has no data-dependent branches (an insertion sort's comparisons mispredict).
#[derive(Clone, Copy)]
pub struct MovePicker {
    /// Key (offset to be non-negative) in the high bits, then the item's place (6 bits), then the
    /// square (8 bits): equal keys come out by place, the order an insertion sort gives. A taken
    /// or unused place holds `u64::MAX`.
    items: [u64; MAX_MOVES],
    /// Places filled by [`MovePicker::push`].
    used: usize,
    /// Moves not yet taken.
    left: usize,
}

impl Default for MovePicker {
    fn default() -> MovePicker {
        MovePicker {
            items: [u64::MAX; MAX_MOVES],
            used: 0,
            left: 0,
        }
    }
}

impl MovePicker {
    /// Adds a move (each square at most once, so at most [`MAX_MOVES`]).
    #[inline]
    pub fn push(&mut self, key: i32, sq: u8) {
        debug_assert!(self.used < MAX_MOVES);
        if self.used < MAX_MOVES {
            let key = (key as i64 - i32::MIN as i64) as u64;
            self.items[self.used] = key << 14 | (self.used as u64) << 8 | u64::from(sq);
            self.used += 1;
            self.left += 1;
        }
    }

    /// Moves left.
    #[inline]
    pub fn len(&self) -> usize {
        self.left
    }

    /// Whether no move is left.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.left == 0
    }

    /// The square with the smallest key left, without taking it.
    #[inline]
    pub fn peek(&self) -> Option<u8> {
        (self.left > 0).then(|| self.smallest() as u8)
    }

    /// Takes the square with the smallest key left.
    #[inline]
    pub fn pop(&mut self) -> Option<u8> {
        if self.left == 0 {
            return None;
        }
        let item = self.smallest();
        self.items[(item >> 8) as usize & 63] = u64::MAX;
        self.left -= 1;
        Some(item as u8)
    }

    /// The smallest item: a minimum over the first 32 places, which vectorises, or over all of
    /// them in the rare position with more than 32 moves (the branch is almost always predicted).
    #[inline]
    fn smallest(&self) -> u64 {
        let places = if self.used <= 32 {
            &self.items[..32]
        } else {
            &self.items[..]
        };
        places.iter().fold(u64::MAX, |a, &b| a.min(b))
    }

    /// Takes all the moves left, best first, into `out`; returns how many there were.
    pub fn drain_sorted(&mut self, out: &mut [u8; MAX_MOVES]) -> usize {
        let mut k = 0;
        while let Some(sq) = self.pop() {
            out[k] = sq;
            k += 1;
        }
        k
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_picker_gives_the_order_of_the_sorted_list() {
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        for round in 0..2_000 {
            let (mut list, mut picker) = (MoveList::default(), MovePicker::default());
            let count = round % (MAX_MOVES + 1);
            for sq in 0..count {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                // Keys from a small range (many ties) in some rounds, any i32 in others.
                let key = if round % 2 == 0 {
                    (x % 7) as i32 - 3
                } else {
                    x as i32
                };
                list.insert(key, sq as u8);
                picker.push(key, sq as u8);
            }
            assert_eq!(picker.len(), list.squares().len());
            assert_eq!(picker.peek(), list.squares().first().copied());
            let mut out = [0u8; MAX_MOVES];
            let k = picker.drain_sorted(&mut out);
            assert_eq!(&out[..k], list.squares());
            assert!(picker.is_empty());
        }
    }
}
