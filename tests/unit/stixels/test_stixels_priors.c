/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Stixels: each prior on its own, on hand-made columns where it changes
 * the result.  Every case runs the DP without and with the prior and checks
 * the structure the prior is meant to forbid or favour, that the stixels
 * tile the column, and that the result with the prior has an energy (under
 * the prior) no higher than the result without it. */
#include <glib.h>
#include <math.h>
#include <string.h>

#include "cv_test.h"
#include "stixels_test_util.h"

#define H 80
#define CY 40.0f
#define FOCAL 100.0f
#define BASELINE 0.5f
#define CAM_HEIGHT 1.5f

/* The road's disparity at row v (pitch 0). */
static double
road (double v)
{
  return BASELINE / CAM_HEIGHT * (v - CY);
}

typedef struct
{
  int16_t pix[H];
  CvImageS16 img;
} Col;

static void
col_init (Col * c)
{
  int v;
  c->img.data = c->pix;
  c->img.width = 1;
  c->img.height = H;
  c->img.stride = sizeof (int16_t);
  for (v = 0; v < H; v++)
    c->pix[v] = 0;              /* sky */
}

/* Rows v0..v1 (inclusive) get disparity a + b (v - CY) + noise. */
static void
col_fill (Col * c, int v0, int v1, double a, double b, double noise,
    guint32 * rng)
{
  int v;
  for (v = v0; v <= v1; v++) {
    double n = noise > 0 ? noise * ((cv_test_rand (rng) / 4294967296.0) * 2 -
        1) : 0.0;
    double d = a + b * (v - CY) + n;
    c->pix[v] = d < 0 ? CV_DISP_INVALID : (int16_t) lrint (d * CV_DISP_SCALE);
  }
}

static void
base_params (CvStixelParams * p)
{
  cv_stixel_params_init (p);
  p->stixel_width = 1;
  p->row_step = 1;
  p->calibration.focal_length = FOCAL;
  p->calibration.principal_y = CY;
  p->calibration.principal_x = 0.5f;
  p->calibration.baseline = BASELINE;
  p->pose.height = CAM_HEIGHT;
  p->pose.pitch = 0.0f;
  /* every structural prior off; each test turns one on */
  p->gravity_alpha_flying = p->gravity_beta_flying = 0.0f;
  p->gravity_alpha_sinking = p->gravity_beta_sinking = 0.0f;
  p->ordering_alpha = p->ordering_beta = 0.0f;
  p->gap_alpha_nearer = p->gap_beta_nearer = 0.0f;
  p->gap_alpha_farther = p->gap_beta_farther = 0.0f;
}

/* One stixel of a result, bottom-up view. */
typedef struct
{
  int cls, top, bottom;         /* image rows */
  double d_top, d_bottom;       /* model disparity at its top / bottom edge */
} Stx;

static int
run (const CvStixelParams * p, const Col * c, CvStixelList * list, Stx * out)
{
  CvError err = { 0 };
  int i, n = 0, row = H - 1;

  if (cv_stixels_cpu (p, &c->img, NULL, list, &err) != CV_OK)
    g_error ("cv_stixels_cpu: %s", err.message);
  /* bottom-up, tiling the column */
  for (i = list->column_start[1] - 1; i >= list->column_start[0]; i--) {
    const CvStixel *s = &list->stixels[i];
    g_assert_cmpint (s->bottom_row, ==, row);
    g_assert_cmpint (s->top_row, <=, s->bottom_row);
    out[n].cls = s->stixel_class;
    out[n].top = s->top_row;
    out[n].bottom = s->bottom_row;
    out[n].d_top = s->slope * (s->top_row - 0.5) + s->intercept;
    out[n].d_bottom = s->slope * (s->bottom_row + 0.5) + s->intercept;
    row = s->top_row - 1;
    n++;
  }
  g_assert_cmpint (row, ==, -1);
  return n;
}

static void
print_result (const char *what, const Stx * s, int n)
{
  int i;
  g_print ("%s:", what);
  for (i = 0; i < n; i++)
    g_print (" [%c rows %d..%d d %.2f..%.2f]", "GOS"[s[i].cls], s[i].top,
        s[i].bottom, s[i].d_bottom, s[i].d_top);
  g_print ("\n");
}

/* Number of transitions below -> above satisfying @pred. */
typedef gboolean (*TransitionPred) (const Stx * below, const Stx * above,
    gpointer data);

static int
count_transitions (const Stx * s, int n, TransitionPred pred, gpointer data)
{
  int i, count = 0;
  for (i = 1; i < n; i++)
    count += pred (&s[i - 1], &s[i], data);
  return count;
}

/* The energy under @p of the result in @list (recomputed). */
static double
energy_of (const CvStixelParams * p, const Col * c, const CvStixelList * list)
{
  double e;
  CvError err = { 0 };
  g_assert_cmpint (cv_stixels_column_energy_cpu (p, &c->img, NULL, list, 0,
          &e, &err), ==, CV_OK);
  return e;
}

/* Runs @off and @on; asserts the prior-on result is at least as good as
 * the prior-off one under @on.  Returns the stixel counts. */
