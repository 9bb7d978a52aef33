#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# p2pdiag-check's command line end to end, without GPUs: options, sources
# (fake sysfs trees, a libpci dump, saved topologies), outputs and exit
# statuses.  Usage: test_cli.sh P2PDIAG_CHECK TEST_TOOL FIXTURES
set -u
bin=$1 tool=$2 fix=$3
tmp=$(mktemp -d "${TMPDIR:-/tmp}/p2pdiag-tool-cli-XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
dump=$fix/amd-rootports-acs.lspci
printf 'processor\t: 0\nvendor_id\t: AuthenticAMD\ncpu family\t: 25\n\n' >"$tmp/cpu-amd"
printf 'processor\t: 0\nvendor_id\t: GenuineIntel\ncpu family\t: 6\n\n' >"$tmp/cpu-intel"

# System files come from a root of the test's own, with an Intel CPU and no
# kernel release whatever this machine has, so the machine running the
# tests changes no result; a test that wants AMD Zen says so (--cpuinfo
# "$tmp/cpu-amd", or the root "$tmp/amdroot").
mkdir -p "$tmp/hermetic/proc" && cp "$tmp/cpu-intel" "$tmp/hermetic/proc/cpuinfo"
export P2PDIAG_FSROOT=$tmp/hermetic
unset NCCL_P2P_DISABLE NCCL_P2P_LEVEL NCCL_IGNORE_DISABLED_P2P NCCL_NET_GDR_LEVEL \
	CUDA_VISIBLE_DEVICES CUDA_DEVICE_ORDER

. "$(dirname "$0")/../../tap.sh"

# run CMD...: sets rc, out, err
run() {
	out=$("$@" 2>"$tmp/stderr"); rc=$?
	err=$(cat "$tmp/stderr")
}

expect_rc() { # expect_rc WANT NAME CMD...
	local want=$1 name=$2
	shift 2
	run "$@"
	[ "$rc" = "$want" ] && result 1 "$name" || result 0 "$name" "exit $rc, want $want: $err"
}

# retrail FILE: a module text edited above its trailer line gets the
# trailer's byte count of the edited text (the reader checks it).
retrail() {
	"$PYTHON" - "$1" <<'PY'
import sys
path = sys.argv[1]
lines = open(path).read().splitlines(True)
body = "".join(lines[:-1])
head = lines[-1].rpartition(" bytes=")[0]
open(path, "w").write("%s%s bytes=%d\n" % (body, head, len(body)))
PY
}

json_get() { # json_get EXPR: python expression over d, from $out
	"$PYTHON" -c "import json,sys; d=json.loads(sys.stdin.read()); print($1)" <<<"$out" 2>&1
}

for t in ok redirect blocked; do
	mkdir -p "$tmp/$t" && "$tool" --make-tree "$tmp/$t" $t || echo "# cannot make tree $t"
done

expect_rc 0 "cli: --help exits 0" "$bin" --help
case $out in *"Exit status"*"3  usage"*) result 1 "cli: --help documents the exit statuses";;
	*) result 0 "cli: --help documents the exit statuses";; esac
expect_rc 0 "cli: --version exits 0" "$bin" --version
expect_rc 3 "cli: an unknown option exits 3" "$bin" --frobnicate
case $err in *"unknown option '--frobnicate'"*) result 1 "cli: ... and says which";;
	*) result 0 "cli: ... and says which" "$err";; esac
expect_rc 3 "cli: --iterations 1 exits 3" "$bin" --iterations 1

expect_rc 0 "cli: a clean switch tree exits 0" "$bin" --sysfs-root "$tmp/ok" --no-cuda
case $out in *"source: module ($tmp/ok, read in 1 attempt)"*) result 1 "cli: the report names the module source";;
	*) result 0 "cli: the report names the module source" "$(head -3 <<<"$out")";; esac
expect_rc 1 "cli: ACS redirect under the switch exits 1" "$bin" --sysfs-root "$tmp/redirect" --no-cuda
expect_rc 2 "cli: a blocked pair exits 2" "$bin" --sysfs-root "$tmp/blocked" --no-cuda
case $out in *"P2P here: broken."*"error   acs-redirect  3 pairs: GPU0-GPU1, GPU0-GPU2, GPU1-GPU2"*) result 1 "cli: ... with the verdict and the cause";;
	*) result 0 "cli: ... with the verdict and the cause";; esac
run "$bin" --sysfs-root "$tmp/blocked" --no-cuda --verbose
case $out in *"verdict=blocked"*"error   acs-redirect"$'\n'*) result 1 "cli: ... and with --verbose each pair's line and finding";;
	*) result 0 "cli: ... and with --verbose each pair's line and finding";; esac
expect_rc 2 "cli: --quick still judges the topology" "$bin" --sysfs-root "$tmp/blocked" --quick

cp -r "$tmp/blocked" "$tmp/nocpu" && sed -i '1s/ cpu=other$//' "$tmp/nocpu/topology" &&
	retrail "$tmp/nocpu/topology"
run "$bin" --sysfs-root "$tmp/nocpu" --no-cuda --json --cpuinfo "$tmp/cpu-amd"
v=$(json_get 'd["cpu"], sorted({p["verdict"] for p in d["pairs"]})')
[ "$v" = "amd_zen ['redirected']" ] && result 1 "cli: a topology without cpu= is judged with this machine's CPU" ||
	result 0 "cli: a topology without cpu= is judged with this machine's CPU" "$v $(head -1 "$tmp/nocpu/topology")"
mkdir -p "$tmp/empty"
# (the hermetic root has no module: a --sysfs-root without one is
# test_explicit_inputs.sh's)
expect_rc 3 "cli: --source=module without the module exits 3" "$bin" --source=module --no-cuda
case $err in *"module loaded"*) result 1 "cli: ... saying the module is not loaded";;
	*) result 0 "cli: ... saying the module is not loaded" "$err";; esac
cp -r "$tmp/ok" "$tmp/abi3" && echo 3 >"$tmp/abi3/abi_version"
expect_rc 3 "cli: abi_version 3 exits 3" "$bin" --sysfs-root "$tmp/abi3" --no-cuda
cp -r "$tmp/ok" "$tmp/trunc" && head -c 300 "$tmp/ok/topology" >"$tmp/trunc/topology"
expect_rc 3 "cli: a truncated topology exits 3" "$bin" --sysfs-root "$tmp/trunc" --no-cuda

# Unprivileged, sysfs hands out 64 bytes of config space: no ACS to read.
cp "$bin" "$tmp/p2pdiag-check-copy" && chmod 755 "$tmp" "$tmp/p2pdiag-check-copy"
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null &&
   setpriv --reuid=65534 --regid=65534 --clear-groups true 2>/dev/null &&
   setpriv --reuid=65534 --regid=65534 --clear-groups "$tmp/p2pdiag-check-copy" --version >/dev/null 2>&1; then
	expect_rc 3 "cli: libpci as an unprivileged user exits 3" setpriv --reuid=65534 --regid=65534 \
		--clear-groups env P2PDIAG_FSROOT=/ "$tmp/p2pdiag-check-copy" --source=pci --no-cuda
	case $err in *"readable by root only"*) result 1 "cli: ... saying config space needs root";;
		*) result 0 "cli: ... saying config space needs root" "$err";; esac
else
	n=$((n + 1)); echo "ok $n cli: libpci as an unprivileged user # SKIP not root or no setpriv"
fi
expect_rc 1 "cli: libpci dump, AMD Zen: redirected, exits 1" "$bin" --pci-dump "$dump" --cpuinfo "$tmp/cpu-amd"
expect_rc 2 "cli: libpci dump, Intel CPU: blocked, exits 2" "$bin" --pci-dump "$dump" --cpuinfo "$tmp/cpu-intel"
run "$bin" --pci-dump "$dump" --cpuinfo "$tmp/cpu-intel" --json
v=$(json_get '[f["code"] for f in d["findings"] if f["severity"] == "error"], d["pairs"][0]["fix"]')
[ "$v" = "['host-bridge-no-p2p'] none" ] && result 1 "cli: ... named host-bridge-no-p2p, no ACS fix offered" ||
	result 0 "cli: ... named host-bridge-no-p2p, no ACS fix offered" "$v"
run "$bin" --pci-dump "$dump" --cpuinfo "$tmp/cpu-amd" --json
v=$(json_get '[f["code"] for f in d["findings"] if f["severity"] == "warning"], d["pairs"][0]["fix"]')
[ "$v" = "['acs-redirect'] pci=disable_acs_redir=0000:00:01.1;0000:00:03.1" ] &&
	result 1 "cli: on AMD Zen: acs-redirect, the fix names both root ports" ||
	result 0 "cli: on AMD Zen: acs-redirect, the fix names both root ports" "$v"
# A dump is another machine's: without --cpuinfo its CPU is never this
# machine's (an AMD workstation would judge an Intel laptop's pairs as
# routed by its host bridge) but what its host bridges say, or unknown.
mkdir -p "$tmp/amdroot/proc" && cp "$tmp/cpu-amd" "$tmp/amdroot/proc/cpuinfo"
laptop=$fix/intel-laptop-cardbus.lspci
run env -u P2PDIAG_FSROOT "$bin" --pci-dump "$dump" --json
v=$(json_get '[(f["code"], f["a"]) for f in d["findings"] if f["code"].startswith("cpu-")], d["pairs"][0]["verdict"]')
[ "$v" = "[('cpu-inferred', '0000:00:00.0')] redirected" ] &&
	result 1 "cli: a dump without --cpuinfo: AMD Zen inferred from its Starship root complex (said), not this machine's CPU" ||
	result 0 "cli: a dump without --cpuinfo: AMD Zen inferred from its Starship root complex (said), not this machine's CPU" "$v"
run env -u P2PDIAG_FSROOT "$bin" --pci-dump "$laptop" --json
v=$(json_get '[f["code"] for f in d["findings"] if f["code"].startswith("cpu-")], d["pairs"][0]["verdict"], d["pairs"][0]["class"], d["pairs"][0]["distance"], d["pairs"][0]["map"]')
[ "$v" = "['cpu-inferred'] unknown PHB 5 not_supported" ] &&
	result 1 "cli: an Intel laptop's dump: Intel inferred; the card behind its CardBus bridge is unknown, PHB on the one host bridge, the kernel's distance 5" ||
	result 0 "cli: an Intel laptop's dump: Intel inferred; the card behind its CardBus bridge is unknown, PHB on the one host bridge, the kernel's distance 5" "$v"
run env -u P2PDIAG_FSROOT "$bin" --pci-dump "$laptop" --no-cuda
case "$out" in
*"host bridge 0000:00:00.0 [8086:2a00] says an Intel CPU"*"an upstream bridge is a CardBus bridge"*|*"an upstream bridge is a CardBus bridge"*"host bridge 0000:00:00.0 [8086:2a00] says an Intel CPU"*)
	result 1 "cli: ... the text names the host bridge it went by and the CardBus bridge" ;;
