/* gst-cudavision core: stixels, the single-precision tiled DP (internal;
 * cv_stixels_tiled.h says why and how): cells, centred moments, the fits of
 * a candidate and the priors between it and the rows below.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CV_STIXELS_TILED_FIT_H
#define CV_STIXELS_TILED_FIT_H

#include "cv_stixels_tiled_float.h"

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

#endif /* CV_STIXELS_TILED_FIT_H */
