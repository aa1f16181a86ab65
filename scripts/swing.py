#!/usr/bin/env python3
"""The odd/even swing: the mean |score(d) - score(d-1)| of one iterative-deepening search, depth by
depth, over positions of data/mpc/scores-d12.txt with 20-50 empty squares, and the mean signed
change (positive: the odd depth scores higher for the side to move).

usage: scripts/swing.py WEDGE_BINARY DEPTH POSITIONS [EVALFILE] [SELECTIVITY]
  e.g. scripts/swing.py target/release/wedge 14 200
POSITIONS `bench` takes the 22 positions of `wedge bench` (src/tools/bench.rs) instead, and prints
each position's own mean |change| too.
Only disc scores (`score cp`) count: a depth that reports an exact score is left out.

Each search starts from a new game (ucinewgame), without the book; the scores are those of the
`info depth D` lines of one `go depth DEPTH`. Run from the repository root.
"""
import re, subprocess, sys
W = sys.argv[1]; depth = int(sys.argv[2])
bench = sys.argv[3] == 'bench'
n = 0 if bench else int(sys.argv[3])
evalfile = sys.argv[4] if len(sys.argv) > 4 and sys.argv[4] != '-' else None
sel = sys.argv[5] if len(sys.argv) > 5 else None
pos = []
for line in open('data/mpc/scores-d12.txt'):
    if line.startswith('#'): continue
    w = line.split()
    e = w[0].count('-')
    if 20 <= e <= 50: pos.append((w[0], w[1]))
pos = pos[:n]
if bench:
    pos = re.findall(r'"([-XO]{64}) ([XO])"', open('src/tools/bench.rs').read())
p = subprocess.Popen([W], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
def send(s): p.stdin.write(s + '\n'); p.stdin.flush()
send('uci'); send('setoption name OwnBook value false')
if evalfile: send(f'setoption name EvalFile value {evalfile}')
if sel: send(f'setoption name Selectivity value {sel}')
diffs = {}  # depth -> list of score(d) - score(d-1), in discs
by_position = []  # (board, side, mean |change| over its depths, pairs)
for b, s in pos:
    send('ucinewgame'); send(f'position board {b} {s}'); send(f'go depth {depth}')
    scores = {}
    while True:
        l = p.stdout.readline()
        if not l: sys.exit('the engine ended')
        if l.startswith('info depth') and ' score ' in l and ' pv ' in l:
            w = l.split(); d = int(w[2]); i = w.index('score')
            if w[i + 1] == 'cp': scores[d] = int(w[i + 2]) / 100
        if l.startswith('bestmove'): break
    mine = {d: scores[d] - scores[d - 1] for d in scores if d - 1 in scores}
    for d, v in mine.items(): diffs.setdefault(d, []).append(v)
    if mine: by_position.append((b, s, sum(map(abs, mine.values())) / len(mine), len(mine)))
send('quit'); p.wait()
allabs = []
for d in sorted(diffs):
    x = diffs[d]; sign = 1 if d % 2 == 1 else -1
    allabs += [abs(v) for v in x]
    print(f'depth {d:2} vs {d-1:2}: {len(x):4} positions, mean |change| {sum(map(abs, x))/len(x):5.2f}, '
          f'odd minus even {sum(v*sign for v in x)/len(x):+5.2f} discs')
if bench:
    for b, s, m, k in by_position:
        print(f'{b} {s} ({b.count("-")} empties): mean |change| {m:5.2f} over {k} pairs')
print(f'all: mean |change| {sum(allabs)/len(allabs):.2f} discs over {len(allabs)} pairs')
