/* cudastixels on system memory (the CPU reference): properties, caps,
 * accuracy against the synthetic scenes' ground truth (meta input from
 * stereotestsrc, GRAY16_LE / GRAY8 disparity frames), the camera estimate,
 * the overlay, the bus summary, resolution variants, tall frames and the
 * errors for missing or mismatching disparity.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gst/check/gstcheck.h>
#include <gst/app/gstappsink.h>
#include <gst/video/video.h>
#include <math.h>
#include <string.h>

#include "cv_draw.h"
#include "cv_stixels.h"
#include "cv_test.h"
#include "cvtestutil.h"
#include "gststixelsoutput.h"
#include "stixels_element_util.h"

/* stereotestsrc's rig pitch (rad): the element's default pitch is 0 */
#define SCENE_PITCH "0.02"
#define DEPTH_TOLERANCE 0.05

static void
set_props (GstElement * element, const gchar * props)
{
  gchar **kv = g_strsplit (props, " ", -1);

  for (gchar ** p = kv; *p; p++) {
    gchar **pair;
    if (**p == '\0')
      continue;
    pair = g_strsplit (*p, "=", 2);
    fail_unless (pair[1] != NULL, "bad property '%s'", *p);
    gst_util_set_object_arg (G_OBJECT (element), pair[0], pair[1]);
    g_strfreev (pair);
  }
  g_strfreev (kv);
}

/* Runs @buffer (taken) through cudastixels with @props on @caps. */
static GstBuffer *
run_harness (const gchar * caps, const gchar * props, GstBuffer * buffer,
    GstStructure ** summary)
{
  GstHarness *h = stx_harness_new (caps);
  GstBuffer *out;

  set_props (h->element, props);
  out = stx_harness_run (h, buffer);
  fail_unless (out != NULL, "cudastixels %s on %s gave no output", props,
      caps);
  if (summary)
    *summary = stx_harness_pop_summary (h);
  gst_harness_teardown (h);
  return out;
}

static gchar *
rgba_caps (const StxScene * scene)
{
  return g_strdup_printf ("video/x-raw,format=RGBA,width=%d,height=%d,"
      "framerate=30/1", scene->width, scene->height);
}

static gchar *
gray_caps (const StxScene * scene, const gchar * format)
{
  return g_strdup_printf ("video/x-raw,format=%s,width=%d,height=%d,"
      "framerate=30/1", format, scene->width, scene->height);
}

/* The calibration properties of a disparity frame of @scene. */
static gchar *
calib_props (const StxScene * scene, const gchar * extra)
{
  return g_strdup_printf ("focal-length=%.6f principal-x=%.6f "
      "principal-y=%.6f baseline=%.6f %s", scene->params.calib.focal_length,
      scene->params.calib.principal_x, scene->params.calib.principal_y,
      scene->params.calib.baseline, extra);
}

/* Pulls @n buffers from `@desc ! appsink name=sink`. */
static GstBuffer **
pull_buffers (const gchar * desc, guint n)
{
  gchar *full = g_strdup_printf ("%s ! appsink name=sink sync=false", desc);
  GError *error = NULL;
  GstElement *p = gst_parse_launch (full, &error);
  GstElement *sink;
  GstBuffer **out = g_new0 (GstBuffer *, n + 1);

  fail_unless (p != NULL, "%s: %s", full, error ? error->message : "");
  sink = gst_bin_get_by_name (GST_BIN (p), "sink");
  gst_element_set_state (p, GST_STATE_PLAYING);
  for (guint i = 0; i < n; i++) {
    GstSample *sample = gst_app_sink_pull_sample (GST_APP_SINK (sink));
    fail_unless (sample != NULL, "'%s': no buffer %u", full, i);
    out[i] = gst_buffer_ref (gst_sample_get_buffer (sample));
    gst_sample_unref (sample);
  }
  gst_element_set_state (p, GST_STATE_NULL);
  gst_object_unref (sink);
  gst_object_unref (p);
  g_free (full);
  return out;
}

static void
free_buffers (GstBuffer ** buffers)
{
  for (GstBuffer ** b = buffers; *b; b++)
    gst_buffer_unref (*b);
  g_free (buffers);
}

/* ---- properties ----------------------------------------------------------- */

static void
check_double (GstElement * e, const gchar * name, gdouble expect)
{
  gdouble v;
  g_object_get (e, name, &v, NULL);
  fail_unless (fabs (v - expect) <= 1e-6 * MAX (1.0, fabs (expect)),
      "%s: default %.9g, the core's is %.9g", name, v, expect);
}

GST_START_TEST (test_defaults_are_the_core_defaults)
{
  GstElement *e = gst_element_factory_make ("cudastixels", NULL);
  CvStixelParams p;
  gint iv;
  gboolean bv;
  guint64 bytes;

  fail_unless (e != NULL);
  cv_stixel_params_init (&p);
  g_object_get (e, "stixel-width", &iv, NULL);
  fail_unless_equals_int (iv, p.stixel_width);
  fail_unless_equals_int (iv, 5);
  g_object_get (e, "row-step", &iv, NULL);
  fail_unless_equals_int (iv, p.row_step);
  fail_unless_equals_int (iv, 1);
  g_object_get (e, "max-disparity", &iv, NULL);
  fail_unless_equals_int (iv, 0);
  g_object_get (e, "left-band", &iv, NULL);
  fail_unless_equals_int (iv, -1);
  check_double (e, "height", p.pose.height);
  check_double (e, "pitch", p.pose.pitch);
  check_double (e, "sigma-ground", p.sigma_ground);
  check_double (e, "sigma-object", p.sigma_object);
  check_double (e, "sigma-sky", p.sigma_sky);
  check_double (e, "model-complexity", p.model_complexity);
  check_double (e, "gravity-flying", p.gravity_alpha_flying);
  check_double (e, "gravity-flying-slope", p.gravity_beta_flying);
  check_double (e, "gravity-sinking", p.gravity_alpha_sinking);
  check_double (e, "gravity-sinking-slope", p.gravity_beta_sinking);
  check_double (e, "gravity-tolerance", p.gravity_tolerance);
  check_double (e, "ordering", p.ordering_alpha);
  check_double (e, "ordering-slope", p.ordering_beta);
  check_double (e, "gap-nearer", p.gap_alpha_nearer);
  check_double (e, "gap-nearer-slope", p.gap_beta_nearer);
  check_double (e, "gap-farther", p.gap_alpha_farther);
  check_double (e, "gap-farther-slope", p.gap_beta_farther);
  check_double (e, "gap-tolerance", p.gap_tolerance);
  check_double (e, "height-sigma", p.camera_height_sigma);
  check_double (e, "pitch-sigma", p.camera_pitch_sigma);
  check_double (e, "object-slope-sigma", p.object_slope_sigma);
  check_double (e, "focal-length", 0.0);
  check_double (e, "principal-x", -1.0);
  check_double (e, "principal-y", -1.0);
  check_double (e, "baseline", 0.0);
  check_double (e, "overlay-max-depth", 40.0);
  g_object_get (e, "estimate-camera", &bv, NULL);
  fail_if (bv);
  g_object_get (e, "overlay", &bv, NULL);
  fail_if (bv);
  g_object_get (e, "post-messages", &bv, NULL);
  fail_if (bv);
  g_object_get (e, "transfer-bytes", &bytes, NULL);
  fail_unless (bytes == 0);
  gst_object_unref (e);
}

