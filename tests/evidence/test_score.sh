#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# test_score.sh: the evidence scorer's own rules, against a stand-in
# p2pdiag-check whose report each test chooses, on cases made here: the
# top-level root_cause is the verdict and must equal the case's root
# cause; "undecided" and a report without the field fail and count as
# undecided; an error-severity first cause of another root cause counts
# as confidently wrong, a warning does not; a wrong "healthy" is counted;
# the first three suspects count for "within the top three", a fourth
# does not; a root cause outside the vocabulary (a finding code) is a
# usage error; a missing --evidence option, a crash, a hang or a report
# that is no JSON object fail the case, and exit 3 with a JSON report is
# a verdict; a case marked known-wrong is a TODO (but a crash or a hang
# still fails): not failed, yet counted
# in the figures as what the tool said, and told to drop the mark once
# right; each case's time is printed.  Usage: test_score.sh
set -u
here=$(cd "$(dirname "$0")" && pwd)
score=$here/score
# result and summary: KTAP-ish lines as the packaging tests print them
. "$here/../tap.sh"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/p2pdiag-score-test-XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

# mkcase NAME ROOT-CAUSE [KNOWN-WRONG [REPORT]]: a case whose one file
# names the report the stand-in gives (see fake below; NAME unless
# REPORT), marked known-wrong with the reason when one is given
mkcase() {
	mkdir -p "$tmp/cases/$1"
	printf 'thread: https://example.invalid/%s\ntitle: %s\nroot-cause: %s\nsettled: maintainer\nsettled-by: test\n' \
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
acs) echo '{"root_cause":"acs-redirect","suspects":[],"causes":[{"code":"acs-redirect","severity":"error","root_cause":"acs-redirect"}]}' ;;
healthy) echo '{"root_cause":"healthy","suspects":[],"causes":[{"code":"p2p-ok","severity":"info","root_cause":"healthy"}]}' ;;
undecided) echo '{"root_cause":"undecided","suspects":[],"causes":[{"code":"evidence-undecided","severity":"info","root_cause":"undecided"}]}' ;;
nofield) echo '{"causes":[{"code":"p2p-not-supported","severity":"error"}]}' ;;
numberfield) echo '{"root_cause":7,"causes":[]}' ;;
confident) echo '{"root_cause":"driver","suspects":[],"causes":[{"code":"x","severity":"info","root_cause":"nvlink"},{"code":"y","severity":"error","root_cause":"driver"}]}' ;;
warned) echo '{"root_cause":"driver","suspects":[],"causes":[{"code":"y","severity":"warning","root_cause":"driver"},{"code":"z","severity":"error","root_cause":"nvlink"}]}' ;;
second) echo '{"root_cause":"undecided","suspects":[{"root_cause":"host-bridge","likelihood":"likely"},{"root_cause":"acs-redirect","likelihood":"possible"}],"causes":[]}' ;;
fourth) echo '{"root_cause":"undecided","suspects":[{"root_cause":"host-bridge"},{"root_cause":"driver"},{"root_cause":"nvlink"},{"root_cause":"acs-redirect"}],"causes":[]}' ;;
unread) echo '{"root_cause":"undecided","suspects":[],"causes":[],"inputs":[{"file":"x","read":false,"format":null,"why":"no format"}]}'; exit 3 ;;
garbage) echo 'not json'; exit 3 ;;
array) echo '[]' ;;
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

# run_verbose BIN CASE...: run_score with -v
run_verbose() {
	local bin=$1
	shift
	out=$(P2PDIAG_CHECK=$bin EVIDENCE_CASE_TIMEOUT=2 "$score" -v "$@" 2>&1)
	rc=$?
}

# expect NAME PATTERN: the last run's output has a line matching PATTERN
expect() {
	if echo "$out" | grep -qE -- "$2"; then result 1 "$1"; else result 0 "$1" "$out"; fi
}

# exits NAME CODE: the last run exited CODE
exits() {
	[ "$rc" = "$2" ] && result 1 "$1" || result 0 "$1" "exit $rc: $out"
}

