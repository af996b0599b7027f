#!/usr/bin/env bash
# Runs every launch spec in kernels/ with two warpsim binaries on the given configs and
# compares their JSON reports, host seconds left out: the check that a refactor keeps every
# report bit-identical.
#   tools/compare_reports.sh OLD_WARPSIM NEW_WARPSIM OUT_DIR CONFIG...
#   e.g. tools/compare_reports.sh /tmp/warpsim_before build/tools/warpsim /tmp/cmp c2070 h100
# Prints one line per difference and "same=N diff=N no_report=N"; exits 1 on any difference.
# COMPARE_IGNORE="key1 key2" leaves out keys a change added (any depth), so the values both
# reports have are still compared bit for bit. OLD_CONFIG_DIR=DIR runs the old binary with
# DIR/CONFIG.json (the configs of its own commit, when a change added config keys).
# RUN_ARGS="--functional" passes its words to both runs (e.g. to compare functional reports).
set -uo pipefail
cd "$(dirname "$0")/.."
old=$1 new=$2 out=$3
shift 3
mkdir -p "$out"
same=0 diff=0 none=0
for cfg in "$@"; do
  for spec in $(find kernels -name '*.json' -not -path '*/assignments/*' | sort); do
    n=$(echo "$spec" | tr '/' '_')
    old_cfg=$cfg
    [ -n "${OLD_CONFIG_DIR:-}" ] && old_cfg=$OLD_CONFIG_DIR/$cfg.json
    timeout 300 "$old" run "$spec" --config "$old_cfg" ${RUN_ARGS:-} --json "$out/$n.$cfg.old.json" >/dev/null 2>&1
    a=$?
    timeout 300 "$new" run "$spec" --config "$cfg" ${RUN_ARGS:-} --json "$out/$n.$cfg.new.json" >/dev/null 2>&1
    b=$?
    if [ $a -ne $b ]; then echo "exit status differs: $spec $cfg ($a, $b)"; diff=$((diff + 1)); continue; fi
    if [ ! -s "$out/$n.$cfg.old.json" ]; then none=$((none + 1)); continue; fi
    if python3 - "$out/$n.$cfg.old.json" "$out/$n.$cfg.new.json" <<'PY'
import json, os, sys
ignore = set(os.environ.get('COMPARE_IGNORE', '').split())
def strip(o):
    if isinstance(o, dict):
        return {k: strip(v) for k, v in o.items() if 'host' not in k and 'seconds' not in k and k not in ignore}
    if isinstance(o, list): return [strip(x) for x in o]
    return o
a, b = (strip(json.load(open(f))) for f in sys.argv[1:3])
sys.exit(0 if a == b else 1)
PY
    then same=$((same + 1)); else diff=$((diff + 1)); echo "differs: $spec $cfg"; fi
  done
done
echo "same=$same diff=$diff no_report=$none"
[ $diff -eq 0 ]