*)	result 0 "cli: ... the text names the host bridge it went by and the CardBus bridge" "$out" ;;
esac
sed 's/^00: 86 80 00 2a/00: 86 80 c0 29/' "$laptop" >"$tmp/q35.lspci"
run env -u P2PDIAG_FSROOT "$bin" --pci-dump "$tmp/q35.lspci" --json
v=$(json_get '[f["code"] for f in d["findings"] if f["code"].startswith("cpu-")]')
[ "$v" = "['cpu-unknown']" ] &&
	result 1 "cli: a dump whose host bridge is QEMU's q35 (8086:29c0): CPU unknown, said" ||
	result 0 "cli: a dump whose host bridge is QEMU's q35 (8086:29c0): CPU unknown, said" "$v"
expect_rc 1 "cli: ... and --root at that machine's files names its CPU (AMD Zen: redirected)" \
	"$bin" --pci-dump "$dump" --root "$tmp/amdroot" --no-cuda
# Another machine's files may hold escape sequences and bytes that are not
# UTF-8: the text shows them escaped, the JSON stays UTF-8.
mkdir -p "$tmp/escroot/proc/sys/kernel" "$tmp/escroot/sys/class/dmi/id"
cp "$tmp/cpu-amd" "$tmp/escroot/proc/cpuinfo"
printf '6.1.0\033[2J\033[31m FAKE\n' >"$tmp/escroot/proc/sys/kernel/osrelease"
printf 'Server\351\377 X\n' >"$tmp/escroot/sys/class/dmi/id/product_name"
printf 'Bios\351 Inc\n' >"$tmp/escroot/sys/class/dmi/id/bios_vendor"
run "$bin" --pci-dump "$dump" --root "$tmp/escroot" --no-cuda
case $out in *$'\033'*) result 0 "cli: escape sequences from a --root's files are not sent to the terminal" "raw ESC in the text";;
*'kernel 6.1.0\x1b[2J\x1b[31m FAKE;'*) result 1 "cli: escape sequences from a --root's files are not sent to the terminal";;
*) result 0 "cli: escape sequences from a --root's files are not sent to the terminal" "$(grep system: <<<"$out")";;
esac
"$bin" --pci-dump "$dump" --root "$tmp/escroot" --no-cuda --json >"$tmp/esc.json" 2>/dev/null
v=$("$PYTHON" -c 'import json,sys; d=json.loads(open(sys.argv[1], "rb").read().decode("utf-8")); print(ascii(d["system"]["context"]["bios_vendor"]))' "$tmp/esc.json" 2>&1)
[ "$v" = "'Bios\\ufffd Inc'" ] && result 1 "cli: bytes that are not UTF-8 in DMI strings keep the JSON UTF-8" ||
	result 0 "cli: bytes that are not UTF-8 in DMI strings keep the JSON UTF-8" "$v"
expect_rc 3 "cli: a missing --cpuinfo exits 3" "$bin" --pci-dump "$dump" --cpuinfo "$tmp/none"
expect_rc 3 "cli: a missing dump exits 3" "$bin" --pci-dump "$tmp/none.lspci"
# The same dump pasted twice is the one dump; two that differ are refused,
# as is a last line without its newline, each naming the file's line.
run "$bin" --pci-dump "$dump" --cpuinfo "$tmp/cpu-amd" --json
once=$out
{ cat "$dump"; echo '$ sudo lspci -xxxx'; cat "$dump"; } >"$tmp/twice.lspci"
run "$bin" --pci-dump "$tmp/twice.lspci" --cpuinfo "$tmp/cpu-amd" --json
# the identity's run_time is when each run read it: not compared
[ "$rc" = 1 ] && [ "$(grep -v '"run_time":' <<<"$out")" = "$(grep -v '"run_time":' <<<"$once")" ] &&
	result 1 "cli: a dump pasted twice reads as the dump once" ||
	result 0 "cli: a dump pasted twice reads as the dump once" "exit $rc: $err"
{ cat "$dump"; sed '$ s/00$/01/' "$dump"; } >"$tmp/two.lspci"
expect_rc 3 "cli: two different dumps in one file exit 3" \
	"$bin" --pci-dump "$tmp/two.lspci" --cpuinfo "$tmp/cpu-amd"
lines=$(wc -l <"$dump")
case $err in *"two.lspci line $((lines + 85)): function 0000:02:00.0 again, and not as at line 85"*)
	result 1 "cli: ... naming the function, its line and its first line";;
*) result 0 "cli: ... naming the function, its line and its first line" "$err";;
esac
head -c -1 "$dump" >"$tmp/cut.lspci"
expect_rc 3 "cli: a dump without its final newline exits 3" \
	"$bin" --pci-dump "$tmp/cut.lspci" --cpuinfo "$tmp/cpu-amd"
case $err in *"cut.lspci line $lines: the file ends inside this line, without a newline"*)
	result 1 "cli: ... naming the file, the line and the missing newline";;
*) result 0 "cli: ... naming the file, the line and the missing newline" "$err";;
esac

expect_rc 2 "cli: --topology-file judges a saved topology" "$bin" --topology-file "$tmp/blocked/topology"
case $out in *"source: file"*) result 1 "cli: ... and says so";; *) result 0 "cli: ... and says so";; esac
expect_rc 3 "cli: a missing topology file exits 3" "$bin" --topology-file "$tmp/none"
head -c 2000 /dev/urandom >"$tmp/garbage"
expect_rc 3 "cli: a garbage topology file exits 3" "$bin" --topology-file "$tmp/garbage"

run "$bin" --sysfs-root "$tmp/redirect" --no-cuda --json
v=$(json_get 'd["schema"], d["source"], d["generation"], len(d["pairs"]), d["summary"]["exit_status"], sorted({f["code"] for f in d["findings"]})')
[ "$rc" = 1 ] && [ "$v" = "1 module 7 3 1 ['acs-redirect']" ] && result 1 "cli: --json is schema 1 with pairs and findings" ||
	result 0 "cli: --json is schema 1 with pairs and findings" "rc $rc: $v"

run "$bin" --sysfs-root "$tmp/blocked" --no-cuda --json --pairs 0000:03:00.0,04:00.0
v=$(json_get 'len(d["pairs"]), d["pairs"][0]["a"], d["pairs"][0]["b"]')
[ "$v" = "1 0000:03:00.0 0000:04:00.0" ] && result 1 "cli: --pairs judges only the pairs asked for" ||
	result 0 "cli: --pairs judges only the pairs asked for" "$v"
expect_rc 3 "cli: --pairs naming a function not in the topology exits 3" "$bin" --sysfs-root "$tmp/ok" --no-cuda --pairs 03:00.0,0a:00.0

expect_rc 1 "cli: --prometheus writes the textfile" "$bin" --sysfs-root "$tmp/redirect" --no-cuda --prometheus "$tmp/p2p.prom"
grep -qx 'p2pdiag_exit_status 1' "$tmp/p2p.prom" 2>/dev/null && [ ! -e "$tmp/p2p.prom.tmp" ] &&
	result 1 "cli: ... with the exit status and no .tmp left" || result 0 "cli: ... with the exit status and no .tmp left"
expect_rc 3 "cli: a failing run still writes its textfile" "$bin" --source=module --sysfs-root "$tmp/empty" --no-cuda --prometheus "$tmp/p2p.prom"
grep -qx 'p2pdiag_exit_status 3' "$tmp/p2p.prom" 2>/dev/null && ! grep -q 'p2pdiag_pair_info{' "$tmp/p2p.prom" &&
	result 1 "cli: ... saying exit status 3, not the last good run" ||
	result 0 "cli: ... saying exit status 3, not the last good run"
expect_rc 3 "cli: --prometheus into a missing directory exits 3" "$bin" --sysfs-root "$tmp/ok" --no-cuda --prometheus "$tmp/no/dir/p.prom"

# --journal: stdout keeps the report, stderr gets one line per finding
# (and per line of its fix) with the sd-daemon priority of its severity.
for t in blocked:3:error redirect:4:warning; do
	tree=${t%%:*} prio=${t#*:} prio=${prio%%:*} sev=${t##*:}
	run "$bin" --sysfs-root "$tmp/$tree" --no-cuda --json --journal
	want=$(json_get 'sum(1 for f in d["findings"] if f["severity"] == "'"$sev"'")')
	lines=$(grep "^<$prio>$sev acs-redirect [0-9a-f:.]*-[0-9a-f:.]*: " <<<"$err")
	got=$(grep -vc ': fix: ' <<<"$lines")
	fixes=$(grep -c ': fix: kernel command line: pci=' <<<"$lines")
	stray=$(grep -vc '^<[346]>' <<<"$err")
	[ "$want" -gt 0 ] && [ "$got" = "$want" ] && [ "$fixes" = "$want" ] && [ "$stray" = 0 ] &&
		grep -q "^<$prio>summary: .*$want ${sev}s" <<<"$err" &&
		result 1 "cli: --journal: each $sev at priority $prio, its fix too, and a summary" ||
		result 0 "cli: --journal: each $sev at priority $prio, its fix too, and a summary" \
			"want $want, got $got lines, $fixes fixes, $stray unprefixed: $err"
done
run "$bin" --sysfs-root "$tmp/blocked" --no-cuda --json
[ -z "$err" ] && result 1 "cli: without --journal, stderr stays quiet" ||
	result 0 "cli: without --journal, stderr stays quiet" "$err"

expect_rc 1 "cli: --baseline save" "$bin" --sysfs-root "$tmp/redirect" --no-cuda --baseline save "$tmp/base.json"
run "$bin" --sysfs-root "$tmp/redirect" --no-cuda --json --baseline check "$tmp/base.json"
v=$(json_get '[f["code"] for f in d["findings"] if f["code"].startswith("baseline")]')
[ "$rc" = 1 ] && [ "$v" = "[]" ] && result 1 "cli: --baseline check of the same server finds nothing" ||
	result 0 "cli: --baseline check of the same server finds nothing" "rc $rc $v"
run "$bin" --sysfs-root "$tmp/blocked" --no-cuda --json --baseline check "$tmp/base.json"
v=$(json_get 'sorted({f["code"] for f in d["findings"] if f["code"].startswith("baseline")})')
[ "$rc" = 2 ] && [ "$v" = "['baseline-device', 'baseline-verdict']" ] &&
	result 1 "cli: --baseline check of a server gone blocked finds device and verdict changes" ||
	result 0 "cli: --baseline check of a server gone blocked finds device and verdict changes" "rc $rc $v"
printf 'null' >"$tmp/null.json"
expect_rc 3 "cli: --baseline check of a file holding null exits 3" \
	"$bin" --sysfs-root "$tmp/redirect" --no-cuda --baseline check "$tmp/null.json"
case $err in *"null.json line 1: the document is JSON null, not a report"*)
	result 1 "cli: ... and says the document is null, not that it ends early";;
