#!/usr/bin/env python3
"""Compares two outputs of tools/calibration/half_approx_sweep.cu (the GPU's and warpsim's):
for each instruction, how many of the 65,536 inputs (pairs: of the 131,072 halves) give
different bits, and the largest difference in units in the last place.

  python3 tools/calibration/compare_half_approx.py GPU.bin WARPSIM.bin
"""
import array
import sys

NAMES = ["tanh.approx.f16", "tanh.approx.bf16", "ex2.approx.f16", "ex2.approx.ftz.bf16",
         "tanh.approx.f16x2", "tanh.approx.bf16x2", "ex2.approx.f16x2", "ex2.approx.ftz.bf16x2"]
N = 65536


def load(path):
    a = array.array("I")
    with open(path, "rb") as f:
        a.frombytes(f.read())
    if len(a) != len(NAMES) * N:
        sys.exit(f"{path}: {len(a)} words, expected {len(NAMES) * N}")
    if sys.byteorder != "little":
        a.byteswap()
    return a


def order(h):
    """A half's bits as a number in the formats' order (a NaN sorts past infinity)."""
    return -(h & 0x7FFF) if h & 0x8000 else h & 0x7FFF


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    gpu, sim = load(sys.argv[1]), load(sys.argv[2])
    print(f"{'instruction':24} {'differ':>8} {'of':>7} {'max ulp':>7}")
    for k, name in enumerate(NAMES):
        halves = 2 if name.endswith("x2") else 1
        differ = worst = 0
        for i in range(N):
            g, s = gpu[k * N + i], sim[k * N + i]
            for h in range(halves):
                gh, sh = (g >> (16 * h)) & 0xFFFF, (s >> (16 * h)) & 0xFFFF
                if gh != sh:
                    differ += 1
                    worst = max(worst, abs(order(gh) - order(sh)))
        print(f"{name:24} {differ:8d} {N * halves:7d} {worst:7d}")


if __name__ == "__main__":
    main()
