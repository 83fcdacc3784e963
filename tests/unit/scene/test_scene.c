/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Unit tests of the synthetic stereo scene generator (cuda/scene). */
#include <glib.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cv_frame.h"
#include "cv_scene.h"
#include "cv_test.h"

/* ---- helpers --------------------------------------------------------------- */

typedef struct
{
  CvImageU8 *left, *right, *labels, *occluded;
  float *disparity;
  CvSceneViews views;
} Render;

static void
render_init (Render * r, int w, int h)
{
  r->left = cv_test_image_new (w, h, 4, 12);
  r->right = cv_test_image_new (w, h, 4, 20);
  r->labels = cv_test_image_new (w, h, 1, 3);
  r->occluded = cv_test_image_new (w, h, 1, 5);
  r->disparity = g_new0 (float, (size_t) w * h);
  memset (&r->views, 0, sizeof (r->views));
  r->views.left = *r->left;
  r->views.right = *r->right;
  r->views.labels = *r->labels;
  r->views.occluded = *r->occluded;
  r->views.disparity.data = r->disparity;
  r->views.disparity.width = w;
  r->views.disparity.height = h;
  r->views.disparity.stride = (size_t) w * sizeof (float);
}

static void
render_clear (Render * r)
{
  cv_test_image_free (r->left);
  cv_test_image_free (r->right);
  cv_test_image_free (r->labels);
  cv_test_image_free (r->occluded);
  g_free (r->disparity);
}

static void
render_scene (const CvSceneParams * p, Render * r)
{
  CvError err = { 0 };
  render_init (r, p->width, p->height);
  if (cv_scene_render (p, &r->views, &err) != CV_OK)
    g_error ("cv_scene_render: %s", err.message);
}

#define PIX(img, u, v) (CV_ROW ((img), (v)) + (size_t) (u) * 4)
#define DISP(r, u, v) ((r)->disparity[(size_t) (v) * (r)->labels->width + (u)])
#define LABEL(r, u, v) (CV_ROW ((r)->labels, (v))[(u)])
#define OCC(r, u, v) (CV_ROW ((r)->occluded, (v))[(u)])

/* Camera-frame ray terms of row v (see cv_scene.c). */
static void
row_ray (const CvSceneParams * p, double v, double *dy, double *dz)
{
  double b = (v - p->calib.principal_y) / p->calib.focal_length;
  *dy = -b * cos (p->pose.pitch) - sin (p->pose.pitch);
  *dz = -b * sin (p->pose.pitch) + cos (p->pose.pitch);
}

/* Pixel of the left view (continuous) where world point (x, y, z) appears;
 * returns its camera depth. */
static double
project_left (const CvSceneParams * p, double x, double y, double z,
    double *u, double *v)
{
  double qy = y - p->pose.height, qz = z - p->travel;
  double c = cos (p->pose.pitch), s = sin (p->pose.pitch);
  double yc = -qy * c - qz * s, zc = -qy * s + qz * c;
  *u = p->calib.principal_x + p->calib.focal_length * x / zc;
  *v = p->calib.principal_y + p->calib.focal_length * yc / zc;
  return zc;
}

/* ---- (a) the ground truth is exact ---------------------------------------- */

/* Radius of the neighbourhood that must be free of depth edges. */
#define EDGE_RADIUS 2
/* A disparity jump larger than this between neighbours is a depth edge (the
 * ground changes by about 0.33 px per row at 640x480). */
#define EDGE_JUMP_PX 1.0f

static gboolean
near_depth_edge (const Render * r, int u, int v)
{
  int w = r->labels->width, h = r->labels->height;
  gboolean object = LABEL (r, u, v) == CV_SCENE_OBJECT;
  for (int dv = -EDGE_RADIUS; dv <= EDGE_RADIUS; dv++)
    for (int du = -EDGE_RADIUS; du <= EDGE_RADIUS; du++) {
      int uu = u + du, vv = v + dv;
      if (uu < 0 || vv < 0 || uu >= w || vv >= h)
        return TRUE;
      if ((LABEL (r, uu, vv) == CV_SCENE_OBJECT) != object
          || LABEL (r, uu, vv) == CV_SCENE_SKY
          || fabsf (DISP (r, uu, vv) - DISP (r, u, v)) > EDGE_JUMP_PX)
        return TRUE;
    }
  return FALSE;
}