*) result 0 "cli: ... and says the document is null, not that it ends early" "$err";;
esac

# Files that never end or hold more than a baseline: refused, not read on.
expect_rc 3 "cli: --baseline check /dev/zero exits 3, not a hang" \
	timeout 20 "$bin" --sysfs-root "$tmp/redirect" --no-cuda --baseline check /dev/zero
case $err in *"larger than 64 MiB"*) result 1 "cli: ... saying it is larger than any baseline";;
	*) result 0 "cli: ... saying it is larger than any baseline" "$err";; esac
{ cat "$tmp/base.json"; echo '{"more": 1}'; } >"$tmp/base-twice.json"
expect_rc 3 "cli: a baseline with more after its JSON document exits 3" \
	"$bin" --sysfs-root "$tmp/redirect" --no-cuda --baseline check "$tmp/base-twice.json"
expect_rc 3 "cli: --cpuinfo /dev/zero exits 3, not a hang" \
	timeout 20 "$bin" --sysfs-root "$tmp/redirect" --no-cuda --cpuinfo /dev/zero
expect_rc 3 "cli: --topology-file /dev/zero exits 3" \
	timeout 20 "$bin" --topology-file /dev/zero
expect_rc 3 "cli: --pci-dump /dev/zero exits 3" timeout 20 "$bin" --pci-dump /dev/zero
expect_rc 1 "cli: a dump read from a pipe is judged as the file" \
	"$bin" --pci-dump <(cat "$dump") --cpuinfo "$tmp/cpu-amd"

# A FIFO (no writer: open() would block) or a device node where the module
# has a regular file, in --sysfs-root or under the root: a clear error
# naming the file, at once.
for f in topology generation; do
	cp -r "$tmp/ok" "$tmp/fifo-$f" && rm -f "$tmp/fifo-$f/$f" && mkfifo "$tmp/fifo-$f/$f"
	expect_rc 3 "cli: a FIFO as --sysfs-root's $f exits 3, not a hang" \
		timeout 20 "$bin" --sysfs-root "$tmp/fifo-$f" --no-cuda
	case $err in *"$tmp/fifo-$f/$f: a FIFO, not a regular file"*) result 1 "cli: ... naming the FIFO";;
		*) result 0 "cli: ... naming the FIFO" "$err";; esac
done
cp -r "$tmp/ok" "$tmp/devnull" && rm -f "$tmp/devnull/pairs" &&
	{ mknod "$tmp/devnull/pairs" c 1 3 2>/dev/null || ln -s /dev/null "$tmp/devnull/pairs"; }
expect_rc 3 "cli: a device node as --sysfs-root's pairs exits 3" \
	timeout 20 "$bin" --sysfs-root "$tmp/devnull" --no-cuda
# (not root: a link to /dev/null, which leads out of the tree)
case $err in *"$tmp/devnull/pairs: a character device, not a regular file"*|*"$tmp/devnull/pairs: a symbolic link on its way leads out of the tree"*)
	result 1 "cli: ... naming the device node";;
	*) result 0 "cli: ... naming the device node" "$err";; esac

# The same under the root for the files whose facts decide the judgement
# (the CPU, the kernel's release and command line, an IOMMU group's type):
# absent, the fact is unknown; there but no regular file, the root is bad
# input: exit 3 before any report, naming the file and what it is.
# special_root_file NAME REL KIND WHAT [ARGS...]: KIND fifo, chr or dir.
special_root_file() {
	local name=$1 rel=$2 kind=$3 what=$4 root
	shift 4
	root=$tmp/special-root-$n
	mkdir -p "$root/proc/sys/kernel" "$(dirname "$root/$rel")" &&
		cp "$tmp/hermetic/proc/cpuinfo" "$root/proc/" && rm -f "$root/$rel"
	case $kind in
	fifo) mkfifo "$root/$rel";;
	chr) mknod "$root/$rel" c 1 3 2>/dev/null || ln -s /dev/null "$root/$rel";;
	dir) mkdir "$root/$rel";;
	esac
	expect_rc 3 "cli: $name exits 3, not a hang" \
		timeout 20 env P2PDIAG_FSROOT="$root" "$bin" --no-cuda "$@"
	# not root, no device node: a link to /dev/null, which leads out
	[ -L "$root/$rel" ] && what="a symbolic link on its way leads out of $root: not followed" ||
		what="$what, not a regular file"
	case $err in *"cannot read $root/$rel: $what"*)
		[ -z "$out" ] && result 1 "cli: ... naming the file, with no report" ||
			result 0 "cli: ... naming the file, with no report" "$out";;
	*) result 0 "cli: ... naming the file, with no report" "$err";; esac
}
special_root_file "a FIFO as the root's /proc/cmdline" proc/cmdline fifo "a FIFO" \
	--sysfs-root "$tmp/ok"
special_root_file "a device node as the root's /proc/cmdline" proc/cmdline chr \
	"a character device" --sysfs-root "$tmp/ok"
special_root_file "a FIFO as the root's osrelease" proc/sys/kernel/osrelease fifo \
	"a FIFO" --sysfs-root "$tmp/ok"
special_root_file "a directory as the root's osrelease, read for --source=pci" \
	proc/sys/kernel/osrelease dir "a directory" --source=pci
special_root_file "a FIFO as the root's /proc/cpuinfo" proc/cpuinfo fifo "a FIFO" \
	--sysfs-root "$tmp/ok"
special_root_file "a FIFO as the root's /proc/cpuinfo with --cpuinfo given (the hypervisor flag)" \
	proc/cpuinfo fifo "a FIFO" --sysfs-root "$tmp/ok" --cpuinfo "$tmp/cpu-amd"
# The files read as unknown facts when absent: refused the same way
# (struct fsroot_refusal, given back by each reader), the informational
# ones included.
special_root_file "a FIFO as the root's DMI product name (the hypervisor's)" \
	sys/class/dmi/id/product_name fifo "a FIFO" --sysfs-root "$tmp/ok"
special_root_file "a FIFO as the root's DMI BIOS version (the fleet's)" \
	sys/class/dmi/id/bios_version fifo "a FIFO" --sysfs-root "$tmp/ok"
special_root_file "a directory as the root's /sys/hypervisor/type" \
	sys/hypervisor/type dir "a directory" --sysfs-root "$tmp/ok"
special_root_file "a FIFO as a GPU's AER counters" \
	sys/bus/pci/devices/0000:03:00.0/aer_dev_correctable fifo "a FIFO" --sysfs-root "$tmp/ok"
special_root_file "a device node as a GPU's config space" \
	sys/bus/pci/devices/0000:03:00.0/config chr "a character device" --sysfs-root "$tmp/ok"
special_root_file "a FIFO as the ASPM policy" \
	sys/module/pcie_aspm/parameters/policy fifo "a FIFO" --sysfs-root "$tmp/ok"
special_root_file "a FIFO as the NVIDIA driver's version" \
	sys/module/nvidia/version fifo "a FIFO" --sysfs-root "$tmp/ok"
special_root_file "a FIFO as nvidia-fs's version" \
	sys/module/nvidia_fs/version fifo "a FIFO" --sysfs-root "$tmp/ok"
special_root_file "a directory as peermem's version" \
	sys/kernel/mm/memory_peers/nv_mem/version dir "a directory" --sysfs-root "$tmp/ok"
special_root_file "a FIFO as the root's machine-id (the identity's)" \
	etc/machine-id fifo "a FIFO" --sysfs-root "$tmp/ok"
special_root_file "a FIFO as the root's kernel log" \
	var/log/dmesg fifo "a FIFO" --sysfs-root "$tmp/ok"
special_root_file "a directory as a GPU's resource file (its BARs)" \
	sys/bus/pci/devices/0000:03:00.0/resource dir "a directory" --sysfs-root "$tmp/ok"
sed 's/iommu_group=none iommu_domain=none p2p_endpoint=1/iommu_group=4 iommu_domain=unknown p2p_endpoint=1/' \
	"$fix/switchacs.topo" >"$tmp/grouped.topo"
mkdir -p "$tmp/grouped" && "$tool" --make-tree "$tmp/grouped" "topo:$tmp/grouped.topo" ||
	echo "# cannot make tree grouped"
special_root_file "a FIFO as an IOMMU group's type file" sys/kernel/iommu_groups/4/type fifo \
	"a FIFO" --sysfs-root "$tmp/grouped"
mkdir -p "$tmp/grouped-root/sys/kernel/iommu_groups/4" &&
	cp -r "$tmp/hermetic/proc" "$tmp/grouped-root/" &&
	echo DMA >"$tmp/grouped-root/sys/kernel/iommu_groups/4/type"
expect_rc 2 "cli: an IOMMU group's regular type file is read (the tree judged)" \
	env P2PDIAG_FSROOT="$tmp/grouped-root" "$bin" --no-cuda --sysfs-root "$tmp/grouped"
case $out in *iommu-translated*) result 1 "cli: ... its type (DMA: translated) taken for the group's functions";;
	*) result 0 "cli: ... its type (DMA: translated) taken for the group's functions" "$out";; esac
echo '{"schema": 1}' >"$tmp/bad.json"
expect_rc 3 "cli: a file that is not a baseline exits 3" "$bin" --sysfs-root "$tmp/ok" --no-cuda --baseline check "$tmp/bad.json"

mkdir -p "$tmp/same" && "$tool" --make-tree "$tmp/same" "dump:$dump"
run "$bin" --cross-check --sysfs-root "$tmp/same" --pci-dump "$dump" --cpuinfo "$tmp/cpu-amd" --json
v=$(json_get 'sorted({f["code"] for f in d["findings"]})')
[ "$rc" = 1 ] && [ "$v" = "['acs-redirect', 'link-slow-idle']" ] &&
	result 1 "cli: --cross-check of agreeing sources adds no finding" ||
	result 0 "cli: --cross-check of agreeing sources adds no finding" "rc $rc $v $err"
sed -i 's/^0x001d$/0x0000/' "$tmp/same/devices/0000:00:01.1/acs_ctrl"
sed -i '2,$s/ verdict=redirected / verdict=ok /' "$tmp/same/pairs" && retrail "$tmp/same/pairs"
run "$bin" --cross-check --sysfs-root "$tmp/same" --pci-dump "$dump" --cpuinfo "$tmp/cpu-amd" --json
v=$(json_get 'sorted({f["code"] for f in d["findings"] if f["code"].startswith("cross") or f["code"].startswith("engine")})')
m=$(json_get '[f["message"] for f in d["findings"] if f["code"]=="cross-check-mismatch"]')
[ "$v" = "['cross-check-mismatch', 'cross-check-pairs', 'engine-mismatch']" ] &&
	case $m in *"acs_ctrl module '0x0000' libpci '0x001d'"*) true;; *) false;; esac &&
	result 1 "cli: --cross-check reports a differing field and differing pairs" ||
	result 0 "cli: --cross-check reports a differing field and differing pairs" "$v $m"
