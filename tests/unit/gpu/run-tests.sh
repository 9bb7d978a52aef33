#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The GPU side against the test doubles: every documented failure mode of
# CUDA and NVML, and what gpu_state must say about it.  Each case runs
# gpu-state with the doubles on LD_LIBRARY_PATH, configured through FAKE_*
# variables (tests/doubles/fake_cuda.c and fake_nvml.c document them), and
# checks its key=value output and exit status.
#
# Needs: GPU_STATE (the binary), DOUBLES (the doubles' folder), HAVE_CUDA.
# With P2PDIAG (p2pdiag-check) and MKSYSFS (mksysfs.c) it also runs
# p2pdiag-check end to end on fixture topologies whose GPUs the doubles
# play, and checks the findings and exit status each failure must give.
set -u

GPU_STATE=${GPU_STATE:?}
DOUBLES=${DOUBLES:?}
HAVE_CUDA=${HAVE_CUDA:-1}
SMALL=(--size 1048576 --timeout 10)
EMPTY=$(mktemp -d)
trap 'rm -rf "$EMPTY"' EXIT
# p2pdiag-check's system files (the CPU, the command line, IOMMU groups, a
# GPU's numa_node, module parameters) come from a root of the suite's own,
# an Intel machine with nothing else, so the machine running the tests
# changes no result; a case that wants others names its own --root.
mkdir -p "$EMPTY/hermetic/proc" &&
	printf 'processor\t: 0\nvendor_id\t: GenuineIntel\ncpu family\t: 6\n\n' \
		>"$EMPTY/hermetic/proc/cpuinfo"
export P2PDIAG_FSROOT=$EMPTY/hermetic

. "$(dirname "$0")/case-env.sh"
# shellcheck source=../../tap.sh
. "$(dirname "$0")/../../tap.sh"

out="" rc="" took=""

# run_case ENV... -- ARGS...: run gpu-state; sets $out, $rc, $took (s).
run_case() {
	local t0
	case_env "$@"
	t0=$(date +%s%N)
	out=$(env -u FAKE_GPUS -u CUDA_DISABLE_IOMMU_ACS_P2P_CAPABILITY_CHECK "${case_envs[@]}" LD_LIBRARY_PATH="$case_libs" \
		"${PROG:-$GPU_STATE}" "${case_args[@]}" 2>&1)
	rc=$?
	took=$(( ($(date +%s%N) - t0) / 1000000 ))
}

# Assertions record the first failure in $why.
why=""
has() { grep -qxF -- "$1" <<<"$out" || why=${why:-"missing line: $1"}; }
has_re() { grep -qE -- "$1" <<<"$out" || why=${why:-"no line matching: $1"}; }
lacks_re() { ! grep -qE -- "$1" <<<"$out" || why=${why:-"unexpected line: $1"}; }
status() { [ "$rc" = "$1" ] || why=${why:-"exit status $rc, expected $1"}; }
# faster_than MS: the run ended within MS plus a slack, i.e. by its deadline
# rather than waiting on the copy that never completes (which would last
# until the suite's own limit).  The slack (GPU_TEST_SLACK_MS, default 10 s)
# is there because under ASan on a loaded 2-core machine the tool's exit
# after the deadline took 3-4 s longer than on an idle one, and a test of
# "it stops" must not fail on "it stopped slowly".
faster_than() {
	local limit=$(($1 + ${GPU_TEST_SLACK_MS:-10000}))
	[ "$took" -lt "$limit" ] || why=${why:-"took $took ms, limit $limit"}
}
value() { sed -n "s/^$1=\([0-9.]*\).*/\1/p" <<<"$out" | head -1; }
# ratio_in KEY_A KEY_B LO HI: LO <= A/B <= HI
ratio_in() {
	local a b
	a=$(value "$1") b=$(value "$2")
	if [ -z "$a" ] || [ -z "$b" ]; then
		why=${why:-"no figure $1 or $2"}
		return
	fi
	awk -v a="$a" -v b="$b" -v lo="$3" -v hi="$4" \
		'BEGIN { r = a / b; exit !(r >= lo && r <= hi) }' ||
		why=${why:-"$1/$2 = $a/$b outside [$3, $4]"}
}

# finish NAME: the case's result, with the first failed assertion and
# the run's output under a failure.
finish() {
	if [ -z "$why" ]; then
		result 1 "$1"
	else
		result 0 "$1" "$why"
		while IFS= read -r l; do echo "#   $l"; done <<<"$out" | head -40
	fi
	why=
}

skip() {
	result 1 "$1 # SKIP $2"
}

echo "KTAP version 1"

if [ "$HAVE_CUDA" != 1 ]; then
	run_case -- "${SMALL[@]}"
	has "cuda=not-built"; has "measure=not-built"; status 1
	has_re "^error=.*without CUDA support"
	finish "built without cuda.h: every step says not-built"
	run_case -- --no-cuda
	has "cuda=skipped"; status 0
	finish "built without cuda.h: --no-cuda is skipped, not an error"
	summary
	exit
fi

# --- the libraries and their entry points -------------------------------

if ldconfig -p 2>/dev/null | grep -q 'libcuda\.so\.1 '; then
	skip "libcuda.so.1 absent" "a real libcuda.so.1 is installed here"
else
	run_case LIBS="$EMPTY" -- "${SMALL[@]}"
	has "cuda=no-library"; has "measure=skipped"; status 1
	has_re "^error=dlopen libcuda.so.1: "
	finish "libcuda.so.1 absent: no-library, named"
fi

run_case FAKE_CUDA_MISSING=cuDeviceGetP2PAttribute -- "${SMALL[@]}"
has "cuda=no-symbol"; status 1
has "error=libcuda.so.1: entry point cuDeviceGetP2PAttribute not found"
finish "probing entry point missing: no-symbol, named"

run_case FAKE_CUDA_MISSING=cuMemcpyPeerAsync -- "${SMALL[@]}"
has "cuda=ok"; has "measure=no-symbol"; status 1
has "error=libcuda.so.1: entry point cuMemcpyPeerAsync not found"
has_re "^pair0-1.cuda=can_access 1 "
finish "measuring entry point missing: attributes still read, measure no-symbol"

run_case FAKE_CUDA_MISSING=cuMemcpyPeerAsync -- "${SMALL[@]}" --quick
has "cuda=ok"; has "measure=skipped"; status 0
finish "measuring entry point missing is no error under --quick"

run_case FAKE_CUDA_INIT=fail -- "${SMALL[@]}"
has "cuda=init-failed"; has "nvml=skipped"; status 1
has "error=cuInit: CUDA_ERROR_UNKNOWN"
finish "cuInit failing: init-failed with the error name"

run_case FAKE_CUDA_INIT=nodevice -- "${SMALL[@]}"
has "cuda=no-device"; status 1
finish "cuInit CUDA_ERROR_NO_DEVICE: no-device"

run_case FAKE_GPUS=0 -- "${SMALL[@]}"
has "cuda=no-device"; has "nr_dev=0"; status 1
finish "no devices: no-device"

# --- a healthy pair ---------------------------------------------------------

run_case -- "${SMALL[@]}"
has "cuda=ok"; has "nvml=ok"; has "measure=ok"; status 0
lacks_re "^dev[0-9]+\.nvml_failed="
has "nr_dev=2"; has "nr_pairs=2"
has "dev0.addr=0000:10:00.0"; has "dev1.addr=0000:11:00.0"
has "driver_version=13000"; has "nvml_driver=999.99-fake"
has "pair0-1.cuda=can_access 1 perf_rank 0 access 1 atomics 1 array 1"
has "pair0-1.nvml=topo 30 read 1 write 1 nvlink 6 atomics 1 nvlinks 0"
has "dev0.link=gen5 x16 load=gen5 x16 max=gen5 x16"
has "dev0.bar1=131072 MiB used 2 MiB memory 81559 MiB"
lacks_re "verify=(not-run|zeros|ones|stale|partial)"
for f in h2d d2h bidir_h2d bidir_d2h local latency_h2d latency_chase; do
	has_re "^dev1\.$f=[0-9.]+ min=[0-9.]+ max=[0-9.]+ samples=3 verify=ok$"
done
for f in p2p p2p_bidir staged latency_p2p latency_staged; do
	has_re "^pair1-0\.$f=[0-9.]+ .* samples=3 verify=ok$"
done
has_re "^exchange\.4096=p2p [0-9.]+ staged [0-9.]+$"
has_re "^exchange\.1048576=p2p "
# 1 MiB at 55 GB/s plus the double's 2 us per copy: 49.8 GB/s.
ratio_in dev0.h2d dev0.d2h 0.99 1.01
awk -v v="$(value dev0.h2d)" 'BEGIN { exit !(v > 49 && v < 51) }' ||
	why=${why:-"dev0.h2d $(value dev0.h2d) is not the double's 49.8 GB/s"}
ratio_in pair0-1.p2p pair0-1.staged 2 4
ratio_in pair0-1.latency_staged pair0-1.latency_p2p 4.9 5.1
finish "healthy pair: every figure measured, verified and consistent"

run_case -- "${SMALL[@]}" --iterations 5
has_re "^dev0\.h2d=.* samples=5 verify=ok$"
finish "--iterations sets the number of samples"

run_case -- "${SMALL[@]}" --iterations 1
has_re "^dev0\.h2d=.* samples=3 verify=ok$"
finish "fewer than 3 samples are raised to 3"

# The command line takes up to 1000 (gpu.h's GPU_MAX_SAMPLES): all of them
# are taken, none dropped on the way.
run_case FAKE_GPUS=1 FAKE_CUDA_L2=4096 -- --size 65536 --timeout 60 --iterations 70
has_re "^dev0\.h2d=.* samples=70 verify=ok$"; has_re "^dev0\.latency_chase=.* samples=70 "
finish "--iterations above 64: every sample asked for is taken"

run_case -- --size 1000 --timeout 10
has "measure=failed"; has_re "^error=--size 1000 is below"; status 1
finish "--size below 4 KiB is refused with a clear error"

# --- copies that never complete ---------------------------------------------

run_case FAKE_CUDA_HANG=p2p -- --size 1048576 --timeout 2
has "measure=timeout"; status 1
has "stuck=p2p 0000:10:00.0 -> 0000:11:00.0"
has "pair0-1.status=timeout"; has "pair1-0.status=ok"
has_re "^error=no completion within the 2 s deadline: p2p 0000:10:00.0 -> 0000:11:00.0$"
has_re "^dev0\.h2d=.* verify=ok$"; has_re "^pair0-1\.staged=.* verify=ok$"
faster_than 5000
finish "P2P copy never completes: timeout naming the pair, earlier figures kept"

