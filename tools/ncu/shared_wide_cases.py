#!/usr/bin/env python3
"""Writes tools/ncu/shared_wide_cases.txt: one warp's shared-memory access patterns at 4, 8
and 16 bytes per lane, for measuring how the GPU splits a wide shared access into wavefronts
(tools/ncu/shared_wide.sh on the GPU; tests/650_hardware/shared_wide_test.cpp here).
Deterministic: the random patterns use fixed seeds.   tools/ncu/shared_wide_cases.py"""
import os, random

def patterns(w):
    g = 128 // w  # elements in 128 bytes: one row of the 32 four-byte banks
    p = {
        'linear': list(range(32)), 'same': [0] * 32,
        'halves': [0 if i < 16 else 1 for i in range(32)],
        'halves_same_bank': [0 if i < 16 else g for i in range(32)],
        'quarters': [i // 8 for i in range(32)],
        'quarters_same_bank': [(i // 8) * g for i in range(32)],
        'mod8': [i % 8 for i in range(32)], 'mod16': [i % 16 for i in range(32)],
        'pairs': [i // 2 for i in range(32)], 'fours': [i // 4 for i in range(32)],
        'stride2': [2 * i for i in range(32)], 'stride4': [4 * i for i in range(32)],
        'stride8': [8 * i for i in range(32)], 'stride32': [32 * i for i in range(32)],
        'reverse': [31 - i for i in range(32)], 'xor1': [i ^ 1 for i in range(32)],
        'rotate8': [(i + 8) % 32 for i in range(32)], 'rotate16': [(i + 16) % 32 for i in range(32)],
        'two_rows': [i % 2 * g for i in range(32)], 'mod8_rows': [(i % 8) * g for i in range(32)],
        'quarter_mod4': [(i // 8) * 4 + i % 4 for i in range(32)],
        'even_lanes': [i if i % 2 == 0 else -1 for i in range(32)],
        'low_half': [i if i < 16 else -1 for i in range(32)],
        'lane0': [0 if i == 0 else -1 for i in range(32)],
        'one_per_quarter': [i if i % 8 == 0 else -1 for i in range(32)],
    }
    r = random.Random(1234 + w)
    for k in range(6): p[f'random{k}'] = [r.randrange(64) for _ in range(32)]
    for k in range(4): p[f'random_narrow{k}'] = [r.randrange(8) for _ in range(32)]
    for k in range(2): p[f'random_inactive{k}'] = [r.randrange(64) if r.random() < 0.6 else -1 for _ in range(32)]
    return p

out = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'shared_wide_cases.txt')
with open(out, 'w') as f:
    f.write("# Shared-memory access patterns of one warp (tools/ncu/shared_wide.cu, tests/650_hardware):\n")
    f.write("# name | bytes per lane | the 32 lanes' byte offsets into a shared array (-1: lane inactive)\n")
    f.write("# Offsets are multiples of the width; written by tools/ncu/shared_wide_cases.py.\n")
    for w in (4, 8, 16):
        for n, p in patterns(w).items():
            f.write(f"{n}_{w} | {w} | {' '.join(str(x * w if x >= 0 else -1) for x in p)}\n")

# A second set, measured after the wavefront rule of sim/sm/shared_banks.cpp was fitted to
# the first: structured random patterns (lane pairs sharing an address, few distinct
# addresses, repeated quarters), to check the rule on patterns it was not fitted to.
def holdout(w):
    r = random.Random(9000 + w)
    p = {}
    for k in range(4):  # every even/odd lane pair reads one address
        a = [r.randrange(64) for _ in range(16)]
        p[f'h_pairs{k}'] = [a[i // 2] for i in range(32)]
    for k in range(4):  # some pairs share, some do not
        p[f'h_somepairs{k}'] = []
        for i in range(16):
            x = r.randrange(64)
            p[f'h_somepairs{k}'] += [x, x] if r.random() < 0.5 else [x, r.randrange(64)]
    for k in range(4):  # two or three distinct addresses, any lanes
        a = [r.randrange(64) for _ in range(2 + k % 2)]
        p[f'h_few{k}'] = [r.choice(a) for _ in range(32)]
    for k in range(3):  # one quarter's pattern repeated in all four
        q = [r.randrange(64) for _ in range(8)]
        p[f'h_repeat{k}'] = q * 4
    for k in range(3):  # pairs sharing, some lanes inactive
        a = [r.randrange(64) for _ in range(16)]
        p[f'h_pairs_inactive{k}'] = [a[i // 2] if r.random() < 0.7 else -1 for i in range(32)]
    return p

with open(out, 'a') as f:
    for w in (8, 16):
        for n, p in holdout(w).items():
            f.write(f"{n}_{w} | {w} | {' '.join(str(x * w if x >= 0 else -1) for x in p)}\n")
