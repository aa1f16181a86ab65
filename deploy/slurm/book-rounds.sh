#!/usr/bin/env bash
# Grows an opening book on a cluster: ROUNDS deviation steps (`wedge book extend`), each an array of
# N parts and their merge, every round starting when the one before has been merged (docs/cluster.md).
#
#   deploy/slurm/book-rounds.sh BASE.book ROUNDS N ARGS_FILE OUT [sbatch options...]
#
# e.g. deploy/slurm/book-rounds.sh start.book 20 64 extend-args.txt /shared/book --partition=cpu
# ARGS_FILE holds the extend's arguments, one a line, without --book, --shard and --out (for example
# --max, --window, --depth). Round R reads OUT/round-(R-1)/merged.book (round 1 reads BASE.book) and
# writes OUT/round-R/merged.book. WEDGE (default: wedge on PATH) is the binary every node runs; OUT
# must be on a shared file system. Prints the job ids.
set -euo pipefail
if [ $# -lt 5 ]; then
    sed -n '2,11p' "$0" >&2
    exit 2
fi
BASE=$(realpath "$1") ROUNDS=$2 N=$3 ARGS=$(realpath "$4") OUT=$5
shift 5
WEDGE=${WEDGE:-$(command -v wedge)}
HERE=$(dirname "$(realpath "$0")")
mkdir -p "$OUT"
OUT=$(realpath "$OUT")
SHARDS=$N
export WEDGE SHARDS
book=$BASE
after=()
for r in $(seq 1 "$ROUNDS"); do
    dir="$OUT/round-$r"
    mkdir -p "$dir"
    { printf -- '--book\n%s\n' "$book"; cat "$ARGS"; } > "$dir/args.txt"
    array=$(JOB=book-extend ARGS_FILE="$dir/args.txt" OUT="$dir" sbatch --parsable \
        --array="1-$N" --chdir="$dir" --export=ALL "${after[@]}" "$@" "$HERE/shards.sbatch")
    merge=$(JOB=book-extend OUT="$dir" sbatch --parsable --dependency="afterok:${array%%;*}" \
        --chdir="$dir" --export=ALL "$@" "$HERE/merge.sbatch")
    echo "round $r: parts job ${array%%;*}, merge job ${merge%%;*}"
    after=(--dependency="afterok:${merge%%;*}")
    book="$dir/merged.book"
done
