/* cudahough on CUDA memory (GPU host only; exits 77 without a GPU or
 * without cudaupload): `cudaupload ! cudahough ! cudadownload` gives the
 * same lines meta (bit for bit) and the same overlay bytes as the CPU path
 * on every CUDA format, for several parameter sets changed while playing,
 * on the road scene and on worst-case input; the frame stays on the GPU
 * (only the angle tables and the line list move, counted exactly: the
 * overlay is drawn from the device's line list).
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/app/gstappsink.h>
#include <gst/cudavision/cudavision.h>
#include <math.h>
#include <stdio.h>

#include "cv_draw.h"
#include "cv_test.h"
#include "cvtestutil.h"
#include "hough_test_util.h"
#include "vote/cv_hough.h"

#define W 480
#define H 272
#define DEG (G_PI / 180.0)
/* Bytes of the line list the CUDA plan copies back per frame: a 16-byte
 * header and max-lines lines (cv_hough_cuda_transfer_bytes). */
#define RESULT_BYTES(max_lines) (16 + sizeof (CvHoughLine) * (gsize) (max_lines))
/* Bytes of the angle tables uploaded when the geometry changes: two int32
 * and two double per angle. */
#define TABLES_BYTES(n_theta) ((2 * 4 + 2 * 8) * (gsize) (n_theta))

static const GstVideoFormat cuda_formats[] = {
  GST_VIDEO_FORMAT_NV12, GST_VIDEO_FORMAT_I420, GST_VIDEO_FORMAT_Y444,
  GST_VIDEO_FORMAT_RGBA, GST_VIDEO_FORMAT_BGRA, GST_VIDEO_FORMAT_RGBx,
  GST_VIDEO_FORMAT_BGRx
};

typedef CvTestPair Pair;

/* `cudahough @props` on system memory and
 * `cudaupload ! cudahough @props ! cudadownload` for @format frames. */
static Pair
pair_new (const gchar * props, GstVideoFormat format, gint w, gint h)
{
  return cv_test_pair_new ("cudahough", props, format, w, h);
}

static void
compare_lines (const gchar * name, GstBuffer * cpu, GstBuffer * gpu)
{
  GstCvLinesMeta *a = gst_buffer_get_cv_lines_meta (cpu);
  GstCvLinesMeta *b = gst_buffer_get_cv_lines_meta (gpu);

  fail_unless (a != NULL, "%s: no lines meta from the CPU path", name);
  fail_unless (b != NULL, "%s: no lines meta from the GPU path "
      "(lost through cudadownload?)", name);
  if (a->n_lines != b->n_lines) {
    hough_print_lines ("CPU", a);
    hough_print_lines ("GPU", b);
  }
  fail_unless_equals_int (b->n_lines, a->n_lines);
  for (guint i = 0; i < a->n_lines; i++) {
    const GstCvLine *x = &a->lines[i], *y = &b->lines[i];
    fail_unless (memcmp (x, y, sizeof (GstCvLine)) == 0,
        "%s: line %u differs: CPU rho %.6f theta %.8f votes %u "
        "(%.4f,%.4f)-(%.4f,%.4f), GPU rho %.6f theta %.8f votes %u "
        "(%.4f,%.4f)-(%.4f,%.4f)", name, i, x->rho, x->theta, x->votes, x->x0,
        x->y0, x->x1, x->y1, y->rho, y->theta, y->votes, y->x0, y->y0, y->x1,
        y->y1);
  }
}

/* Every byte of every plane (pixels only, not row padding) is equal. */
static void
compare_frames (const gchar * name, const GstVideoInfo * info, GstBuffer * a,
    GstBuffer * b)
{
  GstVideoFrame fa, fb;

  fail_unless (gst_video_frame_map (&fa, (GstVideoInfo *) info, a,
          GST_MAP_READ));
  fail_unless (gst_video_frame_map (&fb, (GstVideoInfo *) info, b,
          GST_MAP_READ));
  for (guint p = 0; p < GST_VIDEO_FRAME_N_PLANES (&fa); p++) {
    const gint comp = p == 0 ? 0 : 1;
    const gint rows = GST_VIDEO_FRAME_COMP_HEIGHT (&fa, comp);
    const gint bytes = GST_VIDEO_FRAME_COMP_WIDTH (&fa, comp) *
        GST_VIDEO_FRAME_COMP_PSTRIDE (&fa, comp);
    for (gint y = 0; y < rows; y++) {
      const guint8 *ra = (guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&fa, p) +
          y * GST_VIDEO_FRAME_PLANE_STRIDE (&fa, p);
      const guint8 *rb = (guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&fb, p) +
          y * GST_VIDEO_FRAME_PLANE_STRIDE (&fb, p);
      if (memcmp (ra, rb, bytes) != 0) {
        gint x = 0;
        while (ra[x] == rb[x])
          x++;
        fail ("%s: plane %u row %d byte %d: CPU %u, GPU %u", name, p, y, x,
            ra[x], rb[x]);
      }
    }
  }
  gst_video_frame_unmap (&fa);
  gst_video_frame_unmap (&fb);
}

