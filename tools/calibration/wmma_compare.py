#!/usr/bin/env python3
"""Counts of the wmma test program's launches: the H100 under ncu against warpsim.

  python3 tools/calibration/wmma_compare.py docs/measurements/h100_wmma_gemm_ncu.csv WARPSIM_JSON

WARPSIM_JSON is `warpsim exec --config h100 --json FILE -- ./wmma_gemm` (the program built
with nvcc -arch=sm_90 -cudart shared). Prints per launch the global load/store requests and
sectors, the shared load/store wavefronts, the SM cycles and the time, measured / simulated,
and how many launches agree exactly on each count.
"""
import csv
import json
import sys
from collections import defaultdict

PAIRS = [  # (ncu metric, warpsim metric, short name)
    ("l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", "gld_requests", "ld req"),
    ("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", "gld_transactions", "ld sect"),
    ("l1tex__t_requests_pipe_lsu_mem_global_op_st.sum", "gst_requests", "st req"),
    ("l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", "gst_transactions", "st sect"),
    ("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", "shared_load_transactions", "sh ld wf"),
    ("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum", "shared_store_transactions", "sh st wf"),
]


def number(s):
    return float(s.replace(",", ""))


def main():
    ncu = defaultdict(dict)
    names = {}
    for r in csv.DictReader(open(sys.argv[1])):
        i = int(r["ID"])
        ncu[i][r["Metric Name"]] = number(r["Metric Value"])
        names[i] = r["Kernel Name"]
    sim = json.load(open(sys.argv[2]))["launches"]
    if len(sim) != len(ncu):
        sys.exit(f"{len(ncu)} launches under ncu, {len(sim)} in {sys.argv[2]}")
    agree = defaultdict(int)
    head = "| # | kernel | " + " | ".join(p[2] for p in PAIRS) + " | cycles | time us |"
    print(head)
    print("|" + "---|" * (head.count("|") - 1))
    for i, s in enumerate(sim):
        m = s["metrics"]
        cells = []
        for n, w, short in PAIRS:
            a, b = ncu[i].get(n, 0), m.get(w, 0)
            agree[short] += a == b
            cells.append(f"{a:.0f}" if a == b else f"{a:.0f} / {b:.0f}")
        cyc = f"{ncu[i]['sm__cycles_elapsed.max']:.0f} / {m['elapsed_cycles_sm']:.0f}"
        t = f"{ncu[i]['gpu__time_duration.sum'] / 1000:.2f} / {m['duration_ns'] / 1000:.2f}"
        kernel = names[i].split("(")[0].replace("void ", "")
        print(f"| {i} | {kernel} | " + " | ".join(cells) + f" | {cyc} | {t} |")
    print()
    print("launches whose count equals ncu's: " + ", ".join(f"{k} {v}/{len(sim)}" for k, v in agree.items()))


if __name__ == "__main__":
    main()
