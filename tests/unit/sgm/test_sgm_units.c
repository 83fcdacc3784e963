/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Unit tests of the SGM CPU reference: every stage against a naive
 * implementation written from the definitions in cv_sgm.h, on tiny images. */
#include <glib.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cv_sgm.h"
#include "cv_sgm_internal.h"
#include "cv_test.h"

/* ---- helpers -------------------------------------------------------------------- */

static CvImageU8 *
random_image (int w, int h, guint32 * seed, int smooth)
{
  CvImageU8 *img = cv_test_image_new (w, h, 1, 3);
  int x, y;
  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++) {
      int v = cv_test_rand (seed) & 0xff;
      if (smooth)               /* textured, with equal neighbours too */
        v = (((x * 7 + y * 3) & 31) * 6 + (v & 15)) & 0xff;
      CV_ROW (img, y)[x] = (uint8_t) v;
    }
  return img;
}

/* shifted copy: right(x) = left(x + shift) (clamped), plus noise */
static CvImageU8 *
shifted_image (const CvImageU8 * left, int shift, guint32 * seed)
{
  CvImageU8 *img = cv_test_image_new (left->width, left->height, 1, 5);
  int x, y;
  for (y = 0; y < left->height; y++)
    for (x = 0; x < left->width; x++) {
      int sx = MIN (x + shift, left->width - 1);
      int v = CV_ROW (left, y)[sx] + (int) (cv_test_rand (seed) % 5) - 2;
      CV_ROW (img, y)[x] = (uint8_t) CLAMP (v, 0, 255);
    }
  return img;
}

static int
pix (const CvImageU8 * img, int x, int y)
{
  x = x < 0 ? 0 : (x >= img->width ? img->width - 1 : x);
  y = y < 0 ? 0 : (y >= img->height ? img->height - 1 : y);
  return CV_ROW (img, y)[x];
}

static int
hamming (uint64_t a, uint64_t b)
{
  int n = 0;
  uint64_t v = a ^ b;
  while (v) {
    n += (int) (v & 1);
    v >>= 1;
  }
  return n;
}

/* ---- census ------------------------------------------------------------------------ */

/* naive census: a table of the compared pixel pairs, in bit order */
static void
naive_census (const CvImageU8 * img, CvSgmCensus kind, uint64_t * out)
{
  int pairs[64][4];             /* (ax, ay, bx, by): bit = I(a) < I(b) */
  int n = 0, i, j, x, y, k;

  if (kind == CV_SGM_CENSUS_CS_9X7) {
    for (i = 1; i <= 4; i++)
      for (j = -3; j <= 3; j++) {
        pairs[n][0] = i;
        pairs[n][1] = j;
        pairs[n][2] = -i;
        pairs[n][3] = -j;
        n++;
      }
    for (j = 1; j <= 3; j++) {
      pairs[n][0] = 0;
      pairs[n][1] = j;
      pairs[n][2] = 0;
      pairs[n][3] = -j;
      n++;
    }
    g_assert_cmpint (n, ==, 31);
  } else {
    for (j = -3; j <= 3; j++)
      for (i = -4; i <= 4; i++)
        if (i || j) {
          pairs[n][0] = i;
          pairs[n][1] = j;
          pairs[n][2] = 0;
          pairs[n][3] = 0;
          n++;
        }
    g_assert_cmpint (n, ==, 62);
  }
  for (y = 0; y < img->height; y++)
    for (x = 0; x < img->width; x++) {
      uint64_t bits = 0;
      for (k = 0; k < n; k++) {
        int a = pix (img, x + pairs[k][0], y + pairs[k][1]);
        int b = pix (img, x + pairs[k][2], y + pairs[k][3]);
        if (a < b)
          bits |= (uint64_t) 1 << k;
      }
      out[y * img->width + x] = bits;
    }
}

static void
test_census (void)
{
  guint32 seed = 7;
  int sizes[][2] = { {1, 1}, {3, 2}, {17, 9}, {40, 13} };
  int s, kind, smooth;

  for (s = 0; s < (int) G_N_ELEMENTS (sizes); s++)
    for (kind = 0; kind < 2; kind++)
      for (smooth = 0; smooth < 2; smooth++) {
        int w = sizes[s][0], h = sizes[s][1], i;
        CvImageU8 *img = random_image (w, h, &seed, smooth);
        uint64_t *a = g_new (uint64_t, w * h), *b = g_new (uint64_t, w * h);
        cv_sgm_census_cpu (img, kind, a);
        naive_census (img, kind, b);
        for (i = 0; i < w * h; i++) {
          if (a[i] != b[i])
            g_error ("census kind %d %dx%d pixel %d: %016" G_GINT64_MODIFIER
                "x, naive %016" G_GINT64_MODIFIER "x", kind, w, h, i, a[i],
                b[i]);
          g_assert_cmpint (a[i] >> cv_sgm_census_bits (kind), ==, 0);
        }
        cv_test_image_free (img);
        g_free (a);
        g_free (b);
      }
}

/* ---- matching cost -------------------------------------------------------------------- */

/* cv_sgm_cost_span_cpu's signature (and its scalar twin's). */
typedef void (*CostSpan) (const uint64_t * census_left,
    const uint64_t * census_right, int width, int y, int x0, int x1,
    int n_disp, int min_disp, uint8_t * cost);

/* Row @y's costs from @cost_span over pixels @x0 .. @x1 - 1 against the
 * definition; the pixels outside the span stay as they were (0xee). */
