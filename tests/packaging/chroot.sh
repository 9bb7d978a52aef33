# SPDX-License-Identifier: GPL-2.0
# Sourced by the tests that work in debootstrap'd chroots (test_deb.sh,
# test_quickstart.sh, tests/container): each chroot is made once, kept in
# $cache (P2PDIAG_CACHE/chroot, default /var/cache/p2pdiag/chroot), and
# every run works on an overlay of it, so the cache stays clean.  The
# caller sets root (the source tree) and tmp (a scratch directory), and
# calls umount_all when done.  Needs root.
cache=${P2PDIAG_CACHE:-/var/cache/p2pdiag}/chroot

mounts=()
umount_all() {
	local i
	for ((i = ${#mounts[@]} - 1; i >= 0; i--)); do
		umount "${mounts[i]}" 2>/dev/null || umount -l "${mounts[i]}"
	done
	mounts=()
}

# satisfy ROOT DEPENDS: apt-get satisfy in the new chroot ROOT, which
# resolves a Build-Depends field as a buildd does (alternatives, build
# profiles: none is active), from the mirror debootstrap wrote into it.
satisfy() {
	local r=$1 deps=$2 rc
	cp /etc/resolv.conf "$r/etc/resolv.conf" 2>/dev/null || :
	mount --bind /proc "$r/proc" || return 1
	chroot "$r" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
		DEBIAN_FRONTEND=noninteractive sh -c \
		'apt-get update -q && apt-get satisfy -y -q --no-install-recommends "$1" && apt-get clean' \
		sh "$deps"
	rc=$?
	umount "$r/proc" 2>/dev/null || umount -l "$r/proc"
	return $rc
}

# cached_chroot NAME VARIANT SUITE PACKAGES LOG [DEPENDS]: the path of a
# debootstrap'd chroot of SUITE (its VARIANT, PACKAGES included, and
# DEPENDS satisfied) from the mirror the apt sources name for it (else
# their first Debian archive: a Debian 13 host names no bookworm), made
# once in the cache under a name of NAME and a digest of all that; fails,
# saying why in LOG, when it cannot be made.
cached_chroot() {
	local name=$1 variant=$2 suite=$3 pkgs=$4 log=$5 deps=${6:-} m key base
	if ! m=$("$root/tests/lab/host-mirror" archive "$suite"); then
		echo "this machine's apt sources name no Debian archive" >"$log"
		return 1
	fi
	key=$(printf '%s\n' "$name" "$pkgs" "$m" "$deps" | sha256sum | cut -c1-12)
	base=$cache/$name-$key
	if [ ! -d "$base" ]; then
		echo "# debootstrap --variant=$variant $suite from $m (cached as $base; minutes, once)" >&2
		mkdir -p "$cache"
		exec 9>"$cache/.lock"
		flock 9
		if [ ! -d "$base" ]; then
			rm -rf "$base.tmp"
			# one download of each .deb for every chroot of a suite
			mkdir -p "$cache/debs"
			nice debootstrap --cache-dir="$cache/debs" --variant="$variant" ${pkgs:+--include="$pkgs"} "$suite" \
				"$base.tmp" "$m" >"$log" 2>&1 &&
				{ [ -z "$deps" ] || satisfy "$base.tmp" "$deps" >>"$log" 2>&1; } &&
				rm -rf "$base.tmp/var/cache/apt/archives/"*.deb &&
				mv "$base.tmp" "$base"
		fi
		flock -u 9
		[ -d "$base" ] || return 1
	fi
	echo "$base"
}

# overlay BASE ROOT: ROOT a writable view of BASE (the cache stays
# clean), /proc and /dev inside; umount_all undoes it.
overlay() {
	local base=$1 root=$2
	mkdir -p "$root.upper" "$root.work" "$root"
	if mount -t overlay overlay -o "lowerdir=$base,upperdir=$root.upper,workdir=$root.work" "$root" 2>/dev/null; then
		mounts+=("$root")
	else
		cp -a "$base/." "$root/"	# no overlayfs here: a copy
	fi
	mount --bind /proc "$root/proc" && mounts+=("$root/proc")
	mount --bind /dev "$root/dev" && mounts+=("$root/dev")
}

