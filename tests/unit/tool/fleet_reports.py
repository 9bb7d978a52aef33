#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""A fleet of saved reports of one 8-GPU server model, with planted outliers.

Usage: fleet_reports.py P2PDIAG_CHECK TOPOLOGY OUTDIR COUNT MANIFEST

TOPOLOGY is the server's saved topology (tests/unit/fixtures/02-eight-gpu-
four-switches.topo).  P2PDIAG_CHECK reports it (--topology-file, --json)
as it is and in four variants: ACS redirect on one switch port; one
GPU's link trained to x8; one GPU gone; and as the second BIOS version
sets it up (ACS redirect on a root port).  Offline reports have no GPU
figures, so this adds what a measured run would hold (host to device,
device to host, P2P both ways, within 2% of a nominal figure per path
class), the DMI product, BIOS version and kernel release, and writes
COUNT reports node-NNNNN.json into OUTDIR:

  every tenth server (index % 10 == 9) runs the second BIOS: its own group,
  whose majority differs from the first group's at the root port;
  server 1: ACS redirect on one switch port (the ACS report);
  server 2: a GPU link at x8 (the X8 report) and that GPU's figures halved;
  server 3: a GPU missing (the NOGPU report);
  server 4: one GPU pair's verdict blocked;
  server 5: one P2P direction at 70% of the group's figure;
  server 19 (second group, COUNT >= 40): one GPU's host to device at 70%.

MANIFEST gets the planted outliers as JSON: {"groups": [servers, ...],
"outliers": {file: [[kind, a, b, field], ...]}} in the terms of
--compare-fleet --json's differences; every other server matches its
group's majority.
"""
import copy
import json
import os
import random
import re
import subprocess
import sys
import tempfile

ACS_PORT = "0000:02:00.0"
X8_GPU = "0000:04:00.0"
GONE_GPU = "0000:0a:00.0"
BLOCKED_PAIR = ("0000:83:00.0", "0000:84:00.0")
SLOW_P2P = ("0000:c3:00.0", "0000:c4:00.0")
SLOW_H2D_GPU = "0000:09:00.0"
P2P_GBS = {"PIX": 24.0, "PXB": 23.0, "PHB": 20.0, "NODE": 18.0, "SYS": 15.0}
H2D_GBS, D2H_GBS = 24.5, 24.8
MODEL = "DGXA100 920-23687-2530-000"
BIOS = ("1.25", "1.27")
KERNEL = "6.1.0-27-amd64"


ACS_REDIRECT = ("acs_ctrl=0x001d", "acs=SrcValid+\\x20TransBlk-\\x20ReqRedir+\\x20"
                "CmpltRedir+\\x20UpstreamFwd+\\x20EgressCtrl-\\x20DirectTrans-")
ROOT_PORT = "0000:00:01.1"


def edit_function(lines, addr, change):
    """The topology's lines with function addr's line changed (None: removed)."""
    out = []
    for line in lines:
        if line.startswith("addr=%s " % addr):
            line = change(line)
            if line is None:
                continue
        out.append(line)
    return out


def with_acs(line):
    words = [w for w in line.split(" ") if not w.startswith(("acs_ctrl=", "acs="))]
    return " ".join(words[:1] + list(ACS_REDIRECT) + words[1:])


def variants(topology):
    """The server's topology as it is and in its four variants."""
    lines = [l for l in open(topology).read().splitlines() if not l.startswith("expect")]
    nogpu = edit_function(lines, GONE_GPU, lambda l: None)
    nogpu = [l.replace("functions=43", "functions=42") if l.startswith("# p2pdiag") else l
             for l in nogpu]
    return {
        "base": lines,
        "acs": edit_function(lines, ACS_PORT, with_acs),
        "x8": edit_function(lines, X8_GPU, lambda l: l.replace(" link_width=16", " link_width=8")),
        "nogpu": nogpu,
        "bios2": edit_function(lines, ROOT_PORT, with_acs),
    }


def reports(tool, topology):
    """The tool's own --json report of each variant."""
    out = {}
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, P2PDIAG_FSROOT=tmp)
        for name, lines in variants(topology).items():
            path = os.path.join(tmp, name + ".topo")
            with open(path, "w") as f:
                f.write("\n".join(lines) + "\n")
            run = subprocess.run([tool, "--topology-file", path, "--no-cuda", "--json"],
                                 capture_output=True, text=True, env=env)
            if run.returncode > 1:
                sys.exit("%s: %s: exit %d: %s" % (tool, name, run.returncode, run.stderr))
            out[name] = json.loads(run.stdout)
    return out


def pair_key(p):
    return (p["a"], p["b"])


def verdict_changes(base, variant):
    """The pairs whose verdict or class the variant's own report changed."""
    was = {pair_key(p): p for p in base["pairs"]}
    out = []
    for p in variant["pairs"]:
        b = was.get(pair_key(p))
        if b is None:
            continue
        if p["verdict"] != b["verdict"]:
            out.append(["verdict", p["a"], p["b"], None])
        if p["class"] != b["class"]:
            out.append(["class", p["a"], p["b"], None])
    return out