GST_END_TEST;

/* Every property of the element is documented, changeable while playing,
 * and reads back what was written. */
GST_START_TEST (test_properties_round_trip)
{
  GstElement *e = gst_element_factory_make ("cudastixels", NULL);
  guint n;
  GParamSpec **specs = g_object_class_list_properties (G_OBJECT_GET_CLASS (e),
      &n);
  guint checked = 0;

  for (guint i = 0; i < n; i++) {
    GParamSpec *ps = specs[i];
    GValue v = G_VALUE_INIT, back = G_VALUE_INIT;

    if (ps->owner_type != G_OBJECT_TYPE (e))
      continue;
    fail_unless (strlen (g_param_spec_get_blurb (ps)) > 20,
        "%s: blurb too short", ps->name);
    fail_unless (ps->flags & GST_PARAM_MUTABLE_PLAYING, "%s", ps->name);
    g_value_init (&v, ps->value_type);
    g_value_init (&back, ps->value_type);
    if (G_IS_PARAM_SPEC_DOUBLE (ps)) {
      GParamSpecDouble *d = G_PARAM_SPEC_DOUBLE (ps);
      g_value_set_double (&v, d->minimum + 0.375 * MIN (d->maximum -
              d->minimum, 10.0));
    } else if (G_IS_PARAM_SPEC_INT (ps)) {
      g_value_set_int (&v, G_PARAM_SPEC_INT (ps)->maximum);
    } else if (G_IS_PARAM_SPEC_BOOLEAN (ps)) {
      g_value_set_boolean (&v,
          !G_PARAM_SPEC_BOOLEAN (ps)->default_value);
    } else {
      fail ("%s: unexpected type %s", ps->name, g_type_name (ps->value_type));
    }
    g_object_set_property (G_OBJECT (e), ps->name, &v);
    g_object_get_property (G_OBJECT (e), ps->name, &back);
    fail_unless (g_param_values_cmp (ps, &v, &back) == 0,
        "%s does not read back", ps->name);
    g_value_unset (&v);
    g_value_unset (&back);
    checked++;
  }
  g_print ("%u properties of cudastixels checked\n", checked);
  fail_unless (checked >= 30);
  g_free (specs);
  gst_object_unref (e);
}

GST_END_TEST;

/* ---- caps ------------------------------------------------------------------ */

GST_START_TEST (test_system_formats)
{
  const gchar *formats[] = { "NV12", "I420", "Y444", "RGBA", "BGRA", "RGBx",
    "BGRx", "GRAY8", "GRAY16_LE"
  };
  StxScene *scene = stx_scene_new (320, 240, 8, 1, 0.0f, TRUE);
  GstBuffer *input = stx_scene_rgba_buffer (scene);
  gchar *caps = rgba_caps (scene);

  for (guint i = 0; i < G_N_ELEMENTS (formats); i++) {
    /* videoconvert keeps the disparity meta (it has no tags): with a meta,
     * GRAY frames are pictures, not disparity */
    gchar *convert = g_strdup_printf ("videoconvert ! video/x-raw,format=%s",
        formats[i]);
    StxRun *run = stx_run_chain (NULL, &input, caps, convert, 1,
        "pitch=" SCENE_PITCH, FALSE, NULL, NULL);
    StxMetaEval ev;

    stx_evaluate_meta (scene, stx_run_meta (run, 0), DEPTH_TOLERANCE, &ev);
    stx_print_eval (formats[i], &ev);
    fail_unless (ev.class_accuracy >= STX_MIN_CLASS_ACCURACY, "%s: %.4f",
        formats[i], ev.class_accuracy);
    stx_run_free (run);
    g_free (convert);
  }
  gst_buffer_unref (input);
  g_free (caps);
  stx_scene_free (scene);
}

GST_END_TEST;

GST_START_TEST (test_unsupported_format)
{
  GstHarness *h = gst_harness_new ("cudastixels");
  GstElementClass *klass = GST_ELEMENT_GET_CLASS (h->element);
  GstCaps *templ = gst_pad_template_get_caps (gst_element_class_get_pad_template
      (klass, "sink"));
  const gchar *bad[] = { "YUY2", "RGB", "GRAY16_BE", "UYVY" };

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++) {
    GstCaps *caps = gst_caps_new_simple ("video/x-raw", "format",
        G_TYPE_STRING, bad[i], "width", G_TYPE_INT, 64, "height", G_TYPE_INT,
        48, "framerate", GST_TYPE_FRACTION, 30, 1, NULL);
    fail_if (gst_caps_can_intersect (caps, templ), "%s accepted", bad[i]);
    gst_caps_unref (caps);
  }
  gst_caps_unref (templ);

  gst_harness_set_src_caps_str (h, "video/x-raw,format=YUY2,width=64,"
      "height=48,framerate=30/1");
  fail_unless_equals_int (gst_harness_push (h,
          gst_buffer_new_allocate (NULL, 64 * 48 * 2, NULL)),
      GST_FLOW_NOT_NEGOTIATED);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* ---- accuracy ---------------------------------------------------------------- */

