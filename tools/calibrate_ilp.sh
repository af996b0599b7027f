#!/usr/bin/env bash
# Reproduces Volkov's TLP-vs-ILP curves from the seed slides on the simulated C2070: the
# fraction of peak FMA throughput (32 per cycle per SM) of K independent FMA chains per
# thread, one block per SM, against threads per block. docs/calibration.md has the table.
#   tools/calibrate_ilp.sh [path/to/warpsim] [--config c2070]
set -euo pipefail
cd "$(dirname "$0")/.."
warpsim="${1:-build/tools/warpsim}"
config="${2:-c2070}"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
sms=$(python3 -c "import json;print(json.load(open('configs/$config.json'))['sm']['count'])")
lanes=$(python3 -c "import json;print(json.load(open('configs/$config.json'))['sm']['cores'])")
sizes="32 64 128 256 384 512 640 768 1024"
printf "%-4s" K; for b in $sizes; do printf "%7s" "$b"; done; echo "   (threads per block; fraction of peak)"
for k in 1 2 4 8 16; do
  printf "%-4s" "$k"
  for b in $sizes; do
    "$warpsim" run "kernels/ilp/fma_chains_k$k.json" --config "$config" --var blocks="$sms" --var block_size="$b" \
      --var iters=1024 --json "$tmp/r.json" >/dev/null 2>&1 || { printf "%7s" "-"; continue; }
    python3 - "$tmp/r.json" "$sms" "$b" "$k" "$lanes" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))["metrics"]
sms, b, k, lanes = (int(x) for x in sys.argv[2:6])
print(f"{sms * b * 1024 * k / m['elapsed_cycles_sm'] / sms / lanes:7.2f}", end="")
PY
  done
  echo
done