expect_rc 3 "cli: --cross-check without the module exits 3" "$bin" --cross-check --sysfs-root "$tmp/empty" --no-cuda

# One root for system reads: the module's files under it too, unless --sysfs-root.
mkdir -p "$tmp/root/sys/kernel/p2pdiag" "$tmp/root/proc" && cp "$tmp/cpu-amd" "$tmp/root/proc/cpuinfo" &&
	"$tool" --make-tree "$tmp/root/sys/kernel/p2pdiag" ok
run "$bin" --root "$tmp/root" --no-cuda
case $out in *"source: module ($tmp/root/sys/kernel/p2pdiag, read in 1 attempt)"*) result 1 "cli: --root finds the module's files under it";;
	*) result 0 "cli: --root finds the module's files under it" "$(head -3 <<<"$out") $err";; esac
run env P2PDIAG_FSROOT="$tmp/root" "$bin" --no-cuda
case $out in *"source: module ($tmp/root/sys/kernel/p2pdiag,"*) result 1 "cli: \$P2PDIAG_FSROOT is the default root";;
	*) result 0 "cli: \$P2PDIAG_FSROOT is the default root" "$(head -3 <<<"$out") $err";; esac
expect_rc 3 "cli: --root that is no directory exits 3" "$bin" --root "$tmp/cpu-amd" --no-cuda
case $err in *"$tmp/cpu-amd is not a directory"*) result 1 "cli: ... and says why";;
	*) result 0 "cli: ... and says why" "$err";; esac

# GPUDirect readiness in the three outputs (fixture trees: fixtures/system/).
sysfix=$fix/system
run "$bin" --topology-file "$sysfix/server.topo" --root "$sysfix/peermem" --no-cuda --json --prometheus "$tmp/gd.prom"
v=$(json_get '[(p["gpu"], p["peer"], p["route"], p["ready"], p["nccl_gdr"]) for p in d["system"]["gpudirect"]["pairs"] if p["kind"] == "rdma"]')
[ "$v" = "[('0000:02:00.0', '0000:1c:00.0', 'peermem', True, False), ('0000:1b:00.0', '0000:1c:00.0', 'peermem', True, True)]" ] &&
	result 1 "cli: JSON carries the RDMA route and NCCL's GDR decision per GPU-NIC pair" ||
	result 0 "cli: JSON carries the RDMA route and NCCL's GDR decision per GPU-NIC pair" "$v $err"
grep -q '^p2pdiag_gpudirect_ready{pci_bus_id="00000000:1B:00.0",peer="0000:1d:00.0",kind="storage",route="compat"} 0$' "$tmp/gd.prom" &&
	grep -q '^p2pdiag_nccl_gdr{pci_bus_id="00000000:1B:00.0",nic="0000:1c:00.0"} 1$' "$tmp/gd.prom" &&
	result 1 "cli: the textfile carries readiness and NCCL's GDR decision per pair" ||
	result 0 "cli: the textfile carries readiness and NCCL's GDR decision per pair" "$(grep gpudirect "$tmp/gd.prom")"
run "$bin" --topology-file "$sysfix/server.topo" --root "$sysfix/peermem-broken" --no-cuda
case $out in *"gdr-peermem-unregistered"*"GPU 0000:1b:00.0 - NIC 0000:1c:00.0 (driver mlx5_core, RDMA device mlx5_0): RDMA route none, not ready"*)
	[ "$rc" = 1 ] && result 1 "cli: the text report shows the pair's route and the peermem warning, exit 1" ||
		result 0 "cli: the text report shows the pair's route and the peermem warning, exit 1" "rc $rc";;
	*) result 0 "cli: the text report shows the pair's route and the peermem warning, exit 1" "$out";; esac
run env -u P2PDIAG_FSROOT "$bin" --topology-file "$sysfix/server.topo" --no-cuda
case $out in *"system: not read"*) result 1 "cli: a saved topology without --root reads no system files";;
	*) result 0 "cli: a saved topology without --root reads no system files" "$out";; esac

# --graph: the lab's switchacs tree drawn by Graphviz (.ci/deps installs it).
sacs=$fix/switchacs.topo
if command -v dot >/dev/null; then
	expect_rc 2 "cli: --graph FILE.svg draws switchacs (exit status still the verdicts')" \
		"$bin" --topology-file "$sacs" --graph "$tmp/sacs.svg" --graph-pair GPU1,NIC2
	svg=$(cat "$tmp/sacs.svg" 2>/dev/null)
	ok=1 why=
	for want in '<svg' '<title>fn_00000700</title>' '>GPU1 0000:07:00.0<' '>NVMe0 0000:04:00.0<' \
		'>ACS redirect RR+CR: 4 pairs<' '>does not route P2P: 14 pairs blocked<' \
		'highlighted: GPU1 0000:07:00.0 to NIC2 0000:08:00.0: ok'; do
		case $svg in *"$want"*) ;; *) ok=0 why="$why missing '$want';";; esac
	done
	result $ok "cli: ... the SVG has the endpoints, the marks and the highlighted pair" "$why"
	[ ! -e "$tmp/sacs.svg.tmp" ] && result 1 "cli: ... and leaves no temporary file" ||
		result 0 "cli: ... and leaves no temporary file"
	run "$bin" --topology-file "$sacs" --graph "$tmp/sacs.png"
	[ "$(head -c 8 "$tmp/sacs.png" 2>/dev/null | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] &&
		result 1 "cli: --graph FILE.png writes a PNG" || result 0 "cli: --graph FILE.png writes a PNG" "$err"
else
	result 0 "cli: --graph FILE.svg draws switchacs" "dot is not installed: run .ci/deps (graphviz)"
fi
run "$bin" --topology-file "$sacs" --graph "$tmp/sacs.dot"
if [ "$rc" = 2 ] && command -v dot >/dev/null && dot -Tcanon "$tmp/sacs.dot" >/dev/null 2>"$tmp/dot.err"; then
	result 1 "cli: --graph FILE.dot writes DOT that dot reads"
else
	result 0 "cli: --graph FILE.dot writes DOT that dot reads" "exit $rc: $err $(cat "$tmp/dot.err" 2>/dev/null)"
fi
expect_rc 3 "cli: --graph FILE.jpg exits 3" "$bin" --topology-file "$sacs" --graph "$tmp/sacs.jpg"
case $err in *".dot or .gv file (DOT text), .svg or .png"*) result 1 "cli: ... and names what works";;
	*) result 0 "cli: ... and names what works" "$err";; esac
expect_rc 3 "cli: --graph-pair without --graph exits 3" "$bin" --topology-file "$sacs" --graph-pair GPU0,NIC0
expect_rc 3 "cli: --graph-pair GPU9 exits 3" "$bin" --topology-file "$sacs" --graph "$tmp/x.dot" --graph-pair GPU9,NIC0
case $err in *"'GPU9' is no P2P endpoint here"*"GPU0 to NVMe0"*) result 1 "cli: ... and lists the labels";;
	*) result 0 "cli: ... and lists the labels" "$err";; esac
[ ! -e "$tmp/x.dot" ] && result 1 "cli: ... before writing anything" || result 0 "cli: ... before writing anything"
expect_rc 3 "cli: --graph FILE.svg without dot in PATH exits 3" \
	env PATH=/nonexistent "$bin" --topology-file "$sacs" --graph "$tmp/nodot.svg"
case $err in *"install graphviz"*"$tmp/nodot.dot"*) result 1 "cli: ... and says to install graphviz or write .dot";;
	*) result 0 "cli: ... and says to install graphviz or write .dot" "$err";; esac
expect_rc 2 "cli: --graph into a missing directory keeps the verdict's exit 2" \
	"$bin" --topology-file "$sacs" --graph "$tmp/none/x.dot"
case $err in *"cannot write $tmp/none/x.dot: its directory $tmp/none: No such file"*) result 1 "cli: ... and names the file";;
	*) result 0 "cli: ... and names the file" "$err";; esac

# One screen: findings grouped by cause, one kernel parameter for the machine.
efix=$fix/../../fixtures
grep -v '^expect ' "$efix/03-amd-root-ports-acs.topo" >"$tmp/03.topo"
run "$bin" --topology-file "$tmp/03.topo" --no-cuda
params=$(grep -c 'pci=disable_acs_redir=' <<<"$out")
[ "$rc" = 1 ] && [ "$params" = 1 ] &&
	grep -qx '    pci=disable_acs_redir=0000:00:01.1;0000:00:01.2;0000:00:03.1;0000:04:00.0;0000:04:01.0;0000:40:01.1' <<<"$out" &&
	result 1 "cli: 03 (20 per-pair findings): one kernel parameter naming the six ports" ||
	result 0 "cli: 03 (20 per-pair findings): one kernel parameter naming the six ports" "rc $rc, $params lines: $out"
causes=$(grep -Ec '^  (error|warning|info) ' <<<"$out")
# (the third line: what the fix costs in IOMMU groups, once for the machine)
[ "$causes" = 3 ] && grep -q '^  warning acs-redirect  10 pairs: GPU0-GPU1, ' <<<"$out" &&
	grep -q '^  warning iommu-translated  10 pairs: ' <<<"$out" && ! grep -q 'fix: kernel command line' <<<"$out" &&
	grep -q '^  info    fix-merges-groups$' <<<"$out" &&
	result 1 "cli: ... two cause lines instead of 20 findings, no per-pair fix, and the fix's cost" ||
	result 0 "cli: ... two cause lines instead of 20 findings, no per-pair fix, and the fix's cost" "$causes causes: $out"
first=$(head -8 <<<"$out")
case $first in *"P2P here: works, but not as it should."*"Do this: boot with this one kernel parameter"*) result 1 "cli: ... the first lines say how P2P is and what to do";;
	*) result 0 "cli: ... the first lines say how P2P is and what to do" "$first";; esac
run "$bin" --topology-file "$tmp/03.topo" --no-cuda --verbose
[ "$(grep -c '^  warning acs-redirect$' <<<"$out")" = 10 ] && [ "$(grep -c '^  warning iommu-translated$' <<<"$out")" = 10 ] &&
	[ "$(grep -c ' a=0000:' <<<"$out")" = 10 ] &&
	result 1 "cli: ... --verbose keeps all 20 findings with their fixes and the 10 pair lines" ||
	result 0 "cli: ... --verbose keeps all 20 findings with their fixes and the 10 pair lines" "$out"
