//! Short lists of moves with ordering keys, on the stack (no allocation per node): one kept sorted
//! as moves are inserted, and one that picks the best move left when it is needed.

/// A move list on the stack, kept sorted by key (smallest first) as moves are inserted.
#[derive(Clone, Copy, Default)]
pub struct MoveList {
    keys: [i32; 32],
    squares: [u8; 32],
    len: usize,
}

impl MoveList {
    /// Inserts a move keeping the keys in ascending order (at most 32 moves: no Othello position has
    /// more legal moves than that).
    #[inline]
    pub fn insert(&mut self, key: i32, sq: u8) {
        if self.len >= 32 {
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
    /// Key (offset to be non-negative) in the high bits, then the item's place (5 bits), then the
    /// square (8 bits): equal keys come out by place, the order an insertion sort gives. A taken
    /// or unused place holds `u64::MAX`.
    items: [u64; 32],
    /// Places filled by [`MovePicker::push`].
    used: usize,
    /// Moves not yet taken.
    left: usize,
}

impl Default for MovePicker {
    fn default() -> MovePicker {
        MovePicker {
            items: [u64::MAX; 32],
            used: 0,
            left: 0,
        }
    }
}

impl MovePicker {
    /// Adds a move (at most 32: no Othello position has more legal moves than that).
    #[inline]
    pub fn push(&mut self, key: i32, sq: u8) {
        if self.used < 32 {
            let key = (key as i64 - i32::MIN as i64) as u64;
            self.items[self.used] = key << 13 | (self.used as u64) << 8 | u64::from(sq);
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
        self.items[(item >> 8) as usize & 31] = u64::MAX;
        self.left -= 1;
        Some(item as u8)
    }

    /// The smallest item: a minimum over all 32 places, which vectorises.
    #[inline]
    fn smallest(&self) -> u64 {
        self.items.iter().fold(u64::MAX, |a, &b| a.min(b))
    }

    /// Takes all the moves left, best first, into `out`; returns how many there were.
    pub fn drain_sorted(&mut self, out: &mut [u8; 32]) -> usize {
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
            let count = round % 33;
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
            let mut out = [0u8; 32];
            let k = picker.drain_sorted(&mut out);
            assert_eq!(&out[..k], list.squares());
            assert!(picker.is_empty());
        }
    }
}