run_case FAKE_CUDA_HANG=h2d -- --size 1048576 --timeout 1
has "measure=timeout"; has "stuck=host to device 0000:10:00.0"; status 1
faster_than 4000
finish "host-to-device copy never completes: timeout naming the GPU"

run_case FAKE_CUDA_HANG_CALL=cuMemcpyPeerAsync -- --size 1048576 --timeout 1
has "measure=timeout"; has "pair0-1.status=timeout"; status 1
has_re "^error=staged 0000:10:00.0 -> 0000:11:00.0 did not complete within 1 s: the watchdog ended it$"
faster_than 10000
finish "driver call that never returns: the watchdog kills the worker"

run_case FAKE_CUDA_HANG_CALL=cuInit -- --timeout 1
has "cuda=timeout"; has "nvml=skipped"; has "measure=skipped"; status 1
has_re "^error=cuInit did not return within 1 s: the watchdog ended it$"
faster_than 5000
finish "cuInit that never returns: probe ends as timeout"

# Peer access switched off after the last figure: a teardown failure, not
# a measurement that stopped early; the figures stand.
run_case FAKE_CUDA_FAIL_CALL=cuCtxDisablePeerAccess -- "${SMALL[@]}"
has "measure=ok"; status 0
has "teardown_error=cuCtxDisablePeerAccess: CUDA_ERROR_ILLEGAL_ADDRESS"
lacks_re "^error="; has_re "^pair0-1\.p2p=[0-9]"; has_re "^pair1-0\.p2p_bidir=[0-9]"
finish "cuCtxDisablePeerAccess failing at the end: measure ok, the teardown error named, the P2P figures kept"

# The other teardown calls whose failure says the GPU's state is wrong
# count too (gpu_context.c says which and why), each named once; those
# that free host-side bookkeeping do not; after a measurement that failed
# the teardown's failures are its consequences and are not said.
ILL=CUDA_ERROR_ILLEGAL_ADDRESS
run_case FAKE_CUDA_FAIL_CALL=cuCtxDisablePeerAccess,cuMemFree,cuStreamDestroy,cuDevicePrimaryCtxRelease \
	-- "${SMALL[@]}"
has "measure=ok"; status 0
has "teardown_error=cuCtxDisablePeerAccess: $ILL; cuMemFree: $ILL; cuStreamDestroy: $ILL; cuDevicePrimaryCtxRelease: $ILL"
lacks_re "^error="; has_re "^pair0-1\.p2p=[0-9]"; has_re "^dev1\.local=[0-9]"
run_case FAKE_CUDA_FAIL_CALL=cuCtxSetCurrent FAKE_CUDA_FAIL_AFTER=cuMemFree -- "${SMALL[@]}"
has "measure=ok"; has "teardown_error=cuCtxSetCurrent: $ILL"
run_case FAKE_CUDA_FAIL_CALL=cuEventDestroy,cuModuleUnload,cuMemFreeHost -- "${SMALL[@]}"
has "measure=ok"; status 0; lacks_re "^teardown_error="
run_case FAKE_CUDA_FAIL_CALL=cuMemcpyPeerAsync,cuMemFree,cuStreamDestroy -- "${SMALL[@]}"
has "measure=failed"; has_re "^error=cuMemcpyPeerAsync: $ILL"; lacks_re "^teardown_error="
finish "teardown: device memory, streams and the context's release failing are named, each once; events, module and pinned host memory are not; nothing after a failed measurement"

run_case FAKE_CUDA_CRASH_CALL=cuLaunchKernel -- "${SMALL[@]}"
has "measure=failed"; status 1
has "error=the GPU worker process died during host to device 0000:10:00.0"
finish "driver crash during a copy: failed, the tool survives"

# --- corrupted data ---------------------------------------------------------

for kind in zeros ones stale partial; do
	run_case FAKE_CUDA_CORRUPT=$kind -- "${SMALL[@]}"
	has "measure=ok"
	has_re "^pair0-1\.p2p=.* verify=$kind$"
	has_re "^pair0-1\.p2p_bidir=.* verify=$kind$"
	has_re "^pair0-1\.staged=.* verify=ok$"
	has_re "^dev0\.h2d=.* verify=ok$"
	finish "P2P writes land as $kind: classified $kind, staged copies ok"
done

run_case FAKE_CUDA_CORRUPT=zeros FAKE_CUDA_CORRUPT_KIND=d2h -- "${SMALL[@]}"
has_re "^dev0\.d2h=.* verify=zeros$"
# The check counters travel back device to host as well: a broken way back
# must read as broken, never as "no errors".
lacks_re "^dev0\..*verify=ok$"
finish "device-to-host corruption: caught, also on the counters' way back"

# --- the facts behind the judge's findings --------------------------------

run_case FAKE_CUDA_BW_P2P=20 FAKE_CUDA_LAT_US=0.2 -- "${SMALL[@]}"
ratio_in pair0-1.p2p pair0-1.staged 0.9 1.1
has "pair0-1.cuda=can_access 1 perf_rank 0 access 1 atomics 1 array 1"
finish "fake P2P: peer access allowed, P2P as slow as staged"

run_case FAKE_CUDA_NO_PEER=0-1,1-0 -- "${SMALL[@]}"
has "pair0-1.cuda=can_access 0 perf_rank 0 access 0 atomics 0 array 0"
lacks_re "^pair0-1\.p2p="; has_re "^pair0-1\.staged=.* verify=ok$"
has "measure=ok"; status 0
finish "CUDA refuses peer access: staged measured, no P2P attempted"

# CUDA 13's attribute 5 (ONLY_PARTIAL_NATIVE_ATOMIC_SUPPORTED) beside 3;
# a driver that does not know it leaves it unknown, not the pair.
run_case FAKE_CUDA_P2P_ATOMICS=partial -- "${SMALL[@]}" --quick
has "pair0-1.cuda=can_access 1 perf_rank 0 access 1 atomics 0 array 1"
has "pair0-1.cuda_partial_atomics=1"
finish "CUDA says only some atomics work over the link: attribute 5 read"

run_case FAKE_CUDA_P2P_ATOMICS=none FAKE_CUDA_P2P_ATTR5=refused -- "${SMALL[@]}" --quick
has "pair0-1.cuda=can_access 1 perf_rank 0 access 1 atomics 0 array 1"
has "pair0-1.cuda_partial_atomics=-1"; has "cuda=ok"
finish "a driver before CUDA 13 refuses attribute 5: unknown, the pair still read"

# cuDeviceGetP2PAtomicCapabilities (CUDA 13.0): every operation's native
# forms and sizes per ordered pair; absent on older drivers (nothing
# said), a failure kept as that pair's unknown with the error's name.
ALL_CAPS="integer-add=0x1f integer-min=0x1f integer-max=0x1f integer-increment=0x1f integer-decrement=0x1f and=0x1f or=0x1f xor=0x1f exchange=0x3b cas=0x3b"
run_case -- "${SMALL[@]}" --quick
has "pair0-1.cuda_atomic_caps=read $ALL_CAPS float-add=0x1c float-min=0x1c float-max=0x1c"
has "pair1-0.cuda_atomic_caps=read $ALL_CAPS float-add=0x1c float-min=0x1c float-max=0x1c"
finish "atomic capabilities: every operation read per ordered pair, with its sizes"

run_case FAKE_CUDA_P2P_ATOMICS=partial FAKE_CUDA_P2P_ATOMICS_MISSING=integer-min,float-add -- "${SMALL[@]}" --quick
has_re "^pair0-1\.cuda_atomic_caps=read integer-add=0x1f integer-min=0x0 .* float-add=0x0 float-min=0x1c float-max=0x1c$"
has "pair0-1.cuda_partial_atomics=1"
finish "atomic capabilities: partial support, the missing operations read as 0"

run_case FAKE_CUDA_DRIVER_VERSION=12080 -- "${SMALL[@]}" --quick
has "pair0-1.cuda_atomic_caps=absent"; has "cuda=ok"; status 0
has "pair0-1.cuda=can_access 1 perf_rank 0 access 1 atomics 1 array 1"
finish "atomic capabilities: a driver before CUDA 13.0 lacks the call: absent, nothing guessed"

run_case FAKE_CUDA_FAIL_CALL=cuDeviceGetP2PAtomicCapabilities -- "${SMALL[@]}" --quick
has "pair0-1.cuda_atomic_caps=failed CUDA_ERROR_ILLEGAL_ADDRESS"
has "pair0-1.cuda=can_access 1 perf_rank 0 access 1 atomics 1 array 1"
has "cuda=ok"; status 0
finish "atomic capabilities: the call failing is that pair's unknown, the rest still read"

run_case FAKE_CUDA_NO_PEER=0-1 -- "${SMALL[@]}"
has_re "^pair0-1.cuda=can_access 0 "; has_re "^pair1-0.cuda=can_access 1 "
lacks_re "^pair0-1\.p2p="; has_re "^pair1-0\.p2p=.* verify=ok$"
finish "one-way peer access: only the allowed direction is measured"

run_case FAKE_GPUS=1 FAKE_NVML_LOAD_GEN=3 FAKE_NVML_LOAD_WIDTH=8 -- "${SMALL[@]}"
has "dev0.link=gen5 x16 load=gen3 x8 max=gen5 x16"
finish "link degraded under load: the loaded reading differs from idle"

# Four GPUs take several times two GPUs' wall time, which a loaded machine
# stretches further; the deadline is not what this case is about, so it
# gets one no run reaches (it ended as a timeout under load).
LONG=(--timeout 300)
run_case FAKE_GPUS=4 FAKE_CUDA_DEV_SCALE=2:0.8 -- "${SMALL[@]}" "${LONG[@]}"
ratio_in dev2.h2d dev0.h2d 0.75 0.85
ratio_in dev2.d2h dev1.d2h 0.75 0.85
ratio_in dev3.h2d dev0.h2d 0.99 1.01
has "nr_pairs=12"
finish "sibling outlier: one GPU of four 20% slower to the host"

run_case FAKE_CUDA_BIDIR=1 -- "${SMALL[@]}"
ratio_in pair0-1.p2p_bidir pair0-1.p2p 0.99 1.01
finish "one-way equal to two-way per direction is measured as such"

run_case FAKE_CUDA_BIDIR=0.5 -- "${SMALL[@]}"
ratio_in dev0.bidir_h2d dev0.h2d 0.45 0.55
ratio_in pair0-1.p2p_bidir pair0-1.p2p 0.45 0.55
finish "concurrent copies share the link: both-ways figures per direction"

# --- NVML -------------------------------------------------------------------

run_case LIBS="$DOUBLES/cuda" -- "${SMALL[@]}"
if ldconfig -p 2>/dev/null | grep -q 'libnvidia-ml\.so\.1 '; then
	why=
	skip "libnvidia-ml.so.1 absent" "a real one is installed here"
