/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* stixels-tiled-*: the single-precision tiled DP (CPU emulation of the
 * CUDA tiled kernel, cv_stixels_tiled_cpu_run) against the double-precision
 * reference cv_stixels_cpu, with the agreement rule of the GPU test: the
 * same stixels on >= 99 % of the columns of every frame, every column's
 * energy within 1e-4 relative.  This checks the float formulation (centred
 * moments, ground residual frame) and the tiling (segments, tables, ties)
 * on any machine; stixels-agreement-gpu checks the kernel itself.
 *
 * Also: the float building blocks against double-precision sums, and which
 * tiled kernel the CUDA plan's default picks (host code, no GPU needed). */
#include <glib.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cv_stixels_tiled.h"
#ifdef CV_HAVE_CUDA
#include "cv_stixels_cuda_internal.h"
#endif
#include "cv_test.h"
#include "stixels_test_util.h"

typedef struct
{
  const char *name;
  int width, height, stixel_width, row_step;
  float noise, holes, outliers;
  gboolean confidence;
  gboolean random_priors;
  gboolean other_pose;          /* a pose that does not fit the scene */
} Case;

/* The frame of case @c with @seed, and its parameters in @p. */
static StxFrame *
case_frame (const Case * c, guint32 seed, CvStixelParams * p)
{
  StxFrame *f = stx_frame_new (c->width, c->height, 8, seed);
  guint32 rng = seed * 7 + 1;

  if (c->noise > 0 || c->holes > 0 || c->outliers > 0 || c->confidence)
    stx_frame_add_noise (f, c->noise, c->holes, c->outliers, 128,
        c->confidence, seed * 13);
  stx_params_for_frame (p, f);
  p->stixel_width = c->stixel_width;
  p->row_step = c->row_step;
  if (c->random_priors)
    stx_randomize_priors (p, &rng);
  if (c->other_pose) {
    p->pose.height *= 1.1f;
    p->pose.pitch += 0.01f;
  }
  return f;
}

/* The critical block folded into the D phase (the 16-warp kernel's
 * scheme) in the cases that follow. */
static int fold_critical;

static gboolean
run_case (const Case * c, guint32 seed)
{
  CvStixelParams p;
  StxFrame *f = case_frame (c, seed, &p);
  CvStixelList ref = CV_STIXEL_LIST_INIT, flt = CV_STIXEL_LIST_INIT;
  CvError err = { 0 };
  const CvImageU8 *conf = c->confidence ? &f->confidence : NULL;
  char what[128];
  gboolean ok;
  gint64 t0, t1, t2;

  t0 = g_get_monotonic_time ();
  if (cv_stixels_cpu (&p, &f->disparity, conf, &ref, &err) != CV_OK)
    g_error ("cv_stixels_cpu (%s): %s", c->name, err.message);
  t1 = g_get_monotonic_time ();
  if (cv_stixels_tiled_cpu_run (&p, &f->disparity, conf, 1, fold_critical,
          NULL, &flt, &err) != CV_OK)
    g_error ("cv_stixels_tiled_cpu_run (%s): %s", c->name, err.message);
  t2 = g_get_monotonic_time ();
  g_snprintf (what, sizeof (what), "%s%s %dx%d %dx%d seed %u (%.1f / %.1f "
      "s)", c->name, fold_critical ? " (folded)" : "", c->width, c->height,
      c->stixel_width, c->row_step, seed, (t1 - t0) * 1e-6, (t2 - t1) * 1e-6);
  ok = stx_compare_lists (what, "double", &ref, "tiled", &flt);
  cv_stixel_list_clear (&ref);
  cv_stixel_list_clear (&flt);
  stx_frame_free (f);
  return ok;
}

static void
run_cases (const Case * cases, int n, guint32 seed0)
{
  int i, failures = 0;
  for (i = 0; i < n; i++)
    if (!run_case (&cases[i], seed0 + i))
      failures++;
  g_assert_cmpint (failures, ==, 0);
}

