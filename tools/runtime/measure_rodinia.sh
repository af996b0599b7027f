#!/usr/bin/env bash
# Measures warpsim against Rodinia's CUDA programs (a public copy brought with the search
# tool's fetch; nothing of it is copied into this repository). Each program of RODINIA_DIR/cuda
# is built with nvcc from its sources (the table below: nvcc -cudart shared -arch=sm_75, not
# Rodinia's Makefiles and their hard-coded paths), given a small input (the smallest of
# Rodinia's run scripts, or smaller; data files that the copy lacks are generated here in the
# format the program reads, or by Rodinia's own generator where it ships one), and run
# one at a time under `warpsim exec --functional` (TIME_LIMIT s). Programs that pass
# functionally are run again in timing mode (TIMING_LIMIT s).
# Usage: tools/runtime/measure_rodinia.sh RODINIA_DIR OUT_DIR [NAME...]
#   WARPSIM, NVCC, CONFIG, TIME_LIMIT (120), TIMING_LIMIT (300), WORK_DIR override;
#   RODINIA_COMMIT names the copy's commit in summary.txt when RODINIA_DIR is no git checkout.
#   CUDA_SAMPLES_COMMON: cuda-samples' Common folder, for cfd's helper_cuda.h (the copy in
#   Rodinia's hybridsort folder reads cudaDeviceProp fields that CUDA 13 removed).
# Writes OUT_DIR/programs.tsv and OUT_DIR/summary.txt; the logs stay in WORK_DIR.
#   measure_rodinia.sh --table prints the program table (name|folder|build|args|input|check)
#   for other scripts (tools/bench/launch_sampling.sh runs the programs built here).
set -uo pipefail

table_only=0
if [ "${1:-}" = --table ]; then table_only=1; root=/ out=/; else
root=$(cd "$1" && pwd)
out=$(mkdir -p "$2" && cd "$2" && pwd)
shift 2
fi
only=" $* "
here=$(cd "$(dirname "$0")/../.." && pwd)
warpsim=${WARPSIM:-$here/build/tools/warpsim}
nvcc=${NVCC:-/usr/local/cuda/bin/nvcc}
config=${CONFIG:-c2070}
limit=${TIME_LIMIT:-120}
tlimit=${TIMING_LIMIT:-300}
# CUDA 13 no longer declares cudaThreadSynchronize (deprecated since CUDA 4, the same as
# cudaDeviceSynchronize); most Rodinia programs call it, so every build maps it.
compat="-DcudaThreadSynchronize=cudaDeviceSynchronize"
common=${CUDA_SAMPLES_COMMON:-$root/cuda/hybridsort}
# Absolute: the builds run in each program's folder.
[ -d "$common" ] && common=$(cd "$common" && pwd)
[ "$table_only" = 1 ] || work=$(mkdir -p "${WORK_DIR:-$out/work}" && cd "${WORK_DIR:-$out/work}" && pwd)
[ "$table_only" = 1 ] || [ -x "$warpsim" ] || { echo "measure: $warpsim not built" >&2; exit 1; }
[ "$table_only" = 1 ] || [ -x "$nvcc" ] || { echo "measure: $nvcc not found" >&2; exit 1; }

