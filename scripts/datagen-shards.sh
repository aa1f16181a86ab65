#!/bin/bash
# Training data on one many-core machine for a fixed time: SHARDS one-thread `wedge datagen`
# processes (default: one per core) play disjoint parts of one seeded run (`--shard i/SHARDS`) of
# the exact-20 recipe of docs/training.md, are stopped after SECONDS (default 480), and their
# files are merged into OUT (repeats and the torn block a stopped process may leave are dropped).
# Run from the repository root:
#   W=path/to/wedge SEED=45 OUT=s45.wdb SECONDS_=480 scripts/datagen-shards.sh
# The shards go to DIR (default /tmp/datagen-shards-SEED) and resume if the script runs again
# with the same SEED and SHARDS. A binary built for another machine must not use instructions
# this one lacks: build it with RUSTFLAGS="-C target-cpu=x86-64-v3" (docs/building.md). The first
# command checks it runs.
set -u
W=${W:-target/release/wedge}
SEED=${SEED:?set SEED (a seed no committed file uses: docs/dev/evaluation.md)}
OUT=${OUT:?set OUT, the merged file}
SHARDS=${SHARDS:-$(nproc)}
SECONDS_=${SECONDS_:-480}
XOT=${XOT:-data/openings/xot-large.txt}
DIR=${DIR:-/tmp/datagen-shards-$SEED}
"$W" --version || { echo "$W does not run here"; exit 1; }
[ -f "$XOT" ] || { echo "no openings file $XOT"; exit 1; }
mkdir -p "$DIR"
date; nproc; grep -m1 "model name" /proc/cpuinfo
for i in $(seq "$SHARDS"); do
  timeout -s KILL "$SECONDS_" "$W" datagen --openings "$XOT" --out "$DIR/s$SEED-$i.wdb" \
    --games 1000000 --depth 6 --exact-empties 20 --label-depth 12 --randomness 100 \
    --selectivity 73 --threads 1 --seed "$SEED" --shard "$i/$SHARDS" > "$DIR/s$SEED-$i.log" 2>&1 &
done
wait
date
# Each shard ends killed (its log says how far it got); one that wrote nothing failed to start.
ls "$DIR"/s"$SEED"-*.wdb > /dev/null 2>&1 || { echo "no shard wrote a file: see $DIR/*.log"; exit 1; }
"$W" data merge "$DIR"/s"$SEED"-*.wdb --out "$OUT" || { echo "the merge failed; $OUT is as it was"; exit 1; }
"$W" data info "$OUT"
