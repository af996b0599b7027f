#!/usr/bin/env bash
# Measures warpsim against NVIDIA's public cuda-samples (brought with the search tool's
# fetch; nothing of it is copied into this repository):
#   1. every .cu under Samples/ compiled to PTX (nvcc -ptx -arch=sm_75), loaded by
#      `warpsim inspect`: does it load, else the first unsupported construct;
#   2. every sample folder built as a program with nvcc -cudart shared and run under
#      `warpsim exec` (functional mode, a time limit): does it print its own pass line.
# Usage: tools/runtime/measure_cuda_samples.sh CUDA_SAMPLES_DIR OUT_DIR [SAMPLE_FILTER]
# Writes OUT_DIR/ptx.tsv, OUT_DIR/programs.tsv and OUT_DIR/summary.txt.
set -uo pipefail
root=$(cd "$1" && pwd)
out=$(mkdir -p "$2" && cd "$2" && pwd)
filter=${3:-}
here=$(cd "$(dirname "$0")/../.." && pwd)
warpsim=${WARPSIM:-$here/build/tools/warpsim}
nvcc=${NVCC:-/usr/local/cuda/bin/nvcc}
limit=${TIME_LIMIT:-300}
# WORK_DIR keeps nvcc's outputs between runs (re-measuring a new warpsim build then only
# re-runs warpsim); by default a temporary folder.
if [ -n "${WORK_DIR:-}" ]; then work=$(mkdir -p "$WORK_DIR" && cd "$WORK_DIR" && pwd); else work=$(mktemp -d); trap 'rm -rf "$work"' EXIT; fi
[ -x "$warpsim" ] || { echo "measure: $warpsim not built" >&2; exit 1; }
[ -x "$nvcc" ] || { echo "measure: $nvcc not found" >&2; exit 1; }

printf 'file\tresult\tdetail\n' > "$out/ptx.tsv"
printf 'sample\tresult\thost_seconds\tdetail\n' > "$out/programs.tsv"
common="-I$root/Common"

for dir in $(find "$root/Samples" -mindepth 2 -maxdepth 2 -type d | sort); do
  name=$(basename "$dir")
  [ -n "$filter" ] && [[ "$name" != *$filter* ]] && continue
  cus=$(find "$dir" -maxdepth 1 -name '*.cu' | sort)
  [ -z "$cus" ] && continue
  # 1. PTX of each translation unit.
  for cu in $cus; do
    rel=${cu#$root/}
    ptx="$work/$(echo "$rel" | tr '/' '_').ptx"
    if [ ! -s "$ptx" ] && ! "$nvcc" -ptx -arch=sm_75 -lineinfo $common -I"$dir" -o "$ptx" "$cu" >"$work/nvcc.log" 2>&1; then
      rm -f "$ptx"
      printf '%s\tno_ptx\t%s\n' "$rel" "$(grep -m1 -i error "$work/nvcc.log" | cut -c1-160)" >> "$out/ptx.tsv"
      continue
    fi
    if "$warpsim" inspect "$ptx" >"$work/inspect.log" 2>&1; then
      printf '%s\tloads\t\n' "$rel" >> "$out/ptx.tsv"
    else
      printf '%s\tfails\t%s\n' "$rel" "$(grep -m1 -v 'does not load' "$work/inspect.log" | sed 's/^ *//; s/.*\.ptx:[0-9]*:[0-9]*: //' | cut -c1-160)" >> "$out/ptx.tsv"
    fi
  done
  # 2. The program.
  srcs=$(find "$dir" -maxdepth 1 \( -name '*.cu' -o -name '*.cpp' \) | sort)
  app="$work/$name.app"
  if [ ! -x "$app" ] && ! "$nvcc" -cudart shared -arch=sm_75 -lineinfo -w $common -I"$dir" -o "$app" $srcs >"$work/build.log" 2>&1; then
    printf '%s\tno_build\t\t%s\n' "$name" "$(grep -m1 -iE 'error|undefined' "$work/build.log" | cut -c1-160)" >> "$out/programs.tsv"
    continue
  fi
  start=$(date +%s.%N)
  (cd "$dir" && timeout "$limit" "$warpsim" exec --functional --no-summary -- "$app") >"$work/run.out" 2>"$work/run.err" </dev/null
  rc=$?
  secs=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
  last=$(grep -v '^$' "$work/run.out" | tail -1 | cut -c1-120)
  werr=$(grep -m1 'warpsim' "$work/run.err" | cut -c1-200)
  if [ $rc -eq 124 ]; then result=timeout; detail="over ${limit} s"
  elif [ $rc -eq 2 ] && grep -qi 'waiv' "$work/run.out"; then result=waived; detail="$last"
  elif [ $rc -eq 0 ] && grep -qiE 'pass|success|test passed|correct' "$work/run.out" && ! grep -qiE 'fail' "$work/run.out"; then result=pass; detail="$last"
  elif [ $rc -eq 0 ]; then result=exit0; detail="$last"
  else result=fail; detail="rc=$rc ${werr:-$last}"
  fi
  printf '%s\t%s\t%s\t%s\n' "$name" "$result" "$secs" "$detail" >> "$out/programs.tsv"
done

{
  echo "cuda-samples at $(cd "$root" && git rev-parse --short HEAD 2>/dev/null || echo '?'), $(date -u +%Y-%m-%d), $("$nvcc" --version | tail -1)"
  total=$(($(wc -l < "$out/ptx.tsv") - 1))
  made=$(grep -vc $'\tno_ptx\t' "$out/ptx.tsv"); made=$((made - 1))
  loads=$(grep -c $'\tloads\t' "$out/ptx.tsv")
  echo "PTX: $total .cu files, $made compile to PTX with nvcc, $loads of those load in warpsim"
  echo "first unsupported construct, by count:"
  awk -F'\t' '$2=="fails"{print $3}' "$out/ptx.tsv" | sed 's/[0-9]\+/N/g' | sort | uniq -c | sort -rn | head -20
  echo "programs: $(($(wc -l < "$out/programs.tsv") - 1)) sample folders"
  awk -F'\t' 'NR>1{print $2}' "$out/programs.tsv" | sort | uniq -c | sort -rn
} > "$out/summary.txt"
cat "$out/summary.txt"
