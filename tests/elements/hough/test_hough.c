/* cudahough on system memory: properties, formats, lines found on
 * synthetic images with known lines (near-vertical, near-horizontal, at the
 * border, inside a ROI), degenerate inputs, errors, overlay, messages.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/cudavision/cudavision.h>
#include <math.h>
#include <stdio.h>

#include "cvtestutil.h"
#include "hough_test_util.h"

#define W 320
#define H 240
#define DEG (G_PI / 180.0)
/* Found lines match drawn ones within these (1-px lines and step edges,
 * 1 px / 1 deg bins). */
#define RHO_TOL 1.5
#define THETA_TOL 1.0

static const GstVideoFormat all_formats[] = {
  GST_VIDEO_FORMAT_NV12, GST_VIDEO_FORMAT_I420, GST_VIDEO_FORMAT_Y444,
  GST_VIDEO_FORMAT_RGBA, GST_VIDEO_FORMAT_BGRA, GST_VIDEO_FORMAT_RGBx,
  GST_VIDEO_FORMAT_BGRx, GST_VIDEO_FORMAT_GRAY8
};

/* A harness around `cudahough @props` for @format frames of @luma's size. */
static GstHarness *
harness (const gchar * props, GstVideoFormat format, gint w, gint h)
{
  gchar *desc = g_strdup_printf ("cudahough %s", props);
  gchar *caps = hough_caps_string (format, w, h);
  GstHarness *hr = gst_harness_new_parse (desc);

  gst_harness_set_src_caps_str (hr, caps);
  g_free (caps);
  g_free (desc);
  return hr;
}

/* Runs one @format frame of @luma through `cudahough @props`; returns the
 * output buffer (ref). */
static GstBuffer *
run (const gchar * props, GstVideoFormat format, const HoughLuma * luma)
{
  GstHarness *h = harness (props, format, luma->width, luma->height);
  GstBuffer *out = hough_push (h, hough_frame_new (format, luma, FALSE));

  gst_harness_teardown (h);
  return out;
}

static GstCvLinesMeta *
lines_of (GstBuffer * buf)
{
  GstCvLinesMeta *meta = gst_buffer_get_cv_lines_meta (buf);

  fail_unless (meta != NULL, "no lines meta on the output");
  return meta;
}

/* ---- properties ------------------------------------------------------------- */

GST_START_TEST (test_property_defaults)
{
  GstElement *e = gst_element_factory_make ("cudahough", NULL);
  gfloat rho_step, theta_step, min_theta, max_theta;
  gint threshold, max_lines, nms, rx, ry, rw, rh, edge, input;
  gboolean overlay, post;
  guint64 transfer;

  fail_unless (e != NULL, "cudahough not found (GST_PLUGIN_PATH?)");
  g_object_get (e, "rho-step", &rho_step, "theta-step", &theta_step,
      "min-theta", &min_theta, "max-theta", &max_theta, "threshold",
      &threshold, "max-lines", &max_lines, "nms-radius", &nms, "roi-x", &rx,
      "roi-y", &ry, "roi-width", &rw, "roi-height", &rh, "edge-threshold",
      &edge, "input", &input, "overlay", &overlay, "post-messages", &post,
      "transfer-bytes", &transfer, NULL);
  fail_unless_equals_float (rho_step, 1.0f);
  fail_unless_equals_float (theta_step, 1.0f);
  fail_unless_equals_float (min_theta, 0.0f);
  fail_unless_equals_float (max_theta, 180.0f);
  fail_unless_equals_int (threshold, 100);
  fail_unless_equals_int (max_lines, 16);
  fail_unless_equals_int (nms, 3);
  fail_unless_equals_int (rx, 0);
  fail_unless_equals_int (ry, 0);
  fail_unless_equals_int (rw, 0);
  fail_unless_equals_int (rh, 0);
  fail_unless_equals_int (edge, 200);
  fail_unless_equals_int (input, 0);
  fail_unless (!overlay);
  fail_unless (!post);
  fail_unless_equals_uint64 (transfer, 0);

  /* ranges as documented */
  {
    GObjectClass *klass = G_OBJECT_GET_CLASS (e);
    GParamSpecFloat *f;
    GParamSpecInt *i;
    GParamSpecEnum *en;

    f = G_PARAM_SPEC_FLOAT (g_object_class_find_property (klass, "rho-step"));
    fail_unless (f->minimum == 0.125f && f->maximum == 1024.0f);
    f = G_PARAM_SPEC_FLOAT (g_object_class_find_property (klass,
            "theta-step"));
    fail_unless (f->minimum == 0.01f && f->maximum == 180.0f);
    f = G_PARAM_SPEC_FLOAT (g_object_class_find_property (klass, "min-theta"));
    fail_unless (f->minimum == -360.0f && f->maximum == 360.0f);
    i = G_PARAM_SPEC_INT (g_object_class_find_property (klass, "max-lines"));
    fail_unless (i->minimum == 1 && i->maximum == 1024);
    i = G_PARAM_SPEC_INT (g_object_class_find_property (klass, "nms-radius"));
    fail_unless (i->minimum == 0 && i->maximum == 32);
    i = G_PARAM_SPEC_INT (g_object_class_find_property (klass,
            "edge-threshold"));
    fail_unless (i->minimum == 0 && i->maximum == 2039);
    i = G_PARAM_SPEC_INT (g_object_class_find_property (klass, "threshold"));
    fail_unless (i->minimum == 1);
    en = G_PARAM_SPEC_ENUM (g_object_class_find_property (klass, "input"));
    fail_unless (g_enum_get_value_by_nick (en->enum_class, "edges") != NULL);
    fail_unless (g_enum_get_value_by_nick (en->enum_class, "binary") != NULL);
  }
  gst_object_unref (e);
}

