/* cudardp on CUDA memory (GPU host only; exits 77 without a GPU or without
 * cudaupload): `cudaupload ! cudardp ! cudadownload` gives the identical
 * segments meta (every array, bit for bit) and the identical overlay bytes
 * as the CPU path, on every CUDA format, on every input kind of the RDP
 * unit tests (noise, steps, ties, invalid runs, ...), on tall columns
 * (1023 .. 4096 rows), tiny frames, the synthetic scene, for parameter sets
 * changed while playing, and with the disparity meta already on the GPU
 * (no upload).  Host <-> device traffic is checked against the exact bytes
 * the docs promise.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/app/gstappsink.h>
#include <gst/cudavision/cudavision.h>
#include <stdio.h>

#include "cv_draw.h"
#include "cv_test.h"
#include "cvtestutil.h"
#include "rdp_elem_util.h"
#include "rdp_test_support.h"

#ifdef CV_HAVE_CUDA
#include <cuda_runtime_api.h>
#include <gst/cuda/gstcudamemory.h>
#endif

static const GstVideoFormat cuda_formats[] = {
  GST_VIDEO_FORMAT_NV12, GST_VIDEO_FORMAT_I420, GST_VIDEO_FORMAT_Y444,
  GST_VIDEO_FORMAT_RGBA, GST_VIDEO_FORMAT_BGRA, GST_VIDEO_FORMAT_RGBx,
  GST_VIDEO_FORMAT_BGRx
};

typedef CvTestPair Pair;

/* `cudardp @props` on system memory and
 * `cudaupload ! cudardp @props ! cudadownload` for @format frames. */
static Pair
pair_new (const gchar * props, GstVideoFormat format, gint w, gint h)
{
  return cv_test_pair_new ("cudardp", props, format, w, h);
}

/* Bytes the CUDA gather writes into pinned host memory for @m, its
 * compact form (docs/elements/cudardp.md): per column the cut count and
 * the levels (2 + 2), per cut its row (2) and value (2 in 1/16 px for
 * disparity, 4 for depth); gaps travel as flags on the cuts. */
static guint64
result_bytes (const GstCvSegmentsMeta * m)
{
  const guint64 n = m->n_columns;
  const guint64 value = m->signal == GST_CV_SEGMENTS_DEPTH ? 4 : 2;

  return 4 * n + (2 + value) * (guint64) m->cut_offsets[n];
}

typedef enum
{
  UPLOAD_HOST_META,             /* host disparity meta: uploaded once */
  UPLOAD_NONE,                  /* disparity meta already on the device */
} UploadKind;

/* Pushes a copy of @in through both paths, compares the metas and the
 * frames and the GPU element's transfer bytes of this frame.  Returns the
 * number of cuts. */
static guint
run_pair (Pair * p, const gchar * name, GstBuffer * in, UploadKind upload)
{
  GstBuffer *cpu, *gpu;
  GstCvSegmentsMeta *a, *b;
  GstCvDisparityMeta *dmeta = gst_buffer_get_cv_disparity_meta (in);
  guint64 before = cv_test_transfer_bytes (p->gpu_element), expected, moved;
  gboolean overlay;
  guint n_cuts;

  g_object_get (p->gpu_element, "overlay", &overlay, NULL);
  cpu = rdp_elem_push (p->cpu, gst_buffer_copy_deep (in));
  gpu = rdp_elem_push (p->gpu, gst_buffer_copy_deep (in));
  cv_test_pair_check_on_gpu (p, name);

  a = gst_buffer_get_cv_segments_meta (cpu);
  b = gst_buffer_get_cv_segments_meta (gpu);
  fail_unless (a != NULL, "%s: no segments meta from the CPU path", name);
  fail_unless (b != NULL, "%s: no segments meta from the GPU path (lost "
      "through cudadownload?)", name);
  fail_unless (rdp_elem_metas_equal (a, b, name),
      "%s: the GPU meta differs from the CPU meta (see above)", name);
  fail_unless (rdp_elem_frames_equal (&p->info, cpu, gpu, name),
      "%s: the GPU frame differs from the CPU frame (see above)", name);
  fail_unless_equals_uint64 (cv_test_transfer_bytes (p->cpu_element), 0);

  expected = result_bytes (a);
  if (upload == UPLOAD_HOST_META && dmeta != NULL)
    expected += gst_buffer_get_size (dmeta->storage);
  /* the overlay's lists are built on the device: no bytes */
  moved = cv_test_transfer_bytes (p->gpu_element) - before;
  fail_unless (moved == expected, "%s: %" G_GUINT64_FORMAT " bytes moved, "
      "expected %" G_GUINT64_FORMAT " (result %" G_GUINT64_FORMAT
      ", disparity upload %s, overlay %s)", name, moved, expected,
      result_bytes (a), upload == UPLOAD_HOST_META ? "yes" : "no",
      overlay ? "on" : "off");

  n_cuts = a->cut_offsets[a->n_columns];
  printf ("  %s: %u columns, %u cuts, %u gaps identical; %" G_GUINT64_FORMAT
      " bytes moved\n", name, a->n_columns, n_cuts,
      a->gap_offsets[a->n_columns], moved);
  gst_buffer_unref (cpu);
  gst_buffer_unref (gpu);
  return n_cuts;
}