static void
check_cost_span (CostSpan cost_span, const char *name, const uint64_t * cl,
    const uint64_t * cr, int w, int y, int x0, int x1, int nd, int md)
{
  uint8_t *cost = g_new (uint8_t, (size_t) w * nd);
  int x, k;

  memset (cost, 0xee, (size_t) w * nd);
  cost_span (cl, cr, w, y, x0, x1, nd, md, cost);
  for (x = 0; x < w; x++)
    for (k = 0; k < nd; k++) {
      const int xr = x - md - k;
      const int expect = x < x0 || x >= x1 ? 0xee
          : hamming (cl[y * w + x], xr >= 0 ? cr[y * w + xr] : 0);
      if (cost[x * nd + k] != expect)
        g_error ("%s: %d columns, D %d, min %d, pixels %d..%d: C(%d, %d, %d)"
            " = %d, expected %d", name, w, nd, md, x0, x1 - 1, x, y, k,
            cost[x * nd + k], expect);
    }
  g_free (cost);
}

static void
test_cost (void)
{
  guint32 seed = 11;
  const struct
  {
    int w, nd, md;
  } shapes[] = { {37, 32, 0}, {37, 32, 9}, {150, 64, 0}, {150, 64, 9},
  {150, 64, 70}, {300, 256, 3}, {20, 16, 19}
  };
  const int h = 3;
  int si, y, i;

  for (si = 0; si < (int) G_N_ELEMENTS (shapes); si++) {
    const int w = shapes[si].w, nd = shapes[si].nd, md = shapes[si].md;
    uint64_t *cl = g_new (uint64_t, w * h), *cr = g_new (uint64_t, w * h);
    uint8_t *cost = g_new (uint8_t, (size_t) w * nd);

    for (i = 0; i < w * h; i++) {
      cl[i] = ((uint64_t) cv_test_rand (&seed) << 31) ^ cv_test_rand (&seed);
      cr[i] = ((uint64_t) cv_test_rand (&seed) << 31) ^ cv_test_rand (&seed);
      cl[i] &= ((uint64_t) 1 << 62) - 1;
      cr[i] &= ((uint64_t) 1 << 62) - 1;
    }
    for (y = 0; y < h; y++) {
      /* the whole row, then a span of it, in the vector code the CPU has
       * and in scalar code */
      const int x0 = (int) (cv_test_rand (&seed) % w);
      const int x1 = x0 + (int) (cv_test_rand (&seed) % (w - x0 + 1));

      cv_sgm_cost_row_cpu (cl, cr, w, y, nd, md, cost);
      for (i = 0; i < w * nd; i++) {
        const int x = i / nd, k = i % nd, xr = x - md - k;
        g_assert_cmpint (cost[i], ==,
            hamming (cl[y * w + x], xr >= 0 ? cr[y * w + xr] : 0));
      }
      check_cost_span (cv_sgm_cost_span_cpu, "cost span", cl, cr, w, y, x0,
          x1, nd, md);
      check_cost_span (cv_sgm_cost_span_scalar_cpu, "scalar cost span", cl,
          cr, w, y, 0, w, nd, md);
      check_cost_span (cv_sgm_cost_span_scalar_cpu, "scalar cost span", cl,
          cr, w, y, x0, x1, nd, md);
    }
    g_free (cl);
    g_free (cr);
    g_free (cost);
  }
}

/* ---- aggregation: eq. 2.3 by recursion ---------------------------------------------- */

typedef struct
{
  const CvSgmParams *p;
  const CvImageU8 *left;
  const uint64_t *cl, *cr;
  int w, h, dx, dy;
  long *memo;                   /* w*h*D, -1 = not computed */
} NaivePath;

static long naive_L (NaivePath * np, int x, int y, int k);

static long
naive_C (NaivePath * np, int x, int y, int k)
{
  int xr = x - np->p->min_disparity - k;
  return hamming (np->cl[y * np->w + x], xr >= 0 ? np->cr[y * np->w + xr] : 0);
}

static long
naive_L (NaivePath * np, int x, int y, int k)
{
  const int nd = np->p->max_disparity;
  long *slot = &np->memo[((size_t) y * np->w + x) * nd + k];
  int px = x - np->dx, py = y - np->dy, i;
  long m, best, p2;

  if (*slot >= 0)
    return *slot;
  if (px < 0 || py < 0 || px >= np->w || py >= np->h) {
    *slot = naive_C (np, x, y, k);
    return *slot;
  }
  m = naive_L (np, px, py, 0);
  for (i = 1; i < nd; i++)
    m = MIN (m, naive_L (np, px, py, i));
  p2 = np->p->p2;
  if (np->p->adaptive_p2) {
    int d = abs (CV_ROW (np->left, y)[x] - CV_ROW (np->left, py)[px]);
    double v = np->p->p2 / (1.0 + d / (double) np->p->adaptive_p2_scale);
    p2 = (long) floor (v + 1e-9);
    if (p2 < np->p->p1 + 1)
      p2 = np->p->p1 + 1;
  }
  best = naive_L (np, px, py, k);
  if (k > 0)
    best = MIN (best, naive_L (np, px, py, k - 1) + np->p->p1);
  if (k < nd - 1)
    best = MIN (best, naive_L (np, px, py, k + 1) + np->p->p1);
  best = MIN (best, m + p2);
  *slot = naive_C (np, x, y, k) + best - m;
  return *slot;
}