GST_END_TEST;

GST_START_TEST (test_property_set_get)
{
  GstElement *e = gst_element_factory_make ("cudahough", NULL);
  gfloat rho_step, theta_step, min_theta, max_theta;
  gint threshold, max_lines, nms, rx, ry, rw, rh, edge, input;
  gboolean overlay;

  gst_util_set_object_arg (G_OBJECT (e), "input", "binary");
  g_object_set (e, "rho-step", 0.5f, "theta-step", 0.25f, "min-theta", -75.0f,
      "max-theta", 75.0f, "threshold", 42, "max-lines", 5, "nms-radius", 7,
      "roi-x", 1, "roi-y", 2, "roi-width", 3, "roi-height", 4,
      "edge-threshold", 400, "overlay", TRUE, NULL);
  g_object_get (e, "rho-step", &rho_step, "theta-step", &theta_step,
      "min-theta", &min_theta, "max-theta", &max_theta, "threshold",
      &threshold, "max-lines", &max_lines, "nms-radius", &nms, "roi-x", &rx,
      "roi-y", &ry, "roi-width", &rw, "roi-height", &rh, "edge-threshold",
      &edge, "input", &input, "overlay", &overlay, NULL);
  fail_unless_equals_float (rho_step, 0.5f);
  fail_unless_equals_float (theta_step, 0.25f);
  fail_unless_equals_float (min_theta, -75.0f);
  fail_unless_equals_float (max_theta, 75.0f);
  fail_unless_equals_int (threshold, 42);
  fail_unless_equals_int (max_lines, 5);
  fail_unless_equals_int (nms, 7);
  fail_unless_equals_int (rx, 1);
  fail_unless_equals_int (ry, 2);
  fail_unless_equals_int (rw, 3);
  fail_unless_equals_int (rh, 4);
  fail_unless_equals_int (edge, 400);
  fail_unless_equals_int (input, 1);
  fail_unless (overlay);
  gst_object_unref (e);
}

GST_END_TEST;

/* ---- lines on synthetic images --------------------------------------------- */

/* Two step edges: every format gives the same lines, and they are the
 * drawn ones. */
GST_START_TEST (test_formats_step_edges)
{
  HoughLuma *luma = hough_luma_new (W, H, 0);
  GstBuffer *reference = NULL;

  /* two crossing steps of 100 levels each: 20, 120 or 220 */
  for (gint y = 0; y < H; y++)
    for (gint x = 0; x < W; x++)
      luma->data[y * W + x] = (guint8) (20
          + (x * cos (20 * DEG) + y * sin (20 * DEG) > 150.0 ? 100 : 0)
          + (x * cos (100 * DEG) + y * sin (100 * DEG) > 60.0 ? 100 : 0));

  for (guint f = 0; f < G_N_ELEMENTS (all_formats); f++) {
    const gchar *name = gst_video_format_to_string (all_formats[f]);
    GstBuffer *out = run ("threshold=80", all_formats[f], luma);
    GstCvLinesMeta *meta = lines_of (out);

    hough_print_lines (name, meta);
    hough_check_lines (name, meta, 0, 0, W, H, 16, 80);
    fail_unless (hough_find_line (meta, 150.0, 20.0, RHO_TOL, THETA_TOL) >= 0,
        "%s: step edge (150, 20 deg) not found", name);
    fail_unless (hough_find_line (meta, 60.0, 100.0, RHO_TOL, THETA_TOL) >= 0,
        "%s: step edge (60, 100 deg) not found", name);
    if (reference == NULL) {
      reference = out;
      continue;
    }
    {
      GstCvLinesMeta *ref = lines_of (reference);
      fail_unless_equals_int (meta->n_lines, ref->n_lines);
      fail_unless (memcmp (meta->lines, ref->lines,
              sizeof (GstCvLine) * ref->n_lines) == 0,
          "%s: lines differ from %s", name,
          gst_video_format_to_string (all_formats[0]));
    }
    gst_buffer_unref (out);
  }
  gst_buffer_unref (reference);
  hough_luma_free (luma);
}

GST_END_TEST;

typedef struct
{
  const gchar *name;
  gdouble rho, theta_deg;
  guint exact_votes;            /* 0: not checked */
} KnownLine;

/* One 1-px line per image (binary input on GRAY8), at angles of the
 * 1-degree grid: found, and nothing else; lines along a pixel row or
 * column get exactly one vote per pixel. */
