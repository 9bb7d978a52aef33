#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The Debian packages in fresh chroots of each release (DEB_SUITES,
# default "bookworm trixie"): make deb builds p2pdiag-dkms and
# p2pdiag-check (without CUDA, though this machine may have
# /usr/local/cuda); both install with dpkg into a debootstrap'd release
# that has a kernel's headers but not the running kernel; DKMS builds the
# module for those headers from a source tree without the developer
# scripts; the tool runs; the package has its maintainer scripts and its
# conffile; installing enables nothing; the timer is then enabled and a
# run of the service's helper writes the report and the textfile; an
# upgrade to a newer version replaces the module; and purging both
# leaves the file list as it was before (no enablement link, report or
# textfile left).
#
# A release older than this machine's gets the packages a user of it
# would: built in a clean chroot of that release, since those built here
# need this machine's libc and libpci.
#
# Each chroot (minbase, dkms, linux-headers-amd64, systemd, the tool's
# libraries) is built once from the mirror this machine's apt sources
# name (tests/lab/host-mirror) and kept in $P2PDIAG_CACHE/chroot/ (default /var/cache/p2pdiag);
# each run works on an overlay of it, so the cache stays clean.  Last,
# make dkms-install and make dkms-remove from a source tree in the same
# chroot.  Then the same source built twice in a chroot of this
# machine's release with the buildd essentials and the Build-Depends
# only, at two paths, with two environments: the same files, byte for
# byte.  Needs root (skipped, and said so, without).
# Usage: test_deb.sh ROOT OUT
set -u
root=$1 out=$2
. "$(dirname "$0")/../tap.sh"
. "$(dirname "$0")/chroot.sh"
suites=${DEB_SUITES:-bookworm trixie}
# systemd: systemctl enable in the chroot, and deb-systemd-helper's
# bookkeeping that purge undoes.
packages=dkms,linux-headers-amd64,libpci3,libjson-c5,kmod,systemd,init-system-helpers

echo "KTAP version 1"
if [ "$(id -u)" != 0 ]; then
	# Said, and counted as passed the way KTAP counts a skip.
	echo "ok 1 deb: the packages in a chroot # SKIP needs root (debootstrap, chroot, mount)"
	echo "0 passed, 0 failed, 1 skipped"
	exit 0
fi
for t in debootstrap dpkg-buildpackage chroot; do
	command -v "$t" >/dev/null || result 0 "deb: $t is installed" "apt-get install ${t/dpkg-buildpackage/dpkg-dev}"
done
[ "$failed" = 0 ] || { summary; exit; }

rm -rf "$out" && mkdir -p "$out/debs"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/p2pdiag-deb-XXXXXX") || exit 1
cleanup() {
	umount_all
	rm -rf "$tmp"
}
trap cleanup EXIT

# --- the packages -------------------------------------------------------
ver=$("$root/kmod/scripts/package-version")
if "$root/userspace/packaging/build-deb" "$out/debs" >"$out/build.log" 2>&1; then
	result 1 "deb: make deb builds p2pdiag-dkms and p2pdiag-check $ver"
else
	result 0 "deb: make deb builds p2pdiag-dkms and p2pdiag-check $ver" "$(tail -15 "$out/build.log")"
	summary
	exit
fi
debs=("$out/debs/p2pdiag-dkms_${ver}_all.deb" "$out/debs/p2pdiag-check_${ver}_"*.deb)

# The packages themselves: dh_installsystemd found the units (it writes
# the maintainer scripts only for units where its release looks), the
# conffile, and the DKMS source without the developer scripts.
ctl=$(dpkg-deb -I "${debs[1]}" postrm prerm postinst conffiles 2>&1)
grep -q 'deb-systemd-helper purge' <<<"$ctl" && grep -q 'deb-systemd-helper update-state' <<<"$ctl" &&
	grep -qx '/etc/default/p2pdiag-check' <<<"$ctl" && grep -q 'rm -rf "$state"' <<<"$ctl" &&
	result 1 "deb: p2pdiag-check has dh_installsystemd's maintainer scripts, its purge and the conffile /etc/default/p2pdiag-check" ||
	result 0 "deb: p2pdiag-check has dh_installsystemd's maintainer scripts, its purge and the conffile /etc/default/p2pdiag-check" "$ctl"
