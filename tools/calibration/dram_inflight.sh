#!/bin/bash
# DRAM bandwidth against bytes in flight (dram_inflight.cu) on the H100 and in warpsim.
#   On the GPU machine:  tools/calibration/dram_inflight.sh device OUTDIR
#     writes OUTDIR/h100_dram_inflight_events.csv (3 runs, events after an L2 flush) and
#     h100_dram_inflight_ncu.csv (ncu --cache-control all: kernel time and DRAM bytes)
#   Here:                tools/calibration/dram_inflight.sh sim OUTDIR [WARPSIM] [--set K=V]...
#     writes OUTDIR/dram_inflight_sim.json and .csv (--cache-control all, no flush kernel)
#   Then:                python3 tools/calibration/dram_inflight_table.py DEVICE_OUTDIR SIM_OUTDIR
here=$(cd "$(dirname "$0")" && pwd)
source "$here/common.sh" "dram_inflight.sh device|sim OUTDIR [WARPSIM] [--set K=V]..." "$@"
build dram_inflight
case $mode in
  device)
    for run in 1 2 3; do "$work/dram_inflight" | sed "s/^/$run,/"; done > "$out/h100_dram_inflight_events.csv"
    ncu --cache-control all --clock-control none --csv --print-units base \
      --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum \
      "$work/dram_inflight" noflush > "$work/ncu.csv" 2> "$out/h100_dram_inflight_ncu_stderr.txt"
    grep '^"' "$work/ncu.csv" > "$out/h100_dram_inflight_ncu.csv"
    cuobjdump -sass "$work/dram_inflight" | grep -E "Function|LDG|STG" > "$out/h100_dram_inflight_sass.txt"
    ;;
  sim)
    warpsim=${3:-$default_warpsim}
    shift $(( $# < 3 ? $# : 3 ))  # MODE OUT [WARPSIM]; the rest are warpsim options
    "$warpsim" exec --config h100 --cache-control all --no-summary "$@" --json "$out/dram_inflight_sim.json" \
      -- "$work/dram_inflight" noflush > "$out/dram_inflight_sim.csv"
    ;;
  *) echo "dram_inflight.sh: mode is device or sim" >&2; exit 2 ;;
esac