/* Mean absolute RGB difference between the left view and the right view
 * warped with the ground truth plus @offset px, over the pixels that are
 * visible in both views (with room for an offset of up to 1 px), not sky
 * and not near a depth edge. */
static double
warp_error (const Render * r, float offset, int *n_out)
{
  int w = r->labels->width, h = r->labels->height;
  double sum = 0.0;
  int n = 0;

  for (int v = 0; v < h; v++)
    for (int u = 0; u < w; u++) {
      float x = (float) u - DISP (r, u, v) - offset;
      int x0;
      float fr;
      const uint8_t *l, *r0, *r1;

      if (LABEL (r, u, v) == CV_SCENE_SKY || OCC (r, u, v)
          || (float) u - DISP (r, u, v) < 1.0f
          || (float) u - DISP (r, u, v) > w - 2.0f || near_depth_edge (r, u, v))
        continue;
      x0 = (int) floorf (x);
      fr = x - x0;
      l = PIX (r->left, u, v);
      r0 = PIX (r->right, x0, v);
      r1 = PIX (r->right, x0 + 1, v);
      for (int c = 0; c < 3; c++)
        sum += fabs (l[c] - (r0[c] * (1.0f - fr) + r1[c] * fr));
      n++;
    }
  *n_out = n;
  return n ? sum / (3.0 * n) : 0.0;
}

/* Bound on the mean error of the exact warp, in 8-bit levels.  Not zero:
 * each pixel is a box filter of its supersamples over a textured surface,
 * and linearly interpolating two right pixels is not the box filter of the
 * left pixel's footprint; the texture keeps only octaves of at least one
 * pixel (level of detail), so the residual stays near one level (0.85-1.0
 * measured; off by 1 px gives about 7.6-7.9). */
#define WARP_MAX_MEAN_ERROR 1.5
/* A disparity 1 px off must be at least this many times worse. */
#define WARP_MIN_OFF_BY_ONE_RATIO 4.0

static void
test_ground_truth_exact (void)
{
  static const struct
  {
    int w, h, boxes, supersample;
    guint32 seed;
    float travel;
  } cases[] = {
    {640, 480, 8, 2, 1, 0.0f},
    {640, 480, 12, 2, 7, 13.0f},
    {416, 192, 6, 3, 3, 2.5f},
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++) {
    CvSceneParams p;
    Render r;
    int n, n_minus, n_plus;
    double e, e_minus, e_plus;

    cv_scene_params_init (&p, cases[i].w, cases[i].h, cases[i].boxes,
        cases[i].seed);
    p.supersample = cases[i].supersample;
    p.travel = cases[i].travel;
    render_scene (&p, &r);
    e = warp_error (&r, 0.0f, &n);
    e_minus = warp_error (&r, -1.0f, &n_minus);
    e_plus = warp_error (&r, 1.0f, &n_plus);
    g_print ("%dx%d ss %d seed %u: exact warp error %.3f over %d px; "
        "off by -1: %.3f, +1: %.3f\n", cases[i].w, cases[i].h,
        cases[i].supersample, cases[i].seed, e, n, e_minus, e_plus);
    g_assert_cmpint (n, >, cases[i].w * cases[i].h / 4);
    g_assert_cmpfloat (e, <, WARP_MAX_MEAN_ERROR);
    g_assert_cmpfloat (e_minus, >, WARP_MIN_OFF_BY_ONE_RATIO * e);
    g_assert_cmpfloat (e_plus, >, WARP_MIN_OFF_BY_ONE_RATIO * e);
    render_clear (&r);
  }
}

/* ---- (b) deterministic per seed ---------------------------------------------- */

static gboolean
images_equal (const CvImageU8 * a, const CvImageU8 * b, int bpp)
{
  for (int v = 0; v < a->height; v++)
    if (memcmp (CV_ROW (a, v), CV_ROW (b, v), (size_t) a->width * bpp))
      return FALSE;
  return TRUE;
}

