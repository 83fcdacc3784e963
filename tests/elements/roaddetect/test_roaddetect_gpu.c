/* cudaroaddetect on CUDA memory (GPU host only; exits 77 without a GPU or
 * without cudaupload): `cudaupload ! cudaroaddetect ! cudadownload` against
 * the CPU backend on the same synthetic driving frames, for every input
 * format and with estimate-camera: >= 99 % of the patches classified alike
 * in every frame, overlay bytes identical wherever the classifications
 * agree, the CUDA backend really used (transfer-bytes counts the result
 * copies); the library starting over on flush; a clear error without
 * disparity.  Every failure prints the frame, counts and first mismatch.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/video/video.h>
#include <math.h>
#include <string.h>

#include "cv_test.h"
#include "cvtestutil.h"
#include "roadtestutil.h"

#define W 640
#define H 480
#define MIN_AGREEMENT 0.99

typedef struct
{
  const gchar *format;
  gint n_frames;
  gboolean estimate;
} Case;

/* Patch (c, r) of pixel (x, y) agrees in both metas (pixels outside the
 * grid count as agreeing: nothing is drawn there). */
static gboolean
pixel_agrees (const GstCvRoadMeta * a, const GstCvRoadMeta * b, gint x, gint y)
{
  guint c = x / a->patch_size, r = y / a->patch_size;

  if (c >= a->grid_cols || r >= a->grid_rows)
    return TRUE;
  return a->patches[r * a->grid_cols + c] == b->patches[r * a->grid_cols + c];
}

/* Compares the overlaid frames where the patches agree; returns the number
 * of bytes compared and counts mismatches (first one printed). */
static gsize
compare_overlay (const gchar * what, gint f, GstBuffer * cpu, GstBuffer * gpu,
    const GstCvRoadMeta * mc, const GstCvRoadMeta * mg, GstVideoFormat format,
    gsize * mismatches)
{
  GstVideoInfo info;
  GstVideoFrame fc, fg;
  gsize compared = 0;

  gst_video_info_set_format (&info, format, W, H);
  fail_unless (gst_video_frame_map (&fc, &info, cpu, GST_MAP_READ));
  fail_unless (gst_video_frame_map (&fg, &info, gpu, GST_MAP_READ));
  for (guint p = 0; p < GST_VIDEO_FRAME_N_PLANES (&fc); p++) {
    gint pw = GST_VIDEO_FRAME_COMP_WIDTH (&fc, p == 0 ? 0 : 1);
    gint ph = GST_VIDEO_FRAME_COMP_HEIGHT (&fc, p == 0 ? 0 : 1);
    gint sub = pw < W ? 2 : 1;  /* chroma of NV12 / I420 */
    gint pstride = GST_VIDEO_FRAME_COMP_PSTRIDE (&fc, p == 0 ? 0 : 1);
    const guint8 *dc = GST_VIDEO_FRAME_PLANE_DATA (&fc, p);
    const guint8 *dg = GST_VIDEO_FRAME_PLANE_DATA (&fg, p);
    gint sc = GST_VIDEO_FRAME_PLANE_STRIDE (&fc, p);
    gint sg = GST_VIDEO_FRAME_PLANE_STRIDE (&fg, p);

    if (format == GST_VIDEO_FORMAT_NV12 && p == 1)
      pstride = 2;
    for (gint y = 0; y < ph; y++)
      for (gint x = 0; x < pw; x++) {
        gboolean agree = TRUE;
        for (gint dy = 0; dy < sub; dy++)
          for (gint dx = 0; dx < sub; dx++)
            if (x * sub + dx < W && y * sub + dy < H)
              agree &= pixel_agrees (mc, mg, x * sub + dx, y * sub + dy);
        if (!agree)
          continue;
        for (gint k = 0; k < pstride; k++) {
          guint8 a = dc[y * sc + x * pstride + k];
          guint8 b = dg[y * sg + x * pstride + k];
          compared++;
          if (a != b && (*mismatches)++ == 0)
            g_print ("FIRST OVERLAY MISMATCH %s frame %d: plane %u (%d, %d) "
                "byte %d: CPU %u, GPU %u\n", what, f, p, x, y, k, a, b);
        }
      }
  }
  gst_video_frame_unmap (&fc);
  gst_video_frame_unmap (&fg);
  return compared;
}

