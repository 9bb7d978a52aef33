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

"$PYTHON" "$here/fleet_reports.py" "$bin" "$topofix/02-eight-gpu-four-switches.topo" \
	"$tmp/fleet" "$count" "$tmp/planted.json" 2>"$tmp/stderr" &&
	result 1 "fleet: $count reports generated from the tool's own reports" ||
	result 0 "fleet: $count reports generated from the tool's own reports" "$(cat "$tmp/stderr")"

# check_planted JSON_FILE: every planted outlier and nothing else, worst first.
check_planted() {
	"$PYTHON" - "$tmp/planted.json" "$1" <<'PY'
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
v=$("$PYTHON" -c '
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
"$PYTHON" - "$tmp/fleet/node-00001.json" "$tmp/esc/node.json" <<'PY'
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
v=$("$PYTHON" -c 'import json,sys; d=json.loads(sys.stdin.read()); print(d["summary"]["reports"], sorted(o["file"][-15:] for o in d["outliers"]))' <<<"$out" 2>&1)
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

# Groups compared with each other: the second BIOS turned ACS redirect on
# at a root port in every server that runs it, so that group agrees with
# itself; against its model's other group it differs, and is reported.
v=$("$PYTHON" -c '
import json, sys
d = json.load(open(sys.argv[1]))
bios = {g["group"]: g["bios_version"] for g in d["groups"]}
for gd in d.get("group_differences", []):
    acs = [x for x in gd["differences"] if x["a"] == "0000:00:01.1" and x["field"] == "acs_ctrl"]
    print(bios[gd["group"]], bios[gd["largest_other_group"]], gd["severity"],
          acs[0]["value"] + " not " + acs[0]["reference"] if acs else "no acs_ctrl")' "$tmp/result.json" 2>&1)
[ "$v" = "1.27 1.25 warning 0x001d not 0x0000" ] &&
	result 1 "fleet: a BIOS that turned ACS redirect on in every server running it is reported against the model's other groups" ||
	result 0 "fleet: a BIOS that turned ACS redirect on in every server running it is reported against the model's other groups" "$v"
# One server of the second BIOS among agreeing servers of the first: alone
# in its group, named, and still compared with its model's other group.
run "$bin" --compare-fleet "$tmp/clean" "$tmp/fleet/node-00009.json"
[ "$rc" = 1 ] && case $out in *"one server, $tmp/fleet/node-00009.json: no majority in its group"*"groups that differ from their model's other groups"*"warning group 2"*"acs_ctrl is 0x001d, the model's 0x0000"*) true;; *) false;; esac &&
	result 1 "fleet: a server alone in its group is named and compared with its model's other groups (exit 1)" ||
	result 0 "fleet: a server alone in its group is named and compared with its model's other groups (exit 1)" "rc $rc: $out"
# Two servers that disagree: no majority is a finding, not exit 0.
run "$bin" --compare-fleet "$tmp/fleet/node-00006.json" "$tmp/fleet/node-00003.json"
[ "$rc" = 1 ] && case $out in *"    warning "*" facts without a majority"*"function 0000:0a:00.0"*) true;; *) false;; esac &&
	result 1 "fleet: disagreement with no majority is a finding (exit 1), the facts named" ||
	result 0 "fleet: disagreement with no majority is a finding (exit 1), the facts named" "rc $rc: $out"