/* Pushes a copy of @in through both paths, compares lines and frames.
 * Returns the number of lines. */
static guint
run_pair (Pair * p, const gchar * name, GstBuffer * in)
{
  GstBuffer *cpu = hough_push (p->cpu, gst_buffer_copy_deep (in));
  GstBuffer *gpu = hough_push (p->gpu, gst_buffer_copy_deep (in));
  guint n;

  cv_test_pair_check_on_gpu (p, name);
  compare_lines (name, cpu, gpu);
  compare_frames (name, &p->info, cpu, gpu);
  n = gst_buffer_get_cv_lines_meta (cpu)->n_lines;
  printf ("  %s: %u lines identical\n", name, n);
  gst_buffer_unref (cpu);
  gst_buffer_unref (gpu);
  return n;
}

/* A frame with lines of several kinds: step edges, 1-px lines, a line
 * along the border, a short segment; tinted chroma. */
static HoughLuma *
test_luma (gint w, gint h)
{
  HoughLuma *luma = hough_luma_new (w, h, 30);

  hough_luma_step (luma, 0.45 * w, 25.0, 150);
  hough_luma_line (luma, 0.3 * h, 89.0, 250);
  hough_luma_line (luma, 0.6 * w, 3.0, 250);
  hough_luma_line (luma, -0.5 * w, 135.0, 220);
  hough_luma_line (luma, w - 1, 0.0, 200);
  for (gint x = w / 4; x < w / 2; x++)
    luma->data[(gsize) (h - 20) * w + x] = 255;
  return luma;
}

GST_START_TEST (test_formats_identical)
{
  HoughLuma *luma = test_luma (W, H);

  for (guint f = 0; f < G_N_ELEMENTS (cuda_formats); f++) {
    const gchar *fname = gst_video_format_to_string (cuda_formats[f]);
    GstBuffer *in = hough_frame_new (cuda_formats[f], luma, TRUE);
    Pair p = pair_new ("threshold=60 max-lines=32", cuda_formats[f], W, H);
    gchar *name;
    guint n_lines;
    guint64 expected;

    /* overlay off: the frame passes unchanged */
    name = g_strdup_printf ("%s overlay=false", fname);
    n_lines = run_pair (&p, name, in);
    fail_unless (n_lines >= 5, "%s: only %u lines", name, n_lines);
    g_free (name);
    /* first frame: the angle tables (180 angles) and the line list */
    expected = TABLES_BYTES (180) + RESULT_BYTES (32);
    fail_unless_equals_uint64 (cv_test_transfer_bytes (p.gpu_element),
        expected);
    fail_unless_equals_uint64 (cv_test_transfer_bytes (p.cpu_element), 0);

    /* overlay on: identical drawing, from the device's lines (nothing
     * more moves) */
    cv_test_pair_set (&p, "overlay", "true");
    name = g_strdup_printf ("%s overlay=true", fname);
    n_lines = run_pair (&p, name, in);
    g_free (name);
    fail_unless (n_lines >= 5, "%s overlay=true: only %u lines", fname,
        n_lines);
    expected += RESULT_BYTES (32);
    fail_unless_equals_uint64 (cv_test_transfer_bytes (p.gpu_element),
        expected);

    cv_test_pair_free (&p);
    gst_buffer_unref (in);
  }
  hough_luma_free (luma);
}

GST_END_TEST;

/* Parameter sets changed while playing: the CUDA plan is reconfigured (and
 * reused) and stays identical to the CPU. */
