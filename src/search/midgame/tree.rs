//! The tree below the root: principal variation search with the transposition table, the
//! stop and node-limit checks, move ordering, and the nodes one ply above the leaves. Late move
//! reductions are [`super::reductions`], probable cuts [`super::probcut`].

use super::busy::Busy;
use super::reductions::late_reduction;
use super::*;
use crate::search::movelist::MovePicker;

impl Tree {
    /// Looks at the stop flag and the node limit (all threads' nodes); a helper adds its nodes
    /// to the search's count instead.
    #[inline]
    pub(super) fn check_stop(&mut self) {
        if self.nodes.is_multiple_of(CHECK_EVERY) {
            if self.helper {
                self.helper_nodes.fetch_add(CHECK_EVERY, Ordering::Relaxed);
                if self.stop.load(Ordering::Relaxed) {
                    self.aborted = true;
                }
                return;
            }
            let nodes = self.total_nodes();
            self.progress.set_nodes(nodes);
            if self.stop.load(Ordering::Relaxed) || nodes >= self.node_limit {
                self.aborted = true;
            }
        }
    }

    /// Principal variation search (negamax, fail-soft) to `depth` plies; a pass does not use depth.
    /// Scores are centidiscs; finished games score 100 per disc. `pv` receives the line found.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn pvs(
        &mut self,
        p: u64,
        o: u64,
        idx: &PatternIndices,
        mut alpha: i32,
        beta: i32,
        depth: u32,
        ply: u32,
        pv: &mut Vec<Move>,
    ) -> i32 {
        self.nodes += 1;
        self.check_stop();
        if self.aborted {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        let moves = legal_moves(p, o);
        if moves == 0 {
            if legal_moves(o, p) == 0 {
                return 100 * final_score(p, o);
            }
            let mut child_pv = Vec::new();
            let v = -self.pvs(
                o,
                p,
                &idx.pass(),
                -beta,
                -alpha,
                depth,
                ply + 1,
                &mut child_pv,
            );
            pv.clear();
            pv.push(Move::PASS);
            pv.extend(child_pv);
            return v;
        }
        if depth == 0 {
            return self
                .eval
                .evaluate_indexed_moves(p, o, idx, moves)
                .clamp(-EVAL_LIMIT, EVAL_LIMIT);
        }
        let is_pv = beta - alpha > 1;
        let mut hash_move = NO_SQUARE;
        if let Some(e) = self.use_tt.then(|| self.tt.probe(p, o)).flatten() {
            hash_move = e.best;
            if u32::from(e.depth) >= depth && e.selectivity >= self.selectivity && !is_pv {
                let (lo, hi) = (i32::from(e.lower), i32::from(e.upper));
                if let Some(v) = crate::search::bound_cutoff(lo, hi, alpha, beta) {
                    return v;
                }
            }
        }
        if depth == 1 && !is_pv {
            let (best, best_sq) = self.null_window_1(p, o, idx, moves, hash_move, beta, ply);
            if self.use_tt && !self.aborted {
                self.tt
                    .store(p, o, depth, self.selectivity, alpha, beta, best, best_sq);
            }
            return best;
        }
        let selective = self.selectivity < FULL_WIDTH;
        if !is_pv && selective && depth >= probcut::MIN_DEPTH {
            if let Some(v) = self.probable_cut(p, o, idx, moves, alpha, beta, depth, ply) {
                return v;
            }
            if self.aborted {
                return 0;
            }
        }
        let alpha0 = alpha;
        let list = self.order_moves(p, o, idx, moves, depth, hash_move);
        // With helper threads, a node this deep marks itself while its moves are searched, and
        // children another thread is searching wait until the others are done ([`busy`]).
        let busy = if depth >= BUSY_MIN_DEPTH {
            self.busy.clone()
        } else {
            None
        };
        let key = busy.as_ref().map_or(0, |b| {
            let key = Busy::key(p, o);
            b.enter(key);
            key
        });
        let squares = list.squares();
        let mut deferred = [0u8; 32];
        let (mut waiting, mut next, mut searched) = (0, 0, 0);
        let mut best = -INF_CENTIDISCS;
        let mut best_sq = None;
        let mut child_pv = Vec::new();
        loop {
            let (sq, was_deferred) = if next < squares.len() {
                (squares[next], false)
            } else if next - squares.len() < waiting {
                (deferred[next - squares.len()], true)
            } else {
                break;
            };
            next += 1;
            let s = sq as usize;
            let f = flips(s, p, o);
            let (cp, co) = (o ^ f, p | f | (1 << s));
            if let Some(b) = &busy {
                if !was_deferred
                    && searched > 0
                    && waiting < deferred.len()
                    && b.is_busy(Busy::key(cp, co))
                {
                    deferred[waiting] = sq;
                    waiting += 1;
                    continue;
                }
            }
            let cidx = idx.play(s, f);
            let child = Child {
                p: cp,
                o: co,
                idx: &cidx,
                depth: depth - 1,
                ply: ply + 1,
            };
            let reduction = late_reduction(depth, searched, is_pv, selective);
            let v = if reduction > 0 {
                self.search_late_child(&child, alpha, beta, reduction, &mut child_pv)
            } else {
                self.search_child(&child, alpha, beta, searched == 0, &mut child_pv)
            };
            searched += 1;
            if self.aborted {
                return 0;
            }
            if v > best {
                best = v;
                best_sq = Some(sq);
                if v > alpha {
                    alpha = v;
                    if is_pv {
                        pv.clear();
                        pv.push(Move::play(Square::ALL[s]));
                        pv.extend_from_slice(&child_pv);
                    }
                    if v >= beta {
                        break;
                    }
                }
            }
        }
        if let Some(b) = &busy {
            b.leave(key);
        }
        if self.use_tt {
            self.tt
                .store(p, o, depth, self.selectivity, alpha0, beta, best, best_sq);
        }
        best
    }

    /// The moves of a null-window node one ply above the leaves (`beta` the window's top), after
    /// its table probe: the children's evaluations, fail-soft, the hash move first and then
    /// fewest replies first, as the general node orders them. Each child's flips and replies are
    /// found once, for both the ordering and the evaluation, and a leaf costs no call of the
    /// general node: same trees, 17% less time for `wedge bench --depth 20` (docs/benchmarks.md).
    /// Returns the score and the best square (none if the search was stopped).
    #[allow(clippy::too_many_arguments)]
    fn null_window_1(
        &mut self,
        p: u64,
        o: u64,
        idx: &PatternIndices,
        mut moves: u64,
        hash_move: u8,
        beta: i32,
        ply: u32,
    ) -> (i32, Option<u8>) {
        let mut list = MovePicker::default();
        // Each child's flips and replies, by square.
        let (mut flipped, mut replies_of) = ([0u64; 64], [0u64; 64]);
        while moves != 0 {
            let sq = moves.trailing_zeros() as usize;
            moves &= moves - 1;
            let f = flips(sq, p, o);
            let replies = legal_moves(o ^ f, p | f | (1 << sq));
            (flipped[sq], replies_of[sq]) = (f, replies);
            let key = if sq as u8 == hash_move {
                i32::MIN
            } else {
                reply_count(replies)
            };
            list.push(key, sq as u8);
        }
        let (mut best, mut best_sq) = (-INF_CENTIDISCS, None);
        while let Some(sq) = list.pop() {
            let s = sq as usize;
            let (f, replies) = (flipped[s], replies_of[s]);
            let (cp, co) = (o ^ f, p | f | (1 << s));
            let cidx = idx.play(s, f);
            let v = if replies == 0 {
                // The opponent passes or the game ends: the general node knows both.
                let mut pv = Vec::new();
                -self.pvs(cp, co, &cidx, -beta, 1 - beta, 0, ply + 1, &mut pv)
            } else {
                self.nodes += 1;
                self.check_stop();
                -self
                    .eval
                    .evaluate_indexed_moves(cp, co, &cidx, replies)
                    .clamp(-EVAL_LIMIT, EVAL_LIMIT)
            };
            if self.aborted {
                return (0, None);
            }
            if v > best {
                best = v;
                best_sq = Some(sq);
                if v >= beta {
                    break;
                }
            }
        }
        self.seldepth = self.seldepth.max(ply + 1);
        (best, best_sq)
    }

    /// Multi-ProbCut: a shallow null-window search whose predicted deep value clears the window by
    /// the current level's margin cuts the node off; `Some(bound)` is the bound it fails with.
    ///
    /// The node has a null window, and one test is tried, on the side of the window where the
    /// static evaluation lies (the high one when it is at least `beta`, else the low one): the
    /// shallow search on the side a cut is less likely is saved. Measured in nodes and self-play
    /// in docs/search.md ("The static evaluation's gate").
    #[allow(clippy::too_many_arguments)]
    fn probable_cut(
        &mut self,
        p: u64,
        o: u64,
        idx: &PatternIndices,
        moves: u64,
        alpha: i32,
        beta: i32,
        depth: u32,
        ply: u32,
    ) -> Option<i32> {
        let empties = 64 - (p | o).count_ones();
        let fit = self.mpc.fit(empties, depth);
        let margin = selectivity::MIDGAME_T[self.selectivity as usize] * fit.sigma;
        let shallow = probcut::shallow_depth(depth);
        let mut pv = Vec::new();
        debug_assert_eq!(
            alpha + 1,
            beta,
            "probable cuts are tried at null-window nodes"
        );
        if self.eval.evaluate_indexed_moves(p, o, idx, moves) >= beta {
            // The shallow value that predicts a deep one at or above `beta + margin`.
            let high = (((f64::from(beta) + margin - fit.b) / fit.a).ceil() as i32)
                .clamp(-INF_CENTIDISCS, INF_CENTIDISCS);
            if beta >= EVAL_LIMIT || high >= EVAL_LIMIT {
                return None;
            }
            let v = self.pvs(p, o, idx, high - 1, high, shallow, ply, &mut pv);
            (!self.aborted && v >= high).then_some(beta)
        } else {
            let low = (((f64::from(alpha) - margin - fit.b) / fit.a).floor() as i32)
                .clamp(-INF_CENTIDISCS, INF_CENTIDISCS);
            if alpha <= -EVAL_LIMIT || low <= -EVAL_LIMIT {
                return None;
            }
            let v = self.pvs(p, o, idx, low, low + 1, shallow, ply, &mut pv);
            (!self.aborted && v <= low).then_some(alpha)
        }
    }

    /// The score of a child for its parent, principal variation search style: the first child with
    /// the full window, the others with a null window and a re-search when they land inside it.
    /// `pv` receives the child's line.
    pub(super) fn search_child(
        &mut self,
        c: &Child,
        alpha: i32,
        beta: i32,
        first: bool,
        pv: &mut Vec<Move>,
    ) -> i32 {
        pv.clear();
        if first {
            return -self.pvs(c.p, c.o, c.idx, -beta, -alpha, c.depth, c.ply, pv);
        }
        let v = -self.pvs(c.p, c.o, c.idx, -alpha - 1, -alpha, c.depth, c.ply, pv);
        if v > alpha && v < beta && !self.aborted {
            pv.clear();
            -self.pvs(c.p, c.o, c.idx, -beta, -alpha, c.depth, c.ply, pv)
        } else {
            v
        }
    }

    /// Move ordering: the hash move first, then by a cheap score: at depth >= 3 the static evaluation
    /// of the child (a 1-ply look-ahead), always the opponent's mobility after the move (fastest
    /// first), with corners counted twice.
    pub(super) fn order_moves(
        &self,
        p: u64,
        o: u64,
        idx: &PatternIndices,
        mut moves: u64,
        depth: u32,
        hash_move: u8,
    ) -> MoveList {
        let mut list = MoveList::default();
        while moves != 0 {
            let sq = moves.trailing_zeros() as usize;
            moves &= moves - 1;
            let key = if sq as u8 == hash_move {
                i32::MIN
            } else {
                let f = flips(sq, p, o);
                let (cp, co) = (o ^ f, p | f | (1 << sq));
                if depth >= 2 && self.use_tt {
                    // The child will probe the table: start loading its bucket now.
                    self.tt.prefetch(cp, co);
                }
                let replies = legal_moves(cp, co);
                let mut key = reply_count(replies) * 100;
                if depth >= 3 {
                    key += self
                        .eval
                        .evaluate_indexed_moves(cp, co, &idx.play(sq, f), replies)
                        / 2;
                }
                key
            };
            list.insert(key, sq as u8);
        }
        list
    }
}

/// Remaining depth from which a node marks itself busy in a parallel search. Interleaved runs of
/// `wedge bench --depth 20 --threads 2` (AMD EPYC, 8 each; the threads make every run differ):
/// median 1,380 ms with marks from depth 4 against 1,500 ms without; depth 22, 4 each: 2,980
/// against 3,255 ms. Depths 2, 3, 5, 7 and 10 measure no better than 4 (single runs).
const BUSY_MIN_DEPTH: u32 = 4;
