#!/usr/bin/env python3
"""Simulated against measured kernel times on the H100: runs `warpsim run SPEC --config h100`
for every row of docs/measurements/h100_kernel_times.csv (measured by run_h100.sh, joined by
summarize_h100.py), with the registers per thread the measured sm_90 binary used and prints per kernel the measured ncu duration, the simulated one, the
error, then MAPE, the worst error and Spearman's rank correlation; and whether the global
load/store requests and sectors warpsim counts equal ncu's for the same launch, and how far its L1
global-load and L2 read hit rates are from ncu's (h100_hit_rates.csv, h100_hit_rates.sh),
whether the read sectors its L2 counts are within 10 % of ncu's (after the GPCs' merging), and
whether its DRAM read bytes are within 10 % of ncu's.
  tools/calibration/compare_h100.py [--warpsim build/tools/warpsim] [--csv OUT] [--markdown OUT] [--min-us X] [-j N]
                                    [--epoch N]
--min-us drops kernels whose measured time is under X us from the summary (all are listed).
--markdown writes the tables of docs/calibration.md ("Kernel times"): the summary over all
launches and over those of 10 us and more, then one row per launch."""
import argparse, csv, json, os, subprocess, sys, tempfile
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

def simulate(warpsim, spec, extra, registers):
    path, _, sets = spec.partition(':')
    args = [warpsim, 'run', path, '--config', 'h100'] + extra
    if registers:
        args += ['--registers', registers]
    for s in filter(None, sets.split(',')):
        args += ['--var', s]
    with tempfile.NamedTemporaryFile(suffix='.json') as f:
        r = subprocess.run(args + ['--json', f.name], cwd=ROOT, capture_output=True, text=True)
        if r.returncode != 0:
            return None, r.stderr.strip().splitlines()[-1:] or ['failed']
        m = json.load(open(f.name))['metrics']
        return m, None

