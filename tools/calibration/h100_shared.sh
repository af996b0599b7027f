#!/bin/bash
# Where the shared-memory kernels spend their time on the H100 (docs/calibration.md,
# "Shared-memory kernels"): the SASS ptxas makes for sm_90 from the checked-in PTX, and, per
# launch, ncu's instruction mix, shared-memory wavefronts and the warp-stall breakdown.
# Run from the repository root on the GPU machine:  tools/calibration/h100_shared.sh OUTDIR
# Writes OUTDIR/h100_shared_sass.txt and OUTDIR/h100_shared_ncu.csv (ncu --page raw).
set -uo pipefail
out=${1:?usage: h100_shared.sh OUTDIR}
here=$(cd "$(dirname "$0")" && pwd)
export PATH=/usr/local/cuda/bin:$PATH
mkdir -p "$out"
work=$(mktemp -d)
{
  for p in kernels/matmul/*.ptx kernels/divergence/per_thread_sum.ptx; do
    echo "##### $p"
    ptxas -arch=sm_90 -O3 -o "$work/k.cubin" "$p" && cuobjdump -sass "$work/k.cubin"
  done
  echo "##### kernels/reduction/harris_reduction.ptx (reduce0 and reduce1 only)"
  ptxas -arch=sm_90 -O3 -o "$work/k.cubin" kernels/reduction/harris_reduction.ptx &&
    cuobjdump -sass -fun _Z7reduce0PKiPi,_Z7reduce1PKiPi "$work/k.cubin"
} > "$out/h100_shared_sass.txt" 2>&1
nvcc -O2 -o "$work/launch" "$here/spec_launch.cu" -lcuda
specs="kernels/matmul/*.json kernels/divergence/per_thread_sum.json kernels/transpose/*.json
       kernels/reduction/harris_reduce0.json kernels/reduction/harris_reduce1.json kernels/reduction/harris_reduce2.json"
python3 "$here/spec_plan.py" "$work/shared.plan" $specs
ncu --clock-control none --cache-control all --csv --page raw --print-units base \
  --section SpeedOfLight --section WarpStateStats --section InstructionStats \
  --section MemoryWorkloadAnalysis_Tables --section ComputeWorkloadAnalysis --section SchedulerStats \
  "$work/launch" "$work/shared.plan" once 2> "$out/h100_shared_ncu_stderr.txt" | grep -v '^==' > "$out/h100_shared_ncu.csv"
rm -rf "$work"
ls -la "$out"