# ---- inputs generated here (small, deterministic), run in the program's run folder --------
gen_bfs() {  # Rodinia graph format: n, "start degree" per node, source, m, "dest weight" per edge
  awk 'BEGIN { n = 4096; d = 4; srand(7); print n; for (i = 0; i < n; i++) print i * d, d;
               print ""; print 0; print ""; print n * d;
               for (i = 0; i < n; i++) for (k = 0; k < d; k++) print (k == 0 ? (i + 1) % n : int(rand() * n)), 1 }' > graph4k.txt
}
verify_bfs() {  # a breadth-first search here, against the program's result.txt
  awk 'FNR == 1 { f++ }
       f == 1 && FNR == 1 { n = $1; next }
       f == 1 && NF == 2 && FNR <= n + 1 { st[FNR - 2] = $1; dg[FNR - 2] = $2; next }
       f == 1 && NF == 1 && !srcset && FNR > n + 1 { src = $1; srcset = 1; next }
       f == 1 && NF == 1 && srcset && !mset { mset = 1; next }
       f == 1 && NF == 2 && mset { e[ne++] = $1; next }
       f == 2 { split($0, a, /[) :]+/); got[a[1]] = a[3] }
       END { for (i = 0; i < n; i++) c[i] = -1; c[src] = 0; q[0] = src; h = 0; t = 1
             while (h < t) { u = q[h++]; for (k = st[u]; k < st[u] + dg[u]; k++) if (c[e[k]] < 0) { c[e[k]] = c[u] + 1; q[t++] = e[k] } }
             bad = 0; for (i = 0; i < n; i++) if (c[i] != got[i]) bad++
             printf "%d of %d costs differ from a breadth-first search here\n", bad, n; exit bad > 0 }' "$1" result.txt
}
verify_nn() {  # the five nearest records, computed here from the generated files
  local want got
  want=$(cat data/cane*.db | awk -v la="$1" -v lo="$2" '{ printf "%.3f\n", sqrt(($7 - la)^2 + ($8 - lo)^2) }' | sort -n | head -5 | tr '\n' ' ')
  got=$(grep -a 'Distance=' "$log.out" | sed 's/.*Distance=//' | awk '{ printf "%.3f\n", $1 }' | tr '\n' ' ')
  echo "nearest distances $got(expected $want)"; [ "$want" = "$got" ] && [ -n "$got" ]
}
outputs() {  # checksums of what a run left in its folder (the inputs too, which do not change)
  (cd "$run" && find . -type f ! -name '*.db' -print0 | sort -z | xargs -0 md5sum 2>/dev/null)
}
gen_grid() {  # one value a line: $1 values of $2 +- $3
  awk -v n="$1" -v b="$2" -v r="$3" 'BEGIN { srand(11); for (i = 0; i < n; i++) printf "%.6f\n", b + r * rand() }'
}
gen_hotspot() { gen_grid 4096 323 20 > temp_64; gen_grid 4096 0.0005 0.0005 > power_64; }
gen_hotspot3D() { gen_grid 16384 323 20 > temp_64x4; gen_grid 16384 0.0005 0.0005 > power_64x4; }
gen_kmeans() {  # "id f1 .. f8" per point, three clusters
  awk 'BEGIN { srand(3); for (i = 1; i <= 2048; i++) { c = i % 3; printf "%d", i;
               for (f = 0; f < 8; f++) printf " %.4f", c * 5 + rand(); printf "\n" } }' > points2k.txt
}
gen_btree() {  # count then keys; commands k (queries) and j (range queries)
  awk 'BEGIN { n = 10000; print n; for (i = 1; i <= n; i++) print i }' > keys10k.txt
  # the program reads this file into a buffer with no terminating NUL and parses past its
  # end (a host-side bug: heap garbage can read as an 'i' command, which then waits on stdin);
  # a NUL byte at the end of the file ends the parse
  printf 'j 1000 100\nk 1000\n\0' > command.txt
}
gen_cfd() {  # nel, then per element: area and 4 x (neighbour (1-based, <0 boundary), normal xyz)
  awk 'BEGIN { n = 256; print n; for (i = 1; i <= n; i++) {
               printf "%.6f", 0.01; l = (i > 1 ? i - 1 : -1); r = (i < n ? i + 1 : -2);
               printf " %d %.4f 0 0 %d %.4f 0 0 -1 0 0.1 0 -1 0 -0.1 0\n", l, -0.1, r, 0.1 } }' > mesh256.domn
}
gen_dwt2d() {  # read raw from ../../data/dwt2d/NAME: 64 x 64 RGB bytes
  mkdir -p r1/r2 data/dwt2d && awk 'BEGIN { srand(17); for (i = 0; i < 64 * 64 * 3 + 54; i++) printf "%c", 32 + int(rand() * 200) }' > data/dwt2d/rgb64.bmp
}
gen_huffman() {  # bytes with a skewed distribution
  awk 'BEGIN { srand(5); for (i = 0; i < 65536; i++) printf "%c", 97 + int(rand() * rand() * 20) }' > text64k.in
}
gen_hybridsort() { awk 'BEGIN { srand(9); for (i = 0; i < 65536; i++) printf "%.6f\n", rand() * 1000 }' > floats64k.txt; }
gen_nn() {  # Rodinia's own generator, hurricane_gen.c
  mkdir -p data && gcc -O2 -o hurricane_gen "$src/hurricane_gen.c" -lm >/dev/null 2>&1 &&
    ./hurricane_gen 4096 2 >/dev/null && ls data/cane2_*.db > filelist_2
}
gen_srad_v1() {  # the program reads ../../../data/srad/image.pgm: an ASCII PGM, 64 x 64
  mkdir -p r1/r2/r3 data/srad
  awk 'BEGIN { srand(13); print "P2"; print "64 64"; print 255;
               for (i = 0; i < 64 * 64; i++) print int(100 + 50 * rand()) }' > data/srad/image.pgm
}
gen_mummergpu() { cp "$src/data/shortref.fa" "$src/data/shortqry.fa" . 2>/dev/null; }