/* The frames of the benchmark and of the GPU test, kept small enough for
 * a CPU run of a few seconds. */
static void
test_agreement_scenes (void)
{
  static const Case cases[] = {
    /* name, size, cell, noise, holes, outliers, conf, random, other pose */
    {"kitti exact", 1242, 375, 5, 1, 0, 0, 0, FALSE, FALSE, FALSE},
    {"kitti noisy", 1242, 375, 5, 1, 0.5f, 0.1f, 0, FALSE, FALSE, FALSE},
    {"vga confidence", 640, 480, 5, 1, 0.5f, 0.1f, 0.01f, TRUE, FALSE,
        FALSE},
    {"2k 8x8", 2048, 1024, 8, 8, 0.5f, 0.1f, 0, FALSE, FALSE, FALSE},
  };
  run_cases (cases, G_N_ELEMENTS (cases), 100);
}

static void
test_agreement_priors (void)
{
  static const Case cases[] = {
    {"random priors", 640, 375, 5, 1, 0.5f, 0.05f, 0, FALSE, TRUE, FALSE},
    {"random priors 2", 400, 300, 4, 1, 0.3f, 0.05f, 0.01f, TRUE, TRUE,
        FALSE},
    {"other pose", 640, 480, 5, 2, 0.5f, 0.1f, 0, FALSE, FALSE, TRUE},
    {"partial cells", 1243, 377, 5, 4, 0.5f, 0.1f, 0, TRUE, TRUE, FALSE},
  };
  run_cases (cases, G_N_ELEMENTS (cases), 200);
}

static void
test_agreement_shapes (void)
{
  static const Case cases[] = {
    {"tiny", 17, 9, 5, 2, 0.5f, 0.1f, 0, FALSE, FALSE, FALSE},
    {"one row", 64, 1, 1, 1, 0.5f, 0, 0, FALSE, FALSE, FALSE},
    {"one band", 160, 32, 5, 1, 0.5f, 0.1f, 0, FALSE, FALSE, FALSE},
    {"two bands + 1", 160, 65, 5, 1, 0.5f, 0.1f, 0, FALSE, FALSE, FALSE},
    {"tall", 96, 1000, 8, 1, 0.5f, 0.1f, 0, FALSE, FALSE, FALSE},
  };
  run_cases (cases, G_N_ELEMENTS (cases), 300);
}

/* Welford growth and Chan joins against double sums over the same cells;
 * the fits of an exact plane come out with zero residual. */
