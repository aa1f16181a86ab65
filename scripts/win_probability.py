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
    """The records of each game block as (empties, side, label, depth, kind), from format version
    1 (20 bytes a record) or 2 (a step from the record before: only the empties count and the side
    to move are needed here, so the moves need not be played)."""
    data = open(path, "rb").read()
    if data[:8] != b"WEDGEDB1":
        sys.exit(f"{path}: not a wedge data file")
    version = struct.unpack_from("<I", data, 8)[0]
    off = 16
    while off + 24 <= len(data):
        _game, n, size, _check = struct.unpack_from("<QIIQ", data, off)
        off += 24
        records = []
        if version == 1:
            for _ in range(n):
                black, white, side, label, depth, kind = struct.unpack_from("<QQBbBB", data, off)
                records.append((64 - bin(black | white).count("1"), side, label, depth, kind))
                off += 20
        else:
            end, empties, side = off + size, 0, 0
            while off < end:
                step = data[off]
                off += 1
                if step == 255:
                    black, white, side = struct.unpack_from("<QQB", data, off)
                    empties = 64 - bin(black | white).count("1")
                    off += 17
                else:
                    empties -= 1 if step < 64 else 0
                    side ^= 1
                label, meta = struct.unpack_from("<bB", data, off)
                off += 2
                if meta == 255:
                    depth, kind = struct.unpack_from("<BB", data, off)
                    off += 2
                else:
                    depth, kind = meta & 63, meta >> 6
                records.append((empties, side, label, depth, kind))
        yield records


def points(paths):
    for path in paths:
        for records in games(path):
            exact = [r for r in records if r[4] == 2]
            if not exact:
                continue
            _empties, side, label, _depth, _kind = exact[0]
            result_black = label if side == 0 else -label
            for empties, side, label, _depth, kind in records:
                if kind != 1:
                    continue
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
