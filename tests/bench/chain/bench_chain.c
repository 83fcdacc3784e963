/* bench-chain: the whole chain in real GStreamer pipelines on one GPU.
 *
 * A ring of synthetic side-by-side stereo frames (2 x 1242 x 375 NV12 by
 * default, from the scene generator) is uploaded ONCE into CUDA memory; an
 * appsrc then replays it, so frames arrive on the GPU as from a camera with
 * GPU capture, and the pipeline
 *
 *   appsrc ! queue ! cudasgm ! queue ! cudastixels ! queue ! cudardp !
 *     queue ! cudahough ! queue ! cudaroaddetect ! fakesink sync=false
 *
 * runs without and with overlays, for 1, 2, 4 and 8 pipelines at once
 * sharing one CUDA context.  It reports frames per second (after a
 * warm-up), each element's time per frame (buffer in at its sink pad to out
 * at its src pad, median), the GPU memory in use per stream, and the bytes
 * each element copied between host and device per frame (its
 * `transfer-bytes`): frames never leave the GPU, only result lists do.
 *
 *   bench-chain [--frames N] [--warmup N] [--streams 1,2,4,8]
 *               [--size WxH] [--disparity D] [--elements N]
 *
 * --elements N runs the first N elements only (1: cudasgm alone, as issue 3
 * asks for its frames per second).
 * CUDAVISION_BENCH_CTX_SCHED=spin|yield|blocking makes the context with
 * that scheduling (chain_context_new).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gst/gst.h>
#include <gst/app/gstappsrc.h>
#include <gst/video/video.h>
#include <gst/cuda/gstcudabufferpool.h>
#include <gst/cuda/gstcudacontext.h>
#include <gst/cuda/gstcudaloader.h>
#include <gst/cuda/gstcudamemory.h>
#include <gst/cuda/gstcudautils.h>
#include <gst/cuda/cuda-gst.h>
#include <cuda_runtime_api.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cv_frame.h"
#include "cv_test.h"
#include "scene/cv_scene.h"

/* Frames in the replayed ring: enough that consecutive frames differ (the
 * road detector learns across frames) and the ring stays small on the GPU. */
#define RING_SIZE 16
/* Buffers each queue may hold: keeps the GPU memory per stream bounded. */
#define QUEUE_BUFFERS 3

static const gchar *element_names[] = {
  "cudasgm", "cudastixels", "cudardp", "cudahough", "cudaroaddetect"
};

#define N_ELEMENTS G_N_ELEMENTS (element_names)

typedef struct
{
  GMutex lock;
  GHashTable *entry;            /* pts -> entry time (µs) */
  GArray *times;                /* doubles, ms per frame */
} ElementTiming;

typedef struct
{
  GstElement *pipeline, *src;
  GstElement *elements[N_ELEMENTS];   /* the first bench.n_elements */
  ElementTiming timing[N_ELEMENTS];
  GThread *pusher;
  gint64 t_warm, t_end;         /* µs: warm-up frame out, last frame out */
  guint frames_out;
  gboolean failed;
} Stream;

typedef struct
{
  gint frames, warmup, width, height, disparity;
  guint n_elements;             /* the first n of element_names */
  GstCudaContext *context;
  GstBuffer *ring[RING_SIZE];
  GstCaps *caps;
  guint warmup_frame;
  gchar *calibration;           /* cudasgm properties of the synthetic rig */
} Bench;

static Bench bench;

/* ---- the ring of frames, uploaded once ----------------------------------- */

