#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# --root and --sysfs-root are another machine's files: nothing outside
# them is ever read.  A link that leads out (to this machine's
# /etc/shadow, its /sys, by an absolute target or by ".." above the root)
# is refused, exit 3, naming the path and neither the target nor what it
# holds; links that stay inside are followed; unreadable is never absent.
# Every case runs twice: with the kernel's openat2(2), and with the walk
# that stands in for it on older kernels (P2PDIAG_CONFINE_WALK=1).
# Usage: test_confined_roots.sh P2PDIAG_CHECK TEST_TOOL FIXTURES
set -u
bin=$1 tool=$2 fix=$3
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/p2pdiag-roots-XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
unset P2PDIAG_FSROOT P2PDIAG_CONFINE_WALK
. "$here/../../tap.sh"

run() { # run CMD...: sets rc, out, err
	out=$("$@" 2>"$tmp/stderr"); rc=$?
	err=$(cat "$tmp/stderr")
}

mkdir -p "$tmp/ok" && "$tool" --make-tree "$tmp/ok" ok || echo "# cannot make the module tree"
printf 'OUTSIDE-MARKER secret of this machine\n' >"$tmp/outside"
marker=OUTSIDE-MARKER

# new_root NAME: a root with a CPU and a kernel release of its own
new_root() {
	local r=$tmp/$1
	mkdir -p "$r/proc/sys/kernel" &&
		printf 'processor\t: 0\nvendor_id\t: GenuineIntel\ncpu family\t: 6\n\n' >"$r/proc/cpuinfo" &&
		echo 6.1.0-test >"$r/proc/sys/kernel/osrelease"
	echo "$r"
}

# refused NAME PATH TARGET CMD...: exit 3, PATH named as leading out, and
# neither TARGET nor the secret anywhere in the output
refused() {
	local name=$1 path=$2 target=$3
	shift 3
	run "$@"
	if [ "$rc" = 3 ] && [[ $err == *"$path"*"leads out of"* ]] &&
	   [[ "$out$err" != *"$marker"* ]] && [[ "$out$err" != *"$target"* ]]; then
		result 1 "$name"
	else
		result 0 "$name" "exit $rc: $err $(head -c 300 <<<"$out")"
	fi
}

