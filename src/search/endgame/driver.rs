//! The solver's driver: the public solves (exact, WLD, a window), the selective passes before the
//! exact one, aspiration windows, the root, the moves of a node in order, the choice of layer by
//! empties, and the principal variation of a finished solve.

use super::*;

impl Solver {
    /// Solves `board` exactly: the best final disc difference for the side to move and a move that
    /// achieves it. From `ASPIRATION_MIN` empties it is solved as a sequence of narrow-window solves
    /// (aspiration), which costs about a fifth fewer nodes than one full-window solve, and from
    /// `SELECTIVE_MIN` empties after selective passes that cost fewer nodes than they save
    /// (docs/benchmarks.md).
    pub fn solve_exact(&mut self, board: Board) -> SolveResult {
        self.solve_exact_reporting(board, &mut |_, _| {})
    }

    /// [`Solver::solve_exact`], calling `on_pass` with the result of each selective pass as it
    /// finishes (a probable score and move, with its `confidence`; nodes counted from the start of
    /// the solve) and the table's fill in per mille. If the solve is stopped after
    /// a pass has finished, it returns the last finished pass's result, marked `aborted`.
    pub fn solve_exact_reporting(
        &mut self,
        board: Board,
        on_pass: &mut dyn FnMut(&SolveResult, u32),
    ) -> SolveResult {
        self.begin_solve();
        let n = board.empty_count();
        if n < ASPIRATION_MIN || board.is_game_over() {
            return self.solve_window(board, -64, 64);
        }
        let (p, o) = (board.player(), board.opponent());
        // Deeper estimates are better (mean error against the FFO #20-#59 scores: 6.1 discs at depth
        // 2, 4.1 at depth 6) but cost more; they pay for themselves on the larger solves.
        let depth = if n >= ASPIRATION_DEEP_MIN {
            ASPIRATION_DEEP_DEPTH
        } else {
            ASPIRATION_DEPTH
        };
        let guess =
            self.shallow_value(p, o, &PatternIndices::new(p, o), depth, -INF_EVAL, INF_EVAL);
        // Final scores are even: the first window (guess - 1, guess + 1) only holds the even score
        // nearest the estimate, so it is as cheap as a null-window test.
        let guess = ((guess as f64 / 200.0).round() as i32 * 2).clamp(-64, 64);
        self.staged(board, on_pass, &mut |solver, last| {
            // Each pass starts its window at the score of the one before.
            solver.aspiration(board, last.map_or(guess, |r| r.score))
        })
    }

    /// Runs `pass` at each selective level (from `SELECTIVE_MIN` empties) and then exactly, handing
    /// it the previous pass's result and `on_pass` each selective result. A stopped pass returns the
    /// last finished one's result instead, marked `aborted`.
    pub(super) fn staged(
        &mut self,
        board: Board,
        on_pass: &mut dyn FnMut(&SolveResult, u32),
        pass: &mut dyn FnMut(&mut Solver, Option<&SolveResult>) -> SolveResult,
    ) -> SolveResult {
        let n = board.empty_count();
        let levels: &[u8] = if n >= SELECTIVE_MORE_MIN {
            &SELECTIVE_MORE_PASSES
        } else if n >= SELECTIVE_MIN {
            &SELECTIVE_PASSES
        } else {
            &[]
        };
        // A stopped pass gives way to the last finished one, if any.
        let stopped = |last: Option<SolveResult>, r: SolveResult, nodes: u64| {
            let r = last.map_or(r, |l| SolveResult { aborted: true, ..l });
            SolveResult { nodes, ..r }
        };
        let mut nodes = 0;
        let mut last: Option<SolveResult> = None;
        for &level in levels {
            self.selectivity = level;
            let r = pass(self, last.as_ref());
            self.selectivity = EXACT;
            nodes += r.nodes;
            if r.aborted {
                return stopped(last, r, nodes);
            }
            on_pass(&SolveResult { nodes, ..r.clone() }, self.hashfull());
            last = Some(r);
        }
        let r = pass(self, last.as_ref());
        nodes += r.nodes;
        if r.aborted {
            return stopped(last, r, nodes);
        }
        SolveResult { nodes, ..r }
    }