static void
render_ring (void)
{
  gint vw = bench.width, vh = bench.height;
  GstVideoInfo info;
  GstBufferPool *pool;
  GstStructure *config;
  CvSceneParams scene;
  CvSceneViews views = { 0 };
  guint8 *left = g_malloc ((gsize) vw * vh * 4);
  guint8 *right = g_malloc ((gsize) vw * vh * 4);

  bench.caps = gst_caps_from_string ("video/x-raw(memory:CUDAMemory),"
      "format=NV12,multiview-mode=side-by-side,framerate=0/1");
  gst_caps_set_simple (bench.caps, "width", G_TYPE_INT, 2 * vw, "height",
      G_TYPE_INT, vh, NULL);
  gst_video_info_from_caps (&info, bench.caps);
  pool = gst_cuda_buffer_pool_new (bench.context);
  config = gst_buffer_pool_get_config (pool);
  gst_buffer_pool_config_set_params (config, bench.caps,
      GST_VIDEO_INFO_SIZE (&info), RING_SIZE, RING_SIZE);
  gst_buffer_pool_set_config (pool, config);
  gst_buffer_pool_set_active (pool, TRUE);

  cv_scene_params_init (&scene, vw, vh, 8, 7);
  views.left = (CvImageU8) { left, vw, vh, (gsize) vw * 4 };
  views.right = (CvImageU8) { right, vw, vh, (gsize) vw * 4 };
  for (gint i = 0; i < RING_SIZE; i++) {
    GstVideoFrame vf;
    CvFrame frame, view;
    CvError err = { 0 };

    scene.travel = 0.5f * i;
    if (cv_scene_render (&scene, &views, &err) != CV_OK)
      g_error ("scene: %s", err.message);
    gst_buffer_pool_acquire_buffer (pool, &bench.ring[i], NULL);
    gst_video_frame_map (&vf, &info, bench.ring[i], GST_MAP_WRITE);
    memset (&frame, 0, sizeof (frame));
    frame.format = CV_PIXEL_NV12;
    frame.width = 2 * vw;
    frame.height = vh;
    for (gint p = 0; p < 2; p++) {
      frame.planes[p] = GST_VIDEO_FRAME_PLANE_DATA (&vf, p);
      frame.strides[p] = GST_VIDEO_FRAME_PLANE_STRIDE (&vf, p);
    }
    cv_frame_crop (&frame, 0, 0, vw, vh, &view, &err);
    cv_frame_from_rgba_cpu (&views.left, &view, &err);
    cv_frame_crop (&frame, vw, 0, vw, vh, &view, &err);
    cv_frame_from_rgba_cpu (&views.right, &view, &err);
    gst_video_frame_unmap (&vf);
    /* upload now (a CUDA map of host-written memory uploads it), so the
     * timed run never copies a frame from the host */
    gst_video_frame_map (&vf, &info, bench.ring[i],
        GST_MAP_READ | GST_MAP_CUDA);
    gst_video_frame_unmap (&vf);
  }
  /* the ring keeps its buffers; the pool may go */
  gst_object_unref (pool);
  g_free (left);
  g_free (right);
}

/* ---- per-element timing: sink pad in -> src pad out ----------------------- */

static GstPadProbeReturn
sink_probe (GstPad * pad, GstPadProbeInfo * info, gpointer user_data)
{
  ElementTiming *t = user_data;
  GstBuffer *buf = GST_PAD_PROBE_INFO_BUFFER (info);

  g_mutex_lock (&t->lock);
  g_hash_table_insert (t->entry, GUINT_TO_POINTER (GST_BUFFER_PTS (buf) / 1000
          + 1), GINT_TO_POINTER ((gint) (g_get_monotonic_time () & G_MAXINT)));
  g_mutex_unlock (&t->lock);
  return GST_PAD_PROBE_OK;
}

static GstPadProbeReturn
src_probe (GstPad * pad, GstPadProbeInfo * info, gpointer user_data)
{
  ElementTiming *t = user_data;
  GstBuffer *buf = GST_PAD_PROBE_INFO_BUFFER (info);
  gpointer key = GUINT_TO_POINTER (GST_BUFFER_PTS (buf) / 1000 + 1);
  gint now = (gint) (g_get_monotonic_time () & G_MAXINT);
  gpointer start;

  g_mutex_lock (&t->lock);
  if (g_hash_table_lookup_extended (t->entry, key, NULL, &start)) {
    gdouble ms = (now - GPOINTER_TO_INT (start)) / 1000.0;
    if (GST_BUFFER_PTS (buf) >= bench.warmup_frame * GST_MSECOND)
      g_array_append_val (t->times, ms);
    g_hash_table_remove (t->entry, key);
  }
  g_mutex_unlock (&t->lock);
  return GST_PAD_PROBE_OK;
}

static void
sink_handoff (GstElement * sink, GstBuffer * buf, GstPad * pad, Stream * s)
{
  s->frames_out++;
  if (s->frames_out == bench.warmup_frame)
    s->t_warm = g_get_monotonic_time ();
  s->t_end = g_get_monotonic_time ();
}

/* ---- one pipeline ---------------------------------------------------------- */

