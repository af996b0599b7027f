#!/bin/bash
# Kernel times of distributed shared memory (cluster_timing.cu) on the GPU and under warpsim.
#   On the GPU machine:  tools/calibration/cluster_timing.sh device OUTDIR
#     writes OUTDIR/gpu_cluster_timing.csv and gpu_cluster_timing_gpu.txt
#   Here:                tools/calibration/cluster_timing.sh sim OUTDIR [WARPSIM]
#     writes OUTDIR/cluster_timing_sim.csv (timing mode, configs/h100.json)
here=$(cd "$(dirname "$0")" && pwd)
source "$here/common.sh" "cluster_timing.sh device|sim OUTDIR [WARPSIM]" "$@"
build cluster_timing
case $mode in
  device)
    "$work/cluster_timing" > "$out/gpu_cluster_timing.csv"
    nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$out/gpu_cluster_timing_gpu.txt"
    ;;
  sim)
    warpsim=${3:-$default_warpsim}
    "$warpsim" exec --config h100 --no-summary -- "$work/cluster_timing" > "$out/cluster_timing_sim.csv"
    ;;
esac