    /// Solves with windows around `guess` (even), widened on the side they fail, until the score is
    /// inside one. A failed window returns a bound `b` (fail-soft); the next window first tests the
    /// even score at `b` (or next to it on the failing side, when a selective pass returns an odd
    /// bound), as the true score is most often there (on FFO #38 the exact pass failed low at -20
    /// with a window around -18: proving -20 with the window (-23, -19) cost 15.3 M nodes), and only
    /// later windows widen, by 2, 4, 8... discs. Against widening by 2 at once: FFO #20-#39
    /// 82.29 M -> 81.22 M nodes, FFO #53 1.511 G -> 1.489 G, FFO #40-#47 +0.2%, 60 self-play
    /// positions at 20 empties +0.2%. Without the rounding to even, #53 took 1.860 G: a 95% pass
    /// failed low at -1, retested (-2, 0), which only holds the odd -1, and failed again.
    pub(super) fn aspiration(&mut self, board: Board, guess: i32) -> SolveResult {
        let (mut alpha, mut beta) = (guess - 1, guess + 1);
        let mut delta = 0;
        let mut nodes = 0;
        let mut tries = 0;
        loop {
            tries += 1;
            let r = self.solve_window(board, alpha, beta);
            nodes += r.nodes;
            if r.aborted || (r.score > alpha && r.score < beta) || (alpha <= -64 && beta >= 64) {
                return SolveResult { nodes, ..r };
            }
            if self.selectivity < EXACT && tries >= SELECTIVE_TRIES {
                // A selective search is not consistent: its bounds from one window may contradict
                // those from the next, and the windows could go back and forth for ever. The full
                // window always ends the loop.
                (alpha, beta) = (-65, 65);
                continue;
            }
            // Exact scores are even, but a selective pass can return an odd bound (a probable cut
            // returns the window's edge): the next window is centred on the even score next to it
            // on the failing side, which keeps the bounds odd.
            if r.score <= alpha {
                let bound = r.score - (r.score & 1);
                beta = (bound + 1).min(65);
                alpha = (bound - delta - 1).max(-65);
            } else {
                let bound = r.score + (r.score & 1);
                alpha = (bound - 1).max(-65);
                beta = (bound + delta + 1).min(65);
            }
            delta = (delta * 2).max(2);
        }
    }

    /// Solves for win/loss/draw only (window -1..1): the sign of the score is exact, the magnitude is
    /// not. From `SELECTIVE_MIN` empties, selective passes with the same window come first.
    pub fn solve_wld(&mut self, board: Board) -> SolveResult {
        self.solve_wld_reporting(board, &mut |_, _| {})
    }

    /// [`Solver::solve_wld`], reporting its selective passes as
    /// [`Solver::solve_exact_reporting`] does.
    pub fn solve_wld_reporting(
        &mut self,
        board: Board,
        on_pass: &mut dyn FnMut(&SolveResult, u32),
    ) -> SolveResult {
        self.begin_solve();
        self.staged(board, on_pass, &mut |solver, _| {
            solver.solve_window(board, -1, 1)
        })
    }

    /// A new solve: a new table generation, and its node count for progress from zero (the last
    /// window's nodes go to the budget as a new window would put them).
    fn begin_solve(&mut self) {
        self.generation = self.generation.wrapping_add(1);
        self.budget_used = self.budget_used.saturating_add(self.nodes);
        self.nodes = 0;
        self.solve_base = 0;
    }

