/* gst-cudavision core: stixels, the single-precision tiled DP (internal
 * header, compiled as C for the CPU emulation and as CUDA C++ for the
 * kernel; both run the very same per-row functions below).
 *
 * Why a second formulation.  The reference DP (cv_stixels_model.h) takes
 * the moments of a candidate stixel as differences of double-precision
 * summed-area tables: in float those differences cancel (sum w d^2 grows as
 * the column, the residual of a good fit does not).  FP64 runs at 1/32 to
 * 1/64 of the FP32 rate on embedded and consumer GPUs, so the hot loop here
 * is float throughout and stays accurate by never subtracting large sums:
 *
 *  - the moments of a candidate are CENTRED (weighted mean and co-moments
 *    about the mean) and are only ever grown, one cell at a time (West's
 *    weighted Welford update) or by joining two disjoint sets (Chan's
 *    formula): every update adds non-negative terms, so the relative error
 *    stays a few float ulps of the candidate's own spread;
 *  - the ground plane is fitted to g = d - (mean_a + mean_b x), the
 *    disparity minus the ground prior's mean plane: for a ground stixel the
 *    co-moments of g are small, so the closed-form minimum (prior included)
 *    E = c - r^T P^-1 r does not cancel;
 *  - the per-cell spread of d (w d^2 - (w d)^2 / w, where the float cells
 *    cancel) is computed once per cell in double, outside the hot loop.
 *
 * Tiling.  The rows of a column are cut into bands of CV_STX_BAND rows (one
 * warp: lane j owns row band_start + j).  The candidates (b, t) -- bottom
 * cell b, top cell t -- fall into blocks (I, J) = (band of b, band of t):
 *  - diagonal blocks (J, J) are solved in row order by one warp ("D"
 *    phase), each step a warp shuffle, from fits computed beforehand (the
 *    fits do not depend on the DP, only the choice among them does);
 *  - the block (J-1, J) just below the diagonal is the next D phase's
 *    input: it is split into segments of CV_STX_SEG bottoms over several
 *    warps ("critical" phase);
 *  - every other block (I, J) is processed as soon as band I is final, by
 *    the helper warps, concurrently with the D phase of band I + 1, and so
 *    are the diagonal fits of band I + 2.
 * Within a block a lane (row t) takes the bottoms from the top down, so
 * its candidate [b, t] grows by one cell per step (stable), starting from
 * the moments of [band end, t] joined from precomputed tables: band
 * prefixes P (per row), band suffixes at CV_STX_SEG granularity and unions
 * of whole bands R.
 *
 * Pruning (branch and bound).  The blocks off the diagonal hold the long
 * candidates, most of which span several surfaces and cannot win.  Before
 * the DP a coarse DP over the bottoms at band starts only (a feasible
 * segmentation per row and class; per column nb^2 / 2 candidates for its
 * chain over the bands' last rows, h nb / 2 for every row's bound) gives
 * an upper bound ub[c][t] of every row's final best per class.  A lane
 * walking a block segment's bottoms downwards stops once no lower bottom
 * can beat ub: a candidate's fitted residual only grows when the set
 * grows (the best plane of a superset costs at least the subset's, priors
 * included), its f log sigma term can drop by at most min(0, log sigma)
 * per added cell (f <= 1 per cell), and what the rows below add is at
 * least the smallest value the priors of cv_stx_offer_f can take over the
 * segment's bottoms (cv_stx_below_bound; the structural betas are >= 0).
 * The bound carries a margin (CV_STX_PRUNE_REL) far above the float
 * rounding, so a pruned candidate is worse than the row's optimum by more
 * than any tie tolerance: the result is the same with or without pruning,
 * bit for bit (a test checks it).  On the benchmark's scenes about 70 % of
 * the blocks' candidate steps are skipped.
 *
 * Ties.  The reference scans bottoms upwards with a strict <, i.e. keeps
 * the lowest bottom among equal energies.  Its exact ties come from cells
 * of weight 0 (invalid pixels only): a stixel may end anywhere in such a
 * run at the same energy.  In float the energies of these equal candidates
 * differ by a few ulps (their moments are joined along different paths),
 * so two candidates whose bottoms are separated by a zero-weight cell tie
 * when their energies differ by less than CV_STX_TIE_REL (relative, with a
 * floor), and the lowest bottom wins among them; bottoms separated by
 * valid cells compare exactly, as in the reference (a tolerance there would
 * swallow genuine near-ties).  The cell that decides is the same for all
 * lanes of a step: a block's bottoms run downwards (the candidate's own
 * bottom cell; "better or tied" replaces), the D phase's bottoms run
 * upwards (the cell below the candidate's bottom; "better and not tied"
 * replaces), and blocks are merged by (energy, with the tolerance when the
 * cell below the higher bottom is empty; then bottom).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CV_STIXELS_TILED_H
#define CV_STIXELS_TILED_H

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
 * conflicts, when the slope lay between them; docs/performance.md,
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

/* ---- cells and moments ---------------------------------------------------- */

/* Cell @k of a column from its statistics; the quantities that cancel in
 * float are formed in double here, once per cell. */
CV_STX_FN CvStxCellF
cv_stx_cell_f (const CvStxModel * m, CvStxCell cell, int k,
    const CvStxPlanePrior * ground)
{
  CvStxCellF o;
  const double x = cv_stx_cell_x (m, k);
  o.w = cell.w;
  o.x = (float) x;
  o.xe = (float) cv_stx_cell_top_edge (m, k);
  o.xb = k > 0 ? (float) cv_stx_cell_top_edge (m, k - 1) : 0.0f;
  o.f = cell.f;
  if (cell.w > 0.0f) {
    const double w = cell.w, wd = cell.wd, wdd = cell.wdd;
    const double d = wd / w;
    o.d = (float) d;
    o.g = (float) (d - ground->mean_a - ground->mean_b * x);
    o.c = (float) (wdd - wd * d);
  } else {
    o.d = o.g = o.c = 0.0f;
  }
  return o;
}

CV_STX_FN CvStxMomF
cv_stx_mom_zero (void)
{
  CvStxMomF z = { 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f };
  return z;
}

/* Adds one cell (weighted Welford / West update: every co-moment grows by
 * w n / (n + w) times the product of the deviations from the old means).
 * A cell of weight 0 changes nothing, bit for bit. */
CV_STX_FN void
cv_stx_mom_add (CvStxMomF * s, const CvStxCellF * c)
{
  const float n1 = s->n + c->w;
  const float fw = c->w * cv_stx_rcp (fmaxf (n1, CV_STX_TINY));
  const float gw = s->n * fw;   /* w n / (n + w); exactly 0 for the first */
  const float dx = c->x - s->mx, dd = c->d - s->md, dg = c->g - s->mg;
  const float tx = gw * dx;
  s->mx = CV_STX_FMA (fw, dx, s->mx);
  s->md = CV_STX_FMA (fw, dd, s->md);
  s->mg = CV_STX_FMA (fw, dg, s->mg);
  s->cxx = CV_STX_FMA (tx, dx, s->cxx);
  s->cxg = CV_STX_FMA (tx, dg, s->cxg);
  s->cdd = CV_STX_FMA (gw * dd, dd, s->cdd) + c->c;
  s->cgg = CV_STX_FMA (gw * dg, dg, s->cgg) + c->c;
  s->f += c->f;
  s->n = n1;
}