def measured(report, bios, blocked):
    """The report as a measured run of one server model, as a template.

    Returns the JSON text, with "@N@" where figure N goes, and the list of
    figures as (field, a, b, nominal GB/s); blocked: the pair to show
    blocked, or None.
    """
    r = copy.deepcopy(report)
    figures = []

    def figure(field, a, b, nominal):
        figures.append((field, a, b, nominal))
        return "@%d@" % (len(figures) - 1)

    gpus = [d for d in r["devices"] if d["kind"] == "GPU"]
    gpu_addrs = {d["addr"] for d in gpus}
    r["gpus"] = []
    for i, d in enumerate(gpus):
        r["gpus"].append({
            "index": i, "ordinal": i, "addr": d["addr"],
            "name": "NVIDIA A100-SXM4-40GB", "numa_node": int(d["numa_node"]),
            "h2d_gbs": figure("h2d_gbs", d["addr"], None, H2D_GBS),
            "d2h_gbs": figure("d2h_gbs", d["addr"], None, D2H_GBS),
        })
    for p in r["pairs"]:
        if pair_key(p) == blocked:
            p["verdict"] = "blocked"
            p["host_blocks"] = True
        if p["a"] not in gpu_addrs or p["b"] not in gpu_addrs:
            continue
        nominal = P2P_GBS.get(p["class"], 15.0)
        for side, (src, dst) in ((p, (p["a"], p["b"])), (p["reverse"], (p["b"], p["a"]))):
            side["bw"] = {"p2p_gbs": figure("p2p_gbs", src, dst, nominal),
                          "expected_gbs": 26.0}
    r["system"] = {
        "root": "/",
        "kernel": {"release": KERNEL, "cmdline": "BOOT_IMAGE=/vmlinuz ro quiet",
                   "config": None},
        "virtualization": {"guest": False, "hypervisor": None,
                           "dmi_vendor": "NVIDIA", "dmi_product": MODEL},
        "context": {"bios_vendor": "American Megatrends Inc.",
                    "bios_version": bios, "bios_date": "06/15/2023",
                    "board": "NVIDIA DGXA100", "nvidia_driver": "535.161.08",
                    "slots": []},
        "aer": [], "gpudirect": None,
    }
    # the tool's own layout: two-space indent, "key": value
    return json.dumps(r, indent=2) + "\n", figures


FIGURE = re.compile(r'"@(\d+)@"')


def server_text(template, rng, scale):
    """One server's report: each figure within 2% of nominal, times scale."""
    text, figures = template
    values = ["%.3f" % (nom * (1 + rng.uniform(-0.02, 0.02)) * scale(f, a, b))
              for f, a, b, nom in figures]
    return FIGURE.sub(lambda m: values[int(m.group(1))], text)


def main(argv):
    if len(argv) != 6:
        sys.exit(__doc__)
    r = reports(argv[1], argv[2])
    base, acs, x8, nogpu, bios2 = (r[k] for k in ("base", "acs", "x8", "nogpu", "bios2"))
    outdir, count, manifest = argv[3], int(argv[4]), argv[5]
    os.makedirs(outdir, exist_ok=True)
    planted = {}
    groups = [0, 0]
    templates = {}
    for i in range(count):
        rng = random.Random(i)
        second = i % 10 == 9
        groups[second] += 1
        name = os.path.join(outdir, "node-%05d.json" % i)
        template, faults, expect = (bios2 if second else base), {}, []

        if i == 1:
            template = acs
            expect = [["field", ACS_PORT, None, "acs_ctrl"]] + verdict_changes(base, acs)
        elif i == 2:
            template = x8
            expect = [["field", X8_GPU, None, "link_width"]]
            for d in ("h2d_gbs", "d2h_gbs"):
                faults[(d, X8_GPU, None)] = 0.5
                expect.append(["bandwidth-low", X8_GPU, None, d])
            for p in x8["pairs"]:
                if X8_GPU in pair_key(p) and all(
                        a.startswith("0000:") and any(
                            g["addr"] == a and g["kind"] == "GPU" for g in x8["devices"])
                        for a in pair_key(p)):
                    for src, dst in ((p["a"], p["b"]), (p["b"], p["a"])):
                        faults[("p2p_gbs", src, dst)] = 0.5
                        expect.append(["bandwidth-low", src, dst, "p2p_gbs"])
        elif i == 3:
            template = nogpu
            expect = [["function-missing", GONE_GPU, None, None]]
        elif i == 5:
            faults[("p2p_gbs",) + SLOW_P2P] = 0.7
            expect = [["bandwidth-low", SLOW_P2P[0], SLOW_P2P[1], "p2p_gbs"]]
        elif i == 19 and second:
            faults[("h2d_gbs", SLOW_H2D_GPU, None)] = 0.7
            expect = [["bandwidth-low", SLOW_H2D_GPU, None, "h2d_gbs"]]

        blocked = BLOCKED_PAIR if i == 4 else None
        if blocked:
            expect = [["verdict", BLOCKED_PAIR[0], BLOCKED_PAIR[1], None]]
        key = (id(template), second, blocked)
        if key not in templates:
            templates[key] = measured(template, BIOS[second], blocked)
        text = server_text(templates[key], rng,
                           lambda k, a, b: faults.get((k, a, b), 1.0))
        if expect:
            planted[name] = sorted(expect, key=lambda e: [str(x) for x in e])
        with open(name, "w") as f:
            f.write(text)
    with open(manifest, "w") as f:
        json.dump({"groups": groups, "outliers": planted}, f, indent=1)


if __name__ == "__main__":
    main(sys.argv)
