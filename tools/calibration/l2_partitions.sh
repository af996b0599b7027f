#!/bin/bash
# The H100's two L2 partitions seen from single SMs (l2_partitions.cu).
#   On the GPU machine:  tools/calibration/l2_partitions.sh device OUTDIR
#     writes OUTDIR/h100_l2_partitions.csv (map, capacity and write experiments),
#     h100_l2_partitions_hist.csv (per-load latency histograms) and
#     h100_l2_partitions_ncu.csv (L2 sectors by source unit for a near and a far pair) and
#     h100_l2_partitions_capacity_ncu.csv (the same for one SM's second pass, 16-64 MB)
#   ncu only:            tools/calibration/l2_partitions.sh ncu OUTDIR
#   Here:                tools/calibration/l2_partitions.sh sim OUTDIR [WARPSIM] [--set K=V]...
#     writes OUTDIR/l2_partitions_sim.csv (every 11th SM in the map, capacity 16-64 MB by 8,
#     the same writes) and l2_partitions_sim_hist.csv (about 25 minutes on one core)
here=$(cd "$(dirname "$0")" && pwd)
source "$here/common.sh" "l2_partitions.sh device|ncu|sim OUTDIR [WARPSIM] [--set K=V]..." "$@"
build l2_partitions
case $mode in
  device|ncu)
    run() { "$work/l2_partitions" "$@"; }
    step=1
    capacity="4 80 4"
    ;;
  sim)
    warpsim=${3:-$default_warpsim}
    shift $(( $# < 3 ? $# : 3 ))  # MODE OUT [WARPSIM]; the rest are warpsim options
    extra=("$@")
    run() { "$warpsim" exec --config h100 --no-summary "${extra[@]}" -- "$work/l2_partitions" "$@"; }
    step=11
    capacity="16 64 8"
    ;;
  *) echo "l2_partitions.sh: mode is device, ncu or sim" >&2; exit 2 ;;
esac
[ "$mode" = ncu ] || {
  run map 4 0 "$step"
  run map 4 1 "$step" | tail -n +2
  run capacity 0 $capacity | tail -n +2
  run capacity 1 $capacity | tail -n +2
  for b in 1 2 3 66 67 131; do run write 4 0 "$b" | tail -n +2; done
} > "$out/l2_partitions_${mode}.csv"
[ "$mode" = ncu ] || run hist 4 0 66 32 > "$out/l2_partitions_${mode}_hist.csv"
if [ "$mode" = device ]; then
  mv "$out/l2_partitions_device.csv" "$out/h100_l2_partitions.csv"
  mv "$out/l2_partitions_device_hist.csv" "$out/h100_l2_partitions_hist.csv"
fi
if [ "$mode" != sim ]; then
  # L2 sectors by source for one near and one far pair. Application replay reruns the whole
  # program for each metric pass, so every pass starts from the same (evicted) L2; kernel
  # replay would restore memory between passes and warm the L2.
  for b in 1 66; do
    ncu --replay-mode application --cache-control none --clock-control none --csv --print-units base -k chase_on \
      --metrics gpu__time_duration.sum,lts__t_sectors_srcunit_tex.sum,lts__t_sectors_srcunit_tex_lookup_hit.sum,lts__t_sectors_srcunit_tex_lookup_miss.sum,lts__t_sectors_srcunit_ltcfabric.sum,lts__t_sectors_srcunit_ltcfabric_lookup_hit.sum,dram__bytes_read.sum \
      "$work/l2_partitions" pair 4 0 "$b" 2>>"$out/h100_l2_partitions_ncu_stderr.txt" | grep '^"' | sed "s/^/$b,/" || true
  done > "$out/h100_l2_partitions_ncu.csv"
  # The same counts for SM 0's second pass through 16-64 MB (where its partition overflows).
  for mb in 16 32 48 52 64; do
    ncu --replay-mode application --cache-control none --clock-control none --csv --print-units base -k chase_on \
      --launch-skip 1 --launch-count 1 \
      --metrics gpu__time_duration.sum,lts__t_sectors_srcunit_tex.sum,lts__t_sectors_srcunit_tex_lookup_hit.sum,lts__t_sectors_srcunit_tex_lookup_miss.sum,lts__t_sectors_srcunit_ltcfabric.sum,lts__t_sectors_srcunit_ltcfabric_lookup_hit.sum,lts__t_sectors_srcunit_ltcfabric_lookup_miss.sum,dram__bytes_read.sum,dram__bytes_write.sum \
      "$work/l2_partitions" capacity 0 "$mb" "$mb" 1 2>>"$out/h100_l2_partitions_ncu_stderr.txt" | grep '^"' | sed "s/^/$mb,/" || true
  done > "$out/h100_l2_partitions_capacity_ncu.csv"
fi
