#!/bin/bash
# What Nsight Compute's L1 and L2 hit rates of the validation launches are made of: the same
# 74 launches as run_h100.sh (every launch spec and two pointer-chase variants, spec_launch,
# caches flushed by ncu), with the hit rates split
# into reads and writes, once with kernel replay (run_h100.sh's, where ncu saves and restores
# the memory a launch writes between its passes) and once with application replay (every pass
# runs the program again, nothing restored).
# Run from the repository root on the GPU machine:  tools/calibration/h100_hit_rates.sh OUTDIR
#   writes OUTDIR/h100_hit_rates_kernel_replay.csv and h100_hit_rates_app_replay.csv (ncu --csv,
#   one row per launch and metric), h100_hit_rates_launch_order.csv, and h100_hit_rates.csv:
#   per launch spec the hit rates compare_h100.py compares (summarize_hit_rates.py)
set -euo pipefail
out=${1:?usage: h100_hit_rates.sh OUTDIR}
here=$(cd "$(dirname "$0")" && pwd)
export PATH=/usr/local/cuda/bin:$PATH
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
nvcc -O2 -o "$work/launch" "$here/spec_launch.cu" -lcuda
specs=$(ls kernels/*/*.json | grep -v assignments)
python3 "$here/spec_plan.py" "$work/all.plan" $specs \
  kernels/microbench/pointer_chase.json:n=2048,steps=2048 \
  kernels/microbench/pointer_chase.json:n=262144,steps=32768
metrics=lts__t_sector_hit_rate.pct,lts__t_sectors_op_read.sum,lts__t_sectors_op_read_lookup_hit.sum,lts__t_sectors_op_write.sum,lts__t_sectors_op_write_lookup_hit.sum,lts__t_sectors_op_atom.sum,lts__t_sectors_op_red.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum,l1tex__t_sector_hit_rate.pct,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st_lookup_hit.sum,dram__bytes_read.sum
for replay in kernel application; do
  ncu --clock-control none --cache-control all --replay-mode $replay --csv --print-units base --metrics "$metrics" \
    "$work/launch" "$work/all.plan" once > "$work/ncu.csv" 2> "$out/h100_hit_rates_${replay}_stderr.txt"
  name=$([ $replay = kernel ] && echo kernel_replay || echo app_replay)
  grep -v '^==PROF==' "$work/ncu.csv" | grep -v ',launched' > "$out/h100_hit_rates_${name}.csv"
  # The launcher's lines in launch order (ncu's IDs count launches in the same order); the
  # application replay prints them once per pass.
  [ $replay = kernel ] && grep ',launched' "$work/ncu.csv" > "$out/h100_hit_rates_launch_order.csv"
done
python3 "$here/summarize_hit_rates.py" "$out" > "$out/h100_hit_rates.csv"
ls -la "$out"
