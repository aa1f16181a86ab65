#!/usr/bin/env python3
"""Openings of uniformly random legal moves from the start position, of several lengths.

usage: scripts/random-openings.py SEED COUNT PLIES... > openings.txt

Writes COUNT different openings of each number of plies (moves drawn uniformly among the legal
ones; an opening that reaches a position without a move is drawn again), shuffled, one a line as
concatenated moves, for `wedge match --openings`: games from positions that no opening book or
XOT set chose (data/openings/random-120.txt: `scripts/random-openings.py 2026 30 10 16 22 28`).
"""
import random
import sys

from othello import flips


def square(r, c):
    return "abcdefgh"[c] + str(r + 1)


def moves(me, opp):
    return [(r, c) for r in range(8) for c in range(8)
            if (r, c) not in me and (r, c) not in opp and flips(me, opp, r, c)]


def main():
    seed, count, lengths = int(sys.argv[1]), int(sys.argv[2]), [int(a) for a in sys.argv[3:]]
    random.seed(seed)
    out, seen = [], set()
    for plies in lengths:
        made = 0
        while made < count:
            me, opp, path, ok = {(3, 4), (4, 3)}, {(3, 3), (4, 4)}, [], True
            while len(path) < plies:
                legal = moves(me, opp)
                if not legal:
                    ok = False
                    break
                m = random.choice(legal)
                f = flips(me, opp, *m)
                me, opp = set(opp) - set(f), set(me) | {m} | set(f)
                path.append(m)
            text = "".join(square(*m) for m in path)
            if ok and text not in seen and moves(me, opp):
                seen.add(text)
                out.append(text)
                made += 1
    random.shuffle(out)
    print(f"# uniformly random legal moves from the start: {count} openings each of "
          f"{', '.join(map(str, lengths))} plies (scripts/random-openings.py, seed {seed})")
    print("\n".join(out))


if __name__ == "__main__":
    main()
