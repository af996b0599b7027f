#!/bin/bash
# mbarrier objects and reserved shared memory on the GPU (mbarrier_probe.cu: the
# %reserved_smem_offset_* and shared-size registers, an mbarrier's raw words and state
# tokens, try_wait's suspend time) and under warpsim.
#   On the GPU machine:  tools/calibration/mbarrier_probe.sh device OUTDIR
#     writes OUTDIR/gpu_mbarrier_probe.txt
#   Here:                tools/calibration/mbarrier_probe.sh sim OUTDIR [WARPSIM]
#     writes OUTDIR/mbarrier_probe_sim.txt (timing mode, configs/h100.json)
here=$(cd "$(dirname "$0")" && pwd)
source "$here/common.sh" "mbarrier_probe.sh device|sim OUTDIR [WARPSIM]" "$@"
build mbarrier_probe
case $mode in
  device)
    { nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; "$work/mbarrier_probe"; } > "$out/gpu_mbarrier_probe.txt"
    ;;
  sim)
    warpsim=${3:-$default_warpsim}
    "$warpsim" exec --config h100 --no-summary -- "$work/mbarrier_probe" > "$out/mbarrier_probe_sim.txt"
    ;;
esac
