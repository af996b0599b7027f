#!/usr/bin/env python3
"""One row per launch of l2_merge_scope.sh's ncu runs, and the GPCs they show.

  tools/calibration/l2_merge_scope_summary.py DIR OUT.csv

DIR holds gpu_l2_merge_scope_NAME.csv (ncu --csv rows) and gpu_l2_merge_scope_NAME_launches.csv
(the program's own rows: launch, mode, sm_a, sm_b, delay_ns, status) for each run NAME.
OUT.csv gets run, mode, sm_a, sm_b, delay_ns, status and every metric ncu gave, with
l2_reads_per_l1_miss (the L2's SM read sectors over the sectors the L1s received). It
then prints, from the runs with no delay, each SM_A's group: the SMs whose pairing with it
made the L2 count fewer than 0.75 reads per sector the L1s received (two SMs reading the
same data in step and merged give 0.5, two that are not give 1.0).
"""
import csv
import glob
import os
import sys

METRICS = [
    "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum",
    "l1tex__m_xbar2l1tex_read_sectors.sum",
    "lts__t_sectors_srcunit_tex_op_read.sum",
    "lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum",
    "lts__t_requests_srcunit_tex_op_read.sum",
    "gpu__time_duration.sum",
]


def ncu_rows(path):
    """{launch id: {metric: value}} from ncu's --csv output."""
    with open(path, newline="") as f:
        rows = [r for r in csv.reader(f) if r and r[0] != "ID"]
    out = {}
    with open(path, newline="") as f:
        header = next(csv.reader(f))
    col = {h: i for i, h in enumerate(header)}
    for r in rows:
        if len(r) < len(header):
            continue
        value = r[col["Metric Value"]].replace(",", "")
        out.setdefault(int(r[col["ID"]]), {})[r[col["Metric Name"]]] = float(value)
    return out


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    src, dst = sys.argv[1], sys.argv[2]
    table = []
    for launches in sorted(glob.glob(os.path.join(src, "gpu_l2_merge_scope_*_launches.csv"))):
        name = os.path.basename(launches)[len("gpu_l2_merge_scope_"):-len("_launches.csv")]
        counts = ncu_rows(os.path.join(src, f"gpu_l2_merge_scope_{name}.csv"))
        with open(launches, newline="") as f:
            for row in csv.DictReader(f):
                m = counts.get(int(row["launch"]))
                if m is None:
                    sys.exit(f"{name}: launch {row['launch']} has no ncu row")
                rec = {"run": name, "mode": row["mode"], "sm_a": int(row["sm_a"]), "sm_b": int(row["sm_b"]),
                       "delay_ns": int(row.get("delay_ns", 0)), "status": row["status"]}
                for k in METRICS:
                    rec[k] = int(m[k]) if k in m else ""
                received = m.get("l1tex__m_xbar2l1tex_read_sectors.sum", 0)
                reads = m.get("lts__t_sectors_srcunit_tex_op_read.sum", 0)
                rec["l2_reads_per_l1_miss"] = f"{reads / received:.3f}" if received else ""
                table.append(rec)
    if not table:
        sys.exit(f"no runs in {src}")
    with open(dst, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(table[0].keys()))
        w.writeheader()
        w.writerows(table)
    groups = {}
    for rec in table:
        if rec["mode"] != "stream" or rec["delay_ns"] != 0 or not rec["l2_reads_per_l1_miss"]:
            continue
        g = groups.setdefault(rec["sm_a"], [rec["sm_a"]])
        if rec["sm_b"] != rec["sm_a"] and float(rec["l2_reads_per_l1_miss"]) < 0.75:
            g.append(rec["sm_b"])
    for a, g in sorted(groups.items()):
        print(f"SM {a}: {len(g)} SMs merge: {sorted(g)}")


if __name__ == "__main__":
    main()
