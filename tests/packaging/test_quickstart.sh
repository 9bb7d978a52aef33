#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The quick start's install step (.ci/check-deps, what .ci/quickstart
# installs on the server it diagnoses) in a fresh debootstrap'd chroot of
# each release (QUICKSTART_SUITES, default "bookworm trixie"): every
# package it installed must match quickstart-allowed (the build, loading
# and running of the check, nothing of the test lab), none of them may
# ship a service, socket or timer unit, an init script or an enabled
# unit, and what it installed must be enough to build the tool with
# warnings as errors and run an offline check.
#
# The minbase chroot is made once and cached (chroot.sh); apt's downloads
# are kept in the cache too ($cache/apt-<suite>), so a second run fetches
# nothing.  Needs root (skipped, and said so, without).
# Usage: test_quickstart.sh ROOT OUT
set -u
root=$1 out=$2
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../tap.sh"
. "$here/chroot.sh"
suites=${QUICKSTART_SUITES:-bookworm trixie}

echo "KTAP version 1"
if [ "$(id -u)" != 0 ]; then
	echo "ok 1 quickstart: its install step in a fresh chroot # SKIP needs root (debootstrap, chroot, mount)"
	echo "0 passed, 0 failed, 1 skipped"
	exit 0
fi
command -v debootstrap >/dev/null || { result 0 "quickstart: debootstrap is installed" "apt-get install debootstrap"; summary; exit; }
rm -rf "$out" && mkdir -p "$out"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/p2pdiag-quickstart-XXXXXX") || exit 1
trap 'umount_all; rm -rf "$tmp"' EXIT

# The allowed set: one extended regular expression a line, "#" comments.
allowed=$(sed -e 's/#.*//' -e 's/[[:space:]]*$//' -e '/^$/d' "$here/quickstart-allowed" |
	paste -sd'|')

# in_suite SUITE
in_suite() {
	local suite=$1 o=$out/$1 r=$tmp/root-$1 base archives new bad units rc
	mkdir -p "$o"
	if ! base=$(cached_chroot "$suite-minbase" minbase "$suite" "" "$o/debootstrap.log"); then
		result 0 "quickstart: $suite: a fresh minbase chroot" "$(tail -10 "$o/debootstrap.log")"
		return
	fi
	overlay "$base" "$r"
	archives=$cache/apt-$suite
	mkdir -p "$archives/partial"
	mount --bind "$archives" "$r/var/cache/apt/archives" && mounts+=("$r/var/cache/apt/archives")
	cp /etc/resolv.conf "$r/etc/resolv.conf" 2>/dev/null || :
	in_root() { chroot "$r" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 "$@"; }
	in_root dpkg-query -W -f='${Package}\n' | sort >"$o/before"
	find "$r/etc/systemd" "$r/etc/init.d" "$r/lib/systemd/system" "$r/usr/lib/systemd/system" \
		-printf '%P %y\n' 2>/dev/null | sort >"$o/units-before"

	mkdir -p "$r/src"
	# The tree's files as git knows them, or, where there is no git (a
	# source tarball, a chroot without it), all of them but git's own and
	# what the .gitignore files name: the build's output, whose objects
	# the chroot's make would otherwise link as they are, made against
	# another suite's libc.  The fallback is chosen up front, since a tar
	# fed an empty list by a missing git succeeds with an empty archive.
	if command -v git >/dev/null && git -C "$root" rev-parse --git-dir >/dev/null 2>&1; then
		(cd "$root" && git ls-files -z --cached --others --exclude-standard | tar --null -T - -cf -)
	else
		(cd "$root" && find . -name .git -prune -o -name .gitignore -print) |
			while read -r ignore; do
				sed -e '/^#/d' -e '/^[[:space:]]*$/d' -e 's|/$||' \
					-e "s|^/|${ignore%/.gitignore}/|" "$root/$ignore"
			done >"$tmp/excludes"
		(cd "$root" && tar --exclude=./.git --exclude-from="$tmp/excludes" -cf - .)
	fi | tar -xf - -C "$r/src"
	local start=$EPOCHREALTIME
	in_root bash /src/.ci/check-deps >"$o/install.log" 2>&1
	rc=$?
	echo "# $suite: .ci/check-deps took $(awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN { printf "%d", b - a }') s"
	[ "$rc" = 0 ] && result 1 "quickstart: $suite: .ci/check-deps installs in a fresh chroot" ||
		result 0 "quickstart: $suite: .ci/check-deps installs in a fresh chroot" "$(tail -15 "$o/install.log")"
	in_root dpkg-query -W -f='${Package}\n' | sort >"$o/after"
	new=$(comm -13 "$o/before" "$o/after")
	printf '%s\n' "$new" >"$o/installed"
	echo "# $suite: $(grep -c . "$o/installed") packages installed: $(paste -sd' ' "$o/installed")"
	bad=$(grep -Evx "$allowed" "$o/installed")
	[ -z "$bad" ] && [ -n "$new" ] &&
		result 1 "quickstart: $suite: every package it installed is in quickstart-allowed (no daemon, no test lab)" ||
		result 0 "quickstart: $suite: every package it installed is in quickstart-allowed (no daemon, no test lab)" \
			"not allowed: ${bad:-(nothing installed)}"
	# What would start on boot or on install: units and init scripts the
	# new packages ship, and any enablement that appeared.
	units=$(for p in $new; do in_root dpkg -L "$p" 2>/dev/null |
		grep -E '^(/usr)?/lib/systemd/system/[^/]+\.(service|socket|timer|path)$|^/etc/init\.d/.' |
		sed "s|^|$p: |"; done)
	find "$r/etc/systemd" "$r/etc/init.d" "$r/lib/systemd/system" "$r/usr/lib/systemd/system" \
		-printf '%P %y\n' 2>/dev/null | sort >"$o/units-after"
	units+=$(comm -13 "$o/units-before" "$o/units-after" | grep -E 'wants/|\.(service|socket|timer|path) ')
	# kmod's init script loads /etc/modules once at boot (systemd runs
	# systemd-modules-load instead): no daemon, and every server has kmod
	units=$(grep -vx 'kmod: /etc/init\.d/kmod' <<<"$units")
	[ -z "$units" ] &&
		result 1 "quickstart: $suite: nothing it installed ships a unit, an init script or an enablement link" ||
		result 0 "quickstart: $suite: nothing it installed ships a unit, an init script or an enablement link" "$units"

	# Enough: the tool builds with warnings as errors and checks a fixture.
	if in_root make -C /src/userspace CI=true -j2 >"$o/build.log" 2>&1; then
		grep -v '^expect ' "$root/tests/unit/fixtures/03-amd-root-ports-acs.topo" >"$r/tmp/fixture.topo"
		in_root /src/userspace/p2pdiag-check --topology-file /tmp/fixture.topo --no-color >"$o/check.txt" 2>&1
		rc=$?
		[ "$rc" = 1 ] && grep -q acs-redirect "$o/check.txt" &&
			result 1 "quickstart: $suite: with only that, the tool builds (CI=true) and an offline check finds ACS redirect (exit 1)" ||
			result 0 "quickstart: $suite: with only that, the tool builds (CI=true) and an offline check finds ACS redirect (exit 1)" \
				"exit $rc: $(head -5 "$o/check.txt")"
	else
		result 0 "quickstart: $suite: with only that, the tool builds (CI=true) and an offline check finds ACS redirect (exit 1)" \
			"$(tail -15 "$o/build.log")"
	fi
	umount_all
}

for s in $suites; do
	echo "# ---- $s"
	in_suite "$s"
done
summary