static void
run_case (const Case * c)
{
  RoadSequenceSpec spec;
  RoadSequence seq;
  gchar *pose, *props, *cpu_desc, *gpu_desc, *what;
  RoadRun *cpu, *gpu;
  GstVideoFormat format = gst_video_format_from_string (c->format);
  gdouble min_agreement = 1.0, sum_agreement = 0.0;
  gint worst = -1;
  gsize compared = 0, mismatches = 0;
  guint64 transfer = 0;
  gchar *camera_failure = NULL;
  GstElement *road;
  GstPad *pad;
  GstCaps *caps;
  gchar *caps_str;
  /* under a CUDA tool, the first frames (every kernel runs on each) */
  const gint n_frames = (gint) cv_test_count (c->n_frames, 3);

  road_sequence_spec_init (&spec);
  spec.n_frames = n_frames;
  spec.illumination_start = 1.0f;
  spec.illumination_low = 0.6f;
  spec.illumination_end = 1.05f;
  spec.seed = 3;
  road_sequence_init (&seq, &spec);
  pose = road_pose_properties (&seq);
  props = g_strdup_printf ("overlay=true post-messages=true %s",
      c->estimate ? "estimate-camera=true" : pose);
  cpu_desc = g_strdup_printf ("videoconvert ! video/x-raw,format=%s ! "
      "cudaroaddetect name=road %s", c->format, props);
  gpu_desc = g_strdup_printf ("videoconvert ! video/x-raw,format=%s ! "
      "cudaupload ! cudaroaddetect name=road %s ! cudadownload ! "
      "video/x-raw", c->format, props);
  what = g_strdup_printf ("%s%s", c->format,
      c->estimate ? " estimate-camera" : "");
  cpu = road_run_start (cpu_desc, W, H);
  gpu = road_run_start (gpu_desc, W, H);

  for (gint f = 0; f < n_frames; f++) {
    GstBuffer *oc, *og;
    GstCvRoadMeta *mc, *mg;
    guint n, agree = 0, first_diff = G_MAXUINT;
    GList *msc, *msg;
    gdouble agreement;

    road_sequence_render (&seq, f);
    oc = road_run_push (cpu, road_frame_buffer (&seq, f, 1, TRUE), NULL);
    og = road_run_push (gpu, road_frame_buffer (&seq, f, 1, TRUE), NULL);
    fail_unless (oc != NULL && og != NULL, "%s frame %d: no output", what, f);
    mc = gst_buffer_get_cv_road_meta (oc);
    mg = gst_buffer_get_cv_road_meta (og);
    fail_unless (mc != NULL && mg != NULL, "%s frame %d: road meta missing "
        "(CPU %p, GPU %p)", what, f, mc, mg);
    fail_unless (mc->grid_cols == mg->grid_cols
        && mc->grid_rows == mg->grid_rows
        && mc->patch_size == mg->patch_size);
    n = mc->grid_cols * mc->grid_rows;
    for (guint p = 0; p < n; p++) {
      if (mc->patches[p] == mg->patches[p])
        agree++;
      else if (first_diff == G_MAXUINT)
        first_diff = p;
    }
    agreement = (gdouble) agree / n;
    sum_agreement += agreement;
    if (agreement < min_agreement) {
      min_agreement = agreement;
      worst = f;
    }
    if (agreement < MIN_AGREEMENT || f == 0 || f == n_frames - 1)
      g_print ("%s frame %2d: %u/%u patches agree (%.3f %%), models CPU %u "
          "GPU %u%s", what, f, agree, n, 100.0 * agreement, mc->n_models,
          mg->n_models, first_diff == G_MAXUINT ? "\n" : "");
    if (first_diff != G_MAXUINT && (agreement < MIN_AGREEMENT || f == 0
            || f == n_frames - 1))
      g_print (", first difference patch %u (col %u row %u): CPU %u GPU %u\n",
          first_diff, first_diff % mc->grid_cols, first_diff / mc->grid_cols,
          mc->patches[first_diff], mg->patches[first_diff]);
    compared += compare_overlay (what, f, oc, og, mc, mg, format,
        &mismatches);

    msc = road_run_messages (cpu);
    msg = road_run_messages (gpu);
    fail_unless (g_list_length (msc) == 1 && g_list_length (msg) == 1,
        "%s frame %d: %u CPU and %u GPU messages", what, f,
        g_list_length (msc), g_list_length (msg));
    if (c->estimate) {
      gdouble hc, hg, pc, pg;
      gst_structure_get_double (msc->data, "camera-height", &hc);
      gst_structure_get_double (msg->data, "camera-height", &hg);
      gst_structure_get_double (msc->data, "camera-pitch", &pc);
      gst_structure_get_double (msg->data, "camera-pitch", &pg);
      if (!(fabs (hc - hg) <= 1e-4 * hc && fabs (pc - pg) <= 1e-5)) {
        g_print ("%s frame %d: camera CPU %.6f m %.6f rad, GPU %.6f m %.6f "
            "rad\n", what, f, hc, pc, hg, pg);
        if (camera_failure == NULL)
          camera_failure = g_strdup_printf ("frame %d: camera CPU %.6f m "
              "%.6f rad, GPU %.6f m %.6f rad", f, hc, pc, hg, pg);
      }
    }
    g_list_free_full (msc, (GDestroyNotify) gst_structure_free);
    g_list_free_full (msg, (GDestroyNotify) gst_structure_free);
    gst_buffer_unref (oc);
    gst_buffer_unref (og);
  }

  road = road_run_detector (gpu);
  pad = gst_element_get_static_pad (road, "sink");
  caps = gst_pad_get_current_caps (pad);
  g_object_get (road, "transfer-bytes", &transfer, NULL);
  gst_object_unref (pad);
  gst_object_unref (road);
  /* stop before judging: a failure leaves no streaming thread behind */
  road_run_stop (cpu);
  road_run_stop (gpu);
  caps_str = caps ? gst_caps_to_string (caps) : g_strdup ("none");
  g_print ("%s: %d frames, patch agreement min %.3f %% (frame %d), mean "
      "%.3f %%; overlay bytes compared %" G_GSIZE_FORMAT ", mismatches %"
      G_GSIZE_FORMAT "; GPU transfer-bytes %" G_GUINT64_FORMAT "; caps %s\n",
      what, n_frames, 100.0 * min_agreement, worst,
      100.0 * sum_agreement / n_frames, compared, mismatches, transfer,
      caps_str);
  g_free (caps_str);
  fail_unless (caps != NULL && gst_caps_features_contains
      (gst_caps_get_features (caps, 0), "memory:CUDAMemory"),
      "%s: the detector did not negotiate CUDA memory", what);
  fail_unless (transfer > 0, "%s: no result copies counted", what);
  fail_unless (min_agreement >= MIN_AGREEMENT, "%s: only %.3f %% of the "
      "patches agree in frame %d", what, 100.0 * min_agreement, worst);
  fail_unless (mismatches == 0, "%s: %" G_GSIZE_FORMAT " overlay bytes "
      "differ where the classes agree", what, mismatches);
  fail_unless (camera_failure == NULL, "%s: %s", what, camera_failure);
  gst_caps_unref (caps);
  road_sequence_clear (&seq);
  g_free (pose);
  g_free (props);
  g_free (cpu_desc);
  g_free (gpu_desc);
  g_free (what);
}

