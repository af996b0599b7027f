#!/usr/bin/env bash
# Checks the CUDA 12 layouts warpsim's libcudart.so.12 uses (sim/runtime/cuda_abi12.hpp)
# against a CUDA 12 toolkit's own headers: every field's offset and every struct's size
# must be equal. CI has only CUDA 13, so this is run by hand where CUDA 12 headers are
# (a CUDA 12 toolkit, or a Python wheel that ships them); docs/runtime.md records the run.
#   tools/runtime/check_cuda12_layouts.sh /usr/local/cuda-12.8/include
set -euo pipefail
inc=${1:?usage: check_cuda12_layouts.sh CUDA12_INCLUDE_DIR}
root=$(cd "$(dirname "$0")/../.." && pwd)
grep -q "define CUDART_VERSION *12" "$inc/cuda_runtime_api.h" || { echo "$inc is not a CUDA 12 include folder" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# One static_assert per field of each struct, from the field names in cuda_abi12.hpp.
python3 - "$root/sim/runtime/cuda_abi12.hpp" > "$work/check.cpp" <<'PY'
import re, sys
src = open(sys.argv[1]).read()
print('#include <cstddef>\n#include <cuda_runtime_api.h>\n#include "sim/runtime/cuda_abi12.hpp"')
for ours, theirs in [("DeviceProp", "cudaDeviceProp"), ("PointerAttributes", "cudaPointerAttributes")]:
    body = re.search(r"struct %s \{(.*?)\n\};" % ours, src, re.S).group(1)
    fields = re.findall(r"^\s+[\w: ]+?\s(\w+)(?:\[\d+\])?;", body, re.M)
    print(f'static_assert(sizeof(warpsim::cuda12::{ours}) == sizeof({theirs}), "{theirs} size");')
    for f in fields:
        print(f'static_assert(offsetof(warpsim::cuda12::{ours}, {f}) == offsetof({theirs}, {f}), "{theirs}::{f}");')
    print(f'// {theirs}: {len(fields)} fields')
for f in ["resType", "res"]:
    print(f'static_assert(offsetof(warpsim::cuda12::ResourceDesc, {f}) == offsetof(cudaResourceDesc, {f}), "cudaResourceDesc::{f}");')
print('static_assert(sizeof(warpsim::cuda12::ResourceDesc) == sizeof(cudaResourceDesc), "cudaResourceDesc size");')
PY
g++ -std=c++20 -fsyntax-only -I"$root" -I"$inc" "$work/check.cpp"
echo "cuda_abi12.hpp matches $(grep -m1 'define CUDART_VERSION' "$inc/cuda_runtime_api.h" | tr -s ' '):" \
  "$(grep -c static_assert "$work/check.cpp") layout checks passed"
