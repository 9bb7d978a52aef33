#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make install / make uninstall from the top level: PREFIX and DESTDIR
# are honoured, the paths inside the unit follow PREFIX, and uninstall
# removes every file that install put there.  Usage: test_install.sh ROOT
set -u
root=$1
. "$(dirname "$0")/../tap.sh"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/p2pdiag-install-XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

files() { (cd "$1" && find . -type f -printf '%P %m\n' | sort); }

want_usr="usr/bin/p2pdiag-check 755
usr/lib/systemd/system/p2pdiag-check.service 644
usr/lib/systemd/system/p2pdiag-check.timer 644
usr/libexec/p2pdiag/p2pdiag-check-service 755
usr/libexec/p2pdiag/p2pdiag-healthcheck 755
usr/share/bash-completion/completions/p2pdiag-check 644
usr/share/doc/p2pdiag/README.md 644
usr/share/doc/p2pdiag/SCHEMA.md 644
usr/share/man/man4/p2pdiag.4 644
usr/share/man/man8/p2pdiag-check.8 644
usr/share/p2pdiag/kubernetes/p2pdiag-check-module.yaml 644
usr/share/p2pdiag/kubernetes/p2pdiag-check-pci.yaml 644
usr/share/p2pdiag/kubernetes/p2pdiag-namespace.yaml 644
usr/share/p2pdiag/nhc/p2pdiag.nhc 644
usr/share/p2pdiag/prometheus/p2pdiag-dashboard.json 644
usr/share/p2pdiag/prometheus/p2pdiag.rules.yml 644
usr/share/p2pdiag/schema.json 644"

for prefix in /usr /usr/local; do
	dest=$tmp/dest${prefix//\//-}
	want=$want_usr
	[ "$prefix" = /usr/local ] && want=${want_usr//usr\//usr\/local\/}
	log=$(make -s -C "$root" install PREFIX="$prefix" DESTDIR="$dest" 2>&1)
	got=$(files "$dest")
	[ "$got" = "$want" ] && result 1 "install: PREFIX=$prefix DESTDIR= installs every file, with its mode" ||
		result 0 "install: PREFIX=$prefix DESTDIR= installs every file, with its mode" \
			"$(diff <(echo "$want") <(echo "$got"))$log"
	unit=$dest$prefix/lib/systemd/system/p2pdiag-check.service
	helper=$dest$prefix/libexec/p2pdiag/p2pdiag-check-service
	grep -qx "ExecStart=$prefix/libexec/p2pdiag/p2pdiag-check-service" "$unit" 2>/dev/null &&
		grep -q "^check=\${P2PDIAG_CHECK:-$prefix/bin/p2pdiag-check}\$" "$helper" 2>/dev/null &&
		grep -q "^check=\${P2PDIAG_CHECK:-$prefix/bin/p2pdiag-check}\$" "${helper%/*}/p2pdiag-healthcheck" 2>/dev/null &&
		! grep -q '@[A-Z]*@' "$unit" "$helper" "${helper%/*}/p2pdiag-healthcheck" "$dest$prefix"/share/man/man*/* &&
		result 1 "install: PREFIX=$prefix: the unit, its helper and the health check name the installed paths" ||
		result 0 "install: PREFIX=$prefix: the unit, its helper and the health check name the installed paths" \
			"$(grep -h 'ExecStart\|^check=\|@[A-Z]*@' "$unit" "$helper" 2>&1)"
	make -s -C "$root" uninstall PREFIX="$prefix" DESTDIR="$dest" >/dev/null 2>&1
	left=$(files "$dest")
	[ -z "$left" ] && [ ! -d "$dest$prefix/share/p2pdiag" ] && [ ! -d "$dest$prefix/libexec/p2pdiag" ] &&
		result 1 "uninstall: PREFIX=$prefix: no file left, nor p2pdiag's own directories" ||
		result 0 "uninstall: PREFIX=$prefix: no file left, nor p2pdiag's own directories" "$left"
done

# A file that is not p2pdiag's, in a directory it shares, survives.
mkdir -p "$tmp/shared/usr/share/man/man8" && install -m 644 /dev/null "$tmp/shared/usr/share/man/man8/other.8"
make -s -C "$root" install PREFIX=/usr DESTDIR="$tmp/shared" >/dev/null 2>&1
make -s -C "$root" uninstall PREFIX=/usr DESTDIR="$tmp/shared" >/dev/null 2>&1
[ "$(files "$tmp/shared")" = "usr/share/man/man8/other.8 644" ] &&
	result 1 "uninstall: removes only p2pdiag's files" ||
	result 0 "uninstall: removes only p2pdiag's files" "$(files "$tmp/shared")"
summary
