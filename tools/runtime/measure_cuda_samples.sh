#!/usr/bin/env bash
# Measures warpsim against NVIDIA's public cuda-samples (brought with the search tool's
# fetch; nothing of it is copied into this repository):
#   1. every .cu under Samples/ compiled to PTX (nvcc -ptx -arch=$ARCH, sm_75 unless set), loaded by
#      `warpsim inspect`: does it load, else the first unsupported construct;
#   2. every sample folder built as a program with nvcc -cudart shared and run under
#      `warpsim exec` (functional mode, TIME_LIMIT seconds): does it end with its own pass.
# Usage: tools/runtime/measure_cuda_samples.sh CUDA_SAMPLES_DIR OUT_DIR [PATH_FILTER]
#   PATH_FILTER (e.g. 0_Introduction or 0_Introduction/vectorAdd, or several separated by
#   commas) keeps the folders whose path contains one as whole path components. JOBS=N runs N folders at once (default 2).
#   WORK_DIR keeps nvcc's outputs between runs; WARPSIM, NVCC, CONFIG, TIME_LIMIT, ARCH
#   (nvcc's -arch, sm_75 unless set: sm_90 gives the PTX an H100 user's build carries) override;
#   EXEC_ARGS adds options to `warpsim exec` (e.g. "--threads 2").
#   PTX_ONLY=1 measures the PTX alone (step 1; programs.tsv stays empty).
# Writes OUT_DIR/ptx.tsv, OUT_DIR/programs.tsv and OUT_DIR/summary.txt.
set -uo pipefail

