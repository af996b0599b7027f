#!/usr/bin/env bash
# Quick start, step 1: install what is missing, build, and run the main job: the
# textbook tiled matrix multiply (Kirk & Hwu Fig. 5.6, 512x512) on the default device,
# the simulated Tesla C2070, with its report.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/setup.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$(nproc)" --target warpsim
exec build/tools/warpsim run kernels/matmul/matmul_tiled_512.json "$@"