# ---- the table: name | folder under cuda/ | sources and flags | run arguments | input | self-check regex
# A self-check regex, when given, must match the output for "pass" (POS!NEG: POS must match
# and NEG must not; @FUNCTION ARGS: a check of this script's, run in the program's folder);
# without one a program that exits 0 is "exit0" (it has no check of its own).
table() { cat <<'EOF'
backprop|backprop|backprop.c facetrain.c imagenet.c backprop_cuda.cu -lm|4096|-|-
bfs|bfs|bfs.cu -I../util|graph4k.txt|gen_bfs|@verify_bfs graph4k.txt
b+tree|b+tree|main.c kernel/kernel_gpu_cuda_wrapper.cu kernel/kernel_gpu_cuda_wrapper_2.cu util/timer/timer.c util/num/num.c util/cuda/cuda.cu|file keys10k.txt command command.txt|gen_btree|-
cfd_euler3d|cfd|euler3d.cu -I@COMMON@|mesh256.domn|gen_cfd|-
cfd_euler3d_double|cfd|euler3d_double.cu -I@COMMON@|mesh256.domn|gen_cfd|-
cfd_pre_euler3d|cfd|pre_euler3d.cu -I@COMMON@|mesh256.domn|gen_cfd|-
cfd_pre_euler3d_double|cfd|pre_euler3d_double.cu -I@COMMON@|mesh256.domn|gen_cfd|-
dwt2d|dwt2d|main.cu dwt.cu components.cu dwt_cuda/fdwt53.cu dwt_cuda/fdwt97.cu dwt_cuda/common.cu dwt_cuda/rdwt97.cu dwt_cuda/rdwt53.cu|rgb64.bmp -d 64x64 -f -5 -l 3|gen_dwt2d|-
gaussian|gaussian|gaussian.cu|-s 16 -q|-|-
heartwall|heartwall|main.cu AVI/avilib.c AVI/avimod.c -IAVI -DOUTPUT|test.avi 2|NODATA|-
hotspot|hotspot|hotspot.cu|64 2 2 temp_64 power_64 output.out|gen_hotspot|-
hotspot3D|hotspot3D|3D.cu|64 4 10 power_64x4 temp_64x4 output.out|gen_hotspot3D|Accuracy
huffman|huffman|main_test_cu.cu stats_logger.cpp vlc_kernel_sm64huff.cu scan.cu pack_kernels.cu cpuencode.cpp -DTESTING|text64k.in|gen_huffman|-
hybridsort|hybridsort|bucketsort.cu mergesort.cu main.cu -DVERIFY -DOUTPUT -DTIMER|floats64k.txt|gen_hybridsort|-
kmeans|kmeans|cluster.c getopt.c kmeans.c kmeans_clustering.c kmeans_cuda.cu rmse.c -Xcompiler -fopenmp -lgomp -lm|-o -i points2k.txt|gen_kmeans|-
lavaMD|lavaMD|main.c kernel/kernel_gpu_cuda_wrapper.cu util/num/num.c util/timer/timer.c util/device/device.cu -lm|-boxes1d 2|-|-
leukocyte|leukocyte|NOBUILD|testfile.avi 1|NODATA|-
lud|lud|cuda/lud.cu cuda/lud_kernel.cu common/common.c -Icommon -lm|-s 256 -v|-|>>>Verify<<<<!dismatch
mummergpu|mummergpu|src/mummergpu.cu src/mummergpu_main.cpp src/mummergpu_gold.cpp src/suffix-tree.cpp src/PoolMalloc.cpp -Isrc -DUNIX|shortref.fa shortqry.fa|gen_mummergpu|-
myocyte|myocyte|main.cu -lm|10 1 0|NODATA|-
nn|nn|nn_cuda.cu|filelist_2 -r 5 -lat 30 -lng 90|gen_nn|@verify_nn 30 90
nw|nw|needle.cu|64 10|-|-
particlefilter_naive|particlefilter|ex_particle_CUDA_naive_seq.cu -use_fast_math -lm|-x 128 -y 128 -z 10 -np 1000|-|-
particlefilter_float|particlefilter|ex_particle_CUDA_float_seq.cu -use_fast_math -lm|-x 128 -y 128 -z 10 -np 1000|-|-
pathfinder|pathfinder|pathfinder.cu|1000 20 5|-|-
srad_v1|srad/srad_v1|main.cu -lm|2 0.5 64 64|gen_srad_v1|-
srad_v2|srad/srad_v2|srad.cu|64 64 0 31 0 31 0.5 2|-|-
streamcluster|streamcluster|streamcluster_cuda_cpu.cpp streamcluster_cuda.cu streamcluster_header.cu|10 20 16 1024 1024 100 none output.txt 1|-|-
EOF
}

[ "$table_only" = 1 ] && { table; exit 0; }