static void
check_paths (const CvSgmParams * p, const CvImageU8 * left,
    const CvImageU8 * right)
{
  const int w = left->width, h = left->height, nd = p->max_disparity;
  uint64_t *cl = g_new (uint64_t, w * h), *cr = g_new (uint64_t, w * h);
  uint16_t *L = g_new (uint16_t, (size_t) w * h * nd);
  uint16_t *sum = g_new0 (uint16_t, (size_t) w * h * nd);
  long *total = g_new0 (long, (size_t) w * h * nd);
  NaivePath np;
  int i, x, y, k;

  cv_sgm_census_cpu (left, p->census, cl);
  cv_sgm_census_cpu (right, p->census, cr);
  np.p = p;
  np.left = left;
  np.cl = cl;
  np.cr = cr;
  np.w = w;
  np.h = h;
  np.memo = g_new (long, (size_t) w * h * nd);
  for (i = 0; i < p->paths; i++) {
    cv_sgm_path_direction (i, &np.dx, &np.dy);
    memset (np.memo, 0xff, (size_t) w * h * nd * sizeof (long));
    cv_sgm_aggregate_path_cpu (p, left, cl, cr, np.dx, np.dy, sum, L);
    for (y = 0; y < h; y++)
      for (x = 0; x < w; x++)
        for (k = 0; k < nd; k++) {
          long v = naive_L (&np, x, y, k);
          size_t c = ((size_t) y * w + x) * nd + k;
          total[c] += v;
          if (L[c] != v)
            g_error ("path (%d,%d) P1 %d P2 %d adaptive %d census %d at "
                "(%d,%d) k %d: %d, naive %ld", np.dx, np.dy, p->p1, p->p2,
                p->adaptive_p2, p->census, x, y, k, L[c], v);
        }
  }
  for (i = 0; i < w * h * nd; i++)
    g_assert_cmpint (sum[i], ==, total[i]);
  g_free (np.memo);
  g_free (cl);
  g_free (cr);
  g_free (L);
  g_free (sum);
  g_free (total);
}

static void
test_aggregate (void)
{
  guint32 seed = 5;
  int sizes[][2] = { {1, 1}, {9, 7}, {23, 11}, {5, 19} };
  int s, combo;

  for (s = 0; s < (int) G_N_ELEMENTS (sizes); s++)
    for (combo = 0; combo < 10; combo++) {
      CvSgmParams p;
      CvImageU8 *l = random_image (sizes[s][0], sizes[s][1], &seed, combo & 1);
      CvImageU8 *r = shifted_image (l, 3, &seed);
      cv_sgm_params_init (&p);
      p.max_disparity = combo & 2 ? 32 : 16;
      p.min_disparity = combo & 4 ? 2 : 0;
      p.paths = 8;
      p.census = combo & 1 ? CV_SGM_CENSUS_9X7 : CV_SGM_CENSUS_CS_9X7;
      p.adaptive_p2 = (combo >> 1) & 1;
      p.adaptive_p2_scale = 5 + combo;
      p.p1 = 3 + combo;
      p.p2 = 20 + 9 * combo;
      if (combo >= 8) {
        /* the largest penalties: path costs near their 16-bit bound */
        p.p1 = CV_SGM_MAX_P2 - 1;
        p.p2 = CV_SGM_MAX_P2;
      }
      check_paths (&p, l, r);
      cv_test_image_free (l);
      cv_test_image_free (r);
    }
}

/* ---- winner-takes-all, sub-pixel, uniqueness, right view ------------------------- */

static void
test_wta (void)
{
  guint32 seed = 3;
  const int w = 29, h = 5;
  int combo;

  for (combo = 0; combo < 12; combo++) {
    CvSgmParams p;
    int nd, x, y, k, n_valid = 0, n_sub = 0;
    uint16_t *sum;
    int16_t *disp, *best, *best_right;
    uint8_t *conf;

    cv_sgm_params_init (&p);
    p.max_disparity = nd = combo & 1 ? 32 : 16;
    p.min_disparity = combo & 2 ? 5 : 0;
    p.subpixel = (combo >> 2) & 1;
    p.uniqueness = combo >= 8 ? 1.0f : (combo >= 4 ? 0.9f : 0.95f);
    sum = g_new (uint16_t, w * h * nd);
    disp = g_new (int16_t, w * h);
    best = g_new (int16_t, w * h);
    best_right = g_new (int16_t, w * h);
    conf = g_new (uint8_t, w * h);
    for (k = 0; k < w * h * nd; k++)     /* few distinct values: ties happen */
      sum[k] = (uint16_t) (combo % 3 == 0 ? 100 + cv_test_rand (&seed) % 40
          : cv_test_rand (&seed) % 3000);
    cv_sgm_wta_cpu (&p, sum, w, h, disp, best, conf, best_right);

    for (y = 0; y < h; y++)
      for (x = 0; x < w; x++) {
        const uint16_t *s = sum + (y * w + x) * nd;
        int b = 0, frac = 0, expect;
        long c1, c2 = -1;
        double ratio;
        for (k = 0; k < nd; k++)
          if (s[k] < s[b])
            b = k;
        c1 = s[b];
        for (k = 0; k < nd; k++)
          if (abs (k - b) >= 2 && (c2 < 0 || s[k] < c2))
            c2 = s[k];
        g_assert_cmpint (best[y * w + x], ==, b);
        if (p.subpixel && b > 0 && b < nd - 1) {
          double a = s[b - 1], c = s[b + 1];
          double den = a + c - 2.0 * c1;
          if (den > 0)
            frac = (int) floor (8.0 * (a - c) / den + 0.5);
          g_assert_cmpint (frac, >=, -8);
          g_assert_cmpint (frac, <=, 8);
          n_sub += frac != 0;
        }
        ratio = c2 > 0 ? (double) c1 / c2 : 1.0;
        expect = (p.uniqueness >= 1.0f || (c2 > 0 && c1 * 1024 <
                (long) lrint (p.uniqueness * 1024) * c2))
            ? 16 * (p.min_disparity + b) + frac : -1;
        g_assert_cmpint (disp[y * w + x], ==, expect);
        n_valid += expect >= 0;
        g_assert_cmpint (conf[y * w + x], ==,
            c2 > 0 ? MIN (255, (int) ((1020 * (c2 - c1)) / c2)) : 0);
        (void) ratio;
      }
    /* right view: brute force over all left pixels of the row */
    for (y = 0; y < h; y++)
      for (x = 0; x < w; x++) {
        int br = -1;
        long bc = 0;
        int xl;
        for (xl = 0; xl < w; xl++) {
          int kk = xl - p.min_disparity - x;
          if (kk < 0 || kk >= nd)
            continue;
          if (br < 0 || sum[(y * w + xl) * nd + kk] < bc
              || (sum[(y * w + xl) * nd + kk] == bc && kk < br)) {
            bc = sum[(y * w + xl) * nd + kk];
            br = kk;
          }
        }
        g_assert_cmpint (best_right[y * w + x], ==, br);
      }
    if (p.uniqueness >= 1.0f)
      g_assert_cmpint (n_valid, ==, w * h);
    if (p.subpixel && combo % 3 != 0)
      g_assert_cmpint (n_sub, >, 0);
    g_free (sum);
    g_free (disp);
    g_free (best);
    g_free (best_right);
    g_free (conf);
  }
}

