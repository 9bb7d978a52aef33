#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# An input the user names is never replaced by this machine: a
# --sysfs-root, --cpuinfo, --root, --topology-file or --pci-dump that
# cannot be read, or does not hold what it must, ends the run with exit 3,
# naming it and what is wrong, never a judgement of something else.
# Usage: test_explicit_inputs.sh P2PDIAG_CHECK TEST_TOOL FIXTURES
set -u
bin=$1 tool=$2 fix=$3
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/p2pdiag-explicit-XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
unset P2PDIAG_CONFINE_WALK
mkdir -p "$tmp/hermetic/proc" &&
	printf 'processor\t: 0\nvendor_id\t: GenuineIntel\ncpu family\t: 6\n\n' \
		>"$tmp/hermetic/proc/cpuinfo"
export P2PDIAG_FSROOT=$tmp/hermetic
. "$here/../../tap.sh"

dump=$fix/amd-rootports-acs.lspci topo=$fix/sriov-switch.topo
mkdir -p "$tmp/ok" && "$tool" --make-tree "$tmp/ok" ok || echo "# cannot make the module tree"

run() { # run CMD...: sets rc, out, err
	out=$("$@" 2>"$tmp/stderr"); rc=$?
	err=$(cat "$tmp/stderr")
}

# named NAME WANT CMD...: exit 3, WANT (a glob) in stderr, no report
named() {
	local name=$1 want=$2
	shift 2
	run "$@"
	# shellcheck disable=SC2053
	if [ "$rc" = 3 ] && [[ $err == $want ]] && [ -z "$out" ]; then
		result 1 "$name"
	else
		result 0 "$name" "exit $rc (want 3): $err $(head -2 <<<"$out")"
	fi
}

# Another user runs these, for the unreadable cases (root reads anything).
# The copy must run as that user: under valgrind it is a wrapper that runs
# the build in the tree, which another user cannot reach where the tree
# sits in a private home (a clone under /root).
as_other="" why_not="not root: needs another user to be refused"
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
	cp "$bin" "$tmp/check-copy" && chmod 755 "$tmp" "$tmp/check-copy" &&
		chmod -R a+rX "$tmp/ok" "$tmp/hermetic" &&
		as_other="setpriv --reuid=65534 --regid=65534 --clear-groups $tmp/check-copy"
	if [ -n "$as_other" ] && ! $as_other --version >/dev/null 2>&1; then
		as_other=""
		why_not="another user cannot run the tool under test ($bin)"
	fi
fi
skip_other() {
	result 1 "$1 # SKIP $why_not"
}

# --sysfs-root: each way of not being the module's tree
mkdir -p "$tmp/empty" "$tmp/noread" && : >"$tmp/afile" && ln -s loop "$tmp/loop" 2>/dev/null
ln -sf loop "$tmp/loop"
named "explicit: --sysfs-root that does not exist exits 3, naming it" \
	"*--sysfs-root $tmp/absent: No such file or directory*" \
	"$bin" --sysfs-root "$tmp/absent" --no-cuda
named "explicit: --sysfs-root that is a file exits 3" \
	"*--sysfs-root $tmp/afile is not a directory*" \
	"$bin" --sysfs-root "$tmp/afile" --no-cuda
named "explicit: --sysfs-root without abi_version exits 3, saying so" \
	"*--sysfs-root $tmp/empty holds no abi_version*" \
	"$bin" --sysfs-root "$tmp/empty" --no-cuda
named "explicit: ... also with --source=pci (never this machine's walk)" \
	"*--sysfs-root $tmp/empty holds no abi_version*" \
	"$bin" --sysfs-root "$tmp/empty" --source=pci --no-cuda
named "explicit: --sysfs-root that loops exits 3" \
	"*--sysfs-root $tmp/loop: Too many levels of symbolic links*" \
	"$bin" --sysfs-root "$tmp/loop" --no-cuda
if [ -n "$as_other" ]; then
	cp -r "$tmp/ok" "$tmp/noread/tree" && chmod 755 "$tmp/noread" && chmod 700 "$tmp/noread/tree"
	named "explicit: --sysfs-root that cannot be read exits 3" \
		"*--sysfs-root $tmp/noread/tree: Permission denied*" \
		$as_other --sysfs-root "$tmp/noread/tree" --no-cuda
else
	skip_other "explicit: --sysfs-root that cannot be read exits 3"
fi

# --cpuinfo: each way of not being a cpuinfo
: >"$tmp/cpu-empty"
mkdir -p "$tmp/cpu-dir"
yes '' | head -5000 >"$tmp/cpu-blank"
printf 'processor\t: 0\nmodel name\t: something\n\n' >"$tmp/cpu-novendor"
for c in empty dir blank novendor; do
	named "explicit: --cpuinfo $c exits 3, naming it" \
		"*--cpuinfo $tmp/cpu-$c: *" "$bin" --pci-dump "$dump" --cpuinfo "$tmp/cpu-$c"