static void
test_moments (void)
{
  CvStxCellF cells[300];
  guint32 rng = 5;
  double sw = 0, swx = 0, swd = 0, sc = 0;
  CvStxMomF a = cv_stx_mom_zero (), b = cv_stx_mom_zero (), j;
  double mx, md, cxx = 0, cdd = 0, cxd = 0;
  int k;

  for (k = 0; k < 300; k++) {
    CvStxCellF *c = &cells[k];
    memset (c, 0, sizeof (*c));
    c->w = (k % 7 == 3) ? 0.0f : (float) (cv_test_rand (&rng) % 1000) / 999.0f;
    c->x = (float) (k - 150) + 0.5f;
    c->d = c->w > 0 ? 30.0f + 0.3f * c->x + (float) (cv_test_rand (&rng) %
        100) / 200.0f : 0.0f;
    c->g = c->d;
    c->c = c->w > 0 ? 0.01f * c->w : 0.0f;
    c->f = c->w > 0 ? 1.0f : 0.0f;
    sw += c->w;
    swx += (double) c->w * c->x;
    swd += (double) c->w * c->d;
    sc += c->c;
  }
  mx = swx / sw;
  md = swd / sw;
  for (k = 0; k < 300; k++) {
    cxx += cells[k].w * (cells[k].x - mx) * (cells[k].x - mx);
    cxd += cells[k].w * (cells[k].x - mx) * (cells[k].d - md);
    cdd += cells[k].w * (cells[k].d - md) * (cells[k].d - md);
  }
  cdd += sc;
  /* grown from the top down in two pieces, then joined */
  for (k = 299; k >= 120; k--)
    cv_stx_mom_add (&a, &cells[k]);
  for (k = 119; k >= 0; k--)
    cv_stx_mom_add (&b, &cells[k]);
  j = cv_stx_mom_join (&b, &a);
  g_assert_cmpfloat (fabs (j.n - sw), <, 1e-5 * sw);
  g_assert_cmpfloat (fabs (j.mx - mx), <, 1e-4);
  g_assert_cmpfloat (fabs (j.md - md), <, 1e-4);
  g_assert_cmpfloat (fabs (j.cxx - cxx), <, 1e-5 * cxx);
  g_assert_cmpfloat (fabs (j.cxg - cxd), <, 1e-5 * fabs (cxd));
  g_assert_cmpfloat (fabs (j.cdd - cdd), <, 1e-5 * cdd);
  g_assert_cmpfloat (fabs (j.cgg - cdd), <, 1e-5 * cdd);
  /* joining the empty set changes nothing */
  {
    const CvStxMomF z = cv_stx_mom_zero ();
    CvStxMomF e1 = cv_stx_mom_join (&z, &j), e2 = cv_stx_mom_join (&j, &z);
    g_assert_cmpfloat (fabs (e1.mx - j.mx), <=, 1e-6 * fabs (j.mx));
    g_assert_cmpfloat (e1.cxx, ==, j.cxx);
    g_assert_cmpfloat (e2.cdd, ==, j.cdd);
    g_assert_cmpfloat (e2.md, ==, j.md);
  }
  /* a cell of weight 0 changes nothing, bit for bit */
  {
    CvStxMomF before = a;
    CvStxCellF empty = cells[3];
    g_assert_cmpfloat (empty.w, ==, 0.0f);
    cv_stx_mom_add (&a, &empty);
    g_assert_true (memcmp (&a, &before, sizeof (a)) == 0);
  }
}

/* A block as two halves (the kernel's split tasks) gives the whole
 * block's result bit for bit. */
