/* cudastixels on CUDA memory (GPU host only; exits 77 without a GPU or
 * without cudaupload): `cudaupload ! cudastixels ! cudadownload` against the
 * CPU path on the same input -
 *  - the same stixels on >= 99 % of the columns of every frame (the core's
 *    agreement rule: rows and class equal, plane, depth and cost within
 *    float rounding), and the ground-truth class accuracy >= 95 %;
 *  - the overlay: the GPU's bytes equal the CPU renderer's drawing of the
 *    GPU's own stixels (always), and the CPU path's bytes (when all columns
 *    agree);
 *  - estimate-camera on the device: the same pose as the CPU estimate, on
 *    frames that run each tiled kernel the default picks;
 *  - transfer-bytes: counts the upload of host disparity (stereotestsrc's
 *    ground truth) and, when the disparity meta is already on the device,
 *    only the small result lists;
 *  - frame sizes that need 1, 2 and 4 rows per thread (up to 2048 rows),
 *    stixel widths and row steps;
 *  - the left band (default: the disparity meta's range, so every
 *    ground-truth input here has one, e.g. 85 px at 640x480) on device
 *    disparity and confidence: the same stixels as the CPU's.
 * On failure the log names the format / size, the frame, the first
 * differing column with both columns' stixels, or the first differing byte.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gst/check/gstcheck.h>
#include <gst/cuda/gstcudacontext.h>
#include <gst/cuda/gstcudamemory.h>
#include <gst/video/video.h>
#include <cuda_runtime_api.h>
#include <math.h>
#include <string.h>

#include "cv_draw.h"
#include "cv_stixels.h"
#include "cv_test.h"
#include "cvtestutil.h"
#include "gstcvframe.h"
#include "gststixelsoutput.h"
#include "stixels_element_util.h"

#define MIN_IDENTICAL_COLUMNS 0.99
#define SCENE_PITCH "0.02"
#define SCENE_SPEED 0.5
/* Generous per-frame bound of what the result copy adds beyond the
 * stixels themselves (counters, pose, alignment), bytes. */
#define RESULT_OVERHEAD_BOUND 256

typedef struct
{
  GstBufferPool *pool;
  guint replaced;
} DeviceProbe;

/* Moves the host disparity meta of CUDA buffers onto the device (in the
 * buffer's CUDA context), as a GPU disparity producer would attach it. */
static GstPadProbeReturn
to_device_probe (GstPad * pad, GstPadProbeInfo * info, gpointer user_data)
{
  DeviceProbe *probe = user_data;
  GstBuffer *buf = GST_PAD_PROBE_INFO_BUFFER (info);
  GstCvDisparityMeta *meta = gst_buffer_get_cv_disparity_meta (buf);
  GstMemory *mem = gst_buffer_peek_memory (buf, 0);
  GstCudaContext *ctx;
  GstBuffer *storage = NULL;
  GstMapInfo src, dst;
  GstCvDisparityMeta copy;
  gsize size;
  cudaError_t r;

  if (meta == NULL || meta->on_device || !gst_is_cuda_memory (mem))
    return GST_PAD_PROBE_OK;
  ctx = GST_CUDA_MEMORY_CAST (mem)->context;
  size = gst_buffer_get_size (meta->storage);
  if (probe->pool == NULL)
    probe->pool = cv_test_device_pool_new (ctx, size, 2);
  fail_unless (gst_buffer_pool_acquire_buffer (probe->pool, &storage,
          NULL) == GST_FLOW_OK);
  fail_unless (gst_buffer_map (meta->storage, &src, GST_MAP_READ));
  fail_unless (gst_buffer_map (storage, &dst, GST_MAP_WRITE | GST_MAP_CUDA));
  fail_unless (gst_cuda_context_push (ctx));
  r = cudaMemcpy (dst.data, src.data, size, cudaMemcpyHostToDevice);
  gst_cuda_context_pop (NULL);
  fail_unless (r == cudaSuccess, "cudaMemcpy: %s", cudaGetErrorString (r));
  gst_buffer_unmap (storage, &dst);
  gst_buffer_unmap (meta->storage, &src);

  copy = *meta;
  buf = gst_buffer_make_writable (buf);
  GST_PAD_PROBE_INFO_DATA (info) = buf;
  gst_buffer_remove_meta (buf, (GstMeta *) gst_buffer_get_cv_disparity_meta
      (buf));
  gst_buffer_add_cv_disparity_meta (buf, storage, copy.width, copy.height,
      copy.min_disparity, copy.max_disparity, copy.has_confidence,
      &copy.calibration, GST_OBJECT (ctx));
  gst_buffer_unref (storage);
  probe->replaced++;
  return GST_PAD_PROBE_OK;
}

