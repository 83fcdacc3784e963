/* cudasgm on system memory: negotiation of both packings and every format,
 * the three output modes, every property (the element's result is the
 * core CPU reference's with the matching parameters, bit for bit), the
 * meta (calibration, range, confidence), properties changed while
 * PLAYING, post-messages, special images and the errors for bad input.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gst/check/gstcheck.h>
#include <gst/app/gstappsrc.h>
#include <math.h>
#include <string.h>

#include "cv_frame.h"
#include "cv_test.h"
#include "gstcvframe.h"
#include "cvtestutil.h"
#include "sgm_element_util.h"

/* One view: small enough for a quick CPU reference, wide enough for
 * D = 32 and a few boxes. */
#define VIEW_W 160
#define VIEW_H 96
#define BASE_D 32

static SgmTestScene scene;

static const GstVideoFormat system_formats[] = {
  GST_VIDEO_FORMAT_NV12, GST_VIDEO_FORMAT_I420, GST_VIDEO_FORMAT_Y444,
  GST_VIDEO_FORMAT_RGBA, GST_VIDEO_FORMAT_BGRA, GST_VIDEO_FORMAT_RGBx,
  GST_VIDEO_FORMAT_BGRx, GST_VIDEO_FORMAT_GRAY8, GST_VIDEO_FORMAT_GRAY16_LE,
};

typedef struct
{
  GstBuffer *frame;
  GstVideoInfo info;
  GstCaps *caps;
  gboolean top_bottom, right_first;
} Pair;

/* The scene packed as @format; multiview-mode in the caps when
 * @mode_in_caps, else the element's layout property must say it. */
static Pair
make_pair_from (const guint8 * left, const guint8 * right,
    GstVideoFormat format, gboolean top_bottom, gboolean mode_in_caps,
    gboolean right_first)
{
  Pair p;

  p.top_bottom = top_bottom;
  p.right_first = right_first;
  p.frame = sgm_test_pack_pair (left, right, VIEW_W, VIEW_H, format,
      top_bottom, right_first, &p.info);
  p.caps = sgm_test_pair_caps (&p.info, mode_in_caps ? (top_bottom ?
          "top-bottom" : "side-by-side") : NULL, right_first ?
      GST_VIDEO_MULTIVIEW_FLAGS_RIGHT_VIEW_FIRST : 0);
  return p;
}

static Pair
make_pair (GstVideoFormat format, gboolean top_bottom, gboolean mode_in_caps)
{
  return make_pair_from (scene.left, scene.right, format, top_bottom,
      mode_in_caps, FALSE);
}

static void
clear_pair (Pair * p)
{
  gst_buffer_unref (p->frame);
  gst_caps_unref (p->caps);
}

static void
base_params (CvSgmParams * p)
{
  cv_sgm_params_init (p);
  p->max_disparity = BASE_D;
}

/* Runs one frame of @pair through @middle; @caps_out (optional) gets the
 * output caps. */
static GstBuffer *
run_pair (const gchar * middle, const Pair * pair, GstCaps ** caps_out)
{
  SgmTestPipe *pipe = sgm_test_pipe_new (middle, pair->caps);
  GstBuffer *out = sgm_test_pipe_process (pipe, pair->frame);

  if (caps_out)
    *caps_out = sgm_test_pipe_output_caps (pipe);
  sgm_test_pipe_free (pipe);
  return out;
}

/* Asserts that @out carries a meta equal to the CPU reference of @pair
 * with @params. */
static void
check_meta (GstBuffer * out, const Pair * pair, const CvSgmParams * params,
    const gchar * what)
{
  GstCvDisparityMeta *meta = gst_buffer_get_cv_disparity_meta (out);
  gsize n = (gsize) VIEW_W * VIEW_H;
  gint16 *disparity = g_new (gint16, n);
  guint8 *confidence = g_malloc (n);

  fail_unless (meta != NULL, "%s: no disparity meta", what);
  fail_unless_equals_int (meta->width, VIEW_W);
  fail_unless_equals_int (meta->height, VIEW_H);
  fail_unless_equals_int (meta->min_disparity, params->min_disparity);
  fail_unless_equals_int (meta->max_disparity,
      params->min_disparity + params->max_disparity);
  fail_unless (meta->has_confidence, "%s: no confidence", what);
  fail_if (meta->on_device, "%s: system memory gave device data", what);
  sgm_test_reference (pair->frame, &pair->info, pair->top_bottom,
      pair->right_first, params, disparity, confidence);
  fail_unless (sgm_test_compare_meta (meta, disparity, confidence, what) == 0,
      "%s: the meta differs from the CPU reference", what);
  g_free (disparity);
  g_free (confidence);
}

/* The left view of @pair as RGBA (and, for GRAY16_LE, the raw values). */
static void
expected_left_rgba (const Pair * pair, guint8 * rgba)
{
  GstVideoFrame vframe;
  CvFrame frame, view;
  CvImageU8 out = { rgba, VIEW_W, VIEW_H, VIEW_W * 4 };
  CvError err = { 0 };
  gint x = pair->right_first && !pair->top_bottom ? VIEW_W : 0;
  gint y = pair->right_first && pair->top_bottom ? VIEW_H : 0;

  fail_unless (gst_video_frame_map (&vframe, (GstVideoInfo *) & pair->info,
          pair->frame, GST_MAP_READ));
  gst_cv_frame_from_video_frame (&vframe, &frame);
  fail_unless (cv_frame_crop (&frame, x, y, VIEW_W, VIEW_H, &view, &err)
      == CV_OK, "%s", err.message);
  fail_unless (cv_frame_to_rgba_cpu (&view, &out, &err) == CV_OK, "%s",
      err.message);
  gst_video_frame_unmap (&vframe);
}

