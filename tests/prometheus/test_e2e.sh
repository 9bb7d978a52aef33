#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The alerting path end to end with Debian's real engines: p2pdiag-check
# runs on fixtures, one node per exit status (healthy: a GPU pair measured
# on the GPU doubles, else a saved tree; degraded, broken, and a check that
# fails), each node's textfile served by a prometheus-node-exporter of its
# own (textfile collector), scraped by prometheus with the shipped rules
# (their `for:` set to 0 so that no test waits 5 minutes), which sends to
# prometheus-alertmanager.  All on 127.0.0.1 and free ports, started and
# stopped here.  Checked: every target is up, each exit status fires its
# alert in Prometheus and reaches Alertmanager (its API) naming the cause
# and the pair or device, the healthy node fires nothing, and each query
# of the shipped Grafana dashboard returns data.
# Exit 4, with a SKIP line saying why, where an engine is not installed.
# Usage: test_e2e.sh [P2PDIAG_CHECK]
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
. "$root/tests/tap.sh"
. "$root/tests/wait_for.sh"
rules=$root/userspace/prometheus/p2pdiag.rules.yml
dashboard=$root/userspace/prometheus/p2pdiag-dashboard.json
fix=$root/tests/unit/tool/fixtures
echo "KTAP version 1"

missing=
prom=$(command -v prometheus) || missing+=" prometheus"
exporter=$(command -v prometheus-node-exporter || command -v node_exporter) ||
	missing+=" prometheus-node-exporter"
am=$(command -v prometheus-alertmanager || command -v alertmanager) ||
	missing+=" prometheus-alertmanager"
if [ -n "$missing" ]; then
	echo "ok 1 prometheus-e2e: the alerting path end to end # SKIP not installed:$missing (apt-get install$missing)"
	echo "0 passed, 0 failed, 1 skipped"
	exit 4
fi
tool_under_test prometheus-e2e "${1:-}"
t=$(mktemp -d "${TMPDIR:-/tmp}/p2pdiag-e2e-XXXXXX") || exit 1
pids=()
stop() {
	local p
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
	for p in "${pids[@]}"; do wait "$p" 2>/dev/null; done
	rm -rf "$t"
}
trap stop EXIT
start=$SECONDS

free_port() {
	"$PYTHON" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}
# get URL: the body, or nothing
get() {
	"$PYTHON" -c 'import sys, urllib.request
sys.stdout.write(urllib.request.urlopen(sys.argv[1], timeout=5).read().decode())' "$1" 2>/dev/null
}
# query EXPR: Prometheus' instant-query result list, as JSON
query() {
	"$PYTHON" - "http://127.0.0.1:$pport/api/v1/query" "$1" <<'PY'
import json, sys, urllib.parse, urllib.request
url = sys.argv[1] + "?" + urllib.parse.urlencode({"query": sys.argv[2]})
try:
    d = json.load(urllib.request.urlopen(url, timeout=5))
    print(json.dumps(d["data"]["result"]))
except Exception as e:
    print("error: %s" % e)
PY
}

# The nodes: NAME, the run's arguments.  The healthy one is measured on
# the GPU doubles where they can be built, so that the bandwidth panels
# have figures; every node writes every pair (the pair-matrix panel).
. "$root/tests/doubles/doubles_env.sh"
doubles_setup "$root" "$t" "$bin"
grep -v '^expect' "$root/tests/unit/fixtures/03-amd-root-ports-acs.topo" >"$t/degraded.topo"
run_node() {	# NAME WANT_STATUS ARGS...
	local name=$1 want=$2
	shift 2
	mkdir -p "$t/$name"
	"$@" --prometheus "$t/$name/p2pdiag.prom" --prometheus-pairs=all >/dev/null 2>"$t/$name.err"
	local rc=$?
	[ "$rc" = "$want" ] || echo "# $name: exit $rc, want $want: $(head -3 "$t/$name.err")"
}
measured=
if [ -z "$doubles_why" ] && make -s -C "$root/tests/unit/gpu" OUT="$t/gpu" "$t/gpu/mksysfs" >"$t/mksysfs.log" 2>&1; then
	mkdir -p "$t/tree" && "$t/gpu/mksysfs" "$root/tests/unit/fixtures/02-eight-gpu-four-switches.topo" "$t/tree" >/dev/null &&
		FAKE_GPU_BUSIDS=0000:03:00.0,0000:04:00.0 FAKE_CUDA_LAT_US=0.2 \
		LD_LIBRARY_PATH=$doubles/cuda:$doubles/nvml \
		run_node healthy 0 "$cudabin" --source=module --sysfs-root "$t/tree" --size 1M --timeout 10 &&
		measured=yes
