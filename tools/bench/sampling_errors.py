#!/usr/bin/env python3
"""The error of sampled timing against full runs already measured: runs
`warpsim run SPEC --sample W --threads 1` for every spec that a sampling table
(tools/bench/sampling.sh's markdown, e.g. docs/measurements/sampling_c2070_2026-11-29.md)
lists as sampled, and compares the cycles with that table's full run. Only the sampled
runs are made, so it takes a fraction of sampling.sh's time; the full runs' cycles are
exact and repeat, as long as the timing model is the table's.
  tools/bench/sampling_errors.py WARPSIM TABLE.md W[,W...] [CONFIG]
Prints each spec's error per setting, then the mean and worst absolute error over the specs
a setting sampled (a grid too small for it is timed in full and left out)."""
import json, os, re, statistics, subprocess, sys, tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def full_runs(table):
    rows = []
    for line in open(table):
        c = [x.strip() for x in line.split('|')]
        if len(c) > 6 and c[1].endswith('.json') and c[5] and 'all timed' not in c[5]:
            rows.append((c[1], int(c[3].replace(',', ''))))
    return rows


def sampled_cycles(warpsim, spec, waves, config):
    with tempfile.NamedTemporaryFile(suffix='.json') as f:
        r = subprocess.run([warpsim, 'run', 'kernels/' + spec, '--config', config, '--sample', str(waves),
                            '--threads', '1', '--json', f.name], cwd=ROOT, capture_output=True, text=True)
        if r.returncode:
            raise SystemExit(f'{spec}: {r.stderr.strip()[-300:]}')
        text = open(f.name).read()
    cycles = int(re.search(r'"elapsed_cycles_sm": *(\d+)', text).group(1))
    sampled = '"timed_blocks"' in text
    return cycles, sampled


def main():
    if len(sys.argv) < 4:
        raise SystemExit(__doc__)
    warpsim, table, waves = os.path.abspath(sys.argv[1]), sys.argv[2], [int(w) for w in sys.argv[3].split(',')]
    config = sys.argv[4] if len(sys.argv) > 4 else 'c2070'
    errors = {w: [] for w in waves}
    for spec, full in full_runs(table):
        cells = []
        for w in waves:
            cycles, sampled = sampled_cycles(warpsim, spec, w, config)
            e = 100.0 * (cycles - full) / full
            if sampled:
                errors[w].append((abs(e), spec))
            cells.append(f'{w} waves {e:+.1f} %' if sampled else f'{w} waves (all timed)')
        print(f'{spec}: ' + ', '.join(cells), flush=True)
    for w in waves:
        if errors[w]:
            worst = max(errors[w])
            print(f'--sample {w}: {len(errors[w])} specs sampled, mean |error| '
                  f'{statistics.mean(e for e, _ in errors[w]):.2f} %, worst {worst[0]:.1f} % ({worst[1]})')


main()