src=$(dpkg-deb -c "${debs[0]}" | awk '{ print $NF }' | grep '/kmod/scripts/.')
[ "$src" = "./usr/src/p2pdiag-$ver/kmod/scripts/package-version" ] &&
	result 1 "deb: p2pdiag-dkms's source has no developer scripts (only package-version, which Kbuild runs)" ||
	result 0 "deb: p2pdiag-dkms's source has no developer scripts (only package-version, which Kbuild runs)" "$src"
# Built on a machine that may have /usr/local/cuda, the packaged tool has
# no CUDA support unless the build profile asked for it.
dpkg-deb -x "${debs[1]}" "$tmp/unpacked"
"$tmp/unpacked/usr/bin/p2pdiag-check" --quick --no-color >"$out/cuda.txt" 2>&1
grep -q '^CUDA: not-built' "$out/cuda.txt" &&
	result 1 "deb: the packaged tool is built without CUDA (no build profile asked for it)" ||
	result 0 "deb: the packaged tool is built without CUDA (no build profile asked for it)" \
		"$(grep -i cuda "$out/cuda.txt" | head -3)"
if command -v lintian >/dev/null; then
	lint=$(lintian --pedantic "${debs[@]}" 2>&1 | grep -v '^running with root privileges')
	[ -z "$lint" ] && result 1 "deb: lintian --pedantic has nothing to say about either package" ||
		result 0 "deb: lintian --pedantic has nothing to say about either package" "$lint"
else
	result 0 "deb: lintian is installed" "apt-get install lintian"
fi
unitdir=$(pkg-config --variable=systemdsystemunitdir systemd)

# --- the next version, for the upgrade -------------------------------
# The same tree one version on: dpkg replaces both, DKMS keeps only the new
# module (dh-dkms's prerm removes the old one on upgrade).
up=$ver+upgrade1
"$root/userspace/packaging/copy-tree" "$root" "$tmp/next"
sed -i "s/^PACKAGE_VERSION=.*/PACKAGE_VERSION=\"$up\"/" "$tmp/next/dkms.conf"
next_built=0
"$tmp/next/userspace/packaging/build-deb" "$out/next" >"$out/build-next.log" 2>&1 && next_built=1