/* The union of two disjoint sets (Chan et al.); either may be empty. */
CV_STX_FN CvStxMomF
cv_stx_mom_join (const CvStxMomF * a, const CvStxMomF * b)
{
  CvStxMomF o;
  const float n = a->n + b->n;
  const float fb = b->n * cv_stx_rcp (fmaxf (n, CV_STX_TINY));
  const float g = a->n * fb;    /* na nb / n */
  const float dx = b->mx - a->mx, dd = b->md - a->md, dg = b->mg - a->mg;
  const float tx = g * dx;
  o.n = n;
  o.mx = CV_STX_FMA (fb, dx, a->mx);
  o.md = CV_STX_FMA (fb, dd, a->md);
  o.mg = CV_STX_FMA (fb, dg, a->mg);
  o.cxx = CV_STX_FMA (tx, dx, a->cxx + b->cxx);
  o.cxg = CV_STX_FMA (tx, dg, a->cxg + b->cxg);
  o.cdd = CV_STX_FMA (g * dd, dd, a->cdd + b->cdd);
  o.cgg = CV_STX_FMA (g * dg, dg, a->cgg + b->cgg);
  o.f = a->f + b->f;
  return o;
}

/* ---- the fits ------------------------------------------------------------- */

/* The three classes' fits of the candidate with moments @s whose bottom
 * and top edges are at @x_bot and @x_top (cv_stx_fit with the same priors,
 * see cv_stixels_model.h).  @obj_slope: the object slope has a Gaussian
 * prior (else it is fixed at 0; a constant, so the kernel loses the other
 * branch). */
CV_STX_FN CvStxFitF
cv_stx_fit_f (const CvStxModelF * mf, const CvStxGroundF * gr,
    const CvStxMomF * s, float x_bot, float x_top, int obj_slope)
{
  CvStxFitF o;

  /* ground: d = (ma + mb x) + u + b' (x - mx); unknowns z = (u, b'),
   * E(z) = z^T P z - 2 r^T z + c with
   *   P = [h n + la, -la mx; -la mx, h cxx + la mx^2 + lb],
   *   r = (h n mg, h cxg), c = h (cgg + n mg^2),
   * minimum c - r^T z*, z* = P^-1 r (det > 0: la, lb > 0) */
  {
    const float h = mf->h[CV_STX_G];
    const float hn = h * s->n;
    const float a11 = hn + gr->la;
    const float t = CV_STX_FMA (h, s->cxx, gr->lb);
    const float q = gr->la * s->mx;
    const float a22 = CV_STX_FMA (q, s->mx, t);
    const float det = CV_STX_FMA (hn, a22, gr->la * t);
    const float r1 = hn * s->mg, r2 = h * s->cxg;
    const float rd = cv_stx_rcp (det);
    const float u = CV_STX_FMA (a22, r1, q * r2) * rd;
    const float bp = CV_STX_FMA (a11, r2, q * r1) * rd;
    const float quad = CV_STX_FMA (r1, u, r2 * bp);
    const float c = CV_STX_FMA (r1, s->mg, h * s->cgg);
    o.cost[CV_STX_G] = CV_STX_FMA (s->f, mf->log_sigma[CV_STX_G],
        fmaxf (c - quad, 0.0f));
    o.bot_g = CV_STX_FMA (bp, x_bot - s->mx, u) + CV_STX_FMA (gr->mb, x_bot,
        gr->ma);
    o.top_g = CV_STX_FMA (bp, x_top - s->mx, u) + CV_STX_FMA (gr->mb, x_top,
        gr->ma);
    o.slope_g = gr->mb + bp;
  }

  /* object: free distance (the mean), slope 0 or Gaussian around 0 */
  {
    const float h = mf->h[CV_STX_O];
    const float fl = s->f * mf->log_sigma[CV_STX_O];
    if (!obj_slope) {
      o.cost[CV_STX_O] = CV_STX_FMA (h, fmaxf (s->cdd, 0.0f), fl);
      o.bot_o = s->md;
      o.top_o = s->md;
      o.slope_o = 0.0f;
    } else {
      const float cxd = CV_STX_FMA (gr->mb, s->cxx, s->cxg);
      const float den = CV_STX_FMA (h, s->cxx, mf->obj_prec_b);
      const float b = h * cxd * cv_stx_rcp (den);
      const float q = s->cdd - b * CV_STX_FMA (-b, s->cxx, 2.0f * cxd);
      o.cost[CV_STX_O] = fmaxf (h * q, 0.0f) + CV_STX_FMA (mf->obj_prec_b * b,
          b, fl);
      o.bot_o = CV_STX_FMA (b, x_bot - s->mx, s->md);
      o.top_o = CV_STX_FMA (b, x_top - s->mx, s->md);
      o.slope_o = b;
    }
  }

  /* sky: the plane d = 0 */
  o.cost[CV_STX_S] = CV_STX_FMA (mf->h[CV_STX_S],
      fmaxf (CV_STX_FMA (s->n * s->md, s->md, s->cdd), 0.0f),
      s->f * mf->log_sigma[CV_STX_S]);
  return o;
}

/* ---- the priors between a candidate and the rows below -------------------- */

/* Row state (costs, ground and object top-edge disparities) prepared for
 * the candidates above it; the same choices as cv_stx_below_prepare. */
CV_STX_FN CvStxBelowF
cv_stx_below_f (const CvStxModelF * mf, float cost_g, float cost_o,
    float cost_s, float edge_g, float edge_o)
{
  CvStxBelowF B;
  const float og = cost_o + mf->trmc[CV_STX_O][CV_STX_G];
  const float sg = cost_s + mf->trmc[CV_STX_S][CV_STX_G];
  const float gs = cost_g + mf->trmc[CV_STX_G][CV_STX_S];
  const float os = cost_o + mf->trmc[CV_STX_O][CV_STX_S];
  const float ss = cost_s + mf->trmc[CV_STX_S][CV_STX_S];
  const float gos = fminf (gs, os);

  /* the lowest transition per class above, the earlier class on ties (as
   * strict comparisons in class order) */
  B.gg = cost_g + mf->trmc[CV_STX_G][CV_STX_G];
  B.go = cost_g + mf->trmc[CV_STX_G][CV_STX_O];
  B.oo = cost_o + mf->trmc[CV_STX_O][CV_STX_O];
  B.other_g = fminf (og, sg);
  B.code_g = cv_stx_pick_i (cv_stx_lt (sg, og), CV_STX_S + 1, CV_STX_O + 1);
  B.other_o = cost_s + mf->trmc[CV_STX_S][CV_STX_O];
  B.other_s = fminf (gos, ss);
  B.code_s = cv_stx_pick_i (cv_stx_lt (ss, gos), CV_STX_S + 1,
      cv_stx_pick_i (cv_stx_lt (os, gs), CV_STX_O + 1, CV_STX_G + 1));
  B.g_hi = edge_g + mf->gap_tol;
  B.g_lo = edge_g - mf->gap_tol;
  B.g_cn = B.gg + CV_STX_FMA (-mf->gap_bn, edge_g, mf->gap_an);
  B.g_cf = B.gg + CV_STX_FMA (mf->gap_bf, edge_g, mf->gap_af);
  B.o_hi = edge_g + mf->grav_tol;
  B.o_lo = edge_g - mf->grav_tol;
  B.o_csink = B.go + CV_STX_FMA (-mf->grav_bsink, edge_g, mf->grav_asink);
  B.o_cfly = B.go + CV_STX_FMA (mf->grav_bfly, edge_g, mf->grav_afly);
  B.edge_o = edge_o;
  B.o_cord = B.oo + CV_STX_FMA (-mf->ord_b, edge_o, mf->ord_a);
  B.code_o = CV_STX_S + 1;
  B.pad = 0;
  return B;
}