GST_START_TEST (test_agreement_rgba)
{
  const Case c = { "RGBA", 40, FALSE };
  run_case (&c);
}

GST_END_TEST;

GST_START_TEST (test_agreement_formats)
{
  const Case cases[] = {
    {"BGRA", 15, FALSE}, {"RGBx", 15, FALSE}, {"BGRx", 15, FALSE},
    {"NV12", 20, FALSE}, {"I420", 15, FALSE},
  };
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    run_case (&cases[i]);
}

GST_END_TEST;

GST_START_TEST (test_agreement_estimate_camera)
{
  const Case c = { "RGBA", 20, TRUE };
  run_case (&c);
}

GST_END_TEST;

/* ---- flush on the GPU -------------------------------------------------------- */

#define N_WARM 4
#define N_TEST 4

static GstBuffer **
render (gint first, gint n, gboolean far_road)
{
  RoadSequenceSpec spec;
  RoadSequence seq;
  GstBuffer **frames = g_new0 (GstBuffer *, n);

  road_sequence_spec_init (&spec);
  spec.width = 320;
  spec.height = 240;
  if (far_road)
    spec.color_change_z = 0.0f;
  road_sequence_init (&seq, &spec);
  for (gint i = 0; i < n; i++) {
    road_sequence_render (&seq, first + i);
    frames[i] = road_frame_buffer (&seq, i, 1, TRUE);
  }
  road_sequence_clear (&seq);
  return frames;
}

typedef struct
{
  guint n_models;
  guint8 *flags;
  guint n;
} Out;

static Out *
push_all (GstHarness * h, GstBuffer ** frames, gint n)
{
  Out *out = g_new0 (Out, n);

  for (gint i = 0; i < n; i++) {
    GstBuffer *o;
    GstCvRoadMeta *m;
    fail_unless_equals_int (gst_harness_push (h, gst_buffer_ref (frames[i])),
        GST_FLOW_OK);
    o = gst_harness_pull (h);
    m = gst_buffer_get_cv_road_meta (o);
    fail_unless (m != NULL);
    out[i].n_models = m->n_models;
    out[i].n = m->grid_cols * m->grid_rows;
    out[i].flags = g_memdup2 (m->patches, out[i].n);
    gst_buffer_unref (o);
  }
  return out;
}

