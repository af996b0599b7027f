#!/usr/bin/env bash
# Runs tests/750_runtime/programs/stream_order.cu natively on a real NVIDIA GPU in each of
# its modes, with and without CUDA_LAUNCH_BLOCKING=1, three times each: when a launched
# kernel runs relative to the host code after it, and when its device printf output
# appears (stream_order.expected is the `all` mode's stdout).
#   tools/runtime/stream_order_ground_truth.sh OUT_DIR      # on the device machine
# Writes OUT_DIR/MODE[_blocking]_RUN.{out,err} (RUN 1-3) and OUT_DIR/gpu.txt.
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${1:?usage: tools/runtime/stream_order_ground_truth.sh OUT_DIR}
source tools/runtime/ground_truth_common.sh
ground_truth_setup "$out"
"$nvcc" -arch=native -cudart shared -o "$out/stream_order" tests/750_runtime/programs/stream_order.cu
for run in 1 2 3; do
  for mode in all printf unsynced; do
    "$out/stream_order" $mode > "$out/${mode}_$run.out" 2> "$out/${mode}_$run.err" || echo "exit status $?" >> "$out/${mode}_$run.err"
    [ $mode = all ] && continue  # (its latch kernel would hold a blocking launch for ever)
    CUDA_LAUNCH_BLOCKING=1 "$out/stream_order" $mode > "$out/${mode}_blocking_$run.out" \
      2> "$out/${mode}_blocking_$run.err" || echo "exit status $?" >> "$out/${mode}_blocking_$run.err"
  done
done
rm -f "$out/stream_order"
cat "$out/gpu.txt"
for f in "$out"/*_1.out; do echo "== $f"; cat "$f"; done
