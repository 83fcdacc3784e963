/* cudardp on system memory (CPU backend): properties, known answers on GRAY8
 * / GRAY16_LE disparity frames, the meta against the core CPU reference and
 * the RDP guarantees (independent naive check) on the synthetic scene's
 * ground truth, depth, column-step modes, median, gaps, overlay, messages
 * and errors.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/app/gstappsink.h>
#include <gst/cudavision/cudavision.h>
#include <math.h>
#include <stdio.h>

#include "cv_test.h"
#include "cvtestutil.h"
#include "rdp_elem_util.h"
#include "rdp_test_support.h"

/* ---- known answers on GRAY disparity frames ------------------------------ */

#define KW 8
#define KH 64

/* The columns of the known-answer frame (GRAY8 values = px, 0 = invalid):
 * 0 constant 20; 1 a V (10 + r up to row 31, then down to 9 at row 63);
 * 2 constant 50 with rows 20..29 invalid; 3 constant 50 with a spike of 80
 * at row 32; 4 all invalid; 5 one valid sample (30 at row 10); 6 noise;
 * 7 a ramp 100 + r. */
static guint16 *
known_values (guint scale)
{
  guint16 *v = g_new0 (guint16, KW * KH);
  guint32 seed = 7;

  for (gint r = 0; r < KH; r++) {
    guint16 *row = v + r * KW;
    row[0] = 20;
    row[1] = r <= 31 ? 10 + r : 41 - (r - 31);
    row[2] = (r >= 20 && r <= 29) ? 0 : 50;
    row[3] = r == 32 ? 80 : 50;
    row[4] = 0;
    row[5] = r == 10 ? 30 : 0;
    row[6] = 1 + cv_test_rand (&seed) % 255;
    row[7] = 100 + r;
    for (gint x = 0; x < KW; x++)
      row[x] *= scale;
  }
  return v;
}

typedef struct
{
  gint n_cuts;
  gint rows[8];
  gfloat values[8];
  gint n_gaps;
  gint gaps[4][2];
} KnownColumn;

static void
check_column (const GstCvSegmentsMeta * m, guint j, const KnownColumn * k,
    const gchar * label)
{
  const guint c0 = m->cut_offsets[j], g0 = m->gap_offsets[j];

  fail_unless_equals_int (m->cut_offsets[j + 1] - c0, k->n_cuts);
  for (gint i = 0; i < k->n_cuts; i++) {
    fail_unless (m->cut_rows[c0 + i] == k->rows[i]
        && m->cut_values[c0 + i] == k->values[i],
        "%s: column %u cut %d: row %u value %.9g, expected %d %.9g", label, j,
        i, m->cut_rows[c0 + i], m->cut_values[c0 + i], k->rows[i],
        k->values[i]);
  }
  fail_unless_equals_int (m->gap_offsets[j + 1] - g0, k->n_gaps);
  for (gint i = 0; i < k->n_gaps; i++)
    fail_unless (m->gap_starts[g0 + i] == k->gaps[i][0]
        && m->gap_ends[g0 + i] == k->gaps[i][1],
        "%s: column %u gap %d: [%u, %u], expected [%d, %d]", label, j, i,
        m->gap_starts[g0 + i], m->gap_ends[g0 + i], k->gaps[i][0],
        k->gaps[i][1]);
}

static GstHarness *
gray_harness (const gchar * launch, GstVideoFormat format, gint width,
    gint height)
{
  GstHarness *h = gst_harness_new_parse (launch);
  gchar *caps = g_strdup_printf ("video/x-raw,format=%s,width=%d,height=%d,"
      "framerate=30/1", gst_video_format_to_string (format), width, height);

  gst_harness_set_src_caps_str (h, caps);
  g_free (caps);
  return h;
}

/* Runs the known-answer frame (@scale: 1 for GRAY8, 256 for GRAY16_LE)
 * through `cudardp @props`, checks the meta against the core reference and
 * the RDP properties; returns the output (caller unrefs). */
static GstBuffer *
run_known (GstVideoFormat format, guint scale, const gchar * props,
    GstHarness ** harness_out)
{
  gchar *launch = g_strdup_printf ("cudardp %s", props);
  GstHarness *h = gray_harness (launch, format, KW, KH);
  guint16 *values = known_values (scale);
  GstBuffer *out = rdp_elem_push (h, rdp_elem_gray_frame_new (format, values,
          KW, KH));
  GstCvSegmentsMeta *meta = gst_buffer_get_cv_segments_meta (out);
  GstElement *rdp = gst_harness_find_element (h, "cudardp");
  CvImageS16 *disp = rdp_elem_gray_disparity (format, values, KW, KH);
  CvRdpCpu *cpu = cv_rdp_cpu_new ();
  CvRdpParams params;
  gchar *label = g_strdup_printf ("%s %s",
      gst_video_format_to_string (format), props);

  fail_unless (meta != NULL, "%s: no segments meta", label);
  rdp_elem_params (rdp, NULL, &params);
  rdp_elem_check_meta (cpu, meta, &params, disp, label);

  cv_rdp_cpu_free (cpu);
  rdp_image_free (disp);
  gst_object_unref (rdp);
  g_free (values);
  g_free (label);
  g_free (launch);
  if (harness_out)
    *harness_out = h;
  else
    gst_harness_teardown (h);
  return out;
}

