#!/usr/bin/env python3
"""How often warpsim's block placement matches the GPU's, per grid.

  tools/calibration/block_placement.sh sim OUT
  tools/calibration/block_placement_compare.py OUT [MEASURED_DIR]

For each docs/measurements/h200_block_placement_B_T_S.csv (MEASURED_DIR, by default
docs/measurements) with an OUT/block_placement_sim_B_T_S.csv beside it, prints how many
blocks warpsim put on the GPU's SM and on an SM of the GPU's GPC (configs/h100.json gpcs).
"""
import csv
import glob
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def sms(path):
    return [int(r['sm']) for r in csv.DictReader(open(path))]


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    sim_dir = sys.argv[1]
    measured = sys.argv[2] if len(sys.argv) == 3 else os.path.join(ROOT, 'docs/measurements')
    config = json.load(open(os.path.join(ROOT, 'configs/h100.json')))
    gpc = {s: g for g, members in enumerate(config['gpcs']['sms']) for s in members}
    print('grid,blocks,on_gpu_sm,on_gpu_gpc')
    for gpu_path in sorted(glob.glob(os.path.join(measured, 'h200_block_placement_*_*_*.csv'))):
        grid = os.path.basename(gpu_path)[len('h200_block_placement_'):-len('.csv')]
        sim_path = os.path.join(sim_dir, f'block_placement_sim_{grid}.csv')
        if not os.path.exists(sim_path):
            continue
        gpu, sim = sms(gpu_path), sms(sim_path)
        if len(gpu) != len(sim):
            sys.exit(f'{grid}: {len(gpu)} blocks measured, {len(sim)} simulated')
        same_sm = sum(a == b for a, b in zip(gpu, sim))
        same_gpc = sum(gpc[a] == gpc[b] for a, b in zip(gpu, sim))
        print(f'{grid},{len(gpu)},{same_sm},{same_gpc}')


if __name__ == '__main__':
    main()
