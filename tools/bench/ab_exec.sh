#!/usr/bin/env bash
# Times one CUDA program under `warpsim exec` with two warpsim builds, alternated (A B, then
# B A, ...) so that the machine's drift falls on both: each run's wall and user CPU seconds,
# then each build's median and range. Each build's libcudart.so.13/libcuda.so.1 must be in
# the lib/ folder beside its bin/ (as an install or a copied build has them), or be the
# build tree's own.
#   tools/bench/ab_exec.sh ROUNDS WARPSIM_A WARPSIM_B EXEC_OPTIONS -- ./app ARGS
#   e.g. tools/bench/ab_exec.sh 5 /tmp/base/bin/warpsim build/tools/warpsim "--config h100 --functional" -- ./matrixMul
set -euo pipefail
rounds=$1 a=$2 b=$3 opts=$4
shift 4
[ "${1:-}" = -- ] && shift
declare -A wall user
run() {
  local bin=$1 out
  out=$(mktemp)
  /usr/bin/time -o "$out" -f "%e %U" "$bin" exec $opts --no-summary -- "${@:2}" > /dev/null 2> /dev/null
  tail -1 "$out"
  rm -f "$out"
}
for ((r = 1; r <= rounds; ++r)); do
  if ((r % 2)); then order="$a $b"; else order="$b $a"; fi
  for bin in $order; do
    t=$(run "$bin" "$@")
    wall[$bin]+="${t% *} "
    user[$bin]+="${t#* } "
    echo "round $r $bin: ${t% *} s wall, ${t#* } s user"
  done
done
stat() { tr ' ' '\n' | grep . | sort -n | awk '{v[NR]=$1} END {printf "median %.2f (%.2f-%.2f)", v[int((NR+1)/2)], v[1], v[NR]}'; }
for bin in $a $b; do
  echo "$bin: wall $(echo "${wall[$bin]}" | stat), user $(echo "${user[$bin]}" | stat)"
done