else
	doubles_why=${doubles_why:-"mksysfs does not build: $(tail -n 3 "$t/mksysfs.log")"}
fi
[ -n "$measured" ] || run_node healthy 0 "$bin" --topology-file "$fix/sriov-switch.topo"
run_node degraded 1 "$bin" --topology-file "$t/degraded.topo"
run_node broken 2 "$bin" --topology-file "$fix/switchacs.topo"
run_node failed 3 "$bin" --topology-file "$t/absent.topo"
echo "# the fixture runs took $((SECONDS - start)) s"

# One node_exporter per node.
targets=
for node in healthy degraded broken failed; do
	port=$(free_port)
	"$exporter" --collector.disable-defaults --collector.textfile \
		--collector.textfile.directory="$t/$node" \
		--web.listen-address="127.0.0.1:$port" >"$t/exporter-$node.log" 2>&1 &
	pids+=($!)
	targets+="      - targets: ['127.0.0.1:$port']
        labels: {node: $node}
"
done

aport=$(free_port) pport=$(free_port)
cat >"$t/alertmanager.yml" <<EOF
route:
  receiver: keep
  group_by: [node, alertname, code]
  group_wait: 1s
  group_interval: 1s
receivers:
  - name: keep
EOF
"$am" --config.file="$t/alertmanager.yml" --storage.path="$t/am" \
	--web.listen-address="127.0.0.1:$aport" --cluster.listen-address= \
	>"$t/alertmanager.log" 2>&1 &
pids+=($!)

# The rules as shipped, but firing at once.
sed 's/^\( *\)for: .*/\1for: 0s/' "$rules" >"$t/p2pdiag.rules.yml"
cat >"$t/prometheus.yml" <<EOF
global:
  scrape_interval: 1s
  evaluation_interval: 1s
rule_files:
  - $t/p2pdiag.rules.yml
alerting:
  alertmanagers:
    - static_configs:
        - targets: ['127.0.0.1:$aport']
scrape_configs:
  - job_name: node
    static_configs:
$targets
EOF
"$prom" --config.file="$t/prometheus.yml" --storage.tsdb.path="$t/data" \
	--web.listen-address="127.0.0.1:$pport" >"$t/prometheus.log" 2>&1 &
pids+=($!)

all_up() { [ "$(query 'sum(up{job="node"})' | "$PYTHON" -c 'import json,sys; r=json.load(sys.stdin); print(r[0]["value"][1] if r else 0)')" = 4 ]; }
if wait_for 40 all_up; then
	result 1 "prometheus-e2e: prometheus scrapes the four node_exporters (textfile collector) on 127.0.0.1"
else
	result 0 "prometheus-e2e: prometheus scrapes the four node_exporters (textfile collector) on 127.0.0.1" \
		"$(query up); $(tail -n 5 "$t/prometheus.log" "$t"/exporter-*.log)"
	summary
	exit 1
fi

# firing NODE ALERT [CODE]: the alert fires in Prometheus for that node
firing() {
	query "ALERTS{alertstate=\"firing\",node=\"$1\",alertname=\"$2\"${3:+,code=\"$3\"}}" | grep -q '"metric"'
}
# Alertmanager's alerts, one line each: node alertname code | summary
am_alerts() {
	get "http://127.0.0.1:$aport/api/v2/alerts" | "$PYTHON" -c 'import json, sys
for a in json.load(sys.stdin):
    l = a["labels"]
    print(l.get("node", "-"), l["alertname"], l.get("code", "-"), "|", a["annotations"].get("summary", ""))'
}
in_am() { am_alerts | grep -q -- "$1"; }

