# SPDX-License-Identifier: GPL-2.0
"""Pinned host <-> device copy bandwidth the way a PyTorch user measures it:
tensor.copy_(non_blocking=True) between a pinned host tensor and a device
tensor, timed with CUDA events, median of several samples.

Prints one line per figure: "torch.h2d=<GB/s>" and "torch.d2h=<GB/s>"
(1 GB = 1e9 bytes), so run-bench.sh can read it like p2pdiag's output.
"""
import argparse
import statistics
import sys

import torch


def measure(dst, src, copies, samples):
    stream = torch.cuda.Stream()
    values = []
    with torch.cuda.stream(stream):
        for _ in range(4):                      # warm-up
            dst.copy_(src, non_blocking=True)
        stream.synchronize()
        for _ in range(samples):
            start = torch.cuda.Event(enable_timing=True)
            end = torch.cuda.Event(enable_timing=True)
            start.record(stream)
            for _ in range(copies):
                dst.copy_(src, non_blocking=True)
            end.record(stream)
            end.synchronize()
            seconds = start.elapsed_time(end) / 1e3
            values.append(src.numel() * src.element_size() * copies / seconds / 1e9)
    return statistics.median(values), min(values), max(values)


def measure_split(dst, src, copies, samples, nstreams=2):
    """The same copy split over several streams (copy engines): if this is
    faster than one stream, one engine, not the link, was the limit."""
    streams = [torch.cuda.Stream() for _ in range(nstreams)]
    n = src.numel() // nstreams
    parts = [(dst[i * n:(i + 1) * n], src[i * n:(i + 1) * n]) for i in range(nstreams)]
    main = torch.cuda.current_stream()
    values = []
    for sample in range(samples + 1):             # the first is a warm-up
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        start.record(main)
        for s, (d, c) in zip(streams, parts):
            s.wait_event(start)
            with torch.cuda.stream(s):
                for _ in range(copies):
                    d.copy_(c, non_blocking=True)
        for s in streams:
            main.wait_stream(s)
        end.record(main)
        end.synchronize()
        if sample:
            seconds = start.elapsed_time(end) / 1e3
            values.append(n * nstreams * src.element_size() * copies / seconds / 1e9)
    return statistics.median(values), min(values), max(values)


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--size", type=int, default=256 << 20, help="bytes per copy")
    ap.add_argument("--copies", type=int, default=8)
    ap.add_argument("--samples", type=int, default=5)
    args = ap.parse_args()
    if not torch.cuda.is_available():
        print("torch: no CUDA device", file=sys.stderr)
        return 1
    n = args.size // 4
    host = torch.empty(n, dtype=torch.float32, pin_memory=True)
    host.copy_(torch.arange(n, dtype=torch.float32))
    dev = torch.empty(n, dtype=torch.float32, device="cuda")
    for name, dst, src in (("h2d", dev, host), ("d2h", host, dev)):
        med, lo, hi = measure(dst, src, args.copies, args.samples)
        print(f"torch.{name}={med:.3f} min={lo:.3f} max={hi:.3f}")
    med, lo, hi = measure_split(dev, host, args.copies, args.samples)
    print(f"torch.h2d_2streams={med:.3f} min={lo:.3f} max={hi:.3f}")
    back = torch.empty_like(host, pin_memory=True)
    back.copy_(dev)
    if not torch.equal(back, host):
        print("torch: copied data differs", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
