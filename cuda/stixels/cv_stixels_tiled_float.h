/* gst-cudavision core: stixels, the single-precision tiled DP (internal;
 * cv_stixels_tiled.h says why and how): the float helpers, the tiling's
 * constants, the float model and its setup.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CV_STIXELS_TILED_FLOAT_H
#define CV_STIXELS_TILED_FLOAT_H

#include <float.h>
#include <limits.h>

#include "cv_stixels_model.h"

/* Float helpers: on the GPU the fused multiply-add and the one-instruction
 * approximate reciprocal (< 1 ulp); on the host plain float arithmetic
 * (the emulation predicts the GPU's accuracy, not its bits). */
#ifdef __CUDA_ARCH__
#define CV_STX_FMA(a, b, c) fmaf ((a), (b), (c))
CV_STX_FN float
cv_stx_rcp (float x)
{
  float r;
  asm ("rcp.approx.ftz.f32 %0, %1;":"=f" (r):"f" (x));
  return r;
}
/* @c ? @a : @b as a select: both operands computed, no branch (the
 * compiler otherwise moves a costly operand into a divergent branch). */
CV_STX_FN float
cv_stx_sel (int c, float a, float b)
{
  float r;
  asm ("{ .reg .pred p; setp.ne.s32 p, %3, 0; selp.f32 %0, %1, %2, p; }"
      :"=f" (r):"f" (a), "f" (b), "r" (c));
  return r;
}

/* Comparisons as bit masks (all ones: true) and selects by such masks,
 * without predicate registers: x < y when x - y is negative (its sign bit
 * spread over the word), a select one lop3.  Exact for all operands but
 * NaN (false, as the GPU's NaN is positive) and x = -0, y = +0 (true), as
 * long as denormal differences are kept (no -ftz, this build's default).
 * With comparisons to predicates the compiler turned the selects of a
 * candidate's priors into predicated instructions taking turns on one
 * predicate register, each waiting for the comparison before it: most of
 * the D warp's row step, its serial chain. */
typedef unsigned CvStxMask;
CV_STX_FN CvStxMask
cv_stx_lt (float x, float y)
{
  return (CvStxMask) (__float_as_int (x - y) >> 31);
}

CV_STX_FN CvStxMask
cv_stx_not (CvStxMask m)
{
  return ~m;
}

/* @m ? @a : @b, bit by bit (lop3's table 0xe4: (m & a) | (~m & b)). */
CV_STX_FN float
cv_stx_pick (CvStxMask m, float a, float b)
{
  float r;
  asm ("lop3.b32 %0, %1, %2, %3, 0xe4;":"=f" (r):"f" (a), "f" (b), "r" (m));
  return r;
}

CV_STX_FN int
cv_stx_pick_i (CvStxMask m, int a, int b)
{
  int r;
  asm ("lop3.b32 %0, %1, %2, %3, 0xe4;":"=r" (r):"r" (a), "r" (b), "r" (m));
  return r;
}
#else
#define CV_STX_FMA(a, b, c) ((a) * (b) + (c))
CV_STX_FN float
cv_stx_rcp (float x)
{
  return 1.0f / x;
}

CV_STX_FN float
cv_stx_sel (int c, float a, float b)
{
  return c ? a : b;
}

/* The GPU's comparisons (x - y negative, NaN never), as 0 / 1. */
typedef int CvStxMask;
CV_STX_FN CvStxMask
cv_stx_lt (float x, float y)
{
  const float t = x - y;
  return t < 0.0f || (t == 0.0f && signbit (t));
}

CV_STX_FN CvStxMask
cv_stx_not (CvStxMask m)
{
  return !m;
}

CV_STX_FN float
cv_stx_pick (CvStxMask m, float a, float b)
{
  return m ? a : b;
}

CV_STX_FN int
cv_stx_pick_i (CvStxMask m, int a, int b)
{
  return m ? a : b;
}
#endif

/* The other comparisons, from cv_stx_lt. */
CV_STX_FN CvStxMask
cv_stx_gt (float x, float y)
{
  return cv_stx_lt (y, x);
}

CV_STX_FN CvStxMask
cv_stx_le (float x, float y)
{
  return cv_stx_not (cv_stx_lt (y, x));
}

