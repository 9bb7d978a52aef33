#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The outputs for the engines that run a fleet, end to end on saved
# topologies: --summary (the one line a scheduler keeps as its reason) and
# --nfd-features (Node Feature Discovery's feature file, checked against
# the label syntax by tests/k8s/nfd-labels-valid).
# Usage: test_fleet_outputs.sh P2PDIAG_CHECK FIXTURES
set -u
bin=$1 fix=$2
here=$(cd "$(dirname "$0")" && pwd)
valid=$here/../../k8s/nfd-labels-valid
engine_fix=$here/../fixtures
tmp=$(mktemp -d "${TMPDIR:-/tmp}/p2pdiag-fleet-XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/hermetic/proc" &&
	grep -m2 -E '^(vendor_id|cpu family)' /proc/cpuinfo >"$tmp/hermetic/proc/cpuinfo"
export P2PDIAG_FSROOT=$tmp/hermetic
NS=p2pdiag.feature.node.kubernetes.io
. "$here/../../tap.sh"

run() { # run CMD...: sets rc, out, err
	out=$("$@" 2>"$tmp/stderr"); rc=$?
	err=$(cat "$tmp/stderr")
}

# expect NAME WANT_RC WANT_OUT CMD...: exit status and stdout, exactly
expect() {
	local name=$1 want_rc=$2 want=$3
	shift 3
	run "$@"
	[ "$rc" = "$want_rc" ] && [ "$out" = "$want" ] && result 1 "$name" ||
		result 0 "$name" "exit $rc (want $want_rc), stdout '$out', want '$want'; $err"
}

# An engine fixture without its expectations is a topology file.
topo() { grep -v '^expect' "$engine_fix/$1.topo" >"$tmp/$1.topo"; echo "$tmp/$1.topo"; }

healthy=$fix/sriov-switch.topo broken=$fix/switchacs.topo
degraded=$(topo 03-amd-root-ports-acs)
links=$(topo 10-degraded-links)

expect "fleet: --summary of a healthy tree is the one word, exit 0" 0 healthy \
	"$bin" --topology-file "$healthy" --summary
expect "fleet: --summary of a broken tree names the worst cause, its pairs, the other causes and the fix" 2 \
	"broken: host-bridge-no-p2p (2 pairs: 0000:01:00.0-0000:04:00.0, 0000:01:00.0-0000:06:00.0), +1 more (acs-redirect): no ACS setting helps this pair: its path crosses a host bridge that does not route P2P. Put both devices under one PCIe switch, or use a platform whose root complex routes P2P (the kernel trusts AMD Zen and the Intel root complexes on its P2PDMA list)." \
	"$bin" --topology-file "$broken" --summary
expect "fleet: --summary of redirected pairs gives the one machine-wide parameter" 1 \
	"degraded: acs-redirect (10 pairs: 0000:01:00.0-0000:02:00.0, 0000:01:00.0-0000:05:00.0, +8 more), +1 more (iommu-translated): boot with pci=disable_acs_redir=0000:00:01.1;0000:00:01.2;0000:00:03.1;0000:04:00.0;0000:04:01.0;0000:40:01.1" \
	"$bin" --topology-file "$degraded" --summary
expect "fleet: --summary of a cause about a device names the device, no pair count" 1 \
	"degraded: link-degraded (0000:01:00.0): reseat the card; check the slot, riser or cable, retimers and the BIOS bifurcation and PCIe speed settings" \
	"$bin" --topology-file "$links" --summary
run "$bin" --topology-file "$healthy" --summary --json
[ "$rc" = 3 ] && [[ $err == *"--summary and --json"* ]] &&
	result 1 "fleet: --summary with --json is a usage error (exit 3)" ||
	result 0 "fleet: --summary with --json is a usage error (exit 3)" "exit $rc: $err"
run "$bin" --topology-file "$tmp/absent.topo" --summary
[ "$rc" = 3 ] && [ -z "$out" ] && [[ $err == *absent.topo* ]] &&
	result 1 "fleet: --summary of a run that fails prints no state, exit 3 with the reason on stderr" ||
	result 0 "fleet: --summary of a run that fails prints no state, exit 3 with the reason on stderr" "exit $rc, '$out': $err"

# nfd_expect NAME WANT_RC FILE CMD...: exit status, and FILE's labels
# (comments and the run's time dropped) are those in $want.
nfd_expect() {
	local name=$1 want_rc=$2 file=$3 got
	shift 3
	run "$@"
	got=$(grep -v -e '^#' -e "^$NS/checked-at=[0-9]*$" "$file" 2>/dev/null)
	[ "$rc" = "$want_rc" ] && [ "$got" = "$want" ] && result 1 "$name" ||
		result 0 "$name" "exit $rc (want $want_rc), labels '$got', want '$want'; $err"
}

mkdir -p "$tmp/features.d"
nfd=$tmp/features.d/p2pdiag
want="$NS/p2p=broken
$NS/cause=host-bridge-no-p2p
$NS/gpus=2
$NS/gpu0-gpu1=blocked
$NS/gpu-pairs-ok=false
$NS/gpu-pairs-measured=false
$NS/source=file"
nfd_expect "fleet: --nfd-features of a broken tree: state, cause, GPUs and the GPU pair's verdict" \
	2 "$nfd" "$bin" --topology-file "$broken" --nfd-features "$nfd"
leftover=$(find "$tmp/features.d" -mindepth 1 ! -name p2pdiag)
[ -z "$leftover" ] && result 1 "fleet: ... and nothing else is left in features.d" ||
	result 0 "fleet: ... and nothing else is left in features.d" "$leftover"
head -1 "$nfd" | grep -q '^# p2pdiag-check .*exit status 2' &&
	result 1 "fleet: ... its first line, a comment, names the tool and the exit status" ||
	result 0 "fleet: ... its first line, a comment, names the tool and the exit status" "$(head -1 "$nfd")"
want="$NS/p2p=healthy
$NS/gpus=0
$NS/gpu-pairs-ok=none
$NS/gpu-pairs-measured=false
$NS/source=file"
nfd_expect "fleet: --nfd-features of a healthy tree replaces the broken one's labels; no GPU pair is none, not true" \
	0 "$nfd" "$bin" --topology-file "$healthy" --nfd-features "$nfd"
want="$NS/p2p=unknown
$NS/gpu-pairs-ok=unknown"
nfd_expect "fleet: a run that fails writes p2p=unknown, not the last verdict (exit 3)" \
	3 "$nfd" "$bin" --topology-file "$tmp/absent.topo" --nfd-features "$nfd"
run "$bin" --topology-file "$healthy" --nfd-features "$tmp/no/dir/p2pdiag"
[ "$rc" = 3 ] && [[ $err == *"cannot write $tmp/no/dir/p2pdiag: its directory"* ]] &&
	result 1 "fleet: --nfd-features into a missing directory exits 3 naming the file" ||
	result 0 "fleet: --nfd-features into a missing directory exits 3 naming the file" "exit $rc: $err"

# 16 GPUs (the 8-GPU server with its NICs made GPUs): 120 pairs, 64 labelled.
sed 's/class=0x020700/class=0x030200/' "$(topo 02-eight-gpu-four-switches)" >"$tmp/16-gpus.topo"
run "$bin" --topology-file "$tmp/16-gpus.topo" --nfd-features "$nfd"
pairs=$(grep -c "^$NS/gpu[0-9]*-gpu[0-9]*=" "$nfd")
grep -qx "$NS/gpus=16" "$nfd" && [ "$pairs" = 64 ] &&
	grep -qx "$NS/gpu-pairs-unlabelled=56" "$nfd" &&
	result 1 "fleet: 16 GPUs get 64 pair labels and the count of the other 56" ||
	result 0 "fleet: 16 GPUs get 64 pair labels and the count of the other 56" "exit $rc, $pairs pair labels: $(grep -v -- '-gpu' "$nfd")"

# Every fixture's feature file keeps to the label syntax and the cap.
bad=""
for f in "$fix"/*.topo "$engine_fix"/*.topo "$tmp/16-gpus.topo"; do
	grep -v '^expect' "$f" >"$tmp/t.topo"
	"$bin" --topology-file "$tmp/t.topo" --nfd-features "$nfd" >/dev/null 2>&1
	why=$("$valid" "$nfd" 71) || bad="$bad ${f##*/}: $why;"
done
[ -z "$bad" ] && result 1 "fleet: every fixture's feature file keeps to the label syntax, at most 71 labels (64 pairs and 7 others)" ||
	result 0 "fleet: every fixture's feature file keeps to the label syntax, at most 71 labels (64 pairs and 7 others)" "$bad"
# ... and the checker refuses what breaks it
printf '%s\n' "$NS/gpu0-gpu1=blocked" "$NS/x=a:b" >"$tmp/bad"
! "$valid" "$tmp/bad" >/dev/null && result 1 "fleet: the label checker refuses a value with ':'" ||
	result 0 "fleet: the label checker refuses a value with ':'"

summary "fleet outputs"
