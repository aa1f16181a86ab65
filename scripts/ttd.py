#!/usr/bin/env python3
"""Time to depth: one `go depth DEPTH` in a fresh engine process (no book, Hash 512), and the time,
nodes and selectivity at which each of the last iterations finished.

usage: scripts/ttd.py WEDGE_BINARY THREADS DEPTH [MOVES...]
  e.g. scripts/ttd.py target/release/wedge 16 30 f5 d6 c3 d3 c4
       scripts/ttd.py target/release/wedge 1 27            (the start position)

The figures are those of the engine's `info depth D ... nodes N ... time T` lines, so the process
start and the table's allocation are not counted. With THREADS above 1 every run differs: take
several runs, in turn with the other thread counts.
"""
import subprocess
import sys

SHOWN = 6  # iterations reported, counted back from DEPTH


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    engine, threads, depth = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    moves = sys.argv[4:]
    position = "position startpos" + (" moves " + " ".join(moves) if moves else "")
    proc = subprocess.Popen([engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            text=True, bufsize=1)
    for command in ["setoption name OwnBook value false", "setoption name Hash value 512",
                    f"setoption name Threads value {threads}", position, f"go depth {depth}"]:
        proc.stdin.write(command + "\n")
    proc.stdin.flush()
    finished = {}
    for line in proc.stdout:
        words = line.split()
        if not words:
            continue
        if words[0] == "info" and "depth" in words and "time" in words:
            fields = {words[i]: words[i + 1] for i in range(1, len(words) - 1)
                      if words[i] in ("depth", "nodes", "time", "selectivity")}
            if int(fields["depth"]) > depth - SHOWN:
                finished[int(fields["depth"])] = fields
        elif words[0] == "bestmove":
            break
    proc.stdin.write("quit\n")
    proc.stdin.flush()
    proc.wait()
    where = " ".join(moves) or "start"
    for d in sorted(finished):
        f = finished[d]
        print(f"threads {threads} depth {d} time {f['time']} nodes {f['nodes']} "
              f"selectivity {f.get('selectivity')} [{where}]")


if __name__ == "__main__":
    main()
