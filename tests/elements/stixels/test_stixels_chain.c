/* cudasgm ! cudastixels on system memory (the CPU backends of both): the
 * issue's accuracy with a matcher's output as input, on stereotestsrc's
 * synthetic scenes, against their exact ground truth.
 *
 * What is counted (docs/elements/cudastixels.md, "Accuracy after
 * cudasgm"):
 *  - the left band that cudastixels leaves out (the disparity meta's
 *    searched range, rounded up to whole stixels: the right camera does not
 *    see it) has no stixels, so its pixels are not counted; every other
 *    pixel is, whatever cudasgm made of it (invalid pixels included: the
 *    stixels cover them, and they must be right there too).  The accuracy
 *    over the whole frame, band pixels counted as wrong, is printed too;
 *  - class accuracy: the stixel's class against the scene's label (ground
 *    = road or off-road), >= 92 %;
 *  - the disparity rendered back from the stixels: KITTI outliers (|error|
 *    > 3 px and > 5 %) over the same pixels, no more than cudasgm's own
 *    outlier rate + 1 point, with cudasgm's rate taken over its valid
 *    pixels (it says nothing elsewhere); the rate of cudasgm's output with
 *    its holes filled as KITTI's development kit does (each invalid run of
 *    a row takes the smaller disparity of its two ends) is printed too.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gst/check/gstcheck.h>
#include <gst/app/gstappsink.h>
#include <math.h>
#include <string.h>

#include "cv_test.h"
#include "stixels_element_util.h"

#define MIN_CHAIN_CLASS_ACCURACY 0.92
#define MAX_EXTRA_OUTLIERS 0.01
#define SCENE_SPEED 0.5
#define SCENE_BOXES 8
/* Object depths are not checked here: a matcher's disparity on a box is
 * its own (subpixel bias, fattening at the edges); the exact-input tests
 * check them. */
#define NO_DEPTH_CHECK 1e9

static gboolean
kitti_outlier (gfloat estimate, gfloat truth)
{
  gfloat err = fabsf (estimate - truth);
  return err > 3.0f && err > 0.05f * truth;
}

typedef struct
{
  gint band;
  gdouble class_accuracy;       /* right of the band */
  gdouble class_accuracy_frame; /* the band counted as wrong */
  gdouble outliers;             /* rendered stixels, right of the band */
  gdouble input_outliers;       /* cudasgm, its valid pixels right of the band */
  gdouble input_filled_outliers;        /* cudasgm, holes filled, same pixels */
  gdouble input_valid;          /* fraction of valid cudasgm pixels there */
  gdouble nearest_object;       /* m, 0: none */
  gdouble nearest_box;          /* m, ground truth right of the band */
  guint n_stixels;
} ChainEval;

