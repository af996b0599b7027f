#!/usr/bin/env python3
"""Join what run_h100.sh measured into one CSV row per launch spec.
usage: summarize_h100.py DIR > docs/measurements/h100_kernel_times.csv
DIR holds h100_ncu_raw.csv (ncu --csv), h100_launch_order.csv (the launcher's lines, in
launch order: ncu's IDs count launches in the same order) and h100_events.csv."""
import csv, sys

METRICS = [  # column name, ncu metric
    ('ncu_time_ns', 'gpu__time_duration.sum'), ('sm_cycles_max', 'sm__cycles_elapsed.max'),
    ('sm_hz', 'sm__cycles_elapsed.avg.per_second'), ('dram_read_bytes', 'dram__bytes_read.sum'),
    ('dram_write_bytes', 'dram__bytes_write.sum'),
    ('gld_sectors', 'l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum'),
    ('gst_sectors', 'l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum'),
    ('gld_requests', 'l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum'),
    ('gst_requests', 'l1tex__t_requests_pipe_lsu_mem_global_op_st.sum'),
    ('inst_executed', 'smsp__inst_executed.sum'), ('l1_hit_pct', 'l1tex__t_sector_hit_rate.pct'),
    ('l2_hit_pct', 'lts__t_sector_hit_rate.pct'),
    ('achieved_occupancy_pct', 'sm__warps_active.avg.pct_of_peak_sustained_active'),
    ('theoretical_occupancy_pct', 'sm__maximum_warps_per_active_cycle_pct'),
    ('registers', 'launch__registers_per_thread'),
    ('occ_limit_registers', 'launch__occupancy_limit_registers'),
    ('occ_limit_shared', 'launch__occupancy_limit_shared_mem'),
    ('occ_limit_warps', 'launch__occupancy_limit_warps'), ('occ_limit_blocks', 'launch__occupancy_limit_blocks'),
]

def main(d):
    order = [line.strip().split(',launched') for line in open(f'{d}/h100_launch_order.csv') if ',launched' in line]
    events = {}
    for line in open(f'{d}/h100_events.csv'):
        name, _, us = line.strip().rpartition(',')
        events[name] = us
    values = {}
    for r in csv.reader(open(f'{d}/h100_ncu_raw.csv')):
        if len(r) < 15 or r[0] == 'ID':
            continue
        values.setdefault(int(r[0]), {})[r[-3]] = r[-1].replace(',', '')
    w = csv.writer(sys.stdout, lineterminator='\n')
    w.writerow(['spec', 'event_time_us', 'clock64_cycles'] + [c for c, _ in METRICS])
    for i, (name, rest) in enumerate(order):
        v = values.get(i, {})
        w.writerow([name, events.get(name, ''), rest.lstrip(',')] + [v.get(m, '') for _, m in METRICS])

if __name__ == '__main__':
    main(sys.argv[1])
