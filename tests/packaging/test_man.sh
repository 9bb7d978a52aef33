#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The man pages as installed: rendered by man -l, no warnings from
# groff -ww or mandoc -T lint; p2pdiag-check(8) documents every option of
# --help, p2pdiag(4) every file of include/uapi/p2pdiag/ABI.txt and every
# module parameter, and abi2man
# refuses an ABI text it cannot read.  Usage: test_man.sh ROOT P2PDIAG_CHECK
set -u
root=$1 bin=$2
. "$(dirname "$0")/../tap.sh"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/p2pdiag-man-XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

make -s -C "$root" install PREFIX=/usr DESTDIR="$tmp/d" >"$tmp/log" 2>&1 ||
	result 0 "man: make install" "$(cat "$tmp/log")"
man8=$tmp/d/usr/share/man/man8/p2pdiag-check.8
man4=$tmp/d/usr/share/man/man4/p2pdiag.4

for page in "$man8" "$man4"; do
	name=${page##*/}
	out=$(MANWIDTH=80 man --warnings -l "$page" 2>"$tmp/err")
	[ -s "$tmp/err" ] || [ -z "$out" ] || ! grep -q '^NAME' <<<"$out" &&
		result 0 "man: $name renders with man -l, no warnings" "$(cat "$tmp/err")" ||
		result 1 "man: $name renders with man -l, no warnings"
	printf '%s\n' "$out" >"$tmp/$name.txt"
	w=$(groff -ww -man -Tutf8 -z "$page" 2>&1)
	[ -z "$w" ] && result 1 "man: $name: groff -ww is silent" ||
		result 0 "man: $name: groff -ww is silent" "$w"
	w=$(mandoc -T lint -W all "$page" 2>&1)
	[ -z "$w" ] && result 1 "man: $name: mandoc -T lint is silent" ||
		result 0 "man: $name: mandoc -T lint is silent" "$w"
done

# man renders "-" as it is in ASCII; the page must have every option.
missing=$(help_options "$bin" | while read -r o; do
	grep -q -- "$o\\b" "$tmp/p2pdiag-check.8.txt" || echo "$o"
done)
[ -z "$missing" ] && result 1 "man: p2pdiag-check(8) has every option of --help" ||
	result 0 "man: p2pdiag-check(8) has every option of --help" \
		"missing: $missing (document it in userspace/man/p2pdiag-check.8)"
[ -n "$(help_options "$bin")" ] || result 0 "man: --help lists options" "none found"

missing=$(sed -n 's/^What:[[:space:]]*//p' "$root/include/uapi/p2pdiag/ABI.txt" | while read -r w; do
	grep -qxF "       $w" "$tmp/p2pdiag.4.txt" || echo "$w"
done)
[ -z "$missing" ] && result 1 "man: p2pdiag(4) has every file of ABI.txt" ||
	result 0 "man: p2pdiag(4) has every file of ABI.txt" "missing: $missing"

# Every module parameter of kmod/ is in p2pdiag(4).
params=$(sed -n 's/^module_param(\([a-z_0-9]*\),.*/\1/p' "$root"/kmod/*.c | sort -u)
missing=$(for p in $params; do grep -q "^       $p=" "$tmp/p2pdiag.4.txt" || echo "$p"; done)
[ -n "$params" ] && [ -z "$missing" ] && result 1 "man: p2pdiag(4) has every module parameter ($(echo $params))" ||
	result 0 "man: p2pdiag(4) has every module parameter ($(echo $params))" \
		"missing: $missing (document it in userspace/man/p2pdiag.4.in)"

# abi2man must stop at text it cannot place, not drop it.
abi2man=$root/userspace/man/abi2man
template=$root/userspace/man/p2pdiag.4.in
printf 'What:\t\t/sys/kernel/p2pdiag/x\nstray text\n' >"$tmp/bad-abi"
if "$abi2man" "$template" "$tmp/bad-abi" >/dev/null 2>"$tmp/err"; then
	result 0 "man: abi2man refuses an entry without Description:"
else
	grep -q 'bad-abi:2:' "$tmp/err" && result 1 "man: abi2man refuses an entry without Description:, naming the line" ||
		result 0 "man: abi2man refuses an entry without Description:, naming the line" "$(cat "$tmp/err")"
fi
summary
