#!/usr/bin/env bash
# Sampled timing (--sample WAVES) against full timing on every timing spec in kernels/:
# simulated cycles, the error, and host seconds of each run (one run each, same machine).
# Two speed-ups: of the whole process (loading, filling the buffers and the CPU reference
# check included, which sampling does not shorten) and of the launch alone (the report's
# host_seconds: the simulation, as tools/bench/bench_sim times it).
#
#   tools/bench/sampling.sh [WARPSIM] [CONFIG] [WAVES...]   # defaults: build/tools/warpsim c2070 2 4
#
# Prints a Markdown table (docs/performance.md). Specs that fit in fewer than 2 x WAVES
# waves are timed in full by --sample and are listed as "(all timed)".
set -euo pipefail
cd "$(dirname "$0")/../.."
warpsim=${1:-build/tools/warpsim}
config=${2:-c2070}
shift $(( $# > 2 ? 2 : $# )) || true
waves=("$@")
[ ${#waves[@]} -eq 0 ] && waves=(2 4)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 - "$warpsim" "$config" "$tmp" "${waves[@]}" <<'PY'
import glob, json, math, subprocess, sys, time
warpsim, config, tmp, waves = sys.argv[1], sys.argv[2], sys.argv[3], [int(w) for w in sys.argv[4:]]
def run(spec, extra):
    out = f"{tmp}/r.json"
    t0 = time.monotonic()
    p = subprocess.run([warpsim, "run", spec, "--config", config, "--json", out] + extra,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall = time.monotonic() - t0
    if p.returncode != 0:
        return None
    j = json.load(open(out))
    g = j["grid"]
    return j["metrics"]["elapsed_cycles_sm"], wall, j.get("sample"), g[0] * g[1] * g[2], j["host_seconds"]
head = "| spec | blocks | full cycles | full s (launch s) |" + "".join(
    f" --sample {w}: cycles | error | speed-up (launch) |" for w in waves)
print(head)
print("|" + "---|" * (4 + 3 * len(waves)))
errors = {w: [] for w in waves}
speedups = {w: [] for w in waves}
launch_speedups = {w: [] for w in waves}
for spec in sorted(glob.glob("kernels/*/*.json")):
    if "/assignments/" in spec:
        continue
    full = run(spec, [])
    if full is None:
        continue
    row = f"| {spec[len('kernels/'):]} | {full[3]:,} | {full[0]:,} | {full[1]:.2f} ({full[4]:.2f}) |"
    for w in waves:
        s = run(spec, ["--sample", str(w)])
        if s is None:
            row += " failed | | |"
            continue
        if s[2] is None:
            row += " (all timed) | | |"
            continue
        err = 100.0 * (s[0] - full[0]) / full[0]
        errors[w].append(abs(err))
        speedups[w].append(full[1] / s[1])
        launch_speedups[w].append(full[4] / s[4])
        row += f" {s[0]:,} | {err:+.1f} % | {full[1] / s[1]:.1f}x ({full[4] / s[4]:.1f}x) |"
    print(row, flush=True)
for w in waves:
    e, sp = errors[w], speedups[w]
    if e:
        gm = lambda xs: math.exp(sum(math.log(x) for x in xs) / len(xs))
        print(f"\n--sample {w}: {len(e)} sampled specs, mean |error| {sum(e) / len(e):.2f} %, worst {max(e):.1f} %, "
              f"speed-up geometric mean {gm(sp):.2f}x whole process, {gm(launch_speedups[w]):.2f}x launch alone")
PY
