#!/usr/bin/env python3
"""The L1/shared split per launch: carveout.cu on the H100 against warpsim exec --config h100.

    python3 tools/calibration/carveout_table.py DEVICE_DIR SIM_DIR

DEVICE_DIR holds what `carveout.sh device` writes (h100_carveout_*.csv), SIM_DIR what
`carveout.sh sim` writes. Prints markdown:
  1. per preference case: the shared-memory configuration ncu reports and the simulated one,
     the occupancy API's answer on both, and the largest chase footprint that hits the L1;
  2. the driver's own choice over the grid of block sizes x dynamic shared sizes: how many
     launches get the same capacity, and by how much the others differ.
A footprint "hits" when a chase step costs under 100 cycles: an L1 hit is 39 to 48 cycles on
both and an L2 hit 250 or more; on the H100 a footprint equal to the L1's capacity still hits
about four steps in five (about 95 cycles), and warpsim's LRU L1 holds it whole.
"""
import csv
import json
import sys
from collections import OrderedDict, defaultdict

HIT_CYCLES = 100


def ncu_configs(path):
    rows = defaultdict(dict)
    with open(path) as f:
        lines = [l for l in f if l.startswith('"')]
    for r in csv.DictReader(lines):
        rows[int(r["ID"])][r["Metric Name"]] = r["Metric Value"].replace(",", "")
    return [int(rows[i]["launch__shared_mem_config_size"]) for i in sorted(rows)]


def sim_configs(path):
    with open(path) as f:
        return [l["occupancy"]["shared_memory_per_sm"] for l in json.load(f)["launches"]]


def case_lines(path):
    with open(path) as f:
        return [l.strip().split(",") for l in f if l.strip()]


def largest_hit(lines):
    """Per case (the first six fields), the largest footprint in KB that hits."""
    out = OrderedDict()
    for f in lines:
        key = tuple(f[:5])
        out.setdefault(key, 0)
        if float(f[7]) < HIT_CYCLES:
            out[key] = max(out[key], int(f[6]))
    return out


def main():
    dev, sim = sys.argv[1], sys.argv[2]
    d_cases = case_lines(f"{dev}/h100_carveout_ncu_cases.csv")
    d_cfg = ncu_configs(f"{dev}/h100_carveout_ncu.csv")
    s_cases = case_lines(f"{sim}/carveout_sim_one.csv")
    s_cfg = sim_configs(f"{sim}/carveout_sim_one.json")
    d_hit = largest_hit(case_lines(f"{dev}/h100_carveout_chase.csv"))
    s_hit = largest_hit(case_lines(f"{sim}/carveout_sim.csv"))
    print("| case | block | dynamic KB | preference | shared KB (H100 / sim) | occupancy API (H100 / sim) "
          "| largest footprint hitting the L1, KB (H100 / sim) |")
    print("|---|---:|---:|---|---:|---:|---:|")
    same_cfg = same_api = same_hit = 0
    for dc, sc, dk, sk in zip(d_cases, s_cases, d_cfg, s_cfg):
        key = tuple(dc[:5])
        pref = "none" if dc[3] == "none" else f"{dc[3]} {dc[4]}"
        same_cfg += dk == sk
        same_api += dc[5] == sc[5]
        same_hit += d_hit.get(key) == s_hit.get(key)
        mark = lambda a, b: f"{a} / {b}" + ("" if a == b else " **")
        print(f"| {dc[0]} | {dc[1]} | {int(dc[2]) // 1024} | {pref} | {mark(dk // 1024, sk // 1024)} "
              f"| {mark(dc[5], sc[5])} | {mark(d_hit.get(key), s_hit.get(key))} |")
    n = len(d_cases)
    print(f"\nSame shared-memory configuration: {same_cfg} of {n}; same occupancy-API answer: {same_api} of {n}; "
          f"same largest L1-hit footprint: {same_hit} of {n}.\n")

    g_cases = case_lines(f"{dev}/h100_carveout_grid_cases.csv")
    g_dev = ncu_configs(f"{dev}/h100_carveout_grid_ncu.csv")
    g_sim = sim_configs(f"{sim}/carveout_sim_grid.json")
    same = larger = smaller = 0
    diffs = []
    steps = [0, 8, 16, 32, 64, 100, 132, 164, 196, 228]
    for c, dk, sk in zip(g_cases, g_dev, g_sim):
        dk //= 1024
        sk //= 1024
        if dk == sk:
            same += 1
        elif dk > sk:
            larger += 1
            diffs.append(steps.index(dk) - steps.index(sk))
        else:
            smaller += 1
            diffs.append(steps.index(sk) - steps.index(dk))
    print(f"Driver's choice without a preference, {len(g_cases)} launches (block 32..1024 x dynamic 0..48 KB): "
          f"same capacity {same}, the driver's larger {larger}, smaller {smaller}; "
          f"the differing ones by {sum(diffs) / max(1, len(diffs)):.1f} steps of the capacity list on average, "
          f"at most {max(diffs, default=0)}.")
    api_same = sum(a[5] == b[5] for a, b in zip(g_cases, case_lines(f"{sim}/carveout_sim_grid.csv")))
    print(f"Occupancy API on the same grid: same answer {api_same} of {len(g_cases)}.")


if __name__ == "__main__":
    main()
