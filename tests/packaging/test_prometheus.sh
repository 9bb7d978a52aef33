#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The node_exporter textfile and the alert rules against the real tools:
# `promtool check metrics` on the --prometheus file of every run that
# writes one (every engine fixture, the libpci dumps, fake module trees,
# the lab's switchacs topology, the system fixture machines with AER and
# GPUDirect series, a failed run, and a measured run on the GPU doubles
# when built); `promtool check rules` and `promtool test rules`
# (prometheus/p2pdiag.rules.test.yml, and the tests rule_tests.py writes
# from the textfiles of those runs) on userspace/prometheus; then
# prometheus-node-exporter's textfile collector, on 127.0.0.1 and a free
# port, started and stopped here, scraped for a textfile: every sample
# arrives and node_textfile_scrape_error is 0.
# Without promtool or prometheus-node-exporter (Debian's prometheus and
# prometheus-node-exporter) those checks are skipped and say so.
# Usage: test_prometheus.sh ROOT P2PDIAG_CHECK TEST_TOOL [GPU_OUT]
set -u
root=$1 bin=$2 tool=$3 gpu=${4-}
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../tap.sh"
. "$here/fixture_runs.sh"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/p2pdiag-prom-XXXXXX") || exit 1
exporter_pid=
cleanup() {
	[ -z "$exporter_pid" ] || { kill "$exporter_pid" 2>/dev/null; wait "$exporter_pid" 2>/dev/null; }
	rm -rf "$tmp"
}
trap cleanup EXIT
rules=$root/userspace/prometheus/p2pdiag.rules.yml

echo "KTAP version 1"
# textfile NAME ARGS...: the textfile of one run (any exit status)
textfile() {
	local name=$1
	shift
	"$bin" --prometheus "$tmp/$name.prom" "$@" >/dev/null 2>"$tmp/$name.err"
	echo "$tmp/$name.prom"
}

files=() nodes=()
add() {
	shift
	files+=("$(textfile "$@")")
	nodes+=("$1=${files[-1]}")
}
fixture_runs "$root" "$tmp" "$tool" add
mkdir -p "$tmp/empty"
add - failed --source=module --sysfs-root "$tmp/empty" --no-cuda
measured=
if [ -n "$gpu" ] && [ -x "$gpu/mksysfs" ] && [ -d "$gpu/doubles/cuda" ] &&
   ! "$bin" --quick 2>/dev/null | grep -q '^CUDA: not-built'; then
	mkdir -p "$tmp/gpu-tree"
	"$gpu/mksysfs" "$root/tests/unit/fixtures/02-eight-gpu-four-switches.topo" "$tmp/gpu-tree"
	measured=$(FAKE_GPU_BUSIDS=0000:03:00.0,0000:04:00.0 FAKE_CUDA_LAT_US=0.2 \
		LD_LIBRARY_PATH=$gpu/doubles/cuda:$gpu/doubles/nvml \
		textfile measured --source=module --sysfs-root "$tmp/gpu-tree" --size 1M --timeout 10)
	files+=("$measured") nodes+=("measured=$measured")
	# a driver whose cuInit never returns, cut by the run's deadline
	FAKE_GPU_BUSIDS=0000:03:00.0,0000:04:00.0 FAKE_CUDA_HANG_CALL=cuInit \
		LD_LIBRARY_PATH=$gpu/doubles/cuda:$gpu/doubles/nvml \
		add - hung-driver --source=module --sysfs-root "$tmp/gpu-tree" --quick --deadline 2
else
	echo "# prometheus: no GPU doubles or no CUDA support built: the measured textfile is not checked"
fi

# Every family the tool can write appears in some file above, so a name
# against the conventions cannot hide in a run not made.
want="p2pdiag_info p2pdiag_exit_status p2pdiag_last_run_timestamp_seconds
p2pdiag_pair_info p2pdiag_pair_endpoint_pairs p2pdiag_pair_blockers
p2pdiag_findings p2pdiag_finding_info p2pdiag_pairs p2pdiag_gpudirect_ready
p2pdiag_nccl_gdr p2pdiag_aer_errors_total"
[ -n "$measured" ] && want+=" p2pdiag_gpu_pair_bandwidth_bytes_per_second
p2pdiag_gpu_pair_expected_bandwidth_bytes_per_second
p2pdiag_gpu_pair_latency_seconds p2pdiag_gpu_bandwidth_bytes_per_second
p2pdiag_gpu_expected_bandwidth_bytes_per_second
p2pdiag_gpu_link_gen p2pdiag_gpu_link_width"
miss=$(for m in $want; do cat "${files[@]}" 2>/dev/null | grep -q "^${m}[{ ]" || echo "$m"; done)
[ -z "$miss" ] && result 1 "prometheus: the runs write every metric family ($(echo $want | wc -w))" ||
	result 0 "prometheus: the runs write every metric family ($(echo $want | wc -w))" "no samples of: $miss"