/* Asserts that @out (caps @caps) is the left view of @pair. */
static void
check_left_view (GstBuffer * out, GstCaps * caps, const Pair * pair,
    const gchar * what)
{
  GstVideoInfo info;
  GstVideoFrame vframe;
  CvFrame frame;
  guint8 *got = g_malloc (VIEW_W * VIEW_H * 4);
  guint8 *want = g_malloc (VIEW_W * VIEW_H * 4);
  CvImageU8 rgba = { got, VIEW_W, VIEW_H, VIEW_W * 4 };
  CvError err = { 0 };

  fail_unless (gst_video_info_from_caps (&info, caps));
  fail_unless_equals_int (GST_VIDEO_INFO_FORMAT (&info),
      GST_VIDEO_INFO_FORMAT (&pair->info));
  fail_unless_equals_int (GST_VIDEO_INFO_WIDTH (&info), VIEW_W);
  fail_unless_equals_int (GST_VIDEO_INFO_HEIGHT (&info), VIEW_H);
  fail_unless (gst_video_frame_map (&vframe, &info, out, GST_MAP_READ));
  gst_cv_frame_from_video_frame (&vframe, &frame);
  fail_unless (cv_frame_to_rgba_cpu (&frame, &rgba, &err) == CV_OK, "%s",
      err.message);
  expected_left_rgba (pair, want);
  fail_unless (memcmp (got, want, VIEW_W * VIEW_H * 4) == 0,
      "%s: the output is not the left view", what);
  if (GST_VIDEO_INFO_FORMAT (&info) == GST_VIDEO_FORMAT_GRAY16_LE) {
    /* RGBA keeps only the high byte: compare the raw values too */
    GstVideoFrame in;
    gint x0 = pair->top_bottom ? 0 : (pair->right_first ? VIEW_W : 0);
    gint y0 = pair->top_bottom ? (pair->right_first ? VIEW_H : 0) : 0;

    fail_unless (gst_video_frame_map (&in, (GstVideoInfo *) & pair->info,
            pair->frame, GST_MAP_READ));
    for (gint y = 0; y < VIEW_H; y++)
      fail_unless (memcmp ((guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&vframe, 0)
              + y * GST_VIDEO_FRAME_PLANE_STRIDE (&vframe, 0),
              (guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&in, 0)
              + (y0 + y) * GST_VIDEO_FRAME_PLANE_STRIDE (&in, 0) + 2 * x0,
              2 * VIEW_W) == 0, "%s: GRAY16 row %d differs", what, y);
    gst_video_frame_unmap (&in);
  }
  gst_video_frame_unmap (&vframe);
  g_free (got);
  g_free (want);
}

/* ---- defaults and properties ------------------------------------------- */

GST_START_TEST (test_defaults)
{
  GstElement *e = gst_element_factory_make ("cudasgm", NULL);
  CvSgmParams p;
  gint max_d, min_d, p1, p2, scale, paths, census, lr_diff, layout, output;
  gboolean adaptive, subpixel, lr, median;
  gdouble uniqueness, focal, px, py, baseline;

  fail_unless (e != NULL, "cudasgm is not registered");
  cv_sgm_params_init (&p);
  g_object_get (e, "max-disparity", &max_d, "min-disparity", &min_d, "p1",
      &p1, "p2", &p2, "adaptive-p2", &adaptive, "adaptive-p2-scale", &scale,
      "paths", &paths, "census", &census, "subpixel", &subpixel,
      "uniqueness", &uniqueness, "lr-check", &lr, "lr-max-diff", &lr_diff,
      "median", &median, "layout", &layout, "output", &output,
      "focal-length", &focal, "principal-x", &px, "principal-y", &py,
      "baseline", &baseline, NULL);
  /* the element's defaults are the core's documented ones */
  fail_unless_equals_int (max_d, p.max_disparity);
  fail_unless_equals_int (min_d, p.min_disparity);
  fail_unless_equals_int (p1, p.p1);
  fail_unless_equals_int (p2, p.p2);
  fail_unless_equals_int (adaptive, p.adaptive_p2);
  fail_unless_equals_int (scale, p.adaptive_p2_scale);
  fail_unless_equals_int (paths, p.paths);
  fail_unless_equals_int (census, (gint) p.census);
  fail_unless_equals_int (subpixel, p.subpixel);
  fail_unless (fabs (uniqueness - p.uniqueness) < 1e-6);
  fail_unless_equals_int (lr, p.lr_check);
  fail_unless_equals_int (lr_diff, p.lr_max_diff);
  fail_unless_equals_int (median, p.median);
  /* and the ones the issue fixes */
  fail_unless_equals_int (max_d, 128);
  fail_unless_equals_int (p1, 10);
  fail_unless_equals_int (p2, 63);
  fail_unless_equals_int (paths, 8);
  fail_unless_equals_int (census, CV_SGM_CENSUS_CS_9X7);
  fail_unless (adaptive && subpixel && lr && median);
  fail_unless (fabs (uniqueness - 0.95) < 1e-9);
  fail_unless_equals_int (lr_diff, 1);
  fail_unless_equals_int (layout, 0);   /* side-by-side */
  fail_unless_equals_int (output, 0);   /* left */
  fail_unless (focal == 0.0 && baseline == 0.0 && px == -1.0 && py == -1.0);
  gst_object_unref (e);
}

GST_END_TEST;