static void
evaluate (const StxScene * scene, GstBuffer * buf, ChainEval * e)
{
  const gint w = scene->width, h = scene->height;
  GstCvStixelsMeta *sm = gst_buffer_get_cv_stixels_meta (buf);
  GstCvDisparityMeta *dm = gst_buffer_get_cv_disparity_meta (buf);
  GstCvDisparityMapping map;
  StxMetaEval ev;
  gfloat *render = g_new (gfloat, (gsize) w * h);
  gfloat *filled = g_new (gfloat, (gsize) w);
  gint64 out = 0, in_valid = 0, in_out = 0, filled_out = 0, n = 0;
  const gdouble fb = stx_scene_fb (scene);

  fail_unless (sm != NULL, "no stixels meta");
  fail_unless (dm != NULL, "no disparity meta (cudasgm's)");
  fail_unless (dm->width == (guint) w && dm->height == (guint) h);
  fail_unless (gst_cv_disparity_meta_map (dm, GST_MAP_READ, &map));
  fail_if (map.on_device);

  stx_evaluate_meta (scene, sm, NO_DEPTH_CHECK, &ev);
  memset (e, 0, sizeof (*e));
  e->band = ev.left_band;
  e->class_accuracy = ev.class_accuracy;
  e->class_accuracy_frame = ev.class_accuracy * (w - e->band) / w;
  e->n_stixels = sm->n_stixels;
  /* the band is the meta's searched range rounded up to whole stixels */
  fail_unless (e->band >= dm->max_disparity && e->band < dm->max_disparity +
      5, "left band %d px, cudasgm searched up to %d px", e->band,
      dm->max_disparity);

  stx_meta_render (sm, render);
  for (gint y = 0; y < h; y++) {
    const gint16 *d = (const gint16 *) ((const guint8 *) map.disparity +
        (gsize) y * map.disparity_stride);
    gint x = 0;

    /* KITTI's hole filling: an invalid run takes the smaller (farther)
     * disparity of the valid pixels at its two ends (the one it has at an
     * image edge; 0 when the row has none) */
    while (x < w) {
      gint end = x;
      gfloat left, right, v;
      if (d[x] >= 0) {
        filled[x] = d[x] / (gfloat) GST_CV_DISPARITY_SCALE;
        x++;
        continue;
      }
      while (end < w && d[end] < 0)
        end++;
      left = x > 0 ? filled[x - 1] : -1.0f;
      right = end < w ? d[end] / (gfloat) GST_CV_DISPARITY_SCALE : -1.0f;
      v = left < 0.0f ? right : right < 0.0f ? left : MIN (left, right);
      for (gint k = x; k < end; k++)
        filled[k] = MAX (v, 0.0f);
      x = end;
    }
    for (x = e->band; x < w; x++) {
      const gsize i = (gsize) y * w + x;
      const gfloat truth = scene->disparity[i];

      fail_unless (render[i] >= 0.0f, "pixel (%d, %d) right of the band "
          "has no stixel", x, y);
      n++;
      out += kitti_outlier (render[i], truth);
      filled_out += kitti_outlier (filled[x], truth);
      if (d[x] >= 0) {
        in_valid++;
        in_out += kitti_outlier (d[x] / (gfloat) GST_CV_DISPARITY_SCALE,
            truth);
      }
      if (scene->labels[i] == CV_SCENE_OBJECT && truth > 0.0f
          && (e->nearest_box == 0.0 || fb / truth < e->nearest_box))
        e->nearest_box = fb / truth;
    }
    for (x = 0; x < e->band; x++)
      fail_unless (render[(gsize) y * w + x] < 0.0f, "a stixel covers "
          "pixel (%d, %d) in the left band", x, y);
  }
  gst_cv_disparity_meta_unmap (dm, &map);

  for (guint i = 0; i < sm->n_stixels; i++) {
    const GstCvStixel *s = &sm->stixels[i];
    if (s->stixel_class == GST_CV_STIXEL_OBJECT && s->depth > 0.0f
        && (e->nearest_object == 0.0 || s->depth < e->nearest_object))
      e->nearest_object = s->depth;
  }
  e->outliers = (gdouble) out / n;
  e->input_outliers = in_valid ? (gdouble) in_out / in_valid : 0.0;
  e->input_filled_outliers = (gdouble) filled_out / n;
  e->input_valid = (gdouble) in_valid / n;
  g_free (render);
  g_free (filled);
}

static void
print_eval (const gchar * what, const ChainEval * e)
{
  g_print ("%-28s band %3d px | class accuracy %.4f (whole frame %.4f) | "
      "outliers: stixels %.4f, cudasgm %.4f on its %.1f %% valid pixels "
      "(%.4f holes filled) | %u stixels | nearest object %.2f m, box %.2f "
      "m\n", what, e->band, e->class_accuracy, e->class_accuracy_frame,
      e->outliers, e->input_outliers, 100.0 * e->input_valid,
      e->input_filled_outliers, e->n_stixels, e->nearest_object,
      e->nearest_box);
}

/* Runs stereotestsrc (@layout, views of @vw x @vh, @seed) ! cudasgm
 * (calibrated as the scene generator's rig) ! cudastixels @props for
 * @n frames and checks each frame. */