/* stereotestsrc's ground truth, left view cropped out of the pair. */
static void
check_stereotestsrc (const gchar * layout, const gchar * format, guint seed,
    const gchar * crop)
{
  const guint n_frames = 2;
  const gdouble speed = 0.5;
  gboolean tb = g_str_equal (layout, "top-bottom");
  gchar *desc;
  GstBuffer **out;

  if (!stx_have_element ("videocrop")) {
    g_print ("no videocrop element (gst-plugins-good): skipped\n");
    return;
  }
  desc = g_strdup_printf ("stereotestsrc attach-disparity=true "
      "num-buffers=%u supersample=1 layout=%s seed=%u speed=%g ! "
      "video/x-raw,format=%s,width=%d,height=%d ! videocrop %s ! "
      "cudastixels pitch=" SCENE_PITCH " left-band=0", n_frames, layout, seed,
      speed,
      format, tb ? 640 : 1280, tb ? 960 : 480, crop);
  out = pull_buffers (desc, n_frames);

  for (guint i = 0; i < n_frames; i++) {
    StxScene *scene = stx_scene_new (640, 480, 8, seed, (gfloat) (i * speed),
        FALSE);
    StxMetaEval ev;
    gchar *what = g_strdup_printf ("%s %s seed %u frame %u", layout, format,
        seed, i);

    stx_evaluate_meta (scene, gst_buffer_get_cv_stixels_meta (out[i]),
        DEPTH_TOLERANCE, &ev);
    stx_print_eval (what, &ev);
    /* ground truth: every column segmented (left-band=0) */
    fail_unless_equals_int (ev.left_band, 0);
    fail_unless (ev.class_accuracy >= STX_MIN_CLASS_ACCURACY, "%s: %.4f",
        what, ev.class_accuracy);
    fail_unless (ev.n_depth_checked >= 5, "%s: only %u object depths", what,
        ev.n_depth_checked);
    fail_unless (ev.n_depth_bad == 0, "%s: %u object depths off by > 5 %%",
        what, ev.n_depth_bad);
    g_free (what);
    stx_scene_free (scene);
  }
  free_buffers (out);
  g_free (desc);
}

GST_START_TEST (test_accuracy_side_by_side)
{
  check_stereotestsrc ("side-by-side", "RGBA", 1, "right=640");
}

GST_END_TEST;

GST_START_TEST (test_accuracy_top_bottom)
{
  check_stereotestsrc ("top-bottom", "NV12", 5, "bottom=480");
}

GST_END_TEST;

/* KITTI-style 16-bit disparity frames with the calibration as properties. */
GST_START_TEST (test_gray16_disparity_frame)
{
  StxScene *scene = stx_scene_new (1242, 375, 8, 3, 0.0f, FALSE);
  gchar *caps = gray_caps (scene, "GRAY16_LE");
  gchar *props = calib_props (scene, "pitch=" SCENE_PITCH);
  GstBuffer *out = run_harness (caps, props,
      stx_scene_gray16_buffer (scene, 1), NULL);
  StxMetaEval ev;

  stx_evaluate_meta (scene, gst_buffer_get_cv_stixels_meta (out),
      DEPTH_TOLERANCE, &ev);
  stx_print_eval ("GRAY16_LE 1242x375, sky 1/256 px", &ev);
  fail_unless (ev.class_accuracy >= STX_MIN_CLASS_ACCURACY);
  fail_unless (ev.n_depth_checked >= 5 && ev.n_depth_bad == 0);
  gst_buffer_unref (out);

  /* sky as KITTI files have it, invalid (0): invalid pixels carry no
   * evidence, so the sky is whatever the neighbouring stixels make of it;
   * where there is data the classes and the objects stay right */
  out = run_harness (caps, props, stx_scene_gray16_buffer (scene, 0), NULL);
  stx_evaluate_meta_valid (scene, gst_buffer_get_cv_stixels_meta (out),
      DEPTH_TOLERANCE, 1.0 / 256.0, &ev);
  stx_print_eval ("GRAY16_LE 1242x375, sky invalid", &ev);
  fail_unless (ev.valid_accuracy >= STX_MIN_CLASS_ACCURACY);
  fail_unless (ev.n_depth_checked >= 5 && ev.n_depth_bad == 0);
  gst_buffer_unref (out);

  g_free (props);
  g_free (caps);
  stx_scene_free (scene);
}

GST_END_TEST;

/* 8-bit integer disparity: 0.5 px quantisation; sky and the road beyond
 * 0.5 px are invalid (0), and invalid pixels carry no evidence, so only the
 * pixels with data are expected right. */
GST_START_TEST (test_gray8_disparity_frame)
{
  StxScene *scene = stx_scene_new (640, 480, 8, 1, 0.0f, FALSE);
  gchar *caps = gray_caps (scene, "GRAY8");
  gchar *props = calib_props (scene, "pitch=" SCENE_PITCH);
  GstBuffer *out = run_harness (caps, props, stx_scene_gray8_buffer (scene),
      NULL);
  StxMetaEval ev;

  /* a box at 40 m has 5 px of disparity: +-0.5 px is 10 % */
  stx_evaluate_meta_valid (scene, gst_buffer_get_cv_stixels_meta (out), 0.10,
      0.5, &ev);
  stx_print_eval ("GRAY8 640x480", &ev);
  fail_unless (ev.n_depth_checked >= 5 && ev.n_depth_bad == 0);
  fail_unless (ev.valid_accuracy >= STX_MIN_CLASS_ACCURACY);
  gst_buffer_unref (out);
  g_free (props);
  g_free (caps);
  stx_scene_free (scene);
}

GST_END_TEST;