run "$bin" --topology-file "$tmp/03.topo" --no-cuda --json
[ "$(json_get 'len(d["findings"])')" = 21 ] &&
	[ "$(json_get 'd["summary"]["fix"]["ports"]')" = "['0000:00:01.1', '0000:00:01.2', '0000:00:03.1', '0000:04:00.0', '0000:04:01.0', '0000:40:01.1']" ] &&
	[ "$(json_get '[(c["code"], len(c["pairs"]), c["fix"]) for c in d["causes"]]')" = "[('acs-redirect', 10, 'machine'), ('iommu-translated', 10, 'shared'), ('fix-merges-groups', 0, 'shared')]" ] &&
	result 1 "cli: ... JSON keeps every finding and adds the causes and the machine-wide fix" ||
	result 0 "cli: ... JSON keeps every finding and adds the causes and the machine-wide fix" "$(json_get 'd.get("causes"), d["summary"]')"
# 8 GPUs and 8 NICs behind four switches, every root and downstream port redirecting
grep -v '^expect ' "$efix/02-eight-gpu-four-switches.topo" |
	sed -E '/role=(downstream_port|root_port)/{s/acs_ctrl=0x[0-9a-f]{4}/acs_ctrl=0x001d/;s/acs=SrcValid[^ ]*DirectTrans./acs=SrcValid+\\x20TransBlk-\\x20ReqRedir+\\x20CmpltRedir+\\x20UpstreamFwd+\\x20EgressCtrl-\\x20DirectTrans-/}' >"$tmp/02acs.topo"
run "$bin" --topology-file "$tmp/02acs.topo" --no-cuda
screen=$(sed '/^(1) Topology /,$d' <<<"$out")
ports=$(grep -o 'pci=disable_acs_redir=[^ ]*' <<<"$out" | tr ';' '\n' | wc -l)
[ "$rc" = 1 ] && [ "$(wc -l <<<"$screen")" -le 24 ] && [ "$ports" = 20 ] &&
	grep -q '^  warning acs-redirect  120 pairs: ' <<<"$screen" &&
	result 1 "cli: 8 GPUs + 8 NICs, 120 redirected pairs: verdict, fix and causes in 24 lines, one parameter for 20 ports" ||
	result 0 "cli: 8 GPUs + 8 NICs, 120 redirected pairs: verdict, fix and causes in 24 lines, one parameter for 20 ports" "rc $rc, $ports ports: $screen"
# A saved topology that lacks bridges: a pair whose chains do not meet below
# the gap has no class, map, distance or common point (never another host
# bridge's); one that meets below it keeps the kernel's map and distance.
grep -v '^expect ' "$efix/12-missing-parent.topo" >"$tmp/12.topo"
run "$bin" --topology-file "$tmp/12.topo" --no-cuda --json
v=$(json_get '[(p["a"][5:], p["b"][5:], p["class"], p["map"], p["distance"], p["common"], p["verdict"]) for p in d["pairs"]]')
[ "$v" = "[('01:00.0', '03:00.0', 'unknown', 'unknown', None, 'unknown', 'unknown'), ('01:00.0', '06:00.0', 'unknown', 'unknown', None, 'unknown', 'unknown'), ('03:00.0', '06:00.0', 'unknown', 'unknown', None, 'unknown', 'unknown'), ('06:00.0', '06:00.1', 'PIX', 'bus_addr', 2, '0000:05:00.0', 'unknown')]" ] &&
	result 1 "cli: 12 (bridges missing from the file): class, map, distance, common unknown in JSON; below the gap the kernel's" ||
	result 0 "cli: 12 (bridges missing from the file): class, map, distance, common unknown in JSON; below the gap the kernel's" "$v"
run "$bin" --topology-file "$tmp/12.topo" --no-cuda
matrix=$(sed -n '/^(1) Topology /,/^$/p' <<<"$out")
[ "$rc" = 1 ] && grep -qx 'GPU0     X     ?      ?      0' <<<"$matrix" &&
	! grep -Eq 'PHB|NODE|SYS' <<<"$matrix" &&
	grep -q '? = not known: a bridge on the path is missing from the snapshot' <<<"$out" &&
	grep -q "(unknown, where they meet is not in the snapshot): verdict unknown: an upstream bridge is missing from the snapshot" <<<"$out" &&
	grep -q "^Do this: judge the whole tree: the module's /sys/kernel/p2pdiag/topology" <<<"$out" &&
	result 1 "cli: ... the text's matrix says ? (explained), the finding says why and what to do" ||
	result 0 "cli: ... the text's matrix says ? (explained), the finding says why and what to do" "rc $rc: $out"
grep -v '^expect ' "$efix/02-eight-gpu-four-switches.topo" >"$tmp/02.topo"
run "$bin" --topology-file "$tmp/02.topo" --no-cuda
case $out in *"P2P here: healthy as far as the topology shows (not measured). 120 pairs judged: "*"Nothing to change."*"Root cause: undecided"*"1. healthy (likely)"*"decide: p2pdiag-check without --quick"*) [ "$rc" = 0 ] && result 1 "cli: a healthy topology says so, that it was not measured, and how to decide" ||
	result 0 "cli: a healthy topology says so, that it was not measured, and how to decide" "rc $rc";;
	*) result 0 "cli: a healthy topology says so, that it was not measured, and how to decide" "$(head -14 <<<"$out")";; esac
# One GPU and nothing else below the root port: no pair, so no grounds
# for "healthy", in the text, --summary and the JSON alike.
awk '!/^addr=/ || /^addr=0000:(00:00\.0|00:01\.1|01:00\.0|02:00\.0|03:00\.0) /' "$tmp/02.topo" |
	sed 's/functions=43/functions=5/' >"$tmp/one-gpu.topo"
run "$bin" --topology-file "$tmp/one-gpu.topo" --no-cuda
text=$out text_rc=$rc
run "$bin" --topology-file "$tmp/one-gpu.topo" --no-cuda --summary
summary=$out
run "$bin" --topology-file "$tmp/one-gpu.topo" --no-cuda --json
v=$("$PYTHON" -c 'import json,sys; d=json.load(sys.stdin); s=d["summary"]; print(s["state"], s["grounds"], d["root_cause"])' <<<"$out" 2>&1)
[ "$text_rc" = 0 ] && [[ $text == *"P2P here: undecided: no pair of P2P endpoints to judge. 0 pairs judged"* ]] &&
	[[ $text != *"healthy"* ]] && [ "$summary" = "undecided: no pair of P2P endpoints to judge" ] &&
	[ "$v" = "undecided no-pair undecided" ] &&
	result 1 "cli: one GPU and no other endpoint is undecided, never healthy (text, --summary, JSON)" ||
	result 0 "cli: one GPU and no other endpoint is undecided, never healthy (text, --summary, JSON)" "rc $text_rc, summary '$summary', json '$v': $(sed -n 5,8p <<<"$text")"
# The same GPU beside a virtio NIC (as in a cloud VM): their pair has no
# P2P data path, so it is still no pair to judge.
{ sed 's/functions=5/functions=7/' "$tmp/one-gpu.topo"
  grep '^addr=0000:00:03\.1 ' "$tmp/02.topo"
  grep '^addr=0000:05:00\.0 ' "$tmp/02.topo" |
	sed 's/^addr=0000:05:00.0 /addr=0000:41:00.0 /; s/parent=0000:02:02.0/parent=0000:00:03.1/; s/vendor=0x15b3 device=0x101b class=0x020700/vendor=0x1af4 device=0x1041 class=0x020000/'
} >"$tmp/one-gpu-virtio.topo"
run "$bin" --topology-file "$tmp/one-gpu-virtio.topo" --no-cuda --summary
summary=$out summary_rc=$rc
run "$bin" --topology-file "$tmp/one-gpu-virtio.topo" --no-cuda
[ "$summary_rc" = 0 ] && [ "$summary" = "undecided: no pair of P2P endpoints to judge" ] &&
	[[ $out == *"1 pairs judged"* || $out == *"1 pair judged"* ]] && [[ $out == *paravirtual-pair* ]] &&
	result 1 "cli: one GPU and a virtio NIC: their pair is judged, and is no ground for healthy" ||
	result 0 "cli: one GPU and a virtio NIC: their pair is judged, and is no ground for healthy" "rc $summary_rc, summary '$summary': $(sed -n 1,12p <<<"$out")"

# Fleet context: a baseline from before a BIOS and kernel update and a slot swap.
run "$bin" --topology-file "$sysfix/server.topo" --root "$sysfix/fleet-before" --no-cuda --baseline save "$tmp/fleet.json"
run "$bin" --topology-file "$sysfix/server.topo" --root "$sysfix/fleet-after" --no-cuda --json --baseline check "$tmp/fleet.json"
v=$(json_get '[f["message"] for f in d["findings"] if f["code"] == "baseline-context"]')
case $v in *"bios_version '2.1.3' -> '2.2.0'"*"slots '3=0000:1b:00 4=0000:1c:00 5=0000:1d:00' -> '3=0000:1b:00 4=0000:1d:00 5=0000:1c:00'"*)
	case $v in *"kernel '6.1.0-27-amd64' -> '6.1.0-28-amd64'"*) result 1 "cli: --baseline check says what changed: BIOS, kernel, slots";;
		*) result 0 "cli: --baseline check says what changed: BIOS, kernel, slots" "$v";; esac;;
	*) result 0 "cli: --baseline check says what changed: BIOS, kernel, slots" "$v $err";; esac
v=$(json_get 'd["system"]["context"]["slots"][1], d["system"]["context"]["bios_vendor"]')
[ "$v" = "{'name': '4', 'addr': '0000:1d:00'} American Megatrends International, LLC." ] &&
	result 1 "cli: JSON carries slots and firmware" || result 0 "cli: JSON carries slots and firmware" "$v"

# SR-IOV: a switch with two NICs, each a PF and 3 VFs (tests/bench's
# sriov_topology 1 2 3): the PFs and the VFs of each NIC are judged alike
# as the module groups them; grouped by default, every pair on request.
sriov=$fix/sriov-switch.topo
run "$bin" --topology-file "$sriov" --no-cuda --json
v=$(json_get '[g["members"] for g in d["groups"]], len(d["pairs"]), sum(p["count"] for p in d["pairs"])')
[ "$rc" = 0 ] && [ "$v" = "[['0000:03:00.0'], ['0000:03:00.1', '0000:03:00.2', '0000:03:00.3'], ['0000:04:00.0'], ['0000:04:00.1', '0000:04:00.2', '0000:04:00.3']] 8 28" ] &&
	result 1 "cli: SR-IOV pairs grouped: 4 groups, 8 group pairs for 28 pairs" ||
	result 0 "cli: SR-IOV pairs grouped: 4 groups, 8 group pairs for 28 pairs" "rc $rc: $v"