/* The CPU or GPU path; with @device_disparity the disparity meta is moved
 * to the device before cudastixels (GPU only). */
static StxRun *
run_chain (const gchar * src, GstBuffer ** inputs, const gchar * caps,
    const gchar * convert, guint n, const gchar * props, gboolean gpu,
    gboolean device_disparity)
{
  DeviceProbe probe = { NULL, 0 };
  StxRun *run = stx_run_chain (src, inputs, caps, convert, n, props, gpu,
      device_disparity ? to_device_probe : NULL, &probe);

  if (device_disparity)
    fail_unless (probe.replaced == n, "%u of %u frames got device disparity",
        probe.replaced, n);
  if (probe.pool) {
    gst_buffer_pool_set_active (probe.pool, FALSE);
    gst_object_unref (probe.pool);
  }
  return run;
}

/* ---- stixel comparison (the core's agreement rule) ----------------------- */

static gboolean
stixels_match (const GstCvStixel * a, const GstCvStixel * b)
{
  const gfloat tol_d = 1e-3f, tol_rel = 1e-4f;

  if (a->column != b->column || a->width != b->width || a->top != b->top
      || a->bottom != b->bottom || a->stixel_class != b->stixel_class)
    return FALSE;
  if (fabsf (a->disparity_slope - b->disparity_slope) > 1e-6f +
      tol_rel * fabsf (a->disparity_slope)
      || fabsf (a->disparity_intercept - b->disparity_intercept) > tol_d +
      tol_rel * fabsf (a->disparity_intercept)
      || fabsf (a->cost - b->cost) > tol_d + tol_rel * fabsf (a->cost))
    return FALSE;
  return fabsf (a->depth - b->depth) <= 1e-3f * a->depth + 1e-4f;
}

/* Index ranges of the stixels of each column. */
static GArray *
column_ranges (const GstCvStixelsMeta * m)
{
  GArray *starts = g_array_new (FALSE, FALSE, sizeof (guint));

  for (guint i = 0; i < m->n_stixels; i++)
    if (i == 0 || m->stixels[i].column != m->stixels[i - 1].column)
      g_array_append_val (starts, i);
  g_array_append_val (starts, m->n_stixels);
  return starts;
}

static void
print_column (const gchar * who, const GstCvStixelsMeta * m, guint from,
    guint to)
{
  g_printerr ("  %s:\n", who);
  for (guint i = from; i < to; i++) {
    const GstCvStixel *s = &m->stixels[i];
    g_printerr ("    class %d rows %u..%u cols %u+%u slope %.9g intercept "
        "%.9g depth %.6g cost %.9g\n", s->stixel_class, s->top, s->bottom,
        s->column, s->width, s->disparity_slope, s->disparity_intercept,
        s->depth, s->cost);
  }
}

