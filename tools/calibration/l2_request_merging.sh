#!/bin/bash
# Where a tiled matmul's L1 misses go: the sectors the L1s miss and receive from the crossbar
# against the reads the L2 slices count (srcunit tex and fabric), for matmul_tiled_512 and
# matmul_simple_512 (spec_launch, caches flushed by ncu, kernel replay).
# Run from the repository root on the GPU machine:  tools/calibration/l2_request_merging.sh OUTDIR
#   writes OUTDIR/gpu_l2_request_merging.csv (ncu --csv rows) and the GPU's name and driver
set -euo pipefail
out=${1:?usage: l2_request_merging.sh OUTDIR}
here=$(cd "$(dirname "$0")" && pwd)
export PATH=/usr/local/cuda/bin:$PATH
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
nvcc -O2 -o "$work/launch" "$here/spec_launch.cu" -lcuda
python3 "$here/spec_plan.py" "$work/p.plan" kernels/matmul/matmul_tiled_512.json kernels/matmul/matmul_simple_512.json
l1=l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum
l1=$l1,l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum
l2=lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum
l2=$l2,lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum,lts__t_requests_srcunit_tex_op_read.sum
l2=$l2,lts__t_sectors_srcunit_ltcfabric.sum,lts__t_sectors_srcunit_ltcfabric_lookup_hit.sum
l2=$l2,lts__t_sectors_op_read.sum,lts__t_sectors_op_read_lookup_hit.sum,dram__bytes_read.sum
xbar=l1tex__m_xbar2l1tex_read_sectors.sum,l1tex__m_xbar2l1tex_read_bytes.sum
for m in "$l1,$l2" "$xbar"; do
  ncu --clock-control none --cache-control all --csv --print-units base --metrics "$m" \
    "$work/launch" "$work/p.plan" once 2>&1 | grep -v '^==PROF==' | grep -v ',launched' || true
done > "$out/gpu_l2_request_merging.csv"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$out/gpu_l2_request_merging_gpu.txt"