    /// Solves with the window `alpha..beta` (exclusive bounds, fail-soft): a score strictly inside it
    /// is exact, one at or below `alpha` is an upper bound and one at or above `beta` a lower bound.
    pub fn solve_window(&mut self, board: Board, alpha: i32, beta: i32) -> SolveResult {
        self.budget_used = self.budget_used.saturating_add(self.nodes);
        self.solve_base = self.solve_base.saturating_add(self.nodes);
        self.nodes = 0;
        self.next_check = 0;
        self.aborted = false;
        let (p, o) = (board.player(), board.opponent());
        let n = board.empty_count();
        if board.is_game_over() {
            return SolveResult {
                score: board.final_score(),
                best_move: None,
                pv: Vec::new(),
                nodes: 1,
                aborted: false,
                confidence: 100,
            };
        }
        let (score, best) = self.root(p, o, alpha.max(-64), beta.min(64), n);
        let pv = if self.aborted || score <= alpha || score >= beta || self.selectivity < EXACT {
            // Only a bound is known (or the solve was cut short): the PV is the move chosen.
            best.into_iter().collect()
        } else {
            self.principal_variation(board, score, best)
        };
        SolveResult {
            score,
            best_move: best,
            pv,
            nodes: self.nodes,
            aborted: self.aborted,
            confidence: match (self.aborted, self.selectivity) {
                (true, _) => 0,
                (false, EXACT) => 100,
                (false, level) => MPC_CONFIDENCE[level as usize],
            },
        }
    }

    /// Per mille of sampled table slots written by the current solve (the UCI `hashfull`).
    pub fn hashfull(&self) -> u32 {
        self.table.hashfull(self.generation)
    }

    /// Nodes searched by the last solve so far.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// The root: every move searched with PVS, best move returned.
    pub(super) fn root(
        &mut self,
        p: u64,
        o: u64,
        alpha: i32,
        beta: i32,
        n: u32,
    ) -> (i32, Option<Move>) {
        self.nodes += 1;
        let moves = legal_moves(p, o);
        if moves == 0 {
            let score = -self.search(o, p, -beta, -alpha, n, Hint::NONE);
            return (score, Some(Move::PASS));
        }
        let mut ordered = self.order_moves(p, o, moves, n, None, None, 0, false);
        let first = ordered.peek().unwrap_or(64);
        let (best, best_sq) = self.search_moves(
            p,
            o,
            alpha,
            beta,
            n,
            false,
            &mut ordered,
            (-INF_DISCS, NO_SQUARE),
            None,
        );
        let best_move =
            Square::new(if best_sq != NO_SQUARE { best_sq } else { first }).map(Move::play);
        (best, best_move)
    }

