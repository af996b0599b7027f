#!/bin/bash
# Where GH100 merges the SMs' L1 read misses: its L2 Request Coalescer (LRC, ncu's lrc__
# counters) sits between the crossbar and the L2 slices. For the launches whose blocks share
# data (the matmuls, the greyscales) and two that share none, this counts the read sectors
# the L1s miss and receive, the requests and sectors the LRC takes from the crossbar, those
# it coalesced, those it sends to and gets from the L2 slices, and the L2 slices' SM reads
# (spec_launch, caches flushed by ncu, kernel replay).
# Run from the repository root on the GPU machine:  tools/calibration/lrc_coalescing.sh OUTDIR
#   writes OUTDIR/gpu_lrc_coalescing.csv (ncu --csv rows) and the GPU's name and driver
set -euo pipefail
out=${1:?usage: lrc_coalescing.sh OUTDIR}
here=$(cd "$(dirname "$0")" && pwd)
export PATH=/usr/local/cuda/bin:$PATH
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
nvcc -O2 -o "$work/launch" "$here/spec_launch.cu" -lcuda
specs=(kernels/matmul/matmul_tiled_512.json kernels/matmul/matmul_tiled_bounds_512.json
       kernels/matmul/matmul_simple_512.json kernels/matmul/matmul_coarsened_512.json
       kernels/matmul/matmul_simple_100.json kernels/matmul/matmul_tiled_bounds_100.json
       kernels/greyscale/greyscale_200x150.json kernels/greyscale/greyscale_76x62.json
       kernels/memory/offset_copy.json kernels/vecadd/vecadd_1m.json)
python3 "$here/spec_plan.py" "$work/p.plan" "${specs[@]}"
m=l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum,l1tex__m_xbar2l1tex_read_sectors.sum
m=$m,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum
m=$m,lrc__xbar2lrc_requests_op_read.sum,lrc__request_sectors_op_read_coalescable.sum
m=$m,lrc__request_sectors_op_read_coalescing_achieved_type_hardware.sum
m=$m,lrc__lrc2xbar_sectors_op_read.sum,lrc__lrc2xbar_sectors_op_read_coalescing_achieved.sum
m=$m,lrc__lrc2xbar_sectors_op_read_coalescing_none.sum,lrc__lrc2xbar_sectors_op_read_replayed.sum
m=$m,lrc__lts2lrc_sectors_op_read.sum,lrc__xbar2gpc_sectors_op_read.sum
m=$m,lrc__xbar2gpc_sectors_op_read_coalescing_achieved.sum,gpu__time_duration.sum
ncu --clock-control none --cache-control all --csv --print-units base --metrics "$m" \
  "$work/launch" "$work/p.plan" once 2>&1 | grep -v '^==PROF==' | grep -v ',launched' > "$out/gpu_lrc_coalescing.csv" || true
printf '%s\n' "${specs[@]}" > "$out/gpu_lrc_coalescing_specs.txt"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$out/gpu_lrc_coalescing_gpu.txt"