static gpointer
push_frames (gpointer data)
{
  Stream *s = data;

  for (gint i = 0; i < bench.frames; i++) {
    GstBuffer *buf = gst_buffer_copy (bench.ring[i % RING_SIZE]);
    /* 1 ms per frame: timestamps only order the stream (sync=false) */
    GST_BUFFER_PTS (buf) = (GstClockTime) i * GST_MSECOND;
    GST_BUFFER_DURATION (buf) = GST_MSECOND;
    if (gst_app_src_push_buffer (GST_APP_SRC (s->src), buf) != GST_FLOW_OK)
      break;
  }
  gst_app_src_end_of_stream (GST_APP_SRC (s->src));
  return NULL;
}

/* The pipelines' CUDA context: GStreamer's (gst_cuda_context_new, the
 * driver's default scheduling: with fewer contexts than cores, a thread
 * waiting on the GPU spins), or with CUDAVISION_BENCH_CTX_SCHED=spin|yield|
 * blocking one made with that scheduling, to measure what the element
 * threads' waits cost the host (docs/performance-history.md, the chain, session
 * 60).  The context made here lives as long as the process. */
static GstCudaContext *
chain_context_new (void)
{
  const gchar *sched = g_getenv ("CUDAVISION_BENCH_CTX_SCHED");
  CUdevice dev;
  CUcontext ctx, popped;
  guint flags;

  if (sched == NULL)
    return gst_cuda_context_new (0);
  if (!strcmp (sched, "spin"))
    flags = CU_CTX_SCHED_SPIN;
  else if (!strcmp (sched, "yield"))
    flags = CU_CTX_SCHED_YIELD;
  else if (!strcmp (sched, "blocking"))
    flags = CU_CTX_SCHED_BLOCKING_SYNC;
  else {
    g_printerr ("bench-chain: CUDAVISION_BENCH_CTX_SCHED=%s is none of "
        "spin, yield, blocking\n", sched);
    return NULL;
  }
  if (CuInit (0) != CUDA_SUCCESS || CuDeviceGet (&dev, 0) != CUDA_SUCCESS
      || CuCtxCreate (&ctx, flags, dev) != CUDA_SUCCESS)
    return NULL;
  CuCtxPopCurrent (&popped);
  printf ("CUDA context scheduling: %s\n", sched);
  return gst_cuda_context_new_wrapped (ctx, dev);
}

static gboolean
stream_setup (Stream * s, gint index, gboolean overlay)
{
  GError *error = NULL;
  GString *desc = g_string_new (NULL);
  GstElement *sink;

  g_string_printf (desc, "appsrc name=src format=time block=true "
      "max-buffers=%d ! queue max-size-buffers=%d ! ", QUEUE_BUFFERS,
      QUEUE_BUFFERS);
  for (guint e = 0; e < bench.n_elements; e++) {
    if (e == 0)
      g_string_append_printf (desc, "cudasgm name=e0 paths=8 "
          "max-disparity=%d %s", bench.disparity, bench.calibration);
    else
      g_string_append_printf (desc, "%s name=e%u overlay=%d%s",
          element_names[e], e, overlay, e == 1 || e == 4 ?
          " estimate-camera=true" : "");
    if (e + 1 < bench.n_elements)
      g_string_append_printf (desc, " ! queue max-size-buffers=%d ! ",
          QUEUE_BUFFERS);
  }
  g_string_append (desc, " ! fakesink name=sink sync=false "
      "signal-handoffs=true");

  memset (s, 0, sizeof (*s));
  s->pipeline = gst_parse_launch (desc->str, &error);
  g_string_free (desc, TRUE);
  if (s->pipeline == NULL) {
    g_printerr ("pipeline: %s\n", error->message);
    return FALSE;
  }
  gst_element_set_context (s->pipeline,
      gst_context_new_cuda_context (bench.context));
  s->src = gst_bin_get_by_name (GST_BIN (s->pipeline), "src");
  gst_app_src_set_caps (GST_APP_SRC (s->src), bench.caps);
  for (guint e = 0; e < bench.n_elements; e++) {
    gchar name[8];
    GstPad *pad;

    g_snprintf (name, sizeof (name), "e%u", e);
    s->elements[e] = gst_bin_get_by_name (GST_BIN (s->pipeline), name);
    g_mutex_init (&s->timing[e].lock);
    s->timing[e].entry = g_hash_table_new (NULL, NULL);
    s->timing[e].times = g_array_new (FALSE, FALSE, sizeof (gdouble));
    pad = gst_element_get_static_pad (s->elements[e], "sink");
    gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, sink_probe,
        &s->timing[e], NULL);
    gst_object_unref (pad);
    pad = gst_element_get_static_pad (s->elements[e], "src");
    gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, src_probe,
        &s->timing[e], NULL);
    gst_object_unref (pad);
  }
  sink = gst_bin_get_by_name (GST_BIN (s->pipeline), "sink");
  g_signal_connect (sink, "handoff", G_CALLBACK (sink_handoff), s);
  gst_object_unref (sink);
  (void) index;
  return TRUE;
}