static double
fraction_different (const CvImageU8 * a, const CvImageU8 * b)
{
  int n = 0;
  for (int v = 0; v < a->height; v++)
    for (int u = 0; u < a->width; u++)
      n += memcmp (CV_ROW (a, v) + 4 * u, CV_ROW (b, v) + 4 * u, 3) != 0;
  return (double) n / (a->width * a->height);
}

static void
test_deterministic (void)
{
  CvSceneParams p1, p1b, p2;
  Render a, b, c;

  cv_scene_params_init (&p1, 320, 240, 10, 42);
  cv_scene_params_init (&p1b, 320, 240, 10, 42);
  cv_scene_params_init (&p2, 320, 240, 10, 43);
  g_assert_true (memcmp (&p1, &p1b, sizeof (p1)) == 0);
  g_assert_false (memcmp (p1.boxes, p2.boxes, sizeof (p1.boxes)) == 0);

  render_scene (&p1, &a);
  render_scene (&p1b, &b);
  render_scene (&p2, &c);
  g_assert_true (images_equal (a.left, b.left, 4));
  g_assert_true (images_equal (a.right, b.right, 4));
  g_assert_true (images_equal (a.labels, b.labels, 1));
  g_assert_true (images_equal (a.occluded, b.occluded, 1));
  g_assert_true (memcmp (a.disparity, b.disparity,
          sizeof (float) * 320 * 240) == 0);

  /* another seed: other boxes and another texture almost everywhere (the
   * flat far ground and the plain sky may coincide) */
  g_print ("seed 42 vs 43: %.1f %% of left pixels differ\n",
      100.0 * fraction_different (a.left, c.left));
  g_assert_cmpfloat (fraction_different (a.left, c.left), >, 0.6);
  g_assert_cmpfloat (fraction_different (a.right, c.right), >, 0.6);
  g_assert_false (memcmp (a.disparity, c.disparity,
          sizeof (float) * 320 * 240) == 0);

  /* the same seed with only the texture seed changed: same geometry */
  p1b.seed = 99;
  render_clear (&b);
  render_scene (&p1b, &b);
  g_assert_true (memcmp (a.disparity, b.disparity,
          sizeof (float) * 320 * 240) == 0);
  g_assert_cmpfloat (fraction_different (a.left, b.left), >, 0.6);

  render_clear (&a);
  render_clear (&b);
  render_clear (&c);
}

/* ---- (c) labels and geometry --------------------------------------------------- */