else
	has "cuda=ok"; has "nvml=no-library"; has "measure=ok"; status 0
	lacks_re "^dev0\.link="; lacks_re "^pair0-1\.nvml="
	finish "libnvidia-ml.so.1 absent: CUDA figures still measured"
fi

run_case FAKE_NVML_INIT=fail -- "${SMALL[@]}"
has "cuda=ok"; has "nvml=init-failed"; has "measure=ok"
finish "nvmlInit failing: init-failed, CUDA side unaffected"

# NVML calls failing for one GPU (FAKE_NVML_FAIL_GPU): that GPU says which
# readings are unknown, through which call, with NVML's error string; the
# other GPU's readings stand.
run_case FAKE_NVML_FAIL_CALL=nvmlDeviceGetCurrPcieLinkWidth,nvmlDeviceGetPcieReplayCounter \
	FAKE_NVML_FAIL_GPU=1 -- "${SMALL[@]}"
has "nvml=ok"; has "measure=ok"; status 0
has "dev1.nvml_failed=link nvmlDeviceGetCurrPcieLinkWidth: GPU is lost"
has "dev1.nvml_failed=replay_counter nvmlDeviceGetPcieReplayCounter: GPU is lost"
has "dev1.nvml_failed=link_load nvmlDeviceGetCurrPcieLinkWidth: GPU is lost"
lacks_re "^dev0\.nvml_failed="; has_re "^dev0\.link=gen5 x16 "; lacks_re "^dev1\.link="
has_re "^dev1\.h2d=[0-9]"
finish "NVML readings failing for one GPU: it names each reading, the call and NVML's error; the other's stand; CUDA measured"

run_case FAKE_NVML_FAIL_CALL=nvmlDeviceGetMemoryInfo FAKE_NVML_FAIL_GPU=1 -- --quick
has "dev1.nvml_failed=bar1 nvmlDeviceGetMemoryInfo: GPU is lost"
lacks_re "^dev1\.bar1="; has "dev0.bar1=131072 MiB used 2 MiB memory 81559 MiB"
finish "NVML's memory total failing for one GPU: its BAR1 reading is unknown and named, not judged"

# Without NVML's own words for an error (nvmlErrorString answering NULL,
# or absent from the library) the code is given: "NVML error 15" is
# NVML_ERROR_GPU_IS_LOST, 9 NVML_ERROR_DRIVER_NOT_LOADED.
NO_ERROR_STRING="$DOUBLES/cuda:$DOUBLES/nvml-no-error-string"
for how in FAKE_NVML_ERROR_STRING=null LIBS="$NO_ERROR_STRING"; do
	run_case "$how" FAKE_NVML_FAIL_CALL=nvmlDeviceGetCurrPcieLinkWidth \
		FAKE_NVML_FAIL_GPU=1 -- "${SMALL[@]}" --quick
	has "nvml=ok"; status 0
	has "dev1.nvml_failed=link nvmlDeviceGetCurrPcieLinkWidth: NVML error 15"
	lacks_re "^dev0\.nvml_failed="
	run_case "$how" FAKE_NVML_INIT=fail -- "${SMALL[@]}" --quick
	has "nvml=init-failed"; has "error=nvmlInit_v2: NVML error 9"
	finish "NVML error without its string (${how%%=*}): the code is said, NVML error N"
done

run_case FAKE_NVML_FAIL_CALL=nvmlDeviceGetHandleByPciBusId_v2 FAKE_NVML_FAIL_GPU=0 -- "${SMALL[@]}"
has "nvml=ok"; has "measure=ok"
has "dev0.nvml_failed=handle nvmlDeviceGetHandleByPciBusId_v2: GPU is lost"
lacks_re "^dev1\.nvml_failed="; has_re "^dev1\.link=gen5"
finish "no NVML handle for one GPU: said for it with the call and NVML's error, the other read"

# Every other NVML call whose answer the report uses, failing: its reading
# is named with the call, never left silently unknown.  Calls about one
# GPU fail for GPU 1 only; the P2P status and common ancestor (a pair's,
# said for its source GPU), process names and the Xid event set fail for
# both.  NVLinks up and another process present, so that every call is
# made; a failing link state or event set hides the calls behind it, so
# those fail in runs of their own.
NVML_EVERY=(FAKE_NVML_NVLINKS=0-1:4,1-0:4 FAKE_NVML_PROCS=4711:copier:2600 FAKE_NVML_FAIL_GPU=1)
per_gpu="nvmlDeviceGetClock:app_clocks nvmlDeviceGetMaxClockInfo:max_clocks
	nvmlDeviceGetMemoryBusWidth:mem_bus_width
	nvmlDeviceGetNvLinkVersion:nvlink_version
	nvmlDeviceGetNvLinkRemotePciInfo_v2:nvlink_remote
	nvmlDeviceGetCurrentClocksThrottleReasons:throttle_reasons
	nvmlDeviceGetClockInfo:sm_clock nvmlDeviceGetPerformanceState:pstate"
both="nvmlSystemGetProcessName:process_names
	nvmlDeviceGetTopologyCommonAncestor:topology
	nvmlDeviceGetP2PStatus:p2p_status nvmlEventSetWait_v2:xid_events"
list=$(for c in $per_gpu $both; do printf '%s,' "${c%%:*}"; done)
run_case "${NVML_EVERY[@]}" FAKE_NVML_FAIL_CALL="${list%,}" -- "${SMALL[@]}" \
	--if-busy=measure
has "nvml=ok"; has "measure=ok"; status 0
for c in $per_gpu $both; do
	has "dev1.nvml_failed=${c#*:} ${c%%:*}: GPU is lost"
done
for c in $per_gpu; do lacks_re "^dev0\.nvml_failed=${c#*:} "; done
for c in $both; do has "dev0.nvml_failed=${c#*:} ${c%%:*}: GPU is lost"; done
has_re "^dev1\.h2d=[0-9]"; lacks_re "^dev1\.throttle="; lacks_re "^pair1-0\.nvml="
has "dev1.proc0=pid 4711 name  bytes 2726297600"
run_case "${NVML_EVERY[@]}" FAKE_NVML_FAIL_CALL=nvmlDeviceGetNvLinkState,nvmlEventSetCreate \
	-- "${SMALL[@]}" --quick
has "dev1.nvml_failed=nvlink_state nvmlDeviceGetNvLinkState: GPU is lost"
has "dev1.nvml_failed=xid_events nvmlEventSetCreate: GPU is lost"
has "dev0.nvml_failed=xid_events nvmlEventSetCreate: GPU is lost"
has "dev1.nvlinks=0"; has "dev0.nvlinks=4"; lacks_re "^dev0\.nvml_failed=nvlink"
run_case "${NVML_EVERY[@]}" FAKE_NVML_FAIL_CALL=nvmlDeviceRegisterEvents -- "${SMALL[@]}" --quick
has "dev1.nvml_failed=xid_events nvmlDeviceRegisterEvents: GPU is lost"
lacks_re "^dev0\.nvml_failed="
finish "every NVML reading failing (clocks, throttle reasons, P-state, NVLink, P2P status, Xid events, process names): each named with its call and error"

run_case FAKE_NVML_FAIL_CALL=nvmlSystemGetDriverVersion -- "${SMALL[@]}" --quick
has "nvml=ok"; has "nvml_driver="
has "nvml_driver_error=nvmlSystemGetDriverVersion failed: GPU is lost"
run_case -- "${SMALL[@]}" --quick
lacks_re "^nvml_driver_error="
finish "NVML driver version failing: nvml_driver empty, the call and error said"

run_case FAKE_NVML_NVLINKS=0-1:4,1-0:4 -- "${SMALL[@]}" --quick
has "dev0.nvlinks=4"; has "dev1.nvlinks=4"
has "pair0-1.nvml=topo 30 read 1 write 1 nvlink 1 atomics 1 nvlinks 4"
finish "NVLink: active links counted and matched to the far GPU"

run_case FAKE_NVML_P2P=3 FAKE_NVML_TOPO=50 -- "${SMALL[@]}" --quick
has "pair1-0.nvml=topo 50 read 4 write 4 nvlink 6 atomics 4 nvlinks 0"
finish "NVML P2P status and common ancestor passed through"

run_case FAKE_NVML_REPLAY_DELTA=3 FAKE_GPUS=1 -- "${SMALL[@]}"
has_re "^dev0\.counters=replay 0->3 "
finish "PCIe replay counter read before and after the run"

# --- measurement validity: other work, clocks, placement, settings ---------

BUSY=(FAKE_GPUS=1 FAKE_NVML_PROCS=4711:copier:2600)
run_case "${BUSY[@]}" -- "${SMALL[@]}"
has "measure=busy"; status 1; lacks_re "^dev0\.h2d="
has "dev0.procs=1"; has "dev0.proc0=pid 4711 name copier bytes 2726297600"
has_re "^error=GPU 0000:10:00.0 is busy \(1 other process"
finish "another process on the GPU: not measured by default, the process named"

run_case "${BUSY[@]}" -- "${SMALL[@]}" --if-busy=measure
has "measure=ok"; status 0; has_re "^dev0\.h2d=.* verify=ok$"
has "dev0.proc0=pid 4711 name copier bytes 2726297600"
finish "--if-busy=measure: measured, the process still recorded"

run_case FAKE_GPUS=1 FAKE_NVML_UTIL=97 -- "${SMALL[@]}"
has "measure=busy"; has "dev0.procs=0"; has "dev0.util=gpu 97 mem 48"
finish "busy with no process visible (another container): utilisation counts"

run_case "${BUSY[@]}" FAKE_NVML_PROCS_READS=3 -- "${SMALL[@]}" --wait-idle 10
has "measure=ok"; has_re "^dev0\.h2d=.* verify=ok$"; has "dev0.procs=0"
awk -v w="$(value dev0.waited_s)" 'BEGIN { exit !(w > 0.3 && w < 2) }' ||
	why=${why:-"waited $(value dev0.waited_s) s, not the 2 polls until idle"}
finish "--wait-idle: measured once the other process is gone"

run_case "${BUSY[@]}" -- "${SMALL[@]}" --wait-idle 1
has "measure=busy"; status 1; faster_than 3000
awk -v w="$(value dev0.waited_s)" 'BEGIN { exit !(w >= 1) }' ||
	why=${why:-"waited $(value dev0.waited_s) s, not the 1 s asked"}
finish "--wait-idle is bounded: still busy after it, not measured"

run_case FAKE_GPUS=1 FAKE_NVML_THROTTLE=0x41 FAKE_NVML_SM_CLOCK=1200 \
	FAKE_NVML_PSTATE=2 -- "${SMALL[@]}"
