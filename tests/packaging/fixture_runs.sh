# SPDX-License-Identifier: GPL-2.0
# Sourced by the packaging tests that check an output format over every
# run a fixture gives: the tool on each engine fixture (as a saved
# topology file), the libpci dump on an AMD and an Intel CPU, fake module
# trees (ok, redirect, blocked), the topology the lab's switchacs guest
# published, and every system fixture machine (AER, GPUDirect, VMs).
#
# fixture_runs ROOT TMP TEST_TOOL FN: FN GROUP NAME ARGS... for each run,
# GROUP one of engine, dump, tree, lab, system; ARGS the tool's options
# that read the fixture (its inputs are made in TMP).
fixture_runs() {
	local root=$1 tmp=$2 tool=$3 fn=$4 f name t d dump sysfix
	for f in "$root"/tests/unit/fixtures/*.topo; do
		name=$(basename "$f" .topo)
		grep -v '^expect ' "$f" >"$tmp/$name.topo"
		"$fn" engine "$name" --topology-file "$tmp/$name.topo"
	done
	printf 'processor\t: 0\nvendor_id\t: AuthenticAMD\ncpu family\t: 25\n\n' >"$tmp/cpu-amd"
	printf 'processor\t: 0\nvendor_id\t: GenuineIntel\ncpu family\t: 6\n\n' >"$tmp/cpu-intel"
	dump=$root/tests/unit/tool/fixtures/amd-rootports-acs.lspci
	"$fn" dump dump-amd --pci-dump "$dump" --cpuinfo "$tmp/cpu-amd"
	"$fn" dump dump-intel --pci-dump "$dump" --cpuinfo "$tmp/cpu-intel"
	for t in ok redirect blocked; do
		mkdir -p "$tmp/tree-$t" && "$tool" --make-tree "$tmp/tree-$t" $t >/dev/null 2>&1
		"$fn" tree "tree-$t" --sysfs-root "$tmp/tree-$t" --no-cuda
	done
	"$fn" lab lab-switchacs --topology-file "$root/tests/unit/tool/fixtures/switchacs.topo"
	sysfix=$root/tests/unit/tool/fixtures/system
	for d in "$sysfix"/*/; do
		d=${d%/}
		"$fn" system "system-${d##*/}" --topology-file "$sysfix/server.topo" --root "$d" --no-cuda
	done
}