static void
test_labels (void)
{
  CvSceneParams p;
  Render r;
  int w = 480, h = 320, n_ground = 0;
  double u0, u1, v0, v1, u_probe, v_probe;

  /* empty scene: sky exactly above the horizon, ground below, the ground's
   * disparity from the closed form */
  cv_scene_params_init (&p, w, h, 0, 5);
  p.pose.pitch = 0.05f;
  render_scene (&p, &r);
  for (int v = 0; v < h; v++) {
    float ground = cv_scene_ground_disparity (&p, (float) v);
    for (int u = 0; u < w; u++) {
      if (ground <= 0.0f) {
        if (LABEL (&r, u, v) != CV_SCENE_SKY || DISP (&r, u, v) != 0.0f)
          g_error ("(%d, %d) above the horizon: label %d disparity %g", u, v,
              LABEL (&r, u, v), DISP (&r, u, v));
        continue;
      }
      if (LABEL (&r, u, v) != CV_SCENE_ROAD
          && LABEL (&r, u, v) != CV_SCENE_OFFROAD)
        g_error ("(%d, %d) below the horizon: label %d", u, v,
            LABEL (&r, u, v));
      if (fabsf (DISP (&r, u, v) - ground) > 1e-3f)
        g_error ("(%d, %d): ground disparity %.6f, closed form %.6f", u, v,
            DISP (&r, u, v), ground);
      n_ground++;
      /* road where the ground point is within the road's half width */
      {
        double dy, dz, depth, x;
        row_ray (&p, v, &dy, &dz);
        depth = p.pose.height / -dy;
        x = depth * (u - p.calib.principal_x) / p.calib.focal_length;
        if (fabs (fabs (x) - p.road_half_width) > 1e-3)
          g_assert_cmpint (LABEL (&r, u, v), ==,
              fabs (x) < p.road_half_width ? CV_SCENE_ROAD : CV_SCENE_OFFROAD);
      }
    }
  }
  g_assert_cmpint (n_ground, >, w * h / 3);
  render_clear (&r);

  /* one box straight ahead: it covers exactly its projection, at the depth
   * of its front face */
  cv_scene_params_init (&p, w, h, 0, 5);
  p.n_boxes = 1;
  p.boxes[0] = (CvSceneBox) {
  .x = -0.4f,.z = 8.0f,.width = 1.8f,.height = 0.8f,.depth = 2.0f,
        .color = {200, 40, 40}};
  render_scene (&p, &r);
  /* front face corners (the face is the plane z = 8, parallel to the image
   * x axis: its image is a rectangle) */
  project_left (&p, p.boxes[0].x - 0.9, 0.0, 8.0, &u0, &v1);
  project_left (&p, p.boxes[0].x + 0.9, 0.8, 8.0, &u1, &v0);
  for (int v = (int) ceil (v0 - 1.0); v <= (int) floor (v1 + 1.0); v++)
    for (int u = (int) ceil (u0 - 1.0); u <= (int) floor (u1 + 1.0); u++) {
      gboolean inside = u > u0 + 0.01 && u < u1 - 0.01 && v > v0 + 0.01
          && v < v1 - 0.01;
      gboolean outside = u < u0 - 0.01 || u > u1 + 0.01 || v < v0 - 0.01
          || v > v1 + 0.01;
      if (inside) {
        double dy, dz, expected;
        row_ray (&p, v, &dy, &dz);
        /* the ray of row v reaches z = 8 at camera depth 8 / dz */
        expected = p.calib.focal_length * p.calib.baseline * dz / 8.0;
        if (LABEL (&r, u, v) != CV_SCENE_OBJECT
            || fabs (DISP (&r, u, v) - expected) > 1e-3 * expected)
          g_error ("(%d, %d) inside the box: label %d disparity %g, expected "
              "%g", u, v, LABEL (&r, u, v), DISP (&r, u, v), expected);
      } else if (outside && v < v1 + 0.01) {
        /* beside or above the box (below it only the top face could show,
         * and the camera sees the front face only from above the top) */
        if (LABEL (&r, u, v) == CV_SCENE_OBJECT && v > v0 + 0.01)
          g_error ("(%d, %d) beside the box is labelled object", u, v);
      }
    }
  /* the top face is seen from above (camera 1.65 m > 0.8 m): it shows
   * above the front face (about 6 px tall here) */
  project_left (&p, p.boxes[0].x, 0.8, 9.0, &u_probe, &v_probe);
  g_assert_cmpfloat (v_probe, <, v0 - 2.0);
  g_assert_cmpint (LABEL (&r, (int) lround (u_probe), (int) lround (v_probe)),
      ==, CV_SCENE_OBJECT);
  render_clear (&r);
}

/* ---- (d) occlusion ------------------------------------------------------------- */