grouped=$out
run "$bin" --topology-file "$sriov" --no-cuda --json --expand-pairs
v=$(json_get 'd["groups"], len(d["pairs"]), {p["count"] for p in d["pairs"]}, {p["group_a"] for p in d["pairs"]}')
[ "$rc" = 0 ] && [ "$v" = "[] 28 {1} {None}" ] &&
	result 1 "cli: --expand-pairs lists all 28 pairs, each alone" ||
	result 0 "cli: --expand-pairs lists all 28 pairs, each alone" "rc $rc: $v"
# every expanded pair has the judgement of the group pair that stood for it
v=$("$PYTHON" -c '
import json, sys
g = json.loads(sys.argv[1]); e = json.loads(sys.argv[2])
of = {a: x["group"] for x in g["groups"] for a in x["members"]}
gp = {(p["group_a"], p["group_b"]): p for p in g["pairs"]}
keys = ("class", "verdict", "map", "distance", "common", "bottleneck", "degraded", "nccl_p2p")
bad = [(p["a"], p["b"], k) for p in e["pairs"] for k in keys
       if p[k] != gp[tuple(sorted((of[p["a"]], of[p["b"]])))][k]]
print(len(e["pairs"]), bad)' "$grouped" "$out" 2>&1)
[ "$v" = "28 []" ] && result 1 "cli: each of the 28 pairs has its group pair's judgement" ||
	result 0 "cli: each of the 28 pairs has its group pair's judgement" "$v"
run "$bin" --topology-file "$sriov" --no-cuda
case $out in *"28 pairs judged: 28 direct (8 group pairs of 4 endpoint groups judged alike; each pair alone: --expand-pairs)"*"NIC"*"and 2 more judged alike (group 1)"*)
	result 1 "cli: the text report counts the pairs and names the groups";;
	*) result 0 "cli: the text report counts the pairs and names the groups" "$(head -12 <<<"$out")";; esac
# 1,500 more VFs: 1,136,278 pairs are too many one by one, and fine grouped.
"$PYTHON" - "$sriov" "$tmp/many.topo" <<'PY'
import re, sys
lines = open(sys.argv[1]).read().splitlines()
head, body = lines[0], [l for l in lines[1:] if l.startswith("addr=")]
vf = next(l for l in body if l.startswith("addr=0000:03:00.1 "))
extra = []
for i in range(1500):
    bus, fn = 0x10 + i // 256, i % 256
    extra.append(vf.replace("addr=0000:03:00.1 ", "addr=0000:%02x:%02x.%x " % (bus, fn >> 3, fn & 7), 1))
body = sorted(body + extra)
head = re.sub(r"functions=[0-9]+", "functions=%d" % len(body), head)
open(sys.argv[2], "w").write("\n".join([head] + body) + "\n")
PY
expect_rc 3 "cli: --expand-pairs past 1000000 pairs exits 3" \
	"$bin" --topology-file "$tmp/many.topo" --no-cuda --expand-pairs
case $err in *"1136278 pairs to judge one by one, more than 1000000"*"--pairs"*) result 1 "cli: ... saying how many and what to do instead";;
	*) result 0 "cli: ... saying how many and what to do instead" "$err";; esac
run "$bin" --topology-file "$tmp/many.topo" --no-cuda --json
v=$(json_get 'len(d["groups"]), len(d["pairs"]), sum(p["count"] for p in d["pairs"])')
[ "$rc" = 0 ] && [ "$v" = "4 8 1136278" ] && result 1 "cli: ... grouped, the same tree is 8 group pairs" ||
	result 0 "cli: ... grouped, the same tree is 8 group pairs" "rc $rc: $v $err"

# The textfile counts what each grouped series stands for: 28 pairs in 8
# (every pair's series: --prometheus-pairs=all).
expect_rc 0 "cli: --prometheus on the SR-IOV tree" "$bin" --topology-file "$sriov" --no-cuda \
	--prometheus "$tmp/sriov.prom" --prometheus-pairs=all
v=$(awk '/^p2pdiag_pair_endpoint_pairs\{/ { n++; s += $2 } /^p2pdiag_pair_endpoint_pairs\{a="0000:03:00.1",b="0000:04:00.1"\}/ { vv = $2 }
	END { print n, s, vv }' "$tmp/sriov.prom")
[ "$v" = "8 28 9" ] && result 1 "cli: p2pdiag_pair_endpoint_pairs: one series per group pair, 28 pairs in all, 9 for the two VF groups" ||
	result 0 "cli: p2pdiag_pair_endpoint_pairs: one series per group pair, 28 pairs in all, 9 for the two VF groups" "$v"
# By default only pairs that are not ok or host get series of their own;
# p2pdiag_pairs still counts every pair by verdict.
expect_rc 0 "cli: --prometheus on the SR-IOV tree, the default pairs" "$bin" --topology-file "$sriov" --no-cuda \
	--prometheus "$tmp/sriov-default.prom"
v=$(awk '/^p2pdiag_pair_(info|endpoint_pairs|blockers)\{/ { n++ } /^p2pdiag_pairs\{/ { s += $2 }
	END { print n + 0, s }' "$tmp/sriov-default.prom")
[ "$v" = "0 28" ] && result 1 "cli: ... by default a healthy tree writes no per-pair series, p2pdiag_pairs counts all 28" ||
	result 0 "cli: ... by default a healthy tree writes no per-pair series, p2pdiag_pairs counts all 28" "$v"
expect_rc 3 "cli: --prometheus-pairs=some is refused" "$bin" --topology-file "$sriov" --no-cuda \
	--prometheus "$tmp/x.prom" --prometheus-pairs=some

# A grouped baseline stands for every pair of its groups: a VF whose ACS
# changed is found in each pair it is part of, although the baseline's
# entries name other members (03:00.1, 04:00.1).
run "$bin" --topology-file "$sriov" --no-cuda --baseline save "$tmp/sriov-grouped.json"
sed '/^addr=0000:04:00.3 /s/acs_cap=none acs_ctrl=none acs=none/acs_cap=0x005f acs_ctrl=0x001d acs=SrcValid+\\x20TransBlk-\\x20ReqRedir+\\x20CmpltRedir+\\x20UpstreamFwd+\\x20EgressCtrl-\\x20DirectTrans-/' \
	"$sriov" >"$tmp/sriov-vf.topo" && retrail "$tmp/sriov-vf.topo"
run "$bin" --topology-file "$tmp/sriov-vf.topo" --no-cuda --json --baseline check "$tmp/sriov-grouped.json"
v=$(json_get '[f["message"] for f in d["findings"] if f["code"] == "baseline-verdict"]')
[ "$rc" = 1 ] && [ "$v" = "['0000:03:00.0 and 0000:04:00.3: verdict redirected here, ok on the baseline (1 of the 3 pairs the baseline judged alike)', '0000:03:00.1 and 0000:04:00.3: verdict redirected here, ok on the baseline (3 of the 9 pairs the baseline judged alike)', '0000:04:00.0 and 0000:04:00.3: verdict redirected here, ok on the baseline (1 of the 3 pairs the baseline judged alike)', '0000:04:00.1 and 0000:04:00.3: verdict redirected here, ok on the baseline (2 of the 3 pairs the baseline judged alike)']" ] &&
	result 1 "cli: --baseline check finds a change in any pair of a group, with how many of the group's pairs" ||
	result 0 "cli: --baseline check finds a change in any pair of a group, with how many of the group's pairs" "rc $rc: $v"
# the other way round: the baseline's split groups fall in this run's one group
run "$bin" --topology-file "$tmp/sriov-vf.topo" --no-cuda --baseline save "$tmp/sriov-split.json"
run "$bin" --topology-file "$sriov" --no-cuda --json --baseline check "$tmp/sriov-split.json"
v=$(json_get '[f["message"] for f in d["findings"] if f["code"] == "baseline-verdict"]')
[ "$rc" = 1 ] && [ "$v" = "['0000:03:00.0 and 0000:04:00.3: verdict ok here, redirected on the baseline', '0000:03:00.1 and 0000:04:00.3: verdict ok here, redirected on the baseline (3 of the 3 pairs the baseline judged alike)', '0000:04:00.0 and 0000:04:00.3: verdict ok here, redirected on the baseline', '0000:04:00.1 and 0000:04:00.3: verdict ok here, redirected on the baseline (2 of the 2 pairs the baseline judged alike)']" ] &&
	result 1 "cli: ... and a baseline of split groups is checked against this run's merged one" ||
	result 0 "cli: ... and a baseline of split groups is checked against this run's merged one" "rc $rc: $v"
# A baseline without groups or counts (from before grouping: each entry
# one pair) still loads, and each of its pairs is checked.
"$PYTHON" - "$tmp/sriov-grouped.json" "$tmp/sriov-old.json" "$tmp/sriov-expanded.json" <<'PY' 2>&1
import json, sys
d = json.load(open(sys.argv[1]))
del d["groups"]
for p in d["pairs"]:
    for k in ("group_a", "group_b", "count"):
        del p[k]
json.dump(d, open(sys.argv[2], "w"))
PY
run "$bin" --topology-file "$sriov" --no-cuda --json --baseline check "$tmp/sriov-old.json"
v=$(json_get '[f["code"] for f in d["findings"] if f["code"].startswith("baseline")]')
[ "$rc" = 0 ] && [ "$v" = "[]" ] && result 1 "cli: a baseline without groups and counts loads, and the same server finds nothing" ||
	result 0 "cli: a baseline without groups and counts loads, and the same server finds nothing" "rc $rc: $v $err"
run "$bin" --topology-file "$sriov" --no-cuda --expand-pairs --baseline save "$tmp/sriov-expanded.json"
run "$bin" --topology-file "$tmp/sriov-vf.topo" --no-cuda --json --baseline check "$tmp/sriov-expanded.json"
v=$(json_get 'sorted((f["a"], f["b"]) for f in d["findings"] if f["code"] == "baseline-verdict")')
[ "$rc" = 1 ] && [ "$v" = "[('0000:03:00.0', '0000:04:00.3'), ('0000:03:00.1', '0000:04:00.3'), ('0000:03:00.2', '0000:04:00.3'), ('0000:03:00.3', '0000:04:00.3'), ('0000:04:00.0', '0000:04:00.3'), ('0000:04:00.1', '0000:04:00.3'), ('0000:04:00.2', '0000:04:00.3')]" ] &&
	result 1 "cli: a baseline of every pair alone finds each of the VF's 7 pairs" ||
	result 0 "cli: a baseline of every pair alone finds each of the VF's 7 pairs" "rc $rc: $v"

# The JSON report names the kernel release and the P2PDMA list that judged
# it, as the text report's "P2PDMA list:" line does: the header's kernel=
# (else the osrelease of a --root at that machine's files), 5.10's for an
# older kernel (the oldest p2pdiag supports), the newest for a newer one or
# where the release is not known (no kernel=, a dump without --root).
wl=$(dirname "$fix")/../fixtures/14-whitelist-kernel-6.12.topo
newest=$(grep -v '^expect ' "$wl" | sed '1s/ kernel=[^ ]*//' >"$tmp/wl.topo" &&
	"$bin" --topology-file "$tmp/wl.topo" --no-cuda --no-color 2>/dev/null |
	sed -n "s/^P2PDMA list: kernel release not known: judged by Linux \([0-9.]*\)'s list, the newest p2pdiag knows$/\1/p")
kernel_case() { # kernel_case NAME WANT_JSON WANT_TEXT ARGS...
	local name=$1 want=$2 text=$3
	shift 3
	run "$@" --json
	v=$(json_get 'd["kernel_release"], d["p2pdma_list"]')
	t=$("$@" --no-color 2>/dev/null | grep '^P2PDMA list:')
	[ -n "$newest" ] && [ "$v" = "$want" ] && [ "$t" = "$text" ] && result 1 "cli: JSON kernel_release, p2pdma_list: $name" ||
		result 0 "cli: JSON kernel_release, p2pdma_list: $name" "rc $rc: $v / $t / newest '$newest'"
}
kernel_case "no kernel= is null and the newest list" "None $newest" \
	"P2PDMA list: kernel release not known: judged by Linux $newest's list, the newest p2pdiag knows" \
	"$bin" --topology-file "$tmp/wl.topo" --no-cuda
grep -v '^expect ' "$wl" >"$tmp/wl612.topo"
kernel_case "kernel=6.12.95 is its own list" "6.12.95 6.12.95" "P2PDMA list: Linux 6.12.95's" \
	"$bin" --topology-file "$tmp/wl612.topo" --no-cuda
sed '1s/ kernel=[^ ]*/ kernel=5.10.0/' "$tmp/wl612.topo" >"$tmp/wl510.topo"
kernel_case "kernel=5.10.0 is its own list" "5.10.0 5.10.0" "P2PDMA list: Linux 5.10.0's" \
	"$bin" --topology-file "$tmp/wl510.topo" --no-cuda
sed '1s/ kernel=[^ ]*/ kernel=4.19.0/' "$tmp/wl612.topo" >"$tmp/wl419.topo"
kernel_case "kernel=4.19.0 is judged by 5.10's, the oldest supported" "4.19.0 5.10.0" \
	"P2PDMA list: Linux 4.19.0's, judged by Linux 5.10.0's (p2pdiag supports no older kernel)" \
	"$bin" --topology-file "$tmp/wl419.topo" --no-cuda
sed '1s/ kernel=[^ ]*/ kernel=99.1.0/' "$tmp/wl612.topo" >"$tmp/wl991.topo"
kernel_case "kernel=99.1.0 is judged by the newest list" "99.1.0 $newest" \
	"P2PDMA list: Linux 99.1.0's, judged by Linux $newest's (the newest list p2pdiag knows)" \
	"$bin" --topology-file "$tmp/wl991.topo" --no-cuda
mkdir -p "$tmp/root515/proc/sys/kernel" && cp "$tmp/cpu-intel" "$tmp/root515/proc/cpuinfo" &&
	echo 5.15.0-91-generic >"$tmp/root515/proc/sys/kernel/osrelease"
kernel_case "a topology without kernel=, --root's osrelease 5.15.0-91-generic" "5.15.0 5.15.0" \
	"P2PDMA list: Linux 5.15.0's" \
	"$bin" --topology-file "$tmp/wl.topo" --no-cuda --root "$tmp/root515"
kernel_case "a dump, --root's osrelease 5.15.0-91-generic" "5.15.0 5.15.0" \
	"P2PDMA list: Linux 5.15.0's" \
	"$bin" --pci-dump "$dump" --root "$tmp/root515"
# and the release changes the answer: Ice Lake-SP's 8086:09a2 heads are
# listed from 5.18, so 5.15 (Ubuntu 22.04's) blocks the cross-stack pair
grep -v '^expect ' "$fix/../../fixtures/20-vmd-ice-lake-sp.topo" | sed '1s/ kernel=[^ ]*//' >"$tmp/icx.topo"
for case in "6.12.95 thru_host_bridge" "5.15.0-91-generic not_supported" "5.10.0-32-amd64 not_supported"; do
	echo "${case% *}" >"$tmp/root515/proc/sys/kernel/osrelease"
	run "$bin" --topology-file "$tmp/icx.topo" --no-cuda --json --root "$tmp/root515" --pairs 0000:17:00.0,0000:e1:00.0
	v=$(json_get '[p["map"] for p in d["pairs"]]')
	[ "$v" = "['${case#* }']" ] &&
		result 1 "cli: Ice Lake-SP's cross-stack pair on ${case% *}: ${case#* }" ||
		result 0 "cli: Ice Lake-SP's cross-stack pair on ${case% *}: ${case#* }" "rc $rc: $v $err"
done
kernel_case "a dump has none and the newest list" "None $newest" \
	"P2PDMA list: kernel release not known: judged by Linux $newest's list, the newest p2pdiag knows" \
	"$bin" --pci-dump "$dump" --cpuinfo "$tmp/cpu-intel"

# A report that cannot be written whole is an error (exit 3, said), never
# a truncated document with the run's own exit status.
"$bin" --topology-file "$sriov" --no-cuda --json >/dev/full 2>"$tmp/stderr"; rc=$?
case $rc:$(cat "$tmp/stderr") in "3:p2pdiag-check: cannot write the JSON report to stdout: No space left on device")
	result 1 "cli: --json to a full disk exits 3, naming the error";;
	*) result 0 "cli: --json to a full disk exits 3, naming the error" "rc $rc: $(cat "$tmp/stderr")";; esac