static void
test_subpixel_formula (void)
{
  int a, c1, c;
  /* exhaustive small range against the real-valued vertex */
  for (c1 = 0; c1 < 20; c1++)
    for (a = c1; a < c1 + 40; a++)
      for (c = c1; c < c1 + 40; c++) {
        int den = a + c - 2 * c1;
        int expect = den > 0 ? (int) floor (8.0 * (a - c) / den + 0.5) : 0;
        g_assert_cmpint (cv_sgm_subpixel_frac (a, c1, c), ==, expect);
      }
  /* symmetric costs: the vertex is at the centre */
  g_assert_cmpint (cv_sgm_subpixel_frac (50, 10, 50), ==, 0);
  /* the parabola through (-1, 40), (0, 10), (1, 20): vertex at 1/4 px */
  g_assert_cmpint (cv_sgm_subpixel_frac (40, 10, 20), ==, 4);
}

/* ---- left-right check and median --------------------------------------------------- */

static int
cmp_s16 (const void *a, const void *b)
{
  return *(const int16_t *) a - *(const int16_t *) b;
}

static void
test_lr_check (void)
{
  guint32 seed = 19;
  const int w = 31, h = 4;
  int combo;
  for (combo = 0; combo < 6; combo++) {
    CvSgmParams p;
    int16_t disp[31 * 4], orig[31 * 4], best[31 * 4], br[31 * 4];
    int i, x, y, n_inv = 0;
    cv_sgm_params_init (&p);
    p.max_disparity = 16;
    p.min_disparity = combo & 1 ? 3 : 0;
    p.lr_check = combo != 5;
    p.lr_max_diff = combo / 2;
    for (i = 0; i < w * h; i++) {
      best[i] = (int16_t) (cv_test_rand (&seed) % 16);
      br[i] = (int16_t) ((int) (cv_test_rand (&seed) % 17) - 1);
      disp[i] = orig[i] = cv_test_rand (&seed) % 7 == 0 ? -1
          : (int16_t) (16 * (p.min_disparity + best[i]) + 3);
    }
    cv_sgm_lr_check_cpu (&p, w, h, disp, best, br);
    for (y = 0; y < h; y++)
      for (x = 0; x < w; x++) {
        int idx = y * w + x, expect = orig[idx];
        if (p.lr_check && orig[idx] >= 0) {
          int xr = x - p.min_disparity - best[idx];
          if (xr < 0 || br[y * w + xr] < 0
              || abs (br[y * w + xr] - best[idx]) > p.lr_max_diff)
            expect = -1;
        }
        g_assert_cmpint (disp[idx], ==, expect);
        n_inv += expect < 0 && orig[idx] >= 0;
      }
    if (p.lr_check)
      g_assert_cmpint (n_inv, >, 0);
  }
}

static void
test_median (void)
{
  guint32 seed = 23;
  int sizes[][2] = { {1, 1}, {2, 5}, {3, 3}, {17, 6} };
  int s, i, j;
  for (s = 0; s < (int) G_N_ELEMENTS (sizes); s++) {
    int w = sizes[s][0], h = sizes[s][1], x, y;
    int16_t *in = g_new (int16_t, w * h), *out = g_new (int16_t, w * h);
    for (i = 0; i < w * h; i++)
      in[i] = cv_test_rand (&seed) % 4 == 0 ? -1
          : (int16_t) (cv_test_rand (&seed) % 50);
    cv_sgm_median_cpu (w, h, in, out);
    for (y = 0; y < h; y++)
      for (x = 0; x < w; x++) {
        int16_t expect = in[y * w + x];
        if (x > 0 && y > 0 && x < w - 1 && y < h - 1) {
          int16_t v[9];
          int n = 0;
          for (j = -1; j <= 1; j++)
            for (i = -1; i <= 1; i++)
              v[n++] = in[(y + j) * w + x + i];
          qsort (v, 9, sizeof (int16_t), cmp_s16);
          expect = v[4];
        }
        g_assert_cmpint (out[y * w + x], ==, expect);
      }
    g_free (in);
    g_free (out);
  }
  /* the network on every 0/1 input (the 0-1 principle: then on every
   * input) */
  for (i = 0; i < 1 << 9; i++) {
    int16_t v[9];
    int ones = 0;
    for (j = 0; j < 9; j++) {
      v[j] = (int16_t) ((i >> j) & 1);
      ones += v[j];
    }
    g_assert_cmpint (cv_sgm_median9 (v), ==, ones >= 5 ? 1 : 0);
  }
  /* and on random values with many ties */
  for (i = 0; i < 2000; i++) {
    int16_t v[9], w9[9];
    for (j = 0; j < 9; j++)
      v[j] = w9[j] = (int16_t) ((int) (cv_test_rand (&seed) % 7) - 1);
    qsort (w9, 9, sizeof (int16_t), cmp_s16);
    g_assert_cmpint (cv_sgm_median9 (v), ==, w9[4]);
  }
}