done
run "$bin" --pci-dump "$dump" --cpuinfo "$tmp/cpu-blank"
[[ $err == *"no vendor_id line"* ]] && [[ $err != *"File too large"* ]] &&
	result 1 "explicit: ... a blank-line cpuinfo says no vendor_id, not 'File too large'" ||
	result 0 "explicit: ... a blank-line cpuinfo says no vendor_id, not 'File too large'" "$err"
run "$bin" --pci-dump "$dump" --cpuinfo "$tmp/cpu-dir"
[[ $err == *"Is a directory"* ]] && result 1 "explicit: ... a directory says it is one" ||
	result 0 "explicit: ... a directory says it is one" "$err"
named "explicit: --cpuinfo empty with --evidence exits 3 too" \
	"*--cpuinfo $tmp/cpu-empty: *" "$bin" --evidence --cpuinfo "$tmp/cpu-empty" "$dump"
printf 'processor\t: 0\nCPU implementer\t: 0x41\nCPU architecture: 8\n\n' >"$tmp/cpu-arm"
run "$bin" --pci-dump "$dump" --cpuinfo "$tmp/cpu-arm"
[ "$rc" = 2 ] && result 1 "explicit: an Arm cpuinfo (no vendor_id, a CPU implementer) is one: not AMD" ||
	result 0 "explicit: an Arm cpuinfo (no vendor_id, a CPU implementer) is one: not AMD" "exit $rc: $err"

# --root: each way of not being a readable directory
named "explicit: --root that does not exist exits 3, naming it" \
	"*root directory $tmp/absent: No such file or directory*" \
	"$bin" --root "$tmp/absent" --sysfs-root "$tmp/ok" --no-cuda
named "explicit: --root that is a file exits 3" \
	"*root directory $tmp/afile is not a directory*" \
	"$bin" --root "$tmp/afile" --sysfs-root "$tmp/ok" --no-cuda
named "explicit: --root that loops exits 3" \
	"*root directory $tmp/loop: Too many levels of symbolic links*" \
	"$bin" --root "$tmp/loop" --sysfs-root "$tmp/ok" --no-cuda
if [ -n "$as_other" ]; then
	mkdir -p "$tmp/noread/root/proc" && chmod 700 "$tmp/noread/root"
	named "explicit: --root that cannot be read exits 3" \
		"*root directory $tmp/noread/root: Permission denied*" \
		$as_other --root "$tmp/noread/root" --sysfs-root "$tmp/ok" --no-cuda
else
	skip_other "explicit: --root that cannot be read exits 3"
fi

# --topology-file and --pci-dump: absent, a directory, empty, unreadable
: >"$tmp/empty-file"
for opt in --topology-file --pci-dump; do
	named "explicit: $opt that does not exist exits 3, naming it" \
		"*$tmp/absent*" "$bin" "$opt" "$tmp/absent" --cpuinfo "$tmp/hermetic/proc/cpuinfo"
	named "explicit: $opt that is a directory exits 3, naming it" \
		"*$tmp/cpu-dir*" "$bin" "$opt" "$tmp/cpu-dir" --cpuinfo "$tmp/hermetic/proc/cpuinfo"
	named "explicit: $opt that is empty exits 3, naming it" \
		"*$tmp/empty-file*" "$bin" "$opt" "$tmp/empty-file" --cpuinfo "$tmp/hermetic/proc/cpuinfo"
	if [ -n "$as_other" ]; then
		cp "$topo" "$tmp/noread/t-$opt" && chmod 600 "$tmp/noread/t-$opt"
		named "explicit: $opt that cannot be read exits 3, naming it" \
			"*$tmp/noread/t-$opt*Permission denied*" \
			$as_other "$opt" "$tmp/noread/t-$opt" --cpuinfo "$tmp/hermetic/proc/cpuinfo"
	else
		skip_other "explicit: $opt that cannot be read exits 3"
	fi
done