GST_START_TEST (test_property_round_trip)
{
  const struct
  {
    const gchar *name, *value;
  } props[] = {
    {"max-disparity", "96"}, {"min-disparity", "7"}, {"p1", "12"},
    {"p2", "150"}, {"adaptive-p2", "false"}, {"adaptive-p2-scale", "17"},
    {"paths", "4"}, {"census", "9x7"}, {"subpixel", "false"},
    {"uniqueness", "0.75"}, {"lr-check", "false"}, {"lr-max-diff", "3"},
    {"median", "false"}, {"layout", "top-bottom"},
    {"output", "disparity-color"}, {"focal-length", "721.5"},
    {"principal-x", "609.5"}, {"principal-y", "172.75"},
    {"baseline", "0.54"}, {"post-messages", "true"},
  };
  GstElement *e = gst_element_factory_make ("cudasgm", NULL);

  for (guint i = 0; i < G_N_ELEMENTS (props); i++) {
    GParamSpec *spec = g_object_class_find_property (G_OBJECT_GET_CLASS (e),
        props[i].name);
    GValue v = G_VALUE_INIT;
    gchar *s;

    fail_unless (spec != NULL, "no property %s", props[i].name);
    fail_unless (spec->flags & G_PARAM_STATIC_STRINGS);
    fail_unless (g_param_spec_get_blurb (spec) != NULL);
    gst_util_set_object_arg (G_OBJECT (e), props[i].name, props[i].value);
    g_value_init (&v, spec->value_type);
    g_object_get_property (G_OBJECT (e), props[i].name, &v);
    s = gst_value_serialize (&v);
    if (G_VALUE_HOLDS_DOUBLE (&v))
      fail_unless (fabs (g_value_get_double (&v) -
              g_ascii_strtod (props[i].value, NULL)) < 1e-9,
          "%s: set %s, got %s", props[i].name, props[i].value, s);
    else
      fail_unless (g_strcmp0 (s, props[i].value) == 0,
          "%s: set %s, got %s", props[i].name, props[i].value, s);
    g_free (s);
    g_value_unset (&v);
  }
  gst_object_unref (e);
}

GST_END_TEST;

/* ---- packings and formats ---------------------------------------------- */

GST_START_TEST (test_formats_and_packings)
{
  CvSgmParams params;

  base_params (&params);
  for (guint f = 0; f < G_N_ELEMENTS (system_formats); f++) {
    for (gint k = 0; k < 4; k++) {
      gboolean top_bottom = k & 1, mode_in_caps = (k & 2) != 0;
      Pair pair = make_pair (system_formats[f], top_bottom, mode_in_caps);
      /* without multiview-mode the layout property decides; with it, a
       * contradicting property must not matter */
      gchar *middle = g_strdup_printf ("cudasgm max-disparity=%d layout=%s",
          BASE_D, (top_bottom != mode_in_caps) ? "top-bottom" :
          "side-by-side");
      gchar *what = g_strdup_printf ("%s %s (%s)",
          gst_video_format_to_string (system_formats[f]),
          top_bottom ? "top-bottom" : "side-by-side",
          mode_in_caps ? "multiview-mode" : "layout property");
      GstCaps *caps;
      GstBuffer *out = run_pair (middle, &pair, &caps);
      GstStructure *s = gst_caps_get_structure (caps, 0);

      fail_if (gst_structure_has_field (s, "multiview-mode"),
          "%s: output caps keep multiview-mode: %" GST_PTR_FORMAT, what, caps);
      check_left_view (out, caps, &pair, what);
      check_meta (out, &pair, &params, what);
      gst_buffer_unref (out);
      gst_caps_unref (caps);
      clear_pair (&pair);
      g_free (middle);
      g_free (what);
    }
  }
}

GST_END_TEST;

GST_START_TEST (test_right_view_first)
{
  CvSgmParams params;

  base_params (&params);
  for (gint top_bottom = 0; top_bottom < 2; top_bottom++) {
    Pair pair = make_pair_from (scene.left, scene.right,
        GST_VIDEO_FORMAT_RGBA, top_bottom, TRUE, TRUE);
    GstCaps *caps;
    GstBuffer *out = run_pair ("cudasgm max-disparity=32", &pair, &caps);

    check_left_view (out, caps, &pair, "right-view-first");
    check_meta (out, &pair, &params, "right-view-first");
    gst_buffer_unref (out);
    gst_caps_unref (caps);
    clear_pair (&pair);
  }
}

GST_END_TEST;

/* ---- output modes ------------------------------------------------------ */

GST_START_TEST (test_output_color)
{
  const struct
  {
    GstVideoFormat format;
    gboolean top_bottom;
    gint min_disparity;
  } cases[] = {
    {GST_VIDEO_FORMAT_NV12, FALSE, 0},
    {GST_VIDEO_FORMAT_GRAY8, TRUE, 0},
    {GST_VIDEO_FORMAT_RGBA, FALSE, 4},
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++) {
    Pair pair = make_pair (cases[i].format, cases[i].top_bottom, TRUE);
    gchar *middle = g_strdup_printf ("cudasgm max-disparity=32 "
        "min-disparity=%d output=disparity-color", cases[i].min_disparity);
    GstCaps *caps;
    GstBuffer *out = run_pair (middle, &pair, &caps);
    GstCvDisparityMeta *meta = gst_buffer_get_cv_disparity_meta (out);
    GstVideoInfo info;
    GstVideoFrame vframe;
    gint16 *disparity = g_new (gint16, VIEW_W * VIEW_H);
    guint8 *want = g_malloc (VIEW_W * VIEW_H * 4);
    CvImageS16 d = { disparity, VIEW_W, VIEW_H, VIEW_W * 2 };
    CvImageU8 rgba = { want, VIEW_W, VIEW_H, VIEW_W * 4 };
    CvError err = { 0 };
    CvSgmParams params;

    fail_unless (gst_video_info_from_caps (&info, caps));
    fail_unless_equals_int (GST_VIDEO_INFO_FORMAT (&info),
        GST_VIDEO_FORMAT_RGBA);
    fail_unless_equals_int (GST_VIDEO_INFO_WIDTH (&info), VIEW_W);
    fail_unless_equals_int (GST_VIDEO_INFO_HEIGHT (&info), VIEW_H);
    fail_if (gst_caps_features_contains (gst_caps_get_features (caps, 0),
            "memory:CUDAMemory"));
    /* the meta is attached in this mode too */
    base_params (&params);
    params.min_disparity = cases[i].min_disparity;
    check_meta (out, &pair, &params, "disparity-color");
    /* the image is the colour map of the meta over the searched range */
    sgm_test_meta_data (meta, disparity, NULL);
    fail_unless (cv_disparity_to_color_cpu (&d, cases[i].min_disparity,
            cases[i].min_disparity + 32, &rgba, &err) == CV_OK);
    fail_unless (gst_video_frame_map (&vframe, &info, out, GST_MAP_READ));
    for (gint y = 0; y < VIEW_H; y++)
      fail_unless (memcmp ((guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&vframe, 0)
              + y * GST_VIDEO_FRAME_PLANE_STRIDE (&vframe, 0),
              want + y * VIEW_W * 4, VIEW_W * 4) == 0,
          "disparity-color row %d is not the colour map", y);
    gst_video_frame_unmap (&vframe);

    gst_buffer_unref (out);
    gst_caps_unref (caps);
    clear_pair (&pair);
    g_free (middle);
    g_free (disparity);
    g_free (want);
  }
}