/* ---- the whole chain against the stages ------------------------------------------- */

static void
test_chain (void)
{
  guint32 seed = 31;
  int combo;
  for (combo = 0; combo < 16; combo++) {
    CvSgmParams p;
    CvError err = { 0 };
    const int w = 27, h = 13;
    CvImageU8 *l = random_image (w, h, &seed, 1);
    CvImageU8 *r = shifted_image (l, 4, &seed);
    CvImageU8 *conf = cv_test_image_new (w, h, 1, 7);
    CvImageS16 disp;
    int16_t *dbuf = g_new (int16_t, (w + 3) * h);
    uint64_t *cl = g_new (uint64_t, w * h), *cr = g_new (uint64_t, w * h);
    uint16_t *sum;
    int16_t *raw = g_new (int16_t, w * h), *best = g_new (int16_t, w * h);
    int16_t *br = g_new (int16_t, w * h), *filt = g_new (int16_t, w * h);
    uint8_t *cm = g_new (uint8_t, w * h);
    int i, x, y;

    cv_sgm_params_init (&p);
    p.max_disparity = 16;
    p.paths = combo & 1 ? 8 : 4;
    p.lr_check = (combo >> 1) & 1;
    p.median = (combo >> 2) & 1;
    p.subpixel = (combo >> 3) & 1;
    p.uniqueness = combo & 4 ? 0.97f : 1.0f;
    p.min_disparity = combo & 8 ? 1 : 0;
    disp.data = dbuf;
    disp.width = w;
    disp.height = h;
    disp.stride = (w + 3) * sizeof (int16_t);
    g_assert_cmpint (cv_sgm_cpu (&p, l, r, &disp, conf, &err), ==, CV_OK);

    sum = g_new0 (uint16_t, w * h * p.max_disparity);
    cv_sgm_census_cpu (l, p.census, cl);
    cv_sgm_census_cpu (r, p.census, cr);
    for (i = 0; i < p.paths; i++) {
      int dx, dy;
      cv_sgm_path_direction (i, &dx, &dy);
      cv_sgm_aggregate_path_cpu (&p, l, cl, cr, dx, dy, sum, NULL);
    }
    cv_sgm_wta_cpu (&p, sum, w, h, raw, best, cm, br);
    cv_sgm_lr_check_cpu (&p, w, h, raw, best, br);
    if (p.median)
      cv_sgm_median_cpu (w, h, raw, filt);
    else
      memcpy (filt, raw, w * h * sizeof (int16_t));
    for (y = 0; y < h; y++)
      for (x = 0; x < w; x++) {
        g_assert_cmpint (CV_ROW (&disp, y)[x], ==, filt[y * w + x]);
        g_assert_cmpint (CV_ROW (conf, y)[x], ==,
            filt[y * w + x] >= 0 ? cm[y * w + x] : 0);
      }
    cv_test_image_free (l);
    cv_test_image_free (r);
    cv_test_image_free (conf);
    g_free (dbuf);
    g_free (cl);
    g_free (cr);
    g_free (sum);
    g_free (raw);
    g_free (best);
    g_free (br);
    g_free (filt);
    g_free (cm);
  }
}

/* The first row where two results (disparity and confidence) differ, or
 * -1 when they are the same. */
static int
first_differing_row (const CvImageS16 * disp_a, const CvImageU8 * conf_a,
    const CvImageS16 * disp_b, const CvImageU8 * conf_b)
{
  int y;

  for (y = 0; y < disp_a->height; y++)
    if (memcmp (CV_ROW (disp_a, y), CV_ROW (disp_b, y),
            disp_a->width * sizeof (int16_t)) != 0
        || memcmp (CV_ROW (conf_a, y), CV_ROW (conf_b, y), conf_a->width) != 0)
      return y;
  return -1;
}

/* The worker threads share a frame without changing a bit: every
 * parameter that changes a path's traversal (paths, adaptive P2, which
 * reads the previous pixel, min-disparity, census) with teams of 2, 3 and
 * 5 workers and of 100 asked (CV_PARALLEL_MAX_WORKERS, 64, run), on sizes
 * that give bands and runs of rows of 0, 1 or many (each team meets each
 * size with four of the sixteen combinations). */