has_re "^dev0\.throttle=0x41 samples [1-9][0-9]* sm 1200 pstate 2$"
finish "clock event reasons, SM clock and P-state sampled during the copies"

run_case FAKE_GPUS=1 -- "${SMALL[@]}"
has_re "^dev0\.placement=cpu [0-9]+ node [0-9]+ buffers [0-9]+$"
finish "worker CPU and node, pinned buffers' node recorded"

run_case FAKE_GPUS=1 FAKE_NVML_ECC=1:0 FAKE_NVML_PERSISTENCE=0 \
	FAKE_NVML_COMPUTE_MODE=3 FAKE_NVML_MIG=0:1 FAKE_NVML_APP_SM=1410:1980 \
	-- "${SMALL[@]}" --quick
has "dev0.settings=ecc 1/0 persistence 0 compute 3 mig 0/1 app_sm 1410/1980 app_mem 3201/3201 max_mem 3201 bus 0"
finish "settings read: ECC and pending, persistence, compute mode, MIG, clocks"

run_case FAKE_NVML_NVLINKS=0-1:4,1-0:4 FAKE_NVML_NVLINK_VERSION=5 -- \
	"${SMALL[@]}" --quick
has "dev0.nvlink0.version=5"; has "dev1.nvlink3.version=5"
lacks_re "^dev0\.nvlink4\."
finish "NVLink version read per active link"

run_case FAKE_GPUS=2 FAKE_CUDA_LAT_US=2 -- "${SMALL[@]}" --curve
curve_line=$(grep '^dev0.curve_h2d=' <<<"$out")
[ -n "$curve_line" ] || why=${why:-"no host-to-device curve"}
grep -q '^dev0.curve_h2d=verified 4:2.000 8:2.000 ' <<<"$out" ||
	why=${why:-"curve does not start at 4 B with the double's 2 us: $curve_line"}
grep -qE ' 1048576:21\.0[0-9]+$' <<<"$curve_line" ||
	why=${why:-"curve does not end at --size (2 us + 1 MiB / 55 GB/s): $curve_line"}
has_re "^dev0\.curve_d2h=verified 4:"; has_re "^dev0\.curve_local=verified 4:"
has_re "^pair0-1\.curve_p2p=verified 4:"
finish "--curve: 4 B to --size for h2d, d2h, device-local and P2P"

run_case FAKE_GPUS=1 -- "${SMALL[@]}"
lacks_re "curve_"
finish "no curve unless asked"

# --- options ----------------------------------------------------------------

run_case -- --quick
has "cuda=ok"; has "measure=skipped"; status 0
has_re "^pair0-1\.cuda="; lacks_re "^dev0\.h2d="
finish "--quick: attributes only, nothing copied"

run_case -- --no-cuda
has "cuda=skipped"; has "nvml=skipped"; has "measure=skipped"; has "nr_dev=0"
status 0
finish "--no-cuda: the libraries are not even opened"

run_case FAKE_GPUS=3 -- "${SMALL[@]}" --pairs 0000:10:00.0,0000:11:00.0
has_re "^dev0\.h2d="; lacks_re "^dev2\.h2d="
has_re "^pair0-1\.p2p="; lacks_re "^pair0-2\.p2p="; lacks_re "^pair2-1\.staged="
has_re "^pair0-2\.cuda=can_access 1 "
finish "--pairs limits measuring to the named GPUs, attributes for all"

run_case FAKE_GPU_BUSIDS=0001:81:00.0,0001:c1:00.0 -- "${SMALL[@]}" --quick
has "dev0.addr=0001:81:00.0"; has "dev1.addr=0001:c1:00.0"
has_re "^dev1\.link=gen5"
finish "PCI domains and buses pass through CUDA and NVML lookups"

run_case FAKE_GPU_BUSIDS=10000:17:00.0,fffff:c1:00.0 -- "${SMALL[@]}" --quick
has "dev0.addr=10000:17:00.0"; has "dev1.addr=fffff:c1:00.0"
finish "a CUDA bus id with a domain above ffff keeps it whole"

# --- p2pdiag-check end to end: findings and exit status ------------------

FIXTURES=$(cd "$(dirname "$0")/../fixtures" && pwd)
P2PDIAG=${P2PDIAG:-}
MKSYSFS=${MKSYSFS:-}
e2e_skip() {
	skip "p2pdiag-check end to end" "$1"
	summary
	exit
}
if [ -z "$P2PDIAG" ] || [ ! -x "$P2PDIAG" ] || [ ! -x "$MKSYSFS" ]; then
	e2e_skip "no p2pdiag-check or mksysfs built"
fi
if LD_LIBRARY_PATH="$EMPTY" "$P2PDIAG" --quick --no-color 2>&1 |
	grep -q '^CUDA: not-built'; then
	e2e_skip "$P2PDIAG was built without CUDA support"
fi

# A machine per fixture, as the module would publish it.
for f in 01-dual-socket-cascaded-switches 02-eight-gpu-four-switches \
	 09-switch-dsp-redirect; do
	mkdir -p "$EMPTY/$f"
	"$MKSYSFS" "$FIXTURES/$f.topo" "$EMPTY/$f" ||
		{ echo "# mksysfs $f failed"; exit 1; }
done
# check FIXTURE GPU_ADDRS ENV... -- ARGS: p2pdiag-check on that machine,
# --verbose: each finding on its own line (the default groups them by cause)
check() {
	local fixture=$1 envs=(FAKE_GPU_BUSIDS="$2")
	shift 2
	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		envs+=("$1")
		shift
	done
	shift
	PROG=$P2PDIAG run_case "${envs[@]}" -- --source=module \
		--sysfs-root "$EMPTY/$fixture" --no-color --verbose --size 1M --timeout 10 "$@"
}
finding() { has_re "^  $1 +$2\$"; }
no_findings() { lacks_re "^  (error|warning) "; }
# Two GPUs under one switch, verdict ok; two more behind the host bridge.
SW="0000:03:00.0,0000:04:00.0"
FOUR="0000:03:00.0,0000:04:00.0,0000:09:00.0,0000:0a:00.0"
P2PDIAG_OPTS=(FAKE_CUDA_LAT_US=0.2)

check 02-eight-gpu-four-switches $SW --
status 0; no_findings; has_re "^CUDA: ok .*2 GPU"
finish "p2pdiag-check, healthy switch pair: no findings, exit 0"

check 02-eight-gpu-four-switches $SW FAKE_CUDA_HANG=p2p -- --timeout 2
status 2; finding error copy-timeout
has_re "0000:03:00.0.*0000:04:00.0"
faster_than 6000
finish "p2pdiag-check, copy never completes: copy-timeout naming the pair, exit 2"

check 02-eight-gpu-four-switches $SW FAKE_CUDA_HANG_CALL=cuMemcpyPeerAsync -- \
	--timeout 1
status 2; finding error copy-timeout
faster_than 10000
finish "p2pdiag-check, driver call never returns: watchdog, copy-timeout, exit 2"

# A driver that never answers the probe: no GPU was seen, so nothing about
# them is known, and the run must say so in every output, never healthy.
check 02-eight-gpu-four-switches $SW FAKE_CUDA_HANG_CALL=cuInit -- --quick --timeout 2 \
	--prometheus "$EMPTY/hung.prom" --nfd-features "$EMPTY/hung.nfd"
status 2; finding error gpu-driver-hung
has_re "cuInit did not return within 2 s"
grep -qx 'p2pdiag_exit_status 2' "$EMPTY/hung.prom" 2>/dev/null ||
	why=${why:-"textfile: $(grep exit_status "$EMPTY/hung.prom" 2>&1)"}
grep -qx 'p2pdiag.feature.node.kubernetes.io/p2p=broken' "$EMPTY/hung.nfd" 2>/dev/null ||
	why=${why:-"labels: $(grep /p2p= "$EMPTY/hung.nfd" 2>&1)"}
faster_than 2000
finish "p2pdiag-check, cuInit never returns: gpu-driver-hung, exit 2, textfile and labels broken"

check 02-eight-gpu-four-switches $SW FAKE_CUDA_HANG_CALL=cuInit -- --quick --timeout 2 --summary
status 2; has_re "^broken: gpu-driver-hung: "
finish "p2pdiag-check --summary, cuInit never returns: broken, naming gpu-driver-hung"

# The kernel log says what wedged it: the driver's last Xid is quoted, read
# from /dev/kmsg under the root (records as the live device gives them).
mkdir -p "$EMPTY/xid/dev" && cp -r "$EMPTY/hermetic/proc" "$EMPTY/xid/" &&
	printf '%s\n' '6,1001,5000000,-;nvidia-nvlink: Nvlink Core is being initialized' \
		'4,1002,9000000,-;NVRM: Xid (PCI:0000:03:00): 13, pid=811, Graphics Exception' \
		'4,1003,9100000,-;NVRM: Xid (PCI:0000:04:00): 79, pid=812, GPU has fallen off the bus.' \
		' SUBSYSTEM=pci' '6,1004,9200000,-;NVRM: GPU at PCI:0000:04:00: GPU-5d6c0e5c' \
		>"$EMPTY/xid/dev/kmsg"
check 02-eight-gpu-four-switches $SW P2PDIAG_FSROOT="$EMPTY/xid" FAKE_CUDA_HANG_CALL=cuInit -- \
	--quick --timeout 1
status 2; finding error gpu-driver-hung
has_re "the kernel log's last Xid: Xid \(PCI:0000:04:00\): 79, pid=812, GPU has fallen off the bus\.$"
finish "p2pdiag-check, cuInit never returns: the kernel log's last Xid quoted"

# The run's deadline, not --timeout, ends it: "check timed out".
check 02-eight-gpu-four-switches $SW FAKE_CUDA_HANG_CALL=cuDeviceGetP2PAttribute -- \
	--quick --timeout 60 --deadline 2
status 2; finding error check-timed-out
has_re "cuDeviceCanAccessPeer, cuDeviceGetP2PAttribute did not return before the run's deadline .*: check timed out"
has_re "check timed out \(GPU 0000:03:00\.0 -> 0000:04:00\.0\); "
faster_than 2000
check 02-eight-gpu-four-switches $SW FAKE_CUDA_HANG_CALL=cuInit -- --quick --deadline 2 --summary
status 2; has_re "^broken: check-timed-out( \(.*\))?: cuInit did not return before the run's deadline: "
finish "p2pdiag-check --deadline 2, a pair's query never returns: check timed out, naming the pair"

for kind in zeros ones stale partial; do
	check 02-eight-gpu-four-switches $SW FAKE_CUDA_CORRUPT=$kind --
	status 2; finding error data-corrupt
	finish "p2pdiag-check, P2P data lands as $kind: data-corrupt, exit 2"
done