# One unreadable report never hides a broken pair; --skip-unreadable
# leaves unreadable inputs out of the status, still listing them.
mkdir -p "$tmp/partial" && cp "$tmp"/clean/*.json "$tmp/partial/"
head -c 3000 "$tmp/fleet/node-00000.json" >"$tmp/partial/cut.json"
run "$bin" --compare-fleet "$tmp/partial" "$tmp/fleet/node-00004.json"
r_broken=$rc
run "$bin" --compare-fleet "$tmp/partial"
r_partial=$rc
run "$bin" --compare-fleet "$tmp/partial" --skip-unreadable
[ "$r_broken" = 2 ] && [ "$r_partial" = 3 ] && [ "$rc" = 0 ] &&
	case $out in *"unreadable inputs (not compared; --skip-unreadable: not in the exit status)"*"cut.json"*) true;; *) false;; esac &&
	result 1 "fleet: an unreadable report keeps a broken pair's exit 2; alone it is 3; --skip-unreadable lists it with a note, exit 0" ||
	result 0 "fleet: an unreadable report keeps a broken pair's exit 2; alone it is 3; --skip-unreadable lists it with a note, exit 0" \
		"broken+unreadable $r_broken, unreadable $r_partial, skipped $rc: $out $err"
run "$bin" --topology-file "$topofix/02-eight-gpu-four-switches.topo" --skip-unreadable
[ "$rc" = 3 ] && case $err in *"--skip-unreadable applies to --compare-fleet"*) true;; *) false;; esac &&
	result 1 "fleet: --skip-unreadable without --compare-fleet is refused" ||
	result 0 "fleet: --skip-unreadable without --compare-fleet is refused" "rc $rc $err"

# Identity: a report of a machine says which one and when.
id_root=$tmp/id-root
mkdir -p "$id_root/proc/sys/kernel" "$id_root/etc" "$id_root/sys/class/dmi/id" \
	"$id_root/proc/driver/nvidia/gpus/0000:04:00.0" "$id_root/proc/driver/nvidia/gpus/0000:03:00.0"
echo gpu-node-17 >"$id_root/proc/sys/kernel/hostname"
echo 5c9b0a6e1d2f4a3b8c7d6e5f4a3b2c1d >"$id_root/etc/machine-id"
echo 1563921000123 >"$id_root/sys/class/dmi/id/product_serial"
# the driver's information file, as NVIDIA's driver writes it
printf 'Model: \t\t NVIDIA A100-SXM4-40GB\nIRQ:   \t\t 180\nGPU UUID: \t GPU-6c1b9bd6-1111-2222-3333-444455556666\nBus Location: \t 0000:04:00.0\n' \
	>"$id_root/proc/driver/nvidia/gpus/0000:04:00.0/information"
printf 'Model: \t\t NVIDIA A100-SXM4-40GB\nGPU UUID: \t GPU-0a1b2c3d-7777-8888-9999-aaaabbbbcccc\n' \
	>"$id_root/proc/driver/nvidia/gpus/0000:03:00.0/information"
grep -v '^expect ' "$topofix/02-eight-gpu-four-switches.topo" >"$tmp/id.topo"
before=$(date -u +%s)
"$bin" --root "$id_root" --topology-file "$tmp/id.topo" --no-cuda --json >"$tmp/id.json" 2>"$tmp/stderr"
v=$("$PYTHON" -c '
import json, sys, calendar, time
i = json.load(open(sys.argv[1]))["system"]["identity"]
t = calendar.timegm(time.strptime(i["run_time"], "%Y-%m-%dT%H:%M:%SZ"))
print(i["hostname"], i["machine_id"], i["dmi_serial"],
      " ".join(g["addr"] + "=" + g["uuid"] for g in i["gpu_uuids"]),
      "now" if abs(t - int(sys.argv[2])) < 120 else "run_time %s" % i["run_time"])' "$tmp/id.json" "$before" 2>&1)
[ "$v" = "gpu-node-17 5c9b0a6e1d2f4a3b8c7d6e5f4a3b2c1d 1563921000123 0000:03:00.0=GPU-0a1b2c3d-7777-8888-9999-aaaabbbbcccc 0000:04:00.0=GPU-6c1b9bd6-1111-2222-3333-444455556666 now" ] &&
	result 1 "fleet: a report carries its identity: hostname, machine-id, DMI serial, GPU UUIDs by address, run time" ||
	result 0 "fleet: a report carries its identity: hostname, machine-id, DMI serial, GPU UUIDs by address, run time" "$v"
# Duplicated and stale reports, by that identity.
mkdir -p "$tmp/ids"
"$PYTHON" - "$tmp/clean" "$tmp/ids" <<'PY'
import json, os, sys
src, dst = sys.argv[1:3]
for n, f in enumerate(sorted(os.listdir(src))):
    d = json.load(open(os.path.join(src, f)))
    ident = {"hostname": "node-%02d" % n, "machine_id": "%032x" % n, "dmi_serial": "SN%04d" % n,
             "run_time": "2026-12-05T10:%02d:00Z" % n, "gpu_uuids": [{"addr": "0000:03:00.0", "uuid": "GPU-%08d" % n}]}
    if n == 1:      # a copy of server 0's report, made later
        ident.update(machine_id="%032x" % 0, hostname="node-00")
    if n == 2:      # server 0's GPU moved here
        ident["gpu_uuids"][0]["uuid"] = "GPU-%08d" % 0
    if n == 3:      # three days old
        ident["run_time"] = "2026-12-02T09:00:00Z"
    d["system"]["identity"] = ident
    json.dump(d, open(os.path.join(dst, f), "w"))
PY
run "$bin" --compare-fleet "$tmp/ids" --json
v=$("$PYTHON" -c '
import json, sys
d = json.loads(sys.stdin.read())
for n in d["identity"]:
    print(n["kind"], n["file"].rsplit("/", 1)[1], (n["newer_file"] or "-").rsplit("/", 1)[-1], n["matched"])' <<<"$out" 2>&1)
want="duplicate node-00006.json node-00007.json machine-id 00000000000000000000000000000000
duplicate node-00006.json node-00008.json GPU UUID GPU-00000000
stale node-00010.json - made 73 hours before the newest report"
[ "$rc" = 1 ] && [ "$v" = "$want" ] &&
	result 1 "fleet: duplicated reports (one machine-id, one GPU UUID) and a stale one are named, exit 1" ||
	result 0 "fleet: duplicated reports (one machine-id, one GPU UUID) and a stale one are named, exit 1" "rc $rc: $v"

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
"$PYTHON" -c 'print("[" * 100 + "]" * 100)' >"$bad/mixed/deep.json"
printf '{"tool": "p2pdiag-check\x01"}' >"$bad/mixed/control.json"
sed 's/"devices"/"devices\\q"/' "$tmp/fleet/node-00000.json" >"$bad/mixed/escape.json"
"$PYTHON" -c 'print("{\"tool\": \"p2pdiag-check\", \"schema\": 1, \"system\": {\"context\": {\"bios_version\": \"%s\"}}}" % ("9" * 300))' >"$bad/mixed/long.json"
run timeout 60 "$bin" --compare-fleet "$bad/mixed" --json
printf '%s\n' "$out" >"$tmp/bad.json"
v=$("$PYTHON" -c '
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