static void
compare (const CvStixelParams * off, const CvStixelParams * on, const Col * c,
    Stx * s_off, int *n_off, Stx * s_on, int *n_on)
{
  CvStixelList l_off = CV_STIXEL_LIST_INIT, l_on = CV_STIXEL_LIST_INIT;
  *n_off = run (off, c, &l_off, s_off);
  *n_on = run (on, c, &l_on, s_on);
  print_result ("  prior off", s_off, *n_off);
  print_result ("  prior on ", s_on, *n_on);
  g_assert_cmpfloat (energy_of (on, c, &l_on), <=,
      energy_of (on, c, &l_off) + 1e-6);
  g_assert_cmpfloat (fabs (energy_of (on, c, &l_on) - l_on.column_energy[0]),
      <=, 1e-4 * (1.0 + fabs (l_on.column_energy[0])));
  cv_stixel_list_clear (&l_off);
  cv_stixel_list_clear (&l_on);
}

/* ---- model complexity (3.13) ------------------------------------------- */

static void
test_model_complexity (void)
{
  CvStixelParams off, on;
  Col c;
  Stx a[H], b[H];
  int na, nb;
  guint32 rng = 3;

  col_init (&c);
  col_fill (&c, 0, H - 1, 20.0, 0.0, 1.5, &rng);        /* one noisy wall */
  base_params (&on);
  off = on;
  off.model_complexity = 0.0f;
  compare (&off, &on, &c, a, &na, b, &nb);
  /* free stixels fit the noise; C_mc keeps the wall whole */
  g_assert_cmpint (nb, ==, 1);
  g_assert_cmpint (b[0].cls, ==, CV_STIXEL_OBJECT);
  g_assert_cmpint (na, >, 3);
}

/* ---- transitions (3.21) --------------------------------------------------- */

static gboolean
is_ground_to_object (const Stx * below, const Stx * above, gpointer data)
{
  return below->cls == CV_STIXEL_GROUND && above->cls == CV_STIXEL_OBJECT;
}

static void
test_transition (void)
{
  CvStixelParams off, on;
  Col c;
  Stx a[H], b[H];
  int na, nb;
  guint32 rng = 4;

  /* road at the bottom, a wall standing on it, sky above */
  col_init (&c);
  col_fill (&c, 55, H - 1, 0.0, BASELINE / CAM_HEIGHT, 0.0, &rng);
  col_fill (&c, 25, 54, road (55), 0.0, 0.0, &rng);
  base_params (&off);
  on = off;
  on.transition[CV_STIXEL_GROUND][CV_STIXEL_OBJECT] = INFINITY;
  compare (&off, &on, &c, a, &na, b, &nb);
  g_assert_cmpint (count_transitions (a, na, is_ground_to_object, NULL), ==,
      1);
  g_assert_cmpint (count_transitions (b, nb, is_ground_to_object, NULL), ==,
      0);
}

/* ---- gravity (3.18) ------------------------------------------------------ */

typedef struct
{
  double tolerance;
  int sign;                     /* -1: upper farther, +1: upper nearer */
} Jump;

static gboolean
is_jump (const Stx * below, const Stx * above, gpointer data, int c_below,
    int c_above)
{
  const Jump *j = data;
  double delta = above->d_bottom - below->d_top;
  return below->cls == c_below && above->cls == c_above
      && j->sign * delta > j->tolerance;
}

static gboolean
is_floating_object (const Stx * below, const Stx * above, gpointer data)
{
  return is_jump (below, above, data, CV_STIXEL_GROUND, CV_STIXEL_OBJECT);
}

static void
test_gravity (gconstpointer sign_ptr)
{
  const int sign = GPOINTER_TO_INT (sign_ptr);
  CvStixelParams off, on;
  Col c;
  Stx a[H], b[H];
  int na, nb;
  Jump jump;
  guint32 rng = 5;

  /* road at the bottom; on top a wall whose disparity does not meet the
   * road: 5 px farther (flying) or nearer (sinking) */
  col_init (&c);
  col_fill (&c, 65, H - 1, 0.0, BASELINE / CAM_HEIGHT, 0.0, &rng);
  col_fill (&c, 35, 64, road (64.5) + sign * 5.0, 0.0, 0.0, &rng);
  base_params (&off);
  on = off;
  if (sign < 0)
    on.gravity_alpha_flying = 50.0f;
  else
    on.gravity_alpha_sinking = 50.0f;
  compare (&off, &on, &c, a, &na, b, &nb);
  jump.tolerance = on.gravity_tolerance;
  jump.sign = sign;
  g_assert_cmpint (count_transitions (a, na, is_floating_object, &jump), ==,
      1);
  g_assert_cmpint (count_transitions (b, nb, is_floating_object, &jump), ==,
      0);
}

/* ---- depth ordering (3.19) ----------------------------------------------- */

static gboolean
is_nearer_on_top (const Stx * below, const Stx * above, gpointer data)
{
  return is_jump (below, above, data, CV_STIXEL_OBJECT, CV_STIXEL_OBJECT);
}

