#!/bin/bash
# A results program of tests/750_runtime/programs (one that prints the bits the GPU
# computes, e.g. bf16_results, pairs_and_set_results) run twice on the GPU; the two outputs
# must be identical. What it writes is that program's .expected and, with a header naming
# the toolkit and GPU, its docs/measurements file.
#   On the GPU machine:  tools/calibration/program_results.sh NAME OUTDIR
#     writes OUTDIR/NAME.expected and OUTDIR/h200_NAME.txt
set -euo pipefail
name=${1:?usage: program_results.sh NAME OUTDIR}
out=${2:?usage: program_results.sh NAME OUTDIR}
here=$(cd "$(dirname "$0")" && pwd)
src=$here/../../tests/750_runtime/programs/$name.cu
export PATH=/usr/local/cuda/bin:$PATH
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
nvcc -cudart shared -arch=sm_90 -o "$work/$name" "$src"
"$work/$name" > "$work/first"
"$work/$name" > "$work/second"
cmp "$work/first" "$work/second"
cp "$work/first" "$out/$name.expected"
{
  echo "# tests/750_runtime/programs/$name.cu on the GPU, run twice with identical output (nvcc -cudart shared -arch=sm_90; $(date -u +%F))"
  echo "# $(nvcc --version | tail -1) $(nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv,noheader)"
  cat "$work/first"
} > "$out/h200_$name.txt"
