#!/usr/bin/env bash
# Regenerates every kernels/**/*.ptx from the .cu beside it, deterministically.
# Whole programs (a .cu that defines main(), e.g. kernels/assignments/vector_program) are
# built by nvcc into programs and run under `warpsim exec`; they have no checked-in PTX.
#
#   tools/regen_ptx.sh              rewrite all .ptx files
#   tools/regen_ptx.sh --check      exit 1 if any checked-in .ptx differs from a fresh build
#                                   (exit 3 when this nvcc is not the release that wrote
#                                   them: the output differs between releases)
#   tools/regen_ptx.sh --registers  print ptxas register counts per kernel (for the specs'
#                                   "registers"; sm_75, since CUDA 13 has no sm_1x/sm_2x)
#
# nvcc writes the absolute path of the source into `.file`; paths inside the repository are
# rewritten relative to the .ptx's own folder so the output does not depend on where the
# checkout lives (system headers keep their absolute path) (the `.file`/`.loc`
# line information stays). The launch-spec loader compiles "cu" specs with the same flags
# (sim/launch/launch_spec_module.cpp: kNvccPtxFlags; a test checks the two agree).
set -euo pipefail

NVCC_PTX_FLAGS=(-ptx -lineinfo -O3 -arch=sm_75)

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
nvcc="${NVCC:-}"
if [[ -z "$nvcc" ]]; then
  if command -v nvcc >/dev/null 2>&1; then nvcc="$(command -v nvcc)";
  elif [[ -x /usr/local/cuda/bin/nvcc ]]; then nvcc=/usr/local/cuda/bin/nvcc;
  else echo "regen_ptx.sh: nvcc not found (looked in PATH and /usr/local/cuda/bin; set NVCC=...)" >&2; exit 2; fi
fi

mode="${1:-write}"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

# Compile $1 (a .cu) to $2 with the .file paths made relative to $1's folder.
compile_ptx() {
  local cu="$1" out="$2" dir
  dir="$(cd "$(dirname "$cu")" && pwd)"
  "$nvcc" "${NVCC_PTX_FLAGS[@]}" "$cu" -o "$tmp/raw.ptx"
  DIR="$dir" REPO="$repo" python3 - "$tmp/raw.ptx" "$out" <<'PY'
import os, re, sys
src, dst = sys.argv[1], sys.argv[2]
base, repo = os.environ["DIR"], os.environ["REPO"]
def rel(m):
    path = m.group(2)
    # Files of the repository become relative; system headers keep their absolute path.
    if os.path.isabs(path) and os.path.commonpath([path, repo]) == repo:
        path = os.path.relpath(path, base)
    return m.group(1) + path + m.group(3)
with open(src) as f:
    text = f.read()
text = re.sub(r'^(\s*\.file\s+\d+\s+")([^"]*)(")', rel, text, flags=re.M)
with open(dst, "w") as f:
    f.write(text)
PY
}

if [[ "$mode" == --check ]]; then
  have="$("$nvcc" --version | grep -m1 'Cuda compilation tools' || true)"
  want="$(grep -h -m1 'Cuda compilation tools' "$repo/kernels/vecadd/vecadd.ptx" | sed 's|^// ||')"
  if [[ "$have" != "$want" ]]; then
    echo "regen_ptx.sh: cannot check: the PTX was written by '$want', this nvcc is '$have'" >&2
    exit 3
  fi
fi

status=0
while IFS= read -r cu; do
  if grep -qE '^[[:space:]]*int[[:space:]]+main[[:space:]]*\(' "$cu"; then continue; fi
  ptx="${cu%.cu}.ptx"
  rel="${cu#"$repo"/}"
  case "$mode" in
    write)
      compile_ptx "$cu" "$ptx"
      echo "wrote ${rel%.cu}.ptx" ;;
    --check)
      compile_ptx "$cu" "$tmp/fresh.ptx"
      if ! cmp -s "$tmp/fresh.ptx" "$ptx"; then echo "stale: ${rel%.cu}.ptx"; status=1; fi ;;
    --registers)
      echo "== $rel"
      "$nvcc" -arch=sm_75 -O3 --resource-usage -cubin "$cu" -o "$tmp/out.cubin" 2>&1 |
        awk '/Compiling entry function/ { split($0, q, "\x27"); name = q[2] }
             /Used [0-9]+ registers/ { for (i = 1; i <= NF; i++) if ($i == "Used") regs = $(i+1);
                                        print "  " name ": " regs " registers" }' ;;
    *) echo "usage: $0 [--check|--registers]" >&2; exit 2 ;;
  esac
done < <(find "$repo/kernels" -name '*.cu' | LC_ALL=C sort)
exit $status
