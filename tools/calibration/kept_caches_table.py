#!/usr/bin/env python3
"""Table of kept_caches.cu on the H100 against warpsim exec --config h100, launch by launch.

    python3 tools/calibration/kept_caches_table.py DEVICE_DIR SIM_DIR

DEVICE_DIR holds h100_kept_caches_ncu.csv and h100_kept_caches_events.csv, SIM_DIR kept_caches_sim.json,
as tools/calibration/kept_caches.sh writes them. ncu's launches and the simulated ones are
the program's launches in order (the 256 MiB sweep before each size included). Prints
markdown: per launch the L2 hit rate, DRAM bytes read and written, and the kernel time.
"""
import csv
import json
import statistics
import sys
from collections import defaultdict


def ncu_launches(path):
    rows = defaultdict(dict)
    names = {}
    with open(path) as f:
        lines = [l for l in f if l.startswith('"')]
    for r in csv.DictReader(lines):
        i = int(r["ID"])
        names[i] = r["Kernel Name"].split("(")[0]
        rows[i][r["Metric Name"]] = float(r["Metric Value"].replace(",", ""))
    return [(names[i], rows[i]) for i in sorted(rows)]


def event_medians(path):
    times = defaultdict(list)
    with open(path) as f:
        for line in f:
            run, kernel, mib, idx, us = line.strip().split(",")
            times[(kernel, int(mib), int(idx))].append(float(us))
    return {k: statistics.median(v) for k, v in times.items()}


def main():
    dev, sim = sys.argv[1], sys.argv[2]
    hw = ncu_launches(f"{dev}/h100_kept_caches_ncu.csv")
    events = event_medians(f"{dev}/h100_kept_caches_events.csv")
    sl = json.load(open(f"{sim}/kept_caches_sim.json"))["launches"]
    if len(hw) != len(sl):
        sys.exit(f"ncu has {len(hw)} launches, the simulation {len(sl)}")
    sizes = []
    with open(f"{sim}/kept_caches_sim.csv") as f:
        for line in f:
            kernel, mib, idx, _ = line.strip().split(",")
            if int(mib) not in sizes:
                sizes.append(int(mib))
    print("| launch | MiB | L2 hit % (H100, ncu) | L2 hit % (warpsim) | DRAM read MB (H100 / warpsim) "
          "| DRAM write MB (H100 / warpsim) | time us (H100 ncu / warpsim) | event us (H100, median of 3) |")
    print("|---|---|---|---|---|---|---|---|")
    per_size = len(hw) // len(sizes)
    abs_err = []
    for n, ((name, m), s) in enumerate(zip(hw, sl)):
        size = sizes[n // per_size]
        k = n % per_size
        sm = s["metrics"]
        if k == 0:
            label = "256 MiB sweep"
        else:
            kernel = "read_sum" if k <= 4 else "scale"
            label = f"{kernel} #{(k - 1) % 4}"
        ev = events.get((label.split(" ")[0], size, (k - 1) % 4)) if k else None
        hw_hit = m.get("lts__t_sector_hit_rate.pct", float("nan"))
        if k:
            abs_err.append(abs(hw_hit - sm["l2_hit_rate"]))
        print(f"| {label} | {size} | {hw_hit:.1f} | {sm['l2_hit_rate']:.1f} "
              f"| {m.get('dram__bytes_read.sum', 0) / 1e6:.1f} / {sm['dram_read_bytes'] / 1e6:.1f} "
              f"| {m.get('dram__bytes_write.sum', 0) / 1e6:.1f} / {sm['dram_write_bytes'] / 1e6:.1f} "
              f"| {m.get('gpu__time_duration.sum', 0) / 1e3:.2f} / {sm['duration_ns'] / 1e3:.2f} "
              f"| {'' if ev is None else f'{ev:.2f}'} |")
    print(f"\nL2 hit rate, mean absolute difference over the {len(abs_err)} measured launches: "
          f"{statistics.mean(abs_err):.1f} points, largest {max(abs_err):.1f}.")


if __name__ == "__main__":
    main()