/* Below the first cell of the column: a stixel there is the first one, its
 * energy is its own plus C_mc whatever its plane, and it has no class
 * below (code 0). */
CV_STX_FN CvStxBelowF
cv_stx_below_none_f (const CvStxModelF * mf)
{
  CvStxBelowF B;
  B.g_hi = B.g_lo = B.o_hi = B.o_lo = B.edge_o = 0.0f;
  B.g_cn = B.g_cf = B.gg = INFINITY;
  B.o_csink = B.o_cfly = B.go = B.o_cord = B.oo = INFINITY;
  B.other_g = B.other_o = B.other_s = mf->mc;
  B.code_g = B.code_o = B.code_s = B.pad = 0;
  return B;
}

CV_STX_FN void
cv_stx_best_init (CvStxBestF * best)
{
  int c;
  for (c = 0; c < CV_STIXEL_N_CLASSES; c++) {
    best->cost[c] = INFINITY;
    best->ref[c] = CV_STX_REF_NONE;
  }
  best->edge_g = best->edge_o = best->slope_g = best->slope_o = 0.0f;
}

/* The tie scale of a step: CV_STX_TIE_REL across a cell of weight @w 0,
 * else 0 (exact comparisons). */
CV_STX_FN float
cv_stx_tie (float w)
{
  return w == 0.0f ? CV_STX_TIE_REL : 0.0f;
}

/* All ones when @cand replaces @best: for bottoms coming downwards (@le)
 * when better or tied, for bottoms coming upwards when better and not
 * tied, so the lowest bottom wins ties either way (@tie: cv_stx_tie). */
CV_STX_FN CvStxMask
cv_stx_replaces (float cand, float best, int le, float tie)
{
  /* finite, so that an infinite candidate stays infinite (not NaN) */
  const float mag = fminf (fabsf (cand), FLT_MAX) + CV_STX_TIE_FLOOR;
  return le ? cv_stx_le (CV_STX_FMA (-tie, mag, cand), best) :
      cv_stx_lt (CV_STX_FMA (tie, mag, cand), best);
}

/* A candidate on top of a prepared row state: its energy per class
 * (fit, transition and structural priors) and the class below each would
 * take (code: class + 1, 0 = none). */
typedef struct
{
  float cost[CV_STIXEL_N_CLASSES];
  int code[CV_STIXEL_N_CLASSES];
} CvStxCandF;

/* The candidate with fits @fit on top of @B (the prior evaluations of
 * cv_stx_below_best).  No branch: every branch of a prior is evaluated and
 * then picked by a mask (cv_stx_pick).  This runs once per candidate and
 * on the D warp's serial chain, where branches and predicates cost more
 * than the arithmetic they skip. */
CV_STX_FN CvStxCandF
cv_stx_cand_f (const CvStxModelF * mf, const CvStxFitF * fit,
    const CvStxBelowF * B)
{
  CvStxCandF c;
  {
    /* ground on ground: gap prior, else the best of object / sky below */
    const float d = fit->bot_g;
    const float near = CV_STX_FMA (mf->gap_bn, d, B->g_cn);
    const float far = CV_STX_FMA (-mf->gap_bf, d, B->g_cf);
    const float v = cv_stx_pick (cv_stx_gt (d, B->g_hi), near,
        cv_stx_pick (cv_stx_lt (d, B->g_lo), far, B->gg));
    c.cost[CV_STX_G] = fit->cost[CV_STX_G] + fminf (v, B->other_g);
    c.code[CV_STX_G] = cv_stx_pick_i (cv_stx_le (v, B->other_g),
        CV_STX_G + 1, B->code_g);
  }
  {
    /* object on ground: gravity; on object: ordering; on sky (the earlier
     * on ties, as strict comparisons in this order) */
    const float d = fit->bot_o;
    const float sink = CV_STX_FMA (mf->grav_bsink, d, B->o_csink);
    const float fly = CV_STX_FMA (-mf->grav_bfly, d, B->o_cfly);
    const float behind = CV_STX_FMA (mf->ord_b, d, B->o_cord);
    const float on_g = cv_stx_pick (cv_stx_gt (d, B->o_hi), sink,
        cv_stx_pick (cv_stx_lt (d, B->o_lo), fly, B->go));
    const float on_o = cv_stx_pick (cv_stx_gt (d, B->edge_o), behind, B->oo);
    const float go = fminf (on_g, on_o);
    c.cost[CV_STX_O] = fit->cost[CV_STX_O] + fminf (go, B->other_o);
    c.code[CV_STX_O] = cv_stx_pick_i (cv_stx_lt (B->other_o, go), B->code_o,
        cv_stx_pick_i (cv_stx_lt (on_o, on_g), CV_STX_O + 1, CV_STX_G + 1));
  }
  c.cost[CV_STX_S] = fit->cost[CV_STX_S] + B->other_s;
  c.code[CV_STX_S] = B->code_s;
  return c;
}

/* Offers the candidate with bottom @b and fits @fit on top of @B to the
 * row's @best (see cv_stx_replaces for @le and @tie). */
CV_STX_FN void
cv_stx_offer_f (CvStxBestF * best, const CvStxModelF * mf,
    const CvStxFitF * fit, const CvStxBelowF * B, int b, int le, float tie)
{
  const CvStxCandF c = cv_stx_cand_f (mf, fit, B);
  const int b4 = b * 4;
  const CvStxMask rg = cv_stx_replaces (c.cost[CV_STX_G],
      best->cost[CV_STX_G], le, tie);
  const CvStxMask ro = cv_stx_replaces (c.cost[CV_STX_O],
      best->cost[CV_STX_O], le, tie);
  const CvStxMask rs = cv_stx_replaces (c.cost[CV_STX_S],
      best->cost[CV_STX_S], le, tie);
  best->cost[CV_STX_G] = cv_stx_pick (rg, c.cost[CV_STX_G],
      best->cost[CV_STX_G]);
  best->ref[CV_STX_G] = cv_stx_pick_i (rg, b4 + c.code[CV_STX_G],
      best->ref[CV_STX_G]);
  best->edge_g = cv_stx_pick (rg, fit->top_g, best->edge_g);
  best->slope_g = cv_stx_pick (rg, fit->slope_g, best->slope_g);
  best->cost[CV_STX_O] = cv_stx_pick (ro, c.cost[CV_STX_O],
      best->cost[CV_STX_O]);
  best->ref[CV_STX_O] = cv_stx_pick_i (ro, b4 + c.code[CV_STX_O],
      best->ref[CV_STX_O]);
  best->edge_o = cv_stx_pick (ro, fit->top_o, best->edge_o);
  best->slope_o = cv_stx_pick (ro, fit->slope_o, best->slope_o);
  best->cost[CV_STX_S] = cv_stx_pick (rs, c.cost[CV_STX_S],
      best->cost[CV_STX_S]);
  best->ref[CV_STX_S] = cv_stx_pick_i (rs, b4 + c.code[CV_STX_S],
      best->ref[CV_STX_S]);
}