static void
test_workers (void)
{
  static const struct
  {
    int w, h, nd;
  } sizes[] = { {9, 5, 16}, {61, 23, 32}, {130, 47, 64}, {3, 40, 16} };
  static const int teams[] = { 2, 3, 5, 100 };
  guint32 seed = 4711;
  int si, combo, y;

  for (si = 0; si < (int) G_N_ELEMENTS (sizes); si++)
    for (combo = 0; combo < 16; combo++) {
      const int w = sizes[si].w, h = sizes[si].h;
      const int team = teams[(si + combo) % G_N_ELEMENTS (teams)];
      CvImageU8 *l = random_image (w, h, &seed, (combo ^ si) & 1);
      CvImageU8 *r = shifted_image (l, 5, &seed);
      CvImageU8 *conf1 = cv_test_image_new (w, h, 1, 0);
      CvImageU8 *confn = cv_test_image_new (w, h, 1, 0);
      CvImageS16 disp1 = { g_new (int16_t, w * h), w, h, w * 2 };
      CvImageS16 dispn = { g_new (int16_t, w * h), w, h, w * 2 };
      CvError err = { 0 };
      CvSgmParams p;

      cv_sgm_params_init (&p);
      p.max_disparity = sizes[si].nd;
      p.paths = combo & 1 ? 8 : 4;
      p.adaptive_p2 = (combo >> 1) & 1;
      p.min_disparity = combo & 4 ? 3 : 0;
      p.census = combo & 8 ? CV_SGM_CENSUS_9X7 : CV_SGM_CENSUS_CS_9X7;
      p.median = combo != 5;
      g_assert_cmpint (cv_sgm_cpu_workers (&p, l, r, &disp1, conf1, 1, &err),
          ==, CV_OK);
      g_assert_cmpint (cv_sgm_cpu_workers (&p, l, r, &dispn, confn, team,
              &err), ==, CV_OK);
      if ((y = first_differing_row (&disp1, conf1, &dispn, confn)) >= 0)
        g_error ("%dx%d D %d, combo %d, %d workers: row %d differs from "
            "one worker's", w, h, p.max_disparity, combo, team, y);
      cv_test_image_free (l);
      cv_test_image_free (r);
      cv_test_image_free (conf1);
      cv_test_image_free (confn);
      g_free (disp1.data);
      g_free (dispn.data);
    }
}

/* A CvSgmCpu plan through a stream whose frame size, disparity range and
 * images change: every frame as cv_sgm_cpu computes it alone (nothing of
 * the previous frame's memory leaks into the next, which reuses it or
 * replaces it).  (sgm-chain checks cv_sgm_cpu itself against a naive
 * chain.) */
static void
test_plan (void)
{
  static const struct
  {
    int w, h, nd, md;
  } frames[] = { {130, 47, 64, 0}, {130, 47, 64, 0}, {130, 47, 64, 5},
  {61, 23, 32, 0}, {130, 47, 64, 0}, {200, 90, 48, 2}, {200, 90, 48, 2}
  };
  CvSgmCpu *plan = cv_sgm_cpu_new ();
  guint32 seed = 99;
  int i, y;

  g_assert_nonnull (plan);
  for (i = 0; i < (int) G_N_ELEMENTS (frames); i++) {
    const int w = frames[i].w, h = frames[i].h;
    CvImageU8 *l = random_image (w, h, &seed, i & 1);
    CvImageU8 *r = shifted_image (l, 3 + i, &seed);
    CvImageU8 *conf1 = cv_test_image_new (w, h, 1, 0);
    CvImageU8 *confp = cv_test_image_new (w, h, 1, 0);
    CvImageS16 disp1 = { g_new (int16_t, w * h), w, h, w * 2 };
    CvImageS16 dispp = { g_new (int16_t, w * h), w, h, w * 2 };
    CvError err = { 0 };
    CvSgmParams p;

    cv_sgm_params_init (&p);
    p.max_disparity = frames[i].nd;
    p.min_disparity = frames[i].md;
    p.paths = i & 2 ? 4 : 8;
    g_assert_cmpint (cv_sgm_cpu (&p, l, r, &disp1, conf1, &err), ==, CV_OK);
    g_assert_cmpint (cv_sgm_cpu_compute (plan, &p, l, r, &dispp, confp,
            &err), ==, CV_OK);
    if ((y = first_differing_row (&disp1, conf1, &dispp, confp)) >= 0)
      g_error ("frame %d (%dx%d D %d): row %d differs from cv_sgm_cpu's",
          i, w, h, p.max_disparity, y);
    cv_test_image_free (l);
    cv_test_image_free (r);
    cv_test_image_free (conf1);
    cv_test_image_free (confp);
    g_free (disp1.data);
    g_free (dispp.data);
  }
  cv_sgm_cpu_free (plan);
  cv_sgm_cpu_free (NULL);
}

/* A textured pair with a known constant shift: the disparity is found. */
static void
test_known_shift (void)
{
  guint32 seed = 77;
  const int w = 120, h = 40, shift = 9;
  CvImageU8 *l = cv_test_image_new (w, h, 1, 1), *r;
  CvSgmParams p;
  CvError err = { 0 };
  CvImageS16 disp;
  int16_t *buf = g_new (int16_t, w * h);
  int x, y, good = 0, n = 0;

  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++)
      CV_ROW (l, y)[x] = (uint8_t) (cv_test_rand (&seed) & 0xff);
  r = shifted_image (l, shift, &seed);
  cv_sgm_params_init (&p);
  p.max_disparity = 32;
  disp.data = buf;
  disp.width = w;
  disp.height = h;
  disp.stride = w * sizeof (int16_t);
  g_assert_cmpint (cv_sgm_cpu (&p, l, r, &disp, NULL, &err), ==, CV_OK);
  for (y = 0; y < h; y++)
    for (x = shift + 8; x < w - shift - 8; x++, n++)
      good += abs (buf[y * w + x] - 16 * shift) <= 8;
  g_assert_cmpint (good, >=, n * 98 / 100);
  cv_test_image_free (l);
  cv_test_image_free (r);
  g_free (buf);
}

/* Uniform and black images.  Every census word is 0 in both kinds (a flat
 * patch), like the right pixels left of the image, so all costs tie: b = 0
 * everywhere, the confidence is 0, and the uniqueness check rejects
 * everything when on.  (With eq. 2.1's >= the centre-symmetric words were
 * all ones: the disparities reaching past the left edge cost the most and
 * a covered lens came out valid at min_disparity with confidence 255.) */
