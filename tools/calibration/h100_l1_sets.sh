#!/bin/bash
# Whether the H100's L1 indexes its sets by plain address bits: one thread chases a chain of
# lines that are a power of two apart (kernels/microbench/pointer_chase.json with `stride`
# words between lines and n/stride lines in the chain). With 256 sets picked by bits 7-14 of
# the address, lines 32 KB apart all fall into one set and more than its ways cannot stay
# in the L1; with hashed set bits they can. Timed by ncu (caches flushed, 4096 steps).
# Run from the repository root on the GPU machine:  tools/calibration/h100_l1_sets.sh OUTDIR
# Writes OUTDIR/h100_l1_sets.csv (spec variant, ns, SM cycles).
set -uo pipefail
out=${1:?usage: h100_l1_sets.sh OUTDIR}
here=$(cd "$(dirname "$0")" && pwd)
export PATH=/usr/local/cuda/bin:$PATH
mkdir -p "$out"
work=$(mktemp -d)
nvcc -O2 -o "$work/launch" "$here/spec_launch.cu" -lcuda
p=kernels/microbench/pointer_chase.json
variants=()
for lines in 4 8 16 32 64 128 256; do variants+=("$p:stride=8192,n=$((8192 * lines)),steps=4096"); done
for lines in 16 32 64 128 256 512; do variants+=("$p:stride=2048,n=$((2048 * lines)),steps=4096"); done
for lines in 64 256 1024; do variants+=("$p:stride=32,n=$((32 * lines)),steps=4096"); done
python3 "$here/spec_plan.py" "$work/sets.plan" "${variants[@]}"
ncu --clock-control none --cache-control all --csv --print-units base \
  --metrics gpu__time_duration.sum,sm__cycles_elapsed.max \
  "$work/launch" "$work/sets.plan" once 2> "$out/h100_l1_sets_stderr.txt" > "$work/raw.csv"
python3 "$here/ncu_launches.py" "$work/raw.csv" --header variant,ncu_time_ns,sm_cycles_max \
  gpu__time_duration.sum sm__cycles_elapsed.max > "$out/h100_l1_sets.csv"
rm -rf "$work"
cat "$out/h100_l1_sets.csv"
