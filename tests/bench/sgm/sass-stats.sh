#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Instruction counts of the SGM kernels from their SASS (needs cuobjdump
# of the CUDA toolkit), for the per-cell cost estimates of bench-sgm:
# per kernel the total number of instructions and, for each loop (a
# backward branch), its length and opcode mix.  The loop of one row step
# (or pixel step) divided by the cells it handles is the instruction count
# per cell and path.
#
#   tests/bench/sgm/sass-stats.sh BUILD_DIR [KERNEL_REGEX]
#
# BUILD_DIR: the meson build directory; KERNEL_REGEX (grep -E on the
# mangled names) defaults to the kernels of the D = 128 benchmark rows:
# the baseline path and horizontal kernels with K = 4 (centre-symmetric
# census), the packed kernels for D = 128.
set -eu
build=${1:?usage: sass-stats.sh BUILD_DIR [KERNEL_REGEX]}
pattern=${2:-'sgm_paths_kernelILi4EjLi2E|sgm_horizontal_kernelILi4EjE|sgm_fast_horizontal_kernelILi32ELi2EjE|sgm_fast_paths_kernelILi8ELi8EE|sgm_fast_paths_kernelILi4ELi16EE|sgm_fast_wta_kernelILi8EE|sgm_census_kernelIjLb1E|sgm_post_kernel'}
objdir=$build/cuda/libcvcore.a.p
command -v cuobjdump >/dev/null 2>&1 || PATH=$PATH:/usr/local/cuda/bin

for obj in "$objdir"/*sgm*.cu.o; do
  cuobjdump --dump-sass "$obj" 2>/dev/null
done | awk -v pat="$pattern" '
function hex(s,   i, c, v) {
  v = 0;
  s = tolower (s);
  for (i = 1; i <= length (s); i++) {
    c = index ("0123456789abcdef", substr (s, i, 1));
    if (c == 0)
      break;
    v = v * 16 + c - 1;
  }
  return v;
}
function flush(   i, j, n, line, op, target, start, cnt, hist, k, out) {
  if (fn == "" || fn !~ pat)
    return;
  printf "%s: %d instructions\n", fn, ninst;
  for (i = 1; i <= ninst; i++) {
    if (ops[i] !~ /^BRA/ || targets[i] == "")
      continue;
    target = targets[i];
    start = 0;
    for (j = 1; j <= i; j++)
      if (addrs[j] == target) { start = j; break; }
    if (start == 0)
      continue;
    if (start >= i)
      continue;
    delete hist;
    cnt = 0;
    for (j = start; j <= i; j++) {
      split (ops[j], k, ".");
      hist[k[1]]++;
      cnt++;
    }
    out = "";
    for (op in hist)
      out = out sprintf (" %s:%d", op, hist[op]);
    printf "  loop 0x%x..0x%x: %d instructions:%s\n", target, addrs[i], cnt,
        out;
  }
}
/Function : / {
  flush();
  fn = $3; ninst = 0;
  delete ops; delete addrs; delete targets; delete labels;
  next;
}
/^[ \t]*\.L_x_[0-9]+:/ {
  lbl = $0; sub (/^[ \t]*/, "", lbl); sub (/:.*/, "", lbl);
  pending[lbl] = 1;
  next;
}
/^ +\/\*[0-9a-f]+\*\/ / {
  line = $0;
  addr = line; sub (/^ +\/\*/, "", addr); sub (/\*\/.*/, "", addr);
  body = line; sub (/^ +\/\*[0-9a-f]+\*\/ +/, "", body); sub (/ ;.*/, "", body);
  sub (/^@!?U?P[0-9T] +/, "", body);
  split (body, w, " ");
  if (w[1] == "NOP" || w[1] == "")
    next;
  ninst++;
  ops[ninst] = w[1];
  addrs[ninst] = hex(addr);
  targets[ninst] = "";
  for (lbl in pending)
    labels[lbl] = addrs[ninst];
  delete pending;
  if (w[1] ~ /^BRA/ && body ~ /\.L_x_[0-9]+/) {
    t = body; sub (/.*\.L_x_/, ".L_x_", t); sub (/[^.L_x0-9].*/, "", t);
    targets[ninst] = t in labels ? labels[t] : "";
  }
  else if (w[1] ~ /^BRA/ && body ~ /0x[0-9a-f]+/) {
    t = body; sub (/.*0x/, "", t);
    targets[ninst] = hex(t);
  }
}
END { flush(); }
'
