//! The variant board's rules against a plain reference written here: a mailbox array walked square
//! by square and direction by direction, sharing no code with `wedge::variant`. Perft counts of
//! both must agree (and, on the open 8 x 8 board, equal wedge's 8 x 8 counts), and so must every
//! move list and every flip of many random games on random layouts.

use wedge::rng::Rng;
use wedge::variant::board::{Board, Cell, Side, Square};
use wedge::variant::perft::{perft, perft_divide};

/// A cell of the reference board.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum R {
    Empty,
    Blocked,
    White,
    Red,
}

/// The reference board: a mailbox of `rows * cols` cells and the side to move.
#[derive(Clone, PartialEq, Eq, Debug)]
struct Ref {
    rows: i32,
    cols: i32,
    cells: Vec<R>,
    white_to_move: bool,
}

const DIRS: [(i32, i32); 8] = [
    (-1, -1),
    (-1, 0),
    (-1, 1),
    (0, -1),
    (0, 1),
    (1, -1),
    (1, 0),
    (1, 1),
];

impl Ref {
    /// The course's start: white on (r, c) and (r+1, c+1), red on the other diagonal, white first.
    fn start(rows: i32, cols: i32, blocked: &[(i32, i32)]) -> Ref {
        let mut cells = vec![R::Empty; (rows * cols) as usize];
        for &(r, c) in blocked {
            cells[(r * cols + c) as usize] = R::Blocked;
        }
        let (r, c) = ((rows - 1) / 2, (cols - 1) / 2);
        cells[(r * cols + c) as usize] = R::White;
        cells[((r + 1) * cols + c + 1) as usize] = R::White;
        cells[(r * cols + c + 1) as usize] = R::Red;
        cells[((r + 1) * cols + c) as usize] = R::Red;
        Ref {
            rows,
            cols,
            cells,
            white_to_move: true,
        }
    }

    fn at(&self, r: i32, c: i32) -> Option<R> {
        if r < 0 || c < 0 || r >= self.rows || c >= self.cols {
            None
        } else {
            Some(self.cells[(r * self.cols + c) as usize])
        }
    }

    fn me(&self) -> R {
        if self.white_to_move {
            R::White
        } else {
            R::Red
        }
    }

    fn them(&self) -> R {
        if self.white_to_move {
            R::Red
        } else {
            R::White
        }
    }

    /// The squares a disc played on (r, c) flips, walking out in each direction.
    fn flips(&self, r: i32, c: i32) -> Vec<(i32, i32)> {
        if self.at(r, c) != Some(R::Empty) {
            return Vec::new();
        }
        let mut all = Vec::new();
        for (dr, dc) in DIRS {
            let mut line = Vec::new();
            let (mut rr, mut cc) = (r + dr, c + dc);
            while self.at(rr, cc) == Some(self.them()) {
                line.push((rr, cc));
                rr += dr;
                cc += dc;
            }
            if !line.is_empty() && self.at(rr, cc) == Some(self.me()) {
                all.extend(line);
            }
        }
        all.sort();
        all
    }

    /// Legal moves, scanning every square row by row.
    fn moves(&self) -> Vec<(i32, i32)> {
        let mut out = Vec::new();
        for r in 0..self.rows {
            for c in 0..self.cols {
                if !self.flips(r, c).is_empty() {
                    out.push((r, c));
                }
            }
        }
        out
    }

    fn play(&self, r: i32, c: i32) -> Ref {
        let mut next = self.clone();
        let me = self.me();
        for (fr, fc) in self.flips(r, c) {
            next.cells[(fr * self.cols + fc) as usize] = me;
        }
        next.cells[(r * self.cols + c) as usize] = me;
        next.white_to_move = !self.white_to_move;
        next
    }

    fn pass(&self) -> Ref {
        let mut next = self.clone();
        next.white_to_move = !self.white_to_move;
        next
    }

    /// perft by the same convention as wedge's: a pass is a ply, a finished game one leaf.
    fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = self.moves();
        if moves.is_empty() {
            let passed = self.pass();
            if passed.moves().is_empty() {
                return 1;
            }
            return passed.perft(depth - 1);
        }
        moves
            .into_iter()
            .map(|(r, c)| self.play(r, c).perft(depth - 1))
            .sum()
    }

    /// The same position as a wedge variant board, built cell by cell.
    fn to_board(&self) -> Board {
        let cells: Vec<Cell> = self
            .cells
            .iter()
            .map(|c| match c {
                R::Empty => Cell::Empty,
                R::Blocked => Cell::Blocked,
                R::White => Cell::Disc(Side::First),
                R::Red => Cell::Disc(Side::Second),
            })
            .collect();
        let side = if self.white_to_move {
            Side::First
        } else {
            Side::Second
        };
        Board::from_cells(self.rows as usize, self.cols as usize, &cells, side).unwrap()
    }
}

