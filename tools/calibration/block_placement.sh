#!/bin/bash
# Which SM runs which block (block_placement.cu), on the GPU and under warpsim.
#   On the GPU machine:  tools/calibration/block_placement.sh device OUTDIR
#     writes OUTDIR/gpu_block_placement_B_T_S.csv for the grids below and gpu_block_placement_gpu.txt
#   Here:                tools/calibration/block_placement.sh sim OUTDIR [WARPSIM]
#     writes OUTDIR/block_placement_sim_B_T_S.csv (no spin: warpsim's placement does not
#     depend on how long blocks run while the first wave is placed)
# Grids: 16, 49, 64 and 132 blocks of 256 threads (fewer blocks than SMs, and one each),
# the tiled matmul 512's (1,024 blocks of 256 threads, 2 KB of shared memory: one wave), one
# of 2,640 such blocks (several waves) and 264 blocks of 1,024 threads.
here=$(cd "$(dirname "$0")" && pwd)
source "$here/common.sh" "block_placement.sh device|sim OUTDIR [WARPSIM]" "$@"
build block_placement
grids="16:256:2048 49:256:2048 64:256:2048 132:256:2048 1024:256:2048 2640:256:2048 264:1024:4096"
case $mode in
  device)
    for g in $grids; do
      IFS=: read -r b t s <<< "$g"
      "$work/block_placement" "$b" "$t" "$s" 20000 > "$out/gpu_block_placement_${b}_${t}_${s}.csv"
    done
    nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$out/gpu_block_placement_gpu.txt"
    ;;
  sim)
    warpsim=${3:-$default_warpsim}
    for g in $grids; do
      IFS=: read -r b t s <<< "$g"
      "$warpsim" exec --config h100 --no-summary -- "$work/block_placement" "$b" "$t" "$s" 0 \
        > "$out/block_placement_sim_${b}_${t}_${s}.csv"
    done
    ;;
  *) echo "block_placement.sh: mode is device or sim" >&2; exit 2 ;;
esac
