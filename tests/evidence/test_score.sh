#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# test_score.sh: the evidence scorer's own rules, against a stand-in
# p2pdiag-check whose report each test chooses, on cases made here: the
# first cause of severity error or warning is the verdict, info causes
# are not, "none" passes only without a cause, an evidence-undecided note
# is counted as honestly unknown, a missing --evidence option, a crash,
# a hang or a report that is no JSON fail the case with the reason, and a
# case marked known-wrong is a TODO: not failed, yet counted as wrong (or
# unknown), and told to drop the mark once right.  Usage: test_score.sh
set -u
here=$(cd "$(dirname "$0")" && pwd)
score=$here/score
# result and summary: KTAP-ish lines as the packaging tests print them
. "$here/../tap.sh"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/p2pdiag-score-test-XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

# mkcase NAME DIAGNOSIS [KNOWN-WRONG]: a case whose one file says which
# report the stand-in gives (see fake below), marked known-wrong with the
# reason when one is given
mkcase() {
	mkdir -p "$tmp/cases/$1"
	printf 'thread: https://example.invalid/%s\ntitle: %s\ndiagnosis: %s\nsettled-by: test\n' \
		"$1" "$1" "$2" >"$tmp/cases/$1/CASE"
	[ -n "${3-}" ] && echo "known-wrong: $3" >>"$tmp/cases/$1/CASE"
	echo "${4:-$1}" >"$tmp/cases/$1/evidence.txt"
}

# The stand-in: --help names --evidence; the report depends on the word
# in the case's evidence file.
cat >"$tmp/fake" <<'EOF'
#!/bin/bash
if [ "$1" = --help ]; then echo "  --evidence FILE...  judge pasted outputs"; exit 0; fi
case "$(cat "${@: -1}")" in
acs) echo '{"causes":[{"code":"acs-redirect","severity":"error"}]}' ;;
info-then-warn) echo '{"causes":[{"code":"link-slow-idle","severity":"info"},{"code":"numa-remote","severity":"warning"}]}' ;;
info-only) echo '{"causes":[{"code":"link-slow-idle","severity":"info"}]}' ;;
clean) echo '{"causes":[]}' ;;
undecided-info) echo '{"causes":[{"code":"evidence-undecided","severity":"info"}]}' ;;
undecided-warn) echo '{"causes":[{"code":"evidence-undecided","severity":"warning"}]}' ;;
garbage) echo 'not json'; exit 3 ;;
crash) kill -SEGV $$ ;;
hang) exec sleep 30 ;;
esac
EOF
chmod +x "$tmp/fake"
printf '#!/bin/bash\necho "usage: p2pdiag-check [--json]"\n' >"$tmp/old"
chmod +x "$tmp/old"

# run_score BIN CASE...: sets out and rc
run_score() {
	local bin=$1
	shift
	out=$(P2PDIAG_CHECK=$bin EVIDENCE_CASE_TIMEOUT=2 "$score" "$@" 2>&1)
	rc=$?
}

# expect NAME PATTERN: the last run's output has a line matching PATTERN
expect() {
	if echo "$out" | grep -qE -- "$2"; then result 1 "$1"; else result 0 "$1" "$out"; fi
}

mkcase acs acs-redirect
mkcase info-then-warn numa-remote
mkcase info-only none
mkcase clean none
mkcase undecided-info acs-redirect
mkcase undecided-warn acs-redirect
mkcase garbage xid
mkcase crash none
mkcase hang none
mkcase clean-but-broken acs-redirect
echo clean >"$tmp/cases/clean-but-broken/evidence.txt"
mkcase todo-wrong xid "reads the Xid line as an AER error" acs
mkcase todo-unknown acs-redirect "no ACS read from a grep of ACSCtl" undecided-warn
mkcase todo-fixed acs-redirect "once read the ACSCtl list as no format" acs
mkcase todo-crash none "crashes on this file" crash
mkcase todo-hang none "hangs on this file" hang
c=$tmp/cases

run_score "$tmp/fake" "$c/acs"
expect "an error cause equal to the diagnosis passes" '^ok 1 acs$'
[ "$rc" = 0 ] && result 1 "a passing corpus exits 0" || result 0 "a passing corpus exits 0" "$out"

run_score "$tmp/fake" "$c/info-then-warn"
expect "info causes are skipped for the first cause" '^ok 1 info-then-warn$'

run_score "$tmp/fake" "$c/info-only" "$c/clean"
expect "a none case passes with only info causes" '^ok 1 info-only$'
expect "a none case passes with no cause" '^ok 2 clean$'

run_score "$tmp/fake" "$c/clean-but-broken"
expect "no cause where the thread found one fails" '^not ok 1 clean-but-broken: expected acs-redirect, got none$'
expect "and counts as wrong" '1 wrong, 0 honestly unknown'
[ "$rc" = 1 ] && result 1 "a failing corpus exits 1" || result 0 "a failing corpus exits 1" "$out"