# One sample folder: appends its rows to $parts/NAME.ptx and $parts/NAME.prog.
measure_folder() {
  local dir=$1 parts=$2 name rel ptx app rc secs last werr result detail start
  name=$(basename "$dir")
  local common="-I$root/Common"
  # Separable compilation (dynamic parallelism): relocatable device code, as CMake builds it.
  grep -qs 'CUDA_SEPARABLE_COMPILATION ON' "$dir/CMakeLists.txt" && common="$common -rdc=true"
  for cu in $(find "$dir" -maxdepth 1 -name '*.cu' | sort); do
    rel=${cu#$root/}
    ptx="$work/$(echo "$rel" | tr '/' '_').ptx"
    if [ ! -s "$ptx" ] && ! "$nvcc" -ptx -arch=$arch -lineinfo $common -I"$dir" -o "$ptx" "$cu" >"$work/$name.nvcc.log" 2>&1; then
      rm -f "$ptx"
      printf '%s\tno_ptx\t%s\n' "$rel" "$(grep -m1 -i error "$work/$name.nvcc.log" | cut -c1-160)" >> "$parts/$name.ptx"
      continue
    fi
    if "$warpsim" inspect "$ptx" >"$work/$name.inspect.log" 2>&1; then
      printf '%s\tloads\t\n' "$rel" >> "$parts/$name.ptx"
    else
      printf '%s\tfails\t%s\n' "$rel" "$(grep -m1 -v 'does not load' "$work/$name.inspect.log" | sed 's/^ *//; s/^[^ ]*\.ptx:[0-9]*\(:[0-9]*\)\{0,1\}: //' | cut -c1-160)" >> "$parts/$name.ptx"
    fi
  done
  [ -n "${PTX_ONLY:-}" ] && return  # the PTX measurement alone
  app="$work/$name.app"
  # Driver-API samples link libcuda (NVRTC ones libnvrtc too) and load a fatbinary or PTX file their CMakeLists.txt
  # builds from CUDA_KERNEL_SOURCE (CUDA_FATBIN_FILE / CUDA_PTX_FILE): built here the same
  # way (sm_75, which keeps compute_75 PTX) into the sample's folder, where they look for it.
  local libs="" cml="$dir/CMakeLists.txt" ksrc module
  grep -q 'CUDA::cuda_driver' "$cml" 2>/dev/null && libs="-lcuda"
  grep -q 'CUDA::nvrtc' "$cml" 2>/dev/null && libs="$libs -lnvrtc"
  # OpenMP host code (cudaOpenMP): CMake's OpenMP::OpenMP_CXX is GCC's -fopenmp, at compile and link.
  grep -q 'OpenMP::OpenMP_CXX' "$cml" 2>/dev/null && libs="$libs -Xcompiler -fopenmp"
  [[ "$common" == *-rdc=true* ]] && libs="$libs -lcudadevrt"  # and the device runtime
  ksrc=$(sed -n 's/.*set(CUDA_KERNEL_SOURCE "${CMAKE_CURRENT_SOURCE_DIR}\/\([^"]*\)").*/\1/p' "$cml" 2>/dev/null)
  for kind in FATBIN PTX; do
    module=$(sed -n "s/.*set(CUDA_${kind}_FILE \"\${CMAKE_CURRENT_BINARY_DIR}\/\([^\"]*\)\").*/\1/p" "$cml" 2>/dev/null)
    [ -n "$module" ] && [ -n "$ksrc" ] && [ ! -s "$dir/$module" ] &&
      "$nvcc" -$(echo $kind | tr A-Z a-z) -arch=$arch -lineinfo -w $common -I"$dir" -o "$dir/$module" "$dir/$ksrc" >>"$work/$name.build.log" 2>&1
  done
  # The program's sources: every .cu and .cpp in the folder, but for NVRTC samples those
  # add_executable names (their kernels' .cu files are compiled at run time, by NVRTC), and
  # the CUDA headers their CMakeLists.txt copies beside the program for NVRTC to include.
  local sources inc listed extra
  sources=$(find "$dir" -maxdepth 1 \( -name '*.cu' -o -name '*.cpp' \) | sort)
  listed=$(sed -n "s/^ *add_executable($name \([^)]*\))/\1/p" "$cml" 2>/dev/null)
  # Sources outside the folder that add_executable lists (Common/helper_multiprocess.cpp of the IPC samples).
  for extra in $(echo "$listed" | tr ' ' '\n' | grep '^\.\./'); do
    [ -f "$dir/$extra" ] && sources="$sources $dir/$extra"
  done
  if [[ "$libs" == *nvrtc* ]]; then
    [ -n "$listed" ] && sources=$(for f in $listed; do echo "$dir/$f"; done)
    for inc in $(grep -o '${CUDA_INCLUDE_DIR}/[A-Za-z0-9_./]*' "$cml" | sed 's|^${CUDA_INCLUDE_DIR}/||' | sort -u); do
      [ -e "$dir/$(basename "$inc")" ] || cp -r "$(dirname "$nvcc")/../include/$inc" "$dir/" 2>/dev/null
    done
  fi
  if [ ! -x "$app" ] && ! "$nvcc" -cudart shared -arch=$arch -lineinfo -w $common -I"$dir" -o "$app" \
      $sources $libs >"$work/$name.build.log" 2>&1; then
    printf '%s\tno_build\t\t%s\n' "$name" "$(grep -m1 -iE 'error|undefined' "$work/$name.build.log" | cut -c1-160)" >> "$parts/$name.prog"
    return
  fi
  start=$(date +%s.%N)
  (cd "$dir" && timeout "$limit" "$warpsim" exec --config "$config" --functional ${EXEC_ARGS:-} --no-summary -- "$app") \
    >"$work/$name.run.out" 2>"$work/$name.run.err" </dev/null
  rc=$?
  secs=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
  last=$(grep -v '^$' "$work/$name.run.out" | tail -1 | tr '\t' ' ' | cut -c1-120)
  werr=$(grep -m1 'warpsim' "$work/$name.run.err" | tr '\t' ' ' | cut -c1-200)
  if [ $rc -eq 124 ]; then result=timeout; detail="over ${limit} s"
  # cuda-samples exit with EXIT_WAIVED (2) when the device lacks what they need ("No CUDA
  # devices support IPC"): waived, unless warpsim said on stderr that a call failed.
  elif [ $rc -eq 2 ] && { grep -qi 'waiv' "$work/$name.run.out" || [ -z "$werr" ]; }; then result=waived; detail="$last"
  elif grep -qE 'FAIL|mismatch|[Tt]est failed' "$work/$name.run.out" && ! grep -qE ' 0 [Ff]ailures' "$work/$name.run.out"; then
    # A failed check after warpsim said why on stderr (a refused launch, an unsupported
    # call) is a failure with its reason; without a word from warpsim it is a wrong answer.
    if [ -n "$werr" ]; then result=fail; else result=wrong; fi
    detail="rc=$rc $(grep -m1 -E 'FAIL|mismatch|[Tt]est failed' "$work/$name.run.out" | tr '\t' ' ' | cut -c1-100) ${werr}"
  elif [ $rc -eq 0 ] && grep -qiE 'pass|succe|correct|0 failures|returned ok' "$work/$name.run.out"; then result=pass; detail="$last"
  elif [ $rc -eq 0 ]; then result=exit0; detail="$last"
  else result=fail; detail="rc=$rc ${werr:-$last}"
  fi
  printf '%s\t%s\t%s\t%s\n' "$name" "$result" "$secs" "$detail" >> "$parts/$name.prog"
}

arch=${ARCH:-sm_75}  # read from the environment in both the driver and its --folder children
if [ "${1:-}" = "--folder" ]; then
  root=$2 work=$3 warpsim=$4 nvcc=$5 limit=$6 config=$7
  measure_folder "$8" "$9"
  exit 0
fi

root=$(cd "$1" && pwd)
out=$(mkdir -p "$2" && cd "$2" && pwd)
filter=${3:-}
here=$(cd "$(dirname "$0")/../.." && pwd)
warpsim=${WARPSIM:-$here/build/tools/warpsim}
nvcc=${NVCC:-/usr/local/cuda/bin/nvcc}
limit=${TIME_LIMIT:-300}
config=${CONFIG:-$here/configs/c2070.json}
jobs=${JOBS:-2}
if [ -n "${WORK_DIR:-}" ]; then work=$(mkdir -p "$WORK_DIR" && cd "$WORK_DIR" && pwd); else work=$(mktemp -d); trap 'rm -rf "$work"' EXIT; fi
[ -x "$warpsim" ] || { echo "measure: $warpsim not built" >&2; exit 1; }
[ -x "$nvcc" ] || { echo "measure: $nvcc not found" >&2; exit 1; }
parts="$out/parts"
rm -rf "$parts" && mkdir -p "$parts"

find "$root/Samples" -mindepth 2 -maxdepth 2 -type d | sort | while read -r dir; do
  if [ -n "$filter" ]; then  # comma-separated: any of them
    keep=""
    IFS=, read -ra wanted <<< "$filter"
    for f in "${wanted[@]}"; do [[ "$dir/" == *"/$f/"* ]] && keep=1; done
    [ -n "$keep" ] || continue
  fi
  # Folders with CUDA sources, and NVRTC samples (whose kernels may be headers NVRTC compiles).
  { ls "$dir"/*.cu >/dev/null 2>&1 || grep -qs 'CUDA::nvrtc' "$dir/CMakeLists.txt"; } && echo "$dir"
done | xargs -P "$jobs" -I{} "$0" --folder "$root" "$work" "$warpsim" "$nvcc" "$limit" "$config" {} "$parts"

printf 'file\tresult\tdetail\n' > "$out/ptx.tsv"
cat "$parts"/*.ptx 2>/dev/null | sort >> "$out/ptx.tsv"
printf 'sample\tresult\thost_seconds\tdetail\n' > "$out/programs.tsv"
cat "$parts"/*.prog 2>/dev/null | sort >> "$out/programs.tsv"
rm -rf "$parts"
{
  # The samples' own commit only if the copy is a repository of its own (a copy inside this
  # one would otherwise report warpsim's commit); then warpsim's commit and the config.
  samples_rev='(no git)'
  if [ "$(cd "$root" && git rev-parse --show-toplevel 2>/dev/null)" = "$(cd "$root" && pwd -P)" ]; then
    samples_rev=$(cd "$root" && git rev-parse --short HEAD)
  fi
  echo "cuda-samples at $samples_rev; warpsim at $(cd "$here" && git rev-parse --short HEAD 2>/dev/null || echo '(no git)'), config $(basename "$config"), nvcc -arch=$arch; $(date -u +%Y-%m-%d), $("$nvcc" --version | tail -1)"
  total=$(($(wc -l < "$out/ptx.tsv") - 1))
  noptx=$(grep -c $'\tno_ptx\t' "$out/ptx.tsv")
  loads=$(grep -c $'\tloads\t' "$out/ptx.tsv")
  echo "PTX: $total .cu files, $((total - noptx)) compile to PTX with nvcc alone, $loads of those load in warpsim"
  echo "first unsupported construct, by count:"
  awk -F'\t' '$2=="fails"{print $3}' "$out/ptx.tsv" | sed 's/[0-9]\+/N/g' | sort | uniq -c | sort -rn | head -25
  echo "programs: $(($(wc -l < "$out/programs.tsv") - 1)) sample folders"
  awk -F'\t' 'NR>1{print $2}' "$out/programs.tsv" | sort | uniq -c | sort -rn
} > "$out/summary.txt"
cat "$out/summary.txt"
