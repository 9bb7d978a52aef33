#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# userspace/schema.json against real reports: p2pdiag-check --json over
# every engine fixture (tests/unit/fixtures, as saved topology files), the
# libpci dump fixture on AMD and Intel CPUs, fake module trees, the topology
# the lab's switchacs guest published, the system
# fixture machines (tests/unit/tool/fixtures/system), and, when
# the GPU test doubles are built, a measured run with GPUs; then reports
# the schema must refuse.
# Usage: test_schema.sh ROOT P2PDIAG_CHECK TEST_TOOL [GPU_OUT]
# (GPU_OUT: where tests/unit/gpu built mksysfs and the doubles)
set -u
root=$1 bin=$2 tool=$3 gpu=${4-}
. "$(dirname "$0")/../tap.sh"
. "$(dirname "$0")/fixture_runs.sh"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/p2pdiag-schema-XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
schema=$root/userspace/schema.json
validate=$(dirname "$0")/validate-report

# validate NAME REPORT...: one result for the set
validate() {
	local name=$1 out
	shift
	out=$("$validate" "$schema" "$@" 2>&1) && result 1 "schema: $name" ||
		result 0 "schema: $name" "$(grep -v ': ok$' <<<"$out")"
}

# report NAME ARGS...: the JSON of one run (any exit status but 3)
report() {
	local name=$1
	shift
	# A failed run leaves no JSON: the validation then fails on that file.
	"$bin" --json "$@" >"$tmp/$name.json" 2>"$tmp/$name.err" ||
		[ $? -le 2 ] || sed 's/^/# /' "$tmp/$name.err" >&2
	echo "$tmp/$name.json"
}

# The reports of every fixture run, by group (fixture_runs.sh).
declare -A group
add() {
	local g=$1
	shift
	group[$g]+="$(report "$@") "
}
fixture_runs "$root" "$tmp" "$tool" add
# The groups' file names have no spaces (mktemp's): split on purpose.
# shellcheck disable=SC2086
set -- ${group[engine]}
validate "every engine fixture's report ($#)" "$@"
# shellcheck disable=SC2086
validate "the libpci dump's reports, AMD and Intel" ${group[dump]}
# shellcheck disable=SC2086
validate "fake module trees' reports (ok, redirect, blocked)" ${group[tree]}
# The topology file the lab's switchacs guest published (module output).
# shellcheck disable=SC2086
validate "the lab's switchacs topology, judged offline" ${group[lab]}
# The system facts (GPUDirect readiness) of every fixture machine.
# shellcheck disable=SC2086
set -- ${group[system]}
[ $# -gt 0 ] && validate "reports with system facts, every fixture machine ($#)" "$@"

# Measured: two GPUs the doubles play under one switch.
if [ -n "$gpu" ] && [ -x "$gpu/mksysfs" ] && [ -d "$gpu/doubles/cuda" ] &&
   ! "$bin" --quick 2>/dev/null | grep -q '^CUDA: not-built'; then
	mkdir -p "$tmp/gpu-tree"
	"$gpu/mksysfs" "$root/tests/unit/fixtures/02-eight-gpu-four-switches.topo" "$tmp/gpu-tree"
	FAKE_GPU_BUSIDS=0000:03:00.0,0000:04:00.0 FAKE_CUDA_LAT_US=0.2 \
		LD_LIBRARY_PATH=$gpu/doubles/cuda:$gpu/doubles/nvml \
		"$bin" --json --source=module --sysfs-root "$tmp/gpu-tree" --size 1M \
		--timeout 10 >"$tmp/gpu.json" 2>/dev/null
	if "$PYTHON" -c 'import json, sys; sys.exit(not json.load(open(sys.argv[1]))["gpus"])' "$tmp/gpu.json" 2>/dev/null; then
		validate "a measured run's report (GPUs, bandwidth, exchange)" "$tmp/gpu.json"
	else
		result 0 "schema: a measured run's report has GPUs" "$(head -c 300 "$tmp/gpu.json")"
	fi
else
	echo "# schema: no GPU doubles or no CUDA support built: the measured report is not checked"
fi

# The check can fail: a verdict the schema does not know, an undeclared
# key, a missing key.
base=$tmp/tree-redirect.json
"$PYTHON" - "$base" "$tmp" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
bad = json.loads(json.dumps(d)); bad["pairs"][0]["verdict"] = "fine"
json.dump(bad, open(sys.argv[2] + "/bad-verdict.json", "w"))
bad = json.loads(json.dumps(d)); bad["pairs"][0]["reverse"]["surprise"] = 1
json.dump(bad, open(sys.argv[2] + "/bad-key.json", "w"))
bad = json.loads(json.dumps(d)); del bad["findings"][0]["severity"]
json.dump(bad, open(sys.argv[2] + "/bad-missing.json", "w"))
PY
for b in "verdict:an unknown verdict" "key:an undeclared key" "missing:a missing key"; do
	out=$("$validate" "$schema" "$tmp/bad-${b%%:*}.json" 2>&1) &&
		result 0 "schema: refuses a report with ${b#*:}" "$out" ||
		result 1 "schema: refuses a report with ${b#*:}"
done
summary
