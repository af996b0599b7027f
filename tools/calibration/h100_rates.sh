#!/bin/bash
# Rates the H100 config needs beyond latencies (docs/calibration.md, "Block launch and
# partial-sector stores"), each from a microbenchmark spec timed by ncu with caches flushed:
#  - kernels/microbench/block_launch.json: blocks that do nothing, 132 to 132,000 of 256
#    threads and 16,384 of 32 to 1024 threads: the cost of starting and retiring a block;
#  - kernels/microbench/scattered_stores.json at strides 1, 2, 4, 8, 16 (32, 16, 8, 4, 4
#    bytes written per 32-byte sector per store): store throughput by sector coverage;
#  - the naive transpose, for comparison.
# Run from the repository root on the GPU machine:  tools/calibration/h100_rates.sh OUTDIR
# Writes OUTDIR/h100_rates_ncu.csv (one row per launch and metric), h100_rates_events.csv
# and h100_rates_device.txt.
set -uo pipefail
out=${1:?usage: h100_rates.sh OUTDIR}
here=$(cd "$(dirname "$0")" && pwd)
export PATH=/usr/local/cuda/bin:$PATH
mkdir -p "$out"
work=$(mktemp -d)
nvcc -O2 -o "$work/launch" "$here/spec_launch.cu" -lcuda
b=kernels/microbench/block_launch.json
s=kernels/microbench/scattered_stores.json
python3 "$here/spec_plan.py" "$work/rates.plan" \
  "$b:blocks=132,block_size=256" "$b:blocks=1320,block_size=256" "$b:blocks=13200,block_size=256" \
  "$b:blocks=16384,block_size=256" "$b:blocks=132000,block_size=256" \
  "$b:blocks=16384,block_size=32" "$b:blocks=16384,block_size=64" "$b:blocks=16384,block_size=128" \
  "$b:blocks=16384,block_size=512" "$b:blocks=16384,block_size=1024" \
  "$s:stride=1,shift=22" "$s:stride=2,shift=21" "$s:stride=4,shift=20" "$s:stride=8,shift=19" "$s:stride=16,shift=18" \
  kernels/transpose/transpose_naive_2048.json
"$work/launch" "$work/rates.plan" events > "$out/h100_rates_events.csv" 2>&1
ncu --clock-control none --cache-control all --csv --print-units base \
  --metrics gpu__time_duration.sum,sm__cycles_elapsed.max,sm__cycles_elapsed.avg.per_second,dram__bytes_read.sum,dram__bytes_write.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,lts__t_sectors_op_write.sum,lts__t_requests_op_write.sum \
  "$work/launch" "$work/rates.plan" once 2> "$out/h100_rates_ncu_stderr.txt" | grep -v '^==' > "$out/h100_rates_ncu.csv"
nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv,noheader > "$out/h100_rates_device.txt"
rm -rf "$work"
python3 "$here/ncu_launches.py" "$out/h100_rates_ncu.csv" gpu__time_duration.sum sm__cycles_elapsed.max