mkcase acs acs-redirect
mkcase healthy healthy
mkcase acs-said-healthy acs-redirect "" healthy
mkcase undecided acs-redirect
mkcase nofield consumer-gpu
mkcase numberfield consumer-gpu
mkcase nofield-nothing-to-decide undecided "" nofield
mkcase nothing-to-decide undecided "" undecided
mkcase confident nvlink
mkcase confident-right driver "" confident
mkcase warned nvlink
mkcase second acs-redirect
mkcase fourth acs-redirect
mkcase unread acs-redirect
mkcase garbage driver
mkcase array driver
mkcase crash healthy
mkcase hang healthy
mkcase todo-wrong nvlink "reads the NVLink counters as PCIe" acs
mkcase todo-undecided acs-redirect "no ACS read from a grep of ACSCtl" undecided
mkcase todo-fixed acs-redirect "once read the ACSCtl list as no format" acs
mkcase todo-crash healthy "crashes on this file" crash
mkcase todo-hang healthy "hangs on this file" hang
mkcase todo-garbage driver "refuses the file and writes no report" garbage
c=$tmp/cases

run_score "$tmp/fake" "$c/acs" "$c/healthy"
expect "a root_cause equal to the case's passes" '^ok 1 acs$'
expect "healthy equal to healthy passes" '^ok 2 healthy$'
expect "both count as right, 100%" '^#   right 2 of 2 \(100%\), within the top three 2 of 2 \(100%\)$'
exits "a passing corpus exits 0" 0

run_score "$tmp/fake" "$c/acs-said-healthy"
expect "healthy where the thread found a cause fails" \
	'^not ok 1 acs-said-healthy: expected acs-redirect, got healthy$'
expect "and counts as wrong, and as said healthy wrongly" '^#   wrong 1 \(said healthy wrongly: 1\)'
exits "a failing corpus exits 1" 1

run_score "$tmp/fake" "$c/undecided" "$c/nofield" "$c/numberfield"
expect "undecided fails" '^not ok 1 undecided: expected acs-redirect, got undecided$'
expect "a report without root_cause fails, saying so" \
	'^not ok 2 nofield: expected consumer-gpu, got undecided \(no root_cause in the report\)$'
expect "a root_cause that is no string counts as missing" \
	'^not ok 3 numberfield: expected consumer-gpu, got undecided \(no root_cause'
expect "all three count as honestly undecided, two without the field" \
	'honestly undecided 3 \(2 without a root_cause\), no report 0$'
expect "none of them is right" '^#   right 0 of 3 \(0%\)'

run_score "$tmp/fake" "$c/nothing-to-decide" "$c/nofield-nothing-to-decide"
expect "undecided passes where the case holds nothing to decide" '^ok 1 nothing-to-decide$'
expect "but not a report without the field" \
	'^not ok 2 nofield-nothing-to-decide: expected undecided, got undecided \(no root_cause'
expect "nor counts it within the top three" \
	'^#   right 1 of 2 \(50%\), within the top three 1 of 2 \(50%\)$'

run_score "$tmp/fake" "$c/confident" "$c/warned" "$c/confident-right"
expect "an error first cause of another root cause fails" '^not ok 1 confident: expected nvlink, got driver$'
expect "only it counts as confidently wrong (info skipped, a warning first is not, a right error is not)" \
	'^#   confidently wrong \(first cause an error of another root cause\): 1$'
expect "a warning first cause of another root cause is wrong" '^#   wrong 2 \(said healthy wrongly: 0\)'

run_score "$tmp/fake" "$c/second" "$c/fourth"
expect "a suspect among the first three counts within the top three" \
	'^#   right 0 of 2 \(0%\), within the top three 1 of 2 \(50%\)$'
expect "yet the case fails" '^not ok 1 second: expected acs-redirect, got undecided$'

run_score "$tmp/fake" "$c/unread" "$c/garbage" "$c/array"
expect "exit 3 with a JSON report is a verdict" '^not ok 1 unread: expected acs-redirect, got undecided$'
expect "a report that is no JSON fails with the exit status" '^not ok 2 garbage: expected driver, got no report \(exit 3'
expect "a JSON array is no report" '^not ok 3 array: expected driver, got no report \(exit 0'
expect "and both count as no report" 'honestly undecided 1 \(0 without a root_cause\), no report 2$'

run_score "$tmp/fake" "$c/crash"
expect "a crash fails with its signal" '^not ok 1 crash: expected healthy, got a crash \(signal 11\)$'

start=$SECONDS
run_score "$tmp/fake" "$c/hang"
expect "a hang fails after the timeout" '^not ok 1 hang: expected healthy, got a hang'
[ $((SECONDS - start)) -lt 10 ] && result 1 "a hang does not stall the scorer" ||
	result 0 "a hang does not stall the scorer" "took $((SECONDS - start)) s"