static void
stream_free (Stream * s)
{
  gst_element_set_state (s->pipeline, GST_STATE_NULL);
  for (guint e = 0; e < bench.n_elements; e++) {
    gst_object_unref (s->elements[e]);
    g_hash_table_unref (s->timing[e].entry);
    g_array_unref (s->timing[e].times);
    g_mutex_clear (&s->timing[e].lock);
  }
  gst_object_unref (s->src);
  gst_object_unref (s->pipeline);
}

static gsize
gpu_used_bytes (void)
{
  size_t free_b = 0, total_b = 0;

  if (!gst_cuda_context_push (bench.context))
    return 0;
  cudaMemGetInfo (&free_b, &total_b);
  gst_cuda_context_pop (NULL);
  return total_b - free_b;
}

static gdouble
median_of (GArray * a)
{
  gdouble *copy = g_memdup2 (a->data, a->len * sizeof (gdouble));
  gdouble m = cv_test_median (copy, a->len);
  g_free (copy);
  return m;
}

/* Runs @n_streams pipelines at once; prints one result row (and, for one
 * stream, the per-element table).  Returns FALSE on failure. */
static gboolean
run (gint n_streams, gboolean overlay)
{
  Stream *streams = g_new0 (Stream, n_streams);
  gsize mem_before = gpu_used_bytes (), mem_peak = 0;
  gint64 t_first = G_MAXINT64, t_last = 0;
  gboolean ok = TRUE;
  guint64 transfer[N_ELEMENTS] = { 0 }, transfer_sum = 0;
  gdouble fps;

  for (gint i = 0; i < n_streams; i++)
    if (!stream_setup (&streams[i], i, overlay))
      return FALSE;
  for (gint i = 0; i < n_streams; i++)
    gst_element_set_state (streams[i].pipeline, GST_STATE_PLAYING);
  for (gint i = 0; i < n_streams; i++)
    streams[i].pusher = g_thread_new ("push", push_frames, &streams[i]);

  for (gint i = 0; i < n_streams; i++) {
    GstBus *bus = gst_element_get_bus (streams[i].pipeline);
    GstMessage *msg = gst_bus_timed_pop_filtered (bus, 120 * GST_SECOND,
        GST_MESSAGE_EOS | GST_MESSAGE_ERROR);

    if (i == 0)
      mem_peak = gpu_used_bytes ();
    if (msg == NULL || GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
      GError *err = NULL;
      gchar *dbg = NULL;
      if (msg)
        gst_message_parse_error (msg, &err, &dbg);
      g_printerr ("stream %d: %s (%s)\n", i, err ? err->message : "timeout",
          dbg ? dbg : "");
      g_clear_error (&err);
      g_free (dbg);
      streams[i].failed = TRUE;
      ok = FALSE;
      /* unblocks its appsrc push thread */
      gst_element_set_state (streams[i].pipeline, GST_STATE_NULL);
    }
    if (msg)
      gst_message_unref (msg);
    gst_object_unref (bus);
  }
  for (gint i = 0; i < n_streams; i++) {
    g_thread_join (streams[i].pusher);
    t_first = MIN (t_first, streams[i].t_warm);
    t_last = MAX (t_last, streams[i].t_end);
    for (guint e = 0; e < bench.n_elements; e++) {
      guint64 b = 0;
      g_object_get (streams[i].elements[e], "transfer-bytes", &b, NULL);
      transfer[e] += b;
    }
  }

  for (guint e = 0; e < bench.n_elements; e++)
    transfer_sum += transfer[e];
  fps = (gdouble) n_streams * (bench.frames - bench.warmup_frame) /
      ((t_last - t_first) / 1e6);
  printf ("%7d  %-7s  %10.1f  %10.1f  %12.1f  %10.1f\n", n_streams,
      overlay ? "yes" : "no", fps, fps / n_streams,
      (gdouble) (mem_peak - mem_before) / n_streams / (1 << 20),
      (gdouble) transfer_sum / n_streams / bench.frames);

  if (n_streams == 1) {
    printf ("           element          median ms   transfer B/frame\n");
    for (guint e = 0; e < bench.n_elements; e++)
      printf ("           %-15s  %9.4f   %10.1f\n", element_names[e],
          median_of (streams[0].timing[e].times),
          (gdouble) transfer[e] / bench.frames);
  }
  for (gint i = 0; i < n_streams; i++)
    stream_free (&streams[i]);
  g_free (streams);
  return ok;
}