static void
check_known_disparity (GstVideoFormat format, guint scale)
{
  const KnownColumn c0 = { 2, {0, 63}, {20, 20}, 0 };
  const KnownColumn c1 = { 3, {0, 31, 63}, {10, 41, 9}, 0 };
  const KnownColumn c2 = { 4, {0, 19, 30, 63}, {50, 50, 50, 50}, 1, {{20, 29}}
  };
  const KnownColumn c3 = { 5, {0, 31, 32, 33, 63}, {50, 50, 80, 50, 50}, 0 };
  const KnownColumn c3_median = { 2, {0, 63}, {50, 50}, 0 };
  const KnownColumn c4 = { 0, {0}, {0}, 1, {{0, 63}} };
  const KnownColumn c5 = { 1, {10}, {30}, 2, {{0, 9}, {11, 63}} };
  const KnownColumn c7 = { 2, {0, 63}, {100, 163}, 0 };
  const gchar *name = gst_video_format_to_string (format);
  GstBuffer *out;
  GstCvSegmentsMeta *m;

  /* no prefilter, 1 px: every cut of the columns above is known */
  out = run_known (format, scale, "median=off epsilon=1", NULL);
  m = gst_buffer_get_cv_segments_meta (out);
  fail_unless_equals_int (m->n_columns, KW);
  fail_unless_equals_int (m->signal, GST_CV_SEGMENTS_DISPARITY);
  fail_unless_equals_float (m->epsilon, 1.0f);
  for (guint j = 0; j < KW; j++)
    fail_unless_equals_int (m->columns[j], j);
  check_column (m, 0, &c0, name);
  check_column (m, 1, &c1, name);
  check_column (m, 2, &c2, name);
  check_column (m, 3, &c3, name);
  check_column (m, 4, &c4, name);
  check_column (m, 5, &c5, name);
  check_column (m, 7, &c7, name);
  gst_buffer_unref (out);

  /* the default median of 3 rows removes the spike; gaps stay */
  out = run_known (format, scale, "epsilon=1", NULL);
  m = gst_buffer_get_cv_segments_meta (out);
  check_column (m, 3, &c3_median, name);
  check_column (m, 2, &c2, name);
  check_column (m, 4, &c4, name);
  check_column (m, 5, &c5, name);
  gst_buffer_unref (out);

  /* the defaults: 4 px, median 3 */
  gst_buffer_unref (run_known (format, scale, "", NULL));
  gst_buffer_unref (run_known (format, scale, "median=5 epsilon=0", NULL));
  gst_buffer_unref (run_known (format, scale, "epsilon=2.3 median=off", NULL));
}

GST_START_TEST (test_gray8_known)
{
  check_known_disparity (GST_VIDEO_FORMAT_GRAY8, 1);
}

GST_END_TEST;

GST_START_TEST (test_gray16_known)
{
  guint16 *values = known_values (256);
  GstHarness *h = gray_harness ("cudardp median=off", GST_VIDEO_FORMAT_GRAY16_LE,
      KW, KH);
  GstBuffer *out;
  GstCvSegmentsMeta *m;

  /* KITTI convention: value / 256 px */
  check_known_disparity (GST_VIDEO_FORMAT_GRAY16_LE, 256);

  /* sub-pixel: + 128 / 256 = 0.5 px on every valid sample */
  for (gint i = 0; i < KW * KH; i++)
    if (values[i])
      values[i] += 128;
  out = rdp_elem_push (h, rdp_elem_gray_frame_new (GST_VIDEO_FORMAT_GRAY16_LE,
          values, KW, KH));
  m = gst_buffer_get_cv_segments_meta (out);
  fail_unless_equals_int (m->cut_offsets[1] - m->cut_offsets[0], 2);
  fail_unless_equals_float (m->cut_values[m->cut_offsets[0]], 20.5f);
  fail_unless_equals_float (m->cut_values[m->cut_offsets[7]], 100.5f);
  gst_buffer_unref (out);
  gst_harness_teardown (h);
  g_free (values);
}

GST_END_TEST;

