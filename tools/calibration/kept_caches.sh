#!/bin/bash
# Launches that find the L2 as the last one left it: kept_caches.cu measured on the H100 and
# simulated with `warpsim exec --config h100` (caches kept between launches, the default).
#   On the GPU machine:  tools/calibration/kept_caches.sh device OUTDIR
#     writes OUTDIR/h100_kept_caches_events.csv (3 runs) and h100_kept_caches_ncu.csv (ncu,
#     --cache-control none, application replay so every pass sees the program's own cache state)
#   Here:                tools/calibration/kept_caches.sh sim OUTDIR [WARPSIM]
#     writes OUTDIR/kept_caches_sim.json and kept_caches_sim.csv
#   Then:                python3 tools/calibration/kept_caches_table.py DEVICE_OUTDIR SIM_OUTDIR
here=$(cd "$(dirname "$0")" && pwd)
source "$here/common.sh" "kept_caches.sh device|sim OUTDIR [WARPSIM]" "$@"
build kept_caches
case $mode in
  device)
    for run in 1 2 3; do "$work/kept_caches" | sed "s/^/$run,/"; done > "$out/h100_kept_caches_events.csv"
    ncu --clock-control none --cache-control none --replay-mode application --csv --print-units base \
      --metrics gpu__time_duration.sum,lts__t_sector_hit_rate.pct,lts__t_sectors_op_read.sum,lts__t_sectors_op_write.sum,dram__bytes_read.sum,dram__bytes_write.sum \
      "$work/kept_caches" > "$work/ncu.csv" 2> "$out/h100_kept_caches_ncu_stderr.txt"
    grep -v '^==PROF==' "$work/ncu.csv" > "$out/h100_kept_caches_ncu.csv"
    nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > "$out/h100_kept_caches_gpu.txt"
    ;;
  sim)
    warpsim=${3:-$default_warpsim}
    "$warpsim" exec --config h100 --no-summary --json "$out/kept_caches_sim.json" -- "$work/kept_caches" \
      > "$out/kept_caches_sim.csv"
    ;;
  *) echo "kept_caches.sh: mode is device or sim" >&2; exit 2 ;;
esac