GST_START_TEST (test_known_lines_binary)
{
  const KnownLine cases[] = {
    {"near-vertical", 100.0, 2.0, 0},
    {"near-vertical (other side)", -200.0, 178.0, 0},
    {"near-horizontal", 80.0, 88.0, 0},
    {"near-horizontal (tilted the other way)", 150.0, 91.0, 0},
    {"vertical, left border", 0.0, 0.0, H},
    {"vertical, right border", W - 1, 0.0, H},
    {"horizontal, top border", 0.0, 90.0, W},
    {"horizontal, bottom border", H - 1, 90.0, W},
    {"diagonal", 150.0, 45.0, 0},
    {"diagonal through a corner", 0.0, 135.0, 0},
  };

  for (guint c = 0; c < G_N_ELEMENTS (cases); c++) {
    HoughLuma *luma = hough_luma_new (W, H, 0);
    GstBuffer *out;
    GstCvLinesMeta *meta;
    gint found;

    hough_luma_line (luma, cases[c].rho, cases[c].theta_deg, 255);
    out = run ("input=binary threshold=100", GST_VIDEO_FORMAT_GRAY8, luma);
    meta = lines_of (out);
    hough_print_lines (cases[c].name, meta);
    hough_check_lines (cases[c].name, meta, 0, 0, W, H, 16, 100);
    fail_unless_equals_int (meta->n_lines, 1);
    found = hough_find_line (meta, cases[c].rho, cases[c].theta_deg, RHO_TOL,
        THETA_TOL);
    fail_unless (found == 0, "%s: line (%g, %g deg) not found", cases[c].name,
        cases[c].rho, cases[c].theta_deg);
    if (cases[c].exact_votes)
      fail_unless_equals_int (meta->lines[0].votes, cases[c].exact_votes);
    gst_buffer_unref (out);
    hough_luma_free (luma);
  }
}

GST_END_TEST;

/* Several lines of different lengths: all found, sorted by votes, votes
 * close to their pixel counts. */
GST_START_TEST (test_several_lines_sorted)
{
  HoughLuma *luma = hough_luma_new (W, H, 0);
  GstBuffer *out;
  GstCvLinesMeta *meta;

  /* a full column (240 px), a full row (320 px), a half row (160 px) */
  hough_luma_line (luma, 40.0, 0.0, 255);
  hough_luma_line (luma, 30.0, 90.0, 255);
  for (gint x = 0; x < W / 2; x++)
    luma->data[200 * W + x] = 255;

  out = run ("input=binary threshold=100", GST_VIDEO_FORMAT_GRAY8, luma);
  meta = lines_of (out);
  hough_print_lines ("several", meta);
  hough_check_lines ("several", meta, 0, 0, W, H, 16, 100);
  fail_unless_equals_int (meta->n_lines, 3);
  /* the full row crosses the column once: 320 votes, then the column,
   * then the half row */
  fail_unless (hough_line_matches (&meta->lines[0], 30.0, 90.0, 0.5, 0.5));
  fail_unless_equals_int (meta->lines[0].votes, W);
  fail_unless (hough_line_matches (&meta->lines[1], 40.0, 0.0, 0.5, 0.5));
  fail_unless_equals_int (meta->lines[1].votes, H);
  fail_unless (hough_line_matches (&meta->lines[2], 200.0, 90.0, 0.5, 0.5));
  fail_unless_equals_int (meta->lines[2].votes, W / 2);
  gst_buffer_unref (out);
  hough_luma_free (luma);
}

GST_END_TEST;

/* max-lines keeps the strongest; threshold drops weak lines. */
GST_START_TEST (test_max_lines_and_threshold)
{
  HoughLuma *luma = hough_luma_new (W, H, 0);
  GstBuffer *out;
  GstCvLinesMeta *meta;

  hough_luma_line (luma, 40.0, 0.0, 255);       /* 240 votes */
  hough_luma_line (luma, 30.0, 90.0, 255);      /* 320 votes */

  out = run ("input=binary threshold=100 max-lines=1", GST_VIDEO_FORMAT_GRAY8,
      luma);
  meta = lines_of (out);
  fail_unless_equals_int (meta->n_lines, 1);
  fail_unless (hough_line_matches (&meta->lines[0], 30.0, 90.0, 0.5, 0.5));
  gst_buffer_unref (out);

  out = run ("input=binary threshold=300", GST_VIDEO_FORMAT_GRAY8, luma);
  meta = lines_of (out);
  fail_unless_equals_int (meta->n_lines, 1);
  fail_unless_equals_int (meta->lines[0].votes, W);
  gst_buffer_unref (out);

  out = run ("input=binary threshold=321", GST_VIDEO_FORMAT_GRAY8, luma);
  fail_unless_equals_int (lines_of (out)->n_lines, 0);
  gst_buffer_unref (out);
  hough_luma_free (luma);
}

GST_END_TEST;

/* Only lines inside the ROI vote; rho stays in frame coordinates and the
 * end points lie on the ROI border. */