static void
test_occlusion (void)
{
  CvSceneParams p;
  Render r;
  int w = 640, h = 480;
  double u0, u1, v0, v1;

  /* empty scene: only pixels whose match falls off the right view */
  cv_scene_params_init (&p, w, h, 0, 11);
  render_scene (&p, &r);
  for (int v = 0; v < h; v++)
    for (int u = 0; u < w; u++) {
      int expected = (float) u - DISP (&r, u, v) < -0.5f;
      if (OCC (&r, u, v) != expected)
        g_error ("empty scene (%d, %d): occluded %d, expected %d "
            "(disparity %g)", u, v, OCC (&r, u, v), expected, DISP (&r, u, v));
    }
  render_clear (&r);

  /* one box ahead on the ground: left of its left edge, a band as wide as
   * the disparity step is hidden from the right camera; right of it nothing */
  cv_scene_params_init (&p, w, h, 0, 11);
  p.n_boxes = 1;
  p.boxes[0] = (CvSceneBox) {
  .x = 0.5f,.z = 9.0f,.width = 1.2f,.height = 2.0f,.depth = 1.0f,
        .color = {40, 40, 200}};
  render_scene (&p, &r);
  project_left (&p, p.boxes[0].x - 0.6, 0.0, 9.0, &u0, &v1);
  project_left (&p, p.boxes[0].x + 0.6, 2.0, 9.0, &u1, &v0);
  for (int v = (int) ceil (v0) + 1; v < (int) floor (v1); v++) {
    double dy, dz;
    int left_edge = (int) ceil (u0), right_edge = (int) floor (u1);
    int n_left = 0, n_right = 0;
    float step;

    row_ray (&p, v, &dy, &dz);
    step = (float) (p.calib.focal_length * p.calib.baseline * dz / 9.0) -
        DISP (&r, left_edge - 1, v);
    /* (not counting the left border, whose match is off the right view) */
    for (int u = 0; u < left_edge; u++)
      n_left += OCC (&r, u, v) && (float) u - DISP (&r, u, v) >= -0.5f;
    for (int u = right_edge + 1; u < w; u++)
      n_right += OCC (&r, u, v);
    /* ground left of the box; the band: the background points with
     * u - d(background) in the box's right-image span */
    g_assert_cmpint (LABEL (&r, left_edge - 1, v), !=, CV_SCENE_OBJECT);
    if (n_left < (int) step - 1 || n_left > (int) step + 2 || n_right != 0)
      g_error ("row %d: %d occluded left of the box (disparity step %.2f), "
          "%d right of it", v, n_left, step, n_right);
    /* and they are contiguous, ending at the box */
    for (int u = left_edge - n_left; u < left_edge; u++)
      if (OCC (&r, u, v) != 1)
        g_error ("row %d: the occluded band left of the box (edge at u = "
            "%.3f, %d px) has a hole at u = %d", v, u0, n_left, u);
    /* box pixels are all visible */
    for (int u = left_edge; u <= right_edge; u++)
      g_assert_cmpint (OCC (&r, u, v), ==, 0);
  }
  render_clear (&r);
}

/* ---- (e) illumination and the far road colour ---------------------------------- */

/* Number of sky pixels in the 3x3 neighbourhood: 9 = no supersample of
 * the pixel hit a surface, 0 = all did. */
static int
sky_around (const Render * r, int u, int v)
{
  int n = 0;
  for (int dv = -1; dv <= 1; dv++)
    for (int du = -1; du <= 1; du++) {
      int uu = CLAMP (u + du, 0, r->labels->width - 1);
      int vv = CLAMP (v + dv, 0, r->labels->height - 1);
      n += LABEL (r, uu, vv) == CV_SCENE_SKY;
    }
  return n;
}

static void
test_illumination (void)
{
  CvSceneParams p;
  Render dim, dimmer, bright;
  int w = 320, h = 240;
  double sum_dim = 0, sum_bright = 0;

  cv_scene_params_init (&p, w, h, 5, 21);
  p.illumination = 0.5f;
  render_scene (&p, &dim);
  p.illumination = 0.25f;
  render_scene (&p, &dimmer);
  p.illumination = 1.5f;
  render_scene (&p, &bright);
  for (int v = 0; v < h; v++)
    for (int u = 0; u < w; u++) {
      const uint8_t *a = PIX (dim.left, u, v), *b = PIX (dimmer.left, u, v);
      const uint8_t *c = PIX (bright.left, u, v);
      for (int k = 0; k < 3; k++) {
        int n_sky = sky_around (&dim, u, v);
        if (n_sky == 9) {
          /* the sky is not a lit surface */
          g_assert_cmpint (a[k], ==, b[k]);
          g_assert_cmpint (a[k], ==, c[k]);
        } else if (n_sky == 0 && abs (2 * b[k] - a[k]) > 1) {
          /* no clamping at these gains: exactly linear up to rounding */
          g_error ("(%d, %d) channel %d: %d at illumination 0.5, %d at 0.25",
              u, v, k, a[k], b[k]);
        }
        if (LABEL (&dim, u, v) != CV_SCENE_SKY) {
          sum_dim += a[k];
          sum_bright += c[k];
        }
      }
    }
  /* 1.5 vs 0.5: three times brighter where not clamped at 255 */
  g_print ("mean surface level: %.1f at 0.5, %.1f at 1.5\n",
      sum_dim / (w * h), sum_bright / (w * h));
  g_assert_cmpfloat (sum_bright, >, 2.5 * sum_dim);
  render_clear (&dim);
  render_clear (&dimmer);
  render_clear (&bright);
}

