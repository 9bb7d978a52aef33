#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The fleet comparison at scale (README.md, "Fleet comparison"): COUNT
# (default 10000) saved reports of one 8-GPU server model with planted
# outliers (tests/unit/tool/fleet_reports.py), compared by
# p2pdiag-check --compare-fleet; prints the reports' size, wall and CPU
# time and peak RSS of RUNS runs (median by CPU time), and whether exactly
# the planted outliers were found.
#
#   P2PDIAG=userspace/p2pdiag-check COUNT=10000 RUNS=3 tests/bench/fleet-bench.sh
#
# The reports go to FLEETDIR (default a temporary directory, removed at
# the end; 10,000 reports take about 1.5 GB).
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
bin=${P2PDIAG:-$root/userspace/p2pdiag-check}
count=${COUNT:-10000} runs=${RUNS:-3}
work=$(mktemp -d "${TMPDIR:-/tmp}/p2pdiag-fleet-bench-XXXXXX")
trap 'rm -rf "$work"' EXIT
dir=${FLEETDIR:-$work/fleet}

start=$(date +%s.%N)
python3 "$root/tests/unit/tool/fleet_reports.py" "$bin" \
	"$root/tests/unit/fixtures/02-eight-gpu-four-switches.topo" "$dir" "$count" "$work/planted.json"
gen=$(echo "$(date +%s.%N) - $start" | bc)
bytes=$(du -sb "$dir" | cut -f1)
printf 'generated %d reports, %d bytes (%.0f MiB), in %.1f s\n' "$count" "$bytes" \
	"$(echo "$bytes / 1048576" | bc -l)" "$gen"

for i in $(seq "$runs"); do
	/usr/bin/time -f '%e %U %S %M' -o "$work/time.$i" \
		"$bin" --compare-fleet "$dir" --json >"$work/result.$i.json" || true
	read -r wall user sys rss < <(tail -n 1 "$work/time.$i")
	printf 'run %d: wall %s s, CPU %.2f s (user %s + sys %s), max RSS %.1f MiB\n' "$i" \
		"$wall" "$(echo "$user + $sys" | bc)" "$user" "$sys" "$(echo "$rss / 1024" | bc -l)"
done
python3 - "$work/planted.json" "$work/result.1.json" <<'PY'
import json, sys
planted = json.load(open(sys.argv[1]))
got = json.load(open(sys.argv[2]))
found = {o["file"]: sorted([[d["kind"], d["a"], d["b"], d["field"]] for d in o["differences"]],
                           key=lambda e: [str(x) for x in e]) for o in got["outliers"]}
same = found == planted["outliers"]
print("outliers found: %d of %d planted, %s; groups %s; exit status %d" % (
    len(set(found) & set(planted["outliers"])), len(planted["outliers"]),
    "exactly the planted ones" if same else "NOT the planted ones",
    [g["servers"] for g in got["groups"]], got["summary"]["exit_status"]))
sys.exit(0 if same else 1)
PY
