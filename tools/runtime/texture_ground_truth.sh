#!/usr/bin/env bash
# Runs the texture/surface test program (tests/750_runtime/programs/textures.cu) natively on
# a real NVIDIA GPU and keeps what it prints: that output is
# tests/750_runtime/programs/textures.expected, which warpsim must reproduce exactly.
#   tools/runtime/texture_ground_truth.sh OUT_DIR      # on the device machine
# Writes OUT_DIR/textures.out (the program's stdout) and OUT_DIR/gpu.txt (which GPU, driver).
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${1:?usage: tools/runtime/texture_ground_truth.sh OUT_DIR}
nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
mkdir -p "$out"
"$nvcc" --version | tail -1 > "$out/gpu.txt"
nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv,noheader >> "$out/gpu.txt"
"$nvcc" -arch=native -o "$out/textures" tests/750_runtime/programs/textures.cu 2>/dev/null
"$out/textures" > "$out/textures.out"
rm -f "$out/textures"
cat "$out/gpu.txt"
tail -1 "$out/textures.out"