static void
test_block_halves (void)
{
  StxFrame *f = stx_frame_new (40, 200, 4, 9);
  CvStixelParams p;
  CvStxModel m;
  CvStxModelF mf;
  CvStxGroundF gr;
  CvStxCell *cells = NULL;
  CvStxCellF cf[200];
  CvStxMomF prefix[200], suffix[7 * CV_STX_SEGS_PER_BAND], range[28];
  CvStxBelowF ring[CV_STX_BELOW_RING];
  CvStxTables T = { cf, prefix, suffix, range, 200, 7 };
  CvError err = { 0 };
  guint32 rng = 3;
  int k, band, j, t, bi, bj;
  int pruned_steps = 0, all_steps = 0;

  stx_frame_add_noise (f, 0.5f, 0.1f, 0.0f, 128, FALSE, 5);
  stx_params_for_frame (&p, f);
  p.stixel_width = 4;
  g_assert_cmpint (cv_stixels_model_init (&m, &p, f->width, f->height, &err),
      ==, CV_OK);
  g_assert_cmpint (m.n_rows, ==, 200);
  g_assert_cmpint (cv_stx_compute_cells (&m, &f->disparity, NULL, &cells,
          &err), ==, CV_OK);
  cv_stx_model_f_init (&m, &mf);
  gr = cv_stx_ground_f (&m.plane[CV_STX_G]);
  for (k = 0; k < 200; k++)
    cf[k] = cv_stx_cell_f (&m, cells[3 * 200 + k], k, &m.plane[CV_STX_G]);
  for (band = 0; band < 7; band++) {
    CvStxMomF v[CV_STX_BAND];
    for (j = 0; j < CV_STX_BAND; j++)
      v[j] = cv_stx_cell_mom (cf, band * CV_STX_BAND + j, 200);
    cv_stx_band_scan (v, 0);
    for (j = 0; j < CV_STX_BAND && band * CV_STX_BAND + j < 200; j++)
      prefix[band * CV_STX_BAND + j] = v[j];
    for (j = 0; j < CV_STX_BAND; j++)
      v[j] = cv_stx_cell_mom (cf, band * CV_STX_BAND + j, 200);
    cv_stx_band_scan (v, 1);
    for (j = 0; j < CV_STX_SEGS_PER_BAND; j++)
      suffix[band * CV_STX_SEGS_PER_BAND + j] = v[CV_STX_SEG * j];
  }
  for (bi = 0; bi < 7; bi++) {
    range[cv_stx_range_index (bi, bi, 7)] = suffix[bi * CV_STX_SEGS_PER_BAND];
    for (bj = bi + 1; bj < 7; bj++)
      range[cv_stx_range_index (bi, bj, 7)] =
          cv_stx_mom_join (&range[cv_stx_range_index (bi, bj - 1, 7)],
          &suffix[bj * CV_STX_SEGS_PER_BAND]);
  }
  /* the kernel's table-free moments of [band start, t] are the table's */
  for (t = 0; t < 200; t++)
    for (bi = 0; bi <= t / CV_STX_BAND; bi++) {
      const CvStxMomF a = cv_stx_band_start_mom (&T, bi, t);
      const CvStxMomF b = cv_stx_band_start_mom_scan (&T, bi, t);
      g_assert_true (memcmp (&a, &b, sizeof (a)) == 0);
    }
  /* arbitrary prepared states below */
  for (k = 0; k < CV_STX_BELOW_RING; k++)
    ring[k] = cv_stx_below_f (&mf, (float) (cv_test_rand (&rng) % 100),
        (float) (cv_test_rand (&rng) % 100),
        (float) (cv_test_rand (&rng) % 100),
        (float) (cv_test_rand (&rng) % 60), (float) (cv_test_rand (&rng) % 60));
  for (bi = 0; bi + 2 < 7; bi++)
    for (bj = bi + 2; bj < 7; bj++)
      for (t = bj * CV_STX_BAND; t < MIN (200, (bj + 1) * CV_STX_BAND); t++) {
        const CvStxCut none = cv_stx_cut_none ();
        const CvStxBestF whole = cv_stx_block (&T, &mf, &gr, ring, bi, bj, t,
            &none, &none, 0, 0, NULL);
        CvStxBestF up = cv_stx_block_half (&T, &mf, &gr, ring, bi, bj, t, 0,
            &none, 0, 0);
        CvStxBestF lo = cv_stx_block_half (&T, &mf, &gr, ring, bi, bj,
            t, 1, &none, 0, 0);
        CvStxCut cut_hi, cut_lo;
        int steps = 0;
        cv_stx_best_merge (&up, &lo, cf);
        g_assert_true (memcmp (&up, &whole, sizeof (up)) == 0);
        g_assert_cmpint (whole.ref[0], !=, CV_STX_REF_NONE);
        /* pruned against the block's own best: the same best, bit for
         * bit, from fewer steps; the halves still add up */
        {
          float ub[3 * 200];
          int c;
          for (c = 0; c < 3; c++)
            ub[c * 200 + t] = whole.cost[c];
          cv_stx_block_cuts (&mf, ring, bi, ub, 200, t, &cut_hi, &cut_lo);
        }
        {
          const CvStxBestF pruned = cv_stx_block (&T, &mf, &gr, ring, bi, bj,
              t, &cut_hi, &cut_lo, 1, 0, &steps);
          g_assert_true (memcmp (&pruned, &whole, sizeof (whole)) == 0);
          g_assert_cmpint (steps, >=, 2);
          g_assert_cmpint (steps, <=, CV_STX_BAND);
          pruned_steps += steps;
          all_steps += CV_STX_BAND;
          up = cv_stx_block_half (&T, &mf, &gr, ring, bi, bj, t, 0, &cut_hi,
              1, 0);
          lo = cv_stx_block_half (&T, &mf, &gr, ring, bi, bj, t, 1, &cut_lo,
              1, 0);
          cv_stx_best_merge (&up, &lo, cf);
          g_assert_true (memcmp (&up, &pruned, sizeof (up)) == 0);
        }
      }
  /* the bound bites: most long candidates stop early */
  g_assert_cmpint (pruned_steps, <, all_steps / 2);
  free (cells);
  stx_frame_free (f);
}

