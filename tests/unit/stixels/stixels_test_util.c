/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "stixels_test_util.h"

#include <math.h>
#include <string.h>

#include "cv_test.h"

StxFrame *
stx_frame_new (int width, int height, int n_boxes, guint32 seed)
{
  StxFrame *f = g_new0 (StxFrame, 1);
  CvSceneViews views;
  CvError err = { 0 };
  int x, y;

  cv_scene_params_init (&f->scene, width, height, n_boxes, seed);
  f->width = width;
  f->height = height;
  f->gt.width = f->labels.width = f->disparity.width = width;
  f->gt.height = f->labels.height = f->disparity.height = height;
  f->gt.stride = sizeof (float) * (size_t) width;
  f->gt.data = g_new (float, (gsize) width * height);
  f->labels.stride = (size_t) width;
  f->labels.data = g_new (guint8, (gsize) width * height);
  /* an odd stride, so width/stride mix-ups show */
  f->disparity.stride = sizeof (int16_t) * (size_t) (width + 3);
  f->disparity.data = g_malloc0 (f->disparity.stride * height);

  memset (&views, 0, sizeof (views));
  views.disparity = f->gt;
  views.labels = f->labels;
  if (cv_scene_render (&f->scene, &views, &err) != CV_OK)
    g_error ("scene render failed: %s", err.message);

  for (y = 0; y < height; y++) {
    const float *g = CV_ROW (&f->gt, y);
    int16_t *d = CV_ROW (&f->disparity, y);
    for (x = 0; x < width; x++)
      d[x] = (int16_t) lrintf (g[x] * CV_DISP_SCALE);
  }
  return f;
}

void
stx_frame_free (StxFrame * f)
{
  if (f == NULL)
    return;
  g_free (f->gt.data);
  g_free (f->labels.data);
  g_free (f->disparity.data);
  g_free (f->confidence.data);
  g_free (f);
}

/* Standard normal from two uniforms (Box-Muller). */
static double
gauss (guint32 * rng)
{
  double u1 = (cv_test_rand (rng) + 1.0) / 4294967297.0;
  double u2 = cv_test_rand (rng) / 4294967296.0;
  return sqrt (-2.0 * log (u1)) * cos (2.0 * G_PI * u2);
}

/* Mean side of the invalid holes, px. */
#define HOLE_MEAN_SIDE 12

void
stx_frame_add_noise (StxFrame * f, float sigma, float hole_fraction,
    float outlier_fraction, int max_disparity, gboolean with_confidence,
    guint32 seed)
{
  guint32 rng = seed ? seed : 1;
  const int w = f->width, h = f->height;
  double hole_area = 0.0;
  int x, y;

  if (with_confidence && f->confidence.data == NULL) {
    f->confidence.width = w;
    f->confidence.height = h;
    f->confidence.stride = (size_t) w + 5;
    f->confidence.data = g_malloc0 (f->confidence.stride * h);
  }

  for (y = 0; y < h; y++) {
    const float *g = CV_ROW (&f->gt, y);
    int16_t *d = CV_ROW (&f->disparity, y);
    uint8_t *c = with_confidence ? CV_ROW (&f->confidence, y) : NULL;
    for (x = 0; x < w; x++) {
      double n = sigma * gauss (&rng);
      double v = g[x] + n;
      int conf = (int) lrint (255.0 - 40.0 * fabs (n) / (sigma > 0 ? sigma :
              1.0));
      if (cv_test_rand (&rng) < outlier_fraction * 4294967296.0) {
        v = (cv_test_rand (&rng) / 4294967296.0) * max_disparity;
        conf = 16;
      }
      d[x] = v < 0.0 ? CV_DISP_INVALID : (int16_t) lrint (v * CV_DISP_SCALE);
      if (c)
        c[x] = (uint8_t) CLAMP (conf, 1, 255);
    }
  }

  /* rectangular holes until the fraction is reached */
  while (hole_area < hole_fraction * (double) w * h) {
    int hw = 1 + (int) (cv_test_rand (&rng) % (2 * HOLE_MEAN_SIDE));
    int hh = 1 + (int) (cv_test_rand (&rng) % (2 * HOLE_MEAN_SIDE));
    int x0 = (int) (cv_test_rand (&rng) % (guint32) w);
    int y0 = (int) (cv_test_rand (&rng) % (guint32) h);
    for (y = y0; y < MIN (h, y0 + hh); y++) {
      int16_t *d = CV_ROW (&f->disparity, y);
      for (x = x0; x < MIN (w, x0 + hw); x++)
        d[x] = CV_DISP_INVALID;
    }
    hole_area += (double) hw * hh;
  }
}