/* signal=depth on GRAY frames: the calibration comes from the properties. */
GST_START_TEST (test_depth_gray)
{
  GstBuffer *out;
  GstCvSegmentsMeta *m;
  const KnownColumn c4 = { 0, {0}, {0}, 1, {{0, 63}} };

  /* Z = f B / d = 50 m px / d: 20 px -> 2.5 m exactly */
  out = run_known (GST_VIDEO_FORMAT_GRAY8, 1,
      "signal=depth focal-length=100 baseline=0.5 median=off", NULL);
  m = gst_buffer_get_cv_segments_meta (out);
  fail_unless_equals_int (m->signal, GST_CV_SEGMENTS_DEPTH);
  fail_unless_equals_float (m->epsilon, RDP_ELEM_DEPTH_EPSILON);
  fail_unless_equals_int (m->cut_offsets[1], 2);
  fail_unless_equals_float (m->cut_values[0], 2.5f);
  fail_unless_equals_float (m->cut_values[1], 2.5f);
  check_column (m, 4, &c4, "depth");
  gst_buffer_unref (out);

  /* max-depth clamps: 2.5 m -> 2 m */
  out = run_known (GST_VIDEO_FORMAT_GRAY8, 1,
      "signal=depth focal-length=100 baseline=0.5 max-depth=2 epsilon=0.01",
      NULL);
  m = gst_buffer_get_cv_segments_meta (out);
  fail_unless_equals_float (m->cut_values[0], 2.0f);
  fail_unless_equals_float (m->epsilon, 0.01f);
  gst_buffer_unref (out);

  gst_buffer_unref (run_known (GST_VIDEO_FORMAT_GRAY16_LE, 256,
          "signal=depth focal-length=721.5 baseline=0.54 epsilon=0.05", NULL));
}

GST_END_TEST;

/* column-step: which image columns are segmented, sample and mean. */
GST_START_TEST (test_column_step)
{
  enum
  { W = 10, H = 16 };
  /* groups of 3: (10, 20, 30) -> mean 20; (10, invalid, 21) -> 15.5;
   * all invalid; the last group is column 9 alone (40) */
  static const guint16 col[W] = { 10, 20, 30, 10, 0, 21, 0, 0, 0, 40 };
  guint16 values[W * H];
  const gchar *modes[] = { "sample", "mean" };
  const gfloat expected[2][4] = { {10, 10, -1, 40}, {20, 15.5f, -1, 40} };

  for (gint r = 0; r < H; r++)
    memcpy (values + r * W, col, sizeof (col));

  for (guint mode = 0; mode < 2; mode++) {
    gchar *launch = g_strdup_printf ("cudardp column-step=3 column-mode=%s",
        modes[mode]);
    GstHarness *h = gray_harness (launch, GST_VIDEO_FORMAT_GRAY8, W, H);
    GstBuffer *out = rdp_elem_push (h,
        rdp_elem_gray_frame_new (GST_VIDEO_FORMAT_GRAY8, values, W, H));
    GstCvSegmentsMeta *m = gst_buffer_get_cv_segments_meta (out);
    GstElement *rdp = gst_harness_find_element (h, "cudardp");
    CvImageS16 *disp = rdp_elem_gray_disparity (GST_VIDEO_FORMAT_GRAY8,
        values, W, H);
    CvRdpCpu *cpu = cv_rdp_cpu_new ();
    CvRdpParams params;

    fail_unless_equals_int (m->n_columns, 4);
    for (guint j = 0; j < 4; j++) {
      fail_unless_equals_int (m->columns[j], 3 * j);
      if (expected[mode][j] < 0) {
        fail_unless_equals_int (m->cut_offsets[j + 1], m->cut_offsets[j]);
        fail_unless_equals_int (m->gap_offsets[j + 1] - m->gap_offsets[j], 1);
        continue;
      }
      fail_unless_equals_int (m->cut_offsets[j + 1] - m->cut_offsets[j], 2);
      fail_unless_equals_float (m->cut_values[m->cut_offsets[j]],
          expected[mode][j]);
      fail_unless_equals_int (m->cut_rows[m->cut_offsets[j] + 1], H - 1);
    }
    rdp_elem_params (rdp, NULL, &params);
    rdp_elem_check_meta (cpu, m, &params, disp, launch);

    cv_rdp_cpu_free (cpu);
    rdp_image_free (disp);
    gst_object_unref (rdp);
    gst_buffer_unref (out);
    gst_harness_teardown (h);
    g_free (launch);
  }
}

GST_END_TEST;

/* ---- the synthetic scene's ground truth (stereotestsrc, left view) -------- */

#define VW 320
#define VH 240

/* stereotestsrc attach-disparity=true, the left view cropped, through
 * `cudardp @props`: every frame's meta equals the core CPU reference on the
 * meta's disparity and calibration, and satisfies the RDP guarantees. */