want_alert() {	# NODE ALERT CODE SUMMARY_PART: fires, and reaches Alertmanager
	local name="prometheus-e2e: exit status $5 ($1) fires $2${3:+ ($3)} and Alertmanager receives it, naming ${4}"
	if wait_for 30 firing "$1" "$2" "$3" && wait_for 30 in_am "^$1 $2 ${3:--} | .*$4"; then
		result 1 "$name"
	else
		result 0 "$name" "Prometheus: $(query "ALERTS{node=\"$1\"}" | head -c 600); Alertmanager: $(am_alerts | grep "^$1 " | head -5); $(tail -n 3 "$t/alertmanager.log")"
	fi
}
want_alert broken P2PDiagBroken host-bridge-no-p2p "0000:01:00.0 - 0000:04:00.0" 2
want_alert degraded P2PDiagDegraded acs-redirect "acs-redirect (0000:01:00.0 - 0000:02:00.0)" 1
want_alert failed P2PDiagCheckFailed "" "p2pdiag-check fails on" 3
v=$(query 'ALERTS{node="healthy"}')
a=$(am_alerts | grep '^healthy ')
[ "$v" = "[]" ] && [ -z "$a" ] && result 1 "prometheus-e2e: exit status 0 (healthy) fires nothing" ||
	result 0 "prometheus-e2e: exit status 0 (healthy) fires nothing" "$v; $a"
echo "# Alertmanager holds $(am_alerts | wc -l) alerts, $((SECONDS - start)) s after the start"

# Each query of the dashboard, its node variable matching every node,
# returns data; the state counts are one node each.
mapfile -t exprs < <("$PYTHON" -c 'import json, sys
for p in json.load(open(sys.argv[1]))["panels"]:
    for t in p["targets"]:
        print(p["title"] + "\t" + t["expr"].replace("$instance", ".+"))' "$dashboard")
why=
for e in "${exprs[@]}"; do
	title=${e%%$'\t'*} expr=${e#*$'\t'}
	if [ -z "$measured" ] && [[ $expr == *p2pdiag_gpu_pair* ]]; then
		echo "# dashboard: '$title' not checked: no measured run ($doubles_why)"
		continue
	fi
	r=$(query "$expr")
	[[ $r == '[{'* ]] || why+="'$title': $expr gives $r"$'\n'
done
states=$(for s in 0 1 2 3; do query "count(p2pdiag_exit_status == $s) or vector(0)" |
	"$PYTHON" -c 'import json,sys; print(json.load(sys.stdin)[0]["value"][1])'; done | tr '\n' ' ')
[ "$states" = "1 1 1 1 " ] || why+="nodes by state (0 1 2 3): $states, want 1 1 1 1"
[ -z "$why" ] && result 1 "prometheus-e2e: each of the dashboard's ${#exprs[@]} queries returns data; one node in each state" ||
	result 0 "prometheus-e2e: each of the dashboard's ${#exprs[@]} queries returns data; one node in each state" "$why"
if [ -z "$measured" ]; then
	n=$((n + 1)) passed=$((passed + 1))
	echo "ok $n prometheus-e2e: the bandwidth panel has measured and expected figures # SKIP $doubles_why"
else
	r=$(query 'p2pdiag_gpu_pair_bandwidth_bytes_per_second{kind="p2p"} / on (instance, src, dst) p2pdiag_gpu_pair_expected_bandwidth_bytes_per_second')
	[[ $r == '[{'* ]] && result 1 "prometheus-e2e: the bandwidth panel's measured and expected figures join per GPU pair" ||
		result 0 "prometheus-e2e: the bandwidth panel's measured and expected figures join per GPU pair" "$r"
fi
echo "# prometheus-e2e took $((SECONDS - start)) s"
summary
