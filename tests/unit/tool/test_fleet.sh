#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# p2pdiag-check --compare-fleet end to end: a generated fleet of one 8-GPU
# server model (fleet_reports.py) with planted outliers, each found and
# nothing else, worst first; and bad input, each with its own error and
# exit status 3 while the rest is still compared.
# Usage: test_fleet.sh P2PDIAG_CHECK TOPOLOGY_FIXTURES [COUNT]
set -u
bin=$1 topofix=$2 count=${3:-60}
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/p2pdiag-fleet-XXXXXX") || exit 1
trap 'chmod -R u+rwx "$tmp"; rm -rf "$tmp"' EXIT
export P2PDIAG_FSROOT=$tmp/empty-root
mkdir -p "$P2PDIAG_FSROOT"

. "$(dirname "$0")/../../tap.sh"

run() { # run CMD...: sets rc, out, err
	out=$("$@" 2>"$tmp/stderr"); rc=$?
	err=$(cat "$tmp/stderr")
}

python3 "$here/fleet_reports.py" "$bin" "$topofix/02-eight-gpu-four-switches.topo" \
	"$tmp/fleet" "$count" "$tmp/planted.json" 2>"$tmp/stderr" &&
	result 1 "fleet: $count reports generated from the tool's own reports" ||
	result 0 "fleet: $count reports generated from the tool's own reports" "$(cat "$tmp/stderr")"

# check_planted JSON_FILE: every planted outlier and nothing else, worst first.
check_planted() {
	python3 - "$tmp/planted.json" "$1" <<'PY'
import json, sys
planted = json.load(open(sys.argv[1]))
got = json.load(open(sys.argv[2]))
rank = {"error": 2, "warning": 1, "info": 0}
found = {o["file"]: sorted([[d["kind"], d["a"], d["b"], d["field"]]
                            for d in o["differences"]], key=lambda e: [str(x) for x in e])
         for o in got["outliers"]}
bad = []
for f in sorted(set(planted["outliers"]) | set(found)):
    if planted["outliers"].get(f) != found.get(f):
        bad.append("%s: planted %s, found %s" % (f, planted["outliers"].get(f), found.get(f)))
order = [(rank[o["severity"]], len(o["differences"])) for o in got["outliers"]]
if order != sorted(order, reverse=True):
    bad.append("not worst first: %s" % order)
if got["outliers"] and got["outliers"][0]["file"].endswith("node-00004.json") is False:
    bad.append("the blocked pair is not first: %s" % got["outliers"][0]["file"])
if [g["servers"] for g in got["groups"]] != planted["groups"]:
    bad.append("groups %s, planted %s" % ([g["servers"] for g in got["groups"]], planted["groups"]))
if got["summary"]["outliers"] != len(planted["outliers"]):
    bad.append("summary %s" % got["summary"])
print("\n".join(bad) if bad else "same")
PY
}

run "$bin" --compare-fleet "$tmp/fleet" --json
printf '%s\n' "$out" >"$tmp/result.json"
[ "$rc" = 2 ] && result 1 "fleet: a blocked pair among the outliers is exit 2" ||
	result 0 "fleet: a blocked pair among the outliers is exit 2" "rc $rc: $err"
v=$(check_planted "$tmp/result.json")
[ "$v" = same ] && result 1 "fleet: exactly the planted outliers, worst first, in two groups" ||
	result 0 "fleet: exactly the planted outliers, worst first, in two groups" "$v"
v=$(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
print(sorted((g["bios_version"], g["servers"]) for g in d["groups"]), d["unreadable"])' "$tmp/result.json" 2>&1)
case $v in "[('1.25', "*"), ('1.27', "*")] []") result 1 "fleet: grouped by BIOS version";;
	*) result 0 "fleet: grouped by BIOS version" "$v";; esac

# The text says the same: each outlier's file and what differs.
run "$bin" --compare-fleet "$tmp/fleet"
case $out in *"error   $tmp/fleet/node-00004.json (group 1): 1 difference"*"verdict blocked, the group's ok"*"0000:02:00.0 acs_ctrl is 0x001d, the group's 0x0000"*"function 0000:0a:00.0 [0x10de:0x20b0] is missing"*"exit status 2"*)
	result 1 "fleet: the text lists the outliers in words";;
	*) result 0 "fleet: the text lists the outliers in words" "$out";; esac