/* Pruning changes nothing: the same stixels and energies, bit for bit,
 * with and without it, on the benchmark's scenes and on random priors;
 * and it skips most of the blocks' candidate steps on structured scenes. */
static void
test_pruning (void)
{
  static const Case cases[] = {
    {"kitti noisy", 1242, 375, 5, 1, 0.5f, 0.1f, 0, FALSE, FALSE, FALSE},
    {"vga confidence", 640, 480, 5, 1, 0.5f, 0.1f, 0.01f, TRUE, FALSE,
        FALSE},
    {"random priors", 640, 375, 5, 1, 0.5f, 0.05f, 0, FALSE, TRUE, FALSE},
    {"random priors 2", 400, 300, 4, 1, 0.3f, 0.05f, 0.01f, TRUE, TRUE,
        FALSE},
    {"random priors 3", 300, 700, 6, 1, 1.0f, 0.2f, 0.05f, TRUE, TRUE,
        FALSE},
    {"other pose", 640, 480, 5, 2, 0.5f, 0.1f, 0, FALSE, FALSE, TRUE},
    {"noise only", 320, 480, 5, 1, 0, 0, 1.0f, FALSE, FALSE, FALSE},
  };
  guint i;
  for (i = 0; i < G_N_ELEMENTS (cases); i++) {
    const Case *c = &cases[i];
    CvStixelParams p;
    StxFrame *f = case_frame (c, 400 + i, &p);
    const CvImageU8 *conf = c->confidence ? &f->confidence : NULL;
    CvStixelList on = CV_STIXEL_LIST_INIT, off = CV_STIXEL_LIST_INIT;
    CvStxPruneStats s_on, s_off;
    CvError err = { 0 };
    int u;

    g_assert_cmpint (cv_stixels_tiled_cpu_run (&p, &f->disparity, conf, 1,
            fold_critical, &s_on, &on, &err), ==, CV_OK);
    g_assert_cmpint (cv_stixels_tiled_cpu_run (&p, &f->disparity, conf, 0,
            fold_critical, &s_off, &off, &err), ==, CV_OK);
    g_test_message ("%s: %.0f block steps, %.1f %% run with pruning",
        c->name, s_on.block_steps,
        100.0 * s_on.block_steps_run / MAX (s_on.block_steps, 1));
    g_assert_cmpfloat (s_off.block_steps_run, ==, s_off.block_steps);
    g_assert_cmpfloat (s_on.block_steps, ==, s_off.block_steps);
    g_assert_cmpint (on.n_columns, ==, off.n_columns);
    g_assert_cmpint (on.n_stixels, ==, off.n_stixels);
    g_assert_true (memcmp (on.stixels, off.stixels,
            sizeof (CvStixel) * on.n_stixels) == 0);
    g_assert_true (memcmp (on.column_start, off.column_start,
            sizeof (on.column_start[0]) * (on.n_columns + 1)) == 0);
    for (u = 0; u < on.n_columns; u++)
      g_assert_cmpfloat (on.column_energy[u], ==, off.column_energy[u]);
    /* structured scenes: most long candidates are pruned */
    if (!c->random_priors && c->outliers < 0.5f)
      g_assert_cmpfloat (s_on.block_steps_run, <, 0.5 * s_on.block_steps);
    cv_stixel_list_clear (&on);
    cv_stixel_list_clear (&off);
    stx_frame_free (f);
  }
}