fn squares(list: &[(i32, i32)]) -> Vec<Square> {
    list.iter()
        .map(|&(r, c)| Square::new(r as u8, c as u8))
        .collect()
}

fn corners(rows: i32, cols: i32) -> Vec<(i32, i32)> {
    vec![(0, 0), (0, cols - 1), (rows - 1, 0), (rows - 1, cols - 1)]
}

/// Checks that wedge's start equals the reference's, then that perft agrees at depths 1..=max.
fn agree_to(reference: &Ref, board: &Board, max: u32) -> Vec<u64> {
    assert_eq!(*board, reference.to_board(), "start positions differ");
    (1..=max)
        .map(|depth| {
            let n = perft(board, depth);
            assert_eq!(n, reference.perft(depth), "depth {depth}\n{board}");
            n
        })
        .collect()
}

/// The deepest perft the reference checks: one more ply in release builds.
fn deepest(release: u32) -> u32 {
    if cfg!(debug_assertions) {
        release - 1
    } else {
        release
    }
}

#[test]
fn the_open_8x8_board_counts_as_wedges_8x8_perft() {
    let reference = Ref::start(8, 8, &[]);
    let board = Board::start(8, 8, &[]).unwrap();
    let counts = agree_to(&reference, &board, deepest(6));
    // White moves first here and sits on the other diagonal; the position is the mirror image of
    // wedge's 8 x 8 start with the colours renamed, so every count is the same.
    let published: Vec<u64> = include_str!("data/perft.txt")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| l.split_whitespace().nth(1).unwrap().parse().unwrap())
        .collect();
    for (depth, &n) in counts.iter().enumerate() {
        assert_eq!(n, published[depth], "depth {}", depth + 1);
        assert_eq!(
            n,
            wedge::tools::perft::perft(wedge::board::Board::START, depth as u32 + 1)
        );
    }
    // Deeper, against wedge's 8 x 8 perft alone (the reference would be slow).
    for depth in [7, 8] {
        assert_eq!(perft(&board, depth), published[depth as usize - 1]);
    }
}

#[test]
fn the_10x10_board_with_its_corners_blocked_agrees() {
    let blocked = corners(10, 10);
    let reference = Ref::start(10, 10, &blocked);
    let board = Board::start(10, 10, &squares(&blocked)).unwrap();
    let counts = agree_to(&reference, &board, deepest(7));
    // The figures of docs/variants.md (`wedge variant perft --size 10x10 --blocked corners`). Up
    // to 6 plies no disc reaches the edge region, so they equal the 8 x 8 counts; from 7 they part.
    let published = [4, 12, 56, 244, 1396, 8200, 55180, 392248];
    assert_eq!(&counts[..], &published[..counts.len()]);
    assert_eq!(perft(&board, 8), 392248);
}

#[test]
fn a_random_10x10_layout_agrees() {
    // `wedge variant perft --size 10x10 --blocked random:8 --seed 1`, as in docs/variants.md.
    let board = Board::random_layout(10, 10, 8, &mut Rng::new(1)).unwrap();
    let blocked: Vec<(i32, i32)> = board
        .blocked()
        .iter()
        .map(|s| (s.row as i32, s.col as i32))
        .collect();
    assert_eq!(blocked.len(), 8);
    let reference = Ref::start(10, 10, &blocked);
    let counts = agree_to(&reference, &board, deepest(7));
    let published = [4, 12, 54, 226, 1242, 6912, 43848, 291096];
    assert_eq!(&counts[..], &published[..counts.len()]);
    assert_eq!(perft(&board, 8), 291096);
    // Another layout, with squares blocked near the centre.
    let board = Board::random_layout(10, 10, 10, &mut Rng::new(2024)).unwrap();
    let blocked: Vec<(i32, i32)> = board
        .blocked()
        .iter()
        .map(|s| (s.row as i32, s.col as i32))
        .collect();
    agree_to(&Ref::start(10, 10, &blocked), &board, deepest(6));
}