static int
compare_ints (const void *a, const void *b)
{
  return *(const int *) a - *(const int *) b;
}

static void
test_road_color_change (void)
{
  CvSceneParams p;
  Render r;
  int w = 480, h = 320, n_near = 0, n_far = 0;
  int *near_rg, *far_rg;
  const float change_z = 20.0f;

  cv_scene_params_init (&p, w, h, 0, 8);
  p.road_color[0] = p.road_color[1] = p.road_color[2] = 100;
  p.road_color_far[0] = 160;
  p.road_color_far[1] = p.road_color_far[2] = 60;
  p.road_color_change_z = change_z;
  p.travel = 3.0f;
  render_scene (&p, &r);
  near_rg = g_new (int, w * h);
  far_rg = g_new (int, w * h);

  for (int v = 0; v < h; v++) {
    double dy, dz, z;
    row_ray (&p, v, &dy, &dz);
    if (dy >= 0.0)
      continue;
    z = p.travel + p.pose.height / -dy * dz;
    for (int u = 0; u < w; u++) {
      const uint8_t *px = PIX (r.left, u, v);
      if (LABEL (&r, u, v) != CV_SCENE_ROAD)
        continue;
      /* a margin of 1 m around the change (rows are 0.5-2 m deep there) */
      if (z < change_z - 1.0)
        near_rg[n_near++] = px[0] - px[1];
      else if (z > change_z + 1.0 && z < 60.0)
        far_rg[n_far++] = px[0] - px[1];
    }
  }
  qsort (near_rg, n_near, sizeof (int), compare_ints);
  qsort (far_rg, n_far, sizeof (int), compare_ints);
  g_print ("median R-G: %d before z = %.0f m (%d px), %d after (%d px)\n",
      near_rg[n_near / 2], change_z, n_near, far_rg[n_far / 2], n_far);
  g_assert_cmpint (n_near, >, 1000);
  g_assert_cmpint (n_far, >, 200);
  g_assert_cmpint (abs (near_rg[n_near / 2]), <=, 2);
  g_assert_cmpint (far_rg[n_far / 2], >, 70);
  g_free (near_rg);
  g_free (far_rg);
  render_clear (&r);
}

/* ---- surfaces: road and off-road differ; texture is there for matching -------- */

static void
test_surfaces (void)
{
  CvSceneParams p;
  Render r;
  int w = 640, h = 480;
  double sat[4] = { 0 }, grad[4] = { 0 }, n[4] = { 0 };

  cv_scene_params_init (&p, w, h, 0, 17);
  render_scene (&p, &r);
  /* near ground (rows of depth < 15 m), away from the markings */
  for (int v = 0; v < h; v++) {
    double dy, dz;
    row_ray (&p, v, &dy, &dz);
    if (dy >= 0.0 || p.pose.height / -dy > 15.0)
      continue;
    for (int u = 1; u < w; u++) {
      const uint8_t *a = PIX (r.left, u - 1, v), *b = PIX (r.left, u, v);
      int cls = LABEL (&r, u, v);
      int la = CV_LUMA_FROM_RGB (a[0], a[1], a[2]);
      int lb = CV_LUMA_FROM_RGB (b[0], b[1], b[2]);
      int mx = MAX (b[0], MAX (b[1], b[2])), mn = MIN (b[0], MIN (b[1], b[2]));
      if (LABEL (&r, u - 1, v) != cls || (cls == CV_SCENE_ROAD
              && mn > 180))
        continue;
      sat[cls] += mx - mn;
      grad[cls] += abs (la - lb);
      n[cls]++;
    }
  }
  for (int c = CV_SCENE_ROAD; c <= CV_SCENE_OFFROAD; c++) {
    sat[c] /= n[c];
    grad[c] /= n[c];
  }
  g_print ("road: saturation %.1f, mean |horizontal luma step| %.2f; "
      "off-road: %.1f, %.2f\n", sat[CV_SCENE_ROAD], grad[CV_SCENE_ROAD],
      sat[CV_SCENE_OFFROAD], grad[CV_SCENE_OFFROAD]);
  /* grey road, coloured off-road */
  g_assert_cmpfloat (sat[CV_SCENE_ROAD], <, 12.0);
  g_assert_cmpfloat (sat[CV_SCENE_OFFROAD], >, 40.0);
  /* texture for census matching: neighbouring pixels differ by several
   * levels on average, on both surfaces */
  g_assert_cmpfloat (grad[CV_SCENE_ROAD], >, 3.0);
  g_assert_cmpfloat (grad[CV_SCENE_OFFROAD], >, 3.0);
  render_clear (&r);
}

