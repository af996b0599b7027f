#!/usr/bin/env bash
# Epochs (--epoch CYCLES) against every-cycle timing on every timing spec in kernels/:
# simulated cycles of each, the difference, and host seconds (one run each, 1 thread, same
# machine; the seconds are single runs on a shared machine and vary by tens of percent).
#
#   tools/bench/epochs.sh [WARPSIM] [CONFIG] [EPOCH...]   # defaults: build/tools/warpsim c2070 4 8 16
#
# Prints a Markdown table and, per epoch length, the mean and largest absolute difference
# and the median host speed-up (docs/performance.md, "Epochs").
set -euo pipefail
cd "$(dirname "$0")/../.."
warpsim=${1:-build/tools/warpsim}
config=${2:-c2070}
shift $(( $# > 2 ? 2 : $# )) || true
epochs=("$@")
[ ${#epochs[@]} -eq 0 ] && epochs=(4 8 16)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 - "$warpsim" "$config" "$tmp" "${epochs[@]}" <<'PY'
import glob, json, statistics, subprocess, sys
warpsim, config, tmp, epochs = sys.argv[1], sys.argv[2], sys.argv[3], [int(e) for e in sys.argv[4:]]
def run(spec, epoch):
    out = f"{tmp}/r.json"
    p = subprocess.run([warpsim, "run", spec, "--config", config, "--threads", "1", "--epoch", str(epoch),
                        "--json", out], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    if p.returncode != 0:
        return None
    j = json.load(open(out))
    return j["metrics"]["elapsed_cycles_sm"], j["host_seconds"]
print("| spec | every cycle: cycles | s |" + "".join(f" --epoch {e}: cycles | difference | speed-up |" for e in epochs))
print("|" + "---|" * (3 + 3 * len(epochs)))
diffs = {e: [] for e in epochs}
ups = {e: [] for e in epochs}
for spec in sorted(glob.glob("kernels/*/*.json")):
    if "/assignments/" in spec:
        continue
    ref = run(spec, 1)
    if ref is None or not ref[0]:
        continue
    row = f"| {spec[len('kernels/'):]} | {ref[0]:,} | {ref[1]:.2f} |"
    for e in epochs:
        r = run(spec, e)
        if r is None:
            row += " failed | | |"
            continue
        d = 100.0 * (r[0] - ref[0]) / ref[0]
        diffs[e].append(d)
        up = ref[1] / r[1] if r[1] > 0 else float("nan")
        if ref[1] >= 0.2:  # shorter launches time mostly noise
            ups[e].append(up)
        row += f" {r[0]:,} | {d:+.2f} % | {up:.2f}x |"
    print(row, flush=True)
print()
for e in epochs:
    a = [abs(d) for d in diffs[e]]
    if not a:
        continue
    worst = max(diffs[e], key=abs)
    med = statistics.median(ups[e]) if ups[e] else float("nan")
    print(f"--epoch {e}: {len(a)} specs, mean |difference| {statistics.mean(a):.2f} %, largest {worst:+.2f} %, "
          f"median speed-up {med:.2f}x over the {len(ups[e])} specs of 0.2 s or more")
PY
