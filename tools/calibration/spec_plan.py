#!/usr/bin/env python3
"""Turn warpsim launch specs (kernels/*/*.json) into launch plans for spec_launch.cu, so the
very PTX warpsim runs is launched on a real GPU with the same grid, block, buffers and
arguments.  usage: spec_plan.py OUT.plan SPEC[:var=val,...] ..."""
import json, os, re, sys

def evaluate(expr, vars_):
    if isinstance(expr, (int, float)):
        return expr
    e = re.sub(r'(?<!/)/(?!/)', '//', str(expr))
    env = dict(vars_)
    env.update(ceil_div=lambda a, b: -(-a // b), min=min, max=max)
    return int(eval(e, {"__builtins__": {}}, env))

def entry_params(ptx, kernel):
    text = open(ptx).read()
    entries = re.findall(r'\.entry\s+(\w+)\s*\((.*?)\)', text, re.S)
    for name, params in entries:
        if name == kernel or re.match(r'_Z\d+' + re.escape(kernel) + r'(?!\w)', name) or \
           re.match(r'_Z%d%s' % (len(kernel), re.escape(kernel)), name):
            out = []
            for p in params.split(','):
                m = re.search(r'\.param\s+(?:\.align\s+(\d+)\s+)?\.(\w+)\s+\w+(?:\[(\d+)\])?', p)
                out.append((m.group(2), int(m.group(3) or 0), int(m.group(1) or 0)))
            return name, out
    raise SystemExit(f'{ptx}: no entry for {kernel}')

SIZES = {'u8': 1, 's8': 1, 'u16': 2, 's16': 2, 'u32': 4, 's32': 4, 'u64': 8, 's64': 8, 'f32': 4, 'f64': 8}

def plan(spec_arg):
    path, _, sets = spec_arg.partition(':')
    d = json.load(open(path))
    vars_ = dict(d.get('vars', {}))
    for s in filter(None, sets.split(',')):
        k, v = s.split('=')
        vars_[k] = int(v)
    ptx = os.path.join(os.path.dirname(path), d['ptx'])
    name, params = entry_params(ptx, d['kernel'])
    dims = lambda key: ([evaluate(x, vars_) for x in d[key]] + [1, 1])[:3]
    lines = [f'launch {path}{":" + sets if sets else ""}', f'ptx {ptx}', f'kernel {name}',
             'grid %d %d %d' % tuple(dims('grid')), 'block %d %d %d' % tuple(dims('block')),
             f'smem {evaluate(d.get("shared_bytes", 0), vars_)}']
    index = {}
    for i, (bname, b) in enumerate(d.get('buffers', {}).items()):
        index[bname] = i
        init = b.get('init', 'zero')
        if init == 'zero': how = 'zero 0 0 0'
        elif init == 'iota': how = 'iota 0 1 0'
        elif 'iota' in init: how = f"iota {init['iota'].get('start', 0)} {init['iota'].get('step', 1)} 0"
        elif 'value' in init: how = f"value {init['value']} 0 0"
        elif 'random' in init: r = init['random']; how = f"random {r['seed']} {r['min']} {r['max']}"
        elif 'offsets' in init: r = init['offsets']; how = f"offsets {r['seed']} {r['min']} {r['max']}"
        else: raise SystemExit(f'{path}: init {init}')
        how = ' '.join(str(evaluate(x, vars_)) if re.match(r'^[a-z_]', str(x)) and x not in
                       ('zero', 'iota', 'value', 'random', 'offsets') else str(x) for x in how.split())
        lines.append(f"buffer {b['type']} {evaluate(b['count'], vars_)} {how}")
        if bname == 'cycles':
            lines.append(f'readback {i}')
    for (ptype, size, align), arg in zip(params, d['args']):
        if isinstance(arg, dict):  # struct by value: members packed with natural alignment
            items, off = [], 0
            for m in arg['struct']:
                if isinstance(m, str): t, v = 'ptr', index[m]
                else: (t, v), = m.items(); v = evaluate(v, vars_)
                s = 8 if t == 'ptr' else SIZES[t]
                off = -(-off // s) * s
                items.append(f'{t}:{v}@{off}'); off += s
            lines.append(f'param {size} ' + ' '.join(items))
        elif isinstance(arg, str) and arg in index:
            lines.append(f'param 8 ptr:{index[arg]}@0')
        else:
            v = evaluate(arg, vars_) if isinstance(arg, str) else arg
            t = {'u64': 'u64', 'u32': 'u32', 's32': 's32', 'f32': 'f32', 'f64': 'f64', 's64': 's64'}[ptype]
            lines.append(f'param {SIZES[t]} {t}:{v}@0')
    lines.append('end')
    return '\n'.join(lines) + '\n'

if __name__ == '__main__':
    with open(sys.argv[1], 'w') as f:
        for s in sys.argv[2:]:
            f.write(plan(s))