/* estimate-camera recovers the rig's pose from a wrong prior. */
GST_START_TEST (test_estimate_camera)
{
  StxScene *scene = stx_scene_new (640, 480, 8, 1, 0.0f, FALSE);
  gchar *caps = rgba_caps (scene);
  GstStructure *summary = NULL;
  GstBuffer *out;
  StxMetaEval ev, ev_true, ev_wrong;
  gdouble height, pitch;
  gboolean estimated;

  out = run_harness (caps, "pitch=" SCENE_PITCH,
      stx_scene_rgba_buffer (scene), NULL);
  stx_evaluate_meta (scene, gst_buffer_get_cv_stixels_meta (out),
      DEPTH_TOLERANCE, &ev_true);
  stx_print_eval ("true pose as properties", &ev_true);
  gst_buffer_unref (out);

  out = run_harness (caps, "height=1.2 pitch=-0.01 post-messages=true",
      stx_scene_rgba_buffer (scene), &summary);
  stx_evaluate_meta (scene, gst_buffer_get_cv_stixels_meta (out),
      DEPTH_TOLERANCE, &ev_wrong);
  stx_print_eval ("wrong pose (1.2 m, -0.01 rad)", &ev_wrong);
  fail_unless (summary != NULL);
  fail_unless (gst_structure_get (summary, "camera-height", G_TYPE_DOUBLE,
          &height, "camera-pitch", G_TYPE_DOUBLE, &pitch, "camera-estimated",
          G_TYPE_BOOLEAN, &estimated, NULL));
  fail_if (estimated);
  fail_unless (fabs (height - 1.2) < 1e-6 && fabs (pitch + 0.01) < 1e-6);
  gst_structure_free (summary);
  gst_buffer_unref (out);

  out = run_harness (caps, "height=1.2 pitch=-0.01 estimate-camera=true "
      "post-messages=true", stx_scene_rgba_buffer (scene), &summary);
  stx_evaluate_meta (scene, gst_buffer_get_cv_stixels_meta (out),
      DEPTH_TOLERANCE, &ev);
  fail_unless (summary != NULL);
  fail_unless (gst_structure_get (summary, "camera-height", G_TYPE_DOUBLE,
          &height, "camera-pitch", G_TYPE_DOUBLE, &pitch, "camera-estimated",
          G_TYPE_BOOLEAN, &estimated, NULL));
  g_print ("estimated pose: height %.4f m (rig %.2f), pitch %.5f rad (rig "
      "%.3f)\n", height, scene->params.pose.height, pitch,
      scene->params.pose.pitch);
  stx_print_eval ("estimate-camera from the wrong prior", &ev);
  fail_unless (estimated);
  fail_unless (fabs (height - scene->params.pose.height) < 0.03);
  fail_unless (fabs (pitch - scene->params.pose.pitch) < 0.002);
  fail_unless (ev.class_accuracy >= STX_MIN_CLASS_ACCURACY);
  fail_unless (ev.class_accuracy >= ev_true.class_accuracy - 0.005);
  fail_unless (ev.n_depth_bad == 0);
  gst_structure_free (summary);
  gst_buffer_unref (out);
  g_free (caps);
  stx_scene_free (scene);
}

GST_END_TEST;

/* ---- the left band --------------------------------------------------------- */

/* left-band: by default the meta's searched range (a matcher's, where the
 * right view does not see the scene), rounded up to whole stixels; the
 * stixels right of it are exactly those of the frame cut there. */
GST_START_TEST (test_left_band)
{
  const gint w = 640, h = 480, range = 128;
  const struct
  {
    const gchar *props;
    gint stixel_width, band;
  } cases[] = {
    {"", 5, 130},               /* 128 px rounded up to 26 stixels */
    {"stixel-width=8", 8, 128},
    {"left-band=0", 5, 0},
    {"left-band=33", 5, 35},
    {"left-band=33 stixel-width=8", 8, 40},
  };
  StxScene *scene = stx_scene_new (w, h, 8, 2, 0.0f, FALSE);
  gchar *caps = rgba_caps (scene), *crop_caps, *props;
  GstBuffer *full, *cut;
  GstCvStixelsMeta *mf, *mc;

  for (guint k = 0; k < G_N_ELEMENTS (cases); k++) {
    GstStructure *summary = NULL;
    StxMetaEval ev;
    guint n_columns;
    gint band;

    props = g_strdup_printf ("pitch=" SCENE_PITCH " post-messages=true %s",
        cases[k].props);
    full = run_harness (caps, props, stx_scene_band_buffer (scene, 0, w, range),
        &summary);
    mf = gst_buffer_get_cv_stixels_meta (full);
    stx_evaluate_meta (scene, mf, DEPTH_TOLERANCE, &ev);
    stx_print_eval (cases[k].props[0] ? cases[k].props : "auto", &ev);
    fail_unless_equals_int (mf->frame_width, w);
    fail_unless_equals_int (ev.left_band, cases[k].band);
    fail_unless (ev.class_accuracy >= STX_MIN_CLASS_ACCURACY);
    fail_unless (summary != NULL && gst_structure_get (summary, "left-band",
            G_TYPE_INT, &band, "n-columns", G_TYPE_UINT, &n_columns, NULL));
    fail_unless_equals_int (band, cases[k].band);
    fail_unless_equals_int (n_columns, (w - cases[k].band +
            cases[k].stixel_width - 1) / cases[k].stixel_width);
    for (guint i = 0; i < mf->n_stixels; i++)
      fail_unless (mf->stixels[i].column % cases[k].stixel_width == 0);
    gst_structure_free (summary);
    gst_buffer_unref (full);
    g_free (props);
  }

  /* the band's stixels are the cut frame's, moved right by the band
   * (disparity, confidence and invalid pixels at the same scene columns) */
  full = run_harness (caps, "pitch=" SCENE_PITCH, stx_scene_band_buffer (scene, 0,
          w, range), NULL);
  crop_caps = g_strdup_printf ("video/x-raw,format=RGBA,width=%d,height=%d,"
      "framerate=30/1", w - 130, h);
  cut = run_harness (crop_caps, "pitch=" SCENE_PITCH " left-band=0",
      stx_scene_band_buffer (scene, 130, w - 130, range), NULL);
  mf = gst_buffer_get_cv_stixels_meta (full);
  mc = gst_buffer_get_cv_stixels_meta (cut);
  fail_unless (mf != NULL && mc != NULL);
  fail_unless_equals_int (mf->n_stixels, mc->n_stixels);
  for (guint i = 0; i < mf->n_stixels; i++) {
    GstCvStixel moved = mc->stixels[i];
    moved.column += 130;
    fail_unless (memcmp (&moved, &mf->stixels[i], sizeof (moved)) == 0,
        "stixel %u: column %u rows %u..%u class %d cost %.9g, the cut "
        "frame's: column %u (+130) rows %u..%u class %d cost %.9g", i,
        mf->stixels[i].column, mf->stixels[i].top, mf->stixels[i].bottom,
        mf->stixels[i].stixel_class, mf->stixels[i].cost, mc->stixels[i].column,
        mc->stixels[i].top, mc->stixels[i].bottom, mc->stixels[i].stixel_class,
        mc->stixels[i].cost);
  }
  g_print ("left band 130 px: %u stixels, identical to the cut frame's\n",
      mf->n_stixels);
  gst_buffer_unref (full);
  gst_buffer_unref (cut);
  g_free (crop_caps);

  /* disparity frames carry no range: no band unless asked for */
  {
    gchar *gcaps = gray_caps (scene, "GRAY16_LE");
    StxMetaEval ev;

    props = calib_props (scene, "pitch=" SCENE_PITCH);
    full = run_harness (gcaps, props, stx_scene_gray16_buffer (scene, 1),
        NULL);
    stx_evaluate_meta (scene, gst_buffer_get_cv_stixels_meta (full),
        DEPTH_TOLERANCE, &ev);
    fail_unless_equals_int (ev.left_band, 0);
    gst_buffer_unref (full);
    g_free (props);
    props = calib_props (scene, "pitch=" SCENE_PITCH " left-band=40");
    full = run_harness (gcaps, props, stx_scene_gray16_buffer (scene, 1),
        NULL);
    stx_evaluate_meta (scene, gst_buffer_get_cv_stixels_meta (full),
        DEPTH_TOLERANCE, &ev);
    fail_unless_equals_int (ev.left_band, 40);
    gst_buffer_unref (full);
    g_free (props);
    g_free (gcaps);
  }

  /* a band as wide as the frame: no column was searched over the whole
   * range, the frame gets an empty meta (no error) */
  {
    gchar *gcaps = gray_caps (scene, "GRAY16_LE");
    gchar *band = g_strdup_printf ("pitch=" SCENE_PITCH " left-band=%d",
        scene->width);
    const GstCvStixelsMeta *meta;

    props = calib_props (scene, band);
    full = run_harness (gcaps, props, stx_scene_gray16_buffer (scene, 1),
        NULL);
    meta = gst_buffer_get_cv_stixels_meta (full);
    fail_unless (meta != NULL);
    fail_unless_equals_int (meta->n_stixels, 0);
    fail_unless_equals_int (meta->frame_width, scene->width);
    gst_buffer_unref (full);
    g_free (props);
    g_free (band);
    g_free (gcaps);
  }
  g_free (caps);
  stx_scene_free (scene);
}

