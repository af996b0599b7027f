# Sourced by the calibration scripts that run one program on the GPU machine and under
# `warpsim exec` here (carveout, dram_inflight, kept_caches, l2_partitions):
#   here=$(cd "$(dirname "$0")" && pwd)
#   source "$here/common.sh" "USAGE" "$@"
# gives strict mode, `mode` and `out` from the first two arguments (OUT created), the CUDA
# toolkit on PATH, `work` (a directory removed at exit), `build NAME` (nvcc NAME.cu for sm_90
# into $work/NAME, linked to the shared cudart so warpsim's can stand in) and
# `default_warpsim` (this checkout's build/tools/warpsim).
set -euo pipefail
calibration_usage=$1
shift
mode=${1:?usage: $calibration_usage}
out=${2:?usage: $calibration_usage}
export PATH=/usr/local/cuda/bin:$PATH
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
default_warpsim=$(cd "$here/../.." && pwd)/build/tools/warpsim
build() { nvcc -O3 -arch=sm_90 -cudart shared -o "$work/$1" "$here/$1.cu"; }
