#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# p2pdiag-check against nvbandwidth and PyTorch on one GPU machine.
#
#   NVBANDWIDTH=/path/to/nvbandwidth [P2PDIAG=userspace/p2pdiag-check] \
#   [RUNS=5] [LOGDIR=bench-logs] tests/bench/run-bench.sh
#
# The tools run interleaved (p2pdiag-check, nvbandwidth, PyTorch, and again)
# RUNS times after one warm-up round of each that is not counted (the first
# run of anything on a fresh machine pays for driver start-up and the PTX
# JIT cache).  Each run is timed with /usr/bin/time -v when present, else
# with a getrusage wrapper (python3).  The table compares medians over the
# runs; "spread" is (max - min) / median of the runs' figures.
#
# nvbandwidth is not part of this repository: build it by hand from its
# public source and pass its path.  Raw logs go to LOGDIR, not the repo.
set -u

HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$HERE/../.." && pwd)
P2PDIAG=${P2PDIAG:-$TOP/userspace/p2pdiag-check}
NVBANDWIDTH=${NVBANDWIDTH:-}
RUNS=${RUNS:-5}
LOGDIR=${LOGDIR:-$TOP/bench-logs}
P2PDIAG_ARGS=${P2PDIAG_ARGS:---json --no-color}
NVB_TESTS="host_to_device_memcpy_ce device_to_host_memcpy_ce \
host_to_device_bidirectional_memcpy_ce device_to_host_bidirectional_memcpy_ce \
device_local_copy host_device_latency_sm"

die() { echo "run-bench: $*" >&2; exit 3; }
[ -x "$P2PDIAG" ] || die "no p2pdiag-check at $P2PDIAG (set P2PDIAG)"
if [ -z "$NVBANDWIDTH" ] || [ ! -x "$NVBANDWIDTH" ]; then
	die "set NVBANDWIDTH to an nvbandwidth binary (built by hand, outside this repository)"
fi
mkdir -p "$LOGDIR" || die "cannot create $LOGDIR"

# timed NAME CMD...: stdout to NAME.out, resource use to NAME.time, wall
# time in ns (time -v prints only hundredths) to NAME.wall
if [ -x /usr/bin/time ]; then
	timed() {
		local name=$1 t0
		shift
		t0=$(date +%s%N)
		/usr/bin/time -v -o "$LOGDIR/$name.time" "$@" >"$LOGDIR/$name.out" \
			2>"$LOGDIR/$name.err"
		echo $(($(date +%s%N) - t0)) >"$LOGDIR/$name.wall"
	}
else
	timed() {
		local name=$1
		shift
		python3 - "$LOGDIR/$name.time" "$@" >"$LOGDIR/$name.out" \
			2>"$LOGDIR/$name.err" <<'EOF'
import resource, subprocess, sys, time
t0 = time.monotonic()
rc = subprocess.call(sys.argv[2:])
wall = time.monotonic() - t0
ru = resource.getrusage(resource.RUSAGE_CHILDREN)
with open(sys.argv[1], "w") as f:
    f.write(f"\tElapsed (wall clock) time (h:mm:ss or m:ss): 0:{wall:09.6f}\n")
    f.write(f"\tMaximum resident set size (kbytes): {ru.ru_maxrss}\n")
    f.write(f"\tExit status: {rc}\n")
sys.exit(rc)
EOF
	}
fi

round() {
	local r=$1
	# shellcheck disable=SC2086 # P2PDIAG_ARGS is a list of options
	timed "p2pdiag.$r" "$P2PDIAG" $P2PDIAG_ARGS
	# shellcheck disable=SC2086
	timed "nvbandwidth.$r" "$NVBANDWIDTH" -t $NVB_TESTS
	timed "torch.$r" python3 "$HERE/torch_copy.py"
	timed "topology.$r" "$P2PDIAG" --no-cuda --json
}

