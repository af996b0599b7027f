#!/usr/bin/env bash
# Functional speed with the blocks on threads, on a host limited to 2 and to 4 cores with
# taskset (so a many-core host measures what a 2- or 4-core machine gives): bench_sim prints
# 1 thread against T threads in one run, best of 3 each, and what the parallel path did.
#   tools/bench/functional_threads.sh [BENCH_SIM] [ROUNDS]
# Needs 6 cores (it uses cores 2-5, leaving 0-1 to the rest of the machine). Run on the
# device machine with the bench binary and its libraries carried (docs/performance.md).
set -euo pipefail
bench=${1:-build/tools/bench_sim}
rounds=${2:-2}
nproc; uptime
for r in $(seq "$rounds"); do
  for cfg in c2070 h100; do
    echo "== round $r, $cfg, 2 cores, 2 threads"
    taskset -c 2,3 "$bench" --functional-only --repeat 3 --config "$cfg" --threads 2 | tail -6
  done
done
echo "== c2070, 4 cores, 4 threads"
taskset -c 2,3,4,5 "$bench" --functional-only --repeat 3 --config c2070 --threads 4 | tail -6