static GstHarness *
gpu_harness (void)
{
  GstHarness *h = gst_harness_new_parse ("cudaupload ! cudaroaddetect "
      "height=1.65 pitch=0.02 ! cudadownload");
  gst_harness_set_src_caps_str (h,
      "video/x-raw,format=RGBA,width=320,height=240,framerate=30/1");
  gst_harness_set_sink_caps_str (h, "video/x-raw,format=RGBA,width=320,"
      "height=240,framerate=30/1");
  return h;
}

GST_START_TEST (test_reset_on_flush_gpu)
{
  GstBuffer **a = render (10, N_WARM, TRUE), **b = render (0, N_TEST, FALSE);
  GstHarness *h = gpu_harness ();
  Out *fresh = push_all (h, b, N_TEST), *warm, *after;
  GstSegment segment;
  gboolean control_differs = FALSE;

  gst_harness_teardown (h);
  h = gpu_harness ();
  warm = push_all (h, a, N_WARM);
  fail_unless (gst_harness_push_event (h, gst_event_new_flush_start ()));
  fail_unless (gst_harness_push_event (h, gst_event_new_flush_stop (TRUE)));
  gst_segment_init (&segment, GST_FORMAT_TIME);
  fail_unless (gst_harness_push_event (h, gst_event_new_segment (&segment)));
  after = push_all (h, b, N_TEST);
  for (gint i = 0; i < N_TEST; i++) {
    guint agree = 0;
    for (guint p = 0; p < fresh[i].n; p++)
      agree += fresh[i].flags[p] == after[i].flags[p];
    g_print ("GPU flush frame %d: models fresh %u, after flush %u, after the "
        "warm-up frames (before the flush) %u; %u/%u patches agree\n", i,
        fresh[i].n_models, after[i].n_models,
        i == 0 ? warm[N_WARM - 1].n_models : 0, agree, fresh[i].n);
    fail_unless_equals_int (after[i].n_models, fresh[i].n_models);
    fail_unless (agree >= MIN_AGREEMENT * fresh[i].n);
  }
  /* the library never shrinks without a reset: the warm-up left more models
   * than a fresh start has, so equal counts above mean it started over */
  control_differs = warm[N_WARM - 1].n_models > fresh[0].n_models;
  fail_unless (control_differs, "the warm-up left %u models, a fresh start "
      "has %u: the test cannot see a reset", warm[N_WARM - 1].n_models,
      fresh[0].n_models);
  for (gint i = 0; i < N_TEST; i++) {
    g_free (fresh[i].flags);
    g_free (after[i].flags);
  }
  for (gint i = 0; i < N_WARM; i++)
    g_free (warm[i].flags);
  g_free (fresh);
  g_free (after);
  g_free (warm);
  gst_harness_teardown (h);
  for (gint i = 0; i < N_WARM; i++)
    gst_buffer_unref (a[i]);
  for (gint i = 0; i < N_TEST; i++)
    gst_buffer_unref (b[i]);
  g_free (a);
  g_free (b);
}

GST_END_TEST;

GST_START_TEST (test_missing_disparity_gpu)
{
  cv_test_expect_error ("videotestsrc num-buffers=1 ! "
      "video/x-raw,format=RGBA,width=64,height=48 ! cudaupload ! "
      "cudaroaddetect ! cudadownload ! fakesink",
      "No disparity for this frame");
}

GST_END_TEST;

static Suite *
roaddetect_gpu_suite (void)
{
  Suite *s = suite_create ("cudaroaddetect-gpu");
  TCase *tc = tcase_create ("general");

  tcase_set_timeout (tc, 240);
  tcase_add_checked_fixture (tc, NULL, cv_test_stop_all);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_agreement_rgba);
  tcase_add_test (tc, test_agreement_formats);
  tcase_add_test (tc, test_agreement_estimate_camera);
  tcase_add_test (tc, test_reset_on_flush_gpu);
  tcase_add_test (tc, test_missing_disparity_gpu);
  return s;
}

int
main (int argc, char **argv)
{
  gst_check_init (&argc, &argv);
  if (!cv_test_have_cuda_elements ())
    return CV_TEST_EXIT_SKIP;
  return gst_check_run_suite (roaddetect_gpu_suite (), "cudaroaddetect-gpu",
      __FILE__);
}