for walk in "" 1; do
	export P2PDIAG_CONFINE_WALK=$walk
	how=${walk:+", by the walk"}
	how=${how:-", by openat2"}

	r=$(new_root "abs$walk")
	ln -s "$tmp/outside" "$r/proc/cmdline"
	refused "roots: --root's proc/cmdline -> a file outside is refused$how" \
		"$r/proc/cmdline" "$tmp/outside" \
		"$bin" --root "$r" --sysfs-root "$tmp/ok" --no-cuda --json

	r=$(new_root "rel$walk")
	ln -s ../../../outside "$r/proc/cmdline"
	refused "roots: ... and by .. above the root$how" \
		"$r/proc/cmdline" "../outside" \
		"$bin" --root "$r" --sysfs-root "$tmp/ok" --no-cuda --json

	r=$(new_root "dir$walk")
	mkdir -p "$tmp/elsewhere$walk/kernel" && cp "$tmp/outside" "$tmp/elsewhere$walk/kernel/osrelease"
	rm -rf "$r/proc/sys" && ln -s "$tmp/elsewhere$walk" "$r/proc/sys"
	refused "roots: ... and a directory on the way that is a link out$how" \
		"$r/proc/sys/kernel/osrelease" "$tmp/elsewhere" \
		"$bin" --root "$r" --sysfs-root "$tmp/ok" --no-cuda --json

	if [ -r /etc/shadow ] && [ -s /etc/shadow ]; then
		r=$(new_root "shadow$walk")
		ln -s /etc/shadow "$r/proc/cmdline"
		run "$bin" --root "$r" --sysfs-root "$tmp/ok" --no-cuda --json
		first=$(head -1 /etc/shadow | cut -d: -f1-2)
		[ "$rc" = 3 ] && [[ "$out$err" != *"$first"* ]] && [[ "$out$err" != *"/etc/shadow"* ]] &&
			result 1 "roots: proc/cmdline -> /etc/shadow: refused, nothing of it shown$how" ||
			result 0 "roots: proc/cmdline -> /etc/shadow: refused, nothing of it shown$how" "exit $rc: $err"
	else
		result 1 "roots: proc/cmdline -> /etc/shadow$how # SKIP /etc/shadow not readable"
	fi

	# this machine's /sys as the root's: libpci is not let walk it
	r=$(new_root "sys$walk")
	ln -s /sys "$r/sys"
	run "$bin" --root "$r" --source=pci --no-cuda
	[ "$rc" = 3 ] && [[ $err == *"$r/sys/bus/pci/devices"*"leads out of the root"* ]] && [ -z "$out" ] &&
		result 1 "roots: --root whose sys is this machine's /sys: libpci refused, named$how" ||
		result 0 "roots: --root whose sys is this machine's /sys: libpci refused, named$how" "exit $rc: $err $(head -3 <<<"$out")"
	# ... and one device of it linked in
	r=$(new_root "dev$walk")
	mkdir -p "$r/sys/bus/pci/devices"
	host_dev=$(ls /sys/bus/pci/devices 2>/dev/null | head -1)
	if [ -n "$host_dev" ]; then
		ln -s "/sys/bus/pci/devices/$host_dev" "$r/sys/bus/pci/devices/$host_dev"
		run "$bin" --root "$r" --source=pci --no-cuda --json
		[ "$rc" = 3 ] && [[ $err == *"$r/sys/bus/pci/devices/$host_dev "*"leads out of the root"* ]] &&
			[[ $out != *"$host_dev"* ]] &&
			result 1 "roots: a device linked in from this machine's /sys: refused$how" ||
			result 0 "roots: a device linked in from this machine's /sys: refused$how" "exit $rc: $err"
	else
		result 1 "roots: a device linked in from this machine's /sys$how # SKIP no PCI devices here"
	fi

	# --sysfs-root: a module file linked out; its content never echoed
	rm -rf "$tmp/gen$walk" && cp -r "$tmp/ok" "$tmp/gen$walk" && rm "$tmp/gen$walk/generation" &&
		ln -s "$tmp/outside" "$tmp/gen$walk/generation"
	run "$bin" --sysfs-root "$tmp/gen$walk" --no-cuda
	[ "$rc" = 3 ] && [[ $err == *"$tmp/gen$walk/generation"*"leads out of the tree"* ]] &&
		[[ "$out$err" != *"$marker"* ]] && [[ "$out$err" != *"$tmp/outside"* ]] &&
		result 1 "roots: --sysfs-root's generation linked out: refused, nothing of it shown$how" ||
		result 0 "roots: --sysfs-root's generation linked out: refused, nothing of it shown$how" "exit $rc: $err"
	rm -rf "$tmp/abi$walk" && cp -r "$tmp/ok" "$tmp/abi$walk" && rm "$tmp/abi$walk/abi_version" &&
		ln -s /sys/kernel/p2pdiag/abi_version "$tmp/abi$walk/abi_version"
	run "$bin" --sysfs-root "$tmp/abi$walk" --no-cuda
	[ "$rc" = 3 ] && [[ $err == *"$tmp/abi$walk"*"abi_version is a symbolic link out of it"* ]] &&
		[[ $err != *"/sys/kernel/p2pdiag/abi_version"* ]] &&
		result 1 "roots: --sysfs-root's abi_version linked to this machine's: refused$how" ||
		result 0 "roots: --sysfs-root's abi_version linked to this machine's: refused$how" "exit $rc: $err"

	# links that stay inside are followed
	r=$(new_root "inside$walk")
	echo "pci=noacs inside-cmdline" >"$r/cmdline.real" && ln -s ../cmdline.real "$r/proc/cmdline"
	run "$bin" --root "$r" --sysfs-root "$tmp/ok" --no-cuda --json
	v=$("$PYTHON" -c 'import json,sys; d=json.loads(sys.stdin.read()); print(d["system"]["kernel"]["cmdline"])' <<<"$out" 2>&1)
	[ "$rc" != 3 ] && [ "$v" = "pci=noacs inside-cmdline" ] &&
		result 1 "roots: a link that stays inside the root is followed$how" ||
		result 0 "roots: a link that stays inside the root is followed$how" "exit $rc, '$v': $err"

	# a loop of links
	r=$(new_root "loop$walk")
	ln -s cmdline "$r/proc/cmdline"
	run "$bin" --root "$r" --sysfs-root "$tmp/ok" --no-cuda
	[ "$rc" = 3 ] && [[ $err == *"$r/proc/cmdline"*"symbolic links"* ]] &&
		result 1 "roots: a loop of links under --root exits 3, named$how" ||
		result 0 "roots: a loop of links under --root exits 3, named$how" "exit $rc: $err"

	# unreadable is never absent (as another user: root reads anything)
	r=$(new_root "eacces$walk")
	echo "pci=noacs" >"$r/proc/cmdline" && chmod 000 "$r/proc/cmdline"
	if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null &&
	   cp "$bin" "$tmp/check-copy" && chmod 755 "$tmp" "$tmp/check-copy" &&
	   ! setpriv --reuid=65534 --regid=65534 --clear-groups "$tmp/check-copy" --version >/dev/null 2>&1; then
		# under valgrind, a wrapper of the tree's build, which another
		# user cannot reach in a private home (a clone under /root)
		result 1 "roots: a file under --root that cannot be read$how # SKIP another user cannot run the tool under test ($bin)"
	elif [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
		cp -r "$tmp/ok" "$tmp/ok-copy$walk" 2>/dev/null
		chmod -R a+rX "$tmp/ok-copy$walk" "$r/proc/cpuinfo" "$r/proc/sys" && chmod 755 "$tmp" "$r" "$r/proc" "$tmp/check-copy"
		run setpriv --reuid=65534 --regid=65534 --clear-groups \
			"$tmp/check-copy" --root "$r" --sysfs-root "$tmp/ok-copy$walk" --no-cuda
		[ "$rc" = 3 ] && [[ $err == *"cannot read $r/proc/cmdline: Permission denied"* ]] &&
			result 1 "roots: a file under --root that cannot be read exits 3, not absent$how" ||
			result 0 "roots: a file under --root that cannot be read exits 3, not absent$how" "exit $rc: $err"
	else
		result 1 "roots: a file under --root that cannot be read$how # SKIP not root: needs another user"
	fi
done
unset P2PDIAG_CONFINE_WALK

summary "roots"
