#!/bin/bash
# L1 hits of the tiled and coarsened matmuls launched three ways (l1_reuse.cu), on the GPU
# with ncu (caches flushed before the launch) and in warpsim (--cache-control all).
#   On the GPU machine:  tools/calibration/l1_reuse.sh device OUTDIR   -> OUTDIR/gpu_l1_reuse.csv
#   Here:                tools/calibration/l1_reuse.sh sim OUTDIR [WARPSIM]   -> OUTDIR/l1_reuse_sim.csv
here=$(cd "$(dirname "$0")" && pwd)
source "$here/common.sh" "l1_reuse.sh device|sim OUTDIR [WARPSIM]" "$@"
build l1_reuse
case $mode in
  device)
    echo "kernel,case,launch_id,metric,unit,value" > "$out/gpu_l1_reuse.csv"
    for k in tiled coarsened; do
      for c in full one_sm single; do
        ncu --cache-control all --clock-control none --csv --print-units base \
          --metrics l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum,launch__occupancy_limit_shared_mem,launch__grid_size \
          "$work/l1_reuse" $k $c | grep '^"' | grep -v '"ID"' |
          awk -F'","' -v k=$k -v c=$c '{gsub(/[",]/, "", $NF); print k "," c "," $1 "," $(NF-2) "," $(NF-1) "," $NF}' | tr -d '"'
      done
    done >> "$out/gpu_l1_reuse.csv"
    nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$out/gpu.txt"
    ;;
  sim)
    warpsim=${3:-$default_warpsim}
    echo "kernel,case,l1_sector_hit_rate"
    for k in tiled coarsened; do
      for c in full one_sm single; do
        "$warpsim" exec --config h100 --cache-control all --no-summary --json "$work/s.json" -- "$work/l1_reuse" $k $c > /dev/null
        python3 -c "
import json
l=json.load(open('$work/s.json'))['launches'][0]
print('$k,$c,%.1f' % l['metrics']['l1_sector_hit_rate'])"
      done
    done > "$out/l1_reuse_sim.csv"
    ;;
  *) echo "l1_reuse.sh: mode is device or sim" >&2; exit 2 ;;
esac