# The Build-Depends field of debian/control, on one line.
build_depends=$(awk '
	/^Build-Depends:/ { sub(/^Build-Depends:[ \t]*/, ""); field = 1; printf "%s ", $0; next }
	field && /^[ \t]/ { printf "%s ", $0; next }
	{ field = 0 }' "$root/userspace/packaging/debian/control")

# build_in_chroot SUITE SRC DEST LOG [VAR=VALUE...]: the packages of the
# build-deb tree SRC built in a chroot of SUITE that has the buildd
# essentials and the Build-Depends alone, at the same path, copied into
# DEST; the VARs join the build's otherwise empty environment.
build_in_chroot() {
	local suite=$1 src=$2 dest=$3 log=$4 base br
	shift 4
	base=$(cached_chroot "$suite-build" buildd "$suite" dpkg-dev "$log.debootstrap" "$build_depends") ||
		{ cat "$log.debootstrap" >"$log"; return 1; }
	br=$tmp/build-$suite
	rm -rf "$br" "$br.upper" "$br.work"
	overlay "$base" "$br"
	mkdir -p "$br$src"
	cp -a "$src/." "$br$src/"
	chroot "$br" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 "$@" \
		sh -c "cd '$src' && dpkg-buildpackage -b -us -uc -j2" >"$log" 2>&1 &&
		mkdir -p "$dest" && cp "$br${src%/*}"/*.deb "$dest/"
	local rc=$?
	umount_all
	rm -rf "$br" "$br.upper" "$br.work"
	return $rc
}

# older_than_host ROOT: whether the chroot ROOT holds an older Debian
# release than this machine (/etc/debian_version: 12.x, 13.x; testing
# and unstable name no number and are the newest).
older_than_host() {
	local theirs ours
	theirs=$(cut -d. -f1 "$1/etc/debian_version" 2>/dev/null)
	ours=$(cut -d. -f1 /etc/debian_version 2>/dev/null)
	case $theirs in '' | *[!0-9]*) return 1 ;; esac
	case $ours in '' | *[!0-9]*) return 0 ;; esac
	[ "$theirs" -lt "$ours" ]
}

# in_suite SUITE: the whole cycle in a fresh chroot of SUITE.
in_suite() {
suite=$1
r=$tmp/root-$suite
o=$out/$suite
mkdir -p "$o"
if ! base=$(cached_chroot "$suite" minbase "$suite" "$packages" "$o/debootstrap.log"); then
	result 0 "deb: a chroot of $suite" "$(tail -10 "$o/debootstrap.log")"
	return
fi
# the packages for this release, and those of the next version
suite_debs=("${debs[@]}") suite_next=$out/next suite_next_built=$next_built
if older_than_host "$base"; then
	suite_next=$o/next suite_next_built=0
	if build_in_chroot "$suite" "$out/debs/p2pdiag-$ver" "$o/debs" "$o/build.log"; then
		result 1 "deb: $suite: the packages build in a clean $suite chroot (an older release than this machine's)"
		suite_debs=("$o/debs/p2pdiag-dkms_${ver}_all.deb" "$o/debs/p2pdiag-check_${ver}_"*.deb)
	else
		result 0 "deb: $suite: the packages build in a clean $suite chroot (an older release than this machine's)" \
			"$(tail -15 "$o/build.log")"
		return
	fi
	[ "$next_built" = 1 ] &&
		build_in_chroot "$suite" "$out/next/p2pdiag-$up" "$o/next" "$o/build-next.log" &&
		suite_next_built=1
fi
overlay "$base" "$r"
in_root() { chroot "$r" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 "$@"; }
rel=$(find "$r/lib/modules" -mindepth 1 -maxdepth 1 -printf '%f\n' | head -1)

# Every path of the chroot but the API file systems, /tmp and /run (a
# tmpfs on a booted system: the health check's lock lives there), with type.
files() {
	in_root find / -xdev \( -path /tmp -o -path /var/tmp -o -path /var/log -o -path /run \) -prune \
		-o -printf '%y %p\n' | sort
}
# Not p2pdiag's, and rewritten by the tools that own them: dpkg's
# database backups, and depmod's indexes of the kernel's modules (dkms
# runs depmod when the module comes and when it goes).
# trixie's dkms makes a signing key on its first build (dkms's, kept for
# every module it builds).
not_ours='^[a-z] (/var/lib/dpkg/[a-z]*-old|/var/cache/debconf/[a-z.]*-old|(/usr)?/lib/modules/[^/]*/modules\.[a-z.]*|/var/lib/dkms/mok\.(key|pub))$'
files >"$o/before"

# --- install ------------------------------------------------------------
mkdir -p "$r/tmp/debs" && cp "${suite_debs[@]}" "$r/tmp/debs/"
if in_root sh -c 'dpkg -i /tmp/debs/*.deb' >"$o/install.log" 2>&1; then
	result 1 "deb: $suite: dpkg -i installs both"
else
	result 0 "deb: $suite: dpkg -i installs both" "$(tail -15 "$o/install.log")"
fi
st=$(in_root dkms status 2>&1)
grep -q "^p2pdiag/$ver, $rel, [^:]*: installed" <<<"$st" &&
	result 1 "deb: $suite: dkms status: p2pdiag/$ver installed for the chroot's headers ($rel)" ||
	result 0 "deb: $suite: dkms status: p2pdiag/$ver installed for the chroot's headers ($rel)" "$st"
ko=$(in_root find "/lib/modules/$rel" -name 'p2pdiag.ko*' | head -1)
mv_=$(in_root modinfo -F version "$ko" 2>&1)
vm=$(in_root modinfo -F vermagic "$ko" 2>&1)
[ "$mv_" = "$ver" ] && [ "${vm%% *}" = "$rel" ] &&
	result 1 "deb: $suite: the module DKMS built is version $ver for $rel" ||
	result 0 "deb: $suite: the module DKMS built is version $ver for $rel" "$ko: version '$mv_', vermagic '$vm'"

grep -v '^expect ' "$root/tests/unit/fixtures/03-amd-root-ports-acs.topo" >"$r/tmp/fixture.topo"
v=$(in_root p2pdiag-check --version 2>&1)
in_root p2pdiag-check --topology-file /tmp/fixture.topo --no-color >"$o/check.txt" 2>&1
rc=$?
[ "$v" != "${v#"p2pdiag-check $ver "}" ] && [ "$rc" = 1 ] && grep -q 'acs-redirect' "$o/check.txt" &&
	result 1 "deb: $suite: the installed p2pdiag-check runs (--version; an offline check exits 1 with its findings)" ||
	result 0 "deb: $suite: the installed p2pdiag-check runs (--version; an offline check exits 1 with its findings)" \
		"version '$v', exit $rc: $(head -5 "$o/check.txt")"
want="/usr/share/man/man8/p2pdiag-check.8.gz /usr/share/man/man4/p2pdiag.4.gz
/usr/share/bash-completion/completions/p2pdiag-check $unitdir/p2pdiag-check.service
$unitdir/p2pdiag-check.timer /usr/share/p2pdiag/schema.json
/usr/share/p2pdiag/prometheus/p2pdiag.rules.yml /etc/default/p2pdiag-check
/usr/libexec/p2pdiag/p2pdiag-healthcheck /usr/share/p2pdiag/kubernetes/p2pdiag-check-pci.yaml"
miss=$(for f in $want; do [ -f "$r$f" ] || echo "$f"; done)
[ -z "$miss" ] && result 1 "deb: $suite: p2pdiag-check brings man pages, completion, units, schema, alert rules, defaults file, health check, DaemonSets" ||
	result 0 "deb: $suite: p2pdiag-check brings man pages, completion, units, schema, alert rules, defaults file, health check, DaemonSets" "missing: $miss"
cp "$root/tests/unit/tool/fixtures/switchacs.topo" "$r/tmp/broken.topo"
hc=$(in_root /usr/libexec/p2pdiag/p2pdiag-healthcheck --no-drain --topology-file /tmp/broken.topo 2>/dev/null)
rc=$?
[ "$rc" = 1 ] && [ "${hc#p2pdiag: host-bridge-no-p2p (2 pairs: }" != "$hc" ] &&
	result 1 "deb: $suite: the installed Slurm health check finds the installed p2pdiag-check (--no-drain: the reason, exit 1)" ||
	result 0 "deb: $suite: the installed Slurm health check finds the installed p2pdiag-check (--no-drain: the reason, exit 1)" "exit $rc: $hc"
en=$(find "$r/etc/systemd" -name 'p2pdiag-check.*' 2>/dev/null)
[ -z "$en" ] && result 1 "deb: $suite: installing enables neither the timer nor the service" ||
	result 0 "deb: $suite: installing enables neither the timer nor the service" "$en"
# The admin enables the timer; the service runs once (its helper, as
# systemd would start it: StateDirectory made, the textfile directory of
# /etc/default), writing the report and the textfile.
link=/etc/systemd/system/timers.target.wants/p2pdiag-check.timer
in_root systemctl enable p2pdiag-check.timer >"$o/enable.log" 2>&1
[ -L "$r$link" ] && result 1 "deb: $suite: systemctl enable p2pdiag-check.timer links it into timers.target" ||
	result 0 "deb: $suite: systemctl enable p2pdiag-check.timer links it into timers.target" "$(cat "$o/enable.log")"
mkdir -p "$r/var/lib/p2pdiag" "$r/tmp/textfile"
echo 'P2PDIAG_TEXTFILE_DIR=/tmp/textfile' >>"$r/etc/default/p2pdiag-check"
echo 'P2PDIAG_CHECK_OPTIONS="--topology-file /tmp/fixture.topo"' >>"$r/etc/default/p2pdiag-check"
in_root sh -c 'set -a; . /etc/default/p2pdiag-check; STATE_DIRECTORY=/var/lib/p2pdiag \
	exec /usr/libexec/p2pdiag/p2pdiag-check-service' >"$o/service.log" 2>&1
rc=$?
[ "$rc" = 1 ] && [ -s "$r/var/lib/p2pdiag/report.json" ] && grep -qx 'p2pdiag_exit_status 1' "$r/tmp/textfile/p2pdiag.prom" &&
	result 1 "deb: $suite: the service's run writes /var/lib/p2pdiag/report.json and the textfile" ||
	result 0 "deb: $suite: the service's run writes /var/lib/p2pdiag/report.json and the textfile" \
		"exit $rc: $(tail -5 "$o/service.log")"

# --- upgrade ------------------------------------------------------------
if [ "$suite_next_built" = 1 ] &&
   cp "$suite_next/p2pdiag-dkms_${up}_all.deb" "$suite_next/p2pdiag-check_${up}_"*.deb "$r/tmp/" &&
   in_root sh -c "dpkg -i /tmp/p2pdiag-*_${up}_*.deb" >"$o/upgrade.log" 2>&1; then
	st=$(in_root dkms status 2>&1)
	ko=$(in_root find "/lib/modules/$rel" -name 'p2pdiag.ko*')
	[ "$st" = "$(grep "^p2pdiag/$up, $rel, " <<<"$st")" ] && [ -n "$st" ] &&
		[ "$(in_root modinfo -F version "$ko" 2>&1)" = "$up" ] &&
		[ ! -e "$r/usr/src/p2pdiag-$ver" ] &&
		result 1 "deb: $suite: upgrading to $up leaves only the new module, built for $rel" ||
		result 0 "deb: $suite: upgrading to $up leaves only the new module, built for $rel" \
			"dkms status: $st; modules: $ko"
else
	result 0 "deb: $suite: upgrading to $up leaves only the new module, built for $rel" \
		"$(tail -n 10 "$out/build-next.log" "$o/build-next.log" "$o/upgrade.log" 2>&1)"
fi
rm -f "$r"/tmp/p2pdiag-*.deb

# --- remove -------------------------------------------------------------
if in_root dpkg --purge p2pdiag-check p2pdiag-dkms >"$o/purge.log" 2>&1; then
	result 1 "deb: $suite: dpkg --purge removes both"
else
	result 0 "deb: $suite: dpkg --purge removes both" "$(tail -15 "$o/purge.log")"
fi
st=$(in_root dkms status 2>&1)
[ -z "$st" ] && result 1 "deb: $suite: dkms status is empty again" || result 0 "deb: $suite: dkms status is empty again" "$st"
left=$(for f in "$link" /var/lib/p2pdiag /tmp/textfile/p2pdiag.prom; do
	[ -e "$r$f" ] || [ -L "$r$f" ] && echo "$f"; done)
[ -z "$left" ] && result 1 "deb: $suite: purge removes the timer's link, the report and the textfile (elsewhere than the default)" ||
	result 0 "deb: $suite: purge removes the timer's link, the report and the textfile (elsewhere than the default)" "left: $left"
files >"$o/after"
d=$(diff "$o/before" "$o/after" | grep '^[<>]' | grep -Ev "^[<>] ${not_ours#^}")
[ -z "$d" ] && result 1 "deb: $suite: after purge the file list is as before ($(wc -l <"$o/before") paths)" ||
	result 0 "deb: $suite: after purge the file list is as before ($(wc -l <"$o/before") paths)" "$d"
# --- make dkms-install / dkms-remove from a source tree -----------------
mkdir -p "$r/tmp/src"
(cd "$root" && tar -cf - Kbuild Makefile dkms.conf include kmod) | tar -xf - -C "$r/tmp/src"
if in_root make -C /tmp/src dkms-install KERNELRELEASE="$rel" >"$o/dkms-install.log" 2>&1 &&
   in_root dkms status | grep -q "^p2pdiag/$ver, $rel, [^:]*: installed" &&
   [ -f "$r/usr/src/p2pdiag-$ver/dkms.conf" ]; then
	result 1 "deb: $suite: make dkms-install from the source tree installs the module for $rel"
else
	result 0 "deb: $suite: make dkms-install from the source tree installs the module for $rel" \
		"$(tail -10 "$o/dkms-install.log"; in_root dkms status)"
fi
in_root make -C /tmp/src dkms-remove >"$o/dkms-remove.log" 2>&1
rc=$?
rm -rf "$r/tmp/src"
files >"$o/after-dkms"
d=$(diff "$o/before" "$o/after-dkms" | grep '^[<>]' | grep -Ev "^[<>] ${not_ours#^}")
[ "$rc" = 0 ] && [ -z "$(in_root dkms status)" ] && [ -z "$d" ] &&
	result 1 "deb: $suite: make dkms-remove unregisters it and leaves the file list as before" ||
	result 0 "deb: $suite: make dkms-remove unregisters it and leaves the file list as before" \
		"exit $rc: $(tail -5 "$o/dkms-remove.log") $d"
umount_all
}

