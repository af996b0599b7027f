#!/usr/bin/env python3
"""One function's own host instructions, instruction by instruction, from a callgrind run
made with --dump-instr=yes, joined to the binary's disassembly by address.

  valgrind --tool=callgrind --dump-instr=yes --callgrind-out-file=cg.out \
      build/tools/warpsim run kernels/matmul/matmul_tiled_512.json --functional --threads 1
  tools/bench/callgrind_by_instruction.py cg.out 'WarpExecutor::run_plain' build/tools/warpsim

Prints the function's total, then each instruction of its address range with the times it
ran (0 for those that never did). The function is the first whose name contains the given
text (callgrind names, demangled; a target_clones clone ends in "[clone .arch_x86_64_v3]").
Calls' inclusive costs are left out: only the instructions' own counts.
"""
import collections
import re
import subprocess
import sys


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    cg, pattern, binary = sys.argv[1:4]
    names = {}
    current = None
    chosen = None
    cost = collections.Counter()
    last = 0
    after_call = False
    position = re.compile(r'^([+-]?\d+|0x[0-9a-fA-F]+|\*)\s+\S+\s+(\d+)')
    with open(cg) as f:
        for line in f:
            m = re.match(r'^(c?fn)=\((\d+)\)(?: (.*))?', line)
            if m:
                kind, index, name = m.groups()
                if name:
                    names[index] = name.strip()
                if kind == 'fn':
                    current = names.get(index)
                    if chosen is None and current and pattern in current:
                        chosen = current
                continue
            if line.startswith('calls='):
                after_call = True  # the next cost line is the call's inclusive cost
                continue
            m = position.match(line)
            if not m:
                continue
            p, count = m.groups()
            if p.startswith('0x'):
                address = int(p, 16)
            elif p == '*':
                address = last
            elif p[0] in '+-':
                address = last + int(p)
            else:
                address = int(p)
            last = address
            if after_call:
                after_call = False
                continue
            if chosen is not None and current == chosen:
                cost[address] += int(count)
    if not cost:
        sys.exit(f'no function matching {pattern!r} with costs (was the run made with --dump-instr=yes?)')
    print(f'{chosen}\ntotal {sum(cost.values()):,}')
    lo, hi = min(cost), max(cost)
    text = subprocess.run(['objdump', '-d', '--no-show-raw-insn', '-C', f'--start-address={lo}',
                           f'--stop-address={hi + 16}', binary], capture_output=True, text=True, check=True).stdout
    for line in text.splitlines():
        m = re.match(r'\s*([0-9a-f]+):\s*(.*)', line)
        if m:
            print(f'{cost.get(int(m.group(1), 16), 0):>14,}  {line.strip()}')


if __name__ == '__main__':
    main()