"$bin" --topology-file "$sriov" --no-cuda --verbose >/dev/full 2>"$tmp/stderr"; rc=$?
case $rc:$(cat "$tmp/stderr") in "3:p2pdiag-check: cannot write the text report to stdout: No space left on device")
	result 1 "cli: the text report to a full disk exits 3, naming the error";;
	*) result 0 "cli: the text report to a full disk exits 3, naming the error" "rc $rc: $(cat "$tmp/stderr")";; esac
# a reader that stops early: the writer is told (EPIPE), not killed by SIGPIPE
"$bin" --topology-file "$tmp/many.topo" --no-cuda --json 2>"$tmp/stderr" | head -c 10 >/dev/null
rc=${PIPESTATUS[0]}
case $rc:$(cat "$tmp/stderr") in "3:p2pdiag-check: cannot write the JSON report to stdout: Broken pipe")
	result 1 "cli: --json into a closed pipe exits 3, naming the error";;
	*) result 0 "cli: --json into a closed pipe exits 3, naming the error" "rc $rc: $(cat "$tmp/stderr")";; esac
# the baseline, streamed into NAME.tmp, is renamed into place whole
run "$bin" --topology-file "$sriov" --no-cuda --baseline save "$tmp/sriov-base.json"
v=$("$PYTHON" -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["tool"], len(d["pairs"]), sum(p["count"] for p in d["pairs"]))' "$tmp/sriov-base.json" 2>&1)
[ "$rc" = 0 ] && [ "$v" = "p2pdiag-check 8 28" ] && [ ! -e "$tmp/sriov-base.json.tmp" ] &&
	result 1 "cli: --baseline save streams the whole report into place" ||
	result 0 "cli: --baseline save streams the whole report into place" "rc $rc: $v $err"

# PCI domains above ffff (Intel VMD numbers its own from 10000): a saved
# topology, an lspci -xxxx dump and a module tree with such functions are
# read and judged as the kernel would (the VMD root bus is a host bridge of
# its own, headed by a root port on no list), and addresses are written as
# lspci writes them; a wider or malformed domain is refused, saying which.
expect_pairs() { # expect_pairs NAME WANT: the JSON report's pairs in $out
	local v
	v=$(json_get 'sorted((p["a"], p["b"], p["map"]) for p in d["pairs"])')
	[ "$v" = "$2" ] && result 1 "$1" || result 0 "$1" "rc $rc: $v $err"
}
grep -v '^expect ' "$fix/../../fixtures/20-vmd-ice-lake-sp.topo" >"$tmp/vmd.topo"
vmd_pairs="[('0000:17:00.0', '0000:e1:00.0', 'thru_host_bridge'), ('0000:17:00.0', '10000:e1:00.0', 'not_supported'), ('0000:17:00.0', '10000:e2:00.0', 'not_supported'), ('0000:e1:00.0', '10000:e1:00.0', 'not_supported'), ('0000:e1:00.0', '10000:e2:00.0', 'not_supported'), ('10000:e1:00.0', '10000:e2:00.0', 'not_supported')]"
expect_rc 2 "cli: a topology with domain 10000 (VMD): NVMe pairs blocked, exits 2" \
	"$bin" --topology-file "$tmp/vmd.topo" --no-cuda --no-color
case $out in *"NVMe0   10000:e1:00.0  [144d:a80a]"*"host bridge 10000:e0:02.0 [8086:347a]"*) ;;
	*"host bridge 10000:e0:02.0 [8086:347a]"*"NVMe0   10000:e1:00.0  [144d:a80a]"*) ;;
	*) out="no 10000: address in the text: $out" ;; esac
case $out in "no 10000:"*) result 0 "cli: ... the text names 10000:e1:00.0 and the VMD root bus's head" "$out" ;;
	*) result 1 "cli: ... the text names 10000:e1:00.0 and the VMD root bus's head" ;; esac
run "$bin" --topology-file "$tmp/vmd.topo" --no-cuda --json
expect_pairs "cli: ... its JSON pairs: 10000:e1:00.0 apart from 0000:e1:00.0, the kernel's maps" "$vmd_pairs"
# host-bridge-no-p2p names the host bridge(s) that do not route the pair:
# the GPU's on stack 16 (8086:09a2) is listed, VMD's root bus head is not
hb_message() { # hb_message A B: the pair's host-bridge-no-p2p message, from $out
	json_get "[f['message'].split(': ', 1)[1] for f in d['findings'] if f['code'] == 'host-bridge-no-p2p' and (f['a'], f['b']) == ('$1', '$2')]"
}
v=$(hb_message 0000:17:00.0 10000:e1:00.0)
case $v in *"crosses host bridge 10000:e0:02.0 [8086:347a], which does not route P2P"*)
	case $v in *0000:16:00.0*) result 0 "cli: host-bridge-no-p2p names only the host bridge off the list (VMD's, not the GPU's listed one)" "$v";;
		*) result 1 "cli: host-bridge-no-p2p names only the host bridge off the list (VMD's, not the GPU's listed one)";; esac;;
	*) result 0 "cli: host-bridge-no-p2p names only the host bridge off the list (VMD's, not the GPU's listed one)" "$v";; esac
