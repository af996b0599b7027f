#!/bin/bash
# Measures on the GPU how one warp's 32-, 64- and 128-bit shared loads and stores split into
# wavefronts: every pattern of tools/ncu/shared_wide_cases.txt, one launch each, counted by
# Nsight Compute. Writes OUTDIR/h100_shared_wide.csv (case,kind,wavefronts,bank_conflicts,
# instructions) and OUTDIR/h100_shared_wide_gpu.txt.
#   tools/ncu/shared_wide.sh OUTDIR        (repository root, on the GPU machine)
set -euo pipefail
out=${1:?usage: shared_wide.sh OUTDIR}
here=$(cd "$(dirname "$0")" && pwd)
export PATH=/usr/local/cuda/bin:$PATH
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
nvcc -O3 -arch=sm_90 -o "$work/shared_wide" "$here/shared_wide.cu"
cuobjdump -sass "$work/shared_wide" | grep -E "Function|LDS|STS" > "$out/h100_shared_wide_sass.txt"
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; ncu --version | tail -1; } > "$out/h100_shared_wide_gpu.txt"
m=l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,smsp__sass_inst_executed_op_shared_ld.sum,smsp__sass_inst_executed_op_shared_st.sum
ncu --csv --print-units base --metrics "$m" "$work/shared_wide" "$here/shared_wide_cases.txt" > "$work/raw.csv"
python3 - "$work/raw.csv" > "$out/h100_shared_wide.csv" <<'PY'
import csv, sys
lines = open(sys.argv[1]).read().splitlines()
order = [l.rsplit(',', 1)[0] for l in lines if l.endswith(',launched')]
start = next(i for i, l in enumerate(lines) if l.startswith('"ID"'))
by = {}
for r in csv.DictReader(lines[start:]):
    by.setdefault(int(r['ID']), {})[r['Metric Name']] = r['Metric Value'].replace(',', '')
print('case,kind,wavefronts,bank_conflicts,instructions')
for i, name in enumerate(order):
    m, k = by[i], name.rsplit(',', 1)[1]
    print(f"{name},{m[f'l1tex__data_pipe_lsu_wavefronts_mem_shared_op_{k}.sum']},"
          f"{m[f'l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_{k}.sum']},"
          f"{m[f'smsp__sass_inst_executed_op_shared_{k}.sum']}")
PY
wc -l "$out/h100_shared_wide.csv"
