#!/usr/bin/env bash
# Installs what warpsim needs to build and test on Debian 12, and nothing that is already
# there. Safe to run any number of times. nvcc (CUDA) is optional and never installed.
#   tools/setup.sh          # build and test dependencies
#   tools/setup.sh --fuzz   # and clang 14 with its libFuzzer/sanitizer runtimes (tools/fuzz.sh)
set -euo pipefail

packages=(g++ make cmake pkg-config libfmt-dev libcli11-dev nlohmann-json3-dev catch2 libzstd-dev liblz4-dev)
if [ "${1:-}" = --fuzz ]; then packages+=(clang-14 libclang-rt-14-dev); fi
missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all build dependencies are installed"
  exit 0
fi

echo "setup: installing ${missing[*]}"
sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then
    sudo_cmd=(sudo)
  else
    echo "setup: need root (or sudo) to install: ${missing[*]}" >&2
    exit 1
  fi
fi
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
