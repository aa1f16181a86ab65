#!/bin/bash
# Thread scaling of the midgame search and the solver on a many-core machine (the figures of
# docs/dev/search.md, "On 16 cores"): ROUNDS rounds (default 2) of, for each thread count in THREADS
# (default "1 2 4 8 16"), time to depth 30 after f5 d6 c3 d3 c4 and to depth 27 from the start
# (scripts/ttd.py), and `wedge bench --depth 22`; then FFO #40-#44 at the first and last thread
# counts. Thread counts take turns within a round, so that a machine's slow minutes hit all alike.
# Everything goes to stdout; run from the repository root:
#   W=path/to/wedge scripts/scaling.sh > scaling.txt
# A binary built for another machine must not use instructions this one lacks: build it with
# RUSTFLAGS="-C target-cpu=x86-64-v3" (docs/building.md). The first command checks it runs.
set -u
W=${W:-target/release/wedge}
THREADS=${THREADS:-"1 2 4 8 16"}
ROUNDS=${ROUNDS:-2}
FFO=${FFO:-tests/data/fforum-40-59.obf}
"$W" --version || { echo "$W does not run here"; exit 1; }
date; nproc; grep -m1 "model name" /proc/cpuinfo
for round in $(seq "$ROUNDS"); do
  for t in $THREADS; do
    echo "== round $round, $t threads"
    python3 scripts/ttd.py "$W" "$t" 30 f5 d6 c3 d3 c4 | tail -3
    python3 scripts/ttd.py "$W" "$t" 27 | tail -2
    "$W" bench --depth 22 --threads "$t" --hash 512 2>&1 | tail -3 | tr '\n' ' '
    echo
  done
done
first=${THREADS%% *}
last=${THREADS##* }
if [ -f "$FFO" ]; then
  for t in "$first" "$last"; do
    echo "== FFO #40-#44, $t threads"
    head -5 "$FFO" > /tmp/scaling-ffo40-44.obf
    "$W" solve /tmp/scaling-ffo40-44.obf --first 40 --threads "$t" 2>&1 | tail -3
  done
fi
date
