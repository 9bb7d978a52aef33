#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# p2pdiag-check.service and .timer as installed: systemd-analyze verify
# has nothing to say, the timer is not enabled by installing; the helper
# the service runs writes the JSON report whole (renamed into place), the
# node_exporter textfile, and journal lines with priorities, and keeps
# the last report when a run fails.
# Usage: test_systemd.sh ROOT P2PDIAG_CHECK TEST_TOOL
set -u
root=$1 bin=$2 tool=$3
. "$(dirname "$0")/../tap.sh"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/p2pdiag-systemd-XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

# Installed under a real prefix (no DESTDIR): verify checks that ExecStart
# exists and that the Documentation= pages open.
pfx=$tmp/pfx
make -s -C "$root" install PREFIX="$pfx" >"$tmp/log" 2>&1 ||
	result 0 "systemd: make install" "$(cat "$tmp/log")"
units=$pfx/lib/systemd/system
if command -v systemd-analyze >/dev/null; then
	out=$(cd "$tmp" && MANPATH=$pfx/share/man: systemd-analyze verify \
		"$units/p2pdiag-check.service" "$units/p2pdiag-check.timer" 2>&1)
	rc=$?
	[ "$rc" = 0 ] && [ -z "$out" ] && result 1 "systemd: systemd-analyze verify is silent" ||
		result 0 "systemd: systemd-analyze verify is silent" "exit $rc: $out"
	# The check itself can fail: a unit with a typo does not pass.
	sed 's/^Type=oneshot/Type=oneshoot/' "$units/p2pdiag-check.service" >"$tmp/p2pdiag-check.service"
	out=$(cd "$tmp" && MANPATH=$pfx/share/man: systemd-analyze verify "$tmp/p2pdiag-check.service" 2>&1)
	[ -n "$out" ] && result 1 "systemd: ... and speaks up about a broken unit" ||
		result 0 "systemd: ... and speaks up about a broken unit"
else
	result 0 "systemd: systemd-analyze is installed"
fi
grep -qx 'TimeoutStartSec=30min' "$units/p2pdiag-check.service" &&
	result 1 "systemd: the oneshot has a start timeout (a oneshot's default is none)" ||
	result 0 "systemd: the oneshot has a start timeout (a oneshot's default is none)"
grep -qx 'Type=oneshot' "$units/p2pdiag-check.service" && ! grep -q '^\[Install\]' "$units/p2pdiag-check.service" &&
	grep -qx 'WantedBy=timers.target' "$units/p2pdiag-check.timer" && [ ! -e "$pfx/lib/systemd/system/timers.target.wants" ] &&
	result 1 "systemd: a oneshot started by its timer only; installing enables nothing" ||
	result 0 "systemd: a oneshot started by its timer only; installing enables nothing"

helper=$pfx/libexec/p2pdiag/p2pdiag-check-service
mkdir -p "$tmp/state" "$tmp/prom" "$tmp/redirect" "$tmp/empty"
"$tool" --make-tree "$tmp/redirect" redirect >/dev/null 2>&1
service() { # service OPTIONS: run the helper as the unit would
	STATE_DIRECTORY=$tmp/state P2PDIAG_TEXTFILE_DIR=$tmp/prom \
		P2PDIAG_CHECK_OPTIONS="$1" P2PDIAG_CHECK=$bin "$helper" 2>"$tmp/journal"
	rc=$?
}

service "--sysfs-root $tmp/redirect --no-cuda"
prio=$(sed -n 's/^<\([0-9]\)>warning acs-redirect .*/\1/p' "$tmp/journal" | sort -u)
[ "$rc" = 1 ] && [ "$prio" = 4 ] && ! grep -qv '^<[0-7]>' "$tmp/journal" &&
	result 1 "systemd: a run with warnings exits 1, every journal line has a priority, warnings at 4" ||
	result 0 "systemd: a run with warnings exits 1, every journal line has a priority, warnings at 4" \
		"exit $rc: $(cat "$tmp/journal")"
"$PYTHON" -c 'import json, sys; d = json.load(open(sys.argv[1])); sys.exit(d["summary"]["exit_status"] != 1)' \
	"$tmp/state/report.json" 2>"$tmp/err" && [ -z "$(find "$tmp/state" -name '.report.json.*')" ] &&
	[ "$(stat -c %a "$tmp/state/report.json")" = 644 ] &&
	result 1 "systemd: the report is in report.json (mode 644), no temporary left" ||
	result 0 "systemd: the report is in report.json (mode 644), no temporary left" "$(cat "$tmp/err"; ls -la "$tmp/state")"