check 02-eight-gpu-four-switches $SW FAKE_CUDA_BW_P2P=20 "${P2PDIAG_OPTS[@]}" --
status 2; finding error fake-p2p
finish "p2pdiag-check, P2P as slow as staged: fake-p2p, exit 2"

# A measured matrix replayed: the doubles copy at the per-pair rates of a
# public p2pBandwidthLatencyTest (P2P enabled half the disabled speed,
# tests/unit/tool/fixtures/evidence/p2pbw-enabled-slower.txt, read by the
# --evidence reader through test_tool --evidence-env); the live run on
# those rates and --evidence on the pasted output must agree.
paste=$(cd "$(dirname "$0")/../tool/fixtures/evidence" && pwd)/p2pbw-enabled-slower.txt
if [ -n "${TEST_TOOL:-}" ] && [ -x "$TEST_TOOL" ] &&
	mapfile -t replay < <("$TEST_TOOL" --evidence-env "$paste" | grep -v '=$') &&
	[ "${#replay[@]}" -ge 2 ]; then
	check 02-eight-gpu-four-switches $SW "${replay[@]}" "${P2PDIAG_OPTS[@]}" -- --json
	status 2
	cat >"$EMPTY/replay.py" <<'PY'
import json, sys
text = sys.stdin.read()  # the report, after the progress lines on stderr
d = json.JSONDecoder().raw_decode(text[text.index("\n{") + 1:])[0]
pair = [p for p in d["pairs"] if p["bw"]]
bw = pair[0]["bw"]
# the doubles gave 0 -> 1 9.90 GB/s with P2P and 20.10 staged
assert abs(bw["p2p_gbs"] - 9.90) < 1.0 and abs(bw["staged_gbs"] - 20.10) < 2.0, bw
assert "fake-p2p" in [c["code"] for c in d["causes"]], [c["code"] for c in d["causes"]]
PY
	"$PYTHON" "$EMPTY/replay.py" <<<"$out" >"$EMPTY/replay.txt" 2>&1 ||
		why=${why:-"$(tail -3 "$EMPTY/replay.txt")"}
	ev=$("$P2PDIAG" --evidence --json "$paste" 2>/dev/null |
		"$PYTHON" -c 'import json,sys; d=json.load(sys.stdin); print(d["causes"][0]["code"], d["summary"]["exit_status"])')
	[ "$ev" = "p2p-slower-than-host 1" ] || why=${why:-"--evidence on the paste: $ev"}
	finish "p2pdiag-check, a pasted matrix replayed: live fake-p2p at 9.9 of 20.1 GB/s, --evidence p2p-slower-than-host"
else
	skip "p2pdiag-check, a pasted matrix replayed" "no test_tool (tests/unit/tool builds it)"
fi

check 02-eight-gpu-four-switches $SW FAKE_CUDA_NO_PEER=0-1,1-0 --
status 1; finding warning contradiction-ok-but-cuda-refuses
finish "p2pdiag-check, topology ok but CUDA refuses: contradiction, exit 1"

check 09-switch-dsp-redirect 0000:02:00.0,0000:1b:00.0 --
status 2; finding error contradiction-redirected-but-cuda-ok
finish "p2pdiag-check, ACS redirect but CUDA allows P2P: contradiction, exit 2"

check 01-dual-socket-cascaded-switches 0000:04:00.0,0000:83:00.0 -- --quick
status 2; finding error contradiction-blocked-but-cuda-ok
finish "p2pdiag-check, blocked path but CUDA allows P2P: contradiction, exit 2"

check 02-eight-gpu-four-switches $SW FAKE_CUDA_NO_PEER=0-1 --
status 1; finding warning peer-access-one-way
has_re "CUDA refuses GPU 0000:03:00.0 access to GPU 0000:04:00.0's memory, yet grants the other direction"
lacks_re "contradiction-ok-but-cuda-refuses"
finish "p2pdiag-check, peer access one way only: peer-access-one-way naming the direction, exit 1"

# Peer atomics, the path's registers joined to CUDA's capabilities call:
# the atomics tree of the tool's fixtures (root port 00:03.0 blocks
# AtomicOp egress for GPU 02:00.0's pairs; the switch pair 1b:00.0 and
# 1c:00.0 routes and completes them), its GPUs played by the doubles.
ATOMICS_ROOT=$(cd "$(dirname "$0")/../tool/fixtures/system/atomics" && pwd)
mkdir -p "$EMPTY/atomics" && "$MKSYSFS" "$ATOMICS_ROOT/p2pdiag.topo" "$EMPTY/atomics" ||
	{ echo "# mksysfs atomics failed"; exit 1; }
ATOMICS_GPUS=(FAKE_GPUS=3 P2PDIAG_FSROOT="$ATOMICS_ROOT")
check atomics 0000:02:00.0,0000:1b:00.0,0000:1c:00.0 "${ATOMICS_GPUS[@]}" \
	FAKE_CUDA_P2P_ATOMICS=partial FAKE_CUDA_P2P_ATOMICS_MISSING=integer-min,float-add -- --quick
has_re "^    0000:1b:00\.0 and 0000:1c:00\.0: peer atomics work: .*; cuDeviceGetP2PAtomicCapabilities: 11 of 13 atomic operations native between 0000:1b:00\.0 and 0000:1c:00\.0, missing: integer-min, float-add: the path carries PCIe AtomicOps, but CUDA does not run these natively over the link"
has_re "^    0000:02:00\.0 and 0000:1b:00\.0: peer atomics blocked by port 0000:00:03\.0 .*missing: integer-min, float-add: CUDA calls 11 native although the path does not carry PCIe AtomicOps"
has "    atomic ops native: integer-add 32/64, integer-max 32/64, integer-increment 32/64, integer-decrement 32/64, and 32/64, or 32/64, xor 32/64, exchange 32/64/128, cas 32/64/128, float-min 32/64, float-max 32/64; not: integer-min, float-add"
finish "p2pdiag-check, atomics routed but CUDA partial: the missing operations named, both disagreements said"

# The same facts in --json, each pair's cuda.atomic_ops, declared by
# schema.json (validate-report also refuses a key it does not declare).
for mode in partial failed; do
	env=(FAKE_CUDA_P2P_ATOMICS=partial FAKE_CUDA_P2P_ATOMICS_MISSING=integer-min,float-add)
	[ $mode = failed ] && env=(FAKE_CUDA_FAIL_CALL=cuDeviceGetP2PAtomicCapabilities)
	check atomics 0000:02:00.0,0000:1b:00.0,0000:1c:00.0 "${ATOMICS_GPUS[@]}" "${env[@]}" -- \
		--quick --json="$EMPTY/atomics-$mode.json"
	"$PYTHON" - "$EMPTY/atomics-$mode.json" $mode <<'PY' >"$EMPTY/atomics-$mode.txt" 2>&1 ||
import json, sys
d = json.load(open(sys.argv[1]))
ops = [p["cuda"]["atomic_ops"] for p in d["pairs"] if p["cuda"]]
assert len(ops) == 3, ops
for o in ops:
    if sys.argv[2] == "failed":
        assert o == {"error": "CUDA_ERROR_ILLEGAL_ADDRESS", "ops": None}, o
    else:
        assert o["error"] is None and o["ops"]["integer-min"] == [] and o["ops"]["float-add"] == [], o
        assert o["ops"]["cas"] == ["signed", "unsigned", "32", "64", "128"], o["ops"]["cas"]
PY
		why=${why:-"$(tail -2 "$EMPTY/atomics-$mode.txt")"}
	if "$PYTHON" -c "import jsonschema" 2>/dev/null; then
		"$(dirname "$0")/../../packaging/validate-report" \
			"$(dirname "$0")/../../../userspace/schema.json" "$EMPTY/atomics-$mode.json" \
			>"$EMPTY/atomics-$mode.txt" 2>&1 || why=${why:-"$(head -3 "$EMPTY/atomics-$mode.txt")"}
	fi
	finish "p2pdiag-check --json, capabilities $mode: each pair's cuda.atomic_ops, valid against schema.json"
done

check atomics 0000:02:00.0,0000:1b:00.0,0000:1c:00.0 "${ATOMICS_GPUS[@]}" -- --quick
has_re "^    0000:1b:00\.0 and 0000:1c:00\.0: peer atomics work: .*13 of 13 atomic operations native between 0000:1b:00\.0 and 0000:1c:00\.0$"
has_re "^  info +p2p-atomics$"
finish "p2pdiag-check, atomics routed and all native to CUDA: said, no disagreement"

check atomics 0000:02:00.0,0000:1b:00.0,0000:1c:00.0 "${ATOMICS_GPUS[@]}" FAKE_CUDA_DRIVER_VERSION=12080 -- --quick
has_re "^    0000:1b:00\.0 and 0000:1c:00\.0: peer atomics work: .*\(P2P attribute NATIVE_ATOMIC_SUPPORTED\)$"
lacks_re "cuDeviceGetP2PAtomicCapabilities"
finish "p2pdiag-check, a driver without the capabilities call: nothing said of it"

check atomics 0000:02:00.0,0000:1b:00.0,0000:1c:00.0 "${ATOMICS_GPUS[@]}" \
	FAKE_CUDA_FAIL_CALL=cuDeviceGetP2PAtomicCapabilities -- --quick
lacks_re "^  info +p2p-atomics$"
has_re "^    0000:1b:00\.0 and 0000:1c:00\.0: peer atomics work: .*; which atomic operations CUDA runs natively between 0000:1b:00\.0 and 0000:1c:00\.0 is unknown: cuDeviceGetP2PAtomicCapabilities failed \(CUDA_ERROR_ILLEGAL_ADDRESS\)$"
finish "p2pdiag-check, the capabilities call failing: the routed pair a warning, its operations unknown"

# CUDA 13.5's drivers check IOMMU and ACS before granting peer access
# (FAKE_CUDA_ACS_REFUSES: the pairs that check rejects); older ones grant
# it, and the documented variable switches the check off.
GATE=(FAKE_CUDA_DRIVER_VERSION=13050 FAKE_CUDA_ACS_REFUSES=0-1,1-0)
check 09-switch-dsp-redirect 0000:02:00.0,0000:1b:00.0 FAKE_CUDA_DRIVER_VERSION=13000 \
	FAKE_CUDA_ACS_REFUSES=0-1,1-0 --
status 2; finding error contradiction-redirected-but-cuda-ok
lacks_re "cuda-refuses-as-topology"
finish "p2pdiag-check, ACS redirect, a driver before 13.5 grants P2P: contradiction"

