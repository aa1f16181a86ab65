#!/usr/bin/env bash
# Runs wedge's sharded jobs on a real scheduler: starts a single-node Slurm (munge, slurmctld, slurmd;
# installed from Debian when missing), submits deploy/slurm's job files (a 4-shard datagen, a 4-shard
# match and a 2-shard book build, each with its merge as a dependent job, then two rounds of growing
# the book, each 2 extension shards and their merge), waits for them, and checks that each merged
# result equals what one process makes with the same arguments: the same bytes for the training data
# and the books, the same report for the match. Stops the daemons it started.
#
#   bash .ci/slurm.sh [path/to/wedge]      (as root, or with sudo)
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
WEDGE=$(realpath "${1:-target/release/wedge}")
as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }
if ! command -v slurmctld >/dev/null || ! command -v munged >/dev/null; then
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq slurm-wlm munge >/dev/null
fi

WORK=$(mktemp -d /tmp/wedge-slurm.XXXXXX)
chmod 755 "$WORK"
HOST=$(hostname -s)
CPUS=$(nproc)
PIDS=()
cleanup() {
    for pid in "${PIDS[@]}"; do as_root kill "$pid" 2>/dev/null || true; done
    as_root pkill -f "slurmd -f $WORK" 2>/dev/null || true
    as_root pkill -f "slurmctld -f $WORK" 2>/dev/null || true
    if [ -f "$WORK/munge/munged.pid" ]; then
        as_root kill "$(cat "$WORK/munge/munged.pid")" 2>/dev/null || true
    fi
}
trap cleanup EXIT

# munge: the key and the daemon, its socket in the work folder.
mkdir -p "$WORK/munge"
as_root sh -c "[ -s /etc/munge/munge.key ] || (dd if=/dev/urandom bs=1 count=1024 of=/etc/munge/munge.key 2>/dev/null && chown munge:munge /etc/munge/munge.key && chmod 400 /etc/munge/munge.key)"
as_root chown munge:munge "$WORK/munge"
as_root install -d -o munge -g munge /run/munge /var/log/munge /var/lib/munge
as_root runuser -u munge -- /usr/sbin/munged --socket="$WORK/munge/munge.socket" \
    --pid-file="$WORK/munge/munged.pid" --log-file="$WORK/munge/munged.log" \
    --seed-file="$WORK/munge/seed"

# Slurm: one node with this machine's CPUs, everything under the work folder.
cat > "$WORK/slurm.conf" <<CONF
ClusterName=wedge-ci
SlurmctldHost=$HOST
AuthType=auth/munge
AuthInfo=socket=$WORK/munge/munge.socket
CredType=cred/munge
SlurmUser=root
SlurmctldPidFile=$WORK/slurmctld.pid
SlurmdPidFile=$WORK/slurmd.pid
SlurmdSpoolDir=$WORK/spool
StateSaveLocation=$WORK/state
SlurmctldLogFile=$WORK/slurmctld.log
SlurmdLogFile=$WORK/slurmd.log
SlurmctldPort=16817
SlurmdPort=16818
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
MpiDefault=none
NodeName=$HOST CPUs=$CPUS State=UNKNOWN
PartitionName=ci Nodes=$HOST Default=YES MaxTime=INFINITE State=UP OverSubscribe=NO
CONF
mkdir -p "$WORK/spool" "$WORK/state"
export SLURM_CONF=$WORK/slurm.conf
as_root env SLURM_CONF="$SLURM_CONF" slurmctld -f "$SLURM_CONF"
as_root env SLURM_CONF="$SLURM_CONF" slurmd -f "$SLURM_CONF"
for _ in $(seq 60); do
    if sinfo -h -o %t 2>/dev/null | grep -qx idle; then break; fi
    sleep 1
done
sinfo -h -o "%P %D %t %C" | sed 's/^/slurm: /'
sinfo -h -o %t | grep -qx idle || { echo "slurm: the node did not come up"; cat "$WORK"/slurm*.log; exit 1; }

OPENINGS=$ROOT/tests/data/xot-sample.txt
args() { printf '%s\n' "$@"; }
args --openings "$OPENINGS" --games 16 --depth 2 --label-depth 4 --exact-empties 8 --seed 3 \
    > "$WORK/datagen.args"