GST_START_TEST (test_roi)
{
  HoughLuma *luma = hough_luma_new (W, H, 0);
  GstBuffer *out;
  GstCvLinesMeta *meta;

  hough_luma_line (luma, 40.0, 0.0, 255);
  hough_luma_line (luma, 200.0, 0.0, 255);
  hough_luma_line (luma, 250.0, 45.0, 255);

  out = run ("input=binary threshold=50 roi-x=100 roi-y=120 roi-width=180",
      GST_VIDEO_FORMAT_GRAY8, luma);
  meta = lines_of (out);
  hough_print_lines ("roi", meta);
  hough_check_lines ("roi", meta, 100, 120, 180, H - 120, 16, 50);
  fail_unless (hough_find_line (meta, 40.0, 0.0, RHO_TOL, THETA_TOL) < 0,
      "the line left of the ROI was found");
  fail_unless (hough_find_line (meta, 200.0, 0.0, 0.5, 0.5) >= 0);
  fail_unless (hough_find_line (meta, 250.0, 45.0, RHO_TOL, THETA_TOL) >= 0);
  {
    /* the vertical line's end points: top and bottom ROI rows */
    const GstCvLine *l = &meta->lines[hough_find_line (meta, 200.0, 0.0, 0.5,
            0.5)];
    fail_unless_equals_int (l->votes, H - 120);
    fail_unless (fabs (l->x0 - 200.0) < 1e-3 && fabs (l->x1 - 200.0) < 1e-3);
    fail_unless (MIN (l->y0, l->y1) == 120.0f && MAX (l->y0, l->y1) == H - 1);
  }
  gst_buffer_unref (out);

  /* a ROI reaching beyond the frame is clipped to it */
  out = run ("input=binary threshold=50 roi-x=150 roi-width=1000 "
      "roi-height=5000", GST_VIDEO_FORMAT_GRAY8, luma);
  meta = lines_of (out);
  hough_check_lines ("clipped roi", meta, 150, 0, W - 150, H, 16, 50);
  fail_unless (hough_find_line (meta, 200.0, 0.0, 0.5, 0.5) >= 0);
  fail_unless_equals_int (meta->lines[hough_find_line (meta, 200.0, 0.0, 0.5,
              0.5)].votes, H);
  gst_buffer_unref (out);
  hough_luma_free (luma);
}

GST_END_TEST;

/* A restricted theta range finds only lines inside it (lane-marking
 * setting: no near-horizontal lines). */
GST_START_TEST (test_theta_range)
{
  HoughLuma *luma = hough_luma_new (W, H, 0);
  GstBuffer *out;
  GstCvLinesMeta *meta;

  hough_luma_line (luma, 30.0, 90.0, 255);      /* horizontal */
  hough_luma_line (luma, 200.0, 40.0, 255);     /* "/" */
  hough_luma_line (luma, 100.0, -40.0, 255);    /* "\" */
  out = run ("input=binary threshold=80 min-theta=-75 max-theta=75",
      GST_VIDEO_FORMAT_GRAY8, luma);
  meta = lines_of (out);
  hough_print_lines ("theta -75..75", meta);
  hough_check_lines ("theta -75..75", meta, 0, 0, W, H, 16, 80);
  fail_unless_equals_int (meta->n_lines, 2);
  fail_unless (hough_find_line (meta, 200.0, 40.0, RHO_TOL, THETA_TOL) >= 0);
  fail_unless (hough_find_line (meta, 100.0, -40.0, RHO_TOL, THETA_TOL) >= 0);
  /* reported angles lie inside the range */
  for (guint i = 0; i < meta->n_lines; i++)
    fail_unless (meta->lines[i].theta >= -75 * DEG - 1e-6
        && meta->lines[i].theta < 75 * DEG);
  gst_buffer_unref (out);
  hough_luma_free (luma);
}

GST_END_TEST;

/* ---- degenerate inputs --------------------------------------------------------- */

GST_START_TEST (test_empty_image)
{
  HoughLuma *luma = hough_luma_new (W, H, 90);

  for (guint f = 0; f < G_N_ELEMENTS (all_formats); f++) {
    GstBuffer *out = run ("", all_formats[f], luma);
    fail_unless_equals_int (lines_of (out)->n_lines, 0);
    gst_buffer_unref (out);
  }
  hough_luma_free (luma);
}

GST_END_TEST;

/* Every pixel votes (the worst case): no crash, a sane result. */
GST_START_TEST (test_all_edges)
{
  HoughLuma *luma = hough_luma_new (640, 480, 255);
  GstBuffer *out;
  GstCvLinesMeta *meta;

  out = run ("input=binary max-lines=1024 nms-radius=0 threshold=1",
      GST_VIDEO_FORMAT_GRAY8, luma);
  meta = lines_of (out);
  printf ("  all pixels vote: %u lines, strongest %u votes\n", meta->n_lines,
      meta->n_lines ? meta->lines[0].votes : 0);
  hough_check_lines ("all binary", meta, 0, 0, 640, 480, 1024, 1);
  /* without suppression every bin is a peak: max-lines of them, the
   * strongest at least a full column */
  fail_unless_equals_int (meta->n_lines, 1024);
  fail_unless (meta->lines[0].votes >= 480);
  gst_buffer_unref (out);

  hough_luma_noise (luma, 7, 0, 255);
  out = run ("edge-threshold=0 overlay=true threshold=1", GST_VIDEO_FORMAT_NV12,
      luma);
  meta = lines_of (out);
  printf ("  noise, edge-threshold=0: %u lines\n", meta->n_lines);
  hough_check_lines ("noise", meta, 0, 0, 640, 480, 16, 1);
  gst_buffer_unref (out);
  hough_luma_free (luma);
}

GST_END_TEST;

/* 1x1 and 2x1 frames work (edges clamp at the border). */
GST_START_TEST (test_tiny_frames)
{
  for (gint w = 1; w <= 3; w++) {
    HoughLuma *luma = hough_luma_new (w, 1, 255);
    GstBuffer *out = run ("input=binary threshold=1", GST_VIDEO_FORMAT_GRAY8,
        luma);
    GstCvLinesMeta *meta = lines_of (out);
    hough_check_lines ("tiny", meta, 0, 0, w, 1, 16, 1);
    fail_unless (meta->n_lines >= 1);
    gst_buffer_unref (out);
    hough_luma_free (luma);
  }
}