static void
check_scene (const gchar * props, gboolean depth)
{
  enum
  { N_FRAMES = 2 };
  gchar *desc = g_strdup_printf ("stereotestsrc num-buffers=%d supersample=1 "
      "attach-disparity=true ! video/x-raw,format=RGBA,width=%d,height=%d ! "
      "videocrop right=%d ! cudardp name=rdp %s ! appsink name=sink",
      N_FRAMES, 2 * VW, VH, VW, props);
  GstElement *pipeline = gst_parse_launch (desc, NULL);
  GstElement *sink, *rdp;
  GstSample *samples[N_FRAMES] = { NULL };
  CvRdpCpu *cpu = cv_rdp_cpu_new ();

  fail_unless (pipeline != NULL, "%s", desc);
  sink = gst_bin_get_by_name (GST_BIN (pipeline), "sink");
  rdp = gst_bin_get_by_name (GST_BIN (pipeline), "rdp");
  /* every frame first, then the checks: a failed check must not leave
   * the pipeline running (CK_FORK=no) */
  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  for (guint i = 0; i < N_FRAMES; i++)
    samples[i] = gst_app_sink_pull_sample (GST_APP_SINK (sink));
  gst_element_set_state (pipeline, GST_STATE_NULL);

  for (guint i = 0; i < N_FRAMES; i++) {
    GstBuffer *buf;
    GstCvSegmentsMeta *m;
    CvStereoCalibration calib;
    CvImageS16 *disp;
    CvRdpParams params;
    gchar *label = g_strdup_printf ("scene '%s' frame %u", props, i);
    gint levels;

    fail_unless (samples[i] != NULL, "%s: no frame", label);
    buf = gst_sample_get_buffer (samples[i]);
    m = gst_buffer_get_cv_segments_meta (buf);
    fail_unless (m != NULL, "%s: no segments meta", label);
    disp = rdp_elem_meta_disparity (buf, &calib);
    fail_unless (disp != NULL, "%s: the disparity meta was not kept", label);
    fail_unless_equals_int (disp->width, VW);
    rdp_elem_params (rdp, &calib, &params);
    levels = rdp_elem_check_meta (cpu, m, &params, disp, label);
    /* ground truth has no invalid pixels; in depth the sky (0 px) is */
    if (depth)
      fail_unless (m->gap_offsets[m->n_columns] >= m->n_columns,
          "%s: the sky should be a gap in every column", label);
    else
      fail_unless_equals_int (m->gap_offsets[m->n_columns], 0);
    printf ("  %s: %u columns, %u cuts, %u gaps, %d levels: identical to the "
        "reference, RDP properties hold\n", label, m->n_columns,
        m->cut_offsets[m->n_columns], m->gap_offsets[m->n_columns], levels);
    rdp_image_free (disp);
    gst_sample_unref (samples[i]);
    g_free (label);
  }
  cv_rdp_cpu_free (cpu);
  gst_object_unref (rdp);
  gst_object_unref (sink);
  gst_object_unref (pipeline);
  g_free (desc);
}

GST_START_TEST (test_scene_disparity)
{
  check_scene ("", FALSE);
  check_scene ("epsilon=1 median=off", FALSE);
  check_scene ("epsilon=6.3 median=5 column-step=4 column-mode=mean", FALSE);
  check_scene ("epsilon=0 column-step=7", FALSE);
}

GST_END_TEST;

GST_START_TEST (test_scene_depth)
{
  /* the calibration rides on the meta; the properties are not needed */
  check_scene ("signal=depth", TRUE);
  check_scene ("signal=depth epsilon=0.1 max-depth=40 median=off", TRUE);
}

GST_END_TEST;

/* ---- formats, overlay -------------------------------------------------------- */

static const GstVideoFormat system_formats[] = {
  GST_VIDEO_FORMAT_NV12, GST_VIDEO_FORMAT_I420, GST_VIDEO_FORMAT_Y444,
  GST_VIDEO_FORMAT_RGBA, GST_VIDEO_FORMAT_BGRA, GST_VIDEO_FORMAT_RGBx,
  GST_VIDEO_FORMAT_BGRx, GST_VIDEO_FORMAT_GRAY8, GST_VIDEO_FORMAT_GRAY16_LE
};

static GstHarness *
frame_harness (const gchar * launch, GstVideoFormat format, gint width,
    gint height)
{
  return gray_harness (launch, format, width, height);
}

/* Every system-memory format negotiates and gives the meta of the
 * disparity meta (which wins over the content of GRAY frames). */
GST_START_TEST (test_formats)
{
  enum
  { W = 70, H = 45 };
  CvImageS16 *disp = rdp_image_new (W, H, 2);
  CvRdpCpu *cpu = cv_rdp_cpu_new ();
  GstCvStereoCalibration calib = { 300.0, 35.0, 22.0, 0.3 };

  rdp_image_fill (disp, RDP_INPUT_INVALID_RUNS, 11);
  for (guint f = 0; f < G_N_ELEMENTS (system_formats); f++) {
    const gchar *name = gst_video_format_to_string (system_formats[f]);
    GstHarness *h = frame_harness ("cudardp epsilon=2", system_formats[f], W,
        H);
    GstBuffer *in = rdp_elem_frame_new (system_formats[f], W, H, 3 + f);
    GstBuffer *out;
    GstElement *rdp = gst_harness_find_element (h, "cudardp");
    CvRdpParams params;
    CvStereoCalibration c = { 300.0f, 35.0f, 22.0f, 0.3f };
    guint64 bytes;

    rdp_elem_attach_disparity (in, disp, &calib, 64);
    out = rdp_elem_push (h, in);
    fail_unless (gst_buffer_get_cv_segments_meta (out) != NULL, "%s", name);
    rdp_elem_params (rdp, &c, &params);
    rdp_elem_check_meta (cpu, gst_buffer_get_cv_segments_meta (out), &params,
        disp, name);
    /* the CPU backend copies nothing between host and GPU */
    g_object_get (rdp, "transfer-bytes", &bytes, NULL);
    fail_unless_equals_uint64 (bytes, 0);
    gst_buffer_unref (out);
    gst_object_unref (rdp);
    gst_harness_teardown (h);
  }
  cv_rdp_cpu_free (cpu);
  rdp_image_free (disp);
}