GST_END_TEST;

/* Asserts that the GRAY16_LE frame @out holds the meta's disparity x 16
 * (KITTI: px x 256), 0 where invalid. */
static void
check_kitti (GstBuffer * out, GstCaps * caps)
{
  GstCvDisparityMeta *meta = gst_buffer_get_cv_disparity_meta (out);
  gint16 *disparity = g_new (gint16, VIEW_W * VIEW_H);
  GstVideoInfo info;
  GstVideoFrame vframe;
  guint invalid = 0, at_infinity = 0;

  fail_unless (meta != NULL);
  fail_unless (gst_video_info_from_caps (&info, caps));
  fail_unless_equals_int (GST_VIDEO_INFO_FORMAT (&info),
      GST_VIDEO_FORMAT_GRAY16_LE);
  fail_unless_equals_int (GST_VIDEO_INFO_WIDTH (&info), VIEW_W);
  fail_unless_equals_int (GST_VIDEO_INFO_HEIGHT (&info), VIEW_H);
  sgm_test_meta_data (meta, disparity, NULL);
  fail_unless (gst_video_frame_map (&vframe, &info, out, GST_MAP_READ));
  for (gint y = 0; y < VIEW_H; y++) {
    const guint8 *row = (const guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&vframe,
        0) + y * GST_VIDEO_FRAME_PLANE_STRIDE (&vframe, 0);

    for (gint x = 0; x < VIEW_W; x++) {
      gint d = disparity[y * VIEW_W + x];
      guint value = row[2 * x] | (row[2 * x + 1] << 8);
      /* KITTI's 0 is invalid: a valid 0 (the sky) is the smallest value */
      guint want = d < 0 ? 0 : d == 0 ? 1 : (guint) d * 16;

      invalid += d < 0;
      at_infinity += d == 0;
      fail_unless (value == want, "GRAY16 (%d, %d) = %u, meta %d -> %u", x,
          y, value, d, want);
    }
  }
  /* the scene has occlusions and sky: every branch was exercised */
  fail_unless (invalid > 0 && invalid < VIEW_W * VIEW_H);
  fail_unless (at_infinity > 0, "no pixel at disparity 0");
  gst_video_frame_unmap (&vframe);
  g_free (disparity);
}

GST_START_TEST (test_output_kitti)
{
  for (gint top_bottom = 0; top_bottom < 2; top_bottom++) {
    Pair pair = make_pair (top_bottom ? GST_VIDEO_FORMAT_RGBA :
        GST_VIDEO_FORMAT_NV12, top_bottom, TRUE);
    GstCaps *caps;
    GstBuffer *out = run_pair ("cudasgm max-disparity=32 output=disparity-16",
        &pair, &caps);
    GstBuffer *png;
    GstMapInfo a, b;
    CvSgmParams params;

    base_params (&params);
    check_meta (out, &pair, &params, "disparity-16");
    check_kitti (out, caps);

    /* the documented recipe for KITTI files (pngenc writes GRAY16_BE)
     * keeps every value */
    png = run_pair ("cudasgm max-disparity=32 output=disparity-16 ! "
        "videoconvert ! video/x-raw,format=GRAY16_BE ! pngenc ! pngdec ! "
        "videoconvert ! video/x-raw,format=GRAY16_LE", &pair, NULL);
    fail_unless (gst_buffer_map (out, &a, GST_MAP_READ));
    fail_unless (gst_buffer_map (png, &b, GST_MAP_READ));
    fail_unless (a.size == b.size && memcmp (a.data, b.data, a.size) == 0,
        "GRAY16 values changed through pngenc/pngdec");
    gst_buffer_unmap (out, &a);
    gst_buffer_unmap (png, &b);
    gst_buffer_unref (png);
    gst_buffer_unref (out);
    gst_caps_unref (caps);
    clear_pair (&pair);
  }
}

GST_END_TEST;

/* ---- every matching property ------------------------------------------- */

typedef void (*ParamsEdit) (CvSgmParams * p);

static void
edit_max_48 (CvSgmParams * p)
{
  p->max_disparity = 48;
}

static void
edit_max_16 (CvSgmParams * p)
{
  p->max_disparity = 16;
}

static void
edit_min_6 (CvSgmParams * p)
{
  p->min_disparity = 6;
}

static void
edit_p1 (CvSgmParams * p)
{
  p->p1 = 30;
}

static void
edit_p2 (CvSgmParams * p)
{
  p->p2 = 200;
}

static void
edit_adaptive_off (CvSgmParams * p)
{
  p->adaptive_p2 = 0;
}

static void
edit_adaptive_scale (CvSgmParams * p)
{
  p->adaptive_p2_scale = 8;
}

static void
edit_paths_4 (CvSgmParams * p)
{
  p->paths = 4;
}

static void
edit_census_full (CvSgmParams * p)
{
  p->census = CV_SGM_CENSUS_9X7;
}

static void
edit_subpixel_off (CvSgmParams * p)
{
  p->subpixel = 0;
}

static void
edit_uniqueness_off (CvSgmParams * p)
{
  p->uniqueness = 1.0f;
}

static void
edit_uniqueness_strict (CvSgmParams * p)
{
  p->uniqueness = 0.7f;
}

static void
edit_lr_off (CvSgmParams * p)
{
  p->lr_check = 0;
}

static void
edit_lr_diff (CvSgmParams * p)
{
  p->lr_max_diff = 4;
}