printf 'program\tbuild\tresult\tfunctional_s\ttiming_s\tdetail\n' > "$out/programs.tsv"
table | while IFS='|' read -r name dir build args input check; do
  [ "$only" != "  " ] && [[ "$only" != *" $name "* ]] && continue
  src="$root/cuda/$dir"
  app="$work/bin/$name"
  run="$work/run/$name"
  log="$work/log/$name"
  mkdir -p "$work/bin" "$work/log" && rm -rf "$run" && mkdir -p "$run"
  row() { printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$1" "$2" "$3" "$4" "$(echo "$5" | tr '\t\n' '  ' | cut -c1-220)" >> "$out/programs.tsv"; }
  echo "== $name" >&2
  if [ ! -d "$src" ]; then row no "no_build" "" "" "not in this copy"; continue; fi
  if [ "$build" = NOBUILD ]; then row no "no_build" "" "" "needs the Meschach library built by its own configure; no input video in the copy"; continue; fi
  if [ ! -x "$app" ] && ! (cd "$src" && "$nvcc" -cudart shared -arch=sm_75 -lineinfo -w $compat -o "$app" ${build//@COMMON@/$common}) > "$log.build" 2>&1; then
    row no "no_build" "" "" "$(grep -m1 -iE 'error|undefined' "$log.build")"; continue
  fi
  if [ "$input" = NODATA ]; then row yes "no_input" "" "" "no input data: the copy lacks it and Rodinia ships no generator"; continue; fi
  if [ "$input" != - ]; then (cd "$run" && "$input") > "$log.prep" 2>&1; fi
  cwd=$run  # programs that open ../../data/... or ../../../data/... run deeper
  case $name in srad_v1) cwd=$run/r1/r2/r3 ;; dwt2d) cwd=$run/r1/r2 ;; esac
  start=$(date +%s.%N)
  (cd "$cwd" && timeout "$limit" "$warpsim" exec --config "$config" --functional --no-summary -- "$app" $args) \
    > "$log.out" 2> "$log.err" < /dev/null
  rc=$?
  secs=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
  werr=$(grep -m1 -E 'warpsim|error|Error|ERROR' "$log.err" | cut -c1-200)
  [ -z "$werr" ] && werr=$(grep -a -m1 -iE "error|fail|wrong|mismatch" "$log.out" | cut -c1-200)
  last=$(grep -a -v '^[[:space:]]*$' "$log.out" | tail -1 | cut -c1-120)
  if [ $rc -eq 124 ]; then row yes timeout "$secs" "" "over $limit s in functional mode"; continue
  elif [ $rc -ne 0 ]; then row yes fail "$secs" "" "rc=$rc ${werr:-$last}"; continue
  elif grep -q 'warpsim' "$log.err"; then row yes fail "$secs" "" "exit 0 but: $werr"; continue
  elif [ "${check:0:1}" = @ ]; then
    if v=$(cd "$cwd" && ${check#@}); then result=pass; detail="checked here: $v"
    else row yes wrong "$secs" "" "checked here: $v"; continue; fi
  elif [ "$check" != - ] && grep -aqE "${check%%!*}" "$log.out" && { [ "$check" = "${check#*!}" ] || ! grep -aqE "${check#*!}" "$log.out"; }; then
    result=pass; detail="own check: $(grep -m1 -E "${check%%!*}" "$log.out")"; [ "$check" != "${check#*!}" ] && detail="$detail, no '${check#*!}'"
  elif [ "$check" != - ]; then row yes wrong "$secs" "" "own check failed ($check): $(grep -m1 -E "${check#*!}" "$log.out" || echo "$last")"; continue
  else result=exit0; detail="no self-check; last line: $last"
  fi
  outputs > "$log.sums"
  start=$(date +%s.%N)
  (cd "$cwd" && timeout "$tlimit" "$warpsim" exec --config "$config" -- "$app" $args) \
    > "$log.tout" 2> "$log.terr" < /dev/null
  trc=$?
  tsecs=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
  [ $trc -eq 124 ] && tsecs=">$tlimit"
  [ $trc -ne 0 ] && [ $trc -ne 124 ] && detail="$detail; timing mode rc=$trc $(grep -m1 warpsim "$log.terr")"
  # functional and timing mode must compute the same: compare the files the two runs wrote
  if [ $trc -eq 0 ]; then
    differ=$(outputs | diff "$log.sums" - | awk '/^[<>]/ { print $3 }' | sort -u | tr '\n' ' ')
    if [ -n "$differ" ]; then detail="$detail; files differ between functional and timing mode: $differ"
    else detail="$detail; timing mode wrote the same files"; fi
  fi
  row yes "$result" "$secs" "$tsecs" "$detail"
done

{
  echo "Rodinia at $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo "${RODINIA_COMMIT:-(no git)}"), $(date -u +%Y-%m-%d), $("$nvcc" --version | tail -1), config $config"
  echo "programs: $(($(wc -l < "$out/programs.tsv") - 1))"
  awk -F'\t' 'NR > 1 { print $3 }' "$out/programs.tsv" | sort | uniq -c | sort -rn
} > "$out/summary.txt"
cat "$out/summary.txt"
