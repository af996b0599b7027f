#!/usr/bin/env bash
# Error and speed of sampling over repeated launches (`warpsim exec --sample-launches N`) on
# programs nobody here wrote: Rodinia's, built and given their inputs by
# tools/runtime/measure_rodinia.sh (its WORK_DIR), and NVIDIA's cuda-samples, built by
# tools/runtime/measure_cuda_samples.sh (its WORK_DIR holds NAME.app). Each program runs in
# timing mode twice, in full and sampled, one after the other; the table gives the launches,
# how many went untimed, the simulated kernel time of both runs and its error, and the host
# seconds of both (single runs: on a shared machine they vary by 10-20 %), read off
# warpsim's summary (no --json: writing every launch's report would dominate). The
# programs' output must be the same; the lines that differ are counted (host times the
# programs print, or programs seeded from the clock). Prints markdown.
#   tools/bench/launch_sampling.sh N CONFIG ITEM...
#   ITEM: rodinia:WORK_DIR:NAME or samples:SAMPLES_ROOT:WORK_DIR:NAME
#   WARPSIM overrides the binary (default build/tools/warpsim).
set -uo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
n=$1 config=$2
shift 2
warpsim=${WARPSIM:-$here/build/tools/warpsim}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
table=$(bash "$here/tools/runtime/measure_rodinia.sh" --table)

echo "| program | launches | untimed | full: kernel time | sampled | error | full: host s | sampled: host s | speed-up |"
echo "|---|---|---|---|---|---|---|---|---|"
for item in "$@"; do
  IFS=: read -r kind a b c <<< "$item"
  a=$(cd "$a" && pwd) || continue
  [ "$kind" = rodinia ] || b=$(cd "$b" && pwd) || continue
  if [ "$kind" = rodinia ]; then
    name=$b
    line=$(grep "^$name|" <<< "$table") || { echo "| $name | not in measure_rodinia.sh's table |"; continue; }
    IFS='|' read -r _ _ _ args _ _ <<< "$line"
    app="$a/bin/$name" cwd="$a/run/$name"
    case $name in srad_v1) cwd=$cwd/r1/r2/r3 ;; dwt2d) cwd=$cwd/r1/r2 ;; esac
  else
    name=$c args=""
    app="$b/$name.app" cwd=$(find "$a/Samples" -maxdepth 2 -type d -name "$name" | head -1)
  fi
  [ -x "$app" ] && [ -d "$cwd" ] || { echo "| $name | not built |"; continue; }
  for mode in full sampled; do
    extra=""
    [ $mode = sampled ] && extra="--sample-launches $n"
    start=$(date +%s.%N)
    (cd "$cwd" && "$warpsim" exec --config "$config" $extra -- "$app" $args) \
      > "$tmp/$mode.out" 2> "$tmp/$mode.err" < /dev/null
    rc=$?
    awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.2f", b - a }' > "$tmp/$mode.secs"
    [ $rc -eq 0 ] || { echo "| $name | failed ($mode, rc $rc): $(head -c 150 "$tmp/$mode.err" | tr '\n' ' ') |"; continue 2; }
  done
  # The programs' own output must not change; lines with host timings may.
  differ=$(diff "$tmp/full.out" "$tmp/sampled.out" | grep -c '^>')
  python3 - "$name" "$tmp" "$differ" <<'PY'
import re, sys
name, tmp, differ = sys.argv[1], sys.argv[2], int(sys.argv[3])
def summary(mode):  # warpsim's summary line: launches, time in kernels, launches not timed
    line = next(l for l in open(f"{tmp}/{mode}.err") if l.startswith("==warpsim==") and " mode: " in l)
    launches = int(re.search(r"mode: (\d+) launch", line).group(1))
    value, unit = re.search(r"\(([0-9.]+) (ns|us|ms|s) in kernels\)", line).groups()
    us = float(value) * {"ns": 1e-3, "us": 1, "ms": 1e3, "s": 1e6}[unit]
    untimed = re.search(r"\((\d+) not timed", line)
    return launches, us, int(untimed.group(1)) if untimed else 0
n_full, ft, _ = summary("full")
_, st, est = summary("sampled")
fs, ss = (float(open(f"{tmp}/{m}.secs").read()) for m in ("full", "sampled"))
err = 100 * (st - ft) / ft if ft else 0
note = f" ({differ} output lines differ)" if differ else ""
print(f"| {name}{note} | {n_full} | {est} | {ft:,.1f} us | {st:,.1f} us | {err:+.2f} % | {fs:.2f} | {ss:.2f} | {fs / ss:.1f}x |")
PY
done