GST_START_TEST (test_parameters_identical)
{
  static const gchar *sets[][2] = {
    {"theta-step", "0.25"},
    {"rho-step", "0.5"},
    {"max-theta", "75"},
    {"min-theta", "-75"},
    {"roi-x", "37"},
    {"roi-y", "41"},
    {"roi-width", "301"},
    {"roi-height", "0"},
    {"nms-radius", "0"},
    {"max-lines", "1024"},
    {"threshold", "20"},
    {"edge-threshold", "50"},
    {"rho-step", "3"},
    {"theta-step", "2"},
    {"nms-radius", "12"},
    {"roi-width", "2000"},
  };
  HoughLuma *luma = test_luma (W, H);
  GstBuffer *in = hough_frame_new (GST_VIDEO_FORMAT_NV12, luma, TRUE);
  Pair p = pair_new ("threshold=40 overlay=true", GST_VIDEO_FORMAT_NV12, W, H);

  run_pair (&p, "NV12 start", in);
  for (guint i = 0; i < G_N_ELEMENTS (sets); i++) {
    gchar *name = g_strdup_printf ("NV12 +%s=%s", sets[i][0], sets[i][1]);
    guint64 before = cv_test_transfer_bytes (p.gpu_element);
    gint max_lines;

    cv_test_pair_set (&p, sets[i][0], sets[i][1]);
    run_pair (&p, name, in);
    /* at least the line list, never more than tables + list */
    g_object_get (p.gpu_element, "max-lines", &max_lines, NULL);
    fail_unless (cv_test_transfer_bytes (p.gpu_element) - before >=
        RESULT_BYTES (max_lines), "%s: transfer bytes not counted", name);
    fail_unless (cv_test_transfer_bytes (p.gpu_element) - before <=
        TABLES_BYTES (18000) + RESULT_BYTES (max_lines),
        "%s: %" G_GUINT64_FORMAT " bytes moved", name,
        cv_test_transfer_bytes (p.gpu_element) - before);
    g_free (name);
  }
  cv_test_pair_free (&p);
  gst_buffer_unref (in);
  hough_luma_free (luma);
}

GST_END_TEST;

/* Empty frames and worst-case frames (every pixel an edge). */
GST_START_TEST (test_degenerate_identical)
{
  HoughLuma *empty = hough_luma_new (W, H, 77);
  HoughLuma *noise = hough_luma_new (W, H, 0);
  GstBuffer *in;
  Pair p = pair_new ("overlay=true", GST_VIDEO_FORMAT_I420, W, H);

  in = hough_frame_new (GST_VIDEO_FORMAT_I420, empty, TRUE);
  fail_unless_equals_int (run_pair (&p, "I420 empty", in), 0);
  gst_buffer_unref (in);

  hough_luma_noise (noise, 3, 0, 255);
  in = hough_frame_new (GST_VIDEO_FORMAT_I420, noise, TRUE);
  cv_test_pair_set (&p, "edge-threshold", "0");
  cv_test_pair_set (&p, "threshold", "1");
  cv_test_pair_set (&p, "max-lines", "1024");
  run_pair (&p, "I420 all edges", in);
  cv_test_pair_set (&p, "nms-radius", "0");
  run_pair (&p, "I420 all edges, nms-radius=0", in);
  gst_buffer_unref (in);

  cv_test_pair_free (&p);
  hough_luma_free (empty);
  hough_luma_free (noise);
}

GST_END_TEST;

/* The road scene (moving, with boxes), lane settings, overlay on. */
GST_START_TEST (test_scene_identical)
{
  enum
  { N_FRAMES = 3, VW = 640, VH = 480 };
  const guint n_frames = cv_test_count (N_FRAMES, 1);
  const gchar *formats[] = { "NV12", "RGBA" };

  for (guint f = 0; f < G_N_ELEMENTS (formats); f++) {
    gchar *desc = g_strdup_printf ("stereotestsrc num-buffers=%d ! "
        "video/x-raw,format=%s,width=%d,height=%d ! appsink name=sink",
        n_frames, formats[f], 2 * VW, VH);
    gchar *props = g_strdup_printf ("roi-y=%d roi-width=%d min-theta=-75 "
        "max-theta=75 theta-step=0.5 edge-threshold=400 threshold=60 "
        "nms-radius=4 max-lines=8 overlay=true", hough_scene_roi_top (VW, VH),
        VW);
    GstElement *src = gst_parse_launch (desc, NULL);
    GstElement *sink = gst_bin_get_by_name (GST_BIN (src), "sink");
    Pair p = pair_new (props, gst_video_format_from_string (formats[f]),
        2 * VW, VH);

    gst_element_set_state (src, GST_STATE_PLAYING);
    for (guint i = 0; i < n_frames; i++) {
      GstSample *sample = gst_app_sink_pull_sample (GST_APP_SINK (sink));
      gchar *name = g_strdup_printf ("scene %s frame %u", formats[f], i);
      fail_unless (sample != NULL);
      /* at least the two solid edge lines (the dashes of the centre line
       * are sometimes below the threshold) */
      fail_unless (run_pair (&p, name, gst_sample_get_buffer (sample)) >= 2,
          "%s: lane markings missing", name);
      gst_sample_unref (sample);
      g_free (name);
    }
    gst_element_set_state (src, GST_STATE_NULL);
    gst_object_unref (sink);
    gst_object_unref (src);
    cv_test_pair_free (&p);
    g_free (props);
    g_free (desc);
  }
}