static void
edit_median_off (CvSgmParams * p)
{
  p->median = 0;
}

GST_START_TEST (test_every_property)
{
  const struct
  {
    const gchar *props;
    ParamsEdit edit;
  } cases[] = {
    {"max-disparity=48", edit_max_48},
    {"max-disparity=16", edit_max_16},
    {"min-disparity=6", edit_min_6},
    {"p1=30", edit_p1},
    {"p2=200", edit_p2},
    {"adaptive-p2=false", edit_adaptive_off},
    {"adaptive-p2-scale=8", edit_adaptive_scale},
    {"paths=4", edit_paths_4},
    {"census=9x7", edit_census_full},
    {"subpixel=false", edit_subpixel_off},
    {"uniqueness=1.0", edit_uniqueness_off},
    {"uniqueness=0.7", edit_uniqueness_strict},
    {"lr-check=false", edit_lr_off},
    {"lr-max-diff=4", edit_lr_diff},
    {"median=false", edit_median_off},
  };
  Pair pair = make_pair (GST_VIDEO_FORMAT_I420, FALSE, TRUE);
  GstBuffer *base = run_pair ("cudasgm max-disparity=32", &pair, NULL);
  gsize n = (gsize) VIEW_W * VIEW_H;
  gint16 *base_d = g_new (gint16, n), *d = g_new (gint16, n);

  sgm_test_meta_data (gst_buffer_get_cv_disparity_meta (base), base_d, NULL);
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++) {
    /* the property last, so it overrides the base max-disparity */
    gchar *middle = g_strdup_printf ("cudasgm max-disparity=32 %s",
        cases[i].props);
    GstBuffer *out = run_pair (middle, &pair, NULL);
    CvSgmParams params;

    base_params (&params);
    cases[i].edit (&params);
    check_meta (out, &pair, &params, cases[i].props);
    /* each property changes the result of this scene, or at least the
     * searched range (so it reached the core) */
    sgm_test_meta_data (gst_buffer_get_cv_disparity_meta (out), d, NULL);
    fail_if (memcmp (d, base_d, n * sizeof (gint16)) == 0
        && params.max_disparity == BASE_D && params.min_disparity == 0,
        "%s gives the same disparity as the defaults", cases[i].props);
    gst_buffer_unref (out);
    g_free (middle);
  }
  gst_buffer_unref (base);
  clear_pair (&pair);
  g_free (base_d);
  g_free (d);
}

GST_END_TEST;

GST_START_TEST (test_calibration)
{
  Pair pair = make_pair (GST_VIDEO_FORMAT_NV12, TRUE, TRUE);
  GstBuffer *out = run_pair ("cudasgm max-disparity=32 focal-length=721.5 "
      "principal-x=80.25 principal-y=40.5 baseline=0.54", &pair, NULL);
  GstCvDisparityMeta *meta = gst_buffer_get_cv_disparity_meta (out);

  fail_unless (meta != NULL);
  fail_unless (meta->calibration.focal_length == 721.5);
  fail_unless (meta->calibration.principal_x == 80.25);
  fail_unless (meta->calibration.principal_y == 40.5);
  fail_unless (meta->calibration.baseline == 0.54);
  gst_buffer_unref (out);

  /* defaults: unknown focal length and baseline, the view's centre */
  out = run_pair ("cudasgm max-disparity=32", &pair, NULL);
  meta = gst_buffer_get_cv_disparity_meta (out);
  fail_unless (meta->calibration.focal_length == 0.0);
  fail_unless (meta->calibration.baseline == 0.0);
  fail_unless (meta->calibration.principal_x == (VIEW_W - 1) / 2.0);
  fail_unless (meta->calibration.principal_y == (VIEW_H - 1) / 2.0);
  gst_buffer_unref (out);
  clear_pair (&pair);
}

GST_END_TEST;

/* ---- while PLAYING ----------------------------------------------------- */

GST_START_TEST (test_changes_while_playing)
{
  Pair pair = make_pair (GST_VIDEO_FORMAT_RGBA, FALSE, TRUE);
  SgmTestPipe *pipe = sgm_test_pipe_new ("cudasgm name=sgm max-disparity=32",
      pair.caps);
  GstElement *sgm = sgm_test_pipe_get (pipe, "sgm");
  GstBuffer *out;
  CvSgmParams params;

  base_params (&params);
  out = sgm_test_pipe_process (pipe, pair.frame);
  check_meta (out, &pair, &params, "frame 1");
  gst_buffer_unref (out);

  /* a larger search and other penalties apply on the next frame */
  g_object_set (sgm, "max-disparity", 64, "min-disparity", 4, "p2", 100,
      "paths", 4, "focal-length", 500.0, NULL);
  params.max_disparity = 64;
  params.min_disparity = 4;
  params.p2 = 100;
  params.paths = 4;
  out = sgm_test_pipe_process (pipe, pair.frame);
  check_meta (out, &pair, &params, "frame 2 (changed while PLAYING)");
  fail_unless (gst_buffer_get_cv_disparity_meta (out)->calibration.
      focal_length == 500.0);
  gst_buffer_unref (out);

  /* and back to a smaller one */
  g_object_set (sgm, "max-disparity", 16, "min-disparity", 0, NULL);
  params.max_disparity = 16;
  params.min_disparity = 0;
  out = sgm_test_pipe_process (pipe, pair.frame);
  check_meta (out, &pair, &params, "frame 3 (changed while PLAYING)");
  gst_buffer_unref (out);

  gst_object_unref (sgm);
  sgm_test_pipe_free (pipe);
  clear_pair (&pair);
}

GST_END_TEST;

