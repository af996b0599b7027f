#!/usr/bin/env python3
"""Compares warpsim's memory counts with Nsight Compute's on real hardware.

Reads the measurements written by tools/ncu/validate_ncu.sh (case,metric,value), runs each
case of tools/ncu/cases.txt through `warpsim run --functional` with the counting rules of the
measured GPU (sector32 coalescing: one 32-byte sector per distinct sector a warp touches;
32 four-byte shared-memory banks), and prints a table of both sides and whether they agree.
Exit status 1 when any count differs.

  tools/ncu/compare_ncu.py docs/measurements/h100_ncu_counts.csv [--warpsim build/tools/warpsim]
"""
import argparse
import csv
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

# Sector-based coalescing as on cc 5.x and later; the C2070 config's shared-memory rules
# (32 banks of 4 bytes, whole-warp requests) are those of the later GPUs too.
SETS = ['coalescer={"rules":"sector32","subwarp_size":32}']


def pairs():
    """(warpsim metric, [ncu metrics summed]) from metrics.txt."""
    with open(os.path.join(HERE, "metrics.txt")) as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            ours, theirs = (p.strip() for p in line.split("|"))
            yield ours, theirs.split()


def cases():
    with open(os.path.join(HERE, "cases.txt")) as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            name, _, spec, vars_ = (p.strip() for p in line.split("|"))
            yield name, spec, vars_.split()


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("measurements")
    ap.add_argument("--warpsim", default=os.path.join(ROOT, "build", "tools", "warpsim"))
    args = ap.parse_args()
    hw = {}
    if not os.path.isfile(args.measurements):
        sys.exit(f"compare_ncu: {args.measurements}: no such file (write it with tools/ncu/validate_ncu.sh)")
    if not os.access(args.warpsim, os.X_OK):
        sys.exit(f"compare_ncu: {args.warpsim}: not an executable warpsim (build it, or pass --warpsim)")
    with open(args.measurements) as f:
        for r in csv.DictReader(f):
            hw[(r["case"], r["metric"])] = float(r["value"])
    bad = 0
    print(f"{'case':<28} {'metric':<27} {'hardware':>10} {'warpsim':>10}")
    with tempfile.TemporaryDirectory() as tmp:
        for name, spec, vars_ in cases():
            out = os.path.join(tmp, name + ".json")
            cmd = [args.warpsim, "run", os.path.join(ROOT, spec), "--functional", "--json", out]
            for v in vars_:
                cmd += ["--var", v]
            for s in SETS:
                cmd += ["--set", s]
            if subprocess.run(cmd, stdout=subprocess.DEVNULL).returncode != 0:
                sys.exit(f"compare_ncu: case {name}: warpsim failed (command: {' '.join(cmd)})")
            m = json.load(open(out))["metrics"]
            for ours, theirs in pairs():
                if not all((name, t) in hw for t in theirs):
                    continue
                h = sum(hw[(name, t)] for t in theirs)
                w = m[ours]
                same = abs(h - w) < 0.5
                bad += not same
                print(f"{name:<28} {ours:<27} {h:>10.0f} {w:>10.0f} {'' if same else '  DIFFERS'}")
    print(f"{bad} of the counts differ")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
