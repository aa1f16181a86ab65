//! A short list of moves kept sorted by an ordering key, on the stack: the move lists of both
//! searches (no allocation per node).

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