/* A @format frame of w x h carrying a host disparity meta of @kind. */
static GstBuffer *
input_new (GstVideoFormat format, gint w, gint h, RdpInputKind kind,
    guint32 seed)
{
  static const GstCvStereoCalibration calib = { 700.0, 300.0, 180.0, 0.54 };
  GstBuffer *buf = rdp_elem_frame_new (format, w, h, seed);
  CvImageS16 *disp = rdp_image_new (w, h, 6);

  rdp_image_fill (disp, kind, seed);
  rdp_elem_attach_disparity (buf, disp, &calib, 256);
  rdp_image_free (disp);
  return buf;
}

#ifdef CV_HAVE_CUDA
/* Turns the host disparity meta of the frames entering the GPU cudardp
 * into a device-resident one, in the CUDA context of the frame (the one
 * cudaupload and cudardp share), as cudasgm attaches it.  Problems are
 * counted, not asserted: a failed check inside a pad probe would leave the
 * pad locked (CK_FORK=no). */
typedef struct
{
  GstBufferPool *pool;
  gsize size;
  guint moved, failures;
} DeviceProbe;

static GstPadProbeReturn
move_disparity_to_device (GstPad * pad, GstPadProbeInfo * info, gpointer data)
{
  DeviceProbe *d = data;
  GstBuffer *buf = GST_PAD_PROBE_INFO_BUFFER (info);
  GstMemory *mem = gst_buffer_peek_memory (buf, 0);
  GstCvDisparityMeta *host = gst_buffer_get_cv_disparity_meta (buf);
  GstCvStereoCalibration calib;
  GstCvDisparityMapping hmap;
  GstCudaContext *ctx;
  GstBuffer *storage = NULL;
  GstMapInfo dmap;
  guint width, height;
  gint min_d, max_d;
  gsize stride, size;
  cudaError_t r;

  if (!gst_is_cuda_memory (mem) || host == NULL || host->on_device) {
    g_printerr ("device probe: %s\n", host == NULL ? "no disparity meta" :
        host->on_device ? "meta already on the device" : "not CUDA memory");
    d->failures++;
    return GST_PAD_PROBE_OK;
  }
  ctx = GST_CUDA_MEMORY_CAST (mem)->context;
  width = host->width;
  height = host->height;
  min_d = host->min_disparity;
  max_d = host->max_disparity;
  calib = host->calibration;
  size = gst_cv_disparity_storage_size (width, height, FALSE, &stride, NULL,
      NULL);
  if (d->pool == NULL) {
    d->pool = cv_test_device_pool_new (ctx, size, 2);
    d->size = size;
  }
  if (d->pool == NULL || d->size != size
      || gst_buffer_pool_acquire_buffer (d->pool, &storage,
          NULL) != GST_FLOW_OK) {
    g_printerr ("device probe: no device storage of %zu bytes\n", size);
    d->failures++;
    return GST_PAD_PROBE_OK;
  }
  if (!gst_cv_disparity_meta_map (host, GST_MAP_READ, &hmap)) {
    d->failures++;
    gst_buffer_unref (storage);
    return GST_PAD_PROBE_OK;
  }
  if (!gst_buffer_map (storage, &dmap, GST_MAP_WRITE | GST_MAP_CUDA)) {
    gst_cv_disparity_meta_unmap (host, &hmap);
    d->failures++;
    gst_buffer_unref (storage);
    return GST_PAD_PROBE_OK;
  }
  gst_cuda_context_push (ctx);
  r = cudaMemcpy2D (dmap.data, stride, hmap.disparity, hmap.disparity_stride,
      (gsize) width * sizeof (gint16), height, cudaMemcpyHostToDevice);
  /* a pageable upload may still be in flight on the legacy stream, which
   * cudardp's non-blocking stream does not wait for */
  if (r == cudaSuccess)
    r = cudaDeviceSynchronize ();
  gst_cuda_context_pop (NULL);
  gst_buffer_unmap (storage, &dmap);
  gst_cv_disparity_meta_unmap (host, &hmap);
  if (r != cudaSuccess) {
    g_printerr ("device probe: cudaMemcpy2D: %s\n", cudaGetErrorString (r));
    d->failures++;
    gst_buffer_unref (storage);
    return GST_PAD_PROBE_OK;
  }

  buf = gst_buffer_make_writable (buf);
  GST_PAD_PROBE_INFO_DATA (info) = buf;
  gst_buffer_remove_meta (buf, (GstMeta *) gst_buffer_get_cv_disparity_meta
      (buf));
  gst_buffer_add_cv_disparity_meta (buf, storage, width, height, min_d,
      max_d, FALSE, &calib, GST_OBJECT (ctx));
  gst_buffer_unref (storage);
  d->moved++;
  return GST_PAD_PROBE_OK;
}

