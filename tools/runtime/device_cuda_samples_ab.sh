#!/usr/bin/env bash
# Two warpsim builds on the same cuda-samples folders, side by side on the device machine's
# CPU cores (its GPU plays no part), so that both see the same load: an A/B of speed on
# whole programs, each folder's result and seconds from tools/runtime/measure_cuda_samples.sh.
#
# Here: a source-only copy of cuda-samples packed as .meas/cs.tar.gz (as
#   tools/runtime/device_cuda_samples.sh prepare makes it, or only the folders wanted), and
#   each build's warpsim with its libraries in .meas/BIN_base/{bin,lib} and .meas/BIN_new/{bin,lib}.
# On the device (carry .meas/cs.tar.gz, .meas/BIN_base, .meas/BIN_new):
#   tools/runtime/device_cuda_samples_ab.sh NAMES "EXEC_ARGS"
#   NAMES: sample folder names separated by | (e.g. "BlackScholes|scan|eigenvalues").
#   JOBS (per build, default 8), TIME_LIMIT (default 90), CONFIG (default configs/h100.json)
#   and OUTER (default 565) override. Rows land in $OUT/base and $OUT/new.
set -uo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
meas=$here/.meas
names=${1:?usage: $0 NAMES EXEC_ARGS} exec_args=${2-}
out=${OUT:?OUT: the output folder of the device call}
(cd "$meas" && tar xzf cs.tar.gz) || exit 1
filter=$(cd "$meas/cuda-samples/Samples" && ls -d */* | grep -E "/($names)\$" | paste -sd,)
nproc; uptime
for v in base new; do
  (export LD_LIBRARY_PATH=$meas/BIN_$v/lib
   CONFIG=${CONFIG:-$here/configs/h100.json} JOBS=${JOBS:-8} TIME_LIMIT=${TIME_LIMIT:-90} WORK_DIR=/tmp/m_$v/wd \
     WARPSIM=$meas/BIN_$v/bin/warpsim EXEC_ARGS="$exec_args" \
     timeout "${OUTER:-565}" "$here/tools/runtime/measure_cuda_samples.sh" "$meas/cuda-samples" "$out/$v" "$filter" \
     > "$out/$v.log" 2>&1) &
done
wait
for v in base new; do echo "== $v"; cat "$out/$v/programs.tsv" 2>/dev/null || ls "$out/$v"; done
