#!/usr/bin/env bash
# Effective bandwidth (2 x 16 MiB / kernel time) of the matrix-transpose variants of
# Ruetsch & Micikevicius, "Optimizing Matrix Transpose in CUDA", 2048x2048 floats, on both
# simulated devices; docs/calibration.md compares them with the paper's measurements.
#   tools/calibrate_transpose.sh [path/to/warpsim]
set -euo pipefail
cd "$(dirname "$0")/.."
warpsim="${1:-build/tools/warpsim}"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
printf "%-28s %12s %12s\n" kernel "FX5800 GB/s" "C2070 GB/s"
for k in copy copy_shared_mem transpose_naive transpose_coalesced transpose_no_bank_conflicts transpose_diagonal; do
  printf "%-28s" "$k"
  for c in fx5800 c2070; do
    "$warpsim" run "kernels/transpose/${k}_2048.json" --config "$c" --json "$tmp/r.json" >/dev/null
    python3 -c "import json;m=json.load(open('$tmp/r.json'))['metrics'];print(f\"{2*2048*2048*4/m['duration_ns']:12.1f}\",end=' ')"
  done
  echo
done
