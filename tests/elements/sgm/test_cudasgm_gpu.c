/* cudasgm on CUDA memory (GPU host only; exits 77 without a GPU or without
 * cudaupload): `cudaupload ! cudasgm ! cudadownload` gives a disparity
 * meta that stays on the device and is bit-identical (disparity and
 * confidence) to the CPU path's on the same frames, for NV12 / I420 /
 * RGBA, both packings, 4 and 8 paths, odd sizes and parameter sets; the
 * left view and the disparity-color output are identical bytes; properties
 * changed while PLAYING reach the GPU plan; post-messages agree with the
 * CPU's and are the only host transfers; disparity-16 on CUDA memory is
 * refused with a message that says why.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gst/check/gstcheck.h>
#include <string.h>

#include "cv_test.h"
#include "cvtestutil.h"
#include "sgm_element_util.h"

/* The frames of the identity runs: stereotestsrc, deterministic from its
 * seed, fast rendering. */
#define SOURCE "stereotestsrc num-buffers=%d seed=%d speed=0.7 supersample=1 "
#define FRAMES 2

typedef struct
{
  const gchar *format;
  gint view_w, view_h;
  gboolean top_bottom;
  const gchar *props;           /* cudasgm properties */
} Case;

/* Runs the case on the CPU (system memory) or the GPU (cudaupload before,
 * cudadownload after) and returns the output buffers. */
static GList *
run_case (const Case * c, gboolean cuda, gint seed)
{
  gchar *desc = g_strdup_printf (SOURCE "layout=%s ! "
      "video/x-raw,format=%s,width=%d,height=%d ! %s cudasgm %s ! %s "
      "appsink name=sink sync=false", FRAMES, seed,
      c->top_bottom ? "top-bottom" : "side-by-side", c->format,
      c->top_bottom ? c->view_w : 2 * c->view_w,
      c->top_bottom ? 2 * c->view_h : c->view_h,
      cuda ? "cudaupload ! video/x-raw(memory:CUDAMemory) !" : "", c->props,
      cuda ? "cudadownload ! video/x-raw !" : "");
  GList *buffers = sgm_test_collect (desc);

  fail_unless_equals_int (g_list_length (buffers), FRAMES);
  g_free (desc);
  return buffers;
}

static gchar *
case_name (const Case * c)
{
  return g_strdup_printf ("%s %s %dx%d [%s]", c->format,
      c->top_bottom ? "top-bottom" : "side-by-side", c->view_w, c->view_h,
      c->props);
}

/* Asserts the GPU meta equals the CPU meta bit for bit (disparity and
 * confidence) and lives on the device. */
static void
compare_metas (GstBuffer * cpu, GstBuffer * gpu, const gchar * what)
{
  GstCvDisparityMeta *mc = gst_buffer_get_cv_disparity_meta (cpu);
  GstCvDisparityMeta *mg = gst_buffer_get_cv_disparity_meta (gpu);
  GstCvDisparityMapping device;
  gsize n;
  gint16 *dc, *dg;
  guint8 *cc, *cg;
  guint bad = 0, valid = 0;

  fail_unless (mc != NULL, "%s: no meta on the CPU output", what);
  fail_unless (mg != NULL, "%s: no meta on the GPU output (lost through "
      "cudadownload?)", what);
  fail_if (mc->on_device, "%s: CPU meta claims device data", what);
  fail_unless (mg->on_device, "%s: the GPU disparity is not on the device",
      what);
  fail_unless (mg->cuda_context != NULL, "%s: GPU meta without context",
      what);
  fail_unless (gst_cv_disparity_meta_map (mg,
          GST_MAP_READ | GST_CV_MAP_DEVICE, &device),
      "%s: the GPU meta does not map to a device address", what);
  fail_unless (device.on_device && device.disparity != NULL
      && device.confidence != NULL);
  gst_cv_disparity_meta_unmap (mg, &device);

  fail_unless (mc->width == mg->width && mc->height == mg->height,
      "%s: CPU %ux%u, GPU %ux%u", what, mc->width, mc->height, mg->width,
      mg->height);
  fail_unless (mc->min_disparity == mg->min_disparity
      && mc->max_disparity == mg->max_disparity,
      "%s: range CPU [%d, %d), GPU [%d, %d)", what, mc->min_disparity,
      mc->max_disparity, mg->min_disparity, mg->max_disparity);
  fail_unless (mg->has_confidence && mc->has_confidence);
  fail_unless (memcmp (&mc->calibration, &mg->calibration,
          sizeof (mc->calibration)) == 0, "%s: calibration differs", what);

  n = (gsize) mc->width * mc->height;
  dc = g_new (gint16, n);
  dg = g_new (gint16, n);
  cc = g_malloc (n);
  cg = g_malloc (n);
  sgm_test_meta_data (mc, dc, cc);
  sgm_test_meta_data (mg, dg, cg);
  for (gsize i = 0; i < n; i++) {
    valid += dc[i] >= 0;
    if (dc[i] != dg[i] || cc[i] != cg[i]) {
      if (bad == 0)
        g_printerr ("%s: first mismatch at index %" G_GSIZE_FORMAT
            " (x %u, y %u): CPU disparity %d confidence %d, GPU disparity %d "
            "confidence %d\n", what, i, (guint) (i % mc->width),
            (guint) (i / mc->width), dc[i], cc[i], dg[i], cg[i]);
      bad++;
    }
  }
  if (bad > 0)
    g_printerr ("%s: %u of %" G_GSIZE_FORMAT " pixels differ\n", what, bad,
        n);
  else
    g_print ("%s: %" G_GSIZE_FORMAT " pixels identical (%.1f %% valid)\n",
        what, n, 100.0 * valid / n);
  fail_unless (bad == 0, "%s: GPU disparity differs from the CPU's in %u "
      "pixels", what, bad);
  g_free (dc);
  g_free (dg);
  g_free (cc);
  g_free (cg);
}

