#!/usr/bin/env python3
"""One row per launch from an ncu --csv run of spec_launch: the launch's name (the
"NAME,launched" line spec_launch prints before each launch, with or without the time it
appends) and the named metrics' values, in launch order.
  ncu_launches.py NCU_CSV [--header TEXT] METRIC...
Used by h100_rates.sh and h100_l1_sets.sh."""
import csv, sys

def main(argv):
    if len(argv) < 3:
        sys.exit(__doc__)
    path, rest = argv[1], argv[2:]
    header = None
    if rest[0] == '--header':
        header, rest = rest[1], rest[2:]
    lines = open(path).read().splitlines()
    order = [l.split(',launched')[0] for l in lines if ',launched' in l and not l.startswith('"')]
    start = next(i for i, l in enumerate(lines) if l.startswith('"ID"'))
    by = {}
    for r in csv.DictReader(lines[start:]):
        by.setdefault(int(r['ID']), {})[r['Metric Name']] = r['Metric Value'].replace(',', '')
    if header:
        print(header)
    for i, name in enumerate(order):
        m = by.get(i, {})
        print(','.join([name] + [str(m.get(x)) for x in rest]))

main(sys.argv)