# --root whose module directory would not fit in a path (the root a few
# characters short of PATH_MAX): stopped, never this machine's
# /sys/kernel/p2pdiag read instead
deep=$tmp/deep
while [ ${#deep} -lt 4086 ]; do
	left=$((4086 - ${#deep} - 1))
	deep=$deep/$(printf '%*s' $((left > 200 ? 200 : left)) '' | tr ' ' d)
done
if mkdir -p "$deep" 2>/dev/null; then
	named "explicit: --root too deep for its module directory exits 3, never this machine's" \
		"*--root: /sys/kernel/p2pdiag under it would be a path too long to read: /*" \
		"$bin" --root "$deep" --no-cuda
else
	result 1 "explicit: --root too deep for its module directory exits 3, never this machine's # SKIP cannot make a directory 4086 characters deep here"
fi

# --root --source=pci walks the root's PCI tree, and says so (a tree made
# from the AMD dump: its config space, and the attributes libpci reads).
mkdir -p "$tmp/pciroot/proc" && cp "$tmp/hermetic/proc/cpuinfo" "$tmp/pciroot/proc/"
"$PYTHON" - "$dump" "$tmp/pciroot" <<'PY'
import os, re, sys
dump, root = sys.argv[1], sys.argv[2]
devs, cur = {}, None
for line in open(dump):
    m = re.match(r'^([0-9a-f]{4,5}:)?([0-9a-f]{2}):([0-9a-f]{2})\.([0-7]) ', line)
    if m:
        cur = "%s%s:%s.%s" % (m.group(1) or "0000:", m.group(2), m.group(3), m.group(4))
        devs[cur] = bytearray()
        continue
    m = re.match(r'^([0-9a-f]{2,3}): ((?:[0-9a-f]{2} ?)+)$', line.strip())
    if m and cur:
        devs[cur] += bytes(int(x, 16) for x in m.group(2).split())
top = os.path.join(root, "sys/bus/pci/devices")
os.makedirs(top)
for a, cfg in devs.items():
    p = os.path.join(top, a)
    os.makedirs(p)
    open(os.path.join(p, "config"), "wb").write(bytes(cfg))
    for name, val in (("vendor", "0x%02x%02x" % (cfg[1], cfg[0])),
                      ("device", "0x%02x%02x" % (cfg[3], cfg[2])),
                      ("class", "0x%02x%02x%02x" % (cfg[11], cfg[10], cfg[9])),
                      ("irq", "0"), ("numa_node", "-1")):
        open(os.path.join(p, name), "w").write(val + "\n")
    open(os.path.join(p, "resource"), "w").write("0x0 0x0 0x0\n" * 13)
PY
run "$bin" --root "$tmp/pciroot" --source=pci --no-cuda
[[ $out == *"libpci walk of the PCI tree under $tmp/pciroot"* ]] && [[ $out != *"this machine"* ]] &&
	result 1 "explicit: --root --source=pci names the root's tree, not this machine" ||
	result 0 "explicit: --root --source=pci names the root's tree, not this machine" "exit $rc: $err $(head -2 <<<"$out")"
# ... and a file of it linked out of the root is not walked
dev=$(ls "$tmp/pciroot/sys/bus/pci/devices" | head -1)
cp "$tmp/pciroot/sys/bus/pci/devices/$dev/config" "$tmp/outside-config" &&
	rm "$tmp/pciroot/sys/bus/pci/devices/$dev/config" &&
	ln -s "$tmp/outside-config" "$tmp/pciroot/sys/bus/pci/devices/$dev/config"
named "explicit: --root --source=pci with a config linked out of the root exits 3, naming it" \
	"*$tmp/pciroot/sys/bus/pci/devices/$dev/config leads out of the root*" \
	"$bin" --root "$tmp/pciroot" --source=pci --no-cuda

# A saved topology or a dump is another machine's: this machine's PCIe
# ASPM policy is not reported as its host setting (unknown instead); with
# --root at that machine's files, the policy there is.
aspm() { # aspm CMD...: the aspm_policy host setting's "value state"
	"$@" --json 2>/dev/null | "$PYTHON" -c 'import json, sys
s = [x for x in json.load(sys.stdin)["host_settings"] if x["key"] == "aspm_policy"]
print(s[0]["value"] if s else "absent", s[0]["state"] if s else "")'
}
if [ -r /sys/module/pcie_aspm/parameters/policy ]; then
	got=$(aspm env -u P2PDIAG_FSROOT "$bin" --topology "$topo" --no-cuda)
	[ "$got" = "None unknown" ] &&
		result 1 "explicit: a saved topology's host ASPM policy is unknown, not this machine's" ||
		result 0 "explicit: a saved topology's host ASPM policy is unknown, not this machine's" \
			"got '$got'; this machine's: $(cat /sys/module/pcie_aspm/parameters/policy)"
	got=$(aspm env -u P2PDIAG_FSROOT "$bin" --pci-dump "$dump" --no-cuda)
	[ "$got" = "None unknown" ] &&
		result 1 "explicit: a dump's host ASPM policy is unknown, not this machine's" ||
		result 0 "explicit: a dump's host ASPM policy is unknown, not this machine's" "got '$got'"
else
	result 1 "explicit: a saved topology's host ASPM policy is unknown, not this machine's # SKIP this machine has no pcie_aspm policy to leak"
	result 1 "explicit: a dump's host ASPM policy is unknown, not this machine's # SKIP this machine has no pcie_aspm policy to leak"
fi
cp -a "$tmp/hermetic" "$tmp/aspmroot" && mkdir -p "$tmp/aspmroot/sys/module/pcie_aspm/parameters" &&
	echo "default performance [powersave] powersupersave" >"$tmp/aspmroot/sys/module/pcie_aspm/parameters/policy"
got=$(aspm "$bin" --root "$tmp/aspmroot" --topology "$topo" --no-cuda)
[ "$got" = "powersave note" ] &&
	result 1 "explicit: --root at a saved topology's machine gives its ASPM policy" ||
	result 0 "explicit: --root at a saved topology's machine gives its ASPM policy" "got '$got'"

summary "explicit inputs"
