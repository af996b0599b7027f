#!/bin/bash
# Thread block clusters on the GPU (cluster_probe.cu: cluster occupancy, which SMs a
# cluster's blocks run on, distributed shared memory latency) and under warpsim.
#   On the GPU machine:  tools/calibration/cluster_probe.sh device OUTDIR
#     writes OUTDIR/gpu_cluster_probe.csv and gpu_cluster_probe_gpu.txt
#   Here:                tools/calibration/cluster_probe.sh sim OUTDIR [WARPSIM]
#     writes OUTDIR/cluster_probe_sim.csv (timing mode, configs/h100.json)
here=$(cd "$(dirname "$0")" && pwd)
source "$here/common.sh" "cluster_probe.sh device|sim OUTDIR [WARPSIM]" "$@"
build cluster_probe
case $mode in
  device)
    "$work/cluster_probe" > "$out/gpu_cluster_probe.csv"
    nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$out/gpu_cluster_probe_gpu.txt"
    ;;
  sim)
    warpsim=${3:-$default_warpsim}
    "$warpsim" exec --config h100 --no-summary -- "$work/cluster_probe" > "$out/cluster_probe_sim.csv"
    ;;
esac