GST_END_TEST;

/* ---- errors ------------------------------------------------------------------------ */

#define ERROR_SRC "videotestsrc num-buffers=2 ! video/x-raw,format=%s,width=320," \
  "height=240 ! cudahough %s ! fakesink"

static void
expect_error (const gchar * format, const gchar * props, const gchar * text)
{
  gchar *desc = g_strdup_printf (ERROR_SRC, format, props);
  cv_test_expect_error (desc, text);
  g_free (desc);
}

GST_START_TEST (test_roi_outside_is_an_error)
{
  /* starts right of / below the frame */
  expect_error ("GRAY8", "roi-x=320", "outside the 320x240 frame");
  expect_error ("NV12", "roi-y=500", "outside the 320x240 frame");
  /* explicit size, no overlap */
  expect_error ("RGBA", "roi-x=400 roi-width=10 roi-height=10",
      "outside the 320x240 frame");
}

GST_END_TEST;

GST_START_TEST (test_theta_range_errors)
{
  expect_error ("GRAY8", "min-theta=30 max-theta=30", "empty theta range");
  expect_error ("GRAY8", "min-theta=60 max-theta=30", "empty theta range");
  expect_error ("NV12", "min-theta=-100 max-theta=100",
      "spans more than 180 deg");
}

GST_END_TEST;

/* Binary input reads GRAY8 in system memory: its caps offer only that, so
 * videoconvert upstream converts a colour mask, and fixed caps of another
 * format are refused with the reason. */
GST_START_TEST (test_binary_needs_gray8)
{
  const gchar *formats[] = { "RGBA", "NV12" };

  cv_test_expect_eos ("videotestsrc num-buffers=2 ! video/x-raw,format=RGBA,"
      "width=320,height=240 ! videoconvert ! cudahough input=binary ! "
      "fakesink");
  for (guint i = 0; i < G_N_ELEMENTS (formats); i++) {
    gchar *str = g_strdup_printf ("video/x-raw,format=%s,width=320,"
        "height=240,framerate=30/1", formats[i]);
    GstCaps *caps = gst_caps_from_string (str);
    gchar *expected = g_strdup_printf ("input=binary needs GRAY8 frames in "
        "system memory, got %s", formats[i]);

    cv_test_push_expect_error ("cudahough input=binary", caps,
        320 * 240 * 4, expected);
    gst_caps_unref (caps);
    g_free (expected);
    g_free (str);
  }
}

GST_END_TEST;

/* A bad setting made while playing fails the next frame with the reason. */
GST_START_TEST (test_bad_setting_while_playing)
{
  HoughLuma *luma = hough_luma_new (W, H, 0);
  GstHarness *h = harness ("input=binary", GST_VIDEO_FORMAT_GRAY8, W, H);
  GstElement *e = gst_harness_find_element (h, "cudahough");
  GstBus *bus = gst_bus_new ();
  GstMessage *msg;
  GError *error = NULL;
  GstBuffer *out;

  gst_element_set_bus (e, bus);
  hough_luma_line (luma, 40.0, 0.0, 255);
  out = hough_push (h, hough_frame_new (GST_VIDEO_FORMAT_GRAY8, luma, FALSE));
  gst_buffer_unref (out);

  g_object_set (e, "min-theta", 90.0f, "max-theta", 10.0f, NULL);
  fail_unless_equals_int (gst_harness_push (h,
          hough_frame_new (GST_VIDEO_FORMAT_GRAY8, luma, FALSE)),
      GST_FLOW_ERROR);
  msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
  fail_unless (msg != NULL, "no error message");
  gst_message_parse_error (msg, &error, NULL);
  fail_unless (strstr (error->message, "empty theta range") != NULL, "%s",
      error->message);
  g_clear_error (&error);
  gst_message_unref (msg);

  /* fixed again: frames flow */
  g_object_set (e, "min-theta", 0.0f, "max-theta", 180.0f, NULL);
  out = hough_push (h, hough_frame_new (GST_VIDEO_FORMAT_GRAY8, luma, FALSE));
  fail_unless_equals_int (lines_of (out)->n_lines, 1);
  gst_buffer_unref (out);

  gst_element_set_bus (e, NULL);
  gst_object_unref (e);
  gst_object_unref (bus);
  gst_harness_teardown (h);
  hough_luma_free (luma);
}

GST_END_TEST;

/* ---- overlay --------------------------------------------------------------------- */

/* Distance of (x, y) from the segment (x0, y0)-(x1, y1). */
static gdouble
segment_distance (gdouble x, gdouble y, const GstCvLine * l)
{
  const gdouble dx = l->x1 - l->x0, dy = l->y1 - l->y0;
  const gdouble len2 = dx * dx + dy * dy;
  gdouble t = len2 > 0 ? ((x - l->x0) * dx + (y - l->y0) * dy) / len2 : 0;

  t = CLAMP (t, 0.0, 1.0);
  return hypot (x - (l->x0 + t * dx), y - (l->y0 + t * dy));
}