/* Fraction of identical columns; logs the first difference. */
static gdouble
compare_metas (const gchar * what, const GstCvStixelsMeta * cpu,
    const GstCvStixelsMeta * gpu)
{
  GArray *ca = column_ranges (cpu), *cb = column_ranges (gpu);
  guint n_cols = ca->len - 1, identical = 0;
  gboolean logged = FALSE;

  fail_unless (cpu->frame_width == gpu->frame_width
      && cpu->frame_height == gpu->frame_height);
  fail_unless (ca->len == cb->len, "%s: %u columns on the CPU, %u on the GPU",
      what, ca->len - 1, cb->len - 1);
  for (guint c = 0; c < n_cols; c++) {
    guint a0 = g_array_index (ca, guint, c), a1 = g_array_index (ca, guint,
        c + 1);
    guint b0 = g_array_index (cb, guint, c), b1 = g_array_index (cb, guint,
        c + 1);
    gboolean same = a1 - a0 == b1 - b0;

    for (guint k = 0; same && k < a1 - a0; k++)
      same = stixels_match (&cpu->stixels[a0 + k], &gpu->stixels[b0 + k]);
    identical += same;
    if (!same && !logged) {
      g_printerr ("%s: first differing column %u (x %u):\n", what, c,
          cpu->stixels[a0].column);
      print_column ("CPU", cpu, a0, a1);
      print_column ("GPU", gpu, b0, b1);
      logged = TRUE;
    }
  }
  g_array_unref (ca);
  g_array_unref (cb);
  g_print ("%-44s %u of %u columns identical, %u / %u stixels\n", what,
      identical, n_cols, cpu->n_stixels, gpu->n_stixels);
  return (gdouble) identical / n_cols;
}

/* ---- frame comparison ------------------------------------------------------ */

/* Compares the visible bytes of two frames plane by plane; returns the
 * number of differing bytes and logs the first. */
static guint64
compare_frames (const gchar * what, GstSample * sa, GstBuffer * ba,
    GstSample * sb, GstBuffer * bb)
{
  GstVideoInfo ia, ib;
  GstVideoFrame fa, fb;
  guint64 diff = 0;

  fail_unless (gst_video_info_from_caps (&ia, gst_sample_get_caps (sa)));
  fail_unless (gst_video_info_from_caps (&ib, gst_sample_get_caps (sb)));
  fail_unless (GST_VIDEO_INFO_FORMAT (&ia) == GST_VIDEO_INFO_FORMAT (&ib));
  fail_unless (gst_video_frame_map (&fa, &ia, ba, GST_MAP_READ));
  fail_unless (gst_video_frame_map (&fb, &ib, bb, GST_MAP_READ));
  for (guint c = 0; c < GST_VIDEO_FRAME_N_COMPONENTS (&fa); c++) {
    guint plane = GST_VIDEO_FRAME_COMP_PLANE (&fa, c);
    gint row_bytes = GST_VIDEO_FRAME_COMP_WIDTH (&fa, c) *
        GST_VIDEO_FRAME_COMP_PSTRIDE (&fa, c);
    for (gint y = 0; y < GST_VIDEO_FRAME_COMP_HEIGHT (&fa, c); y++) {
      const guint8 *ra = (const guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&fa,
          plane) + (gsize) y * GST_VIDEO_FRAME_PLANE_STRIDE (&fa, plane);
      const guint8 *rb = (const guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&fb,
          plane) + (gsize) y * GST_VIDEO_FRAME_PLANE_STRIDE (&fb, plane);
      for (gint x = 0; x < row_bytes; x++)
        if (ra[x] != rb[x]) {
          if (diff == 0)
            g_printerr ("%s: first differing byte: component %u plane %u "
                "row %d byte %d: %u vs %u\n", what, c, plane, y, x, ra[x],
                rb[x]);
          diff++;
        }
    }
  }
  gst_video_frame_unmap (&fa);
  gst_video_frame_unmap (&fb);
  return diff;
}

/* @original (the frame before the overlay) with @meta drawn by the CPU
 * renderer, as cudastixels draws it. */
