#!/usr/bin/env python3
"""One position of each game of a GGF file, at a number of empty squares in a range.

usage: scripts/game-positions.py LO HI SEED GAMES.ggf... > positions.txt

Reads `wedge match --out` records (one GGF game a line; passes `PA`), replays each game and writes
one of its positions with LO to HI empty squares (the side to move not forced to pass), drawn with
a generator seeded by SEED, as a `<64 squares> <side>` line (`X` black, `O` white, `-` empty;
a1..h1 first) for `wedge data label`. A position written before is not written again. This makes
test sets from games that wedge's own self-play did not choose: levels, baselines, other engines
(docs/dev/evaluation.md, "A test set from other play"). `wedge data positions` does the same for
any game files (GGF, transcripts, WTHOR) and more positions a game (docs/training.md).
"""
import random
import re
import sys

from othello import flips


def has_move(me, opp):
    return any(
        (r, c) not in me and (r, c) not in opp and flips(me, opp, r, c)
        for r in range(8)
        for c in range(8)
    )


def text(black, white, black_to_move):
    sq = []
    for r in range(8):
        for c in range(8):
            sq.append('X' if (r, c) in black else 'O' if (r, c) in white else '-')
    return ''.join(sq) + (' X' if black_to_move else ' O')


def positions(line):
    """Every position of the game on `line` as (black, white, black to move, empties)."""
    bo = re.search(r'BO\[8 ([^\]]*)\]', line)
    cells, side = bo.group(1).split() if bo else ('-' * 27 + 'O*------*O' + '-' * 27, '*')
    black = {(i // 8, i % 8) for i, ch in enumerate(cells) if ch in '*X'}
    white = {(i // 8, i % 8) for i, ch in enumerate(cells) if ch == 'O'}
    to_move_black = side in ('*', 'X')
    out = []
    for who, mv in re.findall(r'(?<![A-Z])([BW])\[([^\]]*)\]', line):
        me, opp = (black, white) if to_move_black else (white, black)
        if has_move(me, opp):
            out.append((frozenset(black), frozenset(white), to_move_black,
                        64 - len(black) - len(white)))
        mv = mv.split('/')[0].strip().lower()
        if mv not in ('pa', 'pass', ''):
            r, c = int(mv[1]) - 1, ord(mv[0]) - ord('a')
            f = flips(me, opp, r, c)
            if not f:
                sys.exit(f'illegal move {mv} in: {line[:80]}...')
            me |= set(f) | {(r, c)}
            opp -= set(f)
        to_move_black = not to_move_black
    return out


def main():
    usage = 'usage: scripts/game-positions.py LO HI SEED GAMES.ggf... > positions.txt'
    if len(sys.argv) < 5:
        sys.exit(usage)
    try:
        lo, hi, seed = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
    except ValueError:
        sys.exit(f'LO, HI and SEED must be whole numbers\n{usage}')
    rng = random.Random(seed)
    seen = set()
    for path in sys.argv[4:]:
        try:
            f = open(path)
        except OSError as e:
            sys.exit(f'{path}: {e.strerror}')
        with f:
            for line in f:
                if not line.startswith('(;'):
                    continue
                cands = [p for p in positions(line) if lo <= p[3] <= hi]
                if not cands:
                    continue
                b, w, btm, _ = rng.choice(cands)
                t = text(b, w, btm)
                if t not in seen:
                    seen.add(t)
                    print(t)


main()