GST_START_TEST (test_overlay)
{
  HoughLuma *luma = hough_luma_new (W, H, 60);
  const GstVideoFormat formats[] = { GST_VIDEO_FORMAT_RGBA,
    GST_VIDEO_FORMAT_BGRx, GST_VIDEO_FORMAT_NV12, GST_VIDEO_FORMAT_GRAY8
  };

  hough_luma_step (luma, 150.0, 20.0, 200);
  for (guint f = 0; f < G_N_ELEMENTS (formats); f++) {
    const gchar *name = gst_video_format_to_string (formats[f]);
    GstBuffer *in = hough_frame_new (formats[f], luma, TRUE);
    GstHarness *h;
    GstBuffer *off, *on;
    GstVideoInfo info;
    GstVideoFrame a, b, c;
    GstCvLinesMeta *meta;
    guint changed = 0;

    gst_video_info_set_format (&info, formats[f], W, H);
    h = harness ("threshold=80 roi-y=40", formats[f], W, H);
    off = hough_push (h, gst_buffer_copy_deep (in));
    gst_harness_teardown (h);
    h = harness ("threshold=80 roi-y=40 overlay=true", formats[f], W, H);
    on = hough_push (h, gst_buffer_copy_deep (in));
    gst_harness_teardown (h);

    meta = lines_of (on);
    fail_unless (meta->n_lines >= 1, "%s: no line to draw", name);
    fail_unless (memcmp (lines_of (off)->lines, meta->lines,
            sizeof (GstCvLine) * meta->n_lines) == 0);

    fail_unless (gst_video_frame_map (&a, &info, in, GST_MAP_READ));
    fail_unless (gst_video_frame_map (&b, &info, off, GST_MAP_READ));
    fail_unless (gst_video_frame_map (&c, &info, on, GST_MAP_READ));
    for (guint p = 0; p < GST_VIDEO_FRAME_N_PLANES (&a); p++) {
      const gint rows = GST_VIDEO_FRAME_COMP_HEIGHT (&a, p == 0 ? 0 : 1);
      const gint bytes = GST_VIDEO_FRAME_COMP_WIDTH (&a, p == 0 ? 0 : 1) *
          GST_VIDEO_FRAME_COMP_PSTRIDE (&a, p == 0 ? 0 : 1);
      for (gint y = 0; y < rows; y++) {
        const guint8 *ra = (guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&a, p) +
            y * GST_VIDEO_FRAME_PLANE_STRIDE (&a, p);
        const guint8 *rb = (guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&b, p) +
            y * GST_VIDEO_FRAME_PLANE_STRIDE (&b, p);
        const guint8 *rc = (guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&c, p) +
            y * GST_VIDEO_FRAME_PLANE_STRIDE (&c, p);
        /* overlay off: untouched */
        fail_unless (memcmp (ra, rb, bytes) == 0, "%s: overlay=false changed "
            "plane %u row %d", name, p, y);
        if (p != 0)
          continue;
        /* overlay on: only pixels near a line change, to the line colour */
        for (gint x = 0; x < W; x++) {
          const gint ps = GST_VIDEO_FRAME_COMP_PSTRIDE (&a, 0);
          if (memcmp (ra + x * ps, rc + x * ps, ps) == 0)
            continue;
          changed++;
          {
            gdouble d = G_MAXDOUBLE;
            for (guint i = 0; i < meta->n_lines; i++)
              d = MIN (d, segment_distance (x, y, &meta->lines[i]));
            fail_unless (d <= 2.0, "%s: pixel (%d, %d) changed %.1f px away "
                "from every line", name, x, y, d);
            fail_unless (y >= 39, "%s: pixel (%d, %d) above the ROI changed",
                name, x, y);
          }
          if (formats[f] == GST_VIDEO_FORMAT_RGBA) {
            fail_unless (rc[4 * x] == 255 && rc[4 * x + 1] == 0
                && rc[4 * x + 2] == 255, "RGBA: pixel (%d, %d) is %u,%u,%u",
                x, y, rc[4 * x], rc[4 * x + 1], rc[4 * x + 2]);
            fail_unless (rc[4 * x + 3] == ra[4 * x + 3], "alpha changed");
          } else if (formats[f] == GST_VIDEO_FORMAT_BGRx) {
            fail_unless (rc[4 * x] == 255 && rc[4 * x + 1] == 0
                && rc[4 * x + 2] == 255);
            fail_unless (rc[4 * x + 3] == ra[4 * x + 3], "padding changed");
          }
        }
      }
    }
    printf ("  overlay %s: %u lines, %u pixels drawn\n", name, meta->n_lines,
        changed);
    /* 2-px lines across the ROI */
    fail_unless (changed >= 2 * (H - 40) - 4, "%s: only %u pixels drawn",
        name, changed);
    gst_video_frame_unmap (&a);
    gst_video_frame_unmap (&b);
    gst_video_frame_unmap (&c);
    gst_buffer_unref (in);
    gst_buffer_unref (off);
    gst_buffer_unref (on);
  }
  hough_luma_free (luma);
}

GST_END_TEST;