static GstBuffer *
draw_on_cpu (GstSample * original, const GstCvStixelsMeta * meta)
{
  GstBuffer *copy = gst_buffer_copy_deep (gst_sample_get_buffer (original));
  GstVideoInfo info;
  GstVideoFrame vf;
  GstCvStixelsOutput out = { 0 };
  CvFrame frame;
  CvDrawList draw;
  CvError err = { 0 };
  GstVideoFormat fmt;
  CvStixelsOverlay look;

  fail_unless (gst_video_info_from_caps (&info,
          gst_sample_get_caps (original)));
  fail_unless (gst_video_frame_map (&vf, &info, copy, GST_MAP_READWRITE));
  fmt = GST_VIDEO_INFO_FORMAT (&info);
  gst_cv_frame_from_video_frame (&vf, &frame);
  look.frame_width = GST_VIDEO_INFO_WIDTH (&info);
  look.frame_height = GST_VIDEO_INFO_HEIGHT (&info);
  look.even_edges = fmt == GST_VIDEO_FORMAT_NV12
      || fmt == GST_VIDEO_FORMAT_I420;
  look.max_depth = 40.0;
  gst_cv_stixels_output_build_overlay (&out, meta->stixels, meta->n_stixels,
      &look, &draw);
  fail_unless (cv_draw_cpu (&frame, &draw, &err) == CV_OK, "%s",
      err.message);
  gst_video_frame_unmap (&vf);
  gst_cv_stixels_output_clear (&out);
  return copy;
}

/* Upper bound of the bytes the GPU path copies for @meta's frame besides
 * the disparity: the result list (the overlay's boxes are built on the
 * device: none). */
static guint64
result_bytes_bound (const GstCvStixelsMeta * m)
{
  guint n_columns = 0;

  for (guint i = 0; i < m->n_stixels; i++)
    n_columns += i == 0 || m->stixels[i].column != m->stixels[i - 1].column;
  /* the compact list: 21 bytes per stixel (docs/elements/cudastixels.md) */
  return (guint64) m->n_stixels * 21 + 8 * (guint64) (n_columns + 1) +
      RESULT_OVERHEAD_BOUND;
}

/* ---- the checks ------------------------------------------------------------ */

/* CPU path, CPU path without overlay (the original frames) and GPU path on
 * the same input; compares stixels and overlay, checks the ground truth
 * (@scenes, may be NULL) and returns the GPU run. */
static StxRun *
check_agreement (const gchar * what, const gchar * src, GstBuffer ** inputs,
    const gchar * caps, const gchar * convert, guint n, const gchar * props,
    StxScene ** scenes, gboolean device_disparity)
{
  gchar *props_overlay = g_strdup_printf ("%s overlay=true post-messages=true",
      props);
  StxRun *cpu = run_chain (src, inputs, caps, convert, n, props_overlay,
      FALSE, FALSE);
  StxRun *plain = run_chain (src, inputs, caps, convert, n, props, FALSE,
      FALSE);
  StxRun *gpu = run_chain (src, inputs, caps, convert, n, props_overlay,
      TRUE, device_disparity);

  for (guint i = 0; i < n; i++) {
    gchar *frame_what = g_strdup_printf ("%s frame %u", what, i);
    GstCvStixelsMeta *mc = stx_run_meta (cpu, i), *mg = stx_run_meta (gpu, i);
    gdouble agree = compare_metas (frame_what, mc, mg);
    GstBuffer *expect;
    guint64 diff;

    fail_unless (agree >= MIN_IDENTICAL_COLUMNS, "%s: only %.2f %% of the "
        "columns identical", frame_what, 100.0 * agree);
    if (scenes) {
      StxMetaEval ev;
      stx_evaluate_meta (scenes[i], mg, 0.05, &ev);
      stx_print_eval (frame_what, &ev);
      fail_unless (ev.class_accuracy >= STX_MIN_CLASS_ACCURACY,
          "%s: GPU class accuracy %.4f", frame_what, ev.class_accuracy);
    }
    /* the GPU renderer draws the GPU's stixels as the CPU renderer does */
    expect = draw_on_cpu (plain->samples[i], mg);
    diff = compare_frames (frame_what, gpu->samples[i],
        gst_sample_get_buffer (gpu->samples[i]), plain->samples[i], expect);
    fail_unless (diff == 0, "%s: the GPU overlay differs in %"
        G_GUINT64_FORMAT " bytes from the CPU drawing of the same stixels",
        frame_what, diff);
    gst_buffer_unref (expect);
    /* and when the stixels are the same, the bytes are the CPU path's */
    if (agree == 1.0) {
      diff = compare_frames (frame_what, gpu->samples[i],
          gst_sample_get_buffer (gpu->samples[i]), cpu->samples[i],
          gst_sample_get_buffer (cpu->samples[i]));
      fail_unless (diff == 0, "%s: overlay differs from the CPU path's in %"
          G_GUINT64_FORMAT " bytes", frame_what, diff);
    }
    g_free (frame_what);
  }
  fail_unless (cpu->transfer_bytes == 0);
  stx_run_free (cpu);
  stx_run_free (plain);
  g_free (props_overlay);
  return gpu;
}

