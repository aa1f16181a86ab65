#!/usr/bin/env python3
"""Every position the first plies of a game can reach, once each under the board's symmetries.

usage: scripts/early-positions.py PLIES [--moves] > positions.txt

Writes `<64 squares> <side>` lines (`X` black, `O` white, `-` empty; a1..h1 first), the positions
after 0..PLIES moves from the start, each once under the 8 symmetries of the square, in the order
found. `wedge data label` labels such a list (docs/training.md, "The first plies"): the training
games start from XOT openings (8 plies in), so no game of theirs has a position with 53-60 empties,
while a search from the start meets every one of them.

With --moves it writes, instead, one move list (e.g. `f5d6c3d3`, an opening for `wedge match
--openings`) for each position after exactly PLIES moves, the first found that reaches it.
"""
import sys

from othello import flips


def children(me, opp):
    found = False
    for r in range(8):
        for c in range(8):
            if (r, c) in me or (r, c) in opp:
                continue
            f = flips(me, opp, r, c)
            if f:
                # the side to move swaps: (mover's discs, other's discs) -> (other's, mover's)
                found = True
                yield frozenset(opp - set(f)), frozenset(me | set(f) | {(r, c)}), 'abcdefgh'[c] + str(r + 1)
    # No position within 7 plies of the start is a pass or a finished game: stop rather than drop
    # one's continuation should deeper plies meet it.
    if not found:
        sys.exit('a position with no move: passes are not handled here')


SYMS = [lambda r, c: (r, c), lambda r, c: (c, r), lambda r, c: (7 - r, c), lambda r, c: (r, 7 - c),
        lambda r, c: (7 - r, 7 - c), lambda r, c: (7 - c, 7 - r), lambda r, c: (c, 7 - r),
        lambda r, c: (7 - c, r)]


def canonical(me, opp, black):
    return min((tuple(sorted(s(*x) for x in me)), tuple(sorted(s(*x) for x in opp)), black)
               for s in SYMS)


def text(me, opp, black):
    sq = []
    for r in range(8):
        for c in range(8):
            x, o = ((r, c) in me, (r, c) in opp) if black else ((r, c) in opp, (r, c) in me)
            sq.append('X' if x else 'O' if o else '-')
    return ''.join(sq) + (' X' if black else ' O')


def main():
    plies = int(sys.argv[1])
    moves = '--moves' in sys.argv[2:]
    # (side to move's discs, the other's), black to move, the moves that led there; squares as
    # (row, column), d4 = (3, 3)
    level = [(frozenset({(3, 4), (4, 3)}), frozenset({(3, 3), (4, 4)}), True, '')]
    seen = {canonical(*level[0][:3])}
    if not moves:
        print(text(*level[0][:3]))
    for ply in range(plies):
        nxt = []
        for me, opp, black, line in level:
            for a, b, move in children(me, opp):
                key = canonical(a, b, not black)
                if key not in seen:
                    seen.add(key)
                    nxt.append((a, b, not black, line + move))
                    if not moves:
                        print(text(a, b, not black))
                    elif ply + 1 == plies:
                        print(line + move)
        level = nxt
        print(f'{len(nxt)} positions after {ply + 1} plies', file=sys.stderr)


main()