# A group's name comes from the reports: an escape sequence there is shown,
# not sent to the terminal.
mkdir -p "$tmp/esc"
python3 - "$tmp/fleet/node-00001.json" "$tmp/esc/node.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["system"]["context"]["bios_version"] = "1.25\u001b[2J\u001b[31m"
json.dump(d, open(sys.argv[2], "w"))
PY
run "$bin" --compare-fleet "$tmp/esc"
case $out in *$'\033'*) result 0 "fleet: escape sequences in a group's name are not sent" "raw ESC";;
*'1.25\x1b[2J\x1b[31m'*) result 1 "fleet: escape sequences in a group's name are not sent";;
*) result 0 "fleet: escape sequences in a group's name are not sent" "$out";;
esac

# Files named one by one are the same inputs.
run "$bin" --compare-fleet "$tmp"/fleet/node-0000[0-9].json "$tmp"/fleet/node-0001*.json --json
v=$(python3 -c 'import json,sys; d=json.loads(sys.stdin.read()); print(d["summary"]["reports"], sorted(o["file"][-15:] for o in d["outliers"]))' <<<"$out" 2>&1)
[ "$rc" = 2 ] && [ "$v" = "20 ['node-00001.json', 'node-00002.json', 'node-00003.json', 'node-00004.json', 'node-00005.json']" ] &&
	result 1 "fleet: files named one by one (group 2 too small for its median)" ||
	result 0 "fleet: files named one by one (group 2 too small for its median)" "rc $rc $v $err"

# A group without the planted ones: nothing to say, exit 0.
mkdir -p "$tmp/clean" && cp "$tmp"/fleet/node-0000[6-8].json "$tmp"/fleet/node-0001[0-8].json "$tmp/clean/"
run "$bin" --compare-fleet "$tmp/clean"
[ "$rc" = 0 ] && case $out in *", 0 outliers, 0 unreadable"*) true;; *) false;; esac &&
	result 1 "fleet: servers that agree are exit 0" || result 0 "fleet: servers that agree are exit 0" "rc $rc $out $err"
# Warnings only: exit 1.
run "$bin" --compare-fleet "$tmp/clean" "$tmp/fleet/node-00003.json"
[ "$rc" = 1 ] && result 1 "fleet: a missing GPU alone is exit 1" || result 0 "fleet: a missing GPU alone is exit 1" "rc $rc $err"
# The margin is --tolerance: 35% lets the 70% figure pass, 25% does not.
run "$bin" --compare-fleet "$tmp/clean" "$tmp/fleet/node-00005.json" --tolerance 0.35
r35=$rc
run "$bin" --compare-fleet "$tmp/clean" "$tmp/fleet/node-00005.json" --tolerance 0.25
[ "$r35" = 0 ] && [ "$rc" = 1 ] && result 1 "fleet: --tolerance is the bandwidth margin" ||
	result 0 "fleet: --tolerance is the bandwidth margin" "35%: $r35, 25%: $rc"