/* (energy, bottom) of a before (b): energies compared within the tie
 * tolerance when the cell below the higher bottom is empty (relative to
 * the smaller magnitude: finite against an infinite energy), else
 * exactly; then the lower bottom.  @cells: the column's cells. */
CV_STX_FN int
cv_stx_first (float cost_a, int ref_a, float cost_b, int ref_b,
    const CvStxCellF * cells)
{
  const int ba = ref_a >> 2, bb = ref_b >> 2, hi = ba > bb ? ba : bb;
  const int lo = ba < bb ? ba : bb;
  const float tie = ref_a != CV_STX_REF_NONE && ref_b != CV_STX_REF_NONE
      && lo < hi ? cv_stx_tie (cells[hi - 1].w) : 0.0f;
  const float tol = tie * (fminf (fabsf (cost_a), fabsf (cost_b)) +
      CV_STX_TIE_FLOOR);
  return cost_a + tol < cost_b || (!(cost_b + tol < cost_a) && ba < bb);
}

/* @dst = the better of @dst and @src per class (disjoint bottoms; @cells:
 * the column's cells). */
CV_STX_FN void
cv_stx_best_merge (CvStxBestF * dst, const CvStxBestF * src,
    const CvStxCellF * cells)
{
  if (cv_stx_first (src->cost[CV_STX_G], src->ref[CV_STX_G],
          dst->cost[CV_STX_G], dst->ref[CV_STX_G], cells)) {
    dst->cost[CV_STX_G] = src->cost[CV_STX_G];
    dst->ref[CV_STX_G] = src->ref[CV_STX_G];
    dst->edge_g = src->edge_g;
    dst->slope_g = src->slope_g;
  }
  if (cv_stx_first (src->cost[CV_STX_O], src->ref[CV_STX_O],
          dst->cost[CV_STX_O], dst->ref[CV_STX_O], cells)) {
    dst->cost[CV_STX_O] = src->cost[CV_STX_O];
    dst->ref[CV_STX_O] = src->ref[CV_STX_O];
    dst->edge_o = src->edge_o;
    dst->slope_o = src->slope_o;
  }
  if (cv_stx_first (src->cost[CV_STX_S], src->ref[CV_STX_S],
          dst->cost[CV_STX_S], dst->ref[CV_STX_S], cells)) {
    dst->cost[CV_STX_S] = src->cost[CV_STX_S];
    dst->ref[CV_STX_S] = src->ref[CV_STX_S];
  }
}

/* ---- pruning --------------------------------------------------------------- */

/* Per class, the least that row b - 1's prepared state @B can add to a
 * candidate with bottom b: the smallest value of cv_stx_offer_f's prior
 * selection over every fit (a prior applied beyond its tolerance grows
 * with the distance, the betas being >= 0, so its infimum is at the
 * threshold). */
CV_STX_FN void
cv_stx_below_bound (const CvStxModelF * mf, const CvStxBelowF * B,
    float lb[CV_STIXEL_N_CLASSES])
{
  const float near = CV_STX_FMA (mf->gap_bn, B->g_hi, B->g_cn);
  const float far = CV_STX_FMA (-mf->gap_bf, B->g_lo, B->g_cf);
  const float sink = CV_STX_FMA (mf->grav_bsink, B->o_hi, B->o_csink);
  const float fly = CV_STX_FMA (-mf->grav_bfly, B->o_lo, B->o_cfly);
  const float behind = CV_STX_FMA (mf->ord_b, B->edge_o, B->o_cord);
  lb[CV_STX_G] = fminf (fminf (B->gg, B->other_g), fminf (near, far));
  lb[CV_STX_O] = fminf (fminf (fminf (B->go, B->oo), B->other_o),
      fminf (fminf (sink, fly), behind));
  lb[CV_STX_S] = B->other_s;
}

/* When a segment stops: per class the threshold ub + margin - (least the
 * rows below its bottoms add); a lane stops once fit cost + min (0, log
 * sigma) x (bottoms left) reaches it for every class (cv_stx_segment_step).
 * Infinite thresholds never stop; NaN (infinite ub and bound) neither. */
typedef struct
{
  float thr[CV_STIXEL_N_CLASSES];
} CvStxCut;

CV_STX_FN CvStxCut
cv_stx_cut (const CvStxModelF * mf, const float ub[CV_STIXEL_N_CLASSES],
    const float lb[CV_STIXEL_N_CLASSES])
{
  CvStxCut k;
  int c;
  for (c = 0; c < CV_STIXEL_N_CLASSES; c++)
    k.thr[c] = CV_STX_FMA (CV_STX_PRUNE_REL, fabsf (ub[c]) + mf->prune_floor,
        ub[c]) - lb[c];
  return k;
}

/* A segment that never stops early. */
CV_STX_FN CvStxCut
cv_stx_cut_none (void)
{
  CvStxCut k;
  int c;
  for (c = 0; c < CV_STIXEL_N_CLASSES; c++)
    k.thr[c] = INFINITY;
  return k;
}

/* The least of cv_stx_below_bound over ring entries [@j0, @j1) (the
 * kernel reduces it over the lanes with shuffles instead). */
CV_STX_FN void
cv_stx_ring_bound (const CvStxModelF * mf, const CvStxBelowF * ring, int j0,
    int j1, float lb[CV_STIXEL_N_CLASSES])
{
  int j, c;
  for (c = 0; c < CV_STIXEL_N_CLASSES; c++)
    lb[c] = INFINITY;
  for (j = j0; j < j1; j++) {
    float v[CV_STIXEL_N_CLASSES];
    cv_stx_below_bound (mf, &ring[j], v);
    for (c = 0; c < CV_STIXEL_N_CLASSES; c++)
      lb[c] = fminf (lb[c], v[c]);
  }
}

/* ---- per-row work of the tiled DP ----------------------------------------- *
 * Every function below is what ONE row (lane) does; the kernel runs them a
 * warp at a time, the CPU emulation row after row. */

/* Tables of the column (all centred moments of the cells):
 *  prefix[k]           cells band_start(k) .. k
 *  suffix[I * 8 + r]   cells band_start(I) + CV_STX_SEG r .. band end - 1
 *                      (r = CV_STX_SEGS_PER_BAND: the empty set)
 *  range[(i, j)]       whole bands i..j
 * (prefix and suffix from cv_stx_band_scan, range from the band totals
 * suffix[I * 8], joined upwards). */
typedef struct
{
  const CvStxCellF *cells;
  const CvStxMomF *prefix;
  const CvStxMomF *suffix;
  const CvStxMomF *range;
  int h, n_bands;
} CvStxTables;

/* The band tables come from two scans of a band's cells, a lane per row
 * (lanes past the column's end hold the empty set): Hillis-Steele, step d
 * = 1, 2, 4, 8, 16 joining lane j with lane j - d (prefix: [band start,
 * j]) or with lane j + d (suffix: [j, band end)), lower rows first.  The
 * kernel does it with warp shuffles, the emulation with this function,
 * in the same order. */