check 09-switch-dsp-redirect 0000:02:00.0,0000:1b:00.0 "${GATE[@]}" --
finding info cuda-refuses-as-topology
has_re "agreeing with the topology: its driver \(API 13050\) checks IOMMU and ACS itself, and the path is redirected because ACS redirects"
lacks_re "contradiction-"
finish "p2pdiag-check, ACS redirect, a 13.5 driver refuses P2P: agreement naming the redirect"

check 09-switch-dsp-redirect 0000:02:00.0,0000:1b:00.0 "${GATE[@]}" \
	CUDA_DISABLE_IOMMU_ACS_P2P_CAPABILITY_CHECK=1 --
status 2; finding error cuda-peer-forced; finding warning env-cuda-acs-check-disabled
has_re "a forced yes, no evidence that P2P works; the topology says redirected"
lacks_re "contradiction-"
finish "p2pdiag-check, ACS redirect, 13.5 driver's check switched off: yes reported as forced"

check 02-eight-gpu-four-switches $SW "${GATE[@]}" --
status 1; finding warning contradiction-ok-but-cuda-refuses
has_re "its driver \(API 13050\) checks IOMMU and ACS itself and rejects a path the kernel's rules find direct"
has_re "run once with CUDA_DISABLE_IOMMU_ACS_P2P_CAPABILITY_CHECK=1"
lacks_re "GeForce"
finish "p2pdiag-check, direct path, a 13.5 driver refuses P2P: CUDA's check named against the kernel's"

# BAR1 left at 256 MiB on a 24 GiB card (Resizable BAR off): peers map
# no more than that; the resize that spans the memory is 1 MiB << 15.
check 02-eight-gpu-four-switches $SW FAKE_NVML_BAR1=256:5 FAKE_NVML_MEMORY=24564 --
status 1; finding warning bar1-below-memory
has_re "GPU 0000:03:00\.0: NVML's BAR1 is 256 MiB \(5 MiB in use\) for 24564 MiB of memory"
has_re "Re-Size BAR Support.*echo 15 > that file"
finish "p2pdiag-check, NVML's BAR1 256 MiB of 24564 MiB: bar1-below-memory with the resize, exit 1"

check 02-eight-gpu-four-switches $SW FAKE_NVML_BAR1=256:5 FAKE_NVML_MEMORY=24564 -- \
	--json="$EMPTY/bar1.json"
status 1
"$PYTHON" - "$EMPTY/bar1.json" "$FIXTURES/../../../userspace/schema.json" <<'PY' ||
import json, sys
d = json.load(open(sys.argv[1]))
assert d["gpus"][0]["bar1"] == {"total_mib": 256, "used_mib": 5, "memory_mib": 24564}, d["gpus"][0].get("bar1")
try:
    import jsonschema
except ImportError:
    sys.exit(0)
jsonschema.validate(d, json.load(open(sys.argv[2])))
PY
	why=${why:-"the JSON's gpus[0].bar1 is not 256/5/24564 or the report fails schema.json"}
finish "p2pdiag-check --json: NVML's BAR1 figures in the GPU's bar1, valid against schema.json"

check 02-eight-gpu-four-switches $SW FAKE_NVML_BAR1=32768:5 FAKE_NVML_MEMORY=24564 --
status 0; lacks_re "bar1-below-memory"
finish "p2pdiag-check, a 32 GiB BAR1 spanning 24564 MiB: no bar1-below-memory"

check 02-eight-gpu-four-switches $SW FAKE_NVML_LOAD_WIDTH=8 --
status 1; finding warning link-degraded
finish "p2pdiag-check, link narrower under load: link-degraded, exit 1"

# NCCL 2.30.7 and later size a GPU's link by NVML's current one: idling
# at Gen1 while the Gen4 x16 slot could do 24 GB/s, NCCL plans with 3.
NCCL_LIBS=LIBS=$DOUBLES/cuda:$DOUBLES/nvml:$DOUBLES/nccl
check 02-eight-gpu-four-switches $SW "$NCCL_LIBS" FAKE_NVML_GEN=1 FAKE_NVML_LOAD_GEN=5 --
status 0; finding info nccl-link-current
has_re "NCCL 2\.30\.7 \(libnccl\.so\.2\) takes GPU 0000:03:00\.0's PCIe link from NVML's current 2\.5 GT/s x16: 3\.0 GB/s in its topology, where the link can do 16\.0 GT/s x16 \(24\.0 GB/s"
finish "p2pdiag-check, NCCL 2.30.7 and a GPU idling at Gen1: nccl-link-current, exit 0"

check 02-eight-gpu-four-switches $SW "$NCCL_LIBS" FAKE_NCCL_VERSION=22907 FAKE_NVML_GEN=1 \
	FAKE_NVML_LOAD_GEN=5 --
status 0; lacks_re "nccl-link-current"
finish "p2pdiag-check, NCCL 2.29.7 reads the capability: no nccl-link-current"

check 02-eight-gpu-four-switches $FOUR FAKE_GPUS=4 FAKE_CUDA_DEV_SCALE=2:0.8 -- \
	"${LONG[@]}"
status 1; finding warning sibling-outlier
has_re "GPU 0000:09:00.0 .* below the median"
lacks_re "GPU 0000:0(3|4|a):00.0 .* below the median"
finish "p2pdiag-check, one GPU 20% slow: sibling-outlier naming it, exit 1"

check 02-eight-gpu-four-switches $SW FAKE_CUDA_BIDIR=0.5 --
status 1; finding warning hairpin
finish "p2pdiag-check, two-way no faster than one-way: hairpin, exit 1"

check 02-eight-gpu-four-switches $SW FAKE_NVML_REPLAY_DELTA=200 --
status 1; finding warning pcie-replay
finish "p2pdiag-check, replay counter rising: pcie-replay, exit 1"

check 02-eight-gpu-four-switches $SW LIBS="$EMPTY" --
if ldconfig -p 2>/dev/null | grep -q 'libcuda\.so\.1 '; then
	why=
	skip "p2pdiag-check, no driver" "a real libcuda.so.1 is installed here"
else
	status 0; has_re "^CUDA: no-library"; no_findings
	finish "p2pdiag-check, no driver installed: said so, exit 0"
fi

check 02-eight-gpu-four-switches $SW FAKE_CUDA_INIT=fail --
has_re "^CUDA: init-failed"; has_re "cuInit: CUDA_ERROR_UNKNOWN"; status 1
finish "p2pdiag-check, cuInit failing: said with the error name, exit 1"

# measurement validity end to end: what explains a low figure is named,
# and no finding sends anyone to the link or the slot for it
SLOW=(FAKE_CUDA_BW_H2D=20 FAKE_CUDA_BW_D2H=20)
BLAME_LINK='reseat|check the link under load|retimer'

check 02-eight-gpu-four-switches $SW "${SLOW[@]}" --
status 1; finding warning bw-low; has_re "check the link under load"
finish "p2pdiag-check, slow host copies on an idle GPU: bw-low blames the path"

check 02-eight-gpu-four-switches $SW FAKE_NVML_PROCS=4711:copier:2600 "${SLOW[@]}" --
status 1; finding warning gpu-busy
has_re "GPU 0000:03:00.0 is in use: pid 4711 \(copier, 2.5 GiB\); not measured"
lacks_re "^  (warning|info) +bw-low"; lacks_re "$BLAME_LINK"
finish "p2pdiag-check, GPU busy (default): not measured, the process named"

check 02-eight-gpu-four-switches $SW FAKE_NVML_PROCS=4711:copier:2600 "${SLOW[@]}" \
	-- --if-busy=skip
status 0; finding info gpu-busy
has_re "GPU 0000:03:00.0 is in use: pid 4711 \(copier, 2.5 GiB\); nothing measured \(--if-busy=skip\)"
lacks_re "^  (warning|info) +bw-low"
finish "p2pdiag-check --if-busy=skip (health checks), GPU busy: nothing measured, said as a note, exit 0"

check 02-eight-gpu-four-switches $SW FAKE_NVML_PROCS=4711:copier:2600 "${SLOW[@]}" \
	-- --if-busy=measure
status 1; finding warning gpu-busy; finding info bw-low-explained
has_re "host to device: [0-9.]+ GB/s .*explained by other work on the GPU: pid 4711 \(copier"
lacks_re "^  warning +bw-low"; lacks_re "$BLAME_LINK"
finish "p2pdiag-check, --if-busy=measure: low figures explained by the process, not the link"

check 02-eight-gpu-four-switches $SW FAKE_NVML_THROTTLE=0x40 "${SLOW[@]}" --
status 1; finding warning gpu-throttled; finding info bw-low-explained
has_re "HW thermal slowdown"; lacks_re "^  warning +bw-low"; lacks_re "$BLAME_LINK"
finish "p2pdiag-check, clocks held by heat during the copies: gpu-throttled, not the link"

check 02-eight-gpu-four-switches $SW FAKE_CUDA_LAT_US=8 --
status 1; finding warning latency-high
has_re "small-copy latency: 8.0 us is above the 5.0 us expected"
finish "p2pdiag-check, small copies slow on an idle GPU: latency-high"

check 02-eight-gpu-four-switches $SW FAKE_CUDA_BIDIR=0.3 "${P2PDIAG_OPTS[@]}" --
finding warning bw-low
has_re "host to device \(both directions\): .* of the 25.2 GB/s expected"
finish "p2pdiag-check, both-ways host copies judged against each direction's share"

check 02-eight-gpu-four-switches $SW FAKE_CUDA_BW_D2D=900 FAKE_NVML_BUS_WIDTH=6144 \
	"${P2PDIAG_OPTS[@]}" --
finding warning bw-low
has_re "device-local copy: .* expected \(HBM: 2 x 3201 MHz x 6144 bit"
finish "p2pdiag-check, device-local copy judged against NVML's HBM rate"

check 02-eight-gpu-four-switches $SW FAKE_NVML_NVLINKS=0-1:4,1-0:4 \
	FAKE_NVML_NVLINK_VERSION=5 "${P2PDIAG_OPTS[@]}" --
finding warning bw-low
has_re "P2P copy 0000:03:00.0 -> 0000:04:00.0: .* of the 170.0 GB/s expected \(4 NVLinks x 50 GB/s \(NVLink 5"
finish "p2pdiag-check, NVLink expectation from NVML's link version (4 x 50 GB/s)"

check 02-eight-gpu-four-switches $SW FAKE_NVML_ECC=1:0 FAKE_NVML_MIG=1:1 \
	FAKE_NVML_APP_SM=1410:1980 FAKE_NVML_PERSISTENCE=0 -- --quick
status 1
finding warning setting-ecc; finding warning setting-mig
finding warning setting-clocks; finding info setting-persistence
has_re "fix: nvidia-smi -i 0000:03:00.0 -e 1 \(or -e 0\), then a GPU reset"
has_re "fix: nvidia-smi -i 0000:03:00.0 -mig 0"
has_re "fix: nvidia-smi -i 0000:03:00.0 -rac"
has_re "^\(4\) Settings that change performance"
finish "p2pdiag-check, settings against performance: findings with the nvidia-smi command"

