#!/bin/bash
# The L1/shared split per launch: carveout.cu measured on the H100 and simulated.
#   On the GPU machine:  tools/calibration/carveout.sh device OUTDIR
#     writes OUTDIR/h100_carveout_chase.csv (cycles per chase step per footprint) and
#     h100_carveout_ncu.csv (ncu's shared-memory configuration size and occupancy limits,
#     one launch per case), and h100_carveout_grid_ncu.csv (the driver's choice for block
#     sizes 32..1024 and dynamic shared memory 0..48 KB)
#   Here:                tools/calibration/carveout.sh sim OUTDIR [WARPSIM]
#     writes OUTDIR/carveout_sim.csv (the same lines as the chase file), the "one" and "grid"
#     runs with their JSON, and shared_limits_sim.txt (h100_shared_limits.txt on the device:
#     per-block limits, opt-in and the errors past them; its stderr apart)
#   Then:                python3 tools/calibration/carveout_table.py DEVICE_OUTDIR SIM_OUTDIR
here=$(cd "$(dirname "$0")" && pwd)
source "$here/common.sh" "carveout.sh device|sim OUTDIR [WARPSIM]" "$@"
build carveout
build shared_limits
case $mode in
  device)
    "$work/carveout" > "$out/h100_carveout_chase.csv"
    ncu --csv --print-units base \
      --metrics launch__shared_mem_config_size,launch__occupancy_limit_shared_mem,launch__occupancy_limit_blocks,launch__occupancy_limit_warps,launch__occupancy_limit_registers,launch__shared_mem_per_block_dynamic,launch__shared_mem_per_block_driver,launch__block_size \
      "$work/carveout" one > "$work/ncu.csv" 2> "$out/h100_carveout_ncu_stderr.txt"
    grep -v '^==PROF==' "$work/ncu.csv" > "$out/h100_carveout_ncu.csv"
    "$work/carveout" one > "$out/h100_carveout_ncu_cases.csv"
    ncu --csv --print-units base --metrics launch__shared_mem_config_size,launch__occupancy_limit_shared_mem,launch__occupancy_limit_warps,launch__occupancy_limit_registers,launch__registers_per_thread \
      "$work/carveout" grid > "$work/grid.csv" 2>> "$out/h100_carveout_ncu_stderr.txt"
    grep -v '^==PROF==' "$work/grid.csv" > "$out/h100_carveout_grid_ncu.csv"
    "$work/carveout" grid > "$out/h100_carveout_grid_cases.csv"
    "$work/shared_limits" > "$out/h100_shared_limits.txt"
    nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > "$out/h100_carveout_gpu.txt"
    ;;
  sim)
    warpsim=${3:-$default_warpsim}
    "$warpsim" exec --config h100 --no-summary -- "$work/carveout" > "$out/carveout_sim.csv"
    "$warpsim" exec --config h100 --no-summary --json "$out/carveout_sim_one.json" -- "$work/carveout" one \
      > "$out/carveout_sim_one.csv"
    "$warpsim" exec --config h100 --no-summary --json "$out/carveout_sim_grid.json" -- "$work/carveout" grid \
      > "$out/carveout_sim_grid.csv"
    "$warpsim" exec --config h100 --no-summary -- "$work/shared_limits" > "$out/shared_limits_sim.txt" \
      2> "$out/shared_limits_sim_stderr.txt"
    ;;
  *) echo "carveout.sh: mode is device or sim" >&2; exit 2 ;;
esac