/* ---- defaults and argument checks ------------------------------------------------ */

static void
test_params (void)
{
  for (guint32 seed = 1; seed <= 20; seed++) {
    CvSceneParams p;
    cv_scene_params_init (&p, 640, 480, 12, seed);
    g_assert_cmpint (p.n_boxes, ==, 12);
    g_assert_cmpfloat (p.calib.focal_length, ==, 0.58f * 640);
    g_assert_cmpfloat (p.calib.baseline, ==, 0.54f);
    g_assert_cmpfloat (p.pose.height, ==, 1.65f);
    g_assert_cmpfloat (p.pose.pitch, ==, 0.02f);
    for (int i = 0; i < p.n_boxes; i++) {
      const CvSceneBox *a = &p.boxes[i];
      g_assert_cmpfloat (a->z, >=, 6.0f);
      g_assert_cmpfloat (a->z + a->depth, <=, 40.0f);
      g_assert_cmpfloat (a->width, >=, 0.6f);
      g_assert_cmpfloat (a->width, <=, 2.5f);
      g_assert_cmpfloat (a->height, >=, 0.8f);
      g_assert_cmpfloat (a->height, <=, 2.5f);
      for (int j = 0; j < i; j++) {
        const CvSceneBox *b = &p.boxes[j];
        gboolean apart_x = fabsf (a->x - b->x) >= 0.5f * (a->width + b->width);
        gboolean apart_z = a->z >= b->z + b->depth || b->z >= a->z + a->depth;
        g_assert_true (apart_x || apart_z);
      }
    }
  }

  {
    CvSceneParams p;
    Render r;
    CvError err = { 0 };
    cv_scene_params_init (&p, 64, 48, 2, 1);
    render_init (&r, 64, 48);
    p.supersample = 5;
    g_assert_cmpint (cv_scene_render (&p, &r.views, &err), ==,
        CV_ERROR_INVALID_ARGUMENT);
    g_assert_nonnull (strstr (err.message, "supersample"));
    cv_error_clear (&err);
    p.supersample = 2;
    r.views.labels.width = 63;
    g_assert_cmpint (cv_scene_render (&p, &r.views, &err), ==,
        CV_ERROR_INVALID_ARGUMENT);
    g_assert_nonnull (strstr (err.message, "labels"));
    /* NULL members are skipped */
    cv_error_clear (&err);
    memset (&r.views.labels, 0, sizeof (r.views.labels));
    memset (&r.views.right, 0, sizeof (r.views.right));
    g_assert_cmpint (cv_scene_render (&p, &r.views, &err), ==, CV_OK);
    render_clear (&r);
  }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/scene/ground-truth-exact", test_ground_truth_exact);
  g_test_add_func ("/scene/deterministic", test_deterministic);
  g_test_add_func ("/scene/labels", test_labels);
  g_test_add_func ("/scene/occlusion", test_occlusion);
  g_test_add_func ("/scene/illumination", test_illumination);
  g_test_add_func ("/scene/road-color-change", test_road_color_change);
  g_test_add_func ("/scene/surfaces", test_surfaces);
  g_test_add_func ("/scene/params", test_params);
  return g_test_run ();
}
