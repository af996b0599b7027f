#!/usr/bin/env bash
# Measures load latencies on the simulated devices with the pointer-chase microbenchmark
# (kernels/microbench/pointer_chase.json) and prints one row per memory level:
# cycles per chase step, and the average SM cycles from a load's issue to its data.
# docs/calibration.md compares them with published measurements.
#   tools/calibrate_latency.sh [path/to/warpsim]
set -euo pipefail
cd "$(dirname "$0")/.."
warpsim="${1:-build/tools/warpsim}"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
printf "%-8s %-26s %10s %10s %14s %8s %8s\n" device level footprint steps cycles/step load_lat l2_hit%
run() {  # device level n steps
  "$warpsim" run kernels/microbench/pointer_chase.json --config "$1" --var n="$3" --var steps="$4" \
    --json "$tmp/r.json" >/dev/null
  python3 - "$tmp/r.json" "$1" "$2" "$3" "$4" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))["metrics"]
dev, level, n, steps = sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
l2 = m.get("l2_hit_rate")
print(f"{dev:<8} {level:<26} {n*4//1024:>8}KB {steps:>10} {m['elapsed_cycles_sm']/steps:>14.1f} "
      f"{m['average_memory_latency_cycles']:>8.1f} {('-' if l2 is None else f'{l2:.1f}'):>8}")
PY
}
run c2070 "L1 hit" 2048 8192
run c2070 "L2 hit (after 1st pass)" 65536 65536
run c2070 "DRAM" 1048576 2048
run fx5800 "DRAM (no cache)" 1048576 2048
