#!/usr/bin/env bash
# Submits a long wedge job as N shards and its merge, the merge to start once every shard has
# succeeded (docs/cluster.md):
#
#   deploy/slurm/submit.sh JOB N ARGS_FILE OUT [sbatch options...]
#
# e.g. deploy/slurm/submit.sh datagen 64 datagen-args.txt /shared/s51 --partition=cpu
# WEDGE (default: wedge on PATH) is the binary every node runs; OUT must be on a shared file system.
# Prints the two job ids.
set -euo pipefail
if [ $# -lt 4 ]; then
    sed -n '2,9p' "$0" >&2
    exit 2
fi
JOB=$1 N=$2 ARGS_FILE=$(realpath "$3") OUT=$4
shift 4
WEDGE=${WEDGE:-$(command -v wedge)}
HERE=$(dirname "$(realpath "$0")")
mkdir -p "$OUT"
# Absolute: the jobs run in OUT (--chdir), where a relative OUT would name OUT/OUT.
OUT=$(realpath "$OUT")
SHARDS=$N
export WEDGE JOB ARGS_FILE OUT SHARDS
array=$(sbatch --parsable --array="1-$N" --chdir="$OUT" --export=ALL "$@" "$HERE/shards.sbatch")
merge=$(sbatch --parsable --dependency="afterok:${array%%;*}" --chdir="$OUT" --export=ALL "$@" \
    "$HERE/merge.sbatch")
echo "shards: job ${array%%;*}; merge: job ${merge%%;*}"
