#!/usr/bin/env bash
# Quick start, step 2 (and CI): install what is missing, build everything, run the whole
# test suite through ctest.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/setup.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$(nproc)"
ctest --test-dir build --output-on-failure -j"$(nproc)"