GST_END_TEST;

static void
pixel_rgba (GstBuffer * buf, gint w, gint h, gint x, gint y, guint8 rgba[4])
{
  GstVideoInfo info;
  GstVideoFrame frame;

  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_RGBA, w, h);
  fail_unless (gst_video_frame_map (&frame, &info, buf, GST_MAP_READ));
  memcpy (rgba, (guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&frame, 0) +
      (gsize) y * GST_VIDEO_FRAME_PLANE_STRIDE (&frame, 0) + 4 * x, 4);
  gst_video_frame_unmap (&frame);
}

/* The overlay draws only when on, where the docs say: a disparity of
 * 16 px with max-disparity 32 is half of the 32 px band, the cuts are red,
 * the segments yellow, gaps empty. */
GST_START_TEST (test_overlay)
{
  enum
  { W = 70, H = 48, GAP0 = 10, GAP1 = 20 };
  CvImageS16 *disp = rdp_image_new (W, H, 0);
  GstHarness *h = frame_harness ("cudardp", GST_VIDEO_FORMAT_RGBA, W, H);
  GstElement *rdp = gst_harness_find_element (h, "cudardp");
  GstVideoInfo info;
  GstBuffer *in, *out;
  /* vertex x = x0 + (32 - 1) * 0.5 = x0 + 15.5, drawn at x0 + 16 */
  const gint xs[] = { 16, 32 + 16, 64 + 3 };
  guint8 p[4], q[4];

  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_RGBA, W, H);
  for (gint y = 0; y < H; y++)
    for (gint x = 0; x < W; x++)
      CV_ROW (disp, y)[x] = (y >= GAP0 && y <= GAP1) ? -1 : 16 * 16;
  in = rdp_elem_frame_new (GST_VIDEO_FORMAT_RGBA, W, H, 5);
  rdp_elem_attach_disparity (in, disp, NULL, 32);

  /* off: the frame passes unchanged */
  out = rdp_elem_push (h, gst_buffer_copy_deep (in));
  fail_unless (rdp_elem_frames_equal (&info, in, out, "overlay=false"));
  gst_buffer_unref (out);

  g_object_set (rdp, "overlay", TRUE, NULL);
  out = rdp_elem_push (h, gst_buffer_copy_deep (in));
  fail_if (rdp_elem_frames_equal (&info, in, out, NULL),
      "overlay=true left the frame unchanged");
  /* the last band is clipped to 6 px: x = 64 + 5 * 0.5 -> 66.5 -> 67 */
  for (guint b = 0; b < G_N_ELEMENTS (xs); b++) {
    const gint x = b == 2 ? 67 : xs[b];
    /* segment pixels between the cuts: yellow */
    pixel_rgba (out, W, H, x, 5, p);
    fail_unless (p[0] == 255 && p[1] == 255 && p[2] == 0,
        "band %u: (%d, 5) is %u %u %u, expected yellow", b, x, p[0], p[1],
        p[2]);
    pixel_rgba (out, W, H, x, 35, p);
    fail_unless (p[0] == 255 && p[1] == 255 && p[2] == 0);
    /* cuts (0, 9, 21, 47): red 3x3 marks */
    pixel_rgba (out, W, H, x - 1, GAP0 - 1, p);
    fail_unless (p[0] == 255 && p[1] == 0 && p[2] == 0,
        "band %u: mark at (%d, %d) is %u %u %u", b, x - 1, GAP0 - 1, p[0],
        p[1], p[2]);
    pixel_rgba (out, W, H, x + 1, GAP1 + 2, p);
    fail_unless (p[0] == 255 && p[1] == 0 && p[2] == 0);
    pixel_rgba (out, W, H, x, H - 1, p);
    fail_unless (p[0] == 255 && p[1] == 0 && p[2] == 0);
    /* inside the gap: untouched */
    pixel_rgba (out, W, H, x, (GAP0 + GAP1) / 2, p);
    pixel_rgba (in, W, H, x, (GAP0 + GAP1) / 2, q);
    fail_unless (memcmp (p, q, 4) == 0, "band %u: gap drawn", b);
  }
  /* columns away from the polylines: untouched */
  for (gint y = 0; y < H; y++) {
    pixel_rgba (out, W, H, 5, y, p);
    pixel_rgba (in, W, H, 5, y, q);
    fail_unless (memcmp (p, q, 4) == 0, "(5, %d) changed", y);
  }
  gst_buffer_unref (out);

  /* and off again */
  g_object_set (rdp, "overlay", FALSE, NULL);
  out = rdp_elem_push (h, gst_buffer_copy_deep (in));
  fail_unless (rdp_elem_frames_equal (&info, in, out, "overlay=false again"));
  gst_buffer_unref (out);

  gst_buffer_unref (in);
  gst_object_unref (rdp);
  gst_harness_teardown (h);

  /* every format: on changes the frame, off does not */
  for (guint f = 0; f < G_N_ELEMENTS (system_formats); f++) {
    GstVideoFormat format = system_formats[f];
    const gchar *name = gst_video_format_to_string (format);

    gst_video_info_set_format (&info, format, W, H);
    for (gint overlay = 0; overlay < 2; overlay++) {
      GstHarness *hf = frame_harness (overlay ? "cudardp overlay=true" :
          "cudardp", format, W, H);
      GstBuffer *src = rdp_elem_frame_new (format, W, H, 9 + f);

      rdp_elem_attach_disparity (src, disp, NULL, 32);
      out = rdp_elem_push (hf, gst_buffer_copy_deep (src));
      if (overlay)
        fail_if (rdp_elem_frames_equal (&info, src, out, NULL),
            "%s: overlay=true left the frame unchanged", name);
      else
        fail_unless (rdp_elem_frames_equal (&info, src, out, name),
            "%s: overlay=false changed the frame", name);
      gst_buffer_unref (out);
      gst_buffer_unref (src);
      gst_harness_teardown (hf);
    }
  }
  rdp_image_free (disp);
}

