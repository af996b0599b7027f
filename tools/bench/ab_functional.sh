#!/bin/bash
# Compares warpsim builds on functional runs by alternating them (A, B, ..., A, B, ...), so
# that a drift in a shared machine's speed touches every build alike:
#   - tiled matmul 512x512 on the C2070, one thread (compute-bound: the executor);
#   - the copy kernel on 8192x4096 floats on the H100 config, one thread and two
#     (memory-bound: the functional caches, 50 MB of L2 tags and 132 L1s).
# Prints every run's launch time (the report's host_seconds) per workload and build, their
# median, and whether each build's reports (less host times) equal the first build's.
# usage: tools/bench/ab_functional.sh ROUNDS path/to/warpsim_A path/to/warpsim_B [...]
# CPUS (default: none) pins the one-thread runs with taskset, e.g. CPUS=3; CPUS2 (e.g. 4,5)
# the two-thread runs. Give the builds different file names: they are reported by name.
set -euo pipefail
if [ $# -lt 3 ]; then
  echo "usage: $0 ROUNDS warpsim_A warpsim_B [...]" >&2
  exit 2
fi
rounds=$1
shift
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
for x in "$@"; do
  [ -x "$x" ] || { echo "$0: $x is not an executable" >&2; exit 2; }
done
pin() { if [ -n "${1:-}" ]; then echo "taskset -c $1"; fi; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
copy=(kernels/transpose/copy_2048.json --config h100 --functional --var width=8192 --var height=4096)
for r in $(seq "$rounds"); do
  for x in "$@"; do
    b=$(basename "$x")
    $(pin "${CPUS:-}") "$x" run kernels/matmul/matmul_tiled_512.json --config c2070 --functional --threads 1 \
      --json "$work/mm_$b.json" >/dev/null
    $(pin "${CPUS:-}") "$x" run "${copy[@]}" --threads 1 --json "$work/cp1_$b.json" >/dev/null
    $(pin "${CPUS2:-}") "$x" run "${copy[@]}" --threads 2 --json "$work/cp2_$b.json" >/dev/null
    for w in mm cp1 cp2; do
      echo "$w $b $(grep -o '"host_seconds": *[0-9.e-]*' "$work/${w}_$b.json" | head -1 | awk '{print $2}')"
    done
  done
done >"$work/times.txt"
python3 - "$work" "$@" <<'PY'
import collections, json, os, statistics, sys
work, builds = sys.argv[1], [os.path.basename(b) for b in sys.argv[2:]]
names = {"mm": "matmul 512 c2070, 1 thread", "cp1": "copy 8192x4096 h100, 1 thread",
         "cp2": "copy 8192x4096 h100, 2 threads"}
runs = collections.defaultdict(list)
for line in open(os.path.join(work, "times.txt")):
    w, b, s = line.split()
    runs[(w, b)].append(float(s))
for w in names:
    for b in builds:
        v = runs[(w, b)]
        print(f"{names[w]:32} {b:16} median {statistics.median(v):6.3f} s   runs {' '.join(f'{x:.3f}' for x in v)}")
def strip(d):
    if isinstance(d, dict): return {k: strip(v) for k, v in d.items() if "host" not in k}
    if isinstance(d, list): return [strip(x) for x in d]
    return d
for w in names:
    ref = strip(json.load(open(os.path.join(work, f"{w}_{builds[0]}.json"))))
    for b in builds[1:]:
        same = strip(json.load(open(os.path.join(work, f"{w}_{b}.json")))) == ref
        print(f"reports of {names[w]}: {b} {'equal' if same else 'DIFFERENT'} to {builds[0]}")
PY