run_score "$tmp/fake" "$c/undecided-info" "$c/undecided-warn"
expect "an undecided note without a cause fails" '^not ok 1 undecided-info: expected acs-redirect, got none$'
expect "an undecided first cause fails" '^not ok 2 undecided-warn: expected acs-redirect, got evidence-undecided$'
expect "both count as honestly unknown" '0 right, 0 wrong, 2 honestly unknown'

run_score "$tmp/fake" "$c/garbage"
expect "a report that is no JSON fails with the exit status" '^not ok 1 garbage: expected xid, got no report \(exit 3'

run_score "$tmp/fake" "$c/crash"
expect "a crash fails with its signal" '^not ok 1 crash: expected none, got a crash \(signal 11\)$'

start=$SECONDS
run_score "$tmp/fake" "$c/hang"
expect "a hang fails after the timeout" '^not ok 1 hang: expected none, got a hang'
[ $((SECONDS - start)) -lt 10 ] && result 1 "a hang does not stall the scorer" ||
	result 0 "a hang does not stall the scorer" "took $((SECONDS - start)) s"

run_score "$tmp/old" "$c/acs" "$c/clean"
expect "without --evidence every case fails" '^not ok 2 clean: not scored .*no --evidence option'
expect "and the summary says so" '^0 passed, 2 failed$'
[ "$rc" = 1 ] && result 1 "without --evidence the exit is 1" || result 0 "without --evidence the exit is 1" "$out"

run_score "$tmp/fake" "$c/acs" "$c/todo-wrong" "$c/todo-unknown"
expect "a known-wrong case prints its reason as a TODO" \
	'^not ok 2 todo-wrong: expected xid, got acs-redirect # TODO reads the Xid line as an AER error$'
expect "a known-wrong unknown prints its reason as a TODO" \
	'^not ok 3 todo-unknown: expected acs-redirect, got evidence-undecided # TODO no ACS read'
expect "known-wrong cases are not counted as failed" '^1 passed, 0 failed$'
expect "yet count in the accuracy figures" '^# first cause: 1 right, 1 wrong, 1 honestly unknown'
expect "and are counted as known wrong" '^# known wrong \(TODO, not counted as failed\): 2$'
[ "$rc" = 0 ] && result 1 "known-wrong cases alone do not fail the corpus" ||
	result 0 "known-wrong cases alone do not fail the corpus" "$out"

run_score "$tmp/fake" "$c/todo-fixed"
expect "a known-wrong case now right says to drop the line" \
	'^ok 1 todo-fixed # TODO fixed: drop its known-wrong line$'
expect "and passes" '^1 passed, 0 failed$'

run_score "$tmp/fake" "$c/todo-wrong" "$c/clean-but-broken"
expect "an unmarked wrong case still fails next to a marked one" '^0 passed, 1 failed$'
[ "$rc" = 1 ] && result 1 "and the corpus exits 1" || result 0 "and the corpus exits 1" "$out"

run_score "$tmp/fake" "$c/todo-crash" "$c/todo-hang"
expect "a crash fails even when marked known-wrong" '^not ok 1 todo-crash: expected none, got a crash \(signal 11\)$'
expect "a hang fails even when marked known-wrong" '^not ok 2 todo-hang: expected none, got a hang [^#]*$'
expect "both count as failed" '^0 passed, 2 failed$'

mkdir -p "$tmp/noreason/x"
printf 'thread: https://example.invalid/x\ntitle: x\ndiagnosis: none\nsettled-by: test\nknown-wrong:\n' \
	>"$tmp/noreason/x/CASE"
run_score "$tmp/fake" "$tmp/noreason/x"
[ "$rc" = 2 ] && result 1 "a known-wrong line without a reason is a usage error" ||
	result 0 "a known-wrong line without a reason is a usage error" "$out"

mkdir -p "$tmp/nocase/x"
run_score "$tmp/fake" "$tmp/nocase/x"
[ "$rc" = 2 ] && result 1 "a case without CASE is a usage error" || result 0 "a case without CASE is a usage error" "$out"

mkdir -p "$tmp/nodiag/x"
printf 'thread: https://example.invalid/x\ntitle: x\nsettled-by: test\n' >"$tmp/nodiag/x/CASE"
run_score "$tmp/fake" "$tmp/nodiag/x"
[ "$rc" = 2 ] && result 1 "a CASE without a diagnosis is a usage error" ||
	result 0 "a CASE without a diagnosis is a usage error" "$out"

run_score "$tmp/fake" "$c/acs" "$c/clean"
expect "the time line names the slowest case" '^# time: max [0-9]+ ms \((acs|clean)\), total [0-9.]+ ms for 2 cases$'

summary