# A GPU is named as dcgm-exporter names it: pci_bus_id 00000000:03:00.0
# and, NVML giving it, its UUID.
if [ -n "$measured" ]; then
	grep -q '^p2pdiag_gpu_link_gen{pci_bus_id="00000000:03:00.0",UUID="GPU-[0-9a-f-]*",state="max"} ' "$measured" &&
		result 1 "prometheus: a GPU's series carry pci_bus_id in dcgm-exporter's form and NVML's UUID" ||
		result 0 "prometheus: a GPU's series carry pci_bus_id in dcgm-exporter's form and NVML's UUID" \
			"$(grep '^p2pdiag_gpu_link_gen' "$measured" | head -3)"
fi

# Each family has its HELP and TYPE line before its first sample.
bad=$(awk '/^# HELP / { h[$3] = 1 } /^# TYPE / { t[$3] = 1; next } /^#/ { next }
	{ n = $1; sub(/\{.*/, "", n); if (!h[n] || !t[n]) { print FILENAME ": " n; nextfile } }
	ENDFILE { delete h; delete t }' "${files[@]}")
[ -z "$bad" ] && result 1 "prometheus: every family has HELP and TYPE before its samples (${#files[@]} files)" ||
	result 0 "prometheus: every family has HELP and TYPE before its samples (${#files[@]} files)" "$bad"

if ! command -v promtool >/dev/null; then
	echo "ok $((n + 1)) prometheus: promtool checks # SKIP no promtool (apt-get install prometheus)"
	n=$((n + 1)) passed=$((passed + 1))
else
	# promtool itself must refuse what the conventions forbid, or its
	# silence below would prove nothing.
	printf '# HELP x_count c\n# TYPE x_count gauge\nx_count 1\n# HELP y_latency_us l\n# TYPE y_latency_us gauge\ny_latency_us 1\n' >"$tmp/bad.prom"
	out=$(promtool check metrics <"$tmp/bad.prom" 2>&1)
	grep -q '_count' <<<"$out" && grep -q 'abbreviated units' <<<"$out" &&
		result 1 "prometheus: promtool check metrics refuses a _count gauge and _us" ||
		result 0 "prometheus: promtool check metrics refuses a _count gauge and _us" "$out"
	bad=
	for f in "${files[@]}"; do
		if [ ! -s "$f" ]; then
			bad+="${f##*/}: not written ($(head -c 200 "${f%.prom}.err"))"$'\n'
		elif ! out=$(promtool check metrics <"$f" 2>&1) || [ -n "$out" ]; then
			bad+="${f##*/}: $out"$'\n'
		fi
	done
	[ -z "$bad" ] && result 1 "prometheus: promtool check metrics is clean on every textfile (${#files[@]})" ||
		result 0 "prometheus: promtool check metrics is clean on every textfile (${#files[@]})" "$bad"
	check "prometheus: promtool check rules userspace/prometheus/p2pdiag.rules.yml" \
		promtool check rules "$rules"
	check "prometheus: promtool test rules: the stale check's alert, on series of its own" \
		promtool test rules "$here/prometheus/p2pdiag.rules.test.yml"
	# The rules fed the tool's own textfiles, one node per run above: each
	# alert fires exactly where rule_tests.py says it must, with its text.
	if summary_out=$("$PYTHON" "$here/prometheus/rule_tests.py" "$rules" "$tmp/generated.test.yml" \
		"${nodes[@]}" 2>&1); then
		printf '%s\n' "$summary_out" | sed 's/^/# /'
		check "prometheus: promtool test rules on ${#nodes[@]} real textfiles: every alert fires where it should, naming cause and device" \
			promtool test rules "$tmp/generated.test.yml"
	else
		result 0 "prometheus: promtool test rules on ${#nodes[@]} real textfiles: every alert fires where it should, naming cause and device" "$summary_out"
	fi
	# every exit status is among the runs, and each but 0 fires its alert
	why=
	grep -q '^exit 0: .*: no alert$' <<<"$summary_out" || why+="exit 0 missing or alerting; "
	grep -q '^exit 1: .*P2PDiagDegraded x' <<<"$summary_out" || why+="exit 1 fires no P2PDiagDegraded; "
	grep -q '^exit 2: .*P2PDiagBroken x' <<<"$summary_out" || why+="exit 2 fires no P2PDiagBroken; "
	grep -q '^exit 3: .*P2PDiagCheckFailed x' <<<"$summary_out" || why+="exit 3 fires no P2PDiagCheckFailed; "
	grep -q 'P2PDiagAERUncorrectable x' <<<"$summary_out" || why+="no flat non-zero AER count fires; "
	[ -z "$why" ] && result 1 "prometheus: ... the runs cover exit status 0 to 3, and each of 1, 2, 3 alerts" ||
		result 0 "prometheus: ... the runs cover exit status 0 to 3, and each of 1, 2, 3 alerts" "$why$summary_out"
fi

# --- the scrape through node_exporter's textfile collector ---------------
exporter=$(command -v prometheus-node-exporter || command -v node_exporter)
if [ -z "$exporter" ]; then
	echo "ok $((n + 1)) prometheus: node_exporter scrape # SKIP no prometheus-node-exporter (apt-get install prometheus-node-exporter)"
	n=$((n + 1)) passed=$((passed + 1))
	summary
	exit
fi
# scrape: node_exporter's /metrics
scrape() {
	"$PYTHON" -c 'import sys, urllib.request
sys.stdout.write(urllib.request.urlopen(sys.argv[1], timeout=5).read().decode())' \
		"http://127.0.0.1:$port/metrics" 2>/dev/null
}
mkdir -p "$tmp/textfile"
src=${measured:-$tmp/system-aer.prom}
cp "$src" "$tmp/textfile/p2pdiag.prom"
port=$("$PYTHON" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$exporter" --collector.disable-defaults --collector.textfile \
	--collector.textfile.directory="$tmp/textfile" \
	--web.listen-address="127.0.0.1:$port" >"$tmp/exporter.log" 2>&1 &
exporter_pid=$!
up=0
for _ in $(seq 100); do
	scrape >"$tmp/scrape" 2>/dev/null && [ -s "$tmp/scrape" ] && { up=1; break; }
	kill -0 "$exporter_pid" 2>/dev/null || break
	sleep 0.1
done
if [ "$up" = 1 ]; then
	result 1 "prometheus: node_exporter listens on 127.0.0.1:$port"
else
	result 0 "prometheus: node_exporter listens on 127.0.0.1:$port" "$(tail -5 "$tmp/exporter.log")"
fi
# The samples, each as name, sorted labels and value (node_exporter
# orders labels by name and writes large values in exponent form).  A
# label whose value is empty is no label at all to Prometheus, and
# node_exporter gives every series of a family the family's label
# names, empty where a series has none: such labels are left out.
samples() {
	"$PYTHON" - "$1" <<'PY'
import re, sys
for line in open(sys.argv[1]):
    m = re.match(r'(p2pdiag_\w+)(?:\{(.*)\})? (\S+)$', line)
    if m:
        labels = sorted(l for l in re.findall(r'(\w+)="((?:[^"\\]|\\.)*)"', m.group(2) or "")
                        if l[1] != "")
        print(m.group(1), labels, float(m.group(3)))
PY
}
want=$(grep -c '^p2pdiag_' "$src")
got=$(grep -c '^p2pdiag_' "$tmp/scrape")
err=$(awk '$1 == "node_textfile_scrape_error" { print $2 }' "$tmp/scrape")
diff <(samples "$src" | sort) <(samples "$tmp/scrape" | sort) >"$tmp/samples.diff"
[ "$err" = 0 ] && [ "$want" -gt 0 ] && [ ! -s "$tmp/samples.diff" ] &&
	result 1 "prometheus: node_exporter serves all $want samples of ${src##*/}, node_textfile_scrape_error 0" ||
	result 0 "prometheus: node_exporter serves all $want samples of ${src##*/}, node_textfile_scrape_error 0" \
		"scrape error '$err', $got of $want samples: $(head -5 "$tmp/samples.diff"; grep textfile "$tmp/exporter.log" | tail -3)"
# Both checks can fail: a series written twice loses a sample (the
# collector logs it and keeps one), a line it cannot parse is a scrape
# error.
printf 'p2pdiag_twice{a="1"} 1\np2pdiag_twice{a="1"} 2\n' >"$tmp/textfile/p2pdiag.prom"
scrape >"$tmp/scrape-twice"
[ "$(samples "$tmp/scrape-twice" | wc -l)" = 1 ] &&
	result 1 "prometheus: ... a series written twice arrives once (so the comparison above can fail)" ||
	result 0 "prometheus: ... a series written twice arrives once (so the comparison above can fail)" \
		"$(grep twice "$tmp/scrape-twice")"
printf 'p2pdiag_unquoted{a=1} 1\n' >"$tmp/textfile/p2pdiag.prom"
err=$(scrape | awk '$1 == "node_textfile_scrape_error" { print $2 }')
[ "$err" = 1 ] && result 1 "prometheus: ... and a line it cannot parse is node_textfile_scrape_error 1" ||
	result 0 "prometheus: ... and a line it cannot parse is node_textfile_scrape_error 1" "scrape error '$err'"
kill "$exporter_pid" && wait "$exporter_pid" 2>/dev/null
exporter_pid=
summary