GST_START_TEST (test_post_messages)
{
  Pair pair = make_pair (GST_VIDEO_FORMAT_NV12, FALSE, TRUE);
  SgmTestPipe *pipe = sgm_test_pipe_new ("cudasgm name=sgm max-disparity=32",
      pair.caps);
  GstElement *sgm = sgm_test_pipe_get (pipe, "sgm");
  gsize n = (gsize) VIEW_W * VIEW_H;
  gint16 *d = g_new (gint16, n);
  GstBuffer *out;
  GstMessage *msg;
  const GstStructure *s;
  gdouble fraction, mean, lo, hi, sum = 0;
  gint valid = 0, dmin = G_MAXINT, dmax = -1;
  guint64 transfer;

  /* off: no message */
  out = sgm_test_pipe_process (pipe, pair.frame);
  gst_buffer_unref (out);
  fail_unless (sgm_test_pipe_pop_message (pipe, "cudasgm") == NULL);

  g_object_set (sgm, "post-messages", TRUE, NULL);
  out = sgm_test_pipe_process (pipe, pair.frame);
  msg = sgm_test_pipe_pop_message (pipe, "cudasgm");
  fail_unless (msg != NULL, "no cudasgm message with post-messages=true");
  fail_unless (GST_MESSAGE_SRC (msg) == GST_OBJECT (sgm));
  s = gst_message_get_structure (msg);
  fail_unless (gst_structure_get_double (s, "valid-fraction", &fraction));
  fail_unless (gst_structure_get_double (s, "mean-disparity", &mean));
  fail_unless (gst_structure_get_double (s, "min-disparity", &lo));
  fail_unless (gst_structure_get_double (s, "max-disparity", &hi));
  fail_unless (gst_structure_has_field_typed (s, "timestamp", G_TYPE_UINT64));

  sgm_test_meta_data (gst_buffer_get_cv_disparity_meta (out), d, NULL);
  for (gsize i = 0; i < n; i++) {
    if (d[i] < 0)
      continue;
    valid++;
    sum += d[i] / 16.0;
    dmin = MIN (dmin, d[i]);
    dmax = MAX (dmax, d[i]);
  }
  fail_unless (valid > 0);
  fail_unless (fabs (fraction - (gdouble) valid / n) < 1e-12);
  fail_unless (fabs (mean - sum / valid) < 1e-9, "mean %f, want %f", mean,
      sum / valid);
  fail_unless (lo == dmin / 16.0 && hi == dmax / 16.0);
  /* system memory: no host/device copies */
  g_object_get (sgm, "transfer-bytes", &transfer, NULL);
  fail_unless (transfer == 0);

  gst_message_unref (msg);
  gst_buffer_unref (out);
  gst_object_unref (sgm);
  sgm_test_pipe_free (pipe);
  clear_pair (&pair);
  g_free (d);
}

GST_END_TEST;

/* ---- special images ---------------------------------------------------- */

/* Frames with padded rows and planes (a GstVideoMeta's strides and
 * offsets, as cameras and decoders give them): the same disparity and the
 * same left view as the packed frame. */
GST_START_TEST (test_padded_frames)
{
  const GstVideoFormat formats[] = { GST_VIDEO_FORMAT_RGBA,
    GST_VIDEO_FORMAT_NV12, GST_VIDEO_FORMAT_I420, GST_VIDEO_FORMAT_GRAY8
  };
  CvSgmParams params;

  base_params (&params);
  for (guint f = 0; f < G_N_ELEMENTS (formats); f++)
    for (gint top_bottom = 0; top_bottom < 2; top_bottom++) {
      Pair pair = make_pair (formats[f], top_bottom, TRUE);
      GstBuffer *packed_out = run_pair ("cudasgm max-disparity=32", &pair,
          NULL);
      gchar *what = g_strdup_printf ("%s %s, padded",
          gst_video_format_to_string (formats[f]),
          top_bottom ? "top-bottom" : "side-by-side");
      GstBuffer *padded = cv_test_pad_frame (pair.frame, &pair.info);
      GstBuffer *out;
      GstMapInfo a, b;

      gst_buffer_unref (pair.frame);
      pair.frame = padded;
      out = run_pair ("cudasgm max-disparity=32", &pair, NULL);
      check_meta (out, &pair, &params, what);
      fail_unless (gst_buffer_map (out, &a, GST_MAP_READ));
      fail_unless (gst_buffer_map (packed_out, &b, GST_MAP_READ));
      fail_unless (a.size == b.size && memcmp (a.data, b.data, a.size) == 0,
          "%s: the left view differs from the packed frame's", what);
      gst_buffer_unmap (out, &a);
      gst_buffer_unmap (packed_out, &b);
      gst_buffer_unref (out);
      gst_buffer_unref (packed_out);
      clear_pair (&pair);
      g_free (what);
    }
}

GST_END_TEST;

GST_START_TEST (test_uniform_black_noise)
{
  gsize n = (gsize) VIEW_W * VIEW_H * 4;
  guint8 *left = g_malloc (n), *right = g_malloc (n);
  guint32 state = 12345;

  for (gint kind = 0; kind < 3; kind++) {
    const gchar *name = kind == 0 ? "black" : kind == 1 ? "uniform" : "noise";
    Pair pair;
    GstBuffer *out;
    CvSgmParams params;
    GstCvDisparityMeta *meta;
    gint16 *d = g_new (gint16, VIEW_W * VIEW_H);
    guint8 *conf = g_new (guint8, VIEW_W * VIEW_H);

    for (gsize i = 0; i < n; i++) {
      left[i] = kind == 0 ? 0 : kind == 1 ? 117 :
          (guint8) cv_test_rand (&state);
      right[i] = kind == 2 ? (guint8) cv_test_rand (&state) : left[i];
    }
    pair = make_pair_from (left, right, GST_VIDEO_FORMAT_RGBA, FALSE, TRUE,
        FALSE);
    /* the black frame comes as a gap (its neutral picture): matched like
     * any other, the flag kept on the output */
    if (kind == 0)
      GST_BUFFER_FLAG_SET (pair.frame, GST_BUFFER_FLAG_GAP);
    out = run_pair ("cudasgm max-disparity=32", &pair, NULL);
    fail_unless_equals_int (GST_BUFFER_FLAG_IS_SET (out, GST_BUFFER_FLAG_GAP),
        kind == 0);
    base_params (&params);
    check_meta (out, &pair, &params, name);
    meta = gst_buffer_get_cv_disparity_meta (out);
    sgm_test_meta_data (meta, d, conf);
    for (gint i = 0; i < VIEW_W * VIEW_H; i++) {
      fail_unless (d[i] < 0 || d[i] < 32 * 16, "%s: disparity %d out of the "
          "searched range", name, d[i]);
      /* a flat frame (a covered lens) has no match: every disparity ties */
      if (kind < 2)
        fail_unless (d[i] < 0 && conf[i] == 0, "%s: pixel %d valid (%d, "
            "confidence %d)", name, i, d[i], conf[i]);
    }
    gst_buffer_unref (out);
    clear_pair (&pair);
    g_free (d);
    g_free (conf);
  }
  g_free (left);
  g_free (right);
}