static void
device_probe_add (Pair * p, DeviceProbe * d)
{
  GstPad *pad = gst_element_get_static_pad (p->gpu_element, "sink");

  memset (d, 0, sizeof (*d));
  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, move_disparity_to_device,
      d, NULL);
  gst_object_unref (pad);
}

/* After the pair is freed (its buffers went back to the pool). */
static void
device_probe_clear (DeviceProbe * d)
{
  if (d->pool) {
    gst_buffer_pool_set_active (d->pool, FALSE);
    gst_object_unref (d->pool);
  }
  d->pool = NULL;
}
#endif

GST_START_TEST (test_formats_identical)
{
  enum
  { W = 334, H = 202 };

  for (guint f = 0; f < G_N_ELEMENTS (cuda_formats); f++) {
    const gchar *fname = gst_video_format_to_string (cuda_formats[f]);
    GstBuffer *in = input_new (cuda_formats[f], W, H, RDP_INPUT_INVALID_RUNS,
        17 + f);
    Pair p = pair_new ("epsilon=2", cuda_formats[f], W, H);
    gchar *name;

    name = g_strdup_printf ("%s overlay=false", fname);
    fail_unless (run_pair (&p, name, in, UPLOAD_HOST_META) > 0);
    g_free (name);
    cv_test_pair_set (&p, "overlay", "true");
    name = g_strdup_printf ("%s overlay=true", fname);
    run_pair (&p, name, in, UPLOAD_HOST_META);
    g_free (name);
    cv_test_pair_free (&p);
    gst_buffer_unref (in);
  }
}

GST_END_TEST;

/* Parameter sets changed while playing (the CUDA plan is reused and grows
 * when it must). */
GST_START_TEST (test_parameters_identical)
{
  enum
  { W = 400, H = 300 };
  static const gchar *sets[][2] = {
    {"epsilon", "0"},
    {"epsilon", "0.5"},
    {"epsilon", "8"},
    {"median", "off"},
    {"median", "5"},
    {"column-step", "3"},
    {"column-mode", "mean"},
    {"column-step", "40"},
    {"column-mode", "sample"},
    {"signal", "depth"},
    {"epsilon", "-1"},
    {"epsilon", "0.05"},
    {"max-depth", "20"},
    {"median", "3"},
    {"column-step", "1"},
    {"signal", "disparity"},
    {"epsilon", "4096"},
  };
  const RdpInputKind kinds[] = { RDP_INPUT_STREET, RDP_INPUT_NOISE };

  for (guint k = 0; k < G_N_ELEMENTS (kinds); k++) {
    GstBuffer *in = input_new (GST_VIDEO_FORMAT_NV12, W, H, kinds[k], 5);
    Pair p = pair_new ("overlay=true", GST_VIDEO_FORMAT_NV12, W, H);
    gchar *name = g_strdup_printf ("%s defaults", rdp_input_name (kinds[k]));

    run_pair (&p, name, in, UPLOAD_HOST_META);
    g_free (name);
    for (guint i = 0; i < G_N_ELEMENTS (sets); i++) {
      cv_test_pair_set (&p, sets[i][0], sets[i][1]);
      name = g_strdup_printf ("%s +%s=%s", rdp_input_name (kinds[k]),
          sets[i][0], sets[i][1]);
      run_pair (&p, name, in, UPLOAD_HOST_META);
      g_free (name);
    }
    cv_test_pair_free (&p);
    gst_buffer_unref (in);
  }
}

GST_END_TEST;

/* Every input kind of the unit tests, on frames of RDP's critical column
 * lengths (around the 1024 threads of a block, 4096 rows) and tiny ones. */