def ranks(xs):
    order = sorted(range(len(xs)), key=lambda i: xs[i])
    r = [0.0] * len(xs)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and xs[order[j + 1]] == xs[order[i]]:
            j += 1
        for k in range(i, j + 1):
            r[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return r

def spearman(a, b):
    ra, rb = ranks(a), ranks(b)
    n = len(a)
    ma, mb = sum(ra) / n, sum(rb) / n
    cov = sum((x - ma) * (y - mb) for x, y in zip(ra, rb))
    va = sum((x - ma) ** 2 for x in ra) ** 0.5
    vb = sum((y - mb) ** 2 for y in rb) ** 0.5
    return cov / (va * vb)

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--warpsim', default=os.path.join(ROOT, 'build/tools/warpsim'))
    ap.add_argument('--measured', default=os.path.join(ROOT, 'docs/measurements/h100_kernel_times.csv'))
    ap.add_argument('--csv')
    ap.add_argument('--markdown')
    ap.add_argument('--hit-rates', default=os.path.join(ROOT, 'docs/measurements/h100_hit_rates.csv'))
    ap.add_argument('--min-us', type=float, default=0.0)
    ap.add_argument('-j', type=int, default=2)
    ap.add_argument('--set', action='append', default=[], help='config override passed to warpsim')
    ap.add_argument('--epoch', type=int, default=1,
                    help='warpsim run --epoch: SMs and memory exchange requests every N cycles (default 1)')
    ap.add_argument('--spec-registers', action='store_true',
                    help="simulate with the spec's register count (ptxas for sm_75) instead of the one the "
                         "H100's binary used (ncu's launch__registers_per_thread)")
    a = ap.parse_args()
    rows = list(csv.DictReader(open(a.measured)))
    extra = [x for s in a.set for x in ('--set', s)]
    if a.epoch > 1:
        extra += ['--epoch', str(a.epoch)]
    with ThreadPoolExecutor(a.j) as ex:
        # The same launch as on the GPU: the registers per thread ptxas gave the sm_90 binary
        # that was measured (they set the occupancy), unless --spec-registers.
        sims = list(ex.map(lambda r: simulate(a.warpsim, r['spec'], extra,
                                              None if a.spec_registers else r.get('registers') or None), rows))
    out = []
    print(f"{'spec':58} {'measured_us':>11} {'simulated_us':>12} {'error':>8}")
    for r, (m, err) in zip(rows, sims):
        meas = float(r['ncu_time_ns']) / 1000
        if m is None:
            print(f"{r['spec']:58} {meas:11.3f} {'failed':>12}  {err[0]}")
            continue
        sim = m['duration_ns'] / 1000
        e = (sim - meas) / meas
        out.append((r['spec'], meas, sim, e))
        print(f"{r['spec']:58} {meas:11.3f} {sim:12.3f} {100 * e:7.1f}%")
    # Counts: warpsim metric -> ncu column of h100_kernel_times.csv, equal or not.
    count_pairs = [('gld_requests', 'gld_requests'), ('gst_requests', 'gst_requests'),
                   ('gld_transactions', 'gld_sectors'), ('gst_transactions', 'gst_sectors')]
    by_spec = {r['spec']: r for r in rows}
    equal, differ = tally(rows, sims, by_spec, count_pairs, lambda ours, theirs: int(ours) == int(theirs),
                          lambda ours, theirs: f"{int(ours)} vs ncu {int(theirs)}")
    print(f"\ncounts: {equal} of {equal + len(differ)} equal to ncu's")
    for d in differ:
        print('  differs:', d)
    # Hit rates (percent), where ncu's and warpsim's count the same thing (h100_hit_rates.csv,
    # summarize_hit_rates.py): global-load sectors in the L1, the SMs' read sectors in the L2.
    rates = {}
    if os.path.exists(a.hit_rates):
        rates = {r['spec']: r for r in csv.DictReader(open(a.hit_rates))}
    rate_pairs = [('l1_sector_hit_rate', 'l1_ld_hit_pct'), ('l2_read_hit_rate', 'l2_read_hit_pct')]
    near, far = tally(rows, sims, rates, rate_pairs, lambda ours, theirs: abs(ours - theirs) <= 5.0,
                      lambda ours, theirs: f"{ours:.1f} vs ncu {theirs:.1f}")
    print(f"\nhit rates: {near} of {near + len(far)} within 5 points of ncu's")
    for d in far:
        print('  differs:', d)
    # The SMs' read sectors the L2 counted (h100_hit_rates.csv's l2_read_sectors, ncu
    # lts__t_sectors_srcunit_tex_op_read): what reaches the L2 after the GPCs merge requests
    # in flight (configs/h100.json gpcs), so timing-dependent: within 10 %.
    l2_pairs = [('l2_read_transactions', 'l2_read_sectors')]
    l2_close, l2_off = tally(rows, sims, rates, l2_pairs,
                             lambda ours, theirs: abs(ours - theirs) <= 0.10 * theirs,
                             lambda ours, theirs: f"{int(ours)} vs ncu {int(theirs)} ({100 * (ours - theirs) / max(theirs, 1):+.1f} %)")
    print(f"\nL2 read sectors: {l2_close} of {l2_close + len(l2_off)} within 10 % of ncu's")
    for d in l2_off:
        print('  differs:', d)
    # DRAM read bytes (ncu dram__bytes_read, caches flushed before the launch as warpsim's are
    # cold): within 10 %, or 4 KB for launches that read almost nothing.
    dram_pairs = [('dram_read_bytes', 'dram_read_bytes')]
    close, off = tally(rows, sims, by_spec, dram_pairs,
                       lambda ours, theirs: abs(ours - theirs) <= max(0.10 * theirs, 4096),
                       lambda ours, theirs: f"{int(ours)} vs ncu {int(theirs)} ({100 * (ours - theirs) / max(theirs, 1):+.1f} %)")
    print(f"\nDRAM read bytes: {close} of {close + len(off)} within 10 % (or 4 KB) of ncu's")
    for d in off:
        print('  differs:', d)
    if a.csv:
        with open(a.csv, 'w') as f:
            w = csv.writer(f, lineterminator='\n')
            w.writerow(['spec', 'measured_us', 'simulated_us', 'error_pct'])
            for s, m_, s_, e in out:
                w.writerow([s, f'{m_:.3f}', f'{s_:.3f}', f'{100 * e:.1f}'])
    if a.markdown:
        write_markdown(a.markdown, out)
    sel = [x for x in out if x[1] >= a.min_us]
    if not sel:
        return 1
    mape, worst, rho = summary(sel)
    print(f"\n{len(sel)} kernels (measured >= {a.min_us} us) of {len(rows)}: MAPE {mape:.1f}%, "
          f"worst {100 * worst[3]:+.1f}% ({worst[0]}), Spearman {rho:.3f}")
    return 0 if len(out) == len(rows) else 1

def tally(rows, sims, measured, pairs, agree, show):
    """Over the launches simulated and measured (`measured`: spec -> CSV row), each (warpsim
    metric, ncu column) pair: how many agree, and a line for each that does not."""
    n, lines = 0, []
    for r, (m, _) in zip(rows, sims):
        h = measured.get(r['spec'])
        if m is None or h is None:
            continue
        for ours, theirs in pairs:
            if h.get(theirs, '') == '' or ours not in m:
                continue
            if agree(m[ours], float(h[theirs])):
                n += 1
            else:
                lines.append(f"{r['spec']}: {ours} {show(m[ours], float(h[theirs]))}")
    return n, lines

def summary(sel):
    """MAPE (%), the row with the largest |error|, Spearman's rho of measured against simulated."""
    mape = 100 * sum(abs(x[3]) for x in sel) / len(sel)
    worst = max(sel, key=lambda x: abs(x[3]))
    return mape, worst, spearman([x[1] for x in sel], [x[2] for x in sel])

def write_markdown(path, out):
    short = lambda spec: spec.removeprefix('kernels/')
    with open(path, 'w') as f:
        f.write('| kernels | n | MAPE | worst | Spearman | within 10 % / 30 % |\n|---|---|---|---|---|---|\n')
        for label, sel in (('all', out), ('measured >= 10 us', [x for x in out if x[1] >= 10.0])):
            if not sel:
                continue
            mape, worst, rho = summary(sel)
            name = os.path.splitext(os.path.basename(worst[0].partition(':')[0]))[0]
            within = lambda lim: sum(abs(x[3]) <= lim for x in sel)
            f.write(f'| {label} | {len(sel)} | {mape:.1f} % | {100 * worst[3]:+.1f} % ({name}) | {rho:.3f} | '
                    f'{within(0.10)} / {within(0.30)} |\n')
        f.write('\n| launch spec (`kernels/...`) | measured (us) | simulated (us) | error |\n|---|---|---|---|\n')
        for spec, meas, sim, e in out:
            f.write(f'| {short(spec)} | {meas:.3f} | {sim:.3f} | {100 * e:+.1f} % |\n')

if __name__ == '__main__':
    sys.exit(main())
