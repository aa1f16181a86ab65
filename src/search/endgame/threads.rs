//! The glue to the helper threads: a node's moves after the first shared with idle helpers
//! (young brothers wait), a helper's share of a split, and the stop and cut-off checks.

use super::*;

impl Solver {
    /// Searches `moves` in order, principal variation search style, after whatever gave `best`
    /// (score and square; square 64 when nothing was searched yet, and then the first move gets
    /// the full window). Once one move has been searched, the rest are shared with idle helpers
    /// when there are any. Returns the best score and square; stops early on a cut-off or when
    /// the solve is aborted (the result then means nothing). `cut_node`: the node is an expected
    /// cut-node, so its first move is expected to refute it.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn search_moves(
        &mut self,
        p: u64,
        o: u64,
        mut alpha: i32,
        beta: i32,
        n: u32,
        cut_node: bool,
        moves: &mut MovePicker,
        (mut best, mut best_sq): (i32, u8),
        indices: Option<&PatternIndices>,
    ) -> (i32, u8) {
        loop {
            if best_sq != NO_SQUARE && self.should_split(n, moves.len()) {
                let mut rest = [0u8; MAX_MOVES];
                let count = moves.drain_sorted(&mut rest);
                return self.search_split(p, o, alpha, beta, n, &rest[..count], (best, best_sq));
            }
            let Some(sq) = moves.pop() else { break };
            let first = best_sq == NO_SQUARE;
            let v = self.search_move(
                p,
                o,
                sq as usize,
                alpha,
                beta,
                n,
                first,
                first && cut_node,
                indices,
            );
            if self.aborted {
                break;
            }
            if v > best {
                best = v;
                best_sq = sq;
                if v > alpha {
                    alpha = v;
                    if v >= beta {
                        break;
                    }
                }
            }
        }
        (best, best_sq)
    }

    /// Whether the solve must end: looks at the stop flag once every `STOP_CHECK_NODES` nodes
    /// (counted over all layers, so the delay between two looks is bounded whatever the layer).
    #[inline]
    pub(super) fn poll_stop(&mut self) -> bool {
        if self.nodes >= self.next_check {
            self.next_check = self.nodes + STOP_CHECK_NODES;
            if let Some(p) = &self.progress {
                p.set_solving_nodes(self.solve_base.saturating_add(self.nodes));
            }
            if self.must_abort() {
                self.aborted = true;
            } else if self.over_budget() {
                // A spent node budget ends the whole solve: through the stop flag, which the
                // helpers watch too, so none of them searches on and no split's result is taken
                // for complete.
                self.aborted = true;
                if let Some(stop) = &self.stop {
                    stop.store(true, Ordering::Relaxed);
                }
            }
        }
        self.aborted
    }

    /// Whether this solve has used up its node budget ([`Solver::set_node_limit`]).
    #[inline]
    pub(super) fn over_budget(&self) -> bool {
        self.budget_used.saturating_add(self.nodes) >= self.node_budget
    }

    /// Whether the stop flag or the cut-off flag of a split above the current work is set.
    pub(super) fn must_abort(&self) -> bool {
        self.stop
            .as_ref()
            .is_some_and(|s| s.load(Ordering::Relaxed))
            || self.chain.iter().any(|f| f.load(Ordering::Relaxed))
    }

    /// Whether a node with `n` empties and `remaining` moves still to search should share them with
    /// helpers now.
    #[inline]
    pub(super) fn should_split(&self, n: u32, remaining: usize) -> bool {
        n >= SPLIT_MIN
            && remaining >= 2
            && self.member.as_ref().is_some_and(|m| m.shared.has_idle())
    }

    /// Searches `moves` (the node's moves after the first, best first) together with whichever
    /// helpers are idle; returns the best score and move, counting `best` (the first move's).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn search_split(
        &mut self,
        p: u64,
        o: u64,
        alpha: i32,
        beta: i32,
        n: u32,
        moves: &[u8],
        best: (i32, u8),
    ) -> (i32, u8) {
        let mut chain = self.chain.clone();
        if let Some(stop) = &self.stop {
            chain.insert(0, stop.clone());
        }
        let split = Arc::new(Split::new(
            p,
            o,
            n,
            alpha,
            beta,
            best,
            moves,
            &chain,
            (self.generation, self.selectivity),
        ));
        if let Some(member) = &self.member {
            member.shared.recruit(&split, moves.len() - 1);
        }
        self.chain.push(split.cutoff.clone());
        self.work(&split);
        self.chain.pop();
        // Wait for the helpers, meanwhile helping them with work under this split. The jobs run on
        // this solver, so its own state is put aside for them and restored after.
        if let Some(member) = self.member.clone() {
            member.wait(&split, |sub| {
                let saved = (
                    self.nodes,
                    std::mem::take(&mut self.chain),
                    self.aborted,
                    self.next_check,
                );
                self.help(sub);
                (self.nodes, self.chain, self.aborted, self.next_check) = saved;
            });
        }
        self.nodes += split.nodes.load(Ordering::Relaxed);
        // The result stands if nothing above this split asks to stop: this split's own cut-off
        // (a fail-high was found) ends its work early without harm. But when something above does,
        // a helper may have left its move unfinished while this thread has not looked at the flags
        // yet: the result is then incomplete, so it must count as aborted whatever this thread saw.
        self.aborted = self.must_abort() || self.over_budget();
        split.result()
    }

    /// Takes moves from the split until none is left, reporting each score.
    pub(super) fn work(&mut self, split: &Split) {
        while let Some(sq) = split.next_move() {
            let alpha = split.alpha.load(Ordering::Relaxed);
            if alpha >= split.beta {
                break;
            }
            let v = self.search_move(
                split.p,
                split.o,
                sq as usize,
                alpha,
                split.beta,
                split.n,
                false,
                false,
                None,
            );
            if self.aborted {
                break;
            }
            split.report(sq, v);
        }
    }

    /// A helper's share of a split: its moves until none is left or the work is no longer needed.
    pub(super) fn help(&mut self, split: &Split) {
        self.generation = split.generation;
        self.selectivity = split.selectivity;
        self.chain.clone_from(&split.chain);
        self.aborted = false;
        self.nodes = 0;
        self.next_check = 0;
        self.work(split);
        split.nodes.fetch_add(self.nodes, Ordering::Relaxed);
        self.chain.clear();
    }
}
