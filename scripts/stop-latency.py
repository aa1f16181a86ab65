#!/usr/bin/env python3
"""How soon `bestmove` follows `stop`: starts the engine, and ROUNDS times searches a midgame
position with `go infinite` for SECONDS, sends `stop` and times the answer through the pipes.
Prints the median and the range in milliseconds.

    scripts/stop-latency.py [ENGINE] [ROUNDS] [SECONDS]
"""
import statistics
import subprocess
import sys
import time

engine = sys.argv[1] if len(sys.argv) > 1 else "target/release/wedge"
rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 10
seconds = float(sys.argv[3]) if len(sys.argv) > 3 else 1.0

p = subprocess.Popen([engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)


def send(line):
    p.stdin.write(line + "\n")
    p.stdin.flush()


def until(prefix):
    while True:
        line = p.stdout.readline()
        if not line:
            sys.exit("the engine closed its output")
        if line.startswith(prefix):
            return line


send("uci")
until("uciok")
send("setoption name OwnBook value false")
times = []
for _ in range(rounds):
    send("position startpos moves f5 d6 c3 d3 c4 f4")
    send("isready")
    until("readyok")
    send("go infinite")
    time.sleep(seconds)
    t = time.perf_counter()
    send("stop")
    until("bestmove")
    times.append((time.perf_counter() - t) * 1000)
send("quit")
p.wait()
print(f"stop -> bestmove over {rounds} rounds after {seconds} s of go infinite: median "
      f"{statistics.median(times):.2f} ms, range {min(times):.2f}-{max(times):.2f} ms")