grep -qx 'p2pdiag_exit_status 1' "$tmp/prom/p2pdiag.prom" 2>/dev/null &&
	result 1 "systemd: the node_exporter textfile says exit status 1" ||
	result 0 "systemd: the node_exporter textfile says exit status 1"
# The package's purge reads where the textfile went (debian/postrm).
[ "$(cat "$tmp/state/textfile" 2>/dev/null)" = "$tmp/prom/p2pdiag.prom" ] &&
	result 1 "systemd: ... and where it went is recorded in the state directory" ||
	result 0 "systemd: ... and where it went is recorded in the state directory" \
		"$(cat "$tmp/state/textfile" 2>&1)"

cp "$tmp/state/report.json" "$tmp/last.json"
service "--source=module --sysfs-root $tmp/empty --no-cuda"
[ "$rc" = 3 ] && cmp -s "$tmp/last.json" "$tmp/state/report.json" &&
	grep -q '^<3>p2pdiag-check failed (exit status 3)' "$tmp/journal" &&
	grep -q '^<3>p2pdiag-check: --sysfs-root .* holds no abi_version' "$tmp/journal" && ! grep -qv '^<[0-7]>' "$tmp/journal" &&
	[ -z "$(find "$tmp/state" -name '.report.json.*')" ] &&
	result 1 "systemd: a failed run exits 3, says why at priority 3 and keeps the last report" ||
	result 0 "systemd: a failed run exits 3, says why at priority 3 and keeps the last report" \
		"exit $rc: $(cat "$tmp/journal")"
grep -qx 'p2pdiag_exit_status 3' "$tmp/prom/p2pdiag.prom" 2>/dev/null &&
	result 1 "systemd: ... and the textfile says exit status 3" ||
	result 0 "systemd: ... and the textfile says exit status 3"

# A textfile directory the unit's ProtectSystem=strict leaves read-only
# (one named in /etc/default without a ReadWritePaths= drop-in), played
# by a read-only bind mount in a mount namespace of the test's own,
# private, so that nothing it mounts reaches this machine's namespace
# (where / is no mount point, in a chroot, none can be made private).
private_ns=0
[ "$(id -u)" = 0 ] && command -v unshare >/dev/null && unshare -m true 2>/dev/null &&
	private_ns=1
if [ "$private_ns" = 1 ]; then
	cp "$tmp/prom/p2pdiag.prom" "$tmp/prom.before"
	STATE_DIRECTORY=$tmp/state P2PDIAG_TEXTFILE_DIR=$tmp/prom \
		P2PDIAG_CHECK_OPTIONS="--sysfs-root $tmp/redirect --no-cuda" P2PDIAG_CHECK=$bin \
		unshare -m sh -c 'mount --bind "$1" "$1" && mount -o remount,bind,ro "$1" && exec "$2"' \
		sh "$tmp/prom" "$helper" 2>"$tmp/journal"
	rc=$?
	[ "$rc" = 3 ] && grep -q "^<3>P2PDIAG_TEXTFILE_DIR $tmp/prom is read-only for the service: .*ReadWritePaths=$tmp/prom\$" "$tmp/journal" &&
		cmp -s "$tmp/prom.before" "$tmp/prom/p2pdiag.prom" &&
		result 1 "systemd: a read-only textfile directory: exit 3, the journal names the drop-in that fixes it" ||
		result 0 "systemd: a read-only textfile directory: exit 3, the journal names the drop-in that fixes it" \
			"exit $rc: $(cat "$tmp/journal")"
else
	echo "ok $((n + 1)) systemd: a read-only textfile directory # SKIP needs root and a private mount namespace (unshare -m; none where / is no mount point)"
	n=$((n + 1)) passed=$((passed + 1))
fi

rm -rf "$tmp/prom"
service "--sysfs-root $tmp/redirect --no-cuda"
[ "$rc" = 1 ] && grep -q "^<6>no $tmp/prom: no node_exporter textfile" "$tmp/journal" &&
	result 1 "systemd: without node_exporter's directory the run still reports, and says why no textfile" ||
	result 0 "systemd: without node_exporter's directory the run still reports, and says why no textfile" \
		"exit $rc: $(cat "$tmp/journal")"
summary