GST_START_TEST (test_inputs_identical)
{
  static const gint sizes[][2] = {
    {160, 120}, {37, 1023}, {37, 1024}, {37, 1025}, {24, 4096},
    {1, 1}, {3, 1}, {1, 2}, {5, 3},
  };

  for (guint s = 0; s < G_N_ELEMENTS (sizes); s++) {
    const gint w = sizes[s][0], h = sizes[s][1];
    Pair p = pair_new ("overlay=true epsilon=1.5",
        GST_VIDEO_FORMAT_RGBA, w, h);

    for (gint kind = 0; kind < RDP_N_INPUTS; kind++) {
      GstBuffer *in = input_new (GST_VIDEO_FORMAT_RGBA, w, h, kind,
          100 + kind + s);
      gchar *name = g_strdup_printf ("%dx%d %s", w, h,
          rdp_input_name (kind));

      run_pair (&p, name, in, UPLOAD_HOST_META);
      g_free (name);
      gst_buffer_unref (in);
    }
    cv_test_pair_free (&p);
  }
}

GST_END_TEST;

/* The synthetic scene's ground truth (left view), disparity and depth. */
GST_START_TEST (test_scene_identical)
{
  enum
  { N_FRAMES = 3, VW = 640, VH = 480 };
  const guint n_frames = cv_test_count (N_FRAMES, 1);
  const gchar *formats[] = { "NV12", "RGBA" };
  const gchar *props[] = { "overlay=true",
    "signal=depth max-depth=60 column-step=4 column-mode=mean overlay=true"
  };

  for (guint f = 0; f < G_N_ELEMENTS (formats); f++) {
    gchar *desc = g_strdup_printf ("stereotestsrc num-buffers=%d "
        "attach-disparity=true ! video/x-raw,format=%s,width=%d,height=%d ! "
        "videocrop right=%d ! appsink name=sink", n_frames, formats[f],
        2 * VW, VH, VW);
    GstElement *src = gst_parse_launch (desc, NULL);
    GstElement *sink = gst_bin_get_by_name (GST_BIN (src), "sink");
    GstSample *samples[N_FRAMES];

    /* the frames first: a failed check must not leave a pipeline running */
    gst_element_set_state (src, GST_STATE_PLAYING);
    for (guint i = 0; i < n_frames; i++)
      samples[i] = gst_app_sink_pull_sample (GST_APP_SINK (sink));
    gst_element_set_state (src, GST_STATE_NULL);

    for (guint k = 0; k < G_N_ELEMENTS (props); k++) {
      Pair p = pair_new (props[k],
          gst_video_format_from_string (formats[f]), VW, VH);
      for (guint i = 0; i < n_frames; i++) {
        gchar *name = g_strdup_printf ("scene %s '%s' frame %u", formats[f],
            props[k], i);
        fail_unless (samples[i] != NULL, "%s: no frame", name);
        run_pair (&p, name, gst_sample_get_buffer (samples[i]),
            UPLOAD_HOST_META);
        g_free (name);
      }
      cv_test_pair_free (&p);
    }
    for (guint i = 0; i < n_frames; i++)
      gst_sample_unref (samples[i]);
    gst_object_unref (sink);
    gst_object_unref (src);
    g_free (desc);
  }
}

GST_END_TEST;

/* Disparity already on the GPU (a device meta in the shared context, as
 * cudasgm attaches it): cudardp reads it in place, nothing is uploaded. */
GST_START_TEST (test_device_disparity)
{
#ifdef CV_HAVE_CUDA
  enum
  { W = 320, H = 240 };
  const gchar *props[] = { "", "overlay=true median=5 epsilon=3",
    "signal=depth epsilon=0.2 column-step=2 column-mode=mean overlay=true"
  };
  const RdpInputKind kinds[] = { RDP_INPUT_STREET, RDP_INPUT_NOISE,
    RDP_INPUT_INVALID_RUNS
  };

  for (guint k = 0; k < G_N_ELEMENTS (props); k++) {
    Pair p = pair_new (props[k], GST_VIDEO_FORMAT_NV12, W, H);
    DeviceProbe d;

    device_probe_add (&p, &d);
    for (guint i = 0; i < G_N_ELEMENTS (kinds); i++) {
      GstBuffer *in = input_new (GST_VIDEO_FORMAT_NV12, W, H, kinds[i],
          40 + i);
      gchar *name = g_strdup_printf ("device disparity '%s' %s", props[k],
          rdp_input_name (kinds[i]));

      run_pair (&p, name, in, UPLOAD_NONE);
      fail_unless (d.moved == i + 1 && d.failures == 0,
          "%s: the test's probe did not move the disparity to the device "
          "(%u moved, %u failures, see above)", name, d.moved, d.failures);
      g_free (name);
      gst_buffer_unref (in);
    }
    cv_test_pair_free (&p);
    device_probe_clear (&d);
  }
#endif
}

