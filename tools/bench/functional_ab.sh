#!/usr/bin/env bash
# bench_sim's functional mode (tiled matmul 512, one thread) with two builds alternated on
# one CPU core, so that a drift of the machine falls on both: per round, per build and
# config, the best of `--repeat 3` in host seconds and M warp instructions per second.
# Each build's bench_sim in DIR/bin and its libraries (libfmt) in DIR/lib, e.g. the
# ignored .meas/BIN_base and .meas/BIN_new carried to the device machine.
#   tools/bench/functional_ab.sh BASE_DIR NEW_DIR [ROUNDS] [CORE]
set -uo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
base=${1:?usage: $0 BASE_DIR NEW_DIR [ROUNDS] [CORE]} new=${2:?usage} rounds=${3:-3} core=${4:-0}
for ((r = 1; r <= rounds; ++r)); do
  for v in "$base" "$new"; do
    for c in c2070 h100; do
      line=$(LD_LIBRARY_PATH=$v/lib taskset -c "$core" "$v/bin/bench_sim" --functional-only --repeat 3 --threads 1 \
               --config "$here/configs/$c.json" 2>&1 | grep -E "matmul" | awk '{print $(NF-1), $NF}')
      echo "round $r $(basename "$v") $c: $line"
    done
  done
done