int
main (int argc, char **argv)
{
  gchar *streams_arg = g_strdup ("1,2,4,8"), *size_arg = g_strdup ("1242x375");
  gchar **counts;
  gboolean ok = TRUE;
  gint n_elements = N_ELEMENTS;
  GOptionEntry entries[] = {
    {"frames", 0, 0, G_OPTION_ARG_INT, &bench.frames, "Frames per stream", "N"},
    {"warmup", 0, 0, G_OPTION_ARG_INT, &bench.warmup, "Frames not timed", "N"},
    {"streams", 0, 0, G_OPTION_ARG_STRING, &streams_arg,
        "Pipelines at once, comma-separated", "LIST"},
    {"size", 0, 0, G_OPTION_ARG_STRING, &size_arg, "Size of one view", "WxH"},
    {"disparity", 0, 0, G_OPTION_ARG_INT, &bench.disparity,
        "cudasgm max-disparity", "D"},
    {"elements", 0, 0, G_OPTION_ARG_INT, &n_elements,
        "The first N elements of the chain (1: cudasgm alone)", "N"},
    {NULL}
  };
  GOptionContext *octx = g_option_context_new ("- the whole chain on one GPU");

  bench.frames = 3000;
  bench.warmup = 300;
  bench.disparity = 128;
  gst_init (&argc, &argv);
  g_option_context_add_main_entries (octx, entries, NULL);
  if (!g_option_context_parse (octx, &argc, &argv, NULL))
    return 2;
  g_option_context_free (octx);
  if (sscanf (size_arg, "%dx%d", &bench.width, &bench.height) != 2)
    return 2;
  if (n_elements < 1 || n_elements > (gint) N_ELEMENTS)
    return 2;
  bench.n_elements = (guint) n_elements;
  bench.warmup_frame = bench.warmup;

  if (!gst_cuda_load_library () || !cv_test_have_gpu ()) {
    g_print ("bench-chain: no CUDA device: skipping\n");
    return CV_TEST_EXIT_SKIP;
  }
  gst_cuda_memory_init_once ();
  for (guint e = 0; e < bench.n_elements; e++) {
    GstElementFactory *f = gst_element_factory_find (element_names[e]);
    if (f == NULL) {
      g_printerr ("bench-chain: element %s missing\n", element_names[e]);
      return 1;
    }
    gst_object_unref (f);
  }
  bench.context = chain_context_new ();
  if (bench.context == NULL) {
    g_printerr ("bench-chain: could not make the CUDA context\n");
    return 1;
  }
  render_ring ();
  {
    /* the scene generator's rig (cv_scene_params_init) */
    CvSceneParams rig;
    cv_scene_params_init (&rig, bench.width, bench.height, 0, 1);
    bench.calibration = g_strdup_printf ("focal-length=%g principal-x=%g "
        "principal-y=%g baseline=%g", rig.calib.focal_length,
        rig.calib.principal_x, rig.calib.principal_y, rig.calib.baseline);
  }

  printf ("bench-chain: 2 x %dx%d NV12 frames in CUDA memory (ring of %d, "
      "uploaded once), cudasgm 8 paths D=%d, %d frames per stream after %d "
      "warm-up; elements:", bench.width, bench.height, RING_SIZE,
      bench.disparity, bench.frames - bench.warmup, bench.warmup);
  for (guint e = 0; e < bench.n_elements; e++)
    printf (" %s", element_names[e]);
  printf ("\n");
  printf ("streams  overlay  fps (all)   fps/stream  GPU MiB/stream  host<->dev B/frame\n");
  counts = g_strsplit (streams_arg, ",", -1);
  /* cudasgm alone has no overlay */
  for (gint overlay = 0; overlay < (bench.n_elements > 1 ? 2 : 1); overlay++)
    for (gchar ** c = counts; *c; c++)
      ok &= run (atoi (*c), overlay);
  g_strfreev (counts);

  for (gint i = 0; i < RING_SIZE; i++)
    gst_buffer_unref (bench.ring[i]);
  gst_caps_unref (bench.caps);
  gst_object_unref (bench.context);
  g_free (streams_arg);
  g_free (size_arg);
  g_free (bench.calibration);
  return ok ? 0 : 1;
}