check 02-eight-gpu-four-switches $SW -- --quick
lacks_re "setting-"
finish "p2pdiag-check, settings as a check wants them: no setting finding"

mkdir -p "$EMPTY/aspm/sys/module/pcie_aspm/parameters"
echo "default performance [powersave] powersupersave" \
	>"$EMPTY/aspm/sys/module/pcie_aspm/parameters/policy"
check 02-eight-gpu-four-switches $SW -- --quick --root "$EMPTY/aspm"
finding info setting-aspm_policy
has_re "PCIe ASPM policy: powersave"
finish "p2pdiag-check, ASPM powersave policy read through --root: noted with its fix"

# A GPU's numa_node, read in the worker, refused as the tool's own reads are
mkdir -p "$EMPTY/numa-fifo/sys/bus/pci/devices/0000:03:00.0"
mkfifo "$EMPTY/numa-fifo/sys/bus/pci/devices/0000:03:00.0/numa_node"
check 02-eight-gpu-four-switches $SW -- --quick --root "$EMPTY/numa-fifo"
status 3
has "p2pdiag-check: cannot read $EMPTY/numa-fifo/sys/bus/pci/devices/0000:03:00.0/numa_node: a FIFO, not a regular file"
lacks_re "^P2P here"
finish "p2pdiag-check, a FIFO as a GPU's numa_node under --root: exit 3 naming it, no report"

check 02-eight-gpu-four-switches $SW -- --curve
sections=$(grep -nE '^\((1|2|3|4)\) ' <<<"$out" | cut -d' ' -f1 | tr '\n' ' ')
[[ "$sections" =~ ^[0-9]+:\(1\)\ [0-9]+:\(2\)\ [0-9]+:\(3\)\ [0-9]+:\(4\)\ $ ]] ||
	why=${why:-"sections not in troubleshooting order: $sections"}
has_re "host to device: fixed cost 2.00 us per copy; half the peak \(.* GB/s at 1048576 B\) from [0-9]+ B"
finish "p2pdiag-check: the report in troubleshooting order, the curve with fixed cost and half-peak size"

check 02-eight-gpu-four-switches $SW FAKE_NVML_PROCS=4711:copier:2600 -- \
	--json --if-busy=measure --curve
"$PYTHON" -c '
import json, sys
j = json.load(sys.stdin)
g = j["gpus"][0]
c = g["conditions"]
assert c["busy"] and c["processes"][0] == {"pid": 4711, "name": "copier", "used_bytes": 2726297600, "graphics": False}, c
v = {x["figure"]: x for x in g["judged"]}
assert v["h2d"]["basis"].startswith("PCIe"), v["h2d"]
assert v["latency"]["expected_is"] == "ceiling", v["latency"]
assert {s["key"] for s in g["settings"]} >= {"ecc", "persistence", "compute_mode", "mig", "clocks", "pstate"}
assert j["host_settings"][0]["key"] == "aspm_policy"
h = g["curves"]["h2d"]
assert h["points"][0]["bytes"] == 4 and abs(h["fixed_us"] - 2.0) < 0.01, h
assert 60000 < h["half_peak_bytes"] < 200000, h
p = [x for x in j["pairs"] if x.get("judged")]
assert p and [x["figure"] for x in p[0]["judged"]] == ["p2p", "p2p_bidir", "latency_p2p"], p
' < <(sed -n '/^{/,/^}$/p' <<<"$out") || why=${why:-"JSON lacks the conditions, judged figures, settings or curves"}
finish "p2pdiag-check --json: conditions, judged figures with basis, settings, curves"

# --- every driver call failing in its turn ---------------------------------
# Each entry point gpu_priv.h lists, CUDA's and NVML's, returns an error in
# its turn (FAKE_CUDA_FAIL_CALL, FAKE_NVML_FAIL_CALL).  The run must still
# end with its report and a documented exit status, never by a crash or a
# sanitizer report; a failing CUDA call is named with its error.  A failed
# release of host-side bookkeeping (pinned host memory, events, the
# module) leaves only a worker about to exit, so those runs are healthy;
# device memory, streams and the context's release failing are the
# teardown-failed warning (exit 1).  A small L2 keeps the device-local
# copy at 1 MiB: seventy runs, each cheap.
GPU_PRIV="$(dirname "$0")/../../../userspace/gpu/gpu_priv.h"
RELEASE_CALLS=" cuMemFreeHost cuEventDestroy cuModuleUnload cuGetErrorName "
CRASHED='AddressSanitizer|LeakSanitizer|runtime error:|Segmentation fault|Aborted|core dumped'
calls() { grep -oE "X\($1[A-Za-z0-9_]*\)" "$GPU_PRIV" | sed 's/^X(\(.*\))$/\1/' | sort -u; }
fail_each() {
	local env=$1 prefix=$2 call bad="" count=0
	for call in $(calls "$prefix"); do
		count=$((count + 1))
		check 02-eight-gpu-four-switches $SW "$env=$call" FAKE_CUDA_L2=4096 \
			"${P2PDIAG_OPTS[@]}" -- --size 64K --iterations 3
		if grep -qE "$CRASHED" <<<"$out" || [ "$rc" -gt 3 ]; then
			bad+=" $call (exit $rc: $(grep -m1 -E "$CRASHED" <<<"$out"))"
		elif [ "$prefix" = cu ] && [[ $RELEASE_CALLS == *" $call "* ]]; then
			[ "$rc" = 0 ] || bad+=" $call (exit $rc, expected 0)"
		elif [ "$prefix" = cu ]; then
			[ "$rc" = 1 ] || bad+=" $call (exit $rc, expected 1)"
			grep -qE "$call( \([^)]*\))?: CUDA_ERROR_ILLEGAL_ADDRESS" <<<"$out" ||
				bad+=" $call (not named)"
		elif [ "$call" = nvmlInit_v2 ]; then
			[ "$rc" = 1 ] && grep -q '^CUDA: ok .*NVML: init-failed' <<<"$out" ||
				bad+=" $call (exit $rc, not init-failed)"
		else
			# NVML readings are optional: CUDA still measures
			[ "$rc" -le 1 ] &&
				grep -qE '^  GPU0 +0000:03:00\.0 +[^ ]+ +[0-9]+\.[0-9] ' <<<"$out" ||
				bad+=" $call (exit $rc, or no host-to-device figure)"
		fi
	done
	[ "$count" -ge 10 ] || bad+=" (only $count calls found in $GPU_PRIV)"
	why=${bad:+"failed:$bad"}
	out=""
}

fail_each FAKE_CUDA_FAIL_CALL cu
finish "p2pdiag-check, each CUDA call failing in its turn: named, exit 1 (0 for a host-side release), no crash"

fail_each FAKE_NVML_FAIL_CALL nvml
finish "p2pdiag-check, each NVML call failing in its turn: readings unknown, CUDA measured, no crash"

check 02-eight-gpu-four-switches $SW \
	FAKE_NVML_FAIL_CALL=nvmlDeviceGetCurrPcieLinkWidth,nvmlDeviceGetComputeRunningProcesses_v3 --
[ "$rc" -le 1 ] || why=${why:-"exit $rc"}
has "    NVML reading link unknown: nvmlDeviceGetCurrPcieLinkWidth failed: GPU is lost"
has "    NVML reading processes unknown: nvmlDeviceGetComputeRunningProcesses_v3 failed: GPU is lost"
[ "$(grep -c "NVML reading link unknown" <<<"$out")" = 2 ] || why=${why:-"not said for each GPU"}
check 02-eight-gpu-four-switches $SW FAKE_NVML_FAIL_CALL=nvmlDeviceGetHandleByPciBusId_v2 --
has "    other work: unknown (nvmlDeviceGetHandleByPciBusId_v2 failed: GPU is lost)"
check 02-eight-gpu-four-switches $SW FAKE_NVML_FAIL_CALL=nvmlDeviceGetCurrPcieLinkWidth \
	FAKE_NVML_FAIL_GPU=1 -- --json
"$PYTHON" -c '
import json, sys
j = json.load(sys.stdin)
g = {x["addr"]: x for x in j["gpus"]}
assert g["0000:03:00.0"]["nvml_failures"] == [], g["0000:03:00.0"]["nvml_failures"]
f = g["0000:04:00.0"]["nvml_failures"]
assert {"reading": "link", "call": "nvmlDeviceGetCurrPcieLinkWidth", "error": "GPU is lost"} in f, f
assert all(x["h2d_gbs"] is not None for x in g.values()), g
' < <(sed -n '/^{/,/^}$/p' <<<"$out") || why=${why:-"JSON: nvml_failures not naming the reading, call and error of the one GPU"}
finish "p2pdiag-check, NVML readings failing: text and JSON name the reading, the call and NVML's error per GPU"

EVERY_FAILING=FAKE_NVML_FAIL_CALL=nvmlDeviceGetCurrentClocksThrottleReasons,nvmlDeviceGetClock,nvmlDeviceGetP2PStatus,nvmlEventSetWait_v2
check 02-eight-gpu-four-switches $SW $EVERY_FAILING FAKE_NVML_FAIL_GPU=1 -- --json
"$PYTHON" -c '
import json, sys
j = json.load(sys.stdin)
g = {x["addr"]: x for x in j["gpus"]}
def failed(addr):
	return {(x["reading"], x["call"], x["error"]) for x in g[addr]["nvml_failures"]}
lost = "GPU is lost"
both = {("p2p_status", "nvmlDeviceGetP2PStatus", lost), ("xid_events", "nvmlEventSetWait_v2", lost)}
assert failed("0000:03:00.0") == both, failed("0000:03:00.0")
assert failed("0000:04:00.0") == both | {("throttle_reasons", "nvmlDeviceGetCurrentClocksThrottleReasons", lost), ("app_clocks", "nvmlDeviceGetClock", lost)}, failed("0000:04:00.0")
' < <(sed -n '/^{/,/^}$/p' <<<"$out") || why=${why:-"JSON: nvml_failures not naming the clocks, throttle reasons, P2P status and Xid events"}
check 02-eight-gpu-four-switches $SW $EVERY_FAILING FAKE_NVML_FAIL_GPU=1 --
[ "$rc" -le 1 ] || why=${why:-"exit $rc"}
has "    NVML reading throttle_reasons unknown: nvmlDeviceGetCurrentClocksThrottleReasons failed: GPU is lost"
has "    NVML reading app_clocks unknown: nvmlDeviceGetClock failed: GPU is lost"
[ "$(grep -c "NVML reading p2p_status unknown: nvmlDeviceGetP2PStatus failed: GPU is lost" <<<"$out")" = 2 ] ||
	why=${why:-"P2P status not said for each GPU"}