void
stx_params_for_frame (CvStixelParams * p, const StxFrame * f)
{
  cv_stixel_params_init (p);
  p->calibration = f->scene.calib;
  p->pose = f->scene.pose;
}

void
stx_randomize_priors (CvStixelParams * p, guint32 * rng)
{
#define U(lo, hi) ((float) ((lo) + ((hi) - (lo)) * (cv_test_rand (rng) / 4294967296.0)))
  p->sigma_ground = U (0.5, 2.0);
  p->sigma_object = U (0.5, 2.0);
  p->sigma_sky = U (0.2, 1.0);
  p->model_complexity = U (1.0, 8.0);
  p->gravity_alpha_flying = U (0, 5);
  p->gravity_beta_flying = U (0, 2);
  p->gravity_alpha_sinking = U (0, 5);
  p->gravity_beta_sinking = U (0, 2);
  p->gravity_tolerance = U (0.5, 4);
  p->ordering_alpha = U (0, 4);
  p->ordering_beta = U (0, 2);
  p->gap_alpha_nearer = U (0, 3);
  p->gap_alpha_farther = U (0, 3);
  p->gap_beta_nearer = U (0, 1);
  p->gap_beta_farther = U (0, 1);
  p->gap_tolerance = U (0.5, 4);
  p->transition[CV_STIXEL_OBJECT][CV_STIXEL_GROUND] = U (0, 3);
  p->transition[CV_STIXEL_SKY][CV_STIXEL_OBJECT] = U (0, 3);
  p->camera_height_sigma = U (0.01, 0.2);
  p->camera_pitch_sigma = U (0.0005, 0.02);
  p->object_slope_sigma = cv_test_rand (rng) % 2 ? U (0.01, 0.2) : 0.0f;
#undef U
}

/* Stixel class expected for a scene label. */
static int
expected_class (int label)
{
  switch (label) {
    case CV_SCENE_ROAD:
    case CV_SCENE_OFFROAD:
      return CV_STIXEL_GROUND;
    case CV_SCENE_OBJECT:
      return CV_STIXEL_OBJECT;
    default:
      return CV_STIXEL_SKY;
  }
}

void
stx_evaluate (const StxFrame * f, const CvStixelList * list, StxEval * ev)
{
  const int w = f->width, h = f->height;
  CvImageF32 render = { g_new0 (float, (gsize) w * h), w, h,
    sizeof (float) * (size_t) w
  };
  CvImageU8 cls = { g_new0 (guint8, (gsize) w * h), w, h, (size_t) w };
  CvError err = { 0 };
  gint64 correct = 0, out = 0, in_out = 0, in_valid = 0;
  int x, y;

  if (cv_stixels_render_disparity_cpu (list, &render, &cls, &err) != CV_OK)
    g_error ("render failed: %s", err.message);
  for (y = 0; y < h; y++) {
    const float *g = CV_ROW (&f->gt, y);
    const float *r = CV_ROW (&render, y);
    const uint8_t *l = CV_ROW (&f->labels, y);
    const uint8_t *c = CV_ROW (&cls, y);
    const int16_t *d = CV_ROW (&f->disparity, y);
    for (x = 0; x < w; x++) {
      correct += c[x] == expected_class (l[x]);
      out += stx_is_outlier (r[x], g[x]);
      if (d[x] >= 0) {
        in_valid++;
        in_out += stx_is_outlier ((float) d[x] / CV_DISP_SCALE, g[x]);
      }
    }
  }
  ev->class_accuracy = (double) correct / ((double) w * h);
  ev->outliers = (double) out / ((double) w * h);
  ev->input_valid = (double) in_valid / ((double) w * h);
  ev->input_outliers = in_valid ? (double) in_out / (double) in_valid : 0.0;
  ev->pixels_per_stixel = (double) w * h / MAX (list->n_stixels, 1);
  g_free (render.data);
  g_free (cls.data);
}

/* ---- reference model ----------------------------------------------------- */

void
stx_ref_priors (const CvStixelParams * p, StxRefPrior prior[3])
{
  const long double k = (long double) p->calibration.baseline / p->pose.height;
  const long double c = cosl (p->pose.pitch), s = sinl (p->pose.pitch);
  const long double f = p->calibration.focal_length;
  const long double rel_h = (long double) p->camera_height_sigma /
      p->pose.height;
  const long double sp = p->camera_pitch_sigma;

  /* ground: d = k ((v - cy) cos + f sin), first-order pose uncertainty */
  prior[CV_STIXEL_GROUND].mean_b = k * c;
  prior[CV_STIXEL_GROUND].mean_a = k * f * s;
  prior[CV_STIXEL_GROUND].sigma_b = sqrtl (powl (k * c * rel_h, 2) +
      powl (k * s * sp, 2));
  prior[CV_STIXEL_GROUND].sigma_a = sqrtl (powl (k * f * s * rel_h, 2) +
      powl (k * f * c * sp, 2));
  /* objects: free distance, slope around 0 */
  prior[CV_STIXEL_OBJECT].mean_a = 0;
  prior[CV_STIXEL_OBJECT].sigma_a = INFINITY;
  prior[CV_STIXEL_OBJECT].mean_b = 0;
  prior[CV_STIXEL_OBJECT].sigma_b = p->object_slope_sigma;
  /* sky: at infinity */
  prior[CV_STIXEL_SKY].mean_a = prior[CV_STIXEL_SKY].mean_b = 0;
  prior[CV_STIXEL_SKY].sigma_a = prior[CV_STIXEL_SKY].sigma_b = 0;
}

