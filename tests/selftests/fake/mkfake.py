#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""mkfake.py <root> [mutation]: a fake sysfs for the p2pdiag selftests.

Writes <root>/sys/devices/... (config spaces built from the declarations
below, byte by byte, from the PCIe specification's layout), the
/sys/bus/pci/devices links, IOMMU groups, a p2pdiag tree whose values are
the declarations themselves (known by construction, not decoded), and
<root>/lab/topo.  A mutation name breaks one thing the selftests must
notice; check-fake runs them all.
"""
import os
import struct
import sys

ROLE_TYPE = {"endpoint": 0, "legacy_endpoint": 1, "root_port": 4,
             "upstream_port": 5, "downstream_port": 6, "rc_endpoint": 9}
SPEED = {"2.5": 1, "5.0": 2, "8.0": 3, "16.0": 4, "32.0": 5}
ACS_WORDS = ["SrcValid", "TransBlk", "ReqRedir", "CmpltRedir",
             "UpstreamFwd", "EgressCtrl", "DirectTrans"]

# addr, path below /sys/devices, vendor, device, class, role, header type,
# acs (cap, ctrl) or None, ats None | "disabled" | stu, link (speed, width,
# max speed, max width) or None, numa, iommu (group, type) or None, p2p
FUNCS = [
    ("0000:00:00.0", "pci0000:00", 0x8086, 0x29c0, 0x060000, "pci_device", 0,
     None, None, None, -1, None, 0),
    ("0000:00:02.0", "pci0000:00", 0x1234, 0x1111, 0x030000, "rc_endpoint", 0,
     None, None, None, -1, (4, "DMA"), 1),
    ("0000:00:1c.0", "pci0000:00", 0x1b36, 0x000c, 0x060400, "root_port", 1,
     (0x5f, 0x1d), None, ("16.0", 16, "16.0", 16), -1, (1, "DMA-FQ"), 0),
    ("0000:01:00.0", "pci0000:00/0000:00:1c.0", 0x104c, 0x8232, 0x060400,
     "upstream_port", 1, None, None, ("8.0", 8, "16.0", 16), -1, (1, "DMA-FQ"), 0),
    ("0000:02:00.0", "pci0000:00/0000:00:1c.0/0000:01:00.0", 0x104c, 0x8233,
     0x060400, "downstream_port", 1, (0x5f, 0x0c), None,
     ("16.0", 16, "16.0", 16), -1, (1, "DMA-FQ"), 0),
    ("0000:02:01.0", "pci0000:00/0000:00:1c.0/0000:01:00.0", 0x104c, 0x8233,
     0x060400, "downstream_port", 1, None, None, ("2.5", 1, "16.0", 16), -1,
     (1, "DMA-FQ"), 0),
    ("0000:03:00.0", "pci0000:00/0000:00:1c.0/0000:01:00.0/0000:02:00.0",
     0x10de, 0x2335, 0x030200, "endpoint", 0, None, 0, ("16.0", 16, "32.0", 16),
     0, (2, "DMA-FQ"), 1),
    ("0000:04:00.0", "pci0000:00/0000:00:1c.0/0000:01:00.0/0000:02:01.0",
     0x15b3, 0x1021, 0x020700, "endpoint", 0, None, "disabled",
     ("2.5", 1, "16.0", 16), 0, (3, "identity"), 1),
    ("0000:80:00.0", "pci0000:80", 0x1b36, 0x0010, 0x010802, "endpoint", 0,
     None, None, ("5.0", 4, "5.0", 4), 1, None, 1),
]

# Functions with a Page Request and a PASID capability: PRI enabled, and
# PASID (max width, enabled).
PRI_PASID = {"0000:03:00.0": (True, (20, True))}

PAIRS = [
    "a=0000:00:02.0 b=0000:03:00.0 class=PHB verdict=blocked map=not_supported distance=-1 common=host blockers=0000:00:1c.0:RR+CR,0000:02:00.0:RR+CR fix=pci=disable_acs_redir=0000:00:1c.0;0000:02:00.0",
    "a=0000:00:02.0 b=0000:04:00.0 class=PHB verdict=blocked map=not_supported distance=-1 common=host blockers=0000:00:1c.0:RR+CR fix=pci=disable_acs_redir=0000:00:1c.0",
    "a=0000:00:02.0 b=0000:80:00.0 class=NODE verdict=blocked map=not_supported distance=-1 common=none blockers=0000:00:00.0:host fix=none",
    "a=0000:03:00.0 b=0000:04:00.0 class=PIX verdict=redirected map=thru_host_bridge distance=5 common=0000:01:00.0 blockers=0000:02:00.0:RR+CR fix=pci=disable_acs_redir=0000:02:00.0",
    "a=0000:03:00.0 b=0000:80:00.0 class=NODE verdict=blocked map=not_supported distance=-1 common=none blockers=none fix=none",
    "a=0000:04:00.0 b=0000:80:00.0 class=NODE verdict=blocked map=not_supported distance=-1 common=none blockers=none fix=none",
]


def pair_line(p):
    # insert the fields the table leaves implicit, in ABI order
    kv = dict(t.split("=", 1) for t in p.split(" "))
    kv.setdefault("bottleneck", "2.5x1")
    kv.setdefault("degraded", "1")
    kv.setdefault("nccl_p2p", "0")
    keys = ["a", "b", "class", "verdict", "map", "distance", "common",
            "blockers", "bottleneck", "degraded", "nccl_p2p", "fix"]
    return " ".join("%s=%s" % (k, kv[k]) for k in keys)


def config_space(f):
    (addr, _, ven, dev, cls, role, hdr, acs, ats, link, _, _, _) = f
    pcie = role in ROLE_TYPE
    c = bytearray(4096 if pcie else 256)
    struct.pack_into("<HH", c, 0, ven, dev)
    c[0x09], c[0x0a], c[0x0b] = cls & 0xff, (cls >> 8) & 0xff, cls >> 16
    c[0x0e] = hdr
    if not pcie:
        return c
    struct.pack_into("<H", c, 0x06, 0x0010)       # Status: capabilities list
    c[0x34] = 0x50
    c[0x50], c[0x51] = 0x05, 0x40                 # MSI, next -> PCIe
    c[0x40], c[0x41] = 0x10, 0x00                 # PCI Express capability
    struct.pack_into("<H", c, 0x42, 0x0002 | ROLE_TYPE[role] << 4)
    if link:
        sp, w, msp, mw = link
        struct.pack_into("<I", c, 0x40 + 0x0c, SPEED[msp] | mw << 4)
        struct.pack_into("<H", c, 0x40 + 0x12, SPEED[sp] | w << 4)
    # extended list: AER at 0x100, then ACS, ATS, PRI and PASID (each only
    # if declared)
    chain = [(0x100, 0x0001, b"")]
    if acs:
        chain.append((0x148, 0x000d, struct.pack("<HH", acs[0], acs[1])))
    if ats is not None:
        ctl = 0 if ats == "disabled" else 0x8000 | ats
        chain.append((0x160, 0x000f, struct.pack("<HH", 0x0020, ctl)))
    if addr in PRI_PASID:
        pri, (width, pasid) = PRI_PASID[addr]
        # Page Request Control at +4; PASID Capability at +4, Control at +6
        chain.append((0x170, 0x0013, struct.pack("<HH", int(pri), 0)))
        chain.append((0x180, 0x001b, struct.pack("<HH", width << 8,
                                                 int(pasid))))
    for i, (pos, cid, body) in enumerate(chain):
        nxt = chain[i + 1][0] if i + 1 < len(chain) else 0
        struct.pack_into("<I", c, pos, cid | 1 << 16 | nxt << 20)
        c[pos + 4:pos + 4 + len(body)] = body
    return c


def values(f):
    (addr, path, ven, dev, cls, role, _, acs, ats, link, numa, iommu, p2p) = f
    parent = path.split("/")[-1]
    v = {
        "role": role,
        "parent": parent if not parent.startswith("pci") else "none",
        "host_bridge": path.split("/")[0][3:],
        "numa_node": str(numa),
        "vendor": "0x%04x" % ven, "device": "0x%04x" % dev,
        "class": "0x%06x" % cls,
        "acs_cap": "0x%04x" % acs[0] if acs else "none",
        "acs_ctrl": "0x%04x" % acs[1] if acs else "none",
        "acs": " ".join(w + ("+" if acs[1] >> i & 1 else "-")
                        for i, w in enumerate(ACS_WORDS)) if acs else "none",
        "ats": "none" if ats is None else "disabled" if ats == "disabled"
        else "enabled stu=%d" % ats,
        "pri": "none", "pasid": "none",
        "link_speed": link[0] if link else "none",
        "link_width": str(link[1]) if link else "none",
        "link_max_speed": link[2] if link else "none",
        "link_max_width": str(link[3]) if link else "none",
        "iommu_group": str(iommu[0]) if iommu else "none",
        # the module leaves the type to the group's type file
        "iommu_domain": "unknown" if iommu else "none",
        "p2p_endpoint": str(p2p),
        "physfn": "none",
    }
    if addr in PRI_PASID:
        pri, (width, pasid) = PRI_PASID[addr]
        v["pri"] = "enabled" if pri else "disabled"
        v["pasid"] = "%s width=%d" % ("enabled" if pasid else "disabled",
                                      width)
    return v


FIELDS = ["role", "parent", "host_bridge", "numa_node", "vendor", "device",
          "class", "acs_cap", "acs_ctrl", "acs", "ats", "pri", "pasid",
          "link_speed",
          "link_width", "link_max_speed", "link_max_width", "iommu_group",
          "iommu_domain", "p2p_endpoint", "physfn"]


ABI = 2


def grouped_pairs(gen, pairs, mutation):
    """The pairs file without its trailer: every endpoint a group of its
    own (a module groups alike endpoints; one per group is as valid)."""
    ends = sorted({w[2:] for p in pairs for w in p.split()[:2]})
    group = {a: i for i, a in enumerate(ends)}
    lines = ["# p2pdiag abi=%d generation=%d pairs=%d view=grouped groups=%d "
             "group_pairs=%d status=complete" % (ABI, gen, len(pairs),
                                                 len(ends), len(pairs))]
    lines += ["group=%d members=1 addr=%s" % (group[a], a) for a in ends]
    for p in pairs:
        a, b = (w[2:] for w in p.split()[:2])
        if mutation == "group-differs" and p == pairs[-1]:
            p = p.replace("verdict=blocked", "verdict=host")
        lines.append("group_a=%d group_b=%d pairs=1 %s" % (group[a], group[b], p))
    return "\n".join(lines) + "\n"


def trailer(gen, nbytes):
    """The last line of topology and pairs (include/uapi/p2pdiag/ABI.txt)."""
    return "# p2pdiag end generation=%d bytes=%d\n" % (gen, nbytes)


def write(path, text, mode=0o444):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    # An IOMMU group's type is written once per member; a file left 0444
    # is writable again only for root, so make it ours first.
    if os.path.exists(path):
        os.chmod(path, 0o644)
    with open(path, "wb" if isinstance(text, (bytes, bytearray)) else "w") as f:
        f.write(text)
    os.chmod(path, mode)


def main():
    root, mutation = sys.argv[1], (sys.argv[2] if len(sys.argv) > 2 else "")
    sysd = os.path.join(root, "sys")
    p2pd = os.path.join(sysd, "kernel/p2pdiag")
    funcs = list(FUNCS)
    vals = {f[0]: values(f) for f in funcs}
    pairs = [pair_line(p) for p in PAIRS]
    topo_expect = [
        "expect pair 0000:03:00.0 0000:04:00.0 class=PIX verdict=redirected map=thru_host_bridge blockers=0000:02:00.0:*",
        "expect pair 0000:80:00.0 0000:03:00.0 class=NODE verdict=blocked",
        "expect pair 0000:00:02.0 0000:80:00.0 class=NODE verdict=blocked blockers=*host",
    ]
    gen = 7
    topo_vals = {a: dict(v) for a, v in vals.items()}

    # what the module publishes goes wrong here; config space stays right
    if mutation == "wrong-role":
        vals["0000:02:00.0"]["role"] = "upstream_port"
    elif mutation == "wrong-acs-ctrl":
        vals["0000:00:1c.0"]["acs_ctrl"] = "0x001c"
    elif mutation == "wrong-parent":
        vals["0000:04:00.0"]["parent"] = "0000:02:00.0"
    elif mutation == "wrong-iommu-domain":
        vals["0000:04:00.0"]["iommu_domain"] = "translated"
    elif mutation == "wrong-link":
        vals["0000:01:00.0"]["link_speed"] = "16.0"
    elif mutation == "wrong-ats":
        vals["0000:03:00.0"]["ats"] = "disabled"
    elif mutation == "wrong-pasid":
        vals["0000:03:00.0"]["pasid"] = "disabled width=20"
    elif mutation == "no-newline":
        pass
    elif mutation == "topology-value":
        topo_vals["0000:02:00.0"]["acs_ctrl"] = "0x0000"
    elif mutation == "topology-order":
        pass
    elif mutation == "missing-pair":
        del pairs[1]
    elif mutation == "bad-class-word":
        pairs[0] = pairs[0].replace("class=PHB", "class=HOST")
    elif mutation == "expect-mismatch":
        topo_expect[0] = topo_expect[0].replace("verdict=redirected", "verdict=ok")
    elif mutation == "extra-device":
        vals["0000:09:00.0"] = dict(vals["0000:04:00.0"])
    elif mutation == "swapped-pair":
        pairs[3] = pairs[3].replace("a=0000:03:00.0 b=0000:04:00.0",
                                    "a=0000:04:00.0 b=0000:03:00.0")
    elif mutation == "p2p-endpoint":
        vals["0000:00:1c.0"]["p2p_endpoint"] = "1"
    elif mutation in ("spliced-topology", "no-trailer", "group-differs"):
        pass    # the files' last lines and the grouped file, below
    elif mutation:
        sys.exit("unknown mutation " + mutation)

    for f in funcs:
        addr, path = f[0], f[1]
        ddir = os.path.join(sysd, "devices", path, addr)
        write(os.path.join(ddir, "config"), config_space(f), 0o644)
        write(os.path.join(ddir, "numa_node"), "%d\n" % f[10])
        if f[11]:
            gdir = os.path.join(sysd, "kernel/iommu_groups", str(f[11][0]))
            write(os.path.join(gdir, "type"), f[11][1] + "\n")
            os.symlink(os.path.relpath(gdir, ddir), os.path.join(ddir, "iommu_group"))
        link = os.path.join(sysd, "bus/pci/devices", addr)
        os.makedirs(os.path.dirname(link), exist_ok=True)
        os.symlink(os.path.relpath(ddir, os.path.dirname(link)), link)

    write(os.path.join(p2pd, "abi_version"), "%d\n" % ABI)
    write(os.path.join(p2pd, "generation"), "%d\n" % gen)
    write(os.path.join(p2pd, "rescan"), "", 0o200)
    for addr, v in vals.items():
        for k in FIELDS:
            text = v[k] + ("" if mutation == "no-newline" and k == "class" else "\n")
            write(os.path.join(p2pd, "devices", addr, k), text)
    order = sorted(topo_vals)
    if mutation == "topology-order":
        order[1], order[2] = order[2], order[1]
    lines = ["# p2pdiag abi=%d generation=%d functions=%d cpu=other"
             % (ABI, gen, len(order))]
    for a in order:
        lines.append("addr=" + a + "".join(
            " %s=%s" % (k, topo_vals[a][k].replace(" ", "\\x20")) for k in FIELDS))
    topology = "\n".join(lines) + "\n"
    # A topology spliced from two snapshots: its trailer is the next one's.
    write(os.path.join(p2pd, "topology"), topology + trailer(
        gen + 1 if mutation == "spliced-topology" else gen, len(topology)))
    text = grouped_pairs(gen, pairs, mutation)
    write(os.path.join(p2pd, "pairs"),
          text if mutation == "no-trailer" else text + trailer(gen, len(text)))
    for addr in vals:
        own = [p for p in pairs if " b=%s " % addr in p or p.startswith("a=%s " % addr)]
        text = ("# p2pdiag abi=%d generation=%d endpoint=%s pairs=%d\n"
                % (ABI, gen, addr, len(own)) + "".join(p + "\n" for p in own))
        write(os.path.join(p2pd, "devices", addr, "pairs"),
              text + trailer(gen, len(text)))
    write(os.path.join(root, "lab/topo"),
          "# fake topology for the selftests' own check\nname fake\n"
          + "expect role 0000:02:00.0 downstream_port\n"
          + "".join(e + "\n" for e in topo_expect))


if __name__ == "__main__":
    main()