/* The scenes stereotestsrc renders (left view, ground-truth disparity meta
 * on the host), converted to @format, through both paths. */
static void
check_format (const gchar * format)
{
  /* under a CUDA tool, one frame (every kernel runs on each) */
  const guint n = cv_test_count (3, 1);
  StxScene *scenes[3];
  GstBuffer *inputs[3];
  gchar *convert = g_strdup_printf ("videoconvert ! video/x-raw,format=%s",
      format);
  const gchar *caps = "video/x-raw,format=RGBA,width=640,height=480,"
      "framerate=25/1";
  guint64 upload = (guint64) n * gst_cv_disparity_storage_size (640, 480,
      FALSE, NULL, NULL, NULL), bound = upload;
  StxRun *gpu;

  for (guint i = 0; i < n; i++) {
    scenes[i] = stx_scene_new (640, 480, 8, 1, (gfloat) (i * SCENE_SPEED),
        TRUE);
    inputs[i] = stx_scene_rgba_buffer (scenes[i]);
  }
  gpu = check_agreement (format, NULL, inputs, caps, convert, n,
      "pitch=" SCENE_PITCH, scenes, FALSE);
  for (guint i = 0; i < n; i++)
    bound += result_bytes_bound (stx_run_meta (gpu, i));
  g_print ("%s: transfer-bytes %" G_GUINT64_FORMAT " (disparity uploads %"
      G_GUINT64_FORMAT ", bound %" G_GUINT64_FORMAT ")\n", format,
      gpu->transfer_bytes, upload, bound);
  /* the host disparity was uploaded once per frame, and counted */
  fail_unless (gpu->transfer_bytes >= upload && gpu->transfer_bytes <= bound,
      "%s: transfer-bytes %" G_GUINT64_FORMAT " outside [%" G_GUINT64_FORMAT
      ", %" G_GUINT64_FORMAT "]", format, gpu->transfer_bytes, upload, bound);
  stx_run_free (gpu);
  for (guint i = 0; i < n; i++) {
    gst_buffer_unref (inputs[i]);
    stx_scene_free (scenes[i]);
  }
  g_free (convert);
}

GST_START_TEST (test_agreement_rgba)
{
  check_format ("RGBA");
}

GST_END_TEST;

GST_START_TEST (test_agreement_nv12)
{
  check_format ("NV12");
}

GST_END_TEST;

GST_START_TEST (test_agreement_other_formats)
{
  check_format ("I420");
  check_format ("Y444");
  check_format ("BGRx");
  check_format ("BGRA");
  check_format ("RGBx");
}

GST_END_TEST;

/* Disparity already on the device (as cudasgm will attach it): no upload,
 * only the result lists cross. */
