#!/usr/bin/env python3
"""How soon a fresh engine answers: ROUNDS times, starts the engine and sends `ugi`, times
`ugiok` from the start (the engine's start-up: book, weights, tables), then sends at once (no
`isready`) `setoption name OwnBook value false`, `position startpos moves f5 d6 c3 d3 c4` and `go
movetime MS`, and times `bestmove` from the `go`, through the pipes. Prints the medians and ranges
in milliseconds, and the depths reached.

    scripts/first-move.py [ENGINE] [ROUNDS] [MS]
"""
import statistics
import subprocess
import sys
import time

engine = sys.argv[1] if len(sys.argv) > 1 else "target/release/wedge"
rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 5
ms = int(sys.argv[3]) if len(sys.argv) > 3 else 50


def until(p, prefix):
    while True:
        line = p.stdout.readline()
        if not line:
            sys.exit("the engine closed its output")
        if line.startswith(prefix):
            return line


starts = []
times = []
depths = []
for _ in range(rounds):
    t = time.perf_counter()
    p = subprocess.Popen([engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                         bufsize=1)
    p.stdin.write("ugi\n")
    p.stdin.flush()
    until(p, "ugiok")
    starts.append((time.perf_counter() - t) * 1000)
    for line in ["setoption name OwnBook value false", "position startpos moves f5 d6 c3 d3 c4"]:
        p.stdin.write(line + "\n")
    t = time.perf_counter()
    p.stdin.write(f"go movetime {ms}\n")
    p.stdin.flush()
    depth = None
    while True:
        line = p.stdout.readline()
        if not line:
            sys.exit("the engine closed its output")
        words = line.split()
        if words[:1] == ["info"] and "depth" in words:
            depth = words[words.index("depth") + 1]
        if line.startswith("bestmove"):
            times.append((time.perf_counter() - t) * 1000)
            depths.append(depth)
            break
    p.stdin.write("quit\n")
    p.stdin.flush()
    p.wait()
print(f"{rounds} fresh engines: start -> ugiok median {statistics.median(starts):.1f} ms (range "
      f"{min(starts):.1f}-{max(starts):.1f}); go movetime {ms} -> bestmove median "
      f"{statistics.median(times):.1f} ms (range {min(times):.1f}-{max(times):.1f}), depths "
      f"{', '.join(str(d) for d in depths)}")
