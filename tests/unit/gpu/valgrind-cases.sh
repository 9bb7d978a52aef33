#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The GPU side under valgrind's memcheck, against the test doubles: a
# representative subset of run-tests.sh's configurations (run-tests.sh has
# about a hundred runs; under valgrind each costs seconds, so each code path
# is taken once): the healthy measurement, the curve, four GPUs, --pairs,
# NVML absent, failing to start or failing per reading, CUDA failing to
# start or mid-run, the teardown failing, corrupt copies, a busy GPU, a
# copy that never completes, and p2pdiag-check end to end in text, JSON
# and --quick.
#
# Each case checks the exit status and one line of what it must say, and
# that valgrind reported nothing in any process of the run: the worker is a
# fork of the tool, so each process writes its own log (--log-file=%p), and
# a non-empty log fails the case.  Timing assertions stay in run-tests.sh.
#
# Needs: VALGRIND (with its flags), GPU_STATE, DOUBLES, P2PDIAG, MKSYSFS,
# LOGS (a folder for the logs; those of failed cases are kept).
set -u

: "${VALGRIND:?}" "${GPU_STATE:?}" "${DOUBLES:?}" "${P2PDIAG:?}" "${MKSYSFS:?}" "${LOGS:?}"
FIXTURES=$(cd "$(dirname "$0")/../fixtures" && pwd)
TREE=$(mktemp -d)
trap 'rm -rf "$TREE"' EXIT
"$MKSYSFS" "$FIXTURES/02-eight-gpu-four-switches.topo" "$TREE" >/dev/null ||
	{ echo "not ok 1 valgrind/gpu: mksysfs failed"; exit 1; }
rm -rf "$LOGS"
mkdir -p "$LOGS"

. "$(dirname "$0")/case-env.sh"
# shellcheck source=../../tap.sh
. "$(dirname "$0")/../../tap.sh"

# vg NAME RC LINE ENV... -- PROG ARGS...: PROG under valgrind with the
# doubles; its exit status must be RC, a line of its output must match the
# extended regular expression LINE, and no process may report an error.
vg() {
	local name=$1 want=$2 line=$3 dir out rc why=""

	shift 3
	case_env "$@"
	dir=$LOGS/$((n + 1))
	mkdir -p "$dir"
	out=$(env -u FAKE_GPUS "${case_envs[@]}" LD_LIBRARY_PATH="$case_libs" \
		$VALGRIND --log-file="$dir/%p.log" "${case_args[@]}" 2>&1)
	rc=$?
	find "$dir" -name '*.log' -empty -delete
	"$(dirname "$0")/../valgrind-known-gaps" "$dir"
	if [ -n "$(ls -A "$dir")" ]; then
		why="valgrind reported in $(ls "$dir" | wc -l) process(es): $(ls -d "$dir"/*.log | head -1)"
	elif [ "$rc" != "$want" ]; then
		why="exit status $rc, expected $want"
	elif ! grep -qE -- "$line" <<<"$out"; then
		why="no line matching: $line"
	fi
	if [ -z "$why" ]; then
		result 1 "valgrind: $name"
		rm -rf "$dir"
	else
		result 0 "valgrind: $name" "$why"
		head -20 <<<"$out" | sed 's/^/#   /'
	fi
}

SMALL=(--size 1048576 --timeout 60)
SW=FAKE_GPU_BUSIDS=0000:03:00.0,0000:04:00.0
TOOL=("$P2PDIAG" --source=module --sysfs-root "$TREE" --no-color --size 1M --timeout 60)

echo "KTAP version 1"
vg "gpu-state, a healthy pair measured" 0 '^pair0-1\.p2p=[0-9]' -- "$GPU_STATE" "${SMALL[@]}"
vg "gpu-state, the small-message curve" 0 '^dev0\.curve' -- "$GPU_STATE" "${SMALL[@]}" --curve
vg "gpu-state, four GPUs, two of them selected" 0 '^pair0-1\.p2p=' FAKE_GPUS=4 -- \
	"$GPU_STATE" "${SMALL[@]}" --pairs 0000:10:00.0,0000:11:00.0