GST_START_TEST (test_device_disparity)
{
  const guint n = 2;
  StxScene *scenes[2];
  GstBuffer *inputs[2];
  gchar *caps;
  guint64 bound = 0, lists = 0;
  StxRun *gpu;

  for (guint i = 0; i < n; i++) {
    scenes[i] = stx_scene_new (640, 480, 8, 11, (gfloat) (i * SCENE_SPEED),
        TRUE);
    inputs[i] = stx_scene_rgba_buffer (scenes[i]);
  }
  caps = g_strdup_printf ("video/x-raw,format=RGBA,width=640,height=480,"
      "framerate=25/1");
  gpu = check_agreement ("device disparity", NULL, inputs, caps, NULL, n,
      "pitch=" SCENE_PITCH, scenes, TRUE);
  for (guint i = 0; i < n; i++) {
    GstCvStixelsMeta *m = stx_run_meta (gpu, i);
    bound += result_bytes_bound (m);
    lists += (guint64) m->n_stixels * 21;       /* the compact list */
  }
  g_print ("device disparity: transfer-bytes %" G_GUINT64_FORMAT " (stixel "
      "lists %" G_GUINT64_FORMAT ", bound %" G_GUINT64_FORMAT ")\n",
      gpu->transfer_bytes, lists, bound);
  fail_unless (gpu->transfer_bytes >= lists && gpu->transfer_bytes <= bound,
      "transfer-bytes %" G_GUINT64_FORMAT " outside [%" G_GUINT64_FORMAT
      ", %" G_GUINT64_FORMAT "]: was the disparity copied?",
      gpu->transfer_bytes, lists, bound);
  stx_run_free (gpu);
  for (guint i = 0; i < n; i++) {
    gst_buffer_unref (inputs[i]);
    stx_scene_free (scenes[i]);
  }
  g_free (caps);
}

GST_END_TEST;

/* The pose estimated on the device equals the CPU estimate, and the
 * stixels built on it agree, on frames that run each of the tiled kernels
 * AUTO picks on an H200 (cv_stixels_auto_variant): 640x480 (two frames)
 * folded, one column per SM; 1242x375 8 warps; 1280x720 folded, more
 * columns than SMs; 800x900 16 warps in split blocks and 512x1000 in
 * whole blocks (too tall for the folded tables). */
GST_START_TEST (test_estimate_camera)
{
  const struct
  {
    gint w, h;
    guint frames;
    gboolean quick;             /* in the reduced sample (cv_test_quick) */
  } sizes[] = {
    {640, 480, 2, TRUE},
    {1242, 375, 1, FALSE},
    {1280, 720, 1, FALSE},
    {800, 900, 1, FALSE},
    {512, 1000, 1, FALSE},
  };
  const gchar *props = "height=1.2 pitch=-0.01 estimate-camera=true "
      "overlay=true post-messages=true";
  const gboolean quick = cv_test_quick (0, NULL);

  for (guint k = 0; k < G_N_ELEMENTS (sizes); k++) {
    const guint n = sizes[k].frames;
    StxScene *scenes[2];
    GstBuffer *inputs[2];
    StxRun *cpu, *gpu;
    gchar *caps, *what;

    if (quick && !sizes[k].quick)
      continue;
    caps = g_strdup_printf ("video/x-raw,format=RGBA,width=%d,height=%d,"
        "framerate=25/1", sizes[k].w, sizes[k].h);
    what = g_strdup_printf ("estimate-camera %dx%d", sizes[k].w, sizes[k].h);
    for (guint i = 0; i < n; i++) {
      scenes[i] = stx_scene_new (sizes[k].w, sizes[k].h, 8, 1,
          (gfloat) (i * SCENE_SPEED), FALSE);
      inputs[i] = stx_scene_rgba_buffer (scenes[i]);
    }
    cpu = run_chain (NULL, inputs, caps, NULL, n, props, FALSE, FALSE);
    gpu = run_chain (NULL, inputs, caps, NULL, n, props, TRUE, TRUE);
    for (guint i = 0; i < n; i++) {
      gdouble hc, pc, hg, pg;
      gboolean ec, eg;
      StxMetaEval ev;

      fail_unless (cpu->summaries[i] && gpu->summaries[i]);
      gst_structure_get (cpu->summaries[i], "camera-height", G_TYPE_DOUBLE,
          &hc, "camera-pitch", G_TYPE_DOUBLE, &pc, "camera-estimated",
          G_TYPE_BOOLEAN, &ec, NULL);
      gst_structure_get (gpu->summaries[i], "camera-height", G_TYPE_DOUBLE,
          &hg, "camera-pitch", G_TYPE_DOUBLE, &pg, "camera-estimated",
          G_TYPE_BOOLEAN, &eg, NULL);
      g_print ("%dx%d frame %u: pose CPU %.6f m %.7f rad (%s), GPU %.6f m "
          "%.7f rad (%s)\n", sizes[k].w, sizes[k].h, i, hc, pc,
          ec ? "estimated" : "prior", hg, pg, eg ? "estimated" : "prior");
      fail_unless (ec && eg);
      fail_unless (fabs (hc - hg) <= 1e-4 * hc && fabs (pc - pg) <= 1e-5,
          "%dx%d frame %u: poses differ", sizes[k].w, sizes[k].h, i);
      fail_unless (fabs (hg - 1.65) < 0.03 && fabs (pg - 0.02) < 0.002);
      fail_unless (compare_metas (what, stx_run_meta (cpu, i),
              stx_run_meta (gpu, i)) >= MIN_IDENTICAL_COLUMNS);
      stx_evaluate_meta (scenes[i], stx_run_meta (gpu, i), 0.05, &ev);
      stx_print_eval ("estimate-camera on the GPU", &ev);
      fail_unless (ev.class_accuracy >= STX_MIN_CLASS_ACCURACY);
    }
    stx_run_free (cpu);
    stx_run_free (gpu);
    for (guint i = 0; i < n; i++) {
      gst_buffer_unref (inputs[i]);
      stx_scene_free (scenes[i]);
    }
    g_free (caps);
    g_free (what);
  }
}