/* Rows per band: one warp, a lane per row. */
#define CV_STX_BAND 32
/* Bottoms per segment of a block (granularity of the band suffix table). */
#define CV_STX_SEG 4
#define CV_STX_SEGS_PER_BAND (CV_STX_BAND / CV_STX_SEG)
/* Entries (b, t) with b <= t of a diagonal block. */
#define CV_STX_DIAG_ENTRIES (CV_STX_BAND * (CV_STX_BAND + 1) / 2)
/* A diagonal entry is kept in 16-byte planes (one vector load each; a lane
 * per top: consecutive entries, conflict-free): plane 0 the three energies
 * and the ground plane's bottom edge, plane 1 the ground top edge, the
 * object's bottom edge and the ground's slope, plane 2 (sloped objects
 * only) the object's top edge and slope.  The D warp's step needs only
 * the first two of plane 1: side by side, the compiler loads them as one
 * 8-byte load (as two 4-byte loads 8 bytes apart, each with 4-way bank
 * conflicts, when the slope lay between them; docs/performance-history.md,
 * session 73). */
#define CV_STX_DIAG_PLANES(obj_slope) ((obj_slope) ? 3 : 2)
#define CV_STX_DIAG_FLOATS(obj_slope) \
  (4 * CV_STX_DIAG_PLANES (obj_slope) * CV_STX_DIAG_ENTRIES)
/* The critical block's fits (folded scheme, cv_stx_crit_lane): entries
 * (b, t) for every bottom b of a band and top t of the band above, entry
 * b * CV_STX_BAND + t, in the diagonal entries' planes. */
#define CV_STX_CRIT_ENTRIES (CV_STX_BAND * CV_STX_BAND)
#define CV_STX_CRIT_FLOATS(obj_slope) \
  (4 * CV_STX_DIAG_PLANES (obj_slope) * CV_STX_CRIT_ENTRIES)
/* The prepared row states ("below" of bottom b = row b - 1) live in a ring
 * of this many bands: while band J is solved, the blocks read the bottoms
 * of band J - 1 (and bottom band_start (J)), the D phase writes bottoms
 * band_start (J) + 1 .. band_start (J + 1): three bands never alias. */
#define CV_STX_BELOW_RING_BANDS 3
#define CV_STX_BELOW_RING (CV_STX_BELOW_RING_BANDS * CV_STX_BAND)
/* Weights below this are empty sets (the reciprocal stays finite). */
#define CV_STX_TINY 1e-30f
/* "No candidate yet": larger than any real reference (bottom * 4 + code). */
#define CV_STX_REF_NONE INT_MAX
/* Two candidates across an empty cell tie when their energies differ by
 * less than CV_STX_TIE_REL * (|energy| + CV_STX_TIE_FLOOR): some float
 * ulps of the energy, but at least of CV_STX_TIE_FLOOR (~C_mc), since an
 * energy near 0 is a sum of larger terms of both signs (negative f log
 * sigma terms of sky stixels) whose rounding it keeps.  Measured with the
 * CPU emulation on the synthetic scenes of the tests, columns whose stixels
 * differ from the double-precision reference, with the tolerance applied
 * to every comparison:
 *   default priors (3030 columns), relative only: 0 -> 1.2 %, 2^-22 ->
 *   0.20 %, 2^-21 -> 0.10 %, 2^-20 -> 0.10 %, 2^-19 -> 0.13 %, 2^-18 ->
 *   0.26 %, 2^-17 -> 0.66 % (smaller misses the exact ties, larger
 *   swallows genuine near-ties);
 *   random priors too (5445 columns), 2^-20 with floor 0 -> 0.24 % (2
 *   frames of 36 below 99 %), 1 -> 0.15 %, 4 -> 0.02 % (worst frame
 *   99.2 %), 16 -> 0.04 %, 64 -> 0.06 %; floor 4 with 2^-21 -> 0.13 %,
 *   2^-19 -> 0.04 %;
 * and only across empty cells (floor 4): default priors (4566 columns)
 * 2^-20: 8 -> 2 columns, 2^-17: 2, 2^-14: 4; random priors: 1 -> 0 of
 * 5445 at all three.  2^-17 (about 64 ulps) leaves room for the GPU's
 * different rounding (fused multiply-adds, approximate reciprocals). */
#define CV_STX_TIE_REL 7.62939453125e-6f
#define CV_STX_TIE_FLOOR 4.0f
/* A lane stops walking a segment when every class's lower bound reaches
 * ub + CV_STX_PRUNE_REL * (|ub| + prune_floor), prune_floor =
 * CV_STX_TIE_FLOOR + 2 h max |min (0, log sigma)|: the energies are sums
 * whose terms add up to at most |energy| + 2 h max |log sigma| in
 * magnitude (the f log sigma terms are the only negative ones), and 2^-13
 * of that is far above their float rounding (a few ulps) and above the
 * tie tolerance, while the bound usually exceeds ub by whole C_mc. */
#define CV_STX_PRUNE_REL 1.220703125e-4f

/* ---- float model ---------------------------------------------------------- */