CV_STX_FN void
cv_stx_band_scan (CvStxMomF v[CV_STX_BAND], int suffix)
{
  CvStxMomF prev[CV_STX_BAND];
  int d, j;
  for (d = 1; d < CV_STX_BAND; d *= 2) {
    for (j = 0; j < CV_STX_BAND; j++)
      prev[j] = v[j];
    for (j = 0; j < CV_STX_BAND; j++) {
      if (!suffix && j >= d)
        v[j] = cv_stx_mom_join (&prev[j - d], &prev[j]);
      else if (suffix && j + d < CV_STX_BAND)
        v[j] = cv_stx_mom_join (&prev[j], &prev[j + d]);
    }
  }
}

/* The set of cell @k alone (the empty set past the column: @k >= @h). */
CV_STX_FN CvStxMomF
cv_stx_cell_mom (const CvStxCellF * cells, int k, int h)
{
  CvStxMomF s = cv_stx_mom_zero ();
  if (k < h)
    cv_stx_mom_add (&s, &cells[k]);
  return s;
}

CV_STX_FN CvStxMomF
cv_stx_suffix (const CvStxTables * T, int band, int r)
{
  return r >= CV_STX_SEGS_PER_BAND ? cv_stx_mom_zero () :
      T->suffix[band * CV_STX_SEGS_PER_BAND + r];
}

/* Moments of [band_start(i + 1), t] for row t of band j > i: the bands
 * strictly between, then t's band prefix. */
CV_STX_FN CvStxMomF
cv_stx_above_band (const CvStxTables * T, int i, int j, int t)
{
  if (j == i + 1)
    return T->prefix[t];
  return cv_stx_mom_join (&T->range[cv_stx_range_index (i + 1, j - 1,
              T->n_bands)], &T->prefix[t]);
}

/* A segment: bottoms [lo, hi) of one band for row t, added from the top
 * down onto @mom (the moments of [hi, t]); @below: that band's ring
 * entries (cv_stx_below_slot), entry b - lo0 for bottom b, lo0 = the
 * band's start. */
typedef struct
{
  CvStxMomF mom;
  CvStxBestF best;
  CvStxCut cut;
  int b;                        /* next bottom (hi - 1 first) */
  int lo;                       /* raised to the last bottom run when the
                                 * rest is pruned: hi - 1 - b steps ran */
  int band_start;
} CvStxSegment;

CV_STX_FN void
cv_stx_segment_init (CvStxSegment * sg, const CvStxMomF * above, int lo,
    int hi, int band_start, const CvStxCut * cut)
{
  sg->mom = *above;
  sg->b = hi - 1;
  sg->lo = lo;
  sg->band_start = band_start;
  sg->cut = *cut;
  cv_stx_best_init (&sg->best);
}

/* One bottom of a segment (call while sg->b >= sg->lo).  The records are
 * copied whole (vector loads).  With @prune (0 as a constant for the
 * critical block's short segments, else uniform over the warp) the
 * segment ends as soon as no lower bottom can win (sg->cut). */
CV_STX_FN void
cv_stx_segment_step (CvStxSegment * sg, const CvStxModelF * mf,
    const CvStxGroundF * gr, const CvStxCellF * cells,
    const CvStxBelowF * below, float x_top, int obj_slope, int prune)
{
  const int b = sg->b;
  const CvStxCellF cell = cells[b];
  const CvStxBelowF B = below[b - sg->band_start];
  CvStxFitF fit;
  cv_stx_mom_add (&sg->mom, &cell);
  fit = cv_stx_fit_f (mf, gr, &sg->mom, cell.xb, x_top, obj_slope);
  cv_stx_offer_f (&sg->best, mf, &fit, &B, b, 1, cv_stx_tie (cell.w));
  sg->b = b - 1;
  if (prune) {
    const float left = (float) (b - sg->lo);
    int c, dead = 1;
    for (c = 0; c < CV_STIXEL_N_CLASSES; c++)
      dead &= CV_STX_FMA (mf->ls_neg[c], left, fit.cost[c]) >=
          sg->cut.thr[c];
    if (dead)
      sg->lo = b;
  }
}

/* Two segments of one row side by side (independent chains: the GPU
 * overlaps them); returns their merged best.  Both in the band whose ring
 * entries are @below. */
CV_STX_FN CvStxBestF
cv_stx_run_segments2 (CvStxSegment * s0, CvStxSegment * s1,
    const CvStxModelF * mf, const CvStxGroundF * gr, const CvStxCellF * cells,
    const CvStxBelowF * below, float x_top, int obj_slope, int prune)
{
  while (s0->b >= s0->lo || s1->b >= s1->lo) {
    if (s0->b >= s0->lo)
      cv_stx_segment_step (s0, mf, gr, cells, below, x_top, obj_slope, prune);
    if (s1->b >= s1->lo)
      cv_stx_segment_step (s1, mf, gr, cells, below, x_top, obj_slope, prune);
  }
  cv_stx_best_merge (&s0->best, &s1->best, cells);
  return s0->best;
}

/* The critical block (band I = J - 1 below band J): CV_STX_SEGS_PER_BAND
 * segments of CV_STX_SEG bottoms; "part" @q of CV_STX_CRIT_PARTS takes
 * segments 2q and 2q + 1.  Row t of band J; returns the part's best. */
#define CV_STX_CRIT_PARTS (CV_STX_SEGS_PER_BAND / 2)

/* Segment @k of the critical block (band J - 1, band J = @band_j) for
 * row t: bottoms CV_STX_SEG k .. CV_STX_SEG (k + 1) - 1 of band J - 1. */
CV_STX_FN void
cv_stx_critical_segment_init (CvStxSegment * sg, const CvStxTables * T,
    int band_j, int k, int t)
{
  const int bi = band_j - 1, base = bi * CV_STX_BAND;
  const CvStxMomF sfx = cv_stx_suffix (T, bi, k + 1);
  const CvStxMomF above = cv_stx_mom_join (&sfx, &T->prefix[t]);
  const CvStxCut none = cv_stx_cut_none ();
  cv_stx_segment_init (sg, &above, base + CV_STX_SEG * k,
      base + CV_STX_SEG * (k + 1), base, &none);
}

CV_STX_FN CvStxBestF
cv_stx_critical_part (const CvStxTables * T, const CvStxModelF * mf,
    const CvStxGroundF * gr, const CvStxBelowF * ring, int band_j, int q,
    int t, int obj_slope)
{
  CvStxSegment s0, s1;
  cv_stx_critical_segment_init (&s0, T, band_j, 2 * q, t);
  cv_stx_critical_segment_init (&s1, T, band_j, 2 * q + 1, t);
  return cv_stx_run_segments2 (&s0, &s1, mf, gr, T->cells,
      ring + cv_stx_below_slot (band_j - 1), T->cells[t].xe, obj_slope, 0);
}

/* Merges the critical block's CV_STX_CRIT_PARTS parts of a row (@parts,
 * @stride apart) into its @best: as a tree, the parts' pairs first (the
 * merges of a level are independent: the GPU overlaps them, on the D
 * warp's path between the phases). */
#if CV_STX_CRIT_PARTS != 4
#error "cv_stx_merge_parts merges four parts"
#endif
CV_STX_FN void
cv_stx_merge_parts (CvStxBestF * best, const CvStxBestF * parts, int stride,
    const CvStxCellF * cells)
{
  CvStxBestF p01 = parts[0], p23 = parts[2 * stride];
  cv_stx_best_merge (&p01, &parts[stride], cells);
  cv_stx_best_merge (&p23, &parts[3 * stride], cells);
  cv_stx_best_merge (&p01, &p23, cells);
  cv_stx_best_merge (best, &p01, cells);
}