args --engine greedy --engine random --openings "$OPENINGS" --games 24 --seed 9 > "$WORK/match.args"
head -20 "$OPENINGS" > "$WORK/book-openings.txt"
args --openings "$WORK/book-openings.txt" --depth 4 --exact-empties 10 --hash 1 > "$WORK/book.args"

submit() { # JOB N: the array and its merge; prints the merge's job id
    local said
    said=$(WEDGE=$WEDGE "$ROOT/deploy/slurm/submit.sh" "$1" "$2" "$WORK/$1.args" "$WORK/$1")
    echo "slurm: $1: $said" >&2
    echo "${said##*merge: job }"
}
wait_for() { # JOB_ID: until it has left the queue (completed, failed or cancelled)
    local state
    for _ in $(seq 170); do
        state=$(sacct -n -X -j "$1" -o State 2>/dev/null | head -1 | tr -d ' ' || true)
        [ -z "$state" ] && state=$(squeue -h -j "$1" -o %T 2>/dev/null || true)
        if [ -z "$state" ] || [ "$state" = COMPLETED ]; then break; fi
        case "$state" in FAILED|CANCELLED*|TIMEOUT|OUT_OF_MEMORY|NODE_FAIL) break ;; esac
        sleep 1
    done
}
started=$(date +%s)
merges=("$(submit datagen 4)" "$(submit match 4)" "$(submit book 2)")
for job in "${merges[@]}"; do wait_for "$job"; done
# Two rounds of growing the merged book, 2 parts each, every round after the previous merge.
args --max 40 --depth 4 --exact-empties 10 --hash 1 > "$WORK/extend.args"
rounds=$(WEDGE=$WEDGE "$ROOT/deploy/slurm/book-rounds.sh" "$WORK/book/merged.book" 2 2 \
    "$WORK/extend.args" "$WORK/rounds")
echo "$rounds" | sed 's/^/slurm: book-rounds: /'
wait_for "${rounds##*merge job }"
echo "slurm: all jobs done in $(( $(date +%s) - started )) s"

fail=0
check() { if "$@"; then echo "ok: ${CHECK}"; else echo "FAILED: ${CHECK}"; fail=1; fi; }
# One process, the same arguments.
mapfile -t A < "$WORK/datagen.args"
"$WEDGE" datagen "${A[@]}" --out "$WORK/one.wdb" >/dev/null 2>&1
"$WEDGE" data merge "$WORK/one.wdb" --out "$WORK/one-merged.wdb" >/dev/null
CHECK="datagen: 4 shards merged = one process, byte for byte" \
    check cmp "$WORK/datagen/merged.wdb" "$WORK/one-merged.wdb"
mapfile -t A < "$WORK/match.args"
"$WEDGE" match "${A[@]}" --out "$WORK/one.ggf" >/dev/null 2>&1
"$WEDGE" match --recount "$WORK/one.ggf" > "$WORK/one-report.txt"
CHECK="match: 4 shards counted together = one process, the same report" \
    check cmp "$WORK/match/report.txt" "$WORK/one-report.txt"
mapfile -t A < "$WORK/book.args"
"$WEDGE" book build "${A[@]}" --out "$WORK/one.book" >/dev/null 2>&1
CHECK="book: 2 shards merged = one build, byte for byte" \
    check cmp "$WORK/book/merged.book" "$WORK/one.book"
mapfile -t A < "$WORK/extend.args"
"$WEDGE" book extend --book "$WORK/one.book" "${A[@]}" --out "$WORK/one-1.book" >/dev/null 2>&1
"$WEDGE" book extend --book "$WORK/one-1.book" "${A[@]}" --out "$WORK/one-2.book" >/dev/null 2>&1
CHECK="book: 2 rounds of 2 extension shards merged = 2 extensions in one process, byte for byte" \
    check cmp "$WORK/rounds/round-2/merged.book" "$WORK/one-2.book"
if [ "$fail" -ne 0 ]; then
    for f in "$WORK"/*/*.log "$WORK"/slurm*.log; do echo "== $f"; tail -20 "$f"; done
fi
exit "$fail"