GST_END_TEST;

/* Frame sizes needing 1, 2 and 4 rows per thread, partial cells, stixel
 * widths and row steps. */
GST_START_TEST (test_sizes)
{
  /* left band: the ground truth's range (default), except where it would
   * cover the frame (the 2048-row frame's road reaches ~345 px) and on one
   * large frame (every column, as the ground truth allows) */
  const struct
  {
    gint w, h, focal, stixel_width, row_step;
    const gchar *band;
    gboolean under_tool;        /* in the reduced sample (cv_test_quick) */
  } sizes[] = {
    {1242, 375, 0, 5, 1, "", TRUE},     /* KITTI: 1 row per thread */
    {640, 480, 0, 5, 1, "", TRUE},      /* 2 rows per thread */
    {320, 2048, 900, 5, 1, "left-band=0", TRUE},        /* 4 rows per thread */
    {512, 1000, 700, 3, 1, "", FALSE},
    {2048, 1024, 0, 8, 8, "", FALSE},
    {2048, 1024, 0, 4, 4, "left-band=0", FALSE},
    {641, 479, 0, 7, 3, "", TRUE},      /* partial cells at the edges */
    {640, 480, 0, 1, 1, "", FALSE},
  };
  const gboolean quick = cv_test_quick (0, NULL);

  for (guint k = 0; k < G_N_ELEMENTS (sizes); k++) {
    CvSceneParams params;
    StxScene *scene;
    GstBuffer *input;
    gchar *caps, *props, *what;
    StxRun *gpu;

    if (quick && !sizes[k].under_tool)
      continue;
    cv_scene_params_init (&params, sizes[k].w, sizes[k].h, 10, 20 + k);
    if (sizes[k].focal)
      params.calib.focal_length = (gfloat) sizes[k].focal;
    params.supersample = 1;
    scene = stx_scene_new_from_params (&params, TRUE);
    input = stx_scene_rgba_buffer (scene);
    caps = g_strdup_printf ("video/x-raw,format=RGBA,width=%d,height=%d,"
        "framerate=25/1", sizes[k].w, sizes[k].h);
    props = g_strdup_printf ("pitch=" SCENE_PITCH " stixel-width=%d "
        "row-step=%d %s", sizes[k].stixel_width, sizes[k].row_step,
        sizes[k].band);
    what = g_strdup_printf ("%dx%d %dx%d", sizes[k].w, sizes[k].h,
        sizes[k].stixel_width, sizes[k].row_step);
    gpu = check_agreement (what, NULL, &input, caps, NULL, 1, props, &scene,
        TRUE);
    stx_run_free (gpu);
    gst_buffer_unref (input);
    stx_scene_free (scene);
    g_free (caps);
    g_free (props);
    g_free (what);
  }
}