GST_END_TEST;

GST_START_TEST (test_gpu_errors)
{
  cv_test_expect_error ("videotestsrc num-buffers=1 ! "
      "video/x-raw,format=NV12,width=64,height=48 ! cudaupload ! cudardp ! "
      "fakesink", "in CUDA memory");
  cv_test_expect_error ("stereotestsrc num-buffers=1 supersample=1 "
      "attach-disparity=true ! video/x-raw,format=RGBA,width=320,height=120 ! "
      "cudaupload ! cudardp ! fakesink", "does not match the frame");
}

GST_END_TEST;

/* The GPU pipelines of docs/elements/cudardp.md run to EOS. */
GST_START_TEST (test_gpu_pipeline)
{
  gchar *desc = g_strdup_printf ("stereotestsrc num-buffers=%u "
      "attach-disparity=true ! video/x-raw,format=NV12,width=1280,"
      "height=480 ! videocrop right=640 ! cudaupload ! cudardp overlay=true "
      "post-messages=true ! cudadownload ! videoconvert ! fakesink",
      cv_test_count (20, 3));

  cv_test_expect_eos (desc);
  g_free (desc);
}

GST_END_TEST;

/* Wall time of one frame inside the GPU cudardp (cv_test_latency) for the
 * log; the kernels alone are timed by bench-rdp. */
GST_START_TEST (test_element_latency)
{
#ifdef CV_HAVE_CUDA
  enum
  { FW = 1242, FH = 375 };
  /* two timed frames per case under a CUDA tool (the number is for the
   * log; the kernels are the same) */
  const guint warmup = cv_test_count (20, 1), runs = cv_test_count (200, 2);
  const gchar *settings[] = { "", "overlay=true" };
  const RdpInputKind kinds[] = { RDP_INPUT_STREET, RDP_INPUT_NOISE };

  for (guint k = 0; k < G_N_ELEMENTS (settings); k++) {
    for (guint i = 0; i < G_N_ELEMENTS (kinds); i++) {
      /* RGBA: KITTI's 375 rows are odd, which 4:2:0 formats would round */
      Pair p = pair_new (settings[k], GST_VIDEO_FORMAT_RGBA, FW, FH);
      GstBuffer *in = input_new (GST_VIDEO_FORMAT_RGBA, FW, FH, kinds[i], 3);
      CvTestLatency *l;
      DeviceProbe d;
      guint64 bytes;

      /* the disparity on the device, as after cudasgm; the probe runs
       * before the timing probe */
      device_probe_add (&p, &d);
      l = cv_test_latency_attach (p.gpu_element);
      for (guint n = 0; n < warmup + runs; n++)
        gst_buffer_unref (rdp_elem_push (p.gpu, gst_buffer_ref (in)));
      fail_unless_equals_int (cv_test_latency_count (l), warmup + runs);
      fail_unless (d.moved == warmup + runs && d.failures == 0);
      bytes = cv_test_transfer_bytes (p.gpu_element);
      printf ("  cudardp %dx%d RGBA, %s disparity on the device, %s: median "
          "%.1f us per frame (wall time in the element), %.0f bytes moved "
          "per frame\n", FW, FH, rdp_input_name (kinds[i]),
          settings[k][0] ? settings[k] : "(defaults)",
          cv_test_latency_median (l, warmup),
          (gdouble) bytes / (warmup + runs));
      cv_test_pair_check_on_gpu (&p, "latency");
      cv_test_latency_free (l);
      gst_buffer_unref (in);
      cv_test_pair_free (&p);
      device_probe_clear (&d);
    }
  }
#endif
}

GST_END_TEST;

static Suite *
rdp_gpu_suite (void)
{
  Suite *s = suite_create ("cudardp-gpu");
  TCase *tc = tcase_create ("general");

  tcase_set_timeout (tc, 240);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_formats_identical);
  tcase_add_test (tc, test_parameters_identical);
  tcase_add_test (tc, test_inputs_identical);
  tcase_add_test (tc, test_scene_identical);
  tcase_add_test (tc, test_device_disparity);
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
  return gst_check_run_suite (rdp_gpu_suite (), "cudardp-gpu", __FILE__);
}