/* Asserts the two output frames (system memory, @format, view size) hold
 * the same pixels. */
static void
compare_frames (GstBuffer * cpu, GstBuffer * gpu, GstVideoFormat format,
    gint width, gint height, const gchar * what)
{
  GstVideoInfo info;
  GstVideoFrame a, b;

  gst_video_info_set_format (&info, format, width, height);
  fail_unless (gst_video_frame_map (&a, &info, cpu, GST_MAP_READ));
  fail_unless (gst_video_frame_map (&b, &info, gpu, GST_MAP_READ),
      "%s: cannot map the GPU output as %s %dx%d", what,
      gst_video_format_to_string (format), width, height);
  for (guint p = 0; p < GST_VIDEO_FRAME_N_PLANES (&a); p++) {
    gint comp[GST_VIDEO_MAX_COMPONENTS];
    gsize row_bytes;
    guint rows;

    gst_video_format_info_component (info.finfo, p, comp);
    row_bytes = (gsize) GST_VIDEO_FRAME_COMP_WIDTH (&a, comp[0]) *
        GST_VIDEO_FRAME_COMP_PSTRIDE (&a, comp[0]);
    rows = GST_VIDEO_FRAME_COMP_HEIGHT (&a, comp[0]);
    for (guint y = 0; y < rows; y++) {
      const guint8 *ra = (const guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&a, p)
          + y * GST_VIDEO_FRAME_PLANE_STRIDE (&a, p);
      const guint8 *rb = (const guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&b, p)
          + y * GST_VIDEO_FRAME_PLANE_STRIDE (&b, p);

      if (memcmp (ra, rb, row_bytes) != 0) {
        gsize x = 0;

        while (ra[x] == rb[x])
          x++;
        fail ("%s: output plane %u row %u differs first at byte %"
            G_GSIZE_FORMAT ": CPU %u, GPU %u", what, p, y, x, ra[x], rb[x]);
      }
    }
  }
  gst_video_frame_unmap (&a);
  gst_video_frame_unmap (&b);
}

static void
check_case (const Case * c, gint seed, GstVideoFormat out_format)
{
  gchar *what = case_name (c);
  GList *cpu = run_case (c, FALSE, seed);
  GList *gpu = run_case (c, TRUE, seed);

  for (GList * a = cpu, *b = gpu; a && b; a = a->next, b = b->next) {
    gchar *frame = g_strdup_printf ("%s frame %u", what,
        (guint) GST_BUFFER_OFFSET (a->data));

    compare_metas (a->data, b->data, frame);
    compare_frames (a->data, b->data, out_format == GST_VIDEO_FORMAT_UNKNOWN ?
        gst_video_format_from_string (c->format) : out_format, c->view_w,
        c->view_h, frame);
    g_free (frame);
  }
  g_list_free_full (cpu, (GDestroyNotify) gst_buffer_unref);
  g_list_free_full (gpu, (GDestroyNotify) gst_buffer_unref);
  g_free (what);
}

GST_START_TEST (test_identity_formats_layouts_paths)
{
  const gchar *formats[] = { "NV12", "I420", "RGBA" };

  for (guint f = 0; f < G_N_ELEMENTS (formats); f++)
    for (gint top_bottom = 0; top_bottom < 2; top_bottom++)
      for (gint paths = 4; paths <= 8; paths += 4) {
        gchar *props = g_strdup_printf ("max-disparity=64 paths=%d", paths);
        Case c = { formats[f], 256, 120, top_bottom, props };

        check_case (&c, 11 + f, GST_VIDEO_FORMAT_UNKNOWN);
        g_free (props);
      }
}

