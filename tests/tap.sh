# SPDX-License-Identifier: GPL-2.0
# Sourced by the shell tests: "ok N name" / "not ok N name" lines, a
# reason under each failure (its first 20 lines, each after "# "), and a
# last line "N passed, N failed, N skipped", counted as tests/tap-totals
# counts: a name with "# SKIP" ran nothing that could fail.
n=0 passed=0 failed=0 skipped=0

# The tests' python3 is Debian's, where .ci/deps installs the modules they
# import, even where another python3 comes first in PATH: a version
# manager's shim is another interpreter, and takes most of a second to
# start, which the hundreds of checks that parse JSON would each pay.
PYTHON=${PYTHON:-$(command -v /usr/bin/python3 || command -v python3)}

# result 1|0 NAME [WHY]
result() {
	n=$((n + 1))
	if [ "$1" = 1 ]; then
		case $2 in
		*"# SKIP"*)	skipped=$((skipped + 1)) ;;
		*)		passed=$((passed + 1)) ;;
		esac
		echo "ok $n $2"
	else
		failed=$((failed + 1))
		echo "not ok $n $2"
		[ -n "${3-}" ] && printf '%s\n' "$3" | head -20 | sed 's/^/# /'
	fi
	return 0
}

# check NAME CMD...: ok when CMD succeeds; its output is the reason.
check() {
	local name=$1 log
	shift
	if log=$("$@" 2>&1); then
		result 1 "$name"
	else
		result 0 "$name" "$log"
	fi
}

# summary [LABEL]: the last line; with a label it is a comment line
# ("# LABEL: N passed, N failed, N skipped"), for a script whose "ok"
# lines a caller counts together with other scripts'.  Succeeds when
# nothing failed.
summary() {
	if [ $# -gt 0 ]; then
		echo "# $1: $passed passed, $failed failed, $skipped skipped"
	else
		echo "$passed passed, $failed failed, $skipped skipped"
	fi
	[ "$failed" = 0 ]
}

# tool_under_test LABEL [BIN]: sets bin to BIN, or to this tree's
# p2pdiag-check, built now; a build that fails is the suite's one result,
# and the suite ends there (exit 1).
tool_under_test() {
	local top
	top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
	bin=${2:-$top/userspace/p2pdiag-check}
	[ -n "${2:-}" ] && return 0
	make -s -C "$top/userspace" >/dev/null 2>&1 && return 0
	result 0 "$1: p2pdiag-check builds" "$(make -s -C "$top/userspace" 2>&1 | tail -5)"
	summary
	exit 1
}

# The options p2pdiag-check --help lists, one per line: the long option
# that begins each option line ("  --x" or "  -x, --x").  An option named
# in another's description is not one of them: --help names other
# programs' options too (rocm-smi --showtopo).
help_options() {
	"$1" --help | grep -oE -- '^  (-[A-Za-z0-9], )?--[a-z][a-z-]*' |
		grep -o -- '--[a-z][a-z-]*' | sort -u
}
