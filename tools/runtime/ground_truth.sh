#!/usr/bin/env bash
# Runs test programs from tests/750_runtime/programs natively on a real NVIDIA GPU and keeps
# what each prints: OUT_DIR/NAME.out is what tests/750_runtime/programs/NAME.expected must
# equal (warpsim has to reproduce it exactly).
#   tools/runtime/ground_truth.sh OUT_DIR NAME...     # on the device machine
# Writes OUT_DIR/gpu.txt (nvcc, GPU, driver) too. Programs with arguments or several
# outputs have their own script (texture_ground_truth.sh). A program that needs nvcc flags
# names them in a line "// nvcc flags: ..." (e.g. -rdc=true -lcudadevrt).
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${1:?usage: tools/runtime/ground_truth.sh OUT_DIR NAME...}
shift
source tools/runtime/ground_truth_common.sh
ground_truth_setup "$out"
for p in "$@"; do
  src="tests/750_runtime/programs/$p.cu"
  flags=$(sed -n 's|^// nvcc flags: ||p' "$src" | head -1)
  "$nvcc" -arch=native $flags -o "$out/$p" "$src"
  "$out/$p" > "$out/$p.out" 2> "$out/$p.err" || echo "$p: exit status $?" >> "$out/$p.err"
  rm -f "$out/$p"
done
cat "$out/gpu.txt"