GST_END_TEST;

/* ---- errors --------------------------------------------------------------- */

GST_START_TEST (test_missing_disparity)
{
  cv_test_expect_error ("videotestsrc num-buffers=1 ! "
      "video/x-raw,format=RGBA,width=64,height=48 ! cudastixels ! fakesink",
      "No disparity for this frame");
  cv_test_expect_error ("videotestsrc num-buffers=1 ! "
      "video/x-raw,format=NV12,width=64,height=48 ! cudastixels ! fakesink",
      "GstCvDisparityMeta");
}

GST_END_TEST;

GST_START_TEST (test_disparity_frame_needs_calibration)
{
  cv_test_expect_error ("videotestsrc num-buffers=1 ! "
      "video/x-raw,format=GRAY8,width=64,height=48 ! cudastixels ! fakesink",
      "focal-length and baseline");
  cv_test_expect_error ("videotestsrc num-buffers=1 ! "
      "video/x-raw,format=GRAY16_LE,width=64,height=48 ! "
      "cudastixels focal-length=500 ! fakesink", "baseline");
}

GST_END_TEST;

GST_START_TEST (test_disparity_size_mismatch)
{
  /* the meta is for the left view, the frame is the whole pair */
  cv_test_expect_error ("stereotestsrc attach-disparity=true num-buffers=1 "
      "supersample=1 ! video/x-raw,format=RGBA,width=320,height=120 ! "
      "cudastixels ! fakesink", "does not match the frame");
}

GST_END_TEST;

GST_START_TEST (test_too_many_rows)
{
  cv_test_expect_error ("videotestsrc num-buffers=1 pattern=black ! "
      "video/x-raw,format=GRAY8,width=16,height=4100 ! "
      "cudastixels focal-length=100 baseline=0.5 ! fakesink",
      "Stixels: 4100 rows / row-step 1 = 4100 cells per column, more than "
      "2048: raise row-step");
  cv_test_expect_eos ("videotestsrc num-buffers=1 pattern=black ! "
      "video/x-raw,format=GRAY8,width=16,height=4100 ! "
      "cudastixels focal-length=100 baseline=0.5 row-step=4 ! fakesink");
}

GST_END_TEST;

/* ---- overlay -------------------------------------------------------------- */

static guint8
blend (guint8 dst, guint8 src, guint8 a)
{
  return (guint8) ((src * a + dst * (255 - a) + 127) / 255);
}

/* The colour cudastixels paints pixel (x, y) of stixel @s with, or FALSE
 * when it leaves the pixel alone. */
static gboolean
paint_of (const GstCvStixel * s, gint x, gint y, CvColor * c)
{
  gboolean ring = x == s->column || x == s->column + s->width - 1
      || y == s->top || y == s->bottom;
  gfloat t = s->depth > 0.0f ? s->depth / 40.0f : 1.0f;

  switch (s->stixel_class) {
    case GST_CV_STIXEL_OBJECT:
      *c = cv_color_ramp (t, ring ? 255 : 96);
      return TRUE;
    case GST_CV_STIXEL_GROUND:
      *c = (CvColor) {
      0, 160, 255, 48};
      return TRUE;
    default:
      return FALSE;
  }
}