/// Rows, columns, blocked squares and the deepest perft checked.
type Case = (i32, i32, Vec<(i32, i32)>, u32);

#[test]
fn non_square_and_edge_sized_boards_agree() {
    // 6 x 9 with two blocked squares; 16 x 16 (lines reach the grid's edges and must not wrap);
    // 3 x 16 and 16 x 3; the smallest boards.
    let cases: Vec<Case> = vec![
        (6, 9, vec![(1, 1), (4, 7)], 6),
        (16, 16, corners(16, 16), 5),
        (16, 16, vec![(7, 6), (8, 9), (5, 5)], 5),
        (3, 16, vec![], 6),
        (16, 3, vec![(0, 1)], 6),
        (2, 2, vec![], 3),
        (3, 3, vec![], 6),
    ];
    for (rows, cols, blocked, max) in cases {
        let reference = Ref::start(rows, cols, &blocked);
        let board = Board::start(rows as usize, cols as usize, &squares(&blocked)).unwrap();
        agree_to(&reference, &board, deepest(max));
    }
}

#[test]
fn divide_sums_to_perft_and_shows_passes() {
    let board = Board::start(10, 10, &squares(&corners(10, 10))).unwrap();
    let parts = perft_divide(&board, 4);
    assert_eq!(parts.len(), 4);
    assert_eq!(parts.iter().map(|p| p.1).sum::<u64>(), perft(&board, 4));
    // White to move with no move, red with one: a pass, then red's move.
    let passing = Board::parse_printed("W R .\n. . .\nto move: R").unwrap();
    assert_eq!(perft_divide(&passing, 2), vec![(None, 1)]);
    let over = Board::parse_printed("W W .\nW . .\nto move: R").unwrap();
    assert!(perft_divide(&over, 3).is_empty());
    assert_eq!(perft(&over, 3), 1);
}

#[test]
fn random_games_agree_move_by_move_and_flip_by_flip() {
    let mut rng = Rng::new(99);
    let sizes = [
        (10, 10, 0),
        (10, 10, 4),
        (10, 10, 10),
        (8, 8, 0),
        (6, 9, 3),
        (16, 16, 12),
        (16, 5, 2),
        (4, 4, 0),
        (11, 7, 5),
    ];
    let games_each = if cfg!(debug_assertions) { 8 } else { 40 };
    let mut positions = 0;
    for &(rows, cols, k) in &sizes {
        for _ in 0..games_each {
            let mut board = Board::random_layout(rows, cols, k, &mut rng).unwrap();
            let blocked: Vec<(i32, i32)> = board
                .blocked()
                .iter()
                .map(|s| (s.row as i32, s.col as i32))
                .collect();
            let mut reference = Ref::start(rows as i32, cols as i32, &blocked);
            loop {
                positions += 1;
                assert_eq!(board, reference.to_board());
                let moves = reference.moves();
                assert_eq!(board.legal_moves(), squares(&moves), "\n{board}");
                assert_eq!(board.mobility() as usize, moves.len());
                assert_eq!(board.must_pass(), moves.is_empty());
                // Every empty square: legal exactly when the reference flips something there.
                for r in 0..rows as i32 {
                    for c in 0..cols as i32 {
                        let sq = Square::new(r as u8, c as u8);
                        let n = reference.flips(r, c).len() as u32;
                        assert_eq!(board.flips(sq), n, "{sq}\n{board}");
                        assert_eq!(board.is_legal(sq), n > 0);
                    }
                }
                if moves.is_empty() {
                    let passed = reference.pass();
                    assert_eq!(board.is_over(), passed.moves().is_empty());
                    if board.is_over() {
                        let white = reference.cells.iter().filter(|&&c| c == R::White).count();
                        let red = reference.cells.iter().filter(|&&c| c == R::Red).count();
                        assert_eq!(board.count(Side::First) as usize, white);
                        assert_eq!(board.count(Side::Second) as usize, red);
                        break;
                    }
                    board = board.pass();
                    reference = passed;
                    continue;
                }
                let (r, c) = moves[rng.below(moves.len() as u64) as usize];
                board = board.play(Square::new(r as u8, c as u8)).unwrap();
                reference = reference.play(r, c);
            }
        }
    }
    assert!(positions > 1000, "{positions}");
}
