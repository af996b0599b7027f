#!/bin/bash
# DRAM bytes the H100's L2 reads per missed sector (l2_fetch.cu), measured with ncu.
#   On the GPU machine:  tools/calibration/l2_fetch.sh device OUTDIR   -> OUTDIR/h100_l2_fetch.csv
#   Here:                tools/calibration/l2_fetch.sh sim OUTDIR [WARPSIM]   -> OUTDIR/l2_fetch_sim.csv
#                        (warpsim exec --config h100, about 4 minutes)
here=$(cd "$(dirname "$0")" && pwd)
source "$here/common.sh" "l2_fetch.sh device|sim OUTDIR [WARPSIM]" "$@"
build l2_fetch
lines=262144
case $mode in
  device)
    for off in 0 32 64 96 4; do
      ncu --cache-control none --replay-mode application --clock-control none --csv --print-units base -k touch_one_word \
        --metrics dram__bytes_read.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum \
        "$work/l2_fetch" $lines $off | grep '^"' | grep -v '"ID"' | sed "s/^/$lines,$off,/"
    done > "$out/h100_l2_fetch.csv"
    ;;
  sim)
    warpsim=${3:-$default_warpsim}
    echo "lines,offset,dram_read_bytes,l2_read_hit_rate"
    for off in 0 32 64 96 4; do
      "$warpsim" exec --config h100 --no-summary --json "$work/s.json" -- "$work/l2_fetch" $lines $off > /dev/null
      python3 -c "
import json,sys
l=[x for x in json.load(open('$work/s.json'))['launches'] if x['kernel'].startswith('_Z14touch')][0]
m=l['metrics']; print('$lines,$off,%d,%.1f' % (m['dram_read_bytes'], m['l2_read_hit_rate']))"
    done > "$out/l2_fetch_sim.csv"
    ;;
  *) echo "l2_fetch.sh: mode is device or sim" >&2; exit 2 ;;
esac