GST_END_TEST;

GST_START_TEST (test_input_disparity_meta_replaced)
{
  GList *buffers = sgm_test_collect ("stereotestsrc num-buffers=1 "
      "supersample=1 attach-disparity=true ! "
      "video/x-raw,format=GRAY8,width=320,height=96 ! "
      "cudasgm max-disparity=32 ! appsink name=sink sync=false");
  GstBuffer *out = buffers->data;
  gpointer state = NULL;
  GstMeta *meta;
  guint count = 0;

  while ((meta = gst_buffer_iterate_meta_filtered (out, &state,
              GST_CV_DISPARITY_META_API_TYPE)) != NULL) {
    GstCvDisparityMeta *dmeta = (GstCvDisparityMeta *) meta;

    count++;
    /* ours: the searched range and a confidence map, unlike the ground
     * truth's */
    fail_unless (dmeta->has_confidence);
    fail_unless_equals_int (dmeta->max_disparity, 32);
  }
  fail_unless_equals_int (count, 1);
  g_list_free_full (buffers, (GDestroyNotify) gst_buffer_unref);
}

GST_END_TEST;

/* ---- errors ------------------------------------------------------------ */

GST_START_TEST (test_errors_negotiation)
{
  const struct
  {
    const gchar *caps, *props, *expected;
  } cases[] = {
    /* odd total width, side-by-side */
    {"format=RGBA,width=641,height=96", "", "even width (got 641)"},
    /* the right view would not start on a chroma sample */
    {"format=NV12,width=642,height=96", "", "divisible by 4 (got 642)"},
    {"format=I420,width=320,height=194", "layout=top-bottom",
        "divisible by 4 (got 194)"},
    /* odd total height, top-bottom */
    {"format=GRAY8,width=320,height=193", "layout=top-bottom",
        "even height (got 193)"},
    /* a view narrower than max-disparity */
    {"format=RGBA,width=200,height=96", "max-disparity=128",
        "narrower than the disparity range"},
    {"format=RGBA,width=200,height=96", "max-disparity=64 min-disparity=40",
        "narrower than the disparity range"},
    /* impossible parameter combinations */
    {"format=RGBA,width=320,height=96", "max-disparity=32 min-disparity=32",
        "min-disparity (32) must be smaller than max-disparity (32)"},
    {"format=RGBA,width=640,height=96", "max-disparity=100",
        "multiple of 16"},
    {"format=RGBA,width=320,height=96", "max-disparity=32 p1=64 p2=64",
        "p1 64, p2 64"},
    {"format=RGBA,width=1200,height=96",
        "max-disparity=256 min-disparity=16 output=disparity-16",
        "disparities below 256 px"},
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++) {
    gchar *desc = g_strdup_printf ("videotestsrc num-buffers=1 ! "
        "video/x-raw,%s ! cudasgm %s ! fakesink", cases[i].caps,
        cases[i].props);

    cv_test_expect_error (desc, cases[i].expected);
    g_free (desc);
  }
}

GST_END_TEST;

/* A size fixed downstream (a capsfilter, a scaler) negotiates the even
 * frame of that view size, in both layouts and every output. */
GST_START_TEST (test_size_fixed_downstream)
{
  const gchar *cases[] = { "", "layout=top-bottom", "output=disparity-color",
    "output=disparity-16"
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++) {
    gchar *desc = g_strdup_printf ("videotestsrc num-buffers=1 ! "
        "cudasgm max-disparity=16 %s ! video/x-raw,width=100,height=50 ! "
        "fakesink", cases[i]);

    cv_test_expect_eos (desc);
    g_free (desc);
  }
}

GST_END_TEST;

/* An odd frame gets its reason once, although upstream offers the caps
 * again after the refusal. */
GST_START_TEST (test_error_posted_once)
{
  GstElement *pipeline = cv_test_launch ("videotestsrc num-buffers=3 ! "
      "video/x-raw,width=201,height=48 ! cudasgm name=sgm max-disparity=16 ! "
      "fakesink");
  GstBus *bus = gst_element_get_bus (pipeline);
  GstMessage *msg;
  guint from_sgm = 0;

  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  /* every message until the bus stays quiet for a second */
  while ((msg = gst_bus_timed_pop_filtered (bus, GST_SECOND,
              GST_MESSAGE_ERROR | GST_MESSAGE_EOS)) != NULL) {
    if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR
        && g_strcmp0 (GST_OBJECT_NAME (GST_MESSAGE_SRC (msg)), "sgm") == 0)
      from_sgm++;
    gst_message_unref (msg);
  }
  fail_unless_equals_int (from_sgm, 1);
  gst_object_unref (bus);
  cv_test_stop (pipeline);
}

GST_END_TEST;