GST_END_TEST;

/* A matcher-like meta (searched range 128 px, a confidence map, invalid
 * pixels) on the device: the left band of 130 px is cut out of device
 * disparity and confidence alike; the stixels equal the CPU path's. */
GST_START_TEST (test_left_band_device)
{
  const guint n = 2;
  StxScene *scenes[2];
  GstBuffer *inputs[2];
  const gchar *caps = "video/x-raw,format=RGBA,width=640,height=480,"
      "framerate=25/1";
  StxRun *gpu;

  for (guint i = 0; i < n; i++) {
    scenes[i] = stx_scene_new (640, 480, 8, 2, (gfloat) (i * SCENE_SPEED),
        FALSE);
    inputs[i] = stx_scene_band_buffer (scenes[i], 0, 640, 128);
  }
  gpu = check_agreement ("left band, device confidence", NULL, inputs, caps,
      NULL, n, "pitch=" SCENE_PITCH, scenes, TRUE);
  for (guint i = 0; i < n; i++) {
    StxMetaEval ev;
    stx_evaluate_meta (scenes[i], stx_run_meta (gpu, i), 0.05, &ev);
    fail_unless_equals_int (ev.left_band, 130);
    fail_unless (gpu->summaries[i] != NULL);
  }
  stx_run_free (gpu);
  for (guint i = 0; i < n; i++) {
    gst_buffer_unref (inputs[i]);
    stx_scene_free (scenes[i]);
  }
}

GST_END_TEST;

/* stereotestsrc's own ground truth (host meta) after videocrop, when the
 * host has videocrop (gst-plugins-good; not in the GPU bundle). */
GST_START_TEST (test_stereotestsrc)
{
  const guint n = 2;
  StxScene *scenes[2];
  StxRun *gpu;

  if (!stx_have_element ("videocrop")) {
    g_print ("no videocrop element: stereotestsrc test skipped\n");
    return;
  }
  for (guint i = 0; i < n; i++)
    scenes[i] = stx_scene_new (640, 480, 8, 1, (gfloat) (i * SCENE_SPEED),
        FALSE);
  gpu = check_agreement ("stereotestsrc", "stereotestsrc "
      "attach-disparity=true num-buffers=2 supersample=1 ! "
      "video/x-raw,format=NV12,width=1280,height=480 ! videocrop right=640",
      NULL, NULL, NULL, n, "pitch=" SCENE_PITCH, scenes, FALSE);
  fail_unless (gpu->transfer_bytes >= n * gst_cv_disparity_storage_size (640,
          480, FALSE, NULL, NULL, NULL));
  stx_run_free (gpu);
  for (guint i = 0; i < n; i++)
    stx_scene_free (scenes[i]);
}

GST_END_TEST;

GST_START_TEST (test_missing_disparity_on_gpu)
{
  cv_test_expect_error ("videotestsrc num-buffers=1 ! "
      "video/x-raw,format=NV12,width=64,height=48 ! cudaupload ! "
      "cudastixels ! fakesink", "in CUDA memory");
}

GST_END_TEST;

static Suite *
stixels_gpu_suite (void)
{
  Suite *s = suite_create ("cudastixels-gpu");
  TCase *tc = tcase_create ("general");

  tcase_set_timeout (tc, 300);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_agreement_rgba);
  tcase_add_test (tc, test_agreement_nv12);
  tcase_add_test (tc, test_agreement_other_formats);
  tcase_add_test (tc, test_device_disparity);
  tcase_add_test (tc, test_estimate_camera);
  tcase_add_test (tc, test_sizes);
  tcase_add_test (tc, test_left_band_device);
  tcase_add_test (tc, test_stereotestsrc);
  tcase_add_test (tc, test_missing_disparity_on_gpu);
  return s;
}

int
main (int argc, char **argv)
{
  gst_check_init (&argc, &argv);
  if (!cv_test_have_cuda_elements ())
    return CV_TEST_EXIT_SKIP;
  return gst_check_run_suite (stixels_gpu_suite (), "cudastixels-gpu",
      __FILE__);
}