long double
stx_ref_fit (const StxRefCell * cells, int n, const StxRefPrior * pr,
    double sigma, long double *a_out, long double *b_out)
{
  const long double h = 0.5L / ((long double) sigma * sigma);
  const int fix_a = pr->sigma_a == 0, fix_b = pr->sigma_b == 0;
  const long double la = isinf (pr->sigma_a) || fix_a ? 0 :
      1.0L / (pr->sigma_a * pr->sigma_a);
  const long double lb = isinf (pr->sigma_b) || fix_b ? 0 :
      1.0L / (pr->sigma_b * pr->sigma_b);
  long double s11 = la, s12 = 0, s22 = lb, r1 = la * pr->mean_a,
      r2 = lb * pr->mean_b, a, b, e = 0, f = 0;
  int i;

  /* normal equations of the weighted least squares with the Gaussian
   * priors as extra observations */
  for (i = 0; i < n; i++) {
    s11 += h * cells[i].w;
    s12 += h * cells[i].w * cells[i].x;
    s22 += h * cells[i].w * cells[i].x * cells[i].x;
    r1 += h * cells[i].wd;
    r2 += h * cells[i].wd * cells[i].x;
  }
  if (fix_a && fix_b) {
    a = pr->mean_a;
    b = pr->mean_b;
  } else if (fix_b) {
    b = pr->mean_b;
    a = s11 > 0 ? (r1 - s12 * b) / s11 : 0;
  } else if (fix_a) {
    a = pr->mean_a;
    b = s22 > 0 ? (r2 - s12 * a) / s22 : pr->mean_b;
  } else {
    long double det = s11 * s22 - s12 * s12;
    if (det > 0) {
      a = (r1 * s22 - s12 * r2) / det;
      b = (s11 * r2 - s12 * r1) / det;
    } else {
      a = 0;
      b = pr->mean_b;
    }
  }
  for (i = 0; i < n; i++) {
    long double mu = a + b * cells[i].x;
    e += h * (cells[i].wdd - 2 * mu * cells[i].wd + mu * mu * cells[i].w);
    f += cells[i].f;
  }
  e += f * logl (sigma);
  if (la > 0)
    e += la * (a - pr->mean_a) * (a - pr->mean_a);
  if (lb > 0)
    e += lb * (b - pr->mean_b) * (b - pr->mean_b);
  *a_out = a;
  *b_out = b;
  return e;
}

long double
stx_ref_structural (const CvStixelParams * p, int below, int above,
    long double d_above, long double d_below)
{
  const long double delta = d_above - d_below;
  if (below == CV_STIXEL_GROUND && above == CV_STIXEL_OBJECT) {
    if (fabsl (delta) <= p->gravity_tolerance)
      return 0;
    return delta < 0 ? p->gravity_alpha_flying + p->gravity_beta_flying *
        fabsl (delta) : p->gravity_alpha_sinking + p->gravity_beta_sinking *
        fabsl (delta);
  }
  if (below == CV_STIXEL_OBJECT && above == CV_STIXEL_OBJECT)
    return delta > 0 ? p->ordering_alpha + p->ordering_beta * delta : 0;
  if (below == CV_STIXEL_GROUND && above == CV_STIXEL_GROUND) {
    if (fabsl (delta) <= p->gap_tolerance)
      return 0;
    return delta > 0 ? p->gap_alpha_nearer + p->gap_beta_nearer *
        fabsl (delta) : p->gap_alpha_farther + p->gap_beta_farther *
        fabsl (delta);
  }
  return 0;
}

/* ---- comparing two backends' lists ----------------------------------------- */

