#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# userspace/completion/p2pdiag-check under bash-completion, fed command
# lines the way readline splits them (":" and "=" are word breaks): every
# option of --help and nothing else, option values, files after
# --baseline MODE and after --compare-fleet, and PCI addresses for --pairs
# from a fake module tree.
# Usage: test_completion.sh ROOT P2PDIAG_CHECK TEST_TOOL
set -u
root=$1 bin=$2 tool=$3
. "$(dirname "$0")/../tap.sh"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/p2pdiag-completion-XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

bc=/usr/share/bash-completion/bash_completion
if [ ! -r "$bc" ]; then
	result 0 "completion: bash-completion is installed" "no $bc"
	summary
	exit
fi
# shellcheck source=/dev/null
. "$bc"
# shellcheck source=../../userspace/completion/p2pdiag-check
. "$root/userspace/completion/p2pdiag-check"

# compopt works only inside a completion readline started; here it would
# only complain.
compopt() { :; }

# complete LINE: COMPREPLY for the cursor at the end of LINE, one a line.
complete_line() {
	local line=$1 w='' c i brk=' =:' kind=''
	COMP_WORDS=()
	for ((i = 0; i < ${#line}; i++)); do
		c=${line:i:1}
		if [[ $c == ' ' ]]; then
			[[ -n $w ]] && COMP_WORDS+=("$w")
			w='' kind=''
		elif [[ $brk == *"$c"* ]]; then
			[[ -n $w && $kind != break ]] && COMP_WORDS+=("$w") && w=''
			w+=$c kind=break
		else
			[[ -n $w && $kind == break ]] && COMP_WORDS+=("$w") && w=''
			w+=$c kind=word
		fi
	done
	COMP_WORDS+=("$w")	# the word under the cursor, maybe empty
	COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
	COMP_LINE=$line COMP_POINT=${#line}
	COMPREPLY=()
	_p2pdiag_check p2pdiag-check "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
	printf '%s\n' "${COMPREPLY[@]}" | sort
}

# expect NAME LINE WANT...: the completions are exactly WANT.
expect() {
	local name=$1 line=$2 got want
	shift 2
	got=$(complete_line "$line")
	want=$(printf '%s\n' "$@" | sort)
	[ "$got" = "$want" ] && result 1 "completion: $name" ||
		result 0 "completion: $name" "line '$line': got [$got], want [$want]"
}

opts=$(complete_line "p2pdiag-check --" | sed 's/=$//')
want=$(help_options "$bin")
[ -n "$want" ] && [ "$opts" = "$want" ] && result 1 "completion: '--' offers exactly the options of --help" ||
	result 0 "completion: '--' offers exactly the options of --help" \
		"$(diff <(echo "$want") <(echo "$opts")) (< only in --help: add it to userspace/completion/p2pdiag-check)"

expect "an option's prefix" "p2pdiag-check --so" --source=
expect "--source= offers its values" "p2pdiag-check --source=" auto module pci
expect "--source= value prefix" "p2pdiag-check --source=m" module
expect "--baseline offers save and check" "p2pdiag-check --baseline " save check

touch "$tmp/base.json" "$tmp/bar.json"
mkdir -p "$tmp/tree"
expect "--baseline check FILE completes files" "p2pdiag-check --baseline check $tmp/ba" "$tmp/base.json" "$tmp/bar.json"
expect "--topology-file completes files" "p2pdiag-check --topology-file $tmp/bas" "$tmp/base.json"
expect "nothing is offered for a number" "p2pdiag-check --iterations "
expect "--compare-fleet completes files" "p2pdiag-check --compare-fleet $tmp/ba" "$tmp/base.json" "$tmp/bar.json"
expect "... and every word after it" "p2pdiag-check --compare-fleet $tmp/bar.json $tmp/bas" "$tmp/base.json"
expect "... but a number after --tolerance" "p2pdiag-check --compare-fleet $tmp/bar.json --tolerance "

# A module tree with three P2P endpoints (and bridges that are not).
"$tool" --make-tree "$tmp/tree" ok >/dev/null 2>&1 ||
	result 0 "completion: make a fake module tree"
eps=$(grep -l '^1$' "$tmp"/tree/devices/*/p2p_endpoint | awk -F/ '{print $(NF-1)}' | sort)
read -r -a ep <<<"$(echo $eps)"
[ "${#ep[@]}" -ge 3 ] || result 0 "completion: the fake tree has three endpoints" "$eps"
expect "--pairs offers the module's P2P endpoints" \
	"p2pdiag-check --sysfs-root $tmp/tree --pairs " "${ep[@]}"
expect "--pairs after --sysfs-root=DIR" \
	"p2pdiag-check --sysfs-root=$tmp/tree --pairs=" "${ep[@]}"
# After "0000:03:" readline replaces only what follows the last colon.
p=${ep[0]%:*}:
expect "--pairs within an address (colons)" \
	"p2pdiag-check --sysfs-root $tmp/tree --pairs $p" \
	$(printf '%s\n' "${ep[@]}" | grep "^$p" | sed "s/^$p//")
rest=()
for e in "${ep[@]:1}"; do rest+=("${ep[0]##*:},$e"); done
expect "--pairs after a comma: the others, not the one listed" \
	"p2pdiag-check --sysfs-root $tmp/tree --pairs ${ep[0]}," "${rest[@]}"
# Without the module: the functions of the machine under --root that are
# not bridges.
for f in 0000:00:00.0:0x060000 0000:00:01.0:0x060400 0000:01:00.0:0x030200 0000:02:00.0:0x020000; do
	mkdir -p "$tmp/fs/sys/bus/pci/devices/${f%:*}"
	echo "${f##*:}" >"$tmp/fs/sys/bus/pci/devices/${f%:*}/class"
done
expect "--pairs under --root without the module: every function but bridges" \
	"p2pdiag-check --root $tmp/fs --pairs " 0000:01:00.0 0000:02:00.0
summary
