#!/usr/bin/env python3
"""Functional against timed cache hit rates over the launch specs of one config.

  RUN_ARGS=--functional tools/compare_reports.sh OLD NEW FDIR h100   # functional reports
  tools/compare_hit_rates.py FDIR TDIR h100                          # TDIR: timed reports
TDIR holds `warpsim run SPEC --config h100 --json TDIR/<spec path with / as _>.h100.timing.json`.
Prints, per hit rate, on how many specs the old and new functional figure is within 5 points
of the timed one (docs/memory-hierarchy.md, functional mode), then the specs outside.
"""
import glob, json, os, sys

fdir, tdir, cfg = sys.argv[1:4]
keys = ['l1_hit_rate', 'l1_sector_hit_rate', 'l2_hit_rate', 'l2_read_hit_rate']
count = {k: [0, 0, 0] for k in keys}
rows = []
for t in sorted(glob.glob(f'{tdir}/*.{cfg}.timing.json')):
    n = os.path.basename(t)[:-len(f'.{cfg}.timing.json')]
    o, w = f'{fdir}/{n}.{cfg}.old.json', f'{fdir}/{n}.{cfg}.new.json'
    if not (os.path.exists(o) and os.path.exists(w)):
        continue
    T, O, W = (json.load(open(f))['metrics'] for f in (t, o, w))
    row = []
    for k in keys:
        if T.get(k) is None:
            continue
        count[k][2] += 1
        count[k][0] += abs((O.get(k) or 0) - T[k]) <= 5
        count[k][1] += abs((W.get(k) or 0) - T[k]) <= 5
        row.append((k, round(O.get(k) or 0, 1), round(W.get(k) or 0, 1), round(T[k], 1)))
    rows.append((n, row))
for k in keys:
    print(f'{k}: within 5 points of timed: old {count[k][0]}, new {count[k][1]} of {count[k][2]}')
for n, row in rows:
    off = [r for r in row if abs(r[2] - r[3]) > 5]
    if off:
        print(n, off)