/* No lines: the overlay changes nothing. */
GST_START_TEST (test_overlay_without_lines)
{
  HoughLuma *luma = hough_luma_new (W, H, 60);
  GstBuffer *in = hough_frame_new (GST_VIDEO_FORMAT_I420, luma, TRUE);
  GstHarness *h = harness ("overlay=true", GST_VIDEO_FORMAT_I420, W, H);
  GstBuffer *out = hough_push (h, gst_buffer_copy_deep (in));

  fail_unless_equals_int (lines_of (out)->n_lines, 0);
  {
    GstMapInfo a, b;
    gst_buffer_map (in, &a, GST_MAP_READ);
    gst_buffer_map (out, &b, GST_MAP_READ);
    fail_unless (a.size == b.size && memcmp (a.data, b.data, a.size) == 0);
    gst_buffer_unmap (in, &a);
    gst_buffer_unmap (out, &b);
  }
  gst_buffer_unref (out);
  gst_buffer_unref (in);
  gst_harness_teardown (h);
  hough_luma_free (luma);
}

GST_END_TEST;

/* ---- messages, live changes ------------------------------------------------- */

GST_START_TEST (test_post_messages)
{
  HoughLuma *luma = hough_luma_new (W, H, 0);
  GstHarness *h = harness ("input=binary threshold=50", GST_VIDEO_FORMAT_GRAY8,
      W, H);
  GstElement *e = gst_harness_find_element (h, "cudahough");
  GstBus *bus = gst_bus_new ();
  GstBuffer *in, *out;
  GstMessage *msg;
  const GstStructure *s;
  GstCvLinesMeta *meta;
  guint n_lines, edge_pixels;
  const GValue *rho, *theta, *votes;
  GstClockTime ts;

  gst_element_set_bus (e, bus);
  for (gint k = 0; k < 10; k++)
    hough_luma_line (luma, 10.0 + 30 * k, 0.0, 255);

  /* off by default: no message */
  out = hough_push (h, hough_frame_new (GST_VIDEO_FORMAT_GRAY8, luma, FALSE));
  gst_buffer_unref (out);
  fail_unless (gst_bus_pop_filtered (bus, GST_MESSAGE_ELEMENT) == NULL);

  g_object_set (e, "post-messages", TRUE, NULL);
  in = hough_frame_new (GST_VIDEO_FORMAT_GRAY8, luma, FALSE);
  GST_BUFFER_PTS (in) = 5 * GST_SECOND;
  out = hough_push (h, in);
  meta = lines_of (out);
  fail_unless_equals_int (meta->n_lines, 10);
  msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ELEMENT);
  fail_unless (msg != NULL, "no element message");
  s = gst_message_get_structure (msg);
  fail_unless (gst_structure_has_name (s, "cudahough"));
  fail_unless (gst_structure_get_uint (s, "n-lines", &n_lines));
  fail_unless_equals_int (n_lines, 10);
  fail_unless (gst_structure_get_uint (s, "edge-pixels", &edge_pixels));
  fail_unless_equals_int (edge_pixels, 10 * H);
  fail_unless (gst_structure_get_uint64 (s, "timestamp", &ts));
  fail_unless_equals_uint64 (ts, 5 * GST_SECOND);
  {
    gint rx, ry, rw, rh;
    fail_unless (gst_structure_get (s, "roi-x", G_TYPE_INT, &rx, "roi-y",
            G_TYPE_INT, &ry, "roi-width", G_TYPE_INT, &rw, "roi-height",
            G_TYPE_INT, &rh, NULL));
    fail_unless (rx == 0 && ry == 0 && rw == W && rh == H);
  }
  rho = gst_structure_get_value (s, "rho");
  theta = gst_structure_get_value (s, "theta");
  votes = gst_structure_get_value (s, "votes");
  fail_unless (rho && theta && votes);
  /* the strongest 8 lines */
  fail_unless_equals_int (gst_value_array_get_size (rho), 8);
  fail_unless_equals_int (gst_value_array_get_size (theta), 8);
  fail_unless_equals_int (gst_value_array_get_size (votes), 8);
  for (guint i = 0; i < 8; i++) {
    const gdouble r = g_value_get_double (gst_value_array_get_value (rho, i));
    const gdouble t = g_value_get_double (gst_value_array_get_value (theta,
            i));
    fail_unless (fabs (r - meta->lines[i].rho) < 1e-3);
    fail_unless (fabs (t - meta->lines[i].theta / DEG) < 1e-3);
    fail_unless_equals_int (g_value_get_uint (gst_value_array_get_value (votes,
                i)), meta->lines[i].votes);
  }
  gst_message_unref (msg);
  gst_buffer_unref (out);

  gst_element_set_bus (e, NULL);
  gst_object_unref (e);
  gst_object_unref (bus);
  gst_harness_teardown (h);
  hough_luma_free (luma);
}

GST_END_TEST;

/* Properties changed while playing apply on the next frame; the CPU
 * backend moves no bytes to or from a GPU. */