GST_END_TEST;

GST_START_TEST (test_gpu_errors)
{
  cv_test_expect_error ("videotestsrc num-buffers=2 ! "
      "video/x-raw,format=NV12,width=320,height=240 ! cudaupload ! "
      "cudahough roi-x=400 ! fakesink", "outside the 320x240 frame");
  cv_test_expect_error ("videotestsrc num-buffers=2 ! "
      "video/x-raw,format=RGBA,width=320,height=240 ! cudaupload ! "
      "cudahough min-theta=20 max-theta=10 ! fakesink", "empty theta range");
  cv_test_expect_error ("videotestsrc num-buffers=2 ! "
      "video/x-raw,format=NV12,width=320,height=240 ! cudaupload ! "
      "cudahough input=binary ! fakesink", "input=binary needs GRAY8");
}

GST_END_TEST;

/* A full pipeline as in the docs runs to EOS, many frames, one plan. */
GST_START_TEST (test_gpu_pipeline)
{
  gchar *desc = g_strdup_printf ("stereotestsrc num-buffers=%u ! "
      "video/x-raw,format=NV12,width=1280,height=480 ! cudaupload ! "
      "cudahough roi-y=273 roi-width=640 min-theta=-75 max-theta=75 "
      "edge-threshold=400 threshold=60 overlay=true post-messages=true ! "
      "cudadownload ! videoconvert ! fakesink", cv_test_count (30, 3));

  cv_test_expect_eos (desc);
  g_free (desc);
}

GST_END_TEST;

/* Wall time of one frame inside the GPU cudahough (cv_test_latency), for
 * the log; the GPU time of the kernels alone is measured by the bench-vote
 * benchmark. */
GST_START_TEST (test_element_latency)
{
  enum
  { FW = 1920, FH = 1080 };
  /* two timed frames per case under a CUDA tool (the number is for the
   * log; the kernels are the same) */
  const guint warmup = cv_test_count (20, 1), runs = cv_test_count (200, 2);
  HoughLuma *luma = test_luma (FW, FH);
  GstBuffer *in = hough_frame_new (GST_VIDEO_FORMAT_NV12, luma, FALSE);
  const gchar *settings[] = { "", "overlay=true" };

  for (guint k = 0; k < G_N_ELEMENTS (settings); k++) {
    Pair p = pair_new (settings[k], GST_VIDEO_FORMAT_NV12, FW, FH);
    CvTestLatency *l = cv_test_latency_attach (p.gpu_element);
    guint64 bytes;

    for (guint i = 0; i < warmup + runs; i++)
      gst_buffer_unref (hough_push (p.gpu, gst_buffer_ref (in)));
    fail_unless_equals_int (cv_test_latency_count (l), warmup + runs);
    bytes = cv_test_transfer_bytes (p.gpu_element);
    printf ("  cudahough %dx%d NV12 %s: median %.1f us per frame (wall time "
        "in the element), %.0f bytes moved per frame\n", FW, FH,
        settings[k][0] ? settings[k] : "(defaults)",
        cv_test_latency_median (l, warmup),
        (gdouble) bytes / (warmup + runs));
    cv_test_pair_check_on_gpu (&p, "latency");
    cv_test_latency_free (l);
    cv_test_pair_free (&p);
  }
  gst_buffer_unref (in);
  hough_luma_free (luma);
}

GST_END_TEST;

static Suite *
hough_gpu_suite (void)
{
  Suite *s = suite_create ("cudahough-gpu");
  TCase *tc = tcase_create ("general");

  tcase_set_timeout (tc, 240);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_formats_identical);
  tcase_add_test (tc, test_parameters_identical);
  tcase_add_test (tc, test_degenerate_identical);
  tcase_add_test (tc, test_scene_identical);
  tcase_add_test (tc, test_gpu_errors);
  tcase_add_test (tc, test_gpu_pipeline);
  tcase_add_test (tc, test_element_latency);
  return s;
}

int
main (int argc, char **argv)
{
  gst_check_init (&argc, &argv);
  if (!cv_test_have_cuda_elements ())
    return CV_TEST_EXIT_SKIP;
  return gst_check_run_suite (hough_gpu_suite (), "cudahough-gpu", __FILE__);
}
