#!/bin/bash
# Everything measured on the H100 for configs/h100.json and docs/calibration.md, in one go.
# Run from the repository root on the GPU machine:  tools/calibration/run_h100.sh OUTDIR
set -uo pipefail
out=${1:?usage: run_h100.sh OUTDIR}
here=$(cd "$(dirname "$0")" && pwd)
export PATH=/usr/local/cuda/bin:$PATH
mkdir -p "$out"
work=$(mktemp -d)
{
  nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem,clocks.sm,clocks.mem,memory.total,pcie.link.gen.max,pcie.link.width.max --format=csv
  nvidia-smi -q -d CLOCK
  nvcc --version | tail -2
  ncu --version | tail -1
} > "$out/h100_device.txt" 2>&1
nvcc -O3 -arch=sm_90 -o "$work/micro" "$here/h100_micro.cu"
nvcc -O3 -arch=sm_90 -o "$work/occ" "$here/h100_occupancy.cu"
nvcc -O2 -o "$work/launch" "$here/spec_launch.cu" -lcuda
{
  "$work/micro" props
  for b in 4096 16384 65536 131072 196608 229376 262144 524288 2097152 8388608 25165824 41943040 52428800 67108864 268435456; do
    "$work/micro" chase $b 128
  done
  for b in 65536 8388608 25165824 41943040 67108864 268435456; do "$work/micro" chase_cg $b 128; done
  "$work/micro" chase 268435456 1024
  "$work/micro" shared
  "$work/micro" fma
  "$work/micro" bandwidth
} > "$out/h100_micro.csv" 2>&1
"$work/occ" > "$out/h100_occupancy.csv" 2>&1
specs=$(ls kernels/*/*.json | grep -v assignments)
python3 "$here/spec_plan.py" "$work/all.plan" $specs \
  kernels/microbench/pointer_chase.json:n=2048,steps=2048 \
  kernels/microbench/pointer_chase.json:n=262144,steps=32768
"$work/launch" "$work/all.plan" events > "$out/h100_events.csv" 2>&1
metrics=gpu__time_duration.sum,sm__cycles_elapsed.max,sm__cycles_elapsed.avg.per_second,dram__bytes_read.sum,dram__bytes_write.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,smsp__inst_executed.sum,l1tex__t_sector_hit_rate.pct,lts__t_sector_hit_rate.pct,sm__warps_active.avg.pct_of_peak_sustained_active,sm__maximum_warps_per_active_cycle_pct,launch__registers_per_thread,launch__occupancy_limit_registers,launch__occupancy_limit_shared_mem,launch__occupancy_limit_warps,launch__occupancy_limit_blocks,launch__shared_mem_config_size,launch__shared_mem_per_block_driver
ncu --clock-control none --cache-control all --csv --print-units base --metrics "$metrics" \
  "$work/launch" "$work/all.plan" once > "$work/ncu_raw.csv" 2> "$out/ncu_stderr.txt"
if ! grep -q gpu__time_duration "$work/ncu_raw.csv"; then  # a metric this ncu lacks: the core set only
  ncu --clock-control none --cache-control all --csv --print-units base \
    --metrics gpu__time_duration.sum,sm__cycles_elapsed.max,sm__cycles_elapsed.avg.per_second,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum \
    "$work/launch" "$work/all.plan" once > "$work/ncu_raw.csv" 2>> "$out/ncu_stderr.txt"
fi
grep -v '^==PROF==' "$work/ncu_raw.csv" > "$out/h100_ncu_raw.csv"
grep ',launched' "$work/ncu_raw.csv" > "$out/h100_launch_order.csv"
# Arithmetic latencies, launch overhead, and the SASS of the latency loops.
{ for m in fma sfu dp imul shared; do "$work/micro" $m; done; } > "$out/h100_micro2.csv" 2>&1
ncu --clock-control none --csv --print-units base --metrics gpu__time_duration.sum,sm__cycles_elapsed.max \
  "$work/micro" empty > "$out/h100_empty_ncu.csv" 2>&1
ptxas -arch=sm_90 -O3 -o "$work/pc.cubin" kernels/microbench/pointer_chase.ptx
{ cuobjdump -sass "$work/pc.cubin"; cuobjdump -sass -fun shared_chase "$work/micro"; cuobjdump -sass -fun chase "$work/micro"; } > "$out/h100_sass.txt" 2>&1
rm -rf "$work"
python3 "$here/summarize_h100.py" "$out" > "$out/h100_kernel_times.csv"
ls -la "$out"