vg "gpu-state, NVML absent" 0 '^nvml=no-library' LIBS="$DOUBLES/cuda" -- "$GPU_STATE" "${SMALL[@]}"
vg "gpu-state, nvmlInit failing" 0 '^nvml=init-failed' FAKE_NVML_INIT=fail -- "$GPU_STATE" "${SMALL[@]}"
vg "gpu-state, NVML readings failing per GPU" 0 '^dev1\.nvml_failed=link ' \
	FAKE_NVML_FAIL_CALL=nvmlDeviceGetCurrPcieLinkWidth,nvmlDeviceGetPcieReplayCounter,nvmlDeviceGetCurrentClocksThrottleReasons,nvmlDeviceGetP2PStatus,nvmlEventSetWait_v2 -- \
	"$GPU_STATE" "${SMALL[@]}"
vg "gpu-state, cuInit failing" 1 '^cuda=init-failed' FAKE_CUDA_INIT=fail -- "$GPU_STATE" "${SMALL[@]}"
vg "gpu-state, cuMemAlloc failing mid-run" 1 '^error=cuMemAlloc: ' FAKE_CUDA_FAIL_CALL=cuMemAlloc -- \
	"$GPU_STATE" "${SMALL[@]}"
vg "gpu-state, the teardown failing" 0 '^teardown_error=cuCtxDisablePeerAccess: .*; cuDevicePrimaryCtxRelease: ' \
	FAKE_CUDA_FAIL_CALL=cuCtxDisablePeerAccess,cuMemFree,cuStreamDestroy,cuDevicePrimaryCtxRelease -- \
	"$GPU_STATE" "${SMALL[@]}"
vg "gpu-state, P2P copies landing as zeros" 0 '^pair0-1\.p2p=.* verify=zeros$' FAKE_CUDA_CORRUPT=zeros -- \
	"$GPU_STATE" "${SMALL[@]}"
vg "gpu-state, a busy GPU is not measured" 1 '^measure=busy' FAKE_NVML_PROCS=4711:copier:2600 -- \
	"$GPU_STATE" "${SMALL[@]}"
vg "gpu-state, a P2P copy that never completes" 1 '^measure=timeout' FAKE_CUDA_HANG=p2p -- \
	"$GPU_STATE" --size 1048576 --timeout 4
vg "p2pdiag-check, a healthy switch pair (text, verbose)" 0 '^P2P here: ' "$SW" -- "${TOOL[@]}" --verbose
vg "p2pdiag-check, a healthy switch pair (JSON)" 0 '"gpus": \[' "$SW" -- "${TOOL[@]}" --json
vg "p2pdiag-check, four GPUs, --pairs" 0 '^P2P here: ' \
	FAKE_GPU_BUSIDS=0000:03:00.0,0000:04:00.0,0000:09:00.0,0000:0a:00.0 FAKE_GPUS=4 -- \
	"${TOOL[@]}" --pairs 0000:03:00.0,0000:09:00.0
vg "p2pdiag-check, the teardown failing" 1 'teardown-failed' "$SW" \
	FAKE_CUDA_FAIL_CALL=cuCtxDisablePeerAccess,cuMemFree,cuStreamDestroy,cuDevicePrimaryCtxRelease -- \
	"${TOOL[@]}"
vg "p2pdiag-check, NVML readings failing (JSON)" 0 '"reading": "link"' "$SW" \
	FAKE_NVML_FAIL_CALL=nvmlDeviceGetCurrPcieLinkWidth -- "${TOOL[@]}" --json
vg "p2pdiag-check --quick, NVML readings failing (text)" 0 '^NVML readings that failed ' "$SW" \
	FAKE_NVML_FAIL_CALL=nvmlDeviceGetCurrPcieLinkWidth -- "${TOOL[@]}" --quick
vg "p2pdiag-check, a copy that never completes" 2 'copy-timeout' "$SW" FAKE_CUDA_HANG=p2p -- \
	"$P2PDIAG" --source=module --sysfs-root "$TREE" --no-color --size 1M --timeout 4

echo "# valgrind: $n runs of the GPU side, each process checked"
summary