static void
test_uniform (void)
{
  const int w = 45, h = 17;
  int value, uniq, census;
  for (census = 0; census < 2; census++)
    for (value = 0; value <= 200; value += 200)
      for (uniq = 0; uniq < 2; uniq++) {
        CvImageU8 *l = cv_test_image_new (w, h, 1, 0);
        CvImageU8 *c = cv_test_image_new (w, h, 1, 0);
        CvImageS16 disp;
        int16_t *buf = g_new (int16_t, w * h);
        CvSgmParams p;
        CvError err = { 0 };
        int i;
        memset (l->data, value, l->stride * h);
        cv_sgm_params_init (&p);
        p.census = census;
        p.max_disparity = 16;
        p.min_disparity = 2;
        p.uniqueness = uniq ? 0.95f : 1.0f;
        p.lr_check = 0;
        disp.data = buf;
        disp.width = w;
        disp.height = h;
        disp.stride = w * sizeof (int16_t);
        g_assert_cmpint (cv_sgm_cpu (&p, l, l, &disp, c, &err), ==, CV_OK);
        for (i = 0; i < w * h; i++) {
          g_assert_cmpint (buf[i], ==, uniq ? -1 : 16 * 2);
          g_assert_cmpint (c->data[i], ==, 0);
        }
        cv_test_image_free (l);
        cv_test_image_free (c);
        g_free (buf);
      }
}

static void
test_params (void)
{
  CvSgmParams p;
  CvError err = { 0 };
  cv_sgm_params_init (&p);
  g_assert_cmpint (cv_sgm_params_validate (&p, &err), ==, CV_OK);
  p.max_disparity = 40;
  g_assert_cmpint (cv_sgm_params_validate (&p, &err), ==,
      CV_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (err.message, "max_disparity"));
  cv_sgm_params_init (&p);
  p.paths = 6;
  cv_error_clear (&err);
  g_assert_cmpint (cv_sgm_params_validate (&p, &err), ==,
      CV_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (err.message, "paths"));
  cv_sgm_params_init (&p);
  p.p2 = p.p1;
  cv_error_clear (&err);
  g_assert_cmpint (cv_sgm_params_validate (&p, &err), ==,
      CV_ERROR_INVALID_ARGUMENT);
  cv_sgm_params_init (&p);
  p.min_disparity = 2000;
  cv_error_clear (&err);
  g_assert_cmpint (cv_sgm_params_validate (&p, &err), ==,
      CV_ERROR_INVALID_ARGUMENT);
  cv_sgm_params_init (&p);
  p.uniqueness = 0.0f;
  cv_error_clear (&err);
  g_assert_cmpint (cv_sgm_params_validate (&p, &err), ==,
      CV_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (err.message, "uniqueness"));
}

/* The views' checks shared by both backends (cv_sgm_views_validate), each
 * failure with its message, and the CPU reference refusing them. */
static void
test_views (void)
{
  enum
  { W = 40, H = 6 };
  static uint8_t lbuf[W * H], rbuf[W * H], cbuf[W * H];
  static int16_t dbuf[W * H];
  CvImageU8 l = { lbuf, W, H, W }, r = { rbuf, W, H, W };
  CvImageU8 c = { cbuf, W, H, W };
  CvImageS16 d = { dbuf, W, H, W * sizeof (int16_t) };
  CvSgmParams p;
  CvError err = { 0 };
  struct
  {
    const char *what;           /* a part of the expected message */
    CvImageU8 l, r, c;
    CvImageS16 d;
  } cases[] = {
    { "are required", { NULL, W, H, W }, r, c, d },
    { "are required", l, r, c, { NULL, W, H, 2 * W } },
    { "empty image", { lbuf, 0, H, W }, r, c, d },
    { "differ in size", l, { rbuf, W - 1, H, W }, c, d },
    { "disparity 40x5", l, r, c, { dbuf, W, H - 1, 2 * W } },
    { "confidence 39x6", l, r, { cbuf, W - 1, H, W }, d },
    { "left 39", { lbuf, W, H, W - 1 }, r, c, d },
    { "right 0", l, { rbuf, W, H, 0 }, c, d },
    { "disparity 79", l, r, c, { dbuf, W, H, 2 * W - 1 } },
    { "confidence 20", l, r, { cbuf, W, H, W / 2 }, d },
  };

  cv_sgm_params_init (&p);
  p.max_disparity = 16;
  g_assert_cmpint (cv_sgm_views_validate (&l, &r, &d, &c, &err), ==, CV_OK);
  g_assert_cmpint (cv_sgm_views_validate (&l, &r, &d, NULL, &err), ==, CV_OK);
  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++) {
    cv_error_clear (&err);
    g_assert_cmpint (cv_sgm_views_validate (&cases[i].l, &cases[i].r,
            &cases[i].d, &cases[i].c, &err), ==, CV_ERROR_INVALID_ARGUMENT);
    if (strstr (err.message, cases[i].what) == NULL)
      g_error ("case %" G_GSIZE_FORMAT ": \"%s\" not in \"%s\"", i,
          cases[i].what, err.message);
    cv_error_clear (&err);
    g_assert_cmpint (cv_sgm_cpu (&p, &cases[i].l, &cases[i].r, &cases[i].d,
            &cases[i].c, &err), ==, CV_ERROR_INVALID_ARGUMENT);
    g_assert_nonnull (strstr (err.message, cases[i].what));
  }
  /* a confidence view without data is not wanted: not checked */
  c.data = NULL;
  c.stride = 0;
  cv_error_clear (&err);
  g_assert_cmpint (cv_sgm_views_validate (&l, &r, &d, &c, &err), ==, CV_OK);
}