# Bad input: each said by name, listed, exit 3; the rest still compared.
bad=$tmp/bad
mkdir -p "$bad/empty" "$bad/mixed"
cp "$tmp"/clean/*.json "$bad/mixed/"
head -c 5000 "$tmp/fleet/node-00000.json" >"$bad/mixed/truncated.json"
echo '{"tool": "something-else", "schema": 1}' >"$bad/mixed/other.json"
echo '[1, 2, 3]' >"$bad/mixed/array.json"
: >"$bad/mixed/zero.json"
truncate -s 65M "$bad/mixed/huge.json"
mkfifo "$bad/mixed/fifo.json"
mkdir "$bad/mixed/dir.json"
ln -s "$bad/nowhere" "$bad/mixed/dangling.json"
echo 'not a report' >"$bad/mixed/notes.txt"
cat "$tmp/fleet/node-00000.json" "$tmp/fleet/node-00000.json" >"$bad/mixed/twice.json"
printf '{"tool": "p2pdiag-check", "schema": 1,}' >"$bad/mixed/comma.json"
python3 -c 'print("[" * 100 + "]" * 100)' >"$bad/mixed/deep.json"
printf '{"tool": "p2pdiag-check\x01"}' >"$bad/mixed/control.json"
sed 's/"devices"/"devices\\q"/' "$tmp/fleet/node-00000.json" >"$bad/mixed/escape.json"
python3 -c 'print("{\"tool\": \"p2pdiag-check\", \"schema\": 1, \"system\": {\"context\": {\"bios_version\": \"%s\"}}}" % ("9" * 300))' >"$bad/mixed/long.json"
run timeout 60 "$bin" --compare-fleet "$bad/mixed" --json
printf '%s\n' "$out" >"$tmp/bad.json"
v=$(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
for u in sorted(d["unreadable"], key=lambda u: u["file"]):
    print(u["file"].rsplit("/", 1)[1] + ": " + u["error"].split(": ", 1)[-1])
print(d["summary"]["reports"], d["summary"]["unreadable"], d["summary"]["exit_status"])' "$tmp/bad.json" 2>&1)
want="array.json: $bad/mixed/array.json is not a p2pdiag-check report of schema 1 (make one with --json or --baseline save)
comma.json: a comma before the closing bracket
control.json: a control character inside a string
dangling.json: No such file or directory
deep.json: nested deeper than any report
dir.json: not a regular file
escape.json: an unknown escape in a string
fifo.json: not a regular file
huge.json: larger than 64 MiB, which no report is
long.json: report $bad/mixed/long.json holds a value longer than 255 bytes, which no report does
other.json: $bad/mixed/other.json is not a p2pdiag-check report of schema 1 (make one with --json or --baseline save)
truncated.json: it ends inside the document
twice.json: more after the document
zero.json: the file is empty
12 14 3"
[ "$rc" = 3 ] && [ "$v" = "$want" ] && result 1 "fleet: bad files are listed by name and why, exit 3, the rest compared" ||
	result 0 "fleet: bad files are listed by name and why, exit 3, the rest compared" "rc $rc: $v"
case $err in *"cannot read report $bad/mixed/huge.json: larger than 64 MiB"*"report $bad/mixed/truncated.json is not valid JSON: it ends inside the document"*)
	result 1 "fleet: ... each said on stderr as it is met";;
	*) result 0 "fleet: ... each said on stderr as it is met" "$err";; esac
run "$bin" --compare-fleet "$bad/empty"
[ "$rc" = 3 ] && case $err in *"$bad/empty holds no .json report"*"no report could be read"*) true;; *) false;; esac &&
	result 1 "fleet: an empty directory is exit 3, said" || result 0 "fleet: an empty directory is exit 3, said" "rc $rc $err"
run "$bin" --compare-fleet "$bad/absent.json"
[ "$rc" = 3 ] && case $err in *"cannot read report $bad/absent.json: No such file or directory"*) true;; *) false;; esac &&
	result 1 "fleet: a missing file is exit 3, named" || result 0 "fleet: a missing file is exit 3, named" "rc $rc $err"
if [ "$(id -u)" != 0 ]; then
	cp "$tmp/fleet/node-00000.json" "$bad/locked.json" && chmod 000 "$bad/locked.json"
	run "$bin" --compare-fleet "$bad/locked.json"
	[ "$rc" = 3 ] && case $err in *"locked.json: Permission denied"*) true;; *) false;; esac &&
		result 1 "fleet: an unreadable file is exit 3, named" ||
		result 0 "fleet: an unreadable file is exit 3, named" "rc $rc $err"
fi
run "$bin" --compare-fleet
[ "$rc" = 3 ] && case $err in *"--compare-fleet: name the reports"*) true;; *) false;; esac &&
	result 1 "fleet: no input is a usage error" || result 0 "fleet: no input is a usage error" "rc $rc $err"
run "$bin" --compare-fleet "$tmp/clean" --quick
[ "$rc" = 3 ] && case $err in *"'--quick' does not apply"*) true;; *) false;; esac &&
	result 1 "fleet: an option of a run is refused, named" || result 0 "fleet: an option of a run is refused, named" "rc $rc $err"
# A closed stdout is a write error, not a death by SIGPIPE.
# (the pipe may also have taken the whole text before it closed: then 2)
"$bin" --compare-fleet "$tmp/fleet" 2>"$tmp/stderr" | true; rc=${PIPESTATUS[0]}
err=$(cat "$tmp/stderr")
{ [ "$rc" = 2 ] || { [ "$rc" = 3 ] && case $err in *"cannot write the fleet comparison"*) true;; *) false;; esac; }; } &&
	result 1 "fleet: a reader that goes away is no crash" ||
	result 0 "fleet: a reader that goes away is no crash" "rc $rc $err"

summary fleet
