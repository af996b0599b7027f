#!/usr/bin/env bash
# Runs tools/runtime/measure_cuda_samples.sh on the device machine's CPU cores (its GPU plays
# no part: warpsim simulates), which each device call gives about ten minutes.
#
# Here, once:   tools/runtime/device_cuda_samples.sh prepare CUDA_SAMPLES_DIR
#   packs a source-only copy of cuda-samples (files over 2 MB and doc/ folders left out, so
#   that it travels with a device call) as .meas/cs.tar.gz, and this build's warpsim with the
#   libraries it needs (libcudart.so.13/.12, libcuda.so.1, libfmt, libzstd, liblz4) as
#   .meas/BIN/{bin,lib}.
# On the device (carry .meas/cs.tar.gz, .meas/BIN):
#   tools/runtime/device_cuda_samples.sh run FILTER "EXEC_ARGS" NAME
#   FILTER is measure_cuda_samples.sh's (e.g. 0_Introduction,1_Utilities); the rows,
#   summary and the tail of every program's output (logs.tgz) land in $OUT/NAME.
#   JOBS (default 8), TIME_LIMIT (default 90), CONFIG (default configs/h100.json) and
#   OUTER (seconds for the whole script, default 570) override; a run OUTER stops keeps the
#   finished folders' rows as programs_partial.tsv and ptx_partial.tsv.
set -uo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
meas=$here/.meas

case "${1:-}" in
  prepare)
    src=${2:?usage: $0 prepare CUDA_SAMPLES_DIR}
    rm -rf "$meas/cuda-samples" "$meas/BIN" && mkdir -p "$meas/cuda-samples" "$meas/BIN/bin" "$meas/BIN/lib"
    (cd "$src" && find . -path ./.git -prune -o -type d -name doc -prune -o -type f -size -2097152c -print0 |
      tar cf - --null -T -) | tar xf - -C "$meas/cuda-samples"
    (cd "$meas" && tar czf cs.tar.gz cuda-samples)
    cp -L "$here/build/tools/warpsim" "$meas/BIN/bin/"
    cp -a "$here/build/lib/." "$meas/BIN/lib/"
    for lib in libfmt.so.9 libzstd.so.1 liblz4.so.1; do cp -L "/lib/x86_64-linux-gnu/$lib" "$meas/BIN/lib/"; done
    strip "$meas/BIN/bin/warpsim" "$meas/BIN/lib/"libcud* 2>/dev/null
    du -sh "$meas/cs.tar.gz" "$meas/BIN"
    ;;
  run)
    filter=${2:?usage: $0 run FILTER EXEC_ARGS NAME} exec_args=${3-} name=${4:?usage: $0 run FILTER EXEC_ARGS NAME}
    out=${OUT:?OUT: the output folder of the device call}/$name
    (cd "$meas" && tar xzf cs.tar.gz) || exit 1
    export LD_LIBRARY_PATH=$meas/BIN/lib
    nproc; uptime
    CONFIG=${CONFIG:-$here/configs/h100.json} JOBS=${JOBS:-8} TIME_LIMIT=${TIME_LIMIT:-90} WORK_DIR=/tmp/m/wd \
      WARPSIM=$meas/BIN/bin/warpsim EXEC_ARGS="$exec_args" \
      timeout "${OUTER:-570}" "$here/tools/runtime/measure_cuda_samples.sh" "$meas/cuda-samples" "$out" "$filter"
    # Stopped by OUTER before its end: keep the rows the finished folders wrote.
    if [ ! -s "$out/programs.tsv" ] && [ -d "$out/parts" ]; then
      cat "$out/parts"/*.prog > "$out/programs_partial.tsv" 2>/dev/null
      cat "$out/parts"/*.ptx > "$out/ptx_partial.tsv" 2>/dev/null
      rm -rf "$out/parts"
    fi
    mkdir -p "$out/logs"
    (cd /tmp/m/wd && for f in *.run.out *.run.err; do [ -s "$f" ] && tail -c 1500 "$f" > "$out/logs/$f"; done)
    (cd "$out" && tar czf logs.tgz logs && rm -rf logs)
    ;;
  *)
    echo "usage: $0 prepare CUDA_SAMPLES_DIR | run FILTER EXEC_ARGS NAME" >&2
    exit 2
    ;;
esac
