#!/usr/bin/env bash
# Builds the libFuzzer targets of tests/fuzz with clang 14 (ASan+UBSan) in build-fuzz and
# runs one of them, or each in turn, for SECONDS each:
#
#   tools/fuzz.sh ptx 300        # fuzz_ptx for five minutes
#   tools/fuzz.sh all 10         # every target for 10 s (the CI smoke run, tools/fuzz_smoke.sh)
#
# Targets: ptx (isa::parse_ptx), config (device configs), launch_spec, dram_trace,
# assignment (grading), fatbin (the CUDA runtime's fatbinary reader). Seed corpora are
# made at run time from the repository's own files
# (kernels/**/*.ptx, configs/**/*.json, kernels/**/*.json, ...) in build-fuzz/corpus/TARGET,
# where libFuzzer also keeps what it finds; crashes go to build-fuzz/findings/TARGET.
# Exit status: non-zero when a target crashed, leaked, timed out or ran out of memory.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# -ne 2 ]; then
  echo "usage: tools/fuzz.sh TARGET|all SECONDS   (targets: ptx config launch_spec dram_trace assignment fatbin)" >&2
  exit 2
fi
target=$1 seconds=$2
targets=(ptx config launch_spec dram_trace assignment fatbin)
dir=${WARPSIM_FUZZ_DIR:-build-fuzz}
cxx=${WARPSIM_FUZZ_CXX:-clang++-14}
command -v "$cxx" >/dev/null || { echo "fuzz: $cxx not found (apt-get install clang-14)" >&2; exit 1; }

if [ "$target" = all ]; then selected=("${targets[@]}"); else selected=("$target"); fi
for t in "${selected[@]}"; do
  case " ${targets[*]} " in *" $t "*) ;; *) echo "fuzz: unknown target '$t' (${targets[*]})" >&2; exit 2 ;; esac
done

cmake -S . -B "$dir" -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DWARPSIM_LTO=OFF \
  -DWARPSIM_FUZZ=ON -DWARPSIM_BUILD_TESTS=OFF >/dev/null
build_targets=()
for t in "${selected[@]}"; do build_targets+=(--target "fuzz_$t"); done
cmake --build "$dir" -j"${WARPSIM_JOBS:-$(nproc)}" "${build_targets[@]}"

# Seeds: the repository's files of the kind each target reads (copied at run time, never
# checked in). The DRAM trace seeds are written here: the repository has no trace files.
seed() {
  local t=$1 out=$dir/corpus/$1
  mkdir -p "$out"
  case $t in
    ptx) find kernels tests -name '*.ptx' -exec cp -t "$out" {} + ;;
    config) find configs -name '*.json' -exec cp --backup=numbered -t "$out" {} + ;;
    launch_spec) find kernels -name '*.json' -not -path '*/assignments/*/assignment.json' \
                   -exec cp --backup=numbered -t "$out" {} + ;;
    assignment) find kernels -name 'assignment.json' -exec cp --backup=numbered -t "$out" {} + ;;
    fatbin)
      # The .nv_fatbin sections of the runtime tests' programs (built by nvcc when those
      # tests ran; the reader takes the section's first fatbinary), and one hand-made image:
      # a header and a plain PTX entry.
      for app in build/runtime_programs/*/*; do
        [ -x "$app" ] || continue
        objcopy -O binary --only-section=.nv_fatbin "$app" "$out/$(basename "$(dirname "$app")")_$(basename "$app").fatbin" 2>/dev/null || true
      done
      printf '\x50\xed\x55\xba\x01\x00\x10\x00\x50\x00\x00\x00\x00\x00\x00\x00' >"$out/seed_plain.fatbin"
      printf '\x01\x00\x01\x01\x40\x00\x00\x00\x10\x00\x00\x00\x00\x00\x00\x00' >>"$out/seed_plain.fatbin"
      head -c 8 /dev/zero >>"$out/seed_plain.fatbin"
      printf '\x00\x00\x09\x00\x4b\x00\x00\x00' >>"$out/seed_plain.fatbin"
      printf '\x00\x00\x00\x00\x00\x00\x00\x00\x11\x00\x00\x00\x00\x00\x00\x00' >>"$out/seed_plain.fatbin"
      head -c 16 /dev/zero >>"$out/seed_plain.fatbin"
      printf '.version 9.0\n\x00\x00\x00' >>"$out/seed_plain.fatbin" ;;
    dram_trace)
      printf '0 R 0x0\n4 W 0x100 64\n4 RD 4096\n# comment\n\n10,READ,0x1f00,32\n' >"$out/seed1.trace"
      printf '0 r 0\n0 w 0x40000000\n1 WRITE 128 128\n' >"$out/seed2.trace" ;;
  esac
}

status=0
for t in "${selected[@]}"; do
  seed "$t"
  mkdir -p "$dir/findings/$t"
  echo "fuzz: fuzz_$t for $seconds s"
  if ! (cd "$dir/findings/$t" && ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1} \
        "../../tests/fuzz/fuzz_$t" -max_total_time="$seconds" -timeout=20 -rss_limit_mb=4096 \
        -max_len=65536 -print_final_stats=1 "../../corpus/$t" 2>&1 | tee "../../fuzz_$t.log" | grep -v '^#[0-9]'); then
    status=1
  fi
  if ! grep -q "Done [0-9]* runs" "$dir/fuzz_$t.log"; then status=1; echo "fuzz: fuzz_$t FAILED (see $dir/fuzz_$t.log, $dir/findings/$t)"; fi
done
exit $status
