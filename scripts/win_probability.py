#!/usr/bin/env python3
"""Fits the win-probability curve of `wedge play`'s confidence read-out to self-play outcomes.

Reads binary training-data files (`.wdb`, docs/training.md): each block is one self-play game whose
positions from 20 empties down carry exact labels (perfect play from there), so the first exact
label is the game's result. Every search-labelled position (a depth-12 search score, like the one
the engine reports while playing) then gives a pair (score for the side to move, whether that side
went on to win: 1, 0.5 for a draw, 0). For each band of empty squares the scale k of
P(win) = 1 / (1 + exp(-score / k)) is fitted by maximum likelihood (golden-section search).

Usage: scripts/win_probability.py data/train/v5-train.wdb [more.wdb ...]
"""
import math
import struct
import sys

BANDS = [(21, 24), (25, 29), (30, 34), (35, 39), (40, 44), (45, 49), (50, 54), (55, 60)]


def games(path):
    data = open(path, "rb").read()
    if data[:8] != b"WEDGEDB1":
        sys.exit(f"{path}: not a wedge data file")
    off = 16
    while off < len(data):
        _game, n, _flags, _check = struct.unpack_from("<QIIQ", data, off)
        off += 24
        records = []
        for _ in range(n):
            records.append(struct.unpack_from("<QQBbBB", data, off))
            off += 20
        yield records


def points(paths):
    for path in paths:
        for records in games(path):
            exact = [r for r in records if r[5] == 2]
            if not exact:
                continue
            black, white, side, label, _depth, _kind = exact[0]
            result_black = label if side == 0 else -label
            for black, white, side, label, _depth, kind in records:
                if kind != 1:
                    continue
                empties = 64 - bin(black | white).count("1")
                result = result_black if side == 0 else -result_black
                won = 1.0 if result > 0 else 0.5 if result == 0 else 0.0
                yield empties, label, won


def nll(k, sample):
    total = 0.0
    for score, won in sample:
        p = 1.0 / (1.0 + math.exp(-score / k))
        p = min(max(p, 1e-12), 1 - 1e-12)
        total -= won * math.log(p) + (1 - won) * math.log(1 - p)
    return total / len(sample)


def fit(sample, lo=0.5, hi=40.0):
    g = (math.sqrt(5) - 1) / 2
    a, b = lo, hi
    for _ in range(40):
        c, d = b - g * (b - a), a + g * (b - a)
        if nll(c, sample) < nll(d, sample):
            b = d
        else:
            a = c
    return (a + b) / 2


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    by_band = {band: [] for band in BANDS}
    for empties, score, won in points(sys.argv[1:]):
        for band in BANDS:
            if band[0] <= empties <= band[1]:
                by_band[band].append((score, won))
    print("empties  positions  k (discs)  centre")
    for (lo, hi), sample in by_band.items():
        if sample:
            print(f"{lo:>2}-{hi:<2}    {len(sample):>8}  {fit(sample):8.2f}  {(lo + hi) / 2:6.1f}")


if __name__ == "__main__":
    main()
