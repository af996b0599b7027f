#!/usr/bin/env python3
"""One row per launch of lrc_coalescing.sh's ncu output, and warpsim's counts beside them.

  tools/calibration/lrc_coalescing_summary.py NCU_CSV SPECS_TXT [--warpsim BIN] > OUT.csv

NCU_CSV: gpu_lrc_coalescing.csv (ncu --csv rows, launch IDs in the order of SPECS_TXT).
Columns: the L1s' read miss sectors, the L2 slices' SM read sectors, the sectors the L2
Request Coalescer (LRC) coalesced (lrc__request_sectors_op_read_coalescing_achieved_type_
hardware), their share of the misses; with --warpsim, warpsim's l2_read_transactions and
gpc_merged_sectors for the same spec on the H100 config (the measured binary's registers,
as compare_h100.py).
"""
import argparse
import csv
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
METRICS = {
    'l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum': 'l1_miss_sectors',
    'lts__t_sectors_srcunit_tex_op_read.sum': 'l2_read_sectors',
    'lrc__request_sectors_op_read_coalescing_achieved_type_hardware.sum': 'lrc_coalesced_sectors',
    'lrc__xbar2lrc_requests_op_read.sum': 'lrc_read_requests',
    'gpu__time_duration.sum': 'ns',
}


def warpsim_counts(binary, spec):
    kt = next(r for r in csv.DictReader(open(os.path.join(ROOT, 'docs/measurements/h100_kernel_times.csv')))
              if r['spec'] == spec)
    with tempfile.NamedTemporaryFile(suffix='.json') as f:
        subprocess.run([binary, 'run', spec, '--config', 'h100', '--registers', kt['registers'], '--json', f.name],
                       cwd=ROOT, check=True, capture_output=True)
        m = json.load(open(f.name))['metrics']
    return int(m['l2_read_transactions']), int(m.get('gpc_merged_sectors', 0))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('ncu_csv')
    ap.add_argument('specs')
    ap.add_argument('--warpsim')
    a = ap.parse_args()
    specs = open(a.specs).read().split()
    rows = {}
    for r in csv.reader(open(a.ncu_csv)):
        if len(r) < 15 or not r[0].isdigit() or r[12] not in METRICS:
            continue
        rows.setdefault(int(r[0]), {})[METRICS[r[12]]] = int(float(r[14].replace(',', '')))
    w = csv.writer(sys.stdout, lineterminator='\n')
    head = ['spec'] + list(METRICS.values()) + ['coalesced_share']
    if a.warpsim:
        head += ['warpsim_l2_read_sectors', 'warpsim_gpc_merged_sectors', 'warpsim_over_gpu_l2_reads']
    w.writerow(head)
    for i, spec in enumerate(specs):
        m = rows.get(i)
        if not m:
            continue
        row = [spec] + [m.get(k, '') for k in METRICS.values()]
        row.append(f"{m['lrc_coalesced_sectors'] / m['l1_miss_sectors']:.3f}" if m.get('l1_miss_sectors') else '')
        if a.warpsim:
            reads, merged = warpsim_counts(a.warpsim, spec)
            row += [reads, merged, f"{reads / m['l2_read_sectors']:.3f}"]
        w.writerow(row)


if __name__ == '__main__':
    main()