/* The model's constants in float (kernel parameter: used as instruction
 * operands, no registers).  The ground prior is separate (CvStxGroundF):
 * it may come from a device pose. */
typedef struct
{
  float h[CV_STIXEL_N_CLASSES]; /* 1 / (2 sigma^2) */
  float log_sigma[CV_STIXEL_N_CLASSES];
  float mc;                     /* C_mc */
  /* transition prior + C_mc, [below][above] (INFINITY: forbidden) */
  float trmc[CV_STIXEL_N_CLASSES][CV_STIXEL_N_CLASSES];
  float gap_tol, gap_an, gap_bn, gap_af, gap_bf;
  float grav_tol, grav_afly, grav_bfly, grav_asink, grav_bsink;
  float ord_a, ord_b;
  float obj_prec_b;             /* object slope: 0 fixed at 0, else Gaussian
                                 * precision (mean 0) */
  /* pruning: min (0, log sigma) per class (the most one cell's valid
   * fraction can lower a candidate's energy by) and the absolute part of
   * the margin */
  float ls_neg[CV_STIXEL_N_CLASSES];
  float prune_floor;
} CvStxModelF;

/* The ground prior, Gaussian in both parameters: precisions and means of
 * the intercept a (px at x = 0) and slope b (px per row). */
typedef struct
{
  float la, lb, ma, mb;
} CvStxGroundF;

/* One cell: weight, centre x, mean disparity d, ground residual g = d -
 * (ma + mb x), own spread c = sum w (d - d_cell)^2 (in w units), valid
 * fraction f, x of its top and of its bottom edge (the bottom edge of a
 * candidate whose bottom cell it is; 0 for cell 0).  8 words (two 16-byte
 * loads). */
#ifdef __CUDACC__
#define CV_STX_ALIGN16 __align__ (16)
#else
#define CV_STX_ALIGN16 __attribute__ ((aligned (16)))
#endif
typedef struct CV_STX_ALIGN16
{
  float w, x, d, g, c, f, xe, xb;
} CvStxCellF;

/* Centred moments of a set of cells: weight n, means of x, d, g,
 * co-moments about the means, valid fraction f.  The empty set is all 0. */
typedef struct
{
  float n, mx, md, mg, cxx, cxg, cdd, cgg, f;
} CvStxMomF;

#define CV_STX_MOM_WORDS 9

/* The three fits of a candidate: own energy (data + plane prior, no C_mc)
 * per class, and the ground / object planes at the candidate's bottom and
 * top edges and their slopes (sky: always 0). */
typedef struct
{
  float cost[CV_STIXEL_N_CLASSES];
  float bot_g, bot_o, top_g, top_o, slope_g, slope_o;
} CvStxFitF;


/* What a candidate needs of the best segmentations of the rows below its
 * bottom (one row's final state, prepared; cv_stx_below_prepare in float
 * with the structural priors' thresholds and offsets folded in):
 *  ground: gap prior around g_lo / g_hi (edge_g -+ tolerance), offsets
 *          g_cn / g_cf (gg + alpha -+ beta edge_g), gg, other_g;
 *  object: gravity around o_lo / o_hi, o_csink / o_cfly, go; ordering
 *          against edge_o with o_cord, oo; other_o;
 *  sky:    other_s;
 *  code_*: class-below code (class + 1, 0 = none) of other_g, other_o,
 *          other_s.
 * 20 words, aligned: five 16-byte loads. */
typedef struct CV_STX_ALIGN16
{
  float g_hi, g_lo, g_cn, g_cf, gg, other_g;
  float o_hi, o_lo, o_csink, o_cfly, go, edge_o, o_cord, oo, other_o;
  float other_s;
  int code_g, code_o, code_s, pad;
} CvStxBelowF;

/* A row's best segmentation per class: energy, reference (bottom * 4 +
 * class-below code), and for ground and objects the plane's top-edge
 * disparity and slope (sky: 0). */
typedef struct
{
  float cost[CV_STIXEL_N_CLASSES];
  int ref[CV_STIXEL_N_CLASSES];
  float edge_g, edge_o, slope_g, slope_o;
} CvStxBestF;

#define CV_STX_BEST_WORDS 10

/* ---- geometry of the tiling ----------------------------------------------- */

CV_STX_FN int
cv_stx_n_bands (int h)
{
  return (h + CV_STX_BAND - 1) / CV_STX_BAND;
}

CV_STX_FN int
cv_stx_band_end (int band, int h)
{
  int e = (band + 1) * CV_STX_BAND;
  return e < h ? e : h;
}

/* The ring entries of band @band's bottoms: entry b - band_start is
 * bottom b (and entry CV_STX_BAND, i.e. the next band's first, bottom
 * band_end). */
