#!/bin/bash
# Which SMs' reads of the same sectors the L2 counts once (l2_merge_scope.cu): SM 0 and each
# other SM in turn read the same data at once; ncu (kernel replay, caches flushed) counts the
# L1 misses and the L2's SM reads of every launch. Then SM 0 with SMs 1 and 16 (which merge
# with it) and 8 (which does not), the second starting DELAY_NS after the first. SMs 2, 4,
# .., 14 with every SM give the other SMs' groups.
# Then SM 0 with SMs 1, 16 and 2 where SM 1 reads 0, 32, 64 or 128 bytes further on (skewN),
# the same with byte loads (bytesN: a warp asks for one sector, or parts of two), and SM 1 or
# 16 reading 0 or 32 bytes on and starting 100-3,000 ns late: whether requests that share
# sectors but ask for different ones merge, and whether timing matters.
#   On the GPU machine:  tools/calibration/l2_merge_scope.sh device OUTDIR [skew]
#     writes OUTDIR/gpu_l2_merge_scope_{skew_N,stream,hot,map_A,delay_NS}.csv (ncu --csv
#     rows; with "skew" only the skew_N runs), the launches' order and status
#     (..._launches.csv) and the GPU's name
#   Then here:  tools/calibration/l2_merge_scope_summary.py OUTDIR docs/measurements/h200_l2_merge_scope.csv
#     (one row per launch, and the groups of SMs that merge: the GPCs of configs/h100.json)
#   Here:  tools/calibration/l2_merge_scope.sh sim OUTDIR [WARPSIM]
#     the same program under `warpsim exec --config h100 --cache-control all` (caches flushed
#     before each launch, as ncu's) for SM 0 alone and with SMs 1, 16 (its GPC), 2 (another
#     GPC across the L2 partitions) and 8 (another GPC on its side): OUTDIR/l2_merge_scope_sim.csv
here=$(cd "$(dirname "$0")" && pwd)
source "$here/common.sh" "l2_merge_scope.sh device|sim OUTDIR [WARPSIM]" "$@"
build l2_merge_scope
if [ "$mode" = sim ]; then
  warpsim=${3:-$default_warpsim}
  sim_rows() {  # OUT.csv [--set K=V] -- PROGRAM ARGS: one row per pair_read launch
    local csv_out=$1
    shift
    local sets=()
    while [ "$1" != -- ]; do sets+=("$1"); shift; done
    shift
    "$warpsim" exec --config h100 "${sets[@]}" --no-summary --cache-control all --json "$work/sim.json" -- "$@" \
      > "$work/launches.csv"
    python3 - "$work/sim.json" "$work/launches.csv" "${sets[*]}" > "$csv_out" <<'EOF'
import csv, json, sys
runs = [l for l in json.load(open(sys.argv[1]))['launches'] if 'pair_read' in l.get('kernel', '')]
rows = list(csv.DictReader(open(sys.argv[2])))
skew = rows and rows[0]['mode'] != 'stream'
print(('mode,sets,' if skew else '') + 'sm_a,sm_b,l2_read_transactions,gpc_merged_sectors,l2_read_hit_rate,duration_ns')
for r, l in zip(rows, runs):
    m = l['metrics']
    print((f"{r['mode']},{sys.argv[3]}," if skew else '') + f"{r['sm_a']},{r['sm_b']},{m['l2_read_transactions']},"
          f"{m.get('gpc_merged_sectors', 0)},{m['l2_read_hit_rate']:.1f},{m['duration_ns']:.0f}")
EOF
  }
  sim_rows "$out/l2_merge_scope_sim.csv" -- "$work/l2_merge_scope" stream 0 0 0 1 16 2 8
  # The skewed pairs with the config's merge rule and with merging by sectors.
  : > "$work/skew.csv"
  for s in skew0 skew32 skew128 bytes0 bytes16 rgb0 rgb16; do
    for rule in request sectors; do
      sim_rows "$work/one.csv" --set "gpcs.merge_match=$rule" -- "$work/l2_merge_scope" "$s" 0 0 1 2
      if [ -s "$work/skew.csv" ]; then tail -n +2 "$work/one.csv" >> "$work/skew.csv"; else cp "$work/one.csv" "$work/skew.csv"; fi
    done
  done
  cp "$work/skew.csv" "$out/l2_merge_scope_skew_sim.csv"
  exit 0
fi
[ "$mode" = device ] || { echo "l2_merge_scope.sh: mode is device or sim" >&2; exit 2; }
m=l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum
m=$m,l1tex__m_xbar2l1tex_read_sectors.sum,lts__t_sectors_srcunit_tex_op_read.sum
m=$m,lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum,lts__t_requests_srcunit_tex_op_read.sum
m=$m,lrc__request_sectors_op_read_coalescing_achieved_type_hardware.sum,gpu__time_duration.sum
measure() {  # NAME ARGS...: the launches' status, then ncu's counts
  local name=$1
  shift
  "$work/l2_merge_scope" "$@" > "$out/gpu_l2_merge_scope_${name}_launches.csv"
  ncu --clock-control none --cache-control all --csv --print-units base --metrics "$m" \
    "$work/l2_merge_scope" "$@" 2>&1 | grep '^"' > "$out/gpu_l2_merge_scope_${name}.csv" || true
}
skew_runs() {  # SM 0 with SM 1 (its TPC), 16 (its GPC) and 2 (another GPC), SM 1's reads shifted
  for s in 0 32 64 128; do
    measure "skew_$s" "skew$s" 0 0 1 16 2
  done
  for s in 0 16 32; do  # one byte per thread: a warp asks for one sector (or parts of two)
    measure "bytes_$s" "bytes$s" 0 0 1 16 2
  done
  for s in 0 16; do  # the greyscale kernel's reads: the same strip, or the next block's
    measure "rgb_$s" "rgb$s" 0 0 1 16 2
  done
  for d in 100 300 1000 3000; do  # SM 1 (or 16) starting D ns later
    measure "skew_0_delay_$d" skew0 0 "$d" 1 16
    measure "skew_32_delay_$d" skew32 0 "$d" 1 16
  done
}
if [ "${3:-}" = skew ]; then  # only these (l2_merge_scope.sh device OUTDIR skew)
  skew_runs
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$out/gpu_l2_merge_scope_gpu.txt"
  exit 0
fi
skew_runs
measure stream stream 0 0 all
measure hot hot 0 0 all
for a in 2 4 6 8 10 12 14; do  # the other SMs' groups (SMs 2k and 2k+1 share a TPC)
  measure "map_$a" stream "$a" 0 all
done
for d in 500 1000 2000 5000 10000 20000 50000; do
  measure "delay_$d" stream 0 "$d" 1 16 8
done
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$out/gpu_l2_merge_scope_gpu.txt"