GST_START_TEST (test_live_property_changes)
{
  HoughLuma *luma = hough_luma_new (W, H, 0);
  GstHarness *h = harness ("input=binary threshold=50", GST_VIDEO_FORMAT_GRAY8,
      W, H);
  GstElement *e = gst_harness_find_element (h, "cudahough");
  GstBuffer *out;
  guint64 transfer;

  hough_luma_line (luma, 40.0, 0.0, 255);
  hough_luma_line (luma, 30.0, 90.0, 255);
  out = hough_push (h, hough_frame_new (GST_VIDEO_FORMAT_GRAY8, luma, FALSE));
  fail_unless_equals_int (lines_of (out)->n_lines, 2);
  gst_buffer_unref (out);

  g_object_set (e, "threshold", 300, NULL);
  out = hough_push (h, hough_frame_new (GST_VIDEO_FORMAT_GRAY8, luma, FALSE));
  fail_unless_equals_int (lines_of (out)->n_lines, 1);
  gst_buffer_unref (out);

  g_object_set (e, "threshold", 50, "roi-y", 100, "roi-x", 100, NULL);
  out = hough_push (h, hough_frame_new (GST_VIDEO_FORMAT_GRAY8, luma, FALSE));
  fail_unless_equals_int (lines_of (out)->n_lines, 0);
  gst_buffer_unref (out);

  g_object_set (e, "roi-y", 0, "roi-x", 0, "min-theta", 45.0f, "max-theta",
      135.0f, NULL);
  out = hough_push (h, hough_frame_new (GST_VIDEO_FORMAT_GRAY8, luma, FALSE));
  fail_unless_equals_int (lines_of (out)->n_lines, 1);
  fail_unless (hough_line_matches (&lines_of (out)->lines[0], 30.0, 90.0, 0.5,
          0.5));
  gst_buffer_unref (out);

  /* a range moved past its old end: frames see both ends or neither,
   * never min-theta 150 with max-theta 135 (an empty range, an error) */
  g_object_freeze_notify (G_OBJECT (e));
  g_object_set (e, "min-theta", 150.0f, NULL);
  out = hough_push (h, hough_frame_new (GST_VIDEO_FORMAT_GRAY8, luma, FALSE));
  fail_unless_equals_int (lines_of (out)->n_lines, 1);
  gst_buffer_unref (out);
  g_object_set (e, "max-theta", 210.0f, NULL);
  g_object_thaw_notify (G_OBJECT (e));
  out = hough_push (h, hough_frame_new (GST_VIDEO_FORMAT_GRAY8, luma, FALSE));
  fail_unless_equals_int (lines_of (out)->n_lines, 1);
  fail_unless (hough_line_matches (&lines_of (out)->lines[0], 40.0, 0.0, 0.5,
          0.5));
  gst_buffer_unref (out);

  g_object_get (e, "transfer-bytes", &transfer, NULL);
  fail_unless_equals_uint64 (transfer, 0);
  gst_object_unref (e);
  gst_harness_teardown (h);
  hough_luma_free (luma);
}

GST_END_TEST;

/* The lines meta survives downstream elements (videoconvert, queue). */
GST_START_TEST (test_meta_survives_pipeline)
{
  GError *error = NULL;
  GstElement *p = gst_parse_launch ("videotestsrc num-buffers=1 "
      "pattern=checkers-8 ! video/x-raw,format=I420,width=320,height=240 ! "
      "cudahough threshold=100 ! queue ! videoconvert ! "
      "video/x-raw,format=RGBA ! appsink name=sink", &error);
  GstElement *sink;
  GstSample *sample;
  GstCvLinesMeta *meta;

  fail_unless (p != NULL, "%s", error ? error->message : "");
  sink = gst_bin_get_by_name (GST_BIN (p), "sink");
  gst_element_set_state (p, GST_STATE_PLAYING);
  g_signal_emit_by_name (sink, "pull-sample", &sample);
  fail_unless (sample != NULL);
  meta = gst_buffer_get_cv_lines_meta (gst_sample_get_buffer (sample));
  fail_unless (meta != NULL, "lines meta lost downstream");
  hough_print_lines ("checkers-8", meta);
  /* an 8-px checkerboard: the grid lines, vertical and horizontal */
  fail_unless (meta->n_lines == 16);
  for (guint i = 0; i < meta->n_lines; i++) {
    const gdouble t = meta->lines[i].theta / DEG;
    fail_unless (fabs (t) < 0.01 || fabs (t - 90) < 0.01, "line %u at %g deg",
        i, t);
  }
  gst_sample_unref (sample);
  gst_element_set_state (p, GST_STATE_NULL);
  gst_object_unref (sink);
  gst_object_unref (p);
}

GST_END_TEST;

static Suite *
hough_suite (void)
{
  Suite *s = suite_create ("cudahough");
  TCase *tc = tcase_create ("general");

  tcase_set_timeout (tc, 60);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_property_defaults);
  tcase_add_test (tc, test_property_set_get);
  tcase_add_test (tc, test_formats_step_edges);
  tcase_add_test (tc, test_known_lines_binary);
  tcase_add_test (tc, test_several_lines_sorted);
  tcase_add_test (tc, test_max_lines_and_threshold);
  tcase_add_test (tc, test_roi);
  tcase_add_test (tc, test_theta_range);
  tcase_add_test (tc, test_empty_image);
  tcase_add_test (tc, test_all_edges);
  tcase_add_test (tc, test_tiny_frames);
  tcase_add_test (tc, test_roi_outside_is_an_error);
  tcase_add_test (tc, test_theta_range_errors);
  tcase_add_test (tc, test_binary_needs_gray8);
  tcase_add_test (tc, test_bad_setting_while_playing);
  tcase_add_test (tc, test_overlay);
  tcase_add_test (tc, test_overlay_without_lines);
  tcase_add_test (tc, test_post_messages);
  tcase_add_test (tc, test_live_property_changes);
  tcase_add_test (tc, test_meta_survives_pipeline);
  return s;
}

GST_CHECK_MAIN (hough);