static gboolean
stixels_match (const CvStixel * a, const CvStixel * b)
{
  const float tol_d = 1e-3f, tol_rel = 1e-4f;
  if (a->column != b->column || a->width != b->width
      || a->top_row != b->top_row || a->bottom_row != b->bottom_row
      || a->stixel_class != b->stixel_class)
    return FALSE;
  if (fabsf (a->slope - b->slope) > 1e-6f + tol_rel * fabsf (a->slope)
      || fabsf (a->intercept - b->intercept) > tol_d + tol_rel *
      fabsf (a->intercept)
      || fabsf (a->cost - b->cost) > tol_d + tol_rel * fabsf (a->cost))
    return FALSE;
  if (isinf (a->depth) || isinf (b->depth))
    return isinf (a->depth) && isinf (b->depth);
  return fabsf (a->depth - b->depth) <= 1e-3f * a->depth + 1e-4f;
}

void
stx_agreement (const CvStixelList * ref, const CvStixelList * other,
    StxAgreement * a)
{
  int u;

  memset (a, 0, sizeof (*a));
  a->first_diff = -1;
  a->worst_column = -1;
  a->columns = ref->n_columns;
  a->geometry_ok = ref->n_columns == other->n_columns
      && ref->width == other->width && ref->height == other->height
      && ref->n_rows == other->n_rows
      && other->column_start[other->n_columns] == other->n_stixels;
  if (!a->geometry_ok)
    return;
  for (u = 0; u < ref->n_columns; u++) {
    const int na = ref->column_start[u + 1] - ref->column_start[u];
    const int nb = other->column_start[u + 1] - other->column_start[u];
    const double ea = ref->column_energy[u], eb = other->column_energy[u];
    const double rel = fabs (ea - eb) / MAX (1.0, fabs (ea));
    gboolean same = na == nb;
    int i;
    for (i = 0; same && i < na; i++)
      same = stixels_match (&ref->stixels[ref->column_start[u] + i],
          &other->stixels[other->column_start[u] + i]);
    if (same)
      a->identical++;
    else if (a->first_diff < 0)
      a->first_diff = u;
    if (!(rel <= a->worst_energy)) {
      a->worst_energy = rel;
      a->worst_column = u;
    }
  }
}

gboolean
stx_agreement_ok (const StxAgreement * a)
{
  return a->geometry_ok
      && a->identical >= STX_MIN_IDENTICAL_COLUMNS * a->columns
      && a->worst_energy <= STX_MAX_ENERGY_REL_DIFF;
}

static void
print_column (const char *who, const CvStixelList * l, int u)
{
  int i;
  g_printerr ("  %s column %d (energy %.9g):\n", who, u, l->column_energy[u]);
  for (i = l->column_start[u]; i < l->column_start[u + 1]; i++) {
    const CvStixel *s = &l->stixels[i];
    g_printerr ("    class %d rows %d..%d cols %d+%d slope %.9g intercept "
        "%.9g depth %.6g cost %.9g\n", s->stixel_class, s->top_row,
        s->bottom_row, s->column, s->width, s->slope, s->intercept, s->depth,
        s->cost);
  }
}

gboolean
stx_compare_lists (const char *what, const char *ref_name,
    const CvStixelList * ref, const char *other_name,
    const CvStixelList * other)
{
  StxAgreement a;
  gboolean ok;

  stx_agreement (ref, other, &a);
  if (!a.geometry_ok) {
    g_printerr ("FAIL %s: geometry differs: %s %d columns %dx%d (%d rows), "
        "%s %d columns %dx%d (%d rows), %s column_start[%d] = %d, "
        "n_stixels %d\n", what, ref_name, ref->n_columns, ref->width,
        ref->height, ref->n_rows, other_name, other->n_columns, other->width,
        other->height, other->n_rows, other_name, other->n_columns,
        other->column_start[other->n_columns], other->n_stixels);
    return FALSE;
  }
  ok = stx_agreement_ok (&a);
  g_print ("%-48s %5d stixels, %4d/%4d columns identical, max energy "
      "difference %.2e relative (column %d)\n", what, ref->n_stixels,
      a.identical, a.columns, a.worst_energy, a.worst_column);
  if (!ok)
    g_printerr ("FAIL %s: %d of %d columns identical (need %.0f %%), worst "
        "energy difference %.3e (limit %.0e)\n", what, a.identical,
        a.columns, 100 * STX_MIN_IDENTICAL_COLUMNS, a.worst_energy,
        STX_MAX_ENERGY_REL_DIFF);
  if (a.first_diff >= 0) {
    g_printerr ("%s %s: first differing column %d\n", ok ? "note" : "FAIL",
        what, a.first_diff);
    print_column (ref_name, ref, a.first_diff);
    print_column (other_name, other, a.first_diff);
  }
  if (!ok && a.worst_column >= 0 && a.worst_column != a.first_diff) {
    print_column (ref_name, ref, a.worst_column);
    print_column (other_name, other, a.worst_column);
  }
  return ok;
}
