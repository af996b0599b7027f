#!/usr/bin/env bash
# Tensor-core ground truth on the GPU machine (run through `device`):
#   tools/calibration/wmma_probe.sh OUT_DIR
# writes OUT_DIR/h100_wmma_layout.txt (tests/750_runtime/programs/wmma_layout.cu with `full`:
# every lane's fragment elements), wmma_layout.out and wmma_gemm.out (what the test
# programs print; their .expected files), h100_wmma_rates.csv (wmma_rates.cu) and the SASS
# nvcc makes of the three (h100_wmma_sass.txt).
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${1:?usage: tools/calibration/wmma_probe.sh OUT_DIR}
export PATH=/usr/local/cuda/bin:$PATH
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
{ nvcc --version | tail -1; nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv,noheader; } > "$out/gpu.txt"
nvcc -O3 -arch=sm_90 -lineinfo -o "$work/wmma_layout" tests/750_runtime/programs/wmma_layout.cu
nvcc -O3 -arch=sm_90 -lineinfo -o "$work/wmma_gemm" tests/750_runtime/programs/wmma_gemm.cu
nvcc -O3 -arch=sm_90 -o "$work/wmma_rates" tools/calibration/wmma_rates.cu
"$work/wmma_layout" full > "$out/h100_wmma_layout.txt"
"$work/wmma_layout" > "$out/wmma_layout.out"
"$work/wmma_gemm" > "$out/wmma_gemm.out"
"$work/wmma_rates" > "$out/h100_wmma_rates.csv"
for p in wmma_layout wmma_gemm wmma_rates; do
  echo "=== $p"
  cuobjdump -sass "$work/$p" | grep -E "Function|HMMA|IMMA|DMMA|LD|ST|MOVM" || true
done > "$out/h100_wmma_sass.txt"
cat "$out/gpu.txt"
# Counts per launch of wmma_gemm under ncu: what warpsim's wmma loads and stores are checked against.
metrics=l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,\
l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,\
l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,\
l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,\
smsp__inst_executed.sum,smsp__inst_executed_pipe_tensor.sum,sm__cycles_elapsed.max,gpu__time_duration.sum
if command -v ncu > /dev/null; then
  ncu --csv --metrics "$metrics" "$work/wmma_gemm" > "$out/h100_wmma_gemm_ncu.csv" 2> "$out/ncu.err" || true
fi