GST_START_TEST (test_overlay_only_when_on)
{
  StxScene *scene = stx_scene_new (640, 480, 8, 2, 0.0f, TRUE);
  gchar *caps = rgba_caps (scene);
  GstBuffer *in = stx_scene_rgba_buffer (scene);
  GstBuffer *off, *on;
  GstMapInfo a, b, c;
  GstCvStixelsMeta *meta;
  guint changed = 0, objects = 0;

  off = run_harness (caps, "pitch=" SCENE_PITCH, gst_buffer_copy_deep (in),
      NULL);
  on = run_harness (caps, "pitch=" SCENE_PITCH " overlay=true",
      gst_buffer_copy_deep (in), NULL);
  gst_buffer_map (in, &a, GST_MAP_READ);
  gst_buffer_map (off, &b, GST_MAP_READ);
  gst_buffer_map (on, &c, GST_MAP_READ);
  fail_unless (a.size == b.size && a.size == c.size);
  fail_unless (memcmp (a.data, b.data, a.size) == 0,
      "overlay=false changed the frame");

  /* every pixel: what the documented look says, computed independently */
  meta = gst_buffer_get_cv_stixels_meta (on);
  fail_unless (meta != NULL);
  for (guint i = 0; i < meta->n_stixels; i++) {
    const GstCvStixel *s = &meta->stixels[i];
    objects += s->stixel_class == GST_CV_STIXEL_OBJECT;
    for (gint y = s->top; y <= s->bottom; y++)
      for (gint x = s->column; x < s->column + s->width; x++) {
        gsize o = ((gsize) y * scene->width + x) * 4;
        CvColor col;
        guint8 expect[4];

        memcpy (expect, a.data + o, 4);
        if (paint_of (s, x, y, &col)) {
          expect[0] = blend (expect[0], col.r, col.a);
          expect[1] = blend (expect[1], col.g, col.a);
          expect[2] = blend (expect[2], col.b, col.a);
        }
        fail_unless (memcmp (expect, c.data + o, 4) == 0,
            "pixel (%d, %d) of a class %d stixel: %u %u %u %u, expected "
            "%u %u %u %u", x, y, s->stixel_class, c.data[o], c.data[o + 1],
            c.data[o + 2], c.data[o + 3], expect[0], expect[1], expect[2],
            expect[3]);
        changed += memcmp (a.data + o, c.data + o, 4) != 0;
      }
  }
  g_print ("overlay changed %u pixels (%u object stixels)\n", changed,
      objects);
  fail_unless (objects > 10 && changed > 1000);
  gst_buffer_unmap (in, &a);
  gst_buffer_unmap (off, &b);
  gst_buffer_unmap (on, &c);
  gst_buffer_unref (in);
  gst_buffer_unref (off);
  gst_buffer_unref (on);
  g_free (caps);
  stx_scene_free (scene);
}

GST_END_TEST;

/* Which rectangles touch each chroma sample (2x2 block) / each pixel. */
static void
coverage (const CvDrawList * draw, gint w, gint h, gint block,
    guint8 * count)
{
  gint bw = (w + block - 1) / block, bh = (h + block - 1) / block;

  memset (count, 0, (gsize) bw * bh);
  for (gint i = 0; i < draw->n_rects; i++) {
    const CvDrawRect *r = &draw->rects[i];
    fail_unless (r->w > 0 && r->h > 0 && r->x >= 0 && r->y >= 0
        && r->x + r->w <= w && r->y + r->h <= h);
    for (gint by = r->y / block; by <= (r->y + r->h - 1) / block; by++)
      for (gint bx = r->x / block; bx <= (r->x + r->w - 1) / block; bx++)
        count[by * bw + bx]++;
  }
}

/* The overlay's boxes never share a pixel, and on NV12 / I420 never a
 * chroma sample (the GPU blends them in parallel). */
GST_START_TEST (test_overlay_boxes_disjoint)
{
  guint32 rng = 7;

  for (gint trial = 0; trial < 200; trial++) {
    gint w = 1 + cv_test_rand (&rng) % 61, h = 1 + cv_test_rand (&rng) % 47;
    gint sw = 1 + cv_test_rand (&rng) % 7;
    GArray *list = g_array_new (FALSE, FALSE, sizeof (GstCvStixel));
    GstCvStixelsOutput out = { 0 };
    CvDrawList draw;
    guint8 *count = g_malloc ((gsize) w * h);
    guint64 painted = 0, expected = 0;

    for (gint x = 0; x < w; x += sw) {
      gint bottom = h - 1;
      while (bottom >= 0) {
        GstCvStixel s = { 0 };
        gint len = 1 + cv_test_rand (&rng) % 9;
        s.column = x;
        s.width = MIN (sw, w - x);
        s.bottom = bottom;
        s.top = MAX (0, bottom - len + 1);
        s.stixel_class = cv_test_rand (&rng) % 3;
        s.depth = (gfloat) (cv_test_rand (&rng) % 50);
        if (s.stixel_class != GST_CV_STIXEL_SKY)
          expected += (guint64) s.width * (s.bottom - s.top + 1);
        g_array_append_val (list, s);
        bottom = s.top - 1;
      }
    }
    for (gint even = 0; even < 2; even++) {
      const CvStixelsOverlay look = { w, h, even, 40.0 };

      gst_cv_stixels_output_build_overlay (&out,
          (GstCvStixel *) list->data, list->len, &look, &draw);
      coverage (&draw, w, h, 1, count);
      painted = 0;
      for (gint i = 0; i < w * h; i++) {
        fail_unless (count[i] <= 1, "%dx%d: pixel %d in %u boxes", w, h, i,
            count[i]);
        painted += count[i];
      }
      if (!even) {
        fail_unless (painted == expected, "%dx%d: %" G_GUINT64_FORMAT
            " pixels painted, %" G_GUINT64_FORMAT " in ground/object "
            "stixels", w, h, painted, expected);
      } else {
        gint bw = (w + 1) / 2, bh = (h + 1) / 2;
        coverage (&draw, w, h, 2, count);
        for (gint i = 0; i < bw * bh; i++)
          fail_unless (count[i] <= 1, "%dx%d stixel width %d: chroma "
              "sample %d in %u boxes", w, h, sw, i, count[i]);
      }
    }
    gst_cv_stixels_output_clear (&out);
    g_array_unref (list);
    g_free (count);
  }
}

