#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Every output file (--prometheus, --nfd-features, --baseline save,
# --graph, --json=FILE), written as root into a directory another user
# owns, as the service does into node_exporter's textfile directory: what
# that user planted there (a link at any name, a file at a guessable one)
# is never followed nor reused; an existing output keeps its owner and
# mode, a new one is 0644 whatever the umask; and an output that cannot be
# written is said, naming it, without hiding the verdict's exit status.
# Usage: test_safe_outputs.sh P2PDIAG_CHECK FIXTURES
set -u
bin=$1 fix=$2
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/p2pdiag-outputs-XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/hermetic/proc" &&
	printf 'processor\t: 0\nvendor_id\t: GenuineIntel\ncpu family\t: 6\n\n' \
		>"$tmp/hermetic/proc/cpuinfo"
export P2PDIAG_FSROOT=$tmp/hermetic
. "$here/../../tap.sh"

healthy=$fix/sriov-switch.topo broken=$fix/switchacs.topo
# the user who plants: nobody, as a throwaway user would be
other=65534

run() { # run CMD...: sets rc, out, err
	out=$("$@" 2>"$tmp/stderr"); rc=$?
	err=$(cat "$tmp/stderr")
}

# The outputs of one run, by the option that writes each: OPTION NAME.
outputs="--prometheus p2p.prom
--nfd-features p2pdiag
--baseline-save base.json
--graph tree.dot
--json= report.json"

# args_for OPTION PATH: the command-line words that write PATH
args_for() {
	case $1 in
	--baseline-save) echo "--baseline save $2";;
	--json=) echo "--json=$2";;
	*) echo "$1 $2";;
	esac
}

# stat_of PATH: "owner:group mode" of the file itself
stat_of() { stat -c '%u:%g %a' "$1" 2>/dev/null; }

if [ "$(id -u)" != 0 ]; then
	echo "ok 1 outputs: planted links and files # SKIP not root: the attacks need a directory of another user"
	n=1 passed=1
	summary "outputs"
	exit
fi

# A root-owned secret outside the directory; the directory is another
# user's, who plants in it.
printf 'root secret\n' >"$tmp/secret" && chmod 600 "$tmp/secret"
want_secret="0:0 600"

while read -r opt name; do
	# 1. links at the names the tool used to write first (NAME.tmp,
	#    .NAME.tmp) and at a few random-looking ones, all to the secret
	d=$tmp/links-${name%%.*}
	mkdir -p "$d" && chown "$other:$other" "$d" && chmod 755 "$d"
	for planted in "$name.tmp" ".$name.tmp"; do
		ln -s "$tmp/secret" "$d/$planted" && chown -h "$other:$other" "$d/$planted"
	done
	# shellcheck disable=SC2046
	run "$bin" --topology-file "$broken" --no-cuda $(args_for "$opt" "$d/$name")
	if [ "$(cat "$tmp/secret")" = "root secret" ] && [ "$(stat_of "$tmp/secret")" = "$want_secret" ] &&
	   [ "$rc" = 2 ] && [ -f "$d/$name" ] && [ ! -L "$d/$name" ]; then
		result 1 "outputs: $opt into another user's directory follows no link planted there"
	else
		result 0 "outputs: $opt into another user's directory follows no link planted there" \
			"exit $rc; secret now '$(head -c 80 "$tmp/secret")' $(stat_of "$tmp/secret"); $err"
	fi
	left=$(cd "$d" && ls -A | grep -vx -e "$name" -e "$name.tmp" -e ".$name.tmp")
	[ -z "$left" ] && result 1 "outputs: ... and leaves no temporary file" ||
		result 0 "outputs: ... and leaves no temporary file" "$left"

	# 2. regular files planted at those names, another user's, mode 666
	d=$tmp/files-${name%%.*}
	mkdir -p "$d" && chown "$other:$other" "$d" && chmod 755 "$d"
	for planted in "$name.tmp" ".$name.tmp"; do
		: >"$d/$planted" && chown "$other:$other" "$d/$planted" && chmod 666 "$d/$planted"
	done
	# shellcheck disable=SC2046
	run "$bin" --topology-file "$broken" --no-cuda $(args_for "$opt" "$d/$name")
	v=$(stat_of "$d/$name")
	[ "$v" = "0:0 644" ] && result 1 "outputs: $opt reuses no file planted there (root's, 0644)" ||
		result 0 "outputs: $opt reuses no file planted there (root's, 0644)" "'$v', exit $rc: $err"

	# 3. a link at the output's own name, another user's: refused, named
	d=$tmp/target-${name%%.*}
	mkdir -p "$d" && chown "$other:$other" "$d"
	ln -s "$tmp/secret" "$d/$name" && chown -h "$other:$other" "$d/$name"
	# shellcheck disable=SC2046
	run "$bin" --topology-file "$broken" --no-cuda $(args_for "$opt" "$d/$name")
	if [ "$rc" = 2 ] && [ "$(cat "$tmp/secret")" = "root secret" ] && [ -L "$d/$name" ] &&
	   [[ $err == *"$d/$name"*"symbolic link owned by uid $other"* ]] && [[ $err != *"root secret"* ]]; then
		result 1 "outputs: $opt at another user's link: refused, named, exit 2 kept"
	else
		result 0 "outputs: $opt at another user's link: refused, named, exit 2 kept" "exit $rc: $err"
	fi

	# 4. an existing output keeps its owner and mode
	d=$tmp/keep-${name%%.*}
	mkdir -p "$d" && : >"$d/$name" && chown "$other:$other" "$d/$name" && chmod 640 "$d/$name"
	# shellcheck disable=SC2046
	run "$bin" --topology-file "$broken" --no-cuda $(args_for "$opt" "$d/$name")
	v=$(stat_of "$d/$name")
	[ "$v" = "$other:$other 640" ] && [ -s "$d/$name" ] &&
		result 1 "outputs: $opt keeps an existing file's owner and mode" ||
		result 0 "outputs: $opt keeps an existing file's owner and mode" "'$v', exit $rc: $err"

	# 5. umask 000: a new output is 0644 all the same
	d=$tmp/umask-${name%%.*}
	mkdir -p "$d"
	# shellcheck disable=SC2046
	run sh -c 'umask 000; exec "$@"' sh "$bin" --topology-file "$broken" --no-cuda \
		$(args_for "$opt" "$d/$name")
	v=$(stat_of "$d/$name")
	[ "$v" = "0:0 644" ] && result 1 "outputs: $opt under umask 000 is 0644" ||
		result 0 "outputs: $opt under umask 000 is 0644" "'$v', exit $rc: $err"

	# 6. unwritable: said, named, the verdict's exit status kept (2), or
	#    3 where the verdict was all good
	# shellcheck disable=SC2046
	run "$bin" --topology-file "$broken" --no-cuda $(args_for "$opt" "/nonexistent/$name")
	[ "$rc" = 2 ] && [[ $err == *"/nonexistent/$name"* ]] &&
		result 1 "outputs: $opt /nonexistent/... on a broken machine exits 2, naming it" ||
		result 0 "outputs: $opt /nonexistent/... on a broken machine exits 2, naming it" "exit $rc: $err"
	# shellcheck disable=SC2046
	run "$bin" --topology-file "$healthy" --no-cuda $(args_for "$opt" "/nonexistent/$name")
	[ "$rc" = 3 ] && [[ $err == *"/nonexistent/$name"* ]] &&
		result 1 "outputs: ... and on a healthy one exits 3" ||
		result 0 "outputs: ... and on a healthy one exits 3" "exit $rc: $err"

	# 7. a FIFO at the output's name is no file to replace
	d=$tmp/fifo-${name%%.*}
	mkdir -p "$d" && mkfifo "$d/$name"
	# shellcheck disable=SC2046
	run timeout 20 "$bin" --topology-file "$broken" --no-cuda $(args_for "$opt" "$d/$name")
	[ "$rc" = 2 ] && [ -p "$d/$name" ] && [[ $err == *"$d/$name"*"a FIFO, not a regular file"* ]] &&
		result 1 "outputs: $opt at a FIFO is refused, the FIFO left" ||
		result 0 "outputs: $opt at a FIFO is refused, the FIFO left" "exit $rc: $err"