/* One segment of cv_stx_critical_part (@half 0: segment 2q, 1: 2q + 1),
 * alone: merging half 1's best into half 0's (cv_stx_best_merge) gives
 * cv_stx_critical_part's result. */
CV_STX_FN CvStxBestF
cv_stx_critical_half (const CvStxTables * T, const CvStxModelF * mf,
    const CvStxGroundF * gr, const CvStxBelowF * ring, int band_j, int q,
    int half, int t, int obj_slope)
{
  const CvStxBelowF *below = ring + cv_stx_below_slot (band_j - 1);
  const float x_top = T->cells[t].xe;
  CvStxSegment sg;
  cv_stx_critical_segment_init (&sg, T, band_j, 2 * q + half, t);
  while (sg.b >= sg.lo)
    cv_stx_segment_step (&sg, mf, gr, T->cells, below, x_top, obj_slope, 0);
  return sg.best;
}

/* A block (I, J), J >= I + 2, as two half-band segments; row t.  With
 * @prune, @cut_hi and @cut_lo say where the upper and the lower half stop
 * (cv_stx_block_cuts); @steps (or NULL): adds the candidate steps run. */
CV_STX_FN CvStxBestF
cv_stx_block (const CvStxTables * T, const CvStxModelF * mf,
    const CvStxGroundF * gr, const CvStxBelowF * ring, int band_i,
    int band_j, int t, const CvStxCut * cut_hi, const CvStxCut * cut_lo,
    int prune, int obj_slope, int *steps)
{
  const CvStxBelowF *below = ring + cv_stx_below_slot (band_i);
  const int base = band_i * CV_STX_BAND, half = CV_STX_BAND / 2;
  const CvStxMomF above = cv_stx_above_band (T, band_i, band_j, t);
  const CvStxMomF sfx = cv_stx_suffix (T, band_i, half / CV_STX_SEG);
  const CvStxMomF lower = cv_stx_mom_join (&sfx, &above);
  CvStxSegment s0, s1;
  cv_stx_segment_init (&s0, &above, base + half, base + CV_STX_BAND, base,
      cut_hi);
  cv_stx_segment_init (&s1, &lower, base, base + half, base, cut_lo);
  {
    const CvStxBestF best = cv_stx_run_segments2 (&s0, &s1, mf, gr,
        T->cells, below, T->cells[t].xe, obj_slope, prune);
    if (steps != NULL)
      *steps += (base + CV_STX_BAND - 1 - s0.b) + (base + half - 1 - s1.b);
    return best;
  }
}

/* The cuts of row @t's two segments in a block of band @band_i (@ub: the
 * coarse bounds, cv_stx_coarse_ub; CPU form of the kernel's shuffles). */
CV_STX_FN void
cv_stx_block_cuts (const CvStxModelF * mf, const CvStxBelowF * ring,
    int band_i, const float *ub, int h, int t, CvStxCut * cut_hi,
    CvStxCut * cut_lo)
{
  const CvStxBelowF *below = ring + cv_stx_below_slot (band_i);
  const int half = CV_STX_BAND / 2;
  float u[CV_STIXEL_N_CLASSES], lb[CV_STIXEL_N_CLASSES];
  int c;
  for (c = 0; c < CV_STIXEL_N_CLASSES; c++)
    u[c] = ub[c * h + t];
  cv_stx_ring_bound (mf, below, half, CV_STX_BAND, lb);
  *cut_hi = cv_stx_cut (mf, u, lb);
  cv_stx_ring_bound (mf, below, 0, half, lb);
  *cut_lo = cv_stx_cut (mf, u, lb);
}

/* ---- the coarse DP: upper bounds for pruning ------------------------------ */

/* Pruning runs on columns of at least CV_STX_PRUNE_MIN_BANDS bands:
 * below, the few off-diagonal blocks save less than the coarse DP costs
 * (H200, 2048x1024 with 8x8 cells, 4 bands: 0.058 -> 0.062 ms). */
#define CV_STX_PRUNE_MIN_BANDS 6

CV_STX_FN int
cv_stx_prune_bands_ok (int n_bands)
{
  return n_bands >= CV_STX_PRUNE_MIN_BANDS;
}

/* Moments of [band_start (@i), @t], @i <= the band of @t. */
CV_STX_FN CvStxMomF
cv_stx_band_start_mom (const CvStxTables * T, int i, int t)
{
  const int k = t / CV_STX_BAND;
  if (i == k)
    return T->prefix[t];
  return cv_stx_mom_join (&T->range[cv_stx_range_index (i, k - 1,
              T->n_bands)], &T->prefix[t]);
}

/* cv_stx_band_start_mom without the range table: the band totals joined
 * in the table's order (the same bits), for the kernel's threads that run
 * while the table is being built. */
CV_STX_FN CvStxMomF
cv_stx_band_start_mom_scan (const CvStxTables * T, int i, int t)
{
  const int k = t / CV_STX_BAND;
  CvStxMomF r;
  int j;
  if (i == k)
    return T->prefix[t];
  r = T->suffix[i * CV_STX_SEGS_PER_BAND];
  for (j = i + 1; j < k; j++)
    r = cv_stx_mom_join (&r, &T->suffix[j * CV_STX_SEGS_PER_BAND]);
  return cv_stx_mom_join (&r, &T->prefix[t]);
}

/* The fits of the candidate [band_start (@i), @t] with its moments
 * @mom. */
CV_STX_FN CvStxFitF
cv_stx_coarse_fit (const CvStxTables * T, const CvStxModelF * mf,
    const CvStxGroundF * gr, const CvStxMomF * mom, int i, int t,
    int obj_slope)
{
  return cv_stx_fit_f (mf, gr, mom, T->cells[i * CV_STX_BAND].xb,
      T->cells[t].xe, obj_slope);
}

/* Offers the candidate [band_start (@i), @t] on top of @Bc[@i] (the coarse
 * DP's state of row band_start (@i) - 1) to @best: strictly better
 * replaces, so offered in bottom order the lowest bottom wins ties (as the
 * kernel's reduction over the lanes). */
CV_STX_FN void
cv_stx_coarse_offer (CvStxBestF * best, const CvStxTables * T,
    const CvStxModelF * mf, const CvStxGroundF * gr, const CvStxBelowF * Bc,
    int i, int t, int obj_slope)
{
  const CvStxMomF mom = cv_stx_band_start_mom (T, i, t);
  const CvStxFitF fit = cv_stx_coarse_fit (T, mf, gr, &mom, i, t, obj_slope);
  cv_stx_offer_f (best, mf, &fit, &Bc[i], i * CV_STX_BAND, 0, 0.0f);
}

/* The coarse DP's chain: @Bc[k] for k = 0 .. n_bands - 1, the best
 * segmentation of rows below band k's start whose stixels all start at
 * band starts (the kernel: a lane per bottom band, a warp minimum). */
