#!/usr/bin/env bash
# Runs the texture/surface test program (tests/750_runtime/programs/textures.cu) natively on
# a real NVIDIA GPU and keeps what it prints: that output is
# tests/750_runtime/programs/textures.expected, which warpsim must reproduce exactly.
#   tools/runtime/texture_ground_truth.sh OUT_DIR      # on the device machine
# Also runs texture_probe.cu (filtering of non-trivial float texels, printed with %a),
# rotate_probe.cu (a wrapped, normalised, linearly filtered rotation and the corner weights
# the filter used, at two angles; PREFIX files with the raw floats too) and contraction.cu
# (which mul/add pairs the GPU fuses into fma).
# Writes OUT_DIR/NAME.out for each program and OUT_DIR/gpu.txt (GPU, driver).
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${1:?usage: tools/runtime/texture_ground_truth.sh OUT_DIR}
source tools/runtime/ground_truth_common.sh
ground_truth_setup "$out"
for p in textures texture_probe rotate_probe contraction; do  # outputs: tests/750_runtime/programs/$p.expected
  "$nvcc" -arch=native -o "$out/$p" "tests/750_runtime/programs/$p.cu" 2>/dev/null
  if [ $p = rotate_probe ]; then
    { "$out/$p" 0.5 "$out/rotate_0.5_"; "$out/$p" -0.3 "$out/rotate_-0.3_"; } > "$out/$p.out"
  else
    "$out/$p" > "$out/$p.out"
  fi
  rm -f "$out/$p"
done
cat "$out/gpu.txt"
tail -1 "$out/textures.out"
