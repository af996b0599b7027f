#!/usr/bin/env python3
"""dram_inflight.cu on the H100 (ncu, caches flushed) against warpsim exec --config h100.

    python3 tools/calibration/dram_inflight_table.py DEVICE_DIR SIM_DIR [SIM_DIR2 ...]

DEVICE_DIR holds h100_dram_inflight_ncu.csv, each SIM_DIR dram_inflight_sim.json (as
dram_inflight.sh writes them; several SIM_DIRs compare settings). Prints markdown: per
kernel kind, accesses in flight per thread (K) and blocks per SM, the kernel time measured
and simulated, and the error; then the mean absolute error per kind.
"""
import csv
import json
import sys
from collections import defaultdict

KINDS = ["read", "write", "copy"]
KS = [1, 2, 4, 8]
OCCS = [1, 2, 4, 8]


def ncu_times(path):
    rows = defaultdict(dict)
    with open(path) as f:
        for r in csv.DictReader(l for l in f if l.startswith('"')):
            rows[int(r["ID"])][r["Metric Name"]] = float(r["Metric Value"].replace(",", ""))
    return [rows[i]["gpu__time_duration.sum"] / 1000.0 for i in sorted(rows)]


def sim_times(path):
    with open(path) as f:
        return [l["metrics"]["duration_ns"]["value"] / 1000.0 if isinstance(l["metrics"]["duration_ns"], dict)
                else l["metrics"]["duration_ns"] / 1000.0 for l in json.load(f)["launches"]]


def main():
    dev = ncu_times(f"{sys.argv[1]}/h100_dram_inflight_ncu.csv")
    sims = [sim_times(f"{d}/dram_inflight_sim.json") for d in sys.argv[2:]]
    keys = [(k, K, o) for k in KINDS for K in KS for o in OCCS]
    head = "| kind | K | blocks/SM | H100 us | " + " | ".join(f"sim{i} us | err{i}" for i in range(len(sims))) + " |"
    print(head)
    print("|---|---:|---:|---:|" + "---:|---:|" * len(sims))
    errs = [defaultdict(list) for _ in sims]
    for i, (kind, K, o) in enumerate(keys):
        cells = []
        for j, s in enumerate(sims):
            e = 100.0 * (s[i] - dev[i]) / dev[i]
            errs[j][kind].append(abs(e))
            errs[j]["all"].append(abs(e))
            cells.append(f"{s[i]:.1f} | {e:+.1f} %")
        print(f"| {kind} | {K} | {o} | {dev[i]:.1f} | " + " | ".join(cells) + " |")
    print()
    for j, e in enumerate(errs):
        print(f"sim{j} ({sys.argv[2 + j]}): mean |error| " +
              ", ".join(f"{k} {sum(v) / len(v):.1f} %" for k, v in e.items()))


if __name__ == "__main__":
    main()