/* ---- colour map -------------------------------------------------------------------------- */

static void
test_color (void)
{
  const int w = 300, h = 2;
  int16_t dbuf[300 * 2];
  CvImageS16 disp = { dbuf, w, h, w * sizeof (int16_t) };
  CvImageU8 *rgba = cv_test_image_new (w, h, 4, 4);
  CvError err = { 0 };
  int x, prev_r = -1, prev_b = 256;

  for (x = 0; x < w; x++) {
    dbuf[x] = (int16_t) (x * 16 / 4);   /* 0 .. 75 px */
    dbuf[w + x] = x % 3 == 0 ? -1 : (int16_t) (x * 16);
  }
  g_assert_cmpint (cv_disparity_to_color_cpu (&disp, 10, 60, rgba, &err), ==,
      CV_OK);
  for (x = 0; x < w; x++) {
    const uint8_t *o = CV_ROW (rgba, 0) + 4 * x;
    int t = cv_sgm_color_index (dbuf[x], 160, 960);
    uint32_t c = cv_sgm_colormap (t);
    g_assert_cmpint (o[0], ==, c & 0xff);
    g_assert_cmpint (o[1], ==, (c >> 8) & 0xff);
    g_assert_cmpint (o[2], ==, (c >> 16) & 0xff);
    g_assert_cmpint (o[3], ==, 255);
    /* far is blue, near is red: red grows and blue falls towards near */
    if (dbuf[x] >= 160 && dbuf[x] <= 960 && t >= 128) {
      g_assert_cmpint (o[2], <=, prev_b);
      prev_b = o[2];
    }
    if (t <= 160) {
      g_assert_cmpint (o[0], >=, prev_r);
      prev_r = o[0];
    }
    o = CV_ROW (rgba, 1) + 4 * x;
    if (x % 3 == 0)
      g_assert_true (o[0] == 0 && o[1] == 0 && o[2] == 0 && o[3] == 255);
  }
  g_assert_cmpint (cv_sgm_colormap (0) & 0xffffff, ==, 0x600000);
  g_assert_cmpint (cv_sgm_colormap (255) & 0xff, >, 100);
  g_assert_cmpint (cv_disparity_to_color_cpu (&disp, 10, 10, rgba, &err), ==,
      CV_ERROR_INVALID_ARGUMENT);
  cv_test_image_free (rgba);
}

/* The argument checks both colour maps run (cv_disparity_to_color_check):
 * each bad argument refused with a message naming it, the edges of the
 * range accepted. */
static void
test_color_checks (void)
{
  int16_t dbuf[4 * 3] = { 0 };
  uint8_t rbuf[4 * 3 * 4];
  CvImageS16 disp = { dbuf, 4, 3, 4 * sizeof (int16_t) };
  CvImageU8 rgba = { rbuf, 4, 3, 4 * 4 };
  CvImageU8 narrow = { rbuf, 3, 3, 4 * 4 };
  CvImageS16 no_data = { NULL, 4, 3, 4 * sizeof (int16_t) };
  const struct
  {
    const CvImageS16 *disp;
    int lo, hi;
    const CvImageU8 *rgba;
    const char *message;
  } bad[] = {
    {NULL, 0, 64, &rgba, "views are required"},
    {&disp, 0, 64, NULL, "views are required"},
    {&no_data, 0, 64, &rgba, "views are required"},
    {&disp, 0, 64, &narrow, "output 3x3 does not match disparity 4x3"},
    {&disp, -1, 64, &rgba, "range [-1, 64] invalid"},
    {&disp, 64, 64, &rgba, "range [64, 64] invalid"},
    {&disp, 0, CV_SGM_MAX_DISPARITY_END + 1, &rgba, "range [0, 2048] invalid"},
  };

  for (size_t i = 0; i < G_N_ELEMENTS (bad); i++) {
    CvError err = { 0 };
    g_assert_cmpint (cv_disparity_to_color_check (bad[i].disp, bad[i].lo,
            bad[i].hi, bad[i].rgba, &err), ==, CV_ERROR_INVALID_ARGUMENT);
    g_assert_nonnull (strstr (err.message, bad[i].message));
  }
  g_assert_cmpint (cv_disparity_to_color_check (&disp, 0,
          CV_SGM_MAX_DISPARITY_END, &rgba, NULL), ==, CV_OK);
  g_assert_cmpint (cv_disparity_to_color_check (&disp, 63, 64, &rgba, NULL),
      ==, CV_OK);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/sgm/census", test_census);
  g_test_add_func ("/sgm/cost", test_cost);
  g_test_add_func ("/sgm/aggregate", test_aggregate);
  g_test_add_func ("/sgm/wta", test_wta);
  g_test_add_func ("/sgm/subpixel", test_subpixel_formula);
  g_test_add_func ("/sgm/lr-check", test_lr_check);
  g_test_add_func ("/sgm/median", test_median);
  g_test_add_func ("/sgm/chain", test_chain);
  g_test_add_func ("/sgm/workers", test_workers);
  g_test_add_func ("/sgm/plan", test_plan);
  g_test_add_func ("/sgm/known-shift", test_known_shift);
  g_test_add_func ("/sgm/uniform", test_uniform);
  g_test_add_func ("/sgm/params", test_params);
  g_test_add_func ("/sgm/views", test_views);
  g_test_add_func ("/sgm/color", test_color);
  g_test_add_func ("/sgm/color-checks", test_color_checks);
  return g_test_run ();
}
