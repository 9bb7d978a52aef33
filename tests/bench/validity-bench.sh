#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Measurement validity on one GPU machine: the small-message curve on an
# idle GPU, then p2pdiag-check next to a competing process
# (busy_copier.cu: 1 GiB copies both ways in a loop) with each busy
# policy: the default (refuse), --if-busy=measure, a bounded --wait-idle
# that gives up, and a --wait-idle that outlasts the competitor.
#
#   [P2PDIAG=userspace/p2pdiag-check] [NVCC=nvcc] [LOGDIR=validity-logs] \
#   tests/bench/validity-bench.sh
#
# Each run's report goes to LOGDIR/NAME.txt (or .json); the last lines
# printed are each run's exit status, wall time and findings.
set -u

HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$HERE/../.." && pwd)
P2PDIAG=${P2PDIAG:-$TOP/userspace/p2pdiag-check}
NVCC=${NVCC:-nvcc}
LOGDIR=${LOGDIR:-$TOP/validity-logs}

die() { echo "validity-bench: $*" >&2; exit 3; }
[ -x "$P2PDIAG" ] || die "no p2pdiag-check at $P2PDIAG (set P2PDIAG)"
mkdir -p "$LOGDIR" || die "cannot create $LOGDIR"
"$NVCC" -O2 -o "$LOGDIR/busy_copier" "$HERE/busy_copier.cu" ||
	die "cannot build busy_copier.cu with $NVCC"

summary=()
# run NAME ARGS...: one p2pdiag-check run, report to LOGDIR/NAME.txt
run() {
	local name=$1 t0 rc
	shift
	t0=$(date +%s%N)
	"$P2PDIAG" "$@" >"$LOGDIR/$name.txt" 2>"$LOGDIR/$name.err"
	rc=$?
	summary+=("$name ($*): exit $rc, $(( ($(date +%s%N) - t0) / 1000000 )) ms")
}

# copier SECONDS: start the competitor, wait until NVML lists it
copier() {
	"$LOGDIR/busy_copier" "$1" "${COPIER_MIB:-1024}" >>"$LOGDIR/copier.log" 2>&1 &
	copier_pid=$!
	for _ in $(seq 50); do
		nvidia-smi --query-compute-apps=pid --format=csv,noheader 2>/dev/null |
			grep -qw "$copier_pid" && break
		sleep 0.2
	done
	sleep 1		# its copies are running, not just its context
}

run idle-curve --no-color --curve
run idle-curve-json --json --curve

copier 60
nvidia-smi --query-compute-apps=pid,process_name,used_memory --format=csv \
	>"$LOGDIR/compute-apps.csv" 2>&1
nvidia-smi -q -d PERFORMANCE,CLOCK >"$LOGDIR/nvidia-smi-busy.txt" 2>&1
run busy-default --no-color
run busy-measure --no-color --if-busy=measure
run busy-measure-json --json --if-busy=measure
run busy-wait-bounded --no-color --wait-idle 3
kill "$copier_pid" 2>/dev/null
wait "$copier_pid" 2>/dev/null

copier 6
run busy-wait-outlasts --no-color --wait-idle 30
wait "$copier_pid" 2>/dev/null

# a lighter load: 16 MiB copies, the kind that slowed latency and the
# both-ways figures without any finding before
COPIER_MIB=16 copier 30
run busy-light-measure --no-color --if-busy=measure
kill "$copier_pid" 2>/dev/null
wait "$copier_pid" 2>/dev/null

for s in "${summary[@]}"; do
	echo "$s"
done
for f in busy-default busy-measure busy-wait-bounded busy-wait-outlasts \
	busy-light-measure; do
	echo "== $f"
	sed -n '/^Findings/,$p' "$LOGDIR/$f.txt" | grep -vE '^\s*$'
done
