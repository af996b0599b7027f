#!/bin/bash
# Compares two builds of bench_sim on this noisy machine by alternating them: runs each N
# times in turn (A, B, A, B, ...) and prints the tiled-matmul timing-mode figure
# (M warp instructions per second) of every run, per binary, sorted.
# usage: tools/bench/alternate.sh N path/to/bench_sim_A path/to/bench_sim_B [c2070|fx5800]
# (give the two binaries different file names: they are reported by name)
set -euo pipefail
if [ $# -lt 3 ]; then
  echo "usage: $0 N bench_sim_A bench_sim_B [config]" >&2
  exit 2
fi
n=$1; a=$2; b=$3; cfg=${4:-c2070}
for x in "$a" "$b"; do
  [ -x "$x" ] || { echo "$0: $x is not an executable" >&2; exit 2; }
done
for i in $(seq "$n"); do
  for x in "$a" "$b"; do
    v=$("$x" --repeat 1 --config "$cfg" 2>&1 | grep tiled | awk '{print $(NF-1)}')
    echo "$(basename "$x") $v"
  done
done | sort | awk '{r[$1]=r[$1]" "$2} END {for (k in r) print k ":" r[k]}'