run_score "$tmp/old" "$c/acs" "$c/healthy"
expect "without --evidence every case fails" '^not ok 2 healthy: not scored .*no --evidence option'
expect "and the summary says so" '^0 passed, 2 failed$'
exits "without --evidence the exit is 1" 1

run_score "$tmp/fake" "$c/acs" "$c/todo-wrong" "$c/todo-undecided"
expect "a known-wrong case prints its reason as a TODO" \
	'^not ok 2 todo-wrong: expected nvlink, got acs-redirect # TODO reads the NVLink counters as PCIe$'
expect "a known-wrong undecided case prints its reason as a TODO" \
	'^not ok 3 todo-undecided: expected acs-redirect, got undecided # TODO no ACS read'
expect "known-wrong cases are not counted as failed" '^1 passed, 0 failed$'
expect "yet the figures count them as the tool answered" '^#   right 1 of 3 \(33%\)'
expect "wrong and undecided alike" 'wrong 1 \(said healthy wrongly: 0\), honestly undecided 1 '
expect "and they are counted as known wrong" '^# known wrong \(TODO, not counted as failed\): 2$'
exits "known-wrong cases alone do not fail the corpus" 0

run_score "$tmp/fake" "$c/todo-fixed"
expect "a known-wrong case now right says to drop the line" \
	'^ok 1 todo-fixed # TODO fixed: drop its known-wrong line$'
expect "and passes" '^1 passed, 0 failed$'

run_score "$tmp/fake" "$c/todo-wrong" "$c/undecided"
expect "an unmarked wrong case still fails next to a marked one" '^0 passed, 1 failed$'
exits "and the corpus exits 1" 1

run_score "$tmp/fake" "$c/todo-crash" "$c/todo-hang"
expect "a crash fails even when marked known-wrong" '^not ok 1 todo-crash: expected healthy, got a crash \(signal 11\)$'
expect "a hang fails even when marked known-wrong" '^not ok 2 todo-hang: expected healthy, got a hang [^#]*$'
expect "both count as failed" '^0 passed, 2 failed$'

run_score "$tmp/fake" "$c/todo-garbage" "$c/garbage"
expect "no report is a TODO when marked known-wrong" \
	'^not ok 1 todo-garbage: expected driver, got no report \(exit 3: \) # TODO refuses the file'
expect "and fails unmarked" '^not ok 2 garbage: expected driver, got no report \(exit 3: \)$'
expect "both count as no report" 'no report 2$'
expect "only the unmarked one fails" '^0 passed, 1 failed$'

# usage CASE-TEXT NAME: a CASE with that text is a usage error (exit 2)
usage() {
	rm -rf "$tmp/usage"
	mkdir -p "$tmp/usage/x"
	printf '%b' "$1" >"$tmp/usage/x/CASE"
	run_score "$tmp/fake" "$tmp/usage/x"
	exits "$2" 2
}
usage 'thread: https://example.invalid/x\nroot-cause: healthy\nknown-wrong:\n' \
	"a known-wrong line without a reason is a usage error"
usage 'thread: https://example.invalid/x\nsettled-by: test\n' \
	"a CASE without a root cause is a usage error"
usage 'thread: https://example.invalid/x\nroot-cause: p2p-not-supported\n' \
	"a finding code as the root cause is a usage error"
usage 'thread: https://example.invalid/x\nroot-cause: acs\n' \
	"a part of a root cause of the vocabulary is a usage error"
usage 'thread: https://example.invalid/x\ndiagnosis: acs-redirect\n' \
	"the old diagnosis line alone is a usage error"
mkdir -p "$tmp/nocase/x"
run_score "$tmp/fake" "$tmp/nocase/x"
exits "a case without CASE is a usage error" 2

run_verbose "$tmp/fake" "$c/acs" "$c/healthy"
expect "the time line names the slowest case" \
	'^# time: max [0-9.]+ ms \((acs|healthy)\), total [0-9.]+ ms for 2 cases, [0-2] at or over 50 ms$'
expect "-v gives each case's time, exit and thread" \
	'^# acs: [0-9]+\.[0-9] ms, exit 0, top three: yes, confidently wrong: no, https://example.invalid/acs$'

summary