GST_END_TEST;

/* ---- messages, live property changes ------------------------------------- */

GST_START_TEST (test_messages)
{
  enum
  { W = 50, H = 80 };
  CvImageS16 *disp = rdp_image_new (W, H, 0);
  GstHarness *h = frame_harness ("cudardp post-messages=true",
      GST_VIDEO_FORMAT_NV12, W, H);
  GstElement *rdp = gst_harness_find_element (h, "cudardp");
  GstBus *bus = gst_bus_new ();
  CvRdpCpu *cpu = cv_rdp_cpu_new ();
  GstBuffer *in, *out;
  GstMessage *msg;
  const GstStructure *st;
  GstCvSegmentsMeta *m;
  CvRdpParams params;
  guint columns, cuts, gaps;
  gint levels, max_levels;
  gdouble mean;
  gfloat epsilon;
  guint64 ts;

  gst_element_set_bus (h->element, bus);
  rdp_image_fill (disp, RDP_INPUT_INVALID_RUNS, 5);
  in = rdp_elem_frame_new (GST_VIDEO_FORMAT_NV12, W, H, 1);
  rdp_elem_attach_disparity (in, disp, NULL, 128);
  GST_BUFFER_PTS (in) = 5 * GST_SECOND;
  out = rdp_elem_push (h, in);
  m = gst_buffer_get_cv_segments_meta (out);
  rdp_elem_params (rdp, NULL, &params);
  max_levels = rdp_elem_check_meta (cpu, m, &params, disp, "messages");

  msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ELEMENT);
  fail_unless (msg != NULL, "no cudardp message");
  st = gst_message_get_structure (msg);
  fail_unless (gst_structure_has_name (st, "cudardp"));
  fail_unless (gst_structure_get (st, "columns", G_TYPE_UINT, &columns,
          "cuts", G_TYPE_UINT, &cuts, "gaps", G_TYPE_UINT, &gaps,
          "mean-cuts", G_TYPE_DOUBLE, &mean, "max-levels", G_TYPE_INT,
          &levels, "epsilon", G_TYPE_FLOAT, &epsilon, "timestamp",
          G_TYPE_UINT64, &ts, NULL), "fields missing: %" GST_PTR_FORMAT, st);
  fail_unless_equals_string (gst_structure_get_string (st, "signal"),
      "disparity");
  fail_unless_equals_int (columns, m->n_columns);
  fail_unless_equals_int (cuts, m->cut_offsets[m->n_columns]);
  fail_unless_equals_int (gaps, m->gap_offsets[m->n_columns]);
  fail_unless (gaps > 0);
  fail_unless_equals_float (mean, (gdouble) cuts / columns);
  fail_unless_equals_int (levels, max_levels);
  fail_unless (levels >= 1);
  fail_unless_equals_float (epsilon, 4.0f);
  fail_unless_equals_uint64 (ts, 5 * GST_SECOND);
  gst_message_unref (msg);
  gst_buffer_unref (out);

  /* off: no message */
  g_object_set (rdp, "post-messages", FALSE, NULL);
  in = rdp_elem_frame_new (GST_VIDEO_FORMAT_NV12, W, H, 1);
  rdp_elem_attach_disparity (in, disp, NULL, 128);
  gst_buffer_unref (rdp_elem_push (h, in));
  msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ELEMENT);
  fail_unless (msg == NULL, "message posted with post-messages=false");

  gst_element_set_bus (h->element, NULL);
  gst_object_unref (bus);
  cv_rdp_cpu_free (cpu);
  rdp_image_free (disp);
  gst_object_unref (rdp);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* Properties changed between frames apply to the next frame. */