static void
check_chain (const gchar * layout, gint vw, gint vh, guint seed, guint n,
    const gchar * props, ChainEval * first)
{
  gboolean tb = g_str_equal (layout, "top-bottom");
  CvSceneParams rig;
  gchar *desc;
  GError *error = NULL;
  GstElement *p, *sink;

  cv_scene_params_init (&rig, vw, vh, SCENE_BOXES, seed);
  desc = g_strdup_printf ("stereotestsrc num-buffers=%u layout=%s seed=%u "
      "boxes=%d speed=%g ! video/x-raw,format=RGBA,width=%d,height=%d ! "
      "cudasgm max-disparity=128 focal-length=%.4f principal-x=%.4f "
      "principal-y=%.4f baseline=%.4f ! cudastixels %s ! "
      "appsink name=sink sync=false", n, layout, seed, SCENE_BOXES,
      SCENE_SPEED, tb ? vw : 2 * vw, tb ? 2 * vh : vh,
      rig.calib.focal_length, rig.calib.principal_x, rig.calib.principal_y,
      rig.calib.baseline, props);
  p = gst_parse_launch (desc, &error);
  fail_unless (p != NULL && error == NULL, "%s: %s", desc,
      error ? error->message : "");
  sink = gst_bin_get_by_name (GST_BIN (p), "sink");
  gst_element_set_state (p, GST_STATE_PLAYING);
  for (guint i = 0; i < n; i++) {
    GstSample *sample = gst_app_sink_pull_sample (GST_APP_SINK (sink));
    StxScene *scene = stx_scene_new (vw, vh, SCENE_BOXES, seed,
        (gfloat) (i * SCENE_SPEED), FALSE);
    gchar *what = g_strdup_printf ("%dx%d seed %u frame %u", vw, vh, seed,
        i);
    ChainEval e;

    fail_unless (sample != NULL, "%s: no frame %u", desc, i);
    evaluate (scene, gst_sample_get_buffer (sample), &e);
    print_eval (what, &e);
    fail_unless (e.class_accuracy >= MIN_CHAIN_CLASS_ACCURACY,
        "%s: class accuracy %.4f after cudasgm", what, e.class_accuracy);
    fail_unless (e.outliers <= e.input_outliers + MAX_EXTRA_OUTLIERS,
        "%s: %.4f outliers rendered from the stixels, cudasgm's %.4f", what,
        e.outliers, e.input_outliers);
    if (i == 0 && first)
      *first = e;
    g_free (what);
    stx_scene_free (scene);
    gst_sample_unref (sample);
  }
  gst_element_set_state (p, GST_STATE_NULL);
  gst_object_unref (sink);
  gst_object_unref (p);
  g_free (desc);
}

/* stereotestsrc's default camera (two 640x480 views, seed 1), the first
 * four frames of its drive. */
GST_START_TEST (test_chain_default_camera)
{
  ChainEval first;

  check_chain ("side-by-side", 640, 480, 1, 4, "pitch=0.02", &first);
  /* the reported problem: cudasgm's left band (no right view) made a
   * "near object" at 2.7 m of the road at the bottom of the frame; the
   * nearest box of frame 0 is at 11.7 m */
  fail_unless (fabs (first.nearest_object - first.nearest_box) <=
      0.05 * first.nearest_box, "frame 0: nearest object %.2f m, the "
      "nearest box is at %.2f m", first.nearest_object, first.nearest_box);
}

GST_END_TEST;

/* KITTI's frame size, top-bottom pair, the camera pose estimated. */
GST_START_TEST (test_chain_kitti_size)
{
  check_chain ("top-bottom", 1242, 375, 3, 2, "estimate-camera=true", NULL);
}

GST_END_TEST;

static Suite *
stixels_chain_suite (void)
{
  Suite *s = suite_create ("cudastixels-chain");
  TCase *tc = tcase_create ("general");

  tcase_set_timeout (tc, 120);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_chain_default_camera);
  tcase_add_test (tc, test_chain_kitti_size);
  return s;
}

GST_CHECK_MAIN (stixels_chain);