/* The folded scheme: every case above again, pruning with it too. */
static void
test_fold (void)
{
  fold_critical = 1;
  test_agreement_shapes ();
  test_agreement_scenes ();
  test_agreement_priors ();
  test_pruning ();
  fold_critical = 0;
}

/* AUTO's kernel on the H200's limits (132 SMs, 228 KiB of shared memory
 * per SM, 1 KiB reserved per block, 227 KiB per block), at the frames
 * bench-stixels measured (cv_stixels_cuda.cu lists the times), 5x1 cells
 * unless noted. */
static void
test_auto_variant (void)
{
#ifdef CV_HAVE_CUDA
  const CvDeviceLimits h200 = cv_test_h200_limits ();
  const struct
  {
    int columns, rows, obj_slope;
    CvStixelsVariant expected;
    const char *what;
  } cases[] = {
    {128, 480, 0, CV_STIXELS_VARIANT_TILED16_FOLD, "640x480: one column per SM"},
    {249, 375, 0, CV_STIXELS_VARIANT_TILED8, "1242x375: two blocks per SM"},
    {249, 188, 0, CV_STIXELS_VARIANT_TILED8_SPLIT, "1242x375, 5x2: 6 bands"},
    {256, 128, 0, CV_STIXELS_VARIANT_TILED8_SPLIT, "2048x1024, 8x8"},
    {160, 448, 0, CV_STIXELS_VARIANT_TILED8, "800x448: two blocks fit"},
    {160, 477, 0, CV_STIXELS_VARIANT_TILED8, "800x477: two blocks fit"},
    {160, 478, 0, CV_STIXELS_VARIANT_TILED16_FOLD, "800x478: they do not"},
    {135, 480, 0, CV_STIXELS_VARIANT_TILED16_FOLD, "672x480"},
    {256, 720, 0, CV_STIXELS_VARIANT_TILED16_FOLD, "1280x720"},
    {249, 375, 1, CV_STIXELS_VARIANT_TILED16_FOLD,
        "1242x375 with the object slope's prior: two blocks do not fit"},
    {256, 828, 0, CV_STIXELS_VARIANT_TILED16_FOLD, "1280x828"},
    {256, 829, 0, CV_STIXELS_VARIANT_TILED16_SPLIT,
        "1280x829: the folded tables do not fit"},
    {320, 900, 0, CV_STIXELS_VARIANT_TILED16_SPLIT, "1600x900"},
    {256, 1024, 0, CV_STIXELS_VARIANT_TILED16, "1280x1024: 32 bands"},
    {128, 1080, 0, CV_STIXELS_VARIANT_TILED16, "640x1080"},
  };
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++) {
    const CvStixelsVariant got = cv_stixels_auto_variant (cases[i].columns,
        cases[i].rows, cases[i].obj_slope, &h200);
    if (got != cases[i].expected)
      g_error ("%s (%d columns of %d rows): AUTO took %s, not %s",
          cases[i].what, cases[i].columns, cases[i].rows,
          cv_stixels_variant_name (got),
          cv_stixels_variant_name (cases[i].expected));
  }
#else
  g_test_skip ("built without CUDA");
#endif
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/stixels/tiled-moments", test_moments);
  g_test_add_func ("/stixels/tiled-block-halves", test_block_halves);
  g_test_add_func ("/stixels/tiled-scenes", test_agreement_scenes);
  g_test_add_func ("/stixels/tiled-priors", test_agreement_priors);
  g_test_add_func ("/stixels/tiled-shapes", test_agreement_shapes);
  g_test_add_func ("/stixels/tiled-pruning", test_pruning);
  g_test_add_func ("/stixels/tiled-fold", test_fold);
  g_test_add_func ("/stixels/tiled-auto-variant", test_auto_variant);
  return g_test_run ();
}
