#!/usr/bin/env bash
# CI smoke run of the fuzz targets: builds them (build-fuzz, clang 14, ASan+UBSan) and runs
# each for ${1:-10} seconds on the seed corpora. Separate from tools/check.sh because the
# clang build of the library is a second full build (docs/fuzzing.md has the timings).
set -euo pipefail
cd "$(dirname "$0")/.."
exec tools/fuzz.sh all "${1:-10}"