CV_STX_FN void
cv_stx_coarse_chain (const CvStxTables * T, const CvStxModelF * mf,
    const CvStxGroundF * gr, CvStxBelowF * Bc, int obj_slope)
{
  int k, i;
  Bc[0] = cv_stx_below_none_f (mf);
  for (k = 0; k + 1 < T->n_bands; k++) {
    const int t = cv_stx_band_end (k, T->h) - 1;
    CvStxBestF best;
    cv_stx_best_init (&best);
    for (i = 0; i <= k; i++)
      cv_stx_coarse_offer (&best, T, mf, gr, Bc, i, t, obj_slope);
    Bc[k + 1] = cv_stx_below_f (mf, best.cost[0], best.cost[1],
        best.cost[2], best.edge_g, best.edge_o);
  }
}

/* The upper bounds of row @t: @ub[c * h + t] = the energy of the best
 * coarse segmentation of rows 0..t whose top stixel has class c (a
 * feasible segmentation, so >= the row's final best). */
CV_STX_FN void
cv_stx_coarse_ub (const CvStxTables * T, const CvStxModelF * mf,
    const CvStxGroundF * gr, const CvStxBelowF * Bc, int t, float *ub,
    int obj_slope)
{
  CvStxBestF best;
  int i, c;
  cv_stx_best_init (&best);
  for (i = 0; i <= t / CV_STX_BAND; i++)
    cv_stx_coarse_offer (&best, T, mf, gr, Bc, i, t, obj_slope);
  for (c = 0; c < CV_STIXEL_N_CLASSES; c++)
    ub[c * T->h + t] = best.cost[c];
}

typedef struct CV_STX_ALIGN16
{
  float v[4];
} CvStxQuad;

/* Entry @e of a table of fits kept in planes of @n entries (the diagonal
 * block's, the critical block's): plane 0 at @e, plane 1 at @n + @e, ... */
CV_STX_FN void
cv_stx_fits_store (float *tab, int n, int e, const CvStxFitF * fit,
    int obj_slope)
{
  CvStxQuad *q = (CvStxQuad *) tab;
  CvStxQuad a, b;
  a.v[0] = fit->cost[0];
  a.v[1] = fit->cost[1];
  a.v[2] = fit->cost[2];
  a.v[3] = fit->bot_g;
  b.v[0] = fit->top_g;
  b.v[1] = fit->bot_o;
  b.v[2] = fit->slope_g;
  b.v[3] = 0.0f;
  q[e] = a;
  q[n + e] = b;
  if (obj_slope) {
    CvStxQuad c;
    c.v[0] = fit->top_o;
    c.v[1] = fit->slope_o;
    c.v[2] = c.v[3] = 0.0f;
    q[2 * n + e] = c;
  }
}

CV_STX_FN CvStxFitF
cv_stx_fits_entry (const float *tab, int n, int e, int obj_slope)
{
  const CvStxQuad *q = (const CvStxQuad *) tab;
  const CvStxQuad a = q[e], b = q[n + e];
  CvStxFitF fit;
  fit.cost[0] = a.v[0];
  fit.cost[1] = a.v[1];
  fit.cost[2] = a.v[2];
  fit.bot_g = a.v[3];
  fit.top_g = b.v[0];
  fit.bot_o = b.v[1];
  fit.slope_g = b.v[2];
  if (obj_slope) {
    const CvStxQuad c = q[2 * n + e];
    fit.top_o = c.v[0];
    fit.slope_o = c.v[1];
  } else {
    fit.top_o = b.v[1];
    fit.slope_o = 0.0f;
  }
  return fit;
}

CV_STX_FN void
cv_stx_diag_store (float *diag, int e, const CvStxFitF * fit, int obj_slope)
{
  cv_stx_fits_store (diag, CV_STX_DIAG_ENTRIES, e, fit, obj_slope);
}

/* Diagonal entry @e (cv_stx_diag_index). */
CV_STX_FN CvStxFitF
cv_stx_diag_entry (const float *diag, int e, int obj_slope)
{
  return cv_stx_fits_entry (diag, CV_STX_DIAG_ENTRIES, e, obj_slope);
}

CV_STX_FN CvStxFitF
cv_stx_diag_load (const float *diag, int i, int j, int obj_slope)
{
  return cv_stx_diag_entry (diag, cv_stx_diag_index (i, j), obj_slope);
}

/* Half of a block (I, J): segment @seg (0: the upper half of band I's
 * bottoms, 1: the lower) for row t, as cv_stx_block computes it; merging
 * the two halves' bests (upper first) gives cv_stx_block's result. */
CV_STX_FN CvStxBestF
cv_stx_block_half (const CvStxTables * T, const CvStxModelF * mf,
    const CvStxGroundF * gr, const CvStxBelowF * ring, int band_i,
    int band_j, int t, int seg, const CvStxCut * cut, int prune,
    int obj_slope)
{
  const CvStxBelowF *below = ring + cv_stx_below_slot (band_i);
  const int base = band_i * CV_STX_BAND, half = CV_STX_BAND / 2;
  const float x_top = T->cells[t].xe;
  CvStxMomF start = cv_stx_above_band (T, band_i, band_j, t);
  CvStxSegment sg;
  if (seg == 1) {
    const CvStxMomF sfx = cv_stx_suffix (T, band_i, half / CV_STX_SEG);
    start = cv_stx_mom_join (&sfx, &start);
    cv_stx_segment_init (&sg, &start, base, base + half, base, cut);
  } else {
    cv_stx_segment_init (&sg, &start, base + half, base + CV_STX_BAND, base,
        cut);
  }
  while (sg.b >= sg.lo)
    cv_stx_segment_step (&sg, mf, gr, T->cells, below, x_top, obj_slope,
        prune);
  return sg.best;
}

/* The fits of the diagonal block of band J for lane (row) j: entries
 * (i, j) for bottoms i = j down to 0, split in two halves so that two
 * warps share the work: half 0 the first CV_STX_BAND / 2 of them, half 1
 * the rest (it adds the first ones' cells without fitting).  @diag holds
 * CV_STX_DIAG_FLOATS (obj_slope) floats, 16-byte aligned. */
CV_STX_FN void
cv_stx_diag_lane (const CvStxCellF * cells, const CvStxModelF * mf,
    const CvStxGroundF * gr, int band_j, int j, int h, int half,
    float *diag, int obj_slope)
{
  const int base = band_j * CV_STX_BAND, t = base + j;
  const int split = CV_STX_BAND / 2;
  CvStxMomF s = cv_stx_mom_zero ();
  int i, i_fit;
  if (t >= h)
    return;
  i_fit = half == 0 ? j : j - split;
  if (half == 1) {
    for (i = j; i > j - split && i >= 0; i--)
      cv_stx_mom_add (&s, &cells[base + i]);
  }
  for (i = i_fit; i >= 0 && (half == 1 || i > j - split); i--) {
    const CvStxCellF cell = cells[base + i];
    CvStxFitF fit;
    cv_stx_mom_add (&s, &cell);
    fit = cv_stx_fit_f (mf, gr, &s, cell.xb, cells[t].xe, obj_slope);
    cv_stx_diag_store (diag, cv_stx_diag_index (i, j), &fit, obj_slope);
  }
}

/* The folded scheme's critical block (band @band_i, band @band_i + 1),
 * fitted ahead (its fits do not depend on the DP): for lane (row) j of
 * the band above, entries (i, j) for the bottoms i of band @band_i from
 * the top down, the candidate grown one cell per bottom; half 0 the upper
 * CV_STX_BAND / 2 bottoms (from [band_i + 1's start, t]), half 1 the lower
 * ones (from the band suffix at the half joined with it), so that two
 * warps share the work.  @crit holds CV_STX_CRIT_FLOATS (obj_slope)
 * floats, 16-byte aligned.  The D phase of band @band_i offers them on its
 * rows' states as it makes them final (cv_stx_crit_entry). */