CV_STX_FN int
cv_stx_below_slot (int band)
{
  return band % CV_STX_BELOW_RING_BANDS * CV_STX_BAND;
}

/* Index of the union of bands i..j (i <= j) in the packed table. */
CV_STX_FN int
cv_stx_range_index (int i, int j, int n_bands)
{
  return i * n_bands - i * (i - 1) / 2 + (j - i);
}

CV_STX_FN int
cv_stx_range_entries (int n_bands)
{
  return n_bands * (n_bands + 1) / 2;
}

/* Index of diagonal entry (bottom i, top j), 0 <= i <= j < CV_STX_BAND,
 * in the packed table: for a fixed bottom the tops are consecutive (the D
 * phase reads one bottom per step, a lane per top: conflict-free). */
CV_STX_FN int
cv_stx_diag_index (int i, int j)
{
  return i * CV_STX_BAND - i * (i - 1) / 2 + (j - i);
}

/* ---- model setup (host) --------------------------------------------------- */

CV_STX_FN void
cv_stx_model_f_init (const CvStxModel * m, CvStxModelF * f)
{
  int i, j;
  for (i = 0; i < CV_STIXEL_N_CLASSES; i++) {
    f->h[i] = (float) m->half_inv_var[i];
    f->log_sigma[i] = (float) m->log_sigma[i];
    for (j = 0; j < CV_STIXEL_N_CLASSES; j++)
      f->trmc[i][j] = (float) (m->transition[i][j] + m->model_complexity);
  }
  f->mc = (float) m->model_complexity;
  f->gap_tol = (float) m->gap_tol;
  f->gap_an = (float) m->gap_alpha_near;
  f->gap_bn = (float) m->gap_beta_near;
  f->gap_af = (float) m->gap_alpha_far;
  f->gap_bf = (float) m->gap_beta_far;
  f->grav_tol = (float) m->grav_tol;
  f->grav_afly = (float) m->grav_alpha_fly;
  f->grav_bfly = (float) m->grav_beta_fly;
  f->grav_asink = (float) m->grav_alpha_sink;
  f->grav_bsink = (float) m->grav_beta_sink;
  f->ord_a = (float) m->ord_alpha;
  f->ord_b = (float) m->ord_beta;
  f->obj_prec_b = m->plane[CV_STX_O].mode_b == CV_STX_GAUSS ?
      (float) m->plane[CV_STX_O].prec_b : 0.0f;
  {
    float worst = 0.0f;
    for (i = 0; i < CV_STIXEL_N_CLASSES; i++) {
      f->ls_neg[i] = fminf (f->log_sigma[i], 0.0f);
      worst = fmaxf (worst, -f->ls_neg[i]);
    }
    f->prune_floor = CV_STX_TIE_FLOOR + 2.0f * (float) m->n_rows * worst;
  }
}

/* TRUE when the float formulation covers the model's plane priors: ground
 * Gaussian in both parameters, objects of free distance with the slope
 * fixed at 0 or Gaussian around 0, sky fixed at 0 (the defaults and every
 * prior cv_stixel_params can express except zero pose uncertainties and an
 * unbounded object slope). */
CV_STX_FN int
cv_stx_tiled_supports (const CvStxModel * m, int device_pose)
{
  const CvStxPlanePrior *g = &m->plane[CV_STX_G], *o = &m->plane[CV_STX_O],
      *s = &m->plane[CV_STX_S];
  /* a device pose makes its own ground prior: Gaussian whenever both pose
   * uncertainties are > 0 */
  const int ground_ok = (g->mode_a == CV_STX_GAUSS
      && g->mode_b == CV_STX_GAUSS) && (!device_pose
      || (m->height_sigma > 0.0 && m->pitch_sigma > 0.0));
  const int object_ok = o->mode_a == CV_STX_FREE
      && ((o->mode_b == CV_STX_FIXED && o->mean_b == 0.0)
      || (o->mode_b == CV_STX_GAUSS && o->mean_b == 0.0));
  const int sky_ok = s->mode_a == CV_STX_FIXED && s->mode_b == CV_STX_FIXED
      && s->mean_a == 0.0 && s->mean_b == 0.0;
  return ground_ok && object_ok && sky_ok;
}

CV_STX_FN CvStxGroundF
cv_stx_ground_f (const CvStxPlanePrior * g)
{
  CvStxGroundF f;
  f.la = (float) g->prec_a;
  f.lb = (float) g->prec_b;
  f.ma = (float) g->mean_a;
  f.mb = (float) g->mean_b;
  return f;
}

#endif /* CV_STIXELS_TILED_FLOAT_H */