{
	echo "date: $(date -u '+%Y-%m-%d %H:%M UTC')"
	echo "gpu: $(nvidia-smi --query-gpu=name,pci.bus_id,pcie.link.gen.max,pcie.link.width.max --format=csv,noheader 2>/dev/null | head -1)"
	echo "driver: $(nvidia-smi --query-gpu=driver_version --format=csv,noheader 2>/dev/null | head -1)"
	echo "kernel: $(uname -r)"
	echo "p2pdiag: $("$P2PDIAG" --version 2>&1 | head -1) ($P2PDIAG $P2PDIAG_ARGS)"
	echo "nvbandwidth: $("$NVBANDWIDTH" -h 2>&1 | grep -m1 -i version) ($NVBANDWIDTH -t $NVB_TESTS)"
	echo "torch: $(python3 -c 'import torch; print(torch.__version__)' 2>/dev/null) ($HERE/torch_copy.py)"
	echo "runs: $RUNS each, interleaved, after one uncounted warm-up round"
} | tee "$LOGDIR/env.txt"

round warmup
for r in $(seq 1 "$RUNS"); do
	echo "round $r of $RUNS" >&2
	round "$r"
done

python3 - "$LOGDIR" "$RUNS" <<'EOF'
import json, re, statistics, sys

logdir, runs = sys.argv[1], int(sys.argv[2])

def read(path):
    try:
        with open(path) as f:
            return f.read()
    except OSError:
        return ""

def rusage(name):
    t = read(f"{logdir}/{name}.time")
    ns = read(f"{logdir}/{name}.wall").strip()
    m = re.search(r"Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (?:(\d+):)?(\d+):([\d.]+)", t)
    wall = None
    if m:
        wall = int(m.group(1) or 0) * 3600 + int(m.group(2)) * 60 + float(m.group(3))
    if ns.isdigit():
        wall = int(ns) / 1e9
    m = re.search(r"Maximum resident set size \(kbytes\): (\d+)", t)
    return wall, int(m.group(1)) if m else None

def p2pdiag(r):
    try:
        j = json.loads(read(f"{logdir}/p2pdiag.{r}.out"))
    except ValueError:
        return {}
    g = (j.get("gpus") or [{}])[0]
    out = {k: g.get(k) for k in ("h2d_gbs", "d2h_gbs", "bidir_h2d_gbs",
                                 "bidir_d2h_gbs", "local_gbs")}
    if g.get("latency_chase_us") is not None:
        out["latency_ns"] = g["latency_chase_us"] * 1e3
    return out

def nvb(r):
    t = read(f"{logdir}/nvbandwidth.{r}.out")
    sums = dict(re.findall(r"^SUM (\S+) ([\d.]+)", t, re.M))
    key = {"host_to_device_memcpy_ce": "h2d_gbs",
           "device_to_host_memcpy_ce": "d2h_gbs",
           "host_to_device_bidirectional_memcpy_ce": "bidir_h2d_gbs",
           "device_to_host_bidirectional_memcpy_ce": "bidir_d2h_gbs",
           "device_local_copy": "local_gbs",
           "host_device_latency_sm": "latency_ns"}
    return {key[k]: float(v) for k, v in sums.items() if k in key}

def torch(r):
    t = read(f"{logdir}/torch.{r}.out")
    return {f"{k}_gbs": float(v) for k, v in re.findall(r"^torch\.(\w+)=([\d.]+)", t, re.M)}

def series(fn, key):
    v = [fn(r).get(key) for r in range(1, runs + 1)]
    return [x for x in v if x is not None]

def stat(v):
    if not v:
        return None, None
    med = statistics.median(v)
    return med, (max(v) - min(v)) / med * 100 if med else 0

rows = []
def row(label, a, b, unit, ref):
    am, asp = stat(a)
    bm, bsp = stat(b)
    ratio = am / bm if am and bm else None
    rows.append((label, unit, am, asp, ref, bm, bsp, ratio, len(a), len(b)))

names = [("host to device", "h2d_gbs", "GB/s"),
         ("device to host", "d2h_gbs", "GB/s"),
         ("both at once: host to device", "bidir_h2d_gbs", "GB/s"),
         ("both at once: device to host", "bidir_d2h_gbs", "GB/s"),
         ("device-local copy", "local_gbs", "GB/s"),
         ("host-device latency (pointer chase)", "latency_ns", "ns")]