GST_END_TEST;

GST_START_TEST (test_identity_sizes_and_parameters)
{
  const Case cases[] = {
    /* odd view width (not a multiple of 32), odd height, full census */
    {"RGBA", 317, 203, FALSE, "max-disparity=48 census=9x7"},
    /* the smallest D, top-bottom NV12 */
    {"NV12", 334, 102, TRUE, "max-disparity=16 paths=4"},
    /* the largest D */
    {"I420", 300, 61, FALSE, "max-disparity=256"},
    /* an offset range, no post-processing */
    {"RGBA", 250, 90, TRUE, "max-disparity=32 min-disparity=5 lr-check=false "
          "uniqueness=1.0 subpixel=false median=false"},
    /* other penalties */
    {"NV12", 200, 80, FALSE, "max-disparity=96 p1=20 p2=150 adaptive-p2=false "
          "lr-max-diff=3 uniqueness=0.8"},
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    check_case (&cases[i], 21 + i, GST_VIDEO_FORMAT_UNKNOWN);
}

GST_END_TEST;

GST_START_TEST (test_identity_disparity_color)
{
  const Case cases[] = {
    {"NV12", 256, 120, FALSE, "max-disparity=64 output=disparity-color"},
    {"RGBA", 200, 96, TRUE,
        "max-disparity=32 min-disparity=3 output=disparity-color"},
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    check_case (&cases[i], 31 + i, GST_VIDEO_FORMAT_RGBA);
}

GST_END_TEST;

GST_START_TEST (test_disparity_16_refused_on_cuda)
{
  cv_test_expect_error ("stereotestsrc num-buffers=1 supersample=1 ! "
      "video/x-raw,format=NV12,width=512,height=120 ! cudaupload ! "
      "video/x-raw(memory:CUDAMemory) ! cudasgm max-disparity=64 "
      "output=disparity-16 ! fakesink",
      "output=disparity-16 needs the input in system memory");
}

GST_END_TEST;

/* The scene packed side-by-side as RGBA, for the appsrc pipelines. */
static GstBuffer *
scene_frame (SgmTestScene * scene, GstVideoInfo * info, GstCaps ** caps)
{
  GstBuffer *frame;

  sgm_test_scene_render (scene, 256, 120, 6, 41, 0.0f, 1);
  frame = sgm_test_pack_pair (scene->left, scene->right, 256, 120,
      GST_VIDEO_FORMAT_RGBA, FALSE, FALSE, info);
  *caps = sgm_test_pair_caps (info, "side-by-side", 0);
  return frame;
}

GST_START_TEST (test_changes_while_playing_gpu)
{
  SgmTestScene scene;
  GstVideoInfo info;
  GstCaps *caps;
  GstBuffer *frame = scene_frame (&scene, &info, &caps);
  SgmTestPipe *pipe = sgm_test_pipe_new ("cudaupload ! "
      "video/x-raw(memory:CUDAMemory) ! cudasgm name=sgm max-disparity=32 ! "
      "cudadownload ! video/x-raw", caps);
  GstElement *sgm = sgm_test_pipe_get (pipe, "sgm");
  const struct
  {
    gint max_d, min_d, paths;
  } steps[] = {
    {32, 0, 8}, {128, 0, 8}, {64, 8, 4}, {16, 0, 8}, {128, 0, 8},
  };
  gsize n = 256 * 120;
  gint16 *disparity = g_new (gint16, n);
  guint8 *confidence = g_malloc (n);

  for (guint i = 0; i < G_N_ELEMENTS (steps); i++) {
    CvSgmParams params;
    GstBuffer *out;
    GstCvDisparityMeta *meta;
    gchar *what = g_strdup_printf ("step %u: max-disparity=%d "
        "min-disparity=%d paths=%d (set while PLAYING)", i, steps[i].max_d,
        steps[i].min_d, steps[i].paths);

    g_object_set (sgm, "max-disparity", steps[i].max_d, "min-disparity",
        steps[i].min_d, "paths", steps[i].paths, NULL);
    out = sgm_test_pipe_process (pipe, frame);
    meta = gst_buffer_get_cv_disparity_meta (out);
    fail_unless (meta != NULL && meta->on_device, "%s: no device meta", what);
    cv_sgm_params_init (&params);
    params.max_disparity = steps[i].max_d;
    params.min_disparity = steps[i].min_d;
    params.paths = steps[i].paths;
    sgm_test_reference (frame, &info, FALSE, FALSE, &params, disparity,
        confidence);
    fail_unless (sgm_test_compare_meta (meta, disparity, confidence,
            what) == 0, "%s: GPU result differs from the CPU reference", what);
    g_print ("%s: identical to the CPU reference\n", what);
    gst_buffer_unref (out);
    g_free (what);
  }
  g_free (disparity);
  g_free (confidence);
  gst_object_unref (sgm);
  sgm_test_pipe_free (pipe);
  gst_buffer_unref (frame);
  gst_caps_unref (caps);
  sgm_test_scene_clear (&scene);
}

GST_END_TEST;

/* Runs the scene frame twice through @middle (CPU or GPU) with
 * post-messages on from the second frame; returns the second frame's
 * message and the element's transfer-bytes after each frame. */
static GstMessage *
summary_of (const gchar * middle, guint64 * transfer_off,
    guint64 * transfer_on)
{
  SgmTestScene scene;
  GstVideoInfo info;
  GstCaps *caps;
  GstBuffer *frame = scene_frame (&scene, &info, &caps);
  SgmTestPipe *pipe = sgm_test_pipe_new (middle, caps);
  GstElement *sgm = sgm_test_pipe_get (pipe, "sgm");
  GstBuffer *out;
  GstMessage *msg;

  out = sgm_test_pipe_process (pipe, frame);
  gst_buffer_unref (out);
  g_object_get (sgm, "transfer-bytes", transfer_off, NULL);
  g_object_set (sgm, "post-messages", TRUE, NULL);
  out = sgm_test_pipe_process (pipe, frame);
  gst_buffer_unref (out);
  g_object_get (sgm, "transfer-bytes", transfer_on, NULL);
  msg = sgm_test_pipe_pop_message (pipe, "cudasgm");
  fail_unless (msg != NULL, "'%s': no cudasgm message", middle);

  gst_object_unref (sgm);
  sgm_test_pipe_free (pipe);
  gst_buffer_unref (frame);
  gst_caps_unref (caps);
  sgm_test_scene_clear (&scene);
  return msg;
}

GST_START_TEST (test_post_messages_gpu)
{
  const gchar *fields[] = { "valid-fraction", "mean-disparity",
    "min-disparity", "max-disparity"
  };
  guint64 cpu_off, cpu_on, gpu_off, gpu_on;
  GstMessage *cpu = summary_of ("cudasgm name=sgm max-disparity=64",
      &cpu_off, &cpu_on);
  GstMessage *gpu = summary_of ("cudaupload ! "
      "video/x-raw(memory:CUDAMemory) ! cudasgm name=sgm max-disparity=64 ! "
      "cudadownload ! video/x-raw", &gpu_off, &gpu_on);

  for (guint i = 0; i < G_N_ELEMENTS (fields); i++) {
    gdouble a = -1, b = -2;

    fail_unless (gst_structure_get_double (gst_message_get_structure (cpu),
            fields[i], &a));
    fail_unless (gst_structure_get_double (gst_message_get_structure (gpu),
            fields[i], &b));
    fail_unless (a == b, "%s: CPU %.17g, GPU %.17g", fields[i], a, b);
  }
  /* the disparity stays on the device unless the summary needs it */
  fail_unless (cpu_off == 0 && cpu_on == 0);
  fail_unless (gpu_off == 0, "GPU transfer-bytes %" G_GUINT64_FORMAT
      " without post-messages", gpu_off);
  fail_unless (gpu_on > 0, "the GPU summary download is not counted");
  g_print ("GPU summary download: %" G_GUINT64_FORMAT " bytes per frame\n",
      gpu_on);
  gst_message_unref (cpu);
  gst_message_unref (gpu);
}

GST_END_TEST;

static void
teardown (void)
{
  cv_test_stop_all ();
}

static Suite *
cudasgm_gpu_suite (void)
{
  Suite *s = suite_create ("cudasgm-gpu");
  TCase *tc = tcase_create ("general");

  tcase_set_timeout (tc, 300);
  tcase_add_checked_fixture (tc, NULL, teardown);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_identity_formats_layouts_paths);
  tcase_add_test (tc, test_identity_sizes_and_parameters);
  tcase_add_test (tc, test_identity_disparity_color);
  tcase_add_test (tc, test_disparity_16_refused_on_cuda);
  tcase_add_test (tc, test_changes_while_playing_gpu);
  tcase_add_test (tc, test_post_messages_gpu);
  return s;
}

int
main (int argc, char **argv)
{
  gst_check_init (&argc, &argv);
  if (!cv_test_have_cuda_elements ())
    return CV_TEST_EXIT_SKIP;
  return gst_check_run_suite (cudasgm_gpu_suite (), "cudasgm-gpu", __FILE__);
}
