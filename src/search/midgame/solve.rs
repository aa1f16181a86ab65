//! The hand-over to the endgame solver: exact and WLD solves for the midgame search, all root
//! moves or only those of `searchmoves`, the report of a proof, and the solver's share of a
//! searcher's table memory.

use super::*;

impl Searcher {
    /// The megabytes of the solver's table of a searcher of `hash_mb`: a quarter of them.
    pub(super) fn solver_mb(hash_mb: usize) -> usize {
        (hash_mb / 4).max(1)
    }

    /// The megabytes a searcher of `hash_mb` asks for at most: its table and its solver's.
    pub fn tables_mb(hash_mb: usize) -> usize {
        hash_mb.max(1) + Searcher::solver_mb(hash_mb)
    }

    /// The megabytes the two tables of a searcher of `hash_mb` take: each the largest power of two
    /// of MB not above its share.
    pub(super) fn tables_mb_made(hash_mb: usize) -> usize {
        let floor = |mb: usize| 1usize << (usize::BITS - 1 - mb.max(1).leading_zeros());
        floor(hash_mb).saturating_add(floor(Searcher::solver_mb(hash_mb)))
    }

    /// Runs the endgame solver on the root, reporting each selective pass (a probable score) and
    /// the result. Also returns the result's confidence in percent: 100 when solved, 73, 87, 95 or
    /// 98 when stopped after a selective pass (its move is returned), 0 when stopped before any
    /// finished.
    pub(super) fn solve(
        &mut self,
        board: Board,
        kind: SolveKind,
        start: Instant,
        report: &mut dyn FnMut(Info),
    ) -> (SearchResult, u8) {
        self.solver.set_stop_flag(self.tree.stop.clone());
        self.tree.progress.set_solving();
        let budget = (self.tree.node_limit != u64::MAX)
            .then(|| self.tree.node_limit.saturating_sub(self.tree.nodes));
        self.solver.set_node_limit(budget);
        let (empties, base) = (board.empty_count(), self.tree.nodes);
        // A probable score: the disc difference of a selective exact pass, or the smallest win or
        // loss (or a draw) for a selective WLD pass.
        let probable = |score: i32| match kind {
            SolveKind::Exact => Score::Eval(100 * score),
            SolveKind::Wld => Score::Eval(200 * score.signum()),
        };
        let mut on_pass = |r: &SolveResult, hashfull: u32| {
            report(Info {
                multipv: 1,
                depth: empties,
                seldepth: empties,
                score: probable(r.score),
                bound: Bound::Exact,
                nodes: base + r.nodes,
                time: start.elapsed(),
                hashfull,
                selectivity: r.confidence,
                pv: r.pv.clone(),
            })
        };
        let r = match kind {
            SolveKind::Exact => self.solver.solve_exact_reporting(board, &mut on_pass),
            SolveKind::Wld => self.solver.solve_wld_reporting(board, &mut on_pass),
        };
        self.tree.aborted = r.aborted;
        self.tree.nodes += r.nodes;
        self.tree.progress.set_nodes(self.tree.nodes);
        self.tree.progress.set_solving_nodes(0);
        let score = match kind {
            _ if r.aborted => probable(r.score),
            SolveKind::Exact => Score::Exact(r.score),
            SolveKind::Wld => Score::Wld(r.score.signum()),
        };
        if !r.aborted {
            self.report_proof(1, score, &r.pv, empties, start, report);
        }
        let best_move = r.best_move.or_else(|| {
            board
                .legal_moves()
                .first()
                .map(Move::play)
                .or(Some(Move::PASS))
        });
        let confidence = r.confidence;
        (
            SearchResult {
                best_move,
                score,
                pv: r.pv,
                nodes: self.tree.nodes,
                depth: empties,
            },
            confidence,
        )
    }

    /// Proves `searched`, the result of a midgame search of `board`, with the exact solver (faster
    /// to the end than the midgame search: it has the parity ordering, the last-empties code and
    /// its own table), counting on from the search's nodes. A solve stopped before it is done
    /// gives its move only when one of its selective passes was surer than `surer_than` percent
    /// (the search's own confidence; 0 for a quick search that only gives a move to fall back on).
    pub(super) fn solve_after_search(
        &mut self,
        board: Board,
        searched: SearchResult,
        surer_than: u8,
        start: Instant,
        report: &mut dyn FnMut(Info),
    ) -> SearchResult {
        self.count_helper_nodes();
        let (solved, confidence) = self.solve(board, SolveKind::Exact, start, report);
        if self.tree.aborted && confidence <= surer_than {
            return SearchResult {
                nodes: solved.nodes,
                ..searched
            };
        }
        solved
    }

