#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""The stall counts ptxas wrote into a kernel's loops, from cuobjdump -sass.

    cuobjdump -sass APP | awk '/Function : NAME/{p=1} p&&/Function : /&&!/NAME/{p=0} p' > k.sass
    tools/sass-stall-counts.py k.sass               # every loop with warp shuffles
    tools/sass-stall-counts.py k.sass LO HI [-v]    # the instructions LO..HI (hex)

Every sm_70+ instruction carries control bits beside its opcode; the
4-bit stall count is how many cycles the warp waits before it issues its
next instruction (at least one).  A warp that has its scheduler to itself
(the stixels D warp) spends at least their sum per pass through a loop,
plus the waits on variable-latency results (shuffles, shared loads), which
the control bits' barriers mark.  The sum against the instruction count
tells whether fewer instructions would make a loop faster: where the sum
is mostly ones, yes; where ptxas had to wait for dependencies, the
instructions removed may leave their cycles to the waits (session 43).
-v lists every instruction with its stall count, yield bit, write and
read barrier and the barriers it waits on.
"""
import re
import sys

INSTR = re.compile(r'\s*/\*([0-9a-f]{4,})\*/\s+(.*?);\s*/\* (0x[0-9a-f]+) \*/')
WORD = re.compile(r'\s*/\* (0x[0-9a-f]+) \*/')
BRANCH = re.compile(r'\bBRA (?:`\()?(0x[0-9a-f]+)')


def load(path):
    """(address, text, control word) per instruction."""
    lines = open(path).read().split('\n')
    out = []
    for k, line in enumerate(lines[:-1]):
        m = INSTR.match(line)
        w = WORD.match(lines[k + 1]) if m else None
        if m and w:
            out.append((int(m.group(1), 16), m.group(2).strip(),
                        int(w.group(1), 16)))
    return out


def control(word):
    """stall, yield, write barrier, read barrier, wait mask."""
    return ((word >> 41) & 0xf, (word >> 45) & 1, (word >> 46) & 7,
            (word >> 49) & 7, (word >> 52) & 0x3f)


def report(ins, lo, hi, verbose):
    body = [i for i in ins if lo <= i[0] <= hi]
    stalls = [control(w)[0] for _, _, w in body]
    hist = {}
    for s in stalls:
        hist[s] = hist.get(s, 0) + 1
    print('%x-%x: %d instructions, stall counts sum to %d cycles '
          '(count: instructions) %s' % (lo, hi, len(body), sum(stalls),
                                        sorted(hist.items())))
    if verbose:
        for a, text, w in body:
            s, y, wb, rb, wm = control(w)
            print('  %5x %-56s stall %2d yield %d wb %d rb %d wait %s'
                  % (a, text[:56], s, y, wb, rb, format(wm, '06b')))


def main():
    args = [a for a in sys.argv[1:] if a != '-v']
    verbose = '-v' in sys.argv[1:]
    if not args:
        sys.exit(__doc__)
    ins = load(args[0])
    if len(args) >= 3:
        report(ins, int(args[1], 16), int(args[2], 16), verbose)
        return
    where = {a: k for k, (a, _, _) in enumerate(ins)}
    for k, (a, text, _) in enumerate(ins):
        m = BRANCH.search(text)
        if m is None:
            continue
        target = int(m.group(1), 16)
        if target > a or target not in where:
            continue
        body = ins[where[target]:k + 1]
        if sum('SHFL' in t for _, t, _ in body) > 0:
            report(ins, target, a, verbose)


if __name__ == '__main__':
    main()
