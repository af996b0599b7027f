#!/usr/bin/env bash
# Runs the texture/surface test program (tests/750_runtime/programs/textures.cu) natively on
# a real NVIDIA GPU and keeps what it prints: that output is
# tests/750_runtime/programs/textures.expected, which warpsim must reproduce exactly.
#   tools/runtime/texture_ground_truth.sh OUT_DIR      # on the device machine
# Also runs texture_probe.cu (filtering of non-trivial float texels, printed with %a).
# Writes OUT_DIR/textures.out, OUT_DIR/texture_probe.out and OUT_DIR/gpu.txt (GPU, driver).
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${1:?usage: tools/runtime/texture_ground_truth.sh OUT_DIR}
nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
mkdir -p "$out"
"$nvcc" --version | tail -1 > "$out/gpu.txt"
nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv,noheader >> "$out/gpu.txt"
for p in textures texture_probe; do  # their outputs: tests/750_runtime/programs/$p.expected
  "$nvcc" -arch=native -o "$out/$p" "tests/750_runtime/programs/$p.cu" 2>/dev/null
  "$out/$p" > "$out/$p.out"
  rm -f "$out/$p"
done
cat "$out/gpu.txt"
tail -1 "$out/textures.out"