GST_END_TEST;

/* ---- messages ------------------------------------------------------------- */

GST_START_TEST (test_post_messages)
{
  StxScene *scene = stx_scene_new (640, 480, 8, 1, 0.0f, FALSE);
  gchar *caps = rgba_caps (scene);
  GstHarness *h = stx_harness_new (caps);
  GstStructure *s;

  /* every column (left-band=0): n-columns below */
  set_props (h->element, "pitch=" SCENE_PITCH " left-band=0");
  for (gint frame = 0; frame < 2; frame++) {
    gboolean post = frame == 1;
    GstBuffer *in = stx_scene_rgba_buffer (scene), *out;
    GstCvStixelsMeta *meta;
    guint n_stixels, n_objects, n_ground, n_sky, n_columns;
    gint column, width, band;
    gdouble depth, best = G_MAXDOUBLE;
    guint64 ts;
    guint objects = 0, ground = 0, sky = 0;
    const GstCvStixel *nearest = NULL;

    g_object_set (h->element, "post-messages", post, NULL);
    GST_BUFFER_PTS (in) = frame * 40 * GST_MSECOND;
    out = stx_harness_run (h, in);
    fail_unless (out != NULL);
    s = stx_harness_pop_summary (h);
    if (!post) {
      fail_unless (s == NULL, "a message with post-messages=false");
      gst_buffer_unref (out);
      continue;
    }
    fail_unless (s != NULL, "no cudastixels message");
    meta = gst_buffer_get_cv_stixels_meta (out);
    for (guint i = 0; i < meta->n_stixels; i++) {
      const GstCvStixel *st = &meta->stixels[i];
      objects += st->stixel_class == GST_CV_STIXEL_OBJECT;
      ground += st->stixel_class == GST_CV_STIXEL_GROUND;
      sky += st->stixel_class == GST_CV_STIXEL_SKY;
      if (st->stixel_class == GST_CV_STIXEL_OBJECT && st->depth > 0.0f
          && st->depth < best) {
        best = st->depth;
        nearest = st;
      }
    }
    fail_unless (gst_structure_get (s, "n-stixels", G_TYPE_UINT, &n_stixels,
            "n-objects", G_TYPE_UINT, &n_objects, "n-ground", G_TYPE_UINT,
            &n_ground, "n-sky", G_TYPE_UINT, &n_sky, "n-columns",
            G_TYPE_UINT, &n_columns, "left-band", G_TYPE_INT, &band,
            "nearest-depth", G_TYPE_DOUBLE, &depth,
            "nearest-column", G_TYPE_INT, &column, "nearest-width",
            G_TYPE_INT, &width, "timestamp", G_TYPE_UINT64, &ts, NULL),
        "fields missing in %" GST_PTR_FORMAT, s);
    fail_unless_equals_int (n_stixels, meta->n_stixels);
    fail_unless_equals_int (n_objects, objects);
    fail_unless_equals_int (n_ground, ground);
    fail_unless_equals_int (n_sky, sky);
    fail_unless_equals_int (n_columns, (640 + 4) / 5);
    fail_unless_equals_int (band, 0);
    fail_unless (nearest != NULL);
    fail_unless (depth == nearest->depth && column == nearest->column
        && width == nearest->width);
    fail_unless (ts == 40 * GST_MSECOND);
    /* the nearest box of this scene, from the ground truth */
    {
      gdouble gt_best = G_MAXDOUBLE;
      for (gint i = 0; i < scene->width * scene->height; i++)
        if (scene->labels[i] == CV_SCENE_OBJECT)
          gt_best = MIN (gt_best, stx_scene_fb (scene) / scene->disparity[i]);
      g_print ("nearest object %.2f m at column %d (ground truth %.2f m)\n",
          depth, column, gt_best);
      fail_unless (fabs (depth - gt_best) < 0.05 * gt_best);
    }
    gst_structure_free (s);
    gst_buffer_unref (out);
  }
  gst_harness_teardown (h);
  g_free (caps);
  stx_scene_free (scene);
}

GST_END_TEST;

/* ---- resolution ----------------------------------------------------------- */

GST_START_TEST (test_resolution_variants)
{
  const gint variants[][2] = { {8, 8}, {4, 4}, {7, 3}, {1, 1}, {5, 2} };
  StxScene *scene = stx_scene_new (640, 480, 8, 4, 0.0f, FALSE);
  gchar *caps = rgba_caps (scene);

  for (guint v = 0; v < G_N_ELEMENTS (variants); v++) {
    gint sw = variants[v][0], rs = variants[v][1];
    gchar *props = g_strdup_printf ("pitch=" SCENE_PITCH " stixel-width=%d "
        "row-step=%d", sw, rs);
    gchar *what = g_strdup_printf ("stixel-width %d row-step %d", sw, rs);
    GstBuffer *out = run_harness (caps, props, stx_scene_rgba_buffer (scene),
        NULL);
    GstCvStixelsMeta *meta = gst_buffer_get_cv_stixels_meta (out);
    StxMetaEval ev;

    stx_evaluate_meta (scene, meta, DEPTH_TOLERANCE, &ev);
    stx_print_eval (what, &ev);
    for (guint i = 0; i < meta->n_stixels; i++) {
      const GstCvStixel *s = &meta->stixels[i];
      fail_unless (s->column % sw == 0);
      fail_unless (s->width == MIN (sw, 640 - s->column));
      fail_unless (s->top % rs == 0, "%s: top %u", what, s->top);
      fail_unless ((s->bottom + 1) % rs == 0 || s->bottom == 479);
    }
    fail_unless (ev.class_accuracy >= STX_MIN_CLASS_ACCURACY, "%s: %.4f",
        what, ev.class_accuracy);
    fail_unless (ev.n_depth_bad == 0, "%s", what);
    gst_buffer_unref (out);
    g_free (props);
    g_free (what);
  }
  g_free (caps);
  stx_scene_free (scene);
}

GST_END_TEST;