done <<<"$outputs"

# The caller's own link is followed: the file it points to is replaced,
# the link stays.
mkdir -p "$tmp/own/real" && ln -s real/p2p.prom "$tmp/own/p2p.prom"
run "$bin" --topology-file "$broken" --no-cuda --prometheus "$tmp/own/p2p.prom"
[ "$rc" = 2 ] && [ -L "$tmp/own/p2p.prom" ] && grep -q '^p2pdiag_exit_status 2' "$tmp/own/real/p2p.prom" 2>/dev/null &&
	result 1 "outputs: a link of the caller's own is followed, and stays" ||
	result 0 "outputs: a link of the caller's own is followed, and stays" "exit $rc: $err"
# ... but not through another user's link behind it
ln -s "$tmp/secret" "$tmp/own/theirs" && chown -h "$other:$other" "$tmp/own/theirs" &&
	ln -s theirs "$tmp/own/mine"
run "$bin" --topology-file "$broken" --no-cuda --prometheus "$tmp/own/mine"
[ "$rc" = 2 ] && [ "$(cat "$tmp/secret")" = "root secret" ] && [[ $err == *"symbolic link owned by uid $other"* ]] &&
	result 1 "outputs: ... but not on through another user's link" ||
	result 0 "outputs: ... but not on through another user's link" "exit $rc: $err"

# --json=FILE is the stdout report's JSON, and stdout keeps the text.
run "$bin" --topology-file "$broken" --no-cuda --json
want=$out
run "$bin" --topology-file "$broken" --no-cuda --json="$tmp/r.json"
# the identity's run_time is when each run read it: not compared
if [ "$rc" = 2 ] && [ "$(grep -v '"run_time":' "$tmp/r.json" 2>/dev/null)" = "$(grep -v '"run_time":' <<<"$want")" ] &&
   [[ $out == *"P2P here: broken."* ]]; then
	result 1 "outputs: --json=FILE writes the JSON report there, the text on stdout"
else
	result 0 "outputs: --json=FILE writes the JSON report there, the text on stdout" "exit $rc: $err"
fi
run "$bin" --topology-file "$broken" --no-cuda --json="$tmp/r2.json" --summary
[ "$rc" = 2 ] && [ -s "$tmp/r2.json" ] && [ "$(wc -l <<<"$out")" = 1 ] &&
	result 1 "outputs: --json=FILE goes with --summary" ||
	result 0 "outputs: --json=FILE goes with --summary" "exit $rc: $err"
run "$bin" --compare-fleet --json="$tmp/f.json" "$tmp/r.json"
[ "$rc" = 3 ] && [[ $err == *"--json=FILE does not apply"* ]] &&
	result 1 "outputs: --compare-fleet refuses --json=FILE" ||
	result 0 "outputs: --compare-fleet refuses --json=FILE" "exit $rc: $err"

summary "outputs"
