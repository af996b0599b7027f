#!/bin/bash
# What the L2's persisting set-aside keeps of a 16 MB hot buffer across a 96 MB stream
# (l2_persist.cu): DRAM bytes and L2 read hits of the hot buffer's second read, per case.
#   On the GPU machine:  tools/calibration/l2_persist.sh device OUTDIR   -> OUTDIR/h100_l2_persist.csv (+ .txt)
#   Here:                tools/calibration/l2_persist.sh sim OUTDIR [WARPSIM]   -> OUTDIR/l2_persist_sim.csv
#   On the GPU machine:  tools/calibration/l2_persist.sh sizes OUTDIR   -> OUTDIR/h100_l2_persist_sizes.csv:
#                        the persisting case at hot buffers of 1 to 32 MB and set-asides of
#                        the maximum, a quarter of it and 4 MB (how much the GPU keeps)
#   On the GPU machine:  tools/calibration/l2_persist.sh streams OUTDIR   -> OUTDIR/h100_l2_persist_streams.csv:
#                        a 4 MB hot buffer, persisting or not, across streams of 8 to 384 MB
here=$(cd "$(dirname "$0")" && pwd)
source "$here/common.sh" "l2_persist.sh device|sim OUTDIR [WARPSIM]" "$@"
build l2_persist
hot=16
big=96
cases="none persist half streaming reset"
case $mode in
  device)
    for c in $cases; do "$work/l2_persist" $c $hot $big; done > "$out/h100_l2_persist.txt"
    echo '"case","ID","Process ID","Process Name","Host Name","Kernel Name","Context","Stream","Block Size","Grid Size","Device","CC","Section Name","Metric Name","Metric Unit","Metric Value"' \
      > "$out/h100_l2_persist.csv"
    for c in $cases; do
      ncu --cache-control none --replay-mode application --clock-control none --csv --print-units base -k reread_hot \
        --metrics dram__bytes_read.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum \
        "$work/l2_persist" $c $hot $big | grep '^"' | grep -v '"ID"' | sed "s/^/\"$c\",/"
    done >> "$out/h100_l2_persist.csv"
    ;;
  sizes)
    echo '"hot_mb","limit_kb","case","ID","Process ID","Process Name","Host Name","Kernel Name","Context","Stream","Block Size","Grid Size","Device","CC","Section Name","Metric Name","Metric Unit","Metric Value"' \
      > "$out/h100_l2_persist_sizes.csv"
    max_kb=$(( $("$work/l2_persist" none 1 1 | sed -n 's/.*persistingL2CacheMaxSize \([0-9]*\).*/\1/p' | head -1) / 1024 ))
    for limit in $max_kb $((max_kb / 4)) 4096; do
      for h in 1 2 4 8 16 32; do
        for c in persist none; do
          [ $c = none ] && [ $limit != $max_kb ] && continue
          ncu --cache-control none --replay-mode application --clock-control none --csv --print-units base -k reread_hot \
            --metrics dram__bytes_read.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum \
            "$work/l2_persist" $c $h $big $limit | grep '^"' | grep -v '"ID"' | sed "s/^/\"$h\",\"$limit\",\"$c\",/"
        done
      done
    done >> "$out/h100_l2_persist_sizes.csv"
    ;;
  streams)
    echo '"stream_mb","case","ID","Process ID","Process Name","Host Name","Kernel Name","Context","Stream","Block Size","Grid Size","Device","CC","Section Name","Metric Name","Metric Unit","Metric Value"' \
      > "$out/h100_l2_persist_streams.csv"
    for b in 8 16 32 48 64 96 192 384; do
      for c in persist none streaming; do
        ncu --cache-control none --replay-mode application --clock-control none --csv --print-units base -k reread_hot \
          --metrics dram__bytes_read.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum \
          "$work/l2_persist" $c 4 $b | grep '^"' | grep -v '"ID"' | sed "s/^/\"$b\",\"$c\",/" || true  # windows over 128 MB are refused
      done
    done >> "$out/h100_l2_persist_streams.csv"
    ;;
  sim)
    warpsim=${3:-$default_warpsim}
    echo "case,dram_read_bytes,l2_read_hit_rate,reread_us" > "$out/l2_persist_sim.csv"
    for c in $cases; do
      "$warpsim" exec --config h100 --no-summary --json "$work/s.json" -- "$work/l2_persist" $c $hot $big > "$work/o.txt"
      python3 -c "
import json,re
l=[x for x in json.load(open('$work/s.json'))['launches'] if 'reread_hot' in x['kernel']][0]
m=l['metrics']; us=re.search(r'reread ([0-9.]+) us', open('$work/o.txt').read()).group(1)
print('$c,%d,%.1f,%s' % (m['dram_read_bytes'], m['l2_read_hit_rate'], us))"
    done >> "$out/l2_persist_sim.csv"
    ;;
  *) echo "l2_persist.sh: mode is device or sim" >&2; exit 2 ;;
esac