    /// Moves the helpers' node count into the search's own, where the solver's reports and its
    /// node limit count on from.
    pub(super) fn count_helper_nodes(&mut self) {
        self.tree.nodes = self.tree.total_nodes();
        self.tree.helper_nodes.store(0, Ordering::Relaxed);
    }

    /// Reports a finished solve's proven score and line. The solver's own table is the one the
    /// solve filled, so its fill is the `hashfull` reported.
    pub(super) fn report_proof(
        &self,
        multipv: usize,
        score: Score,
        pv: &[Move],
        empties: u32,
        start: Instant,
        report: &mut dyn FnMut(Info),
    ) {
        report(Info {
            multipv,
            depth: empties,
            seldepth: empties,
            score,
            bound: Bound::Exact,
            nodes: self.tree.nodes,
            time: start.elapsed(),
            hashfull: self.solver.hashfull(),
            selectivity: 100,
            pv: pv.to_vec(),
        });
    }

    /// Solves the root moves in `moves` one by one (`searchmoves`, or `MultiPV` above 1, with
    /// `go exact` or `go wld`): each child is solved on its own and the best `multipv` are
    /// reported as lines 1..multipv, the best first. Ends early, with the best so far and no
    /// proof reported, when stopped.
    pub(super) fn solve_moves(
        &mut self,
        board: Board,
        moves: u64,
        kind: SolveKind,
        multipv: usize,
        start: Instant,
        report: &mut dyn FnMut(Info),
    ) -> SearchResult {
        self.solver.set_stop_flag(self.tree.stop.clone());
        let budget = (self.tree.node_limit != u64::MAX)
            .then(|| self.tree.node_limit.saturating_sub(self.tree.nodes));
        self.solver.set_node_limit(budget);
        // No iteration or root move of the midgame search is in progress any more.
        self.tree.progress.set_solving();
        let empties = board.empty_count();
        let mut solved: Vec<(i32, Vec<Move>)> = Vec::new();
        for sq in Bitboard(moves) {
            let mv = Move::play(sq);
            let Some(child) = board.play_move(mv) else {
                continue;
            };
            let r = match kind {
                SolveKind::Exact => self.solver.solve_exact(child),
                SolveKind::Wld => self.solver.solve_wld(child),
            };
            self.tree.nodes += r.nodes;
            self.tree.progress.set_nodes(self.tree.nodes);
            self.tree.progress.set_solving_nodes(0);
            if r.aborted {
                self.tree.aborted = true;
                break;
            }
            solved.push((-r.score, std::iter::once(mv).chain(r.pv).collect()));
        }
        // The best first; among equal scores, the first solved (a stable sort).
        solved.sort_by_key(|&(score, _)| std::cmp::Reverse(score));
        let proven = |score: i32| match kind {
            SolveKind::Exact => Score::Exact(score),
            SolveKind::Wld => Score::Wld(score.signum()),
        };
        if !self.tree.aborted {
            for (k, (score, pv)) in solved.iter().take(multipv).enumerate() {
                self.report_proof(k + 1, proven(*score), pv, empties, start, report);
            }
        }
        let first = Bitboard(moves).next().map(Move::play);
        let Some((score, pv)) = solved.into_iter().next() else {
            return SearchResult {
                best_move: first,
                score: Score::Eval(0),
                pv: first.into_iter().collect(),
                nodes: self.tree.nodes,
                depth: 0,
            };
        };
        let score = if self.tree.aborted {
            Score::Eval(100 * score)
        } else {
            proven(score)
        };
        SearchResult {
            best_move: pv.first().copied(),
            score,
            pv,
            nodes: self.tree.nodes,
            depth: empties,
        }
    }
}

/// Converts a root score to a reported score: exact when the search reached the end of the game.
pub(super) fn score_of(v: i32, to_the_end: bool) -> Score {
    if to_the_end && v % 100 == 0 && v.abs() <= 6400 {
        Score::Exact(v / 100)
    } else {
        Score::Eval(v)
    }
}
