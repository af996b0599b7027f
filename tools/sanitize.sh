#!/usr/bin/env bash
# Builds the whole test suite with AddressSanitizer + UndefinedBehaviorSanitizer in its own
# build directory (build-sanitize; never touches build/) and runs it through ctest.
# Any sanitizer report fails the test that triggered it (halt_on_error, abort).
#
#   tools/sanitize.sh            # configure, build, run every test
#   tools/sanitize.sh -R grading # extra arguments go to ctest
#
# A full build takes several times as long as a Release build; results are recorded in
# docs/fuzzing.md (section "Sanitizers").
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${WARPSIM_SANITIZE_DIR:-build-sanitize}
jobs=${WARPSIM_JOBS:-$(nproc)}
flags="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer -g -O1"
cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DWARPSIM_LTO=OFF \
  -DCMAKE_CXX_FLAGS="$flags" -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="" \
  -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" >/dev/null
cmake --build "$dir" -j"$jobs"
export ASAN_OPTIONS=${ASAN_OPTIONS:-halt_on_error=1:abort_on_error=1:detect_leaks=1:strict_string_checks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
ctest --test-dir "$dir" --output-on-failure -j"$jobs" --timeout 1800 "$@"