[ "$(grep -c "NVML reading xid_events unknown: nvmlEventSetWait_v2 failed: GPU is lost" <<<"$out")" = 2 ] ||
	why=${why:-"Xid events not said for each GPU"}
finish "p2pdiag-check, clocks, throttle reasons, P2P status and Xid events failing: text and JSON name each reading, call and error"

# --quick measures nothing, so the conditions are not shown; a reading
# that failed still is, in the same words, under its GPU.
QUICK_FAILING=(FAKE_NVML_FAIL_CALL=nvmlDeviceGetCurrPcieLinkWidth,nvmlDeviceGetP2PStatus FAKE_NVML_FAIL_GPU=1)
check 02-eight-gpu-four-switches $SW "${QUICK_FAILING[@]}" -- --quick
status 0
has_re "^NVML readings that failed \(each reading left unknown, the call and NVML's error\)$"
has_re "^  GPU 0000:04:00\.0 \("
has "    NVML reading link unknown: nvmlDeviceGetCurrPcieLinkWidth failed: GPU is lost"
[ "$(grep -c "NVML reading p2p_status unknown: nvmlDeviceGetP2PStatus failed: GPU is lost" <<<"$out")" = 2 ] ||
	why=${why:-"P2P status not said for each GPU"}
[ "$(grep -c "NVML reading link unknown" <<<"$out")" = 1 ] || why=${why:-"link said for the GPU that read it"}
check 02-eight-gpu-four-switches $SW "${QUICK_FAILING[@]}" -- --quick --json
"$PYTHON" -c '
import json, sys
j = json.load(sys.stdin)
g = {x["addr"]: x for x in j["gpus"]}
assert {"reading": "link", "call": "nvmlDeviceGetCurrPcieLinkWidth", "error": "GPU is lost"} in g["0000:04:00.0"]["nvml_failures"], g
' < <(sed -n '/^{/,/^}$/p' <<<"$out") || why=${why:-"JSON under --quick: nvml_failures not naming the link reading"}
check 02-eight-gpu-four-switches $SW "${QUICK_FAILING[@]}" FAKE_NVML_ERROR_STRING=null -- --quick
has "    NVML reading link unknown: nvmlDeviceGetCurrPcieLinkWidth failed: NVML error 15"
check 02-eight-gpu-four-switches $SW FAKE_NVML_FAIL_CALL=nvmlSystemGetDriverVersion -- --quick
has_re "^CUDA: ok .*, NVML: ok \(driver unknown: nvmlSystemGetDriverVersion failed: GPU is lost\), 2 GPU"
check 02-eight-gpu-four-switches $SW FAKE_NVML_FAIL_CALL=nvmlSystemGetDriverVersion -- --quick --json
"$PYTHON" -c '
import json, sys
s = json.load(sys.stdin)["gpu_status"]
assert s["nvml_driver"] is None and s["nvml_driver_error"] == "nvmlSystemGetDriverVersion failed: GPU is lost", s
' < <(sed -n '/^{/,/^}$/p' <<<"$out") || why=${why:-"JSON: gpu_status.nvml_driver_error not naming the call"}
check 02-eight-gpu-four-switches $SW -- --quick
status 0; lacks_re "NVML readings that failed|NVML reading |driver unknown"
finish "p2pdiag-check --quick, NVML readings failing: said under their GPU in the full report's words (NVML error N without nvmlErrorString), the driver version's in the header, text and JSON; nothing when none failed"

# Peer access left on, then also device memory, streams and the context's
# release failing: teardown-failed naming each call once, in the order
# they failed; the figures stand.
for calls in cuCtxDisablePeerAccess \
	cuCtxDisablePeerAccess,cuMemFree,cuStreamDestroy,cuDevicePrimaryCtxRelease; do
	check 02-eight-gpu-four-switches $SW FAKE_CUDA_FAIL_CALL=$calls -- --json
	status 1
	"$PYTHON" -c '
import json, sys
j = json.load(sys.stdin)
f = {x["code"]: x for x in j["findings"]}
assert "measure-failed" not in f, f
t = f["teardown-failed"]
want = "; ".join(c + ": CUDA_ERROR_ILLEGAL_ADDRESS" for c in sys.argv[1].split(","))
assert t["severity"] == "warning" and want + " (every figure" in t["message"], t
p = [x for x in j["pairs"] if x.get("judged")]
assert p and "p2p" in [x["figure"] for x in p[0]["judged"]], p
' "$calls" < <(sed -n '/^{/,/^}$/p' <<<"$out") ||
		why=${why:-"JSON: no teardown-failed warning naming each call, or no P2P figure"}
	check 02-eight-gpu-four-switches $SW FAKE_CUDA_FAIL_CALL=$calls --
	status 1; finding warning teardown-failed; lacks_re "stopped early"
	named=$(sed 's/,/: CUDA_ERROR_ILLEGAL_ADDRESS; /g' <<<"$calls")
	has_re "tearing them down failed: $named: CUDA_ERROR_ILLEGAL_ADDRESS \(every figure was measured"
	has_re "^    P2P copy +[0-9]+\.[0-9]+ GB/s"
	finish "p2pdiag-check, $calls failing at the end: teardown-failed (exit 1) naming each, not measure-failed; P2P figures in text and JSON"
done

check 02-eight-gpu-four-switches $SW FAKE_CUDA_FAIL_CALL=cuGetErrorName,cuMemAlloc FAKE_CUDA_L2=4096 \
	-- --size 64K --iterations 3
status 1; has_re "cuMemAlloc: CUDA_ERROR_UNKNOWN"; lacks_re "$CRASHED"
finish "p2pdiag-check, a failing call whose error has no name: said as CUDA_ERROR_UNKNOWN"

# --- stopped, or killed, in the middle of a copy ----------------------------
# The worker must never outlive the tool, and an output file must keep its
# old content or get the whole new one.  Every process of a run carries
# P2PDIAG_TEST_RUN in its environment, so one left behind is found even
# after it lost its parent.
survivors() {
	grep -lsxzF "P2PDIAG_TEST_RUN=$1" /proc/[0-9]*/environ 2>/dev/null | wc -l
}
gone_within() {	# TAG SECONDS: no process of the run left by then
	local i
	for ((i = 0; i < $2 * 20; i++)); do
		[ "$(survivors "$1")" = 0 ] && return 0
		sleep 0.05
	done
	why=${why:-"$(survivors "$1") process(es) of the run still there after $2 s"}
}
# start_hung TAG DIR: p2pdiag-check in the background, its P2P copy hung
# (the run would end by its 60 s deadline), writing DIR's Prometheus file
# and baseline; returns once it is measuring the P2P pair (sets $pid).
# Job control gives it a process group of its own and leaves SIGINT
# caught, where a script's background job would have it ignored.
start_hung() {
	local i
	mkdir -p "$2"
	echo "old textfile" >"$2/p2pdiag.prom"
	echo "old baseline" >"$2/baseline.json"
	set -m
	env -u FAKE_GPUS P2PDIAG_TEST_RUN="$1" FAKE_GPU_BUSIDS=$SW \
		FAKE_CUDA_HANG=p2p FAKE_CUDA_L2=4096 \
		LD_LIBRARY_PATH="$DOUBLES/cuda:$DOUBLES/nvml" \
		"$P2PDIAG" --source=module \
		--sysfs-root "$EMPTY/02-eight-gpu-four-switches" --no-color \
		--size 64K --timeout 60 --prometheus "$2/p2pdiag.prom" \
		--baseline save "$2/baseline.json" >"$2/out" 2>"$2/err" &
	pid=$!
	set +m
	for ((i = 0; i < 600; i++)); do
		grep -q '^p2pdiag-check: measuring p2p ' "$2/err" && return
		sleep 0.05
	done
}
# outputs_kept DIR: both files hold their old content, no temporary file
# (.NAME.XXXXXXXX, platform/atomic_file.h) left
outputs_kept() {
	[ "$(cat "$1/p2pdiag.prom")" = "old textfile" ] ||
		why=${why:-"the Prometheus file changed: $(head -c 80 "$1/p2pdiag.prom")"}
	[ "$(cat "$1/baseline.json")" = "old baseline" ] ||
		why=${why:-"the baseline changed: $(head -c 80 "$1/baseline.json")"}
	local left
	left=$(ls -A "$1" | grep -E '^\.(p2pdiag\.prom|baseline\.json)\.|\.tmp$')
	[ -z "$left" ] || why=${why:-"left behind: $left"}
}

for sig in INT TERM; do
	tag="stop-$sig-$$"
	start_hung "$tag" "$EMPTY/$tag"
	t0=$(date +%s%N)
	kill -s "$sig" "$pid"
	wait "$pid"
	rc=$?
	took=$(( ($(date +%s%N) - t0) / 1000000 ))
	out=$(cat "$EMPTY/$tag/err")
	[ "$sig" = INT ] && status 130 || status 143
	has_re "^p2pdiag-check: ended by SIG$sig while measuring p2p 0000:03:00\.0 -> 0000:04:00\.0; the GPU worker was ended too; no output file is left half-written$"
	lacks_re "$CRASHED"
	faster_than 5000
	outputs_kept "$EMPTY/$tag"
	gone_within "$tag" 1
	finish "p2pdiag-check, SIG$sig mid-copy: says so, exit $([ "$sig" = INT ] && echo 130 || echo 143), worker gone, output files as they were"
done

tag="kill-$$"
start_hung "$tag" "$EMPTY/$tag"
exec 3>&2 2>/dev/null	# not the shell's "Killed" notice
kill -s KILL "$pid"
wait "$pid"
exec 2>&3 3>&-
out=""
gone_within "$tag" 3
outputs_kept "$EMPTY/$tag"
finish "p2pdiag-check killed (SIGKILL) mid-copy: its worker dies with it"

# A copy that never completes ends by the deadline: no worker stays behind.
tag="hung-$$"
check 02-eight-gpu-four-switches $SW FAKE_CUDA_HANG=p2p P2PDIAG_TEST_RUN="$tag" \
	-- --timeout 2
status 2; finding error copy-timeout
gone_within "$tag" 1
finish "p2pdiag-check, copy never completes: copy-timeout, exit 2, no worker left"

tag="hungcall-$$"
check 02-eight-gpu-four-switches $SW FAKE_CUDA_HANG_CALL=cuMemcpyPeerAsync \
	P2PDIAG_TEST_RUN="$tag" -- --timeout 1
status 2; finding error copy-timeout
gone_within "$tag" 1
finish "p2pdiag-check, driver call never returns: the watchdog's kill leaves no worker"

summary