grep -v '^expect ' "$fix/../../fixtures/13-haswell-same-host-bridge.topo" >"$tmp/haswell.topo"
run "$bin" --topology-file "$tmp/haswell.topo" --no-cuda --json
v=$(hb_message 0000:02:00.0 0000:81:00.0)
case $v in *"crosses host bridge 0000:00:00.0 [8086:2f00] and host bridge 0000:80:00.0 [8086:2f01], which does not route P2P"*)
	result 1 "cli: ... and both where neither is listed (Haswell's two)";;
	*) result 0 "cli: ... and both where neither is listed (Haswell's two)" "$v";; esac
run "$bin" --topology-file "$tmp/vmd.topo" --no-cuda --json --pairs 10000:e1:00.0,0000:17:00.0
expect_pairs "cli: --pairs 10000:e1:00.0,0000:17:00.0 keeps that pair" \
	"[('0000:17:00.0', '10000:e1:00.0', 'not_supported')]"
mkdir -p "$tmp/vmdtree" && "$tool" --make-tree "$tmp/vmdtree" "topo:$tmp/vmd.topo" ||
	echo "# cannot make the VMD tree"
v=$(cat "$tmp/vmdtree/devices/10000:e1:00.0/parent" "$tmp/vmdtree/devices/10000:e1:00.0/host_bridge" 2>&1 | tr '\n' ' ')
[ "$v" = "10000:e0:02.0 10000:e0 " ] &&
	result 1 "cli: a module tree names the VMD NVMe's directory 10000:e1:00.0, its parent and host bridge whole" ||
	result 0 "cli: a module tree names the VMD NVMe's directory 10000:e1:00.0, its parent and host bridge whole" "$v"
run "$bin" --sysfs-root "$tmp/vmdtree" --no-cuda --json
expect_pairs "cli: ... read back with --sysfs-root: the same pairs" "$vmd_pairs"
vmd_dump=$fix/vmd-ice-lake-sp.lspci
expect_rc 2 "cli: an lspci dump with 10000:e1:00.0: the GPU-NVMe pair is blocked, exits 2" \
	"$bin" --pci-dump "$vmd_dump" --no-cuda --no-color
case $out in *"6 functions, 1 pairs judged"*"NVMe0   10000:e1:00.0"*) result 1 "cli: ... its text lists 6 functions and 10000:e1:00.0" ;;
	*) result 0 "cli: ... its text lists 6 functions and 10000:e1:00.0" "$out" ;; esac
run "$bin" --pci-dump "$vmd_dump" --no-cuda --json
expect_pairs "cli: ... its JSON pair crosses the VMD host bridge: not_supported" \
	"[('0000:01:00.0', '10000:e1:00.0', 'not_supported')]"
run "$bin" --pci-dump "$vmd_dump" --no-cuda --json --root "$tmp/amdroot"
expect_pairs "cli: ... and with --root at an AMD Zen machine's files: thru_host_bridge" \
	"[('0000:01:00.0', '10000:e1:00.0', 'thru_host_bridge')]"
for bad in 123456789:e1:00.0 1000g:e1:00.0; do
	expect_rc 3 "cli: --pairs $bad exits 3" "$bin" --topology-file "$tmp/vmd.topo" --no-cuda --pairs "$bad,0000:17:00.0"
	case $err in *"--pairs: '$bad' is not a PCI address"*) result 1 "cli: ... saying '$bad' is not a PCI address" ;;
		*) result 0 "cli: ... saying '$bad' is not a PCI address" "$err" ;; esac
	sed "s/^10000:e1:00.0 /$bad /" "$vmd_dump" >"$tmp/bad-domain.lspci"
	expect_rc 3 "cli: a dump with $bad exits 3" "$bin" --pci-dump "$tmp/bad-domain.lspci" --no-cuda
	case $err in *"line "*": '$bad' is not a PCI address"*) result 1 "cli: ... naming its line and '$bad'" ;;
		*) result 0 "cli: ... naming its line and '$bad'" "$err" ;; esac
	sed "s/^addr=10000:e1:00.0 /addr=$bad /" "$tmp/vmd.topo" >"$tmp/bad-domain.topo"
	expect_rc 3 "cli: a topology with addr=$bad exits 3" "$bin" --topology-file "$tmp/bad-domain.topo" --no-cuda
	case $err in *"addr=$bad is not a dddd:bb:dd.f address"*) result 1 "cli: ... naming addr=$bad" ;;
		*) result 0 "cli: ... naming addr=$bad" "$err" ;; esac
done
# libpci 3.9's dump reader drops a six-digit domain without a word, 3.13's
# reads it: refused before libpci on both, so a dump has one answer
sed 's/^10000:\(e[01]\):/100000:\1:/' "$vmd_dump" >"$tmp/six-digit.lspci"
expect_rc 3 "cli: a dump with a six-digit domain (100000) exits 3 on every libpci" \
	"$bin" --pci-dump "$tmp/six-digit.lspci" --no-cuda
case $err in *"line "*": '100000:e0:02.0' has a domain of more than 5 hex digits"*) result 1 "cli: ... naming its line and the function" ;;
	*) result 0 "cli: ... naming its line and the function" "$err" ;; esac

# A Hyper-V guest's synthetic video adapter (1414:5353) is paravirtual like
# virtio: its pairs are notes, the passed-through GPUs' pair stays blocked.
expect_rc 2 "cli: a Hyper-V guest: the real GPUs' pair is still blocked, exits 2" \
	"$bin" --topology-file "$fix/hyperv-guest.topo" --no-cuda --json
v=$(json_get 'sorted((f["code"], f["a"], f["b"]) for f in d["findings"])')
[ "$v" = "[('host-bridge-no-p2p', '0000:00:05.0', '0000:00:06.0'), ('paravirtual-pair', '0000:00:02.0', '0000:00:05.0'), ('paravirtual-pair', '0000:00:02.0', '0000:00:06.0')]" ] &&
	result 1 "cli: ... the Hyper-V adapter's pairs are paravirtual-pair notes" ||
	result 0 "cli: ... the Hyper-V adapter's pairs are paravirtual-pair notes" "$v"

# The findings registry against the documentation: --list-findings is the
# table the tool refuses to step outside; userspace/README.md's "Findings"
# and "--evidence" tables must list exactly its codes, the top-level README's examples must
# be among them, and every code must pass schema.json's pattern.
docs=$(cd "$(dirname "$0")/../../.." && pwd)
expect_rc 0 "cli: --list-findings exits 0" "$bin" --list-findings
printf '%s\n' "$out" >"$tmp/kinds"
v=$(awk -F'\t' 'NF != 5 || $1 == "" || $4 == "" { print NR": "$0 }' "$tmp/kinds")
[ -z "$v" ] && [ "$(wc -l <"$tmp/kinds")" -gt 80 ] &&
	result 1 "cli: ... one code a line: code, severity, family, meaning, fix" ||
	result 0 "cli: ... one code a line: code, severity, family, meaning, fix" "$v"
cut -f1 "$tmp/kinds" | sort >"$tmp/codes"
awk '/^## (Findings|Judging pasted evidence)/ { f = 1; next } /^## / { f = 0 } f && /^\| `/' "$docs/userspace/README.md" |
	cut -d'|' -f2 | grep -o '`[^`]*`' | tr -d '`' | sort -u >"$tmp/readme-codes"
v=$(diff "$tmp/codes" "$tmp/readme-codes" | grep '^[<>]' | tr '\n' ' ')
[ -z "$v" ] && result 1 "cli: userspace/README.md's Findings table lists exactly the registry's codes" ||
	result 0 "cli: userspace/README.md's Findings table lists exactly the registry's codes" \
		"< registry only, > README only: $v"
v=$(sed -n '/^Every finding has a stable code/,/^$/p' "$docs/README.md" | grep -o '`[a-z0-9_*-]*`' |
	tr -d '`' | while read -r c; do
		case $c in *'*') grep -q "^${c%\*}" "$tmp/codes" || echo "$c" ;;
		*) grep -qx -- "$c" "$tmp/codes" || echo "$c" ;; esac
	done)
[ -z "$v" ] && result 1 "cli: README.md's example codes are registered" ||
	result 0 "cli: README.md's example codes are registered" "not registered: $v"
pattern=$("$PYTHON" -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["$defs"]["finding"]["properties"]["code"]["pattern"])' \
	"$docs/userspace/schema.json" 2>&1)
v=$(grep -Ev -- "$pattern" "$tmp/codes" | tr '\n' ' ')
[ -z "$v" ] && result 1 "cli: every registered code matches schema.json's code pattern" ||
	result 0 "cli: every registered code matches schema.json's code pattern" "$pattern rejects: $v"

# A producer names its code by an FC_ constant of findings/finding_codes.h: a
# misspelt constant, or a code typed as a string, does not compile, and the
# right constant does (so the first two fail for the reason they should).
code_compiles() { # code_compiles CODE: a findings_add() naming CODE compiles
	printf '#include "findings/findings.h"\nint add(struct findings *f);\nint add(struct findings *f)\n{\n\treturn findings_add(f, SEV_WARNING, %s, FINDING_NO_ADDR,\n\t\t\t    FINDING_NO_ADDR, NULL, "x");\n}\n' \
		"$1" >"$tmp/producer.c"
	"${CC:-cc}" -std=c11 -Werror -fsyntax-only -I"$docs/userspace" -I"$docs/include" \
		"$tmp/producer.c" 2>"$tmp/cc-err"
}
if code_compiles FC_ACS_REDIRECT; then
	code_compiles FC_ACS_REDIRCT && v="FC_ACS_REDIRCT compiled" ||
	{ code_compiles '"acs-redirect"' && v='"acs-redirect" compiled'; } || v=
else
	v="FC_ACS_REDIRECT did not compile: $(head -3 "$tmp/cc-err")"
fi
[ -z "$v" ] && result 1 "cli: a misspelt finding code, or one typed as a string, does not compile" ||
	result 0 "cli: a misspelt finding code, or one typed as a string, does not compile" "$v"

# The layers of userspace/: no folder includes one that includes it back,
# so nothing the judge reads (the inputs, the findings' words, evidence)
# includes the judge.
v=$("$PYTHON" "$(dirname "$0")/include-graph" "$docs/userspace" 2>&1) &&
	result 1 "cli: the folders of userspace/ include each other in no cycle" ||
	result 0 "cli: the folders of userspace/ include each other in no cycle" "$(grep '^cycle' <<<"$v" | head -3)"

summary cli