for label, key, unit in names:
    row(label, series(p2pdiag, key), series(nvb, key), unit, "nvbandwidth")
for label, key in (("host to device", "h2d_gbs"), ("device to host", "d2h_gbs")):
    row(label, series(p2pdiag, key), series(torch, key), "GB/s", "PyTorch")
two = series(torch, "h2d_2streams_gbs")
if two:
    row("host to device, 2 streams (link headroom)", series(torch, "h2d_gbs"), two,
        "GB/s", "PyTorch 1 vs 2 streams")

walls = {t: [rusage(f"{t}.{r}")[0] for r in range(1, runs + 1)] for t in ("p2pdiag", "nvbandwidth", "torch", "topology")}
rss = {t: [rusage(f"{t}.{r}")[1] for r in range(1, runs + 1)] for t in ("p2pdiag", "nvbandwidth", "torch", "topology")}
def clean(v):
    return [x for x in v if x is not None]
row("whole run wall time", clean(walls["p2pdiag"]), clean(walls["nvbandwidth"]), "s", "nvbandwidth")
row("peak host memory (max RSS)", [x / 1024 for x in clean(rss["p2pdiag"])],
    [x / 1024 for x in clean(rss["nvbandwidth"])], "MiB", "nvbandwidth")
row("topology only (--no-cuda) wall", [x * 1e3 for x in clean(walls["topology"])], [], "ms", "-")
row("topology only (--no-cuda) peak memory", [x / 1024 for x in clean(rss["topology"])], [], "MiB", "-")

def f(x, d=2):
    return "-" if x is None else f"{x:.{d}f}"

hdr = "| figure | unit | p2pdiag-check median | spread % | reference | reference median | spread % | ratio | runs |"
lines = [hdr, "|" + "---|" * 9]
for label, unit, am, asp, ref, bm, bsp, ratio, na, nb in rows:
    lines.append(f"| {label} | {unit} | {f(am)} | {f(asp, 1)} | {ref} | {f(bm)} | {f(bsp, 1)} | {f(ratio, 3)} | {na}/{nb} |")
table = "\n".join(lines)
with open(f"{logdir}/table.md", "w") as fh:
    fh.write(table + "\n")
print(table)

# The accuracy and speed targets, judged on the medians above.
print()
res = {r[0] + "|" + r[4]: r for r in rows}
def target(name, ok, detail):
    print(f"{'MET ' if ok else 'MISSED'} {name}: {detail}")
for label, key, unit in names[:5]:
    r = res[label + "|nvbandwidth"]
    if r[7] is not None:
        target(f"{label} within 2% of nvbandwidth", abs(r[7] - 1) <= 0.02, f"ratio {r[7]:.3f}")
for label in ("host to device", "device to host"):
    r = res[label + "|nvbandwidth"]
    if r[2] is not None:
        target(f"{label} >= 0.88 x 63.0 GB/s", r[2] >= 0.88 * 63.0,
               f"{r[2]:.2f} GB/s = {r[2] / 63.0:.3f} of 63.0 (nvbandwidth {f(r[5])} = {f(r[5] / 63.0 if r[5] else None, 3)})")
r = res["whole run wall time|nvbandwidth"]
if r[7] is not None:
    target("whole check <= 0.3 x nvbandwidth wall", r[7] <= 0.3, f"{r[2]:.2f} s vs {r[5]:.2f} s = {r[7]:.3f}")
r = res["peak host memory (max RSS)|nvbandwidth"]
if r[7] is not None:
    target("peak memory <= 1/4 of nvbandwidth", r[7] <= 0.25, f"{r[2]:.0f} MiB vs {r[5]:.0f} MiB = {r[7]:.3f}")
r = res["topology only (--no-cuda) wall|-"]
if r[2] is not None:
    target("topology only <= 20 ms", r[2] <= 20, f"{r[2]:.1f} ms")
r = res["topology only (--no-cuda) peak memory|-"]
if r[2] is not None:
    target("topology only <= 10 MiB", r[2] <= 10, f"{r[2]:.1f} MiB")
EOF