    /// The score of playing `sq` (from the mover's side), principal variation search style: the
    /// first move with the full window, the others with a null window and a re-search when they
    /// land inside it. `refutes`: the move is expected to refute the node (the first move of an
    /// expected cut-node), so its child is expected to be an all-node.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    pub(super) fn search_move(
        &mut self,
        p: u64,
        o: u64,
        sq: usize,
        alpha: i32,
        beta: i32,
        n: u32,
        first: bool,
        refutes: bool,
        indices: Option<&PatternIndices>,
    ) -> i32 {
        let f = flips(sq, p, o);
        let (cp, co) = (o ^ f, p | f | (1 << sq));
        // A child that will order its moves by evaluation gets its pattern indices from here (it
        // is a table node, whose `search_tt` takes them at once: asserted next to `NEAR_CORNERS`).
        let child = indices
            .filter(|_| n > EVAL_ORDER_MIN)
            .map(|idx| idx.play(sq, f));
        // Only a table node reads the flag, as with the indices.
        let hint = Hint {
            indices: child.as_ref(),
            expect_all: refutes && n > TT_MIN,
        };
        if first {
            return -self.search(cp, co, -beta, -alpha, n - 1, hint);
        }
        let v = -self.search(cp, co, -alpha - 1, -alpha, n - 1, hint);
        if v > alpha && v < beta {
            // The re-search has a wider window: a PV node, not an expected all-node.
            let hint = Hint {
                indices: child.as_ref(),
                expect_all: false,
            };
            -self.search(cp, co, -beta, -v, n - 1, hint)
        } else {
            v
        }
    }

    /// Dispatches to the layer for `n` empties (the table layer takes the parent's `hint`).
    /// Window `alpha..beta`, fail-soft.
    #[inline]
    pub(super) fn search(
        &mut self,
        p: u64,
        o: u64,
        alpha: i32,
        beta: i32,
        n: u32,
        hint: Hint<'_>,
    ) -> i32 {
        if n >= TT_MIN {
            self.search_tt(p, o, alpha, beta, n, hint)
        } else if n > SHALLOW_MAX {
            self.search_mid(p, o, alpha, beta, n, legal_moves(p, o))
        } else {
            let (list, count) = parity_ordered_empties(p, o);
            self.search_shallow(p, o, alpha, beta, list, count)
        }
    }

    /// The principal variation for an exact score: from the root, repeatedly pick a move whose exact
    /// score matches. The solve's best move (at the root) or the table's is tried first: it is
    /// nearly always right, and its subtree is in the table. Only if it fails are the moves ordered
    /// and tried in turn. Each try is a null-window test ([`Solver::pv_try`]). Against ordering
    /// every position's moves and trying them with a window of width 2, the PV of FFO #51 took
    /// 518 nodes and 27 us instead of 10.5 M nodes and 0.53 s, and that of #45 1,646 nodes and
    /// 51 us instead of 42.5 M nodes and 1.31 s (12% of its solving time).
    pub(super) fn principal_variation(
        &mut self,
        board: Board,
        score: i32,
        root_best: Option<Move>,
    ) -> Vec<Move> {
        let saved_nodes = self.nodes;
        let mut pv = Vec::new();
        let mut b = board;
        let mut target = score;
        while !b.is_game_over() {
            let (p, o) = (b.player(), b.opponent());
            let moves = legal_moves(p, o);
            if moves == 0 {
                pv.push(Move::PASS);
                b = b.pass();
                target = -target;
                continue;
            }
            let n = b.empty_count();
            // The root is not in the table: its best move comes from the solve.
            let hash_move = match (pv.is_empty(), root_best.and_then(Move::square)) {
                (true, Some(sq)) => sq.index() as u8,
                _ => self
                    .table
                    .probe(self.table.place(p, o))
                    .map_or(64, |e| e.best),
            };
            let first = (hash_move < 64 && moves >> hash_move & 1 == 1).then_some(hash_move);
            let mut found = first.and_then(|sq| self.pv_try(p, o, sq, n, target));
            if found.is_none() {
                let mut ordered = self.order_moves(p, o, moves, n, None, None, 0, false);
                while let Some(sq) = ordered.pop() {
                    if Some(sq) != first {
                        found = self.pv_try(p, o, sq, n, target);
                        if found.is_some() {
                            break;
                        }
                    }
                }
            }
            let Some((sq, next)) = found else { break };
            pv.push(Move::play(sq));
            b = next;
            target = -target;
        }
        self.nodes = saved_nodes;
        pv
    }

    /// Whether playing `sq` keeps the exact score `target` (the position's best): the move and the
    /// position after it if so. A null-window test: no child scores below -target, so the move is
    /// right when its child is not above.
    pub(super) fn pv_try(
        &mut self,
        p: u64,
        o: u64,
        sq: u8,
        n: u32,
        target: i32,
    ) -> Option<(Square, Board)> {
        let s = sq as usize;
        let f = flips(s, p, o);
        let (cp, co) = (o ^ f, p | f | (1 << s));
        if self.search(cp, co, -target, -target + 1, n - 1, Hint::NONE) <= -target {
            Square::new(sq).zip(Board::new(cp, co).ok())
        } else {
            None
        }
    }
}