for s in $suites; do
	echo "# ---- $s"
	in_suite "$s"
done

# --- reproducible: two clean builds ------------------------------------
# The source tree make deb built from, built twice in a chroot of this
# machine's release that has only the buildd essentials and
# debian/control's Build-Depends: once at make deb's path, once at
# another path with another time zone, locale and umask, minutes apart.
# The packages must be the same files, byte for byte: what leaks from
# the build's surroundings into them would make each build its own.
# This machine's own build is not the reference: what it has installed
# (a newer toolchain, /usr/local/cuda) is not the source's.  Where they
# differ, diffoscope (tests' .ci/deps) says where and how.
host_suite=$(. /etc/os-release 2>/dev/null && echo "${VERSION_CODENAME:-}")
label="deb: two clean ${host_suite:-?} builds from Build-Depends alone (another path, time zone, locale and umask) give the same files, byte for byte"
echo "# ---- two clean ${host_suite:-?} builds"
src_a=$out/debs/p2pdiag-$ver
src_b=$tmp/elsewhere/build-b/p2pdiag-$ver
mkdir -p "${src_b%/*}" && cp -a "$src_a" "$src_b"
if [ -z "$host_suite" ]; then
	result 0 "$label" "/etc/os-release names no VERSION_CODENAME"
elif ! build_in_chroot "$host_suite" "$src_a" "$out/repro/a" "$out/build-repro-a.log"; then
	result 0 "$label" "$(tail -15 "$out/build-repro-a.log")"
elif ! build_in_chroot "$host_suite" "$src_b" "$out/repro/b" "$out/build-repro-b.log" \
	TZ=XXX-14 LC_ALL=C.UTF-8 LANGUAGE=de sh -c 'umask 0002 && exec "$@"' sh; then
	result 0 "$label" "$(tail -15 "$out/build-repro-b.log")"
else
	bad=
	for d in "$out"/repro/a/*.deb; do
		other=$out/repro/b/${d##*/}
		if [ ! -f "$other" ]; then
			bad+="${d##*/}: only in the first build"$'\n'
		elif ! cmp -s "$d" "$other"; then
			bad+="${d##*/} differs"
			if command -v diffoscope >/dev/null; then
				bad+=$'\n'"$(timeout 120 diffoscope --no-progress --text - "$d" "$other" 2>&1 | head -40)"
			else
				bad+=" (apt-get install diffoscope-minimal says where)"
			fi
			bad+=$'\n'
		fi
	done
	nr_debs=$(find "$out/repro/a" -name "*.deb" | wc -l)
	[ -z "$bad" ] && [ "$nr_debs" -ge 2 ] && result 1 "$label ($nr_debs packages)" || result 0 "$label" "${bad:-no packages}"
fi
summary
