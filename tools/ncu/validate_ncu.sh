#!/bin/bash
# Measures the memory counts of the textbook kernels in tools/ncu/cases.txt on a real GPU
# with Nsight Compute. Needs nvcc and ncu (CUDA at /usr/local/cuda). Writes OUTDIR/ncu_counts.csv
# (case,metric,value) and OUTDIR/gpu.txt; tools/ncu/compare_ncu.py compares them with warpsim.
#   tools/ncu/validate_ncu.sh OUTDIR [ARCH]      e.g. tools/ncu/validate_ncu.sh out sm_90
set -euo pipefail
out=${1:?usage: validate_ncu.sh OUTDIR [ARCH]}
arch=${2:-native}
here=$(cd "$(dirname "$0")" && pwd)
export PATH=/usr/local/cuda/bin:$PATH
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
nvcc -O3 -arch="$arch" -o "$work/ncu_counts" "$here/ncu_counts.cu"
# Every Nsight Compute metric named in metrics.txt, comma-separated.
metrics=$(grep -v '^#' "$here/metrics.txt" | cut -d'|' -f2 | tr -s ' \n' ',' | sed 's/^,//; s/,$//')
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$out/gpu.txt"
ncu --version | tail -1 >> "$out/gpu.txt"
echo "case,metric,value" > "$out/ncu_counts.csv"
grep -v '^#' "$here/cases.txt" | while IFS='|' read -r name args _; do
  name=$(echo $name)
  # shellcheck disable=SC2086
  ncu --csv --print-units base --metrics "$metrics" "$work/ncu_counts" $args < /dev/null > "$work/$name.csv"
  # ncu's CSV: the metric name and value are the last-but-two and last columns.
  python3 - "$work/$name.csv" "$name" >> "$out/ncu_counts.csv" <<'PY'
import csv, sys
rows = [r for r in csv.reader(open(sys.argv[1])) if len(r) > 3 and r[0] != "ID"]
for r in rows:
    print(f"{sys.argv[2]},{r[-3]},{r[-1].replace(',', '')}")
PY
done
echo "wrote $(($(wc -l < "$out/ncu_counts.csv") - 1)) measurements to $out/ncu_counts.csv"
