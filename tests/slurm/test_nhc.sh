#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# userspace/slurm/p2pdiag.nhc, the check for LBNL NHC.  NHC is not packaged
# in Debian, so it runs here under a stand-in of only what NHC's README
# documents of a check's world: the check is a bash function of a *.nhc
# file that NHC sources; it fails by calling `die 1 MESSAGE` (the message
# becomes the node's note) and returning 1, passes by returning 0, may
# `log` a line; TIMEOUT (30 s by default) is NHC's watchdog, which kills a
# run that lasts longer.  What NHC itself does with the note (marking the
# node offline through the resource manager) is not run here.
# Usage: test_nhc.sh [P2PDIAG_CHECK]
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
. "$root/tests/tap.sh"
nhc_check=$root/userspace/slurm/p2pdiag.nhc
fix=$root/tests/unit/tool/fixtures
echo "KTAP version 1"
tool_under_test nhc "${1:-}"
t=$(mktemp -d "${TMPDIR:-/tmp}/p2pdiag-nhc-XXXXXX") || exit 1
trap 'rm -rf "$t"' EXIT

# nhc [ENV=VALUE...] -- CHECK ARGS...: the check run as NHC runs it, under
# the stand-in; sets rc (0 pass, 1 fail, 124 killed by the watchdog), note
# (die's message), logged (log's lines), took (seconds).
nhc() {
	local envs=()
	while [ "$1" != -- ]; do envs+=("$1"); shift; done
	shift
	local t0=$SECONDS
	out=$(env "${envs[@]}" timeout "${NHC_TIMEOUT:-30}" bash -c '
		TIMEOUT=${NHC_TIMEOUT:-30}
		die() { echo "note: $2"; return 0; }
		log() { echo "log: $*"; }
		. "$1"
		shift
		"$@"
	' nhc "$nhc_check" "$@" 2>&1)
	rc=$?
	took=$((SECONDS - t0))
	note=$(sed -n 's/^note: //p' <<<"$out")
	logged=$(sed -n 's/^log: //p' <<<"$out")
}
export P2PDIAG_CHECK=$bin

nhc -- check_p2pdiag -- --topology-file "$fix/sriov-switch.topo"
[ "$rc" = 0 ] && [ -z "$note" ] && result 1 "nhc: a healthy tree passes, no note" ||
	result 0 "nhc: a healthy tree passes, no note" "rc $rc: $out"

nhc -- check_p2pdiag -- --topology-file "$fix/switchacs.topo"
[ "$rc" = 1 ] && [[ $note == "p2pdiag: host-bridge-no-p2p (2 pairs: 0000:01:00.0-0000:04:00.0, "*"): no ACS setting helps"* ]] &&
	result 1 "nhc: a broken tree fails, the note names the cause, its pairs and the fix" ||
	result 0 "nhc: a broken tree fails, the note names the cause, its pairs and the fix" "rc $rc, note '$note': $out"

grep -v '^expect' "$root/tests/unit/fixtures/03-amd-root-ports-acs.topo" >"$t/degraded.topo"
nhc -- check_p2pdiag -- --topology-file "$t/degraded.topo"
[ "$rc" = 0 ] && [ -z "$note" ] && [[ $logged == "p2pdiag: degraded: acs-redirect (10 pairs: "* ]] &&
	result 1 "nhc: warnings only are logged and pass" ||
	result 0 "nhc: warnings only are logged and pass" "rc $rc, note '$note', log '$logged'"
nhc -- check_p2pdiag -w -- --topology-file "$t/degraded.topo"
[ "$rc" = 1 ] && [[ $note == "p2pdiag: acs-redirect (10 pairs: "* ]] &&
	result 1 "nhc: ... and fail with -w" ||
	result 0 "nhc: ... and fail with -w" "rc $rc, note '$note'"

nhc -- check_p2pdiag -- --topology-file "$t/absent.topo"
[ "$rc" = 1 ] && [[ $note == "p2pdiag: check failed (exit status 3): "*absent.topo* ]] &&
	result 1 "nhc: a check that cannot run fails, its reason in the note (unknown is never healthy)" ||
	result 0 "nhc: a check that cannot run fails, its reason in the note (unknown is never healthy)" "rc $rc, note '$note'"

# The deadline it gives the tool: NHC's TIMEOUT less 10 s by default, and
# a -d that leaves no room inside TIMEOUT is refused.
printf '#!/bin/sh\nprintf "%%s\\n" "$*" >%s/args\necho healthy\n' "$t" >"$t/fake-check"
chmod +x "$t/fake-check"
nhc P2PDIAG_CHECK="$t/fake-check" -- check_p2pdiag
args=$(cat "$t/args" 2>/dev/null)
[ "$rc" = 0 ] && [ "$args" = "--summary --deadline 20 --quick" ] &&
	result 1 "nhc: by default --quick with --deadline 20, inside NHC's 30 s watchdog" ||
	result 0 "nhc: by default --quick with --deadline 20, inside NHC's 30 s watchdog" "rc $rc, args '$args': $out"
nhc -- check_p2pdiag -d 28
[ "$rc" = 1 ] && [[ $note == *"leaves no room inside NHC's TIMEOUT of 30 s"* ]] &&
	result 1 "nhc: -d 28 under TIMEOUT=30 is refused, saying why" ||
	result 0 "nhc: -d 28 under TIMEOUT=30 is refused, saying why" "rc $rc, note '$note'"

# A driver whose cuInit never returns (the GPU doubles): the check ends
# within its deadline, well inside the watchdog, and fails saying so.
. "$root/tests/doubles/doubles_env.sh"
doubles_setup "$root" "$t" "$bin"
why=$doubles_why
if [ -n "$why" ]; then
	n=$((n + 1)) passed=$((passed + 1))
	echo "ok $n nhc: a hung driver fails the check within its deadline, naming the call # SKIP $why"
else
	nhc P2PDIAG_CHECK="$cudabin" LD_LIBRARY_PATH="$doubles/cuda:$doubles/nvml" FAKE_GPUS=2 \
		FAKE_CUDA_HANG_CALL=cuInit -- check_p2pdiag -d 3
	[ "$rc" = 1 ] && [ "$took" -le 8 ] &&
		[[ $note == "p2pdiag: check-timed-out: cuInit did not return before the run's deadline"* ]] &&
		result 1 "nhc: a hung driver fails the check within its deadline (-d 3), naming the call" ||
		result 0 "nhc: a hung driver fails the check within its deadline (-d 3), naming the call" \
			"rc $rc after $took s, note '$note': $out"
fi
summary