GST_START_TEST (test_errors_input_caps)
{
  const struct
  {
    const gchar *caps, *expected;
    gsize size;
  } cases[] = {
    {"video/x-raw,format=YUY2,width=320,height=96,framerate=30/1",
        "format YUY2 is not supported in system memory", 320 * 96 * 2},
    {"video/x-raw(memory:GLMemory),format=RGBA,width=320,height=96,"
          "framerate=30/1", "not in memory:GLMemory", 320 * 96 * 4},
    {"video/x-bayer,format=rggb,width=320,height=96,framerate=30/1",
        "raw video", 320 * 96},
    {"video/x-raw,format=RGBA,width=320,height=96,framerate=30/1,"
          "multiview-mode=row-interleaved", "multiview-mode row-interleaved",
        320 * 96 * 4},
    {"video/x-raw,format=RGBA,width=320,height=96,framerate=30/1,"
          "multiview-mode=side-by-side,"
          "multiview-flags=(GstVideoMultiviewFlagsSet)0x4:0xffffffff",
        "flipped or flopped", 320 * 96 * 4},
    {"video/x-raw,format=RGBA,width=321,height=96,framerate=30/1,"
          "multiview-mode=side-by-side", "even width (got 321)", 321 * 96 * 4},
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++) {
    GstCaps *caps = gst_caps_from_string (cases[i].caps);

    fail_unless (caps != NULL, "bad test caps %s", cases[i].caps);
    cv_test_push_expect_error ("cudasgm max-disparity=32", caps,
        cases[i].size, cases[i].expected);
    gst_caps_unref (caps);
  }
}

GST_END_TEST;

/* GRAY8 in CUDA memory: a format only system memory has (or, in a build
 * without CUDA, a memory it cannot take) */
GST_START_TEST (test_error_gray_in_cuda_memory)
{
  GstElementFactory *factory = gst_element_factory_find ("cudasgm");
  GstCaps *templ = NULL, *caps;
  gboolean cuda_build = FALSE;

  for (const GList * l = gst_element_factory_get_static_pad_templates
      (factory); l != NULL; l = l->next) {
    GstStaticPadTemplate *t = l->data;
    if (t->direction == GST_PAD_SINK)
      templ = gst_static_pad_template_get_caps (t);
  }
  for (guint i = 0; templ != NULL && i < gst_caps_get_size (templ); i++)
    cuda_build |= gst_caps_features_contains (gst_caps_get_features (templ,
            i), "memory:CUDAMemory");
  caps = gst_caps_from_string ("video/x-raw(memory:CUDAMemory),format=GRAY8,"
      "width=320,height=96,framerate=30/1");
  cv_test_push_expect_error ("cudasgm max-disparity=32", caps, 320 * 96,
      cuda_build ? "format GRAY8 is not supported in CUDA memory: cudasgm "
      "takes NV12, I420, Y444, RGBA, BGRA, RGBx, BGRx there (that format "
      "only in system memory: cudadownload first)" : "no CUDA backend");
  gst_caps_unref (caps);
  gst_clear_caps (&templ);
  gst_object_unref (factory);
}

GST_END_TEST;

GST_START_TEST (test_error_bad_change_while_playing)
{
  Pair pair = make_pair (GST_VIDEO_FORMAT_RGBA, FALSE, TRUE);
  SgmTestPipe *pipe = sgm_test_pipe_new ("cudasgm name=sgm max-disparity=32",
      pair.caps);
  GstElement *sgm = sgm_test_pipe_get (pipe, "sgm");
  GstElement *pipeline = GST_ELEMENT (gst_element_get_parent (sgm));
  GstBus *bus = gst_element_get_bus (pipeline);
  GstBuffer *out = sgm_test_pipe_process (pipe, pair.frame);
  GstElement *src = sgm_test_pipe_get (pipe, "src");
  GstMessage *msg;
  GError *error = NULL;

  gst_buffer_unref (out);
  /* wider than the 160 px views: the next frame fails, saying why */
  g_object_set (sgm, "max-disparity", 176, NULL);
  gst_app_src_push_buffer (GST_APP_SRC (src), gst_buffer_copy (pair.frame));
  msg = gst_bus_timed_pop_filtered (bus, 30 * GST_SECOND, GST_MESSAGE_ERROR);
  fail_unless (msg != NULL, "no error for max-disparity 176 on 160 px views");
  gst_message_parse_error (msg, &error, NULL);
  fail_unless (strstr (error->message, "narrower than the disparity range")
      != NULL, "error '%s'", error->message);
  g_clear_error (&error);
  gst_message_unref (msg);
  gst_object_unref (bus);
  gst_object_unref (pipeline);
  gst_object_unref (src);
  gst_object_unref (sgm);
  sgm_test_pipe_free (pipe);
  clear_pair (&pair);
}

GST_END_TEST;

/* The scene of every test (render asserts: inside the test's context). */
static void
render_scene (void)
{
  sgm_test_scene_render (&scene, VIEW_W, VIEW_H, 6, 7, 0.0f, 1);
}

static void
clear_scene (void)
{
  cv_test_stop_all ();
  sgm_test_scene_clear (&scene);
}

static Suite *
cudasgm_suite (void)
{
  Suite *s = suite_create ("cudasgm");
  TCase *tc = tcase_create ("general");

  tcase_set_timeout (tc, 240);
  tcase_add_checked_fixture (tc, render_scene, clear_scene);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_defaults);
  tcase_add_test (tc, test_property_round_trip);
  tcase_add_test (tc, test_formats_and_packings);
  tcase_add_test (tc, test_right_view_first);
  tcase_add_test (tc, test_output_color);
  tcase_add_test (tc, test_output_kitti);
  tcase_add_test (tc, test_every_property);
  tcase_add_test (tc, test_calibration);
  tcase_add_test (tc, test_changes_while_playing);
  tcase_add_test (tc, test_post_messages);
  tcase_add_test (tc, test_padded_frames);
  tcase_add_test (tc, test_uniform_black_noise);
  tcase_add_test (tc, test_input_disparity_meta_replaced);
  tcase_add_test (tc, test_errors_negotiation);
  tcase_add_test (tc, test_size_fixed_downstream);
  tcase_add_test (tc, test_error_posted_once);
  tcase_add_test (tc, test_errors_input_caps);
  tcase_add_test (tc, test_error_gray_in_cuda_memory);
  tcase_add_test (tc, test_error_bad_change_while_playing);
  return s;
}

GST_CHECK_MAIN (cudasgm);
