#!/usr/bin/env python3
"""Per launch spec, the L1 and L2 hit rates of the validation launches as ncu measured them
(h100_hit_rates.sh), split so that each compares with one warpsim metric:
  l1_ld_hit_pct      global-load sectors that hit in the L1 (l1tex ..._op_ld_lookup_hit / _op_ld);
                     warpsim l1_hit_rate
  l2_read_hit_pct    the SMs' read sectors that hit in the L2 (lts ..._srcunit_tex_op_read_lookup_hit /
                     _op_read); warpsim l2_read_hit_rate
  l2_write_hit_pct   write sectors that hit (ncu counts a written sector as a hit when the L2 takes it
                     without reading DRAM, so this is near 100 % cold)
  lts_hit_pct, l1tex_hit_pct   ncu's headline rates (run_h100.sh's l2_hit_pct and l1_hit_pct), which
                     also count writes and, for the L2, traffic that is not the SMs' loads
  app_l2_read_hit_pct  l2_read_hit_pct with application replay (nothing restored between passes)
  l2_read_sectors    the SMs' read sectors the L2 counted (lts__t_sectors_srcunit_tex_op_read, kernel
                     replay); warpsim l2_read_transactions (which also counts atomics' sectors)
usage: summarize_hit_rates.py DIR > docs/measurements/h100_hit_rates.csv"""
import csv, sys

def load(path):
    values = {}
    for r in csv.reader(open(path)):
        if len(r) < 15 or r[0] == 'ID':
            continue
        values.setdefault(int(r[0]), {})[r[-3]] = float(r[-1].replace(',', ''))
    return values

def pct(v, hit, total):
    t = v.get(total, 0.0)
    return f'{100.0 * v.get(hit, 0.0) / t:.1f}' if t else ''

def main(d):
    order = [line.split(',launched')[0] for line in open(f'{d}/h100_hit_rates_launch_order.csv') if ',launched' in line]
    kernel, app = load(f'{d}/h100_hit_rates_kernel_replay.csv'), load(f'{d}/h100_hit_rates_app_replay.csv')
    w = csv.writer(sys.stdout, lineterminator='\n')
    w.writerow(['spec', 'l1_ld_hit_pct', 'l2_read_hit_pct', 'l2_write_hit_pct', 'lts_hit_pct', 'l1tex_hit_pct',
                'app_l2_read_hit_pct', 'l2_read_sectors'])
    ld = 'l1tex__t_sectors_pipe_lsu_mem_global_op_ld'
    rd = 'lts__t_sectors_srcunit_tex_op_read'
    for i, spec in enumerate(order):
        k, a = kernel.get(i, {}), app.get(i, {})
        w.writerow([spec, pct(k, ld + '_lookup_hit.sum', ld + '.sum'), pct(k, rd + '_lookup_hit.sum', rd + '.sum'),
                    pct(k, 'lts__t_sectors_op_write_lookup_hit.sum', 'lts__t_sectors_op_write.sum'),
                    f"{k.get('lts__t_sector_hit_rate.pct', 0.0):.1f}", f"{k.get('l1tex__t_sector_hit_rate.pct', 0.0):.1f}",
                    pct(a, rd + '_lookup_hit.sum', rd + '.sum'),
                    f"{k[rd + '.sum']:.0f}" if rd + '.sum' in k else ''])

if __name__ == '__main__':
    main(sys.argv[1])