GST_START_TEST (test_live_changes)
{
  enum
  { W = 64, H = 96 };
  static const gchar *changes[][2] = {
    {"epsilon", "0.5"},
    {"median", "5"},
    {"column-step", "5"},
    {"column-mode", "mean"},
    {"signal", "depth"},
    {"epsilon", "-1"},
    {"max-depth", "30"},
    {"median", "0"},
    {"signal", "disparity"},
    {"column-step", "1"},
  };
  CvImageS16 *disp = rdp_image_new (W, H, 4);
  GstHarness *h = frame_harness ("cudardp", GST_VIDEO_FORMAT_I420, W, H);
  GstElement *rdp = gst_harness_find_element (h, "cudardp");
  GstCvStereoCalibration calib = { 500.0, 32.0, 48.0, 0.25 };
  CvStereoCalibration c = { 500.0f, 32.0f, 48.0f, 0.25f };
  CvRdpCpu *cpu = cv_rdp_cpu_new ();
  guint last_cuts = 0;

  rdp_image_fill (disp, RDP_INPUT_STREET, 21);
  for (guint i = 0; i <= G_N_ELEMENTS (changes); i++) {
    GstBuffer *in = rdp_elem_frame_new (GST_VIDEO_FORMAT_I420, W, H, i);
    GstBuffer *out;
    GstCvSegmentsMeta *m;
    CvRdpParams params;
    gchar *label = i == 0 ? g_strdup ("defaults") :
        g_strdup_printf ("+%s=%s", changes[i - 1][0], changes[i - 1][1]);

    if (i > 0)
      gst_util_set_object_arg (G_OBJECT (rdp), changes[i - 1][0],
          changes[i - 1][1]);
    rdp_elem_attach_disparity (in, disp, &calib, 128);
    out = rdp_elem_push (h, in);
    m = gst_buffer_get_cv_segments_meta (out);
    rdp_elem_params (rdp, &c, &params);
    rdp_elem_check_meta (cpu, m, &params, disp, label);
    if (i == 1)
      fail_unless (m->cut_offsets[m->n_columns] > last_cuts,
          "a smaller epsilon should give more cuts");
    last_cuts = m->cut_offsets[m->n_columns];
    gst_buffer_unref (out);
    g_free (label);
  }
  cv_rdp_cpu_free (cpu);
  rdp_image_free (disp);
  gst_object_unref (rdp);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* ---- properties ------------------------------------------------------------- */

GST_START_TEST (test_properties)
{
  GstElement *rdp = gst_element_factory_make ("cudardp", NULL);
  GObjectClass *klass;
  const gchar *names[] = { "epsilon", "signal", "column-step", "column-mode",
    "median", "max-depth", "focal-length", "baseline", "overlay",
    "post-messages"
  };
  gfloat epsilon, max_depth;
  gint signal, step, mode, median;
  gdouble focal, baseline;
  gboolean overlay;
  GParamSpec *pspec;

  fail_unless (rdp != NULL);
  klass = G_OBJECT_GET_CLASS (rdp);
  g_object_get (rdp, "epsilon", &epsilon, "signal", &signal, "column-step",
      &step, "column-mode", &mode, "median", &median, "max-depth", &max_depth,
      "focal-length", &focal, "baseline", &baseline, "overlay", &overlay,
      NULL);
  fail_unless_equals_float (epsilon, -1.0f);
  fail_unless_equals_int (signal, 0);
  fail_unless_equals_int (step, 1);
  fail_unless_equals_int (mode, 0);
  fail_unless_equals_int (median, 3);
  fail_unless_equals_float (max_depth, 0.0f);
  fail_unless_equals_float (focal, 0.0);
  fail_unless_equals_float (baseline, 0.0);
  fail_unless (!overlay);

  /* documented, changeable while playing */
  for (guint i = 0; i < G_N_ELEMENTS (names); i++) {
    pspec = g_object_class_find_property (klass, names[i]);
    fail_unless (pspec != NULL, "no property %s", names[i]);
    fail_unless (strlen (g_param_spec_get_blurb (pspec)) > 20,
        "%s: blurb too short", names[i]);
    fail_unless (pspec->flags & GST_PARAM_MUTABLE_PLAYING, "%s", names[i]);
  }

  /* ranges */
  pspec = g_object_class_find_property (klass, "epsilon");
  fail_unless_equals_float (G_PARAM_SPEC_FLOAT (pspec)->minimum, -1.0f);
  fail_unless_equals_float (G_PARAM_SPEC_FLOAT (pspec)->maximum,
      CV_RDP_MAX_EPSILON_PX);
  pspec = g_object_class_find_property (klass, "column-step");
  fail_unless_equals_int (G_PARAM_SPEC_INT (pspec)->minimum, 1);
  fail_unless_equals_int (G_PARAM_SPEC_INT (pspec)->maximum, 65535);

  /* enums by nick and by value, as gst-launch-1.0 sets them */
  gst_util_set_object_arg (G_OBJECT (rdp), "median", "off");
  g_object_get (rdp, "median", &median, NULL);
  fail_unless_equals_int (median, 0);
  gst_util_set_object_arg (G_OBJECT (rdp), "median", "5");
  g_object_get (rdp, "median", &median, NULL);
  fail_unless_equals_int (median, 5);
  gst_util_set_object_arg (G_OBJECT (rdp), "median", "0");
  g_object_get (rdp, "median", &median, NULL);
  fail_unless_equals_int (median, 0);
  gst_util_set_object_arg (G_OBJECT (rdp), "signal", "depth");
  gst_util_set_object_arg (G_OBJECT (rdp), "column-mode", "mean");
  g_object_set (rdp, "epsilon", 7.5f, "column-step", 9, "max-depth", 60.0f,
      "focal-length", 721.5, "baseline", 0.54, "overlay", TRUE, NULL);
  g_object_get (rdp, "epsilon", &epsilon, "signal", &signal, "column-step",
      &step, "column-mode", &mode, "max-depth", &max_depth, "focal-length",
      &focal, "baseline", &baseline, "overlay", &overlay, NULL);
  fail_unless_equals_float (epsilon, 7.5f);
  fail_unless_equals_int (signal, 1);
  fail_unless_equals_int (step, 9);
  fail_unless_equals_int (mode, 1);
  fail_unless_equals_float (max_depth, 60.0f);
  fail_unless_equals_float (focal, 721.5);
  fail_unless_equals_float (baseline, 0.54);
  fail_unless (overlay);

  gst_object_unref (rdp);
}

GST_END_TEST;

/* ---- errors ------------------------------------------------------------------ */

GST_START_TEST (test_errors)
{
  /* no disparity: neither a meta nor a GRAY frame */
  cv_test_expect_error ("videotestsrc num-buffers=1 ! "
      "video/x-raw,format=RGBA,width=64,height=48 ! cudardp ! fakesink",
      "No disparity for this frame");
  /* the disparity of the left view on the whole side-by-side frame */
  cv_test_expect_error ("stereotestsrc num-buffers=1 supersample=1 "
      "attach-disparity=true ! video/x-raw,format=RGBA,width=320,height=120 ! "
      "cudardp ! fakesink", "does not match the frame");
  /* depth needs a calibration: GRAY frames have none of their own */
  cv_test_expect_error ("videotestsrc num-buffers=1 ! "
      "video/x-raw,format=GRAY8,width=32,height=32 ! cudardp signal=depth ! "
      "fakesink", "signal=depth needs the stereo calibration");
  cv_test_expect_error ("videotestsrc num-buffers=1 ! "
      "video/x-raw,format=GRAY8,width=32,height=32 ! "
      "cudardp signal=depth focal-length=700 ! fakesink", "baseline");
  /* columns longer than the core segments */
  cv_test_expect_error ("videotestsrc num-buffers=1 ! "
      "video/x-raw,format=GRAY8,width=4,height=16385 ! cudardp ! fakesink",
      "supports frames up to");
}

GST_END_TEST;

/* The CPU pipelines of docs/elements/cudardp.md run (sinks replaced). */
GST_START_TEST (test_doc_pipelines)
{
  gchar *cones = cv_test_data_path ("middlebury/cones/disp-left.png");

  cv_test_expect_eos ("stereotestsrc num-buffers=3 supersample=1 "
      "attach-disparity=true ! video/x-raw,format=RGBA,width=1280,height=480 "
      "! videocrop right=640 ! cudardp overlay=true post-messages=true ! "
      "videoconvert ! fakesink");
  cv_test_expect_eos ("stereotestsrc num-buffers=2 supersample=1 "
      "attach-disparity=true ! video/x-raw,format=NV12,width=1280,height=480 "
      "! videocrop right=640 ! cudardp signal=depth max-depth=50 "
      "column-step=8 column-mode=mean overlay=true ! fakesink");
  if (g_file_test (cones, G_FILE_TEST_EXISTS)) {
    gchar *desc = g_strdup_printf ("filesrc location=%s ! pngdec ! "
        "videoconvert ! video/x-raw,format=GRAY8 ! imagefreeze num-buffers=2 "
        "! cudardp epsilon=16 overlay=true ! videoconvert ! fakesink", cones);
    cv_test_expect_eos (desc);
    g_free (desc);
  } else {
    printf ("  %s missing: Middlebury pipeline not run\n", cones);
  }
  g_free (cones);
}

GST_END_TEST;

static Suite *
rdp_suite (void)
{
  Suite *s = suite_create ("cudardp");
  TCase *tc = tcase_create ("general");

  tcase_set_timeout (tc, 120);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_properties);
  tcase_add_test (tc, test_gray8_known);
  tcase_add_test (tc, test_gray16_known);
  tcase_add_test (tc, test_depth_gray);
  tcase_add_test (tc, test_column_step);
  tcase_add_test (tc, test_scene_disparity);
  tcase_add_test (tc, test_scene_depth);
  tcase_add_test (tc, test_formats);
  tcase_add_test (tc, test_overlay);
  tcase_add_test (tc, test_messages);
  tcase_add_test (tc, test_live_changes);
  tcase_add_test (tc, test_errors);
  tcase_add_test (tc, test_doc_pipelines);
  return s;
}

GST_CHECK_MAIN (rdp);
