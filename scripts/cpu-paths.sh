#!/usr/bin/env bash
# The same answers on every CPU path: builds wedge for a baseline x86-64 CPU (x86-64-v2: no BMI2,
# no AVX2, no AVX-512, so move generation, flips and the evaluation take their portable code) and
# compares it with a native build. Compared: the node counts of `wedge bench` at two depths (every
# evaluation value, legal move and flip of those searches steers them), the solver's moves, scores
# and node counts on FFO #1-#19, and the evaluation's errors on the three test sets. Single-threaded
# searches only: those are deterministic.
#
#   scripts/cpu-paths.sh [NATIVE [OTHER]]
#
# NATIVE defaults to target/release/wedge (built if missing); OTHER, if given, is compared instead
# of the x86-64-v2 build (another build to check, such as an x86-64-v3 one).
#
# Exits 1 and prints both outputs where they differ.
set -euo pipefail
cd "$(dirname "$0")/.."
native=${1:-target/release/wedge}
[ -x "$native" ] || cargo build --release --bin wedge
if [ $# -ge 2 ]; then
    portable=$2
else
    RUSTFLAGS="-C target-cpu=x86-64-v2" cargo build --release --bin wedge --target-dir target/portable
    portable=target/portable/release/wedge
fi

# Everything a binary answers that must not depend on the CPU path (no times, no speeds).
answers() {
    local w=$1
    "$w" bench | grep 'Nodes searched'
    "$w" bench --depth 14 | grep 'Nodes searched'
    "$w" solve tests/data/fforum-1-19.obf --threads 1 |
        awk '$1 ~ /^[0-9]+$/ { print $1, $3, $4, $7 } $1 == "total:" { print $2, $5, $6, $7 }'
    for set in exact-20-24 other-play-20-24 deep-30-40; do
        "$w" evaltest --data "data/test/$set.wdb"
    done
}

echo "native:   $("$native" --version | sed -n 2p)"
echo "other:    $("$portable" --version | sed -n 2p)"
a=$(answers "$native")
b=$(answers "$portable")
if [ "$a" != "$b" ]; then
    echo "the two builds answer differently:" >&2
    diff <(echo "$a") <(echo "$b") >&2 || true
    exit 1
fi
echo "the two builds agree: $(echo "$a" | wc -l) lines (bench nodes, FFO #1-#19, evaltest)"
echo "$a" | head -2