/* Properties change between frames (the per-frame snapshot). */
GST_START_TEST (test_change_while_playing)
{
  StxScene *scene = stx_scene_new (320, 240, 4, 1, 0.0f, FALSE);
  gchar *caps = rgba_caps (scene);
  GstHarness *h = stx_harness_new (caps);

  for (gint sw = 3; sw <= 9; sw += 3) {
    GstBuffer *out;
    GstCvStixelsMeta *meta;

    g_object_set (h->element, "stixel-width", sw, NULL);
    out = stx_harness_run (h, stx_scene_rgba_buffer (scene));
    meta = gst_buffer_get_cv_stixels_meta (out);
    fail_unless (meta != NULL && meta->stixels[0].width == sw);
    gst_buffer_unref (out);
  }
  gst_harness_teardown (h);
  g_free (caps);
  stx_scene_free (scene);
}

GST_END_TEST;

/* More rows than a CUDA thread block has threads (rows per thread > 1 on
 * the GPU; the same model on the CPU).  The meta carries the near road's
 * disparities (up to ~340 px at 2048 rows), which GRAY16_LE could not. */
GST_START_TEST (test_tall_frame)
{
  CvSceneParams params;
  StxScene *scene;
  gchar *caps;
  GstBuffer *out;
  StxMetaEval ev;

  cv_scene_params_init (&params, 192, 2048, 12, 9);
  /* a lens that sees the road and the boxes at this aspect ratio */
  params.calib.focal_length = 900.0f;
  params.supersample = 1;
  scene = stx_scene_new_from_params (&params, FALSE);
  caps = rgba_caps (scene);
  /* the ground truth reaches ~340 px: its range would be a left band wider
   * than the frame */
  out = run_harness (caps, "pitch=" SCENE_PITCH " left-band=0",
      stx_scene_rgba_buffer (scene), NULL);
  stx_evaluate_meta (scene, gst_buffer_get_cv_stixels_meta (out),
      DEPTH_TOLERANCE, &ev);
  stx_print_eval ("RGBA 192x2048", &ev);
  fail_unless_equals_int (ev.left_band, 0);
  fail_unless (ev.class_accuracy >= STX_MIN_CLASS_ACCURACY);
  fail_unless (ev.n_depth_checked >= 5 && ev.n_depth_bad == 0);
  gst_buffer_unref (out);
  g_free (caps);
  stx_scene_free (scene);
}

GST_END_TEST;

/* max-disparity: nearer than f B / max is invalid, so nothing is seen
 * nearer than that. */
GST_START_TEST (test_max_disparity)
{
  StxScene *scene = stx_scene_new (640, 480, 8, 1, 0.0f, FALSE);
  gchar *caps = rgba_caps (scene);
  GstStructure *s;
  GstBuffer *out;
  gdouble depth_default, depth_limited;
  const gint max_d = 12;
  gchar *props;

  out = run_harness (caps, "pitch=" SCENE_PITCH " post-messages=true",
      stx_scene_rgba_buffer (scene), &s);
  gst_structure_get_double (s, "nearest-depth", &depth_default);
  gst_structure_free (s);
  gst_buffer_unref (out);
  props = g_strdup_printf ("pitch=" SCENE_PITCH " post-messages=true "
      "max-disparity=%d", max_d);
  out = run_harness (caps, props, stx_scene_rgba_buffer (scene), &s);
  gst_structure_get_double (s, "nearest-depth", &depth_limited);
  gst_structure_free (s);
  gst_buffer_unref (out);
  g_print ("nearest object %.2f m; with max-disparity=%d %.2f m (limit "
      "%.2f m)\n", depth_default, max_d, depth_limited,
      stx_scene_fb (scene) / max_d);
  fail_unless (depth_default < stx_scene_fb (scene) / max_d);
  fail_unless (depth_limited >= 0.95 * stx_scene_fb (scene) / max_d);
  g_free (props);
  g_free (caps);
  stx_scene_free (scene);
}

GST_END_TEST;

GST_START_TEST (test_no_transfers_on_cpu)
{
  StxScene *scene = stx_scene_new (320, 240, 4, 1, 0.0f, FALSE);
  GstBuffer *inputs[2] = { stx_scene_rgba_buffer (scene),
    stx_scene_rgba_buffer (scene)
  };
  gchar *caps = rgba_caps (scene);
  StxRun *run = stx_run_chain (NULL, inputs, caps, NULL, 2,
      "overlay=true estimate-camera=true", FALSE, NULL, NULL);

  fail_unless (run->transfer_bytes == 0, "%" G_GUINT64_FORMAT " bytes on "
      "the CPU path", run->transfer_bytes);
  stx_run_free (run);
  gst_buffer_unref (inputs[0]);
  gst_buffer_unref (inputs[1]);
  g_free (caps);
  stx_scene_free (scene);
}

GST_END_TEST;

static Suite *
stixels_suite (void)
{
  Suite *s = suite_create ("cudastixels");
  TCase *tc = tcase_create ("general");

  tcase_set_timeout (tc, 120);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_defaults_are_the_core_defaults);
  tcase_add_test (tc, test_properties_round_trip);
  tcase_add_test (tc, test_system_formats);
  tcase_add_test (tc, test_unsupported_format);
  tcase_add_test (tc, test_accuracy_side_by_side);
  tcase_add_test (tc, test_accuracy_top_bottom);
  tcase_add_test (tc, test_gray16_disparity_frame);
  tcase_add_test (tc, test_gray8_disparity_frame);
  tcase_add_test (tc, test_estimate_camera);
  tcase_add_test (tc, test_left_band);
  tcase_add_test (tc, test_missing_disparity);
  tcase_add_test (tc, test_disparity_frame_needs_calibration);
  tcase_add_test (tc, test_disparity_size_mismatch);
  tcase_add_test (tc, test_too_many_rows);
  tcase_add_test (tc, test_overlay_only_when_on);
  tcase_add_test (tc, test_overlay_boxes_disjoint);
  tcase_add_test (tc, test_post_messages);
  tcase_add_test (tc, test_resolution_variants);
  tcase_add_test (tc, test_change_while_playing);
  tcase_add_test (tc, test_tall_frame);
  tcase_add_test (tc, test_max_disparity);
  tcase_add_test (tc, test_no_transfers_on_cpu);
  return s;
}

GST_CHECK_MAIN (stixels);