CV_STX_FN void
cv_stx_crit_lane (const CvStxTables * T, const CvStxModelF * mf,
    const CvStxGroundF * gr, int band_i, int j, int half, float *crit,
    int obj_slope)
{
  const int base = band_i * CV_STX_BAND, t = base + CV_STX_BAND + j;
  const int split = CV_STX_BAND / 2;
  const int hi = half == 0 ? CV_STX_BAND : split;
  CvStxMomF s;
  float x_top;
  int i;
  if (t >= T->h)
    return;
  s = T->prefix[t];
  x_top = T->cells[t].xe;
  if (half == 1) {
    const CvStxMomF sfx = cv_stx_suffix (T, band_i, split / CV_STX_SEG);
    s = cv_stx_mom_join (&sfx, &s);
  }
  for (i = hi - 1; i >= hi - split; i--) {
    const CvStxCellF cell = T->cells[base + i];
    CvStxFitF fit;
    cv_stx_mom_add (&s, &cell);
    fit = cv_stx_fit_f (mf, gr, &s, cell.xb, x_top, obj_slope);
    cv_stx_fits_store (crit, CV_STX_CRIT_ENTRIES, i * CV_STX_BAND + j, &fit,
        obj_slope);
  }
}

/* The critical fit of bottom @i (of the band below) for top @j. */
CV_STX_FN CvStxFitF
cv_stx_crit_entry (const float *crit, int i, int j, int obj_slope)
{
  return cv_stx_fits_entry (crit, CV_STX_CRIT_ENTRIES, i * CV_STX_BAND + j,
      obj_slope);
}

/* Row states, structure of arrays (a lane per row: conflict-free): for
 * class c, cost[c * h + t] etc. */
typedef struct
{
  float *cost;                  /* 3 h */
  int *ref;                     /* 3 h */
  float *edge;                  /* 2 h: ground, object */
  float *slope;                 /* 2 h */
  int h;
} CvStxStates;

CV_STX_FN CvStxBestF
cv_stx_state_load (const CvStxStates * S, int t)
{
  CvStxBestF b;
  int c;
  for (c = 0; c < CV_STIXEL_N_CLASSES; c++) {
    b.cost[c] = S->cost[c * S->h + t];
    b.ref[c] = S->ref[c * S->h + t];
  }
  b.edge_g = S->edge[t];
  b.edge_o = S->edge[S->h + t];
  b.slope_g = S->slope[t];
  b.slope_o = S->slope[S->h + t];
  return b;
}

CV_STX_FN void
cv_stx_state_store (const CvStxStates * S, int t, const CvStxBestF * b)
{
  int c;
  for (c = 0; c < CV_STIXEL_N_CLASSES; c++) {
    S->cost[c * S->h + t] = b->cost[c];
    S->ref[c * S->h + t] = b->ref[c];
  }
  S->edge[t] = b->edge_g;
  S->edge[S->h + t] = b->edge_o;
  S->slope[t] = b->slope_g;
  S->slope[S->h + t] = b->slope_o;
}

/* Walks the optimum down from the top row: path[t] = stixel index * 4 +
 * class for the top row t of every stixel (other entries untouched);
 * returns the stixel count and the energy. */
CV_STX_FN int
cv_stx_backtrack_f (const CvStxStates * S, int *path, float *energy)
{
  const int h = S->h;
  int t = h - 1, c = 0, i, n = 0;
  for (i = 1; i < CV_STIXEL_N_CLASSES; i++)
    if (S->cost[i * h + t] < S->cost[c * h + t])
      c = i;
  *energy = S->cost[c * h + t];
  while (t >= 0) {
    const int ref = S->ref[c * h + t];
    const int b = ref >> 2, p = (ref & 3) - 1;
    path[t] = n * 4 + c;
    n++;
    /* a stixel above row 0 always has a class below (a forbidden
     * transition never wins); stop on a broken chain */
    if (b > t || (b > 0 && p < 0))
      break;
    t = b - 1;
    c = p;
  }
  return n;
}

/* The stixel whose top row is @t with path entry @code. */
CV_STX_FN void
cv_stx_tiled_stixel (const CvStxModel * m, const CvStxStates * S, int u,
    int t, int code, CvStixel * out)
{
  const int h = S->h, c = code & 3;
  const int ref = S->ref[c * h + t];
  const int b = ref >> 2, p = (ref & 3) - 1;
  const double below = (b > 0 && p >= 0) ? S->cost[p * h + b - 1] : 0.0;
  const double edge = c == CV_STX_G ? S->edge[t] : c == CV_STX_O ?
      S->edge[h + t] : 0.0;
  const double slope = c == CV_STX_G ? S->slope[t] : c == CV_STX_O ?
      S->slope[h + t] : 0.0;
  cv_stx_make_stixel (m, u, b, t, c, edge, slope,
      (double) S->cost[c * h + t] - below, out);
}

/* Host-only. */
#ifdef __cplusplus
extern "C" {
#endif
#ifdef CV_HAVE_CUDA
/* How far the tiled kernel runs (the benchmark times its phases). */
typedef enum
{
  CV_STIXELS_TILED_STOP_PROLOGUE = 0,
  CV_STIXELS_TILED_STOP_DP,
  CV_STIXELS_TILED_RUN_ALL,
} CvStixelsTiledStop;

/* Enqueues the tiled column kernel (cv_stixels_cuda_tiled.cu) for @model
 * (whose priors cv_stx_tiled_supports) on the device images (it does the
 * downsampling itself); writes what the baseline column kernel writes.
 * @warps: 4, 8 or 16;
 * @d_share: helper warps allowed on the D warp's SM sub-partition (0 ..
 * warps / 4 - 1); @split: 1 a block per helper task, 2 half a block;
 * @fold: the critical block offered by the D phase of the band below (16
 * warps only; cv_stixels_cuda_tiled.cu). */
CvStatus cv_stixels_tiled_launch (const CvStxModel * model,
    const CvImageS16 * disparity, const CvImageU8 * confidence,
    const CvCameraPose * pose_dev,
    CvStixel * column_stixels, int32_t * column_count, float *column_energy,
    CvCameraPose * pose_used, int warps, int d_share, int split, int fold,
    CvStixelsTiledStop stop, CvStream stream, CvError * err);
#endif

/* Candidate steps of the blocks off the diagonal: all of them, and those
 * run (the rest pruned). */
typedef struct
{
  double block_steps, block_steps_run;
} CvStxPruneStats;

/* CPU emulation of the tiled single-precision DP (same per-row arithmetic
 * as the CUDA kernel, run row after row), for the unit tests, which check
 * it against cv_stixels_cpu: pruning on or off (the result is the same: a
 * test checks it), the critical block in a phase of its own or folded into
 * the D phase (@fold: the kernel's folded scheme), and its statistics
 * (@stats may be NULL). */
CvStatus cv_stixels_tiled_cpu_run (const CvStixelParams * params,
    const CvImageS16 * disparity, const CvImageU8 * confidence, int prune,
    int fold, CvStxPruneStats * stats, CvStixelList * out, CvError * err);
#ifdef __cplusplus
}
#endif

#endif /* CV_STIXELS_TILED_H */
