#!/usr/bin/env bash
# Runs the driver API test program (tests/750_runtime/programs/driver_api.cu, with its
# kernels driver_kernels.cu built as PTX, a fatbinary and a cubin, as the test builds them)
# natively on a real NVIDIA GPU: what it prints is tests/750_runtime/programs/
# driver_api.expected, which warpsim (--config h100) must reproduce exactly; the same for
# driver_streams.cu (built with --default-stream per-thread), vmm.cu (virtual memory
# management) and nvrtc_cubin.cu (kernels NVRTC compiles to cubins). Also prints what the real
# driver says for every CUresult (tools/runtime/driver_error_strings.cpp).
#   tools/runtime/driver_ground_truth.sh OUT_DIR      # on the device machine
# Writes OUT_DIR/{driver_api,driver_streams,vmm,nvrtc_cubin}.{out,err}, OUT_DIR/driver_error_strings.tsv
# and OUT_DIR/gpu.txt (GPU, driver).
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${1:?usage: tools/runtime/driver_ground_truth.sh OUT_DIR}
p=tests/750_runtime/programs
source tools/runtime/ground_truth_common.sh
ground_truth_setup "$out"
"$nvcc" -ptx -arch=sm_75 -o "$out/k.ptx" $p/driver_kernels.cu
"$nvcc" -fatbin -arch=sm_75 -o "$out/k.fatbin" $p/driver_kernels.cu
"$nvcc" -cubin -arch=sm_75 -o "$out/k.cubin" $p/driver_kernels.cu
"$nvcc" -cudart shared -lcuda -o "$out/driver_api" $p/driver_api.cu
"$out/driver_api" "$out/k.ptx" "$out/k.fatbin" "$out/k.cubin" > "$out/driver_api.out" 2> "$out/driver_api.err" || true
"$nvcc" -cudart shared -lcuda --default-stream per-thread -o "$out/driver_streams" $p/driver_streams.cu
"$out/driver_streams" "$out/k.ptx" > "$out/driver_streams.out" 2> "$out/driver_streams.err" || true
"$nvcc" -lcuda -o "$out/des" tools/runtime/driver_error_strings.cpp
"$out/des" > "$out/driver_error_strings.tsv"
"$nvcc" -cudart shared -lcuda -o "$out/vmm" $p/vmm.cu
"$out/vmm" > "$out/vmm.out" 2> "$out/vmm.err" || true
"$nvcc" -cudart shared -lcuda -lnvrtc -o "$out/nvrtc_cubin" $p/nvrtc_cubin.cu
"$out/nvrtc_cubin" > "$out/nvrtc_cubin.out" 2> "$out/nvrtc_cubin.err" || true
rm -f "$out/driver_api" "$out/driver_streams" "$out/vmm" "$out/nvrtc_cubin" "$out/des" "$out/k.cubin" "$out/k.fatbin" "$out/k.ptx"
cat "$out/gpu.txt"
wc -l "$out/driver_api.out"