static void
test_ordering (void)
{
  CvStixelParams off, on;
  Col c;
  Stx a[H], b[H];
  int na, nb;
  Jump jump = { 0.0, +1 };
  guint32 rng = 6;

  /* a far wall with a near sign above it (no road) */
  col_init (&c);
  col_fill (&c, 40, H - 1, 8.0, 0.0, 0.0, &rng);
  col_fill (&c, 10, 39, 14.0, 0.0, 0.0, &rng);
  base_params (&off);
  on = off;
  on.ordering_alpha = 200.0f;
  compare (&off, &on, &c, a, &na, b, &nb);
  g_assert_cmpint (count_transitions (a, na, is_nearer_on_top, &jump), ==, 1);
  g_assert_cmpint (count_transitions (b, nb, is_nearer_on_top, &jump), ==, 0);
}

/* ---- ground gap (3.20) --------------------------------------------------- */

static gboolean
is_ground_step (const Stx * below, const Stx * above, gpointer data)
{
  const Jump *j = data;
  return below->cls == CV_STIXEL_GROUND && above->cls == CV_STIXEL_GROUND
      && fabs (above->d_bottom - below->d_top) > j->tolerance;
}

static void
test_gap (void)
{
  CvStixelParams off, on;
  Col c;
  Stx a[H], b[H];
  int na, nb;
  Jump jump;
  guint32 rng = 7;

  /* two pieces of road with a 6 px step between them; the pose is
   * uncertain enough that both are ground */
  col_init (&c);
  col_fill (&c, 60, H - 1, 0.0, BASELINE / CAM_HEIGHT, 0.0, &rng);
  col_fill (&c, 44, 59, 6.0, BASELINE / CAM_HEIGHT, 0.0, &rng);
  base_params (&off);
  off.camera_height_sigma = 0.5f;
  off.camera_pitch_sigma = 0.2f;
  on = off;
  on.gap_alpha_farther = on.gap_alpha_nearer = 100.0f;
  compare (&off, &on, &c, a, &na, b, &nb);
  jump.tolerance = on.gap_tolerance;
  g_assert_cmpint (count_transitions (a, na, is_ground_step, &jump), ==, 1);
  g_assert_cmpint (count_transitions (b, nb, is_ground_step, &jump), ==, 0);
}

/* ---- plane prior (3.22) --------------------------------------------------- */

static int
count_class (const Stx * s, int n, int cls)
{
  int i, k = 0;
  for (i = 0; i < n; i++)
    k += s[i].cls == cls;
  return k;
}

/* A road steeper than the pose says: one ground stixel when the pose is
 * uncertain, not ground (or not one piece) when it is certain. */
static void
test_plane_prior_ground (void)
{
  CvStixelParams off, on;
  Col c;
  Stx a[H], b[H];
  int na, nb;
  guint32 rng = 8;

  col_init (&c);
  col_fill (&c, 45, H - 1, 2.0, 1.3 * BASELINE / CAM_HEIGHT, 0.2, &rng);
  base_params (&off);
  off.camera_height_sigma = 1.0f;
  off.camera_pitch_sigma = 0.3f;
  on = off;
  on.camera_height_sigma = 0.001f;
  on.camera_pitch_sigma = 1e-5f;
  compare (&off, &on, &c, a, &na, b, &nb);
  g_assert_cmpint (a[0].cls, ==, CV_STIXEL_GROUND);
  g_assert_cmpint (a[0].top, <=, 46);
  g_assert_true (b[0].cls != CV_STIXEL_GROUND || b[0].top > 46);
}

/* A slanted object (e.g. a car's rear window): one slanted stixel when the
 * object slope is free, a staircase of fronto-parallel ones when it is
 * fixed at 0 (the thesis' setting). */
static void
test_plane_prior_object (void)
{
  CvStixelParams off, on;
  Col c;
  Stx a[H], b[H];
  int na, nb;
  guint32 rng = 9;

  col_init (&c);
  col_fill (&c, 0, H - 1, 30.0, -0.12, 0.0, &rng);
  base_params (&off);
  off.object_slope_sigma = INFINITY;
  on = off;
  on.object_slope_sigma = 0.0f;
  compare (&off, &on, &c, a, &na, b, &nb);
  g_assert_cmpint (na, ==, 1);
  g_assert_cmpint (a[0].cls, ==, CV_STIXEL_OBJECT);
  g_assert_cmpint (nb, >, 1);
  g_assert_cmpint (count_class (b, nb, CV_STIXEL_OBJECT), ==, nb);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/stixels/prior-model-complexity", test_model_complexity);
  g_test_add_func ("/stixels/prior-transition", test_transition);
  g_test_add_data_func ("/stixels/prior-gravity-flying",
      GINT_TO_POINTER (-1), test_gravity);
  g_test_add_data_func ("/stixels/prior-gravity-sinking",
      GINT_TO_POINTER (+1), test_gravity);
  g_test_add_func ("/stixels/prior-ordering", test_ordering);
  g_test_add_func ("/stixels/prior-gap", test_gap);
  g_test_add_func ("/stixels/prior-plane-ground", test_plane_prior_ground);
  g_test_add_func ("/stixels/prior-plane-object", test_plane_prior_object);
  return g_test_run ();
}
