#!/bin/bash
# How the GPC merge window and table size (configs/h100.json gpcs.merge_window_cycles and
# merge_lines) set the L2's read
# sectors of the matmul launches, against the H100's (h100_hit_rates.csv l2_read_sectors,
# ncu lts__t_sectors_srcunit_tex_op_read): the window is fitted on matmul_tiled_512 and the
# other matmuls check it.
#   tools/calibration/gpc_merge_window.sh [WARPSIM] [WINDOW/LINES...]   (default: the config's)
# prints spec, window/lines, warpsim's l2_read_transactions, ncu's, their ratio, warpsim's
# gpc_merged_sectors, l2_read_hit_rate against ncu's and the simulated time against the
# measured one (the measured binary's registers per thread, as compare_h100.py).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
warpsim=${1:-$root/build/tools/warpsim}
shift || true
windows=${*:-config}
cd "$root"
echo "spec,window/lines,l2_read_sectors,ncu_l2_read_sectors,ratio,gpc_merged_sectors,l2_read_hit_rate,ncu_l2_read_hit_rate,simulated_us,measured_us"
for spec in matmul_tiled_512 matmul_tiled_bounds_512 matmul_simple_512 matmul_coarsened_512 matmul_simple_100 \
            matmul_tiled_bounds_100; do
  for w in $windows; do
    out=$(mktemp)
    regs=$(python3 -c "import csv,sys; print(next(r['registers'] for r in csv.DictReader(open('docs/measurements/h100_kernel_times.csv')) if r['spec']=='kernels/matmul/$spec.json'))")
    sets=()
    [ "$w" = config ] || sets=(--set "gpcs.merge_window_cycles=${w%/*}" --set "gpcs.merge_lines=${w#*/}")
    "$warpsim" run "kernels/matmul/$spec.json" --config h100 --registers "$regs" "${sets[@]}" --json "$out" > /dev/null
    python3 - "$out" "$spec" "$w" <<'EOF'
import csv, json, sys
m = json.load(open(sys.argv[1]))['metrics']
spec = f"kernels/matmul/{sys.argv[2]}.json"
hr = next(r for r in csv.DictReader(open('docs/measurements/h100_hit_rates.csv')) if r['spec'] == spec)
kt = next(r for r in csv.DictReader(open('docs/measurements/h100_kernel_times.csv')) if r['spec'] == spec)
ncu = float(hr['l2_read_sectors'])
print(f"{sys.argv[2]},{sys.argv[3]},{int(m['l2_read_transactions'])},{int(ncu)},{m['l2_read_transactions'] / ncu:.3f},"
      f"{int(m.get('gpc_merged_sectors', 0))},{m['l2_read_hit_rate']:.1f},{hr['l2_read_hit_pct']},"
      f"{m['duration_ns'] / 1000:.3f},{float(kt['ncu_time_ns']) / 1000:.3f}")
EOF
    rm -f "$out"
  done
done
