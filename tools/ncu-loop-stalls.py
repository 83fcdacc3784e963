#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Warp-state samples of a kernel's loops, per SASS instruction, from ncu.

    ncu --kernel-name regex:NAME --launch-skip N --launch-count K \\
        --section SourceCounters --warp-sampling-interval 0 -o prof APP ...
    ncu --import prof.ncu-rep --page source --print-source sass --csv > s.csv
    tools/ncu-loop-stalls.py s.csv            # every loop, then the busiest
                                              # loop with warp shuffles
    tools/ncu-loop-stalls.py s.csv LO HI      # the instructions LO..HI (hex)

The launches in the CSV are summed by the low 20 bits of each address (the
same kernel loaded at different bases).  For each instruction: executions,
samples and the three most frequent stall reasons; for the region: the
reasons' shares.  "selected" samples are issue slots: a loop whose samples
are mostly "selected" is bound by its instruction count.
"""
import csv
import re
import sys


def load(path):
    rows = list(csv.reader(open(path)))
    starts = [k for k, r in enumerate(rows) if r and r[0] == 'Kernel Name']
    hdr, acc = None, {}
    for n, s in enumerate(starts):
        end = starts[n + 1] if n + 1 < len(starts) else len(rows)
        hdr = rows[s + 1]
        for r in rows[s + 2:end]:
            if len(r) < len(hdr) or not r[0].startswith('0x'):
                continue
            a = int(r[0], 16) & 0xfffff
            entry = acc.setdefault(a, [r[1].strip(), [0.0] * len(hdr)])
            for i in range(2, len(hdr)):
                try:
                    entry[1][i] += float(r[i])
                except ValueError:
                    pass
    return hdr, acc


def main():
    hdr, acc = load(sys.argv[1])
    ix = {h: i for i, h in enumerate(hdr)}
    stalls = [h for h in hdr if h.startswith('stall_') and 'Not Issued' not in h]
    order = sorted(acc)

    def val(a, h):
        return acc[a][1][ix[h]]

    samples = 'Warp Stall Sampling (All Samples)'
    best = None
    for a in order:
        m = re.search(r'BRA (0x[0-9a-f]+)', acc[a][0])
        if not m or (int(m.group(1), 16) & 0xfffff) >= a:
            continue
        lo = int(m.group(1), 16) & 0xfffff
        body = [x for x in order if lo <= x <= a]
        n = sum(val(x, samples) for x in body)
        print('loop %x-%x: %d instructions, back branch taken %d times, %d samples'
              % (lo, a, len(body), val(a, 'Instructions Executed'), n))
        if any('SHFL' in acc[x][0] for x in body) and (best is None or n > best[2]):
            best = (lo, a, n)
    if len(sys.argv) > 3:
        lo, hi = int(sys.argv[2], 16), int(sys.argv[3], 16)
    elif best is not None:
        lo, hi = best[0], best[1]
    else:
        return
    body = [x for x in order if lo <= x <= hi]
    total = sum(val(x, samples) for x in body)
    print('\nregion %x-%x: %d instructions, %d samples' % (lo, hi, len(body), total))
    shares = {h: sum(val(x, h) for x in body) for h in stalls}
    for h, v in sorted(shares.items(), key=lambda kv: -kv[1])[:10]:
        print('  %-28s %7d  %4.1f %%' % (h, v, 100.0 * v / max(total, 1)))
    print()
    for x in body:
        top = sorted(((val(x, h), h[6:]) for h in stalls), reverse=True)[:3]
        print('%5x %-52s %8d %6d  %s' % (x, acc[x][0][:52],
              val(x, 'Instructions Executed'), val(x, samples),
              ' '.join('%s:%d' % (n, v) for v, n in top if v > 0)))


if __name__ == '__main__':
    main()
