/* Soak: many frames through the whole chain of elements this build has,
 * with overlays and post-messages on, checking that resources stay flat:
 * resident memory (VmRSS), open file descriptors, the device memory the
 * plugin's core holds and (--gpu) the GPU's free memory, each sampled after
 * a warm-up and again at the end of the stream.
 *
 *   reliability-soak [--frames N] [--gpu] [--width W] [--height H]
 *                    [--warmup N] [--rss-margin-kib K] [--gpu-margin-mib M]
 *                    [--selftest-leak BYTES]
 *
 * System memory (default): stereotestsrc ! queue ! <elements> ! fakesink,
 * the CPU backend.  --gpu: the same through cudaupload, the frames staying
 * in CUDA memory to the sink.  The chain starts with the stereo matcher
 * when it is built (it gets both views); else the source's ground-truth
 * disparity of the left view feeds the disparity consumers.
 *
 * --selftest-leak makes the soak itself leak BYTES per frame and one file
 * descriptor per 1000 frames, to show that it notices (the
 * reliability-soak-selftest test expects it to fail).
 *
 * Prints a trend line every tenth of the run and one summary line
 * ("SOAK ... PASS" or "... FAIL: reasons"); exits 0 on PASS, 1 on FAIL, 77
 * for --gpu without a GPU.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gst/gst.h>
#include <string.h>
#include <unistd.h>

#ifdef CV_HAVE_CUDA
#include <cuda_runtime_api.h>
#endif

#include "cv_test.h"
#include "cvtestutil.h"
#include "rel_elements.h"

/* Defaults for a run by hand (CI passes --frames 100000, see
 * tests/reliability/meson.build and docs/reliability.md). */
#define DEFAULT_FRAMES 20000
#define DEFAULT_WIDTH 64
#define DEFAULT_HEIGHT 48
/* Frames before the baseline: pools, plans and caches are allocated by
 * then, and the allocator has reached its working set. */
#define DEFAULT_WARMUP 1000
/* Resident memory may move by this much (allocator noise). */
#define DEFAULT_RSS_MARGIN_KIB 1024
#define DEFAULT_GPU_MARGIN_MIB 8
#define TREND_SAMPLES 10
/* Frames under compute-sanitizer (the tools are what is checked then). */
#define SANITIZER_FRAMES 600

typedef struct
{
  guint64 rss_kib;
  gint fds;
  gint64 device_bytes;
  gint64 gpu_free;              /* bytes; -1 without --gpu */
} Sample;

/* --selftest-leak: a file descriptor leaked every this many frames */
#define SELFTEST_FD_PERIOD 1000

typedef struct
{
  guint frames, warmup;
  gboolean gpu;
  gint leak_bytes;
  gint count;                   /* atomic */
  Sample warm;
  gboolean have_warm;
  GMutex lock;
} Soak;

static gint64
gpu_free_bytes (gboolean gpu)
{
#ifdef CV_HAVE_CUDA
  size_t free_bytes = 0, total = 0;

  if (gpu && cudaMemGetInfo (&free_bytes, &total) == cudaSuccess)
    return (gint64) free_bytes;
#endif
  return -1;
}

static void
take_sample (Soak * soak, Sample * s)
{
  s->rss_kib = rel_rss_kib ();
  s->fds = rel_open_fds ();
  s->device_bytes = rel_plugin_device_bytes ();
  s->gpu_free = gpu_free_bytes (soak->gpu);
}

static void
print_sample (const gchar * label, guint frame, const Sample * s)
{
  g_print ("%-8s frame %8u: VmRSS %7" G_GUINT64_FORMAT " KiB, fds %3d, "
      "core device bytes %10" G_GINT64_FORMAT ", GPU free %8.1f MiB\n", label,
      frame, s->rss_kib, s->fds, s->device_bytes,
      s->gpu_free >= 0 ? s->gpu_free / 1048576.0 : -1.0);
}

static GstPadProbeReturn
count_probe (GstPad * pad, GstPadProbeInfo * info, gpointer user_data)
{
  Soak *soak = user_data;
  guint n = (guint) g_atomic_int_add (&soak->count, 1) + 1;
  guint step = MAX (1, soak->frames / TREND_SAMPLES);

  if (soak->leak_bytes > 0) {
    /* deliberately lost, touched so that it is resident */
    memset (g_malloc (soak->leak_bytes), 0x5a, soak->leak_bytes);
    if (n % SELFTEST_FD_PERIOD == 0)
      (void) dup (0);
  }

  if (n == soak->warmup) {
    g_mutex_lock (&soak->lock);
    take_sample (soak, &soak->warm);
    soak->have_warm = TRUE;
    g_mutex_unlock (&soak->lock);
    print_sample ("warm", n, &soak->warm);
  } else if (n % step == 0) {
    Sample s;
    take_sample (soak, &s);
    print_sample ("trend", n, &s);
  }
  return GST_PAD_PROBE_OK;
}

int
main (int argc, char **argv)
{
  gint frames = DEFAULT_FRAMES, width = DEFAULT_WIDTH, height = DEFAULT_HEIGHT;
  gint warmup = DEFAULT_WARMUP, rss_margin = DEFAULT_RSS_MARGIN_KIB;
  gint gpu_margin = DEFAULT_GPU_MARGIN_MIB;
  gboolean gpu = FALSE;
  gint leak_bytes = 0;
  GOptionEntry entries[] = {
    {"selftest-leak", 0, 0, G_OPTION_ARG_INT, &leak_bytes, "Leak this much "
          "per frame (and a file descriptor per 1000 frames) on purpose",
        "BYTES"},
    {"frames", 0, 0, G_OPTION_ARG_INT, &frames, "Frames to run", "N"},
    {"gpu", 0, 0, G_OPTION_ARG_NONE, &gpu, "CUDA memory (GPU host)", NULL},
    {"width", 0, 0, G_OPTION_ARG_INT, &width, "View width", "W"},
    {"height", 0, 0, G_OPTION_ARG_INT, &height, "View height", "H"},
    {"warmup", 0, 0, G_OPTION_ARG_INT, &warmup, "Frames before the "
          "baseline", "N"},
    {"rss-margin-kib", 0, 0, G_OPTION_ARG_INT, &rss_margin, "Allowed VmRSS "
          "growth", "KIB"},
    {"gpu-margin-mib", 0, 0, G_OPTION_ARG_INT, &gpu_margin, "Allowed drop of "
          "the GPU's free memory", "MIB"},
    {NULL}
  };
  GOptionContext *ctx = g_option_context_new ("- soak the element chain");
  GError *error = NULL;
  Soak soak = { 0 };
  GstElement *pipeline, *sink;
  GstPad *pad;
  GstBus *bus;
  GstMessage *msg;
  Sample end, after_null;
  gchar *desc;
  GString *failures = g_string_new (NULL);
  gint64 t0, t_end;
  const gchar *env_frames = g_getenv ("REL_SOAK_FRAMES");

  g_option_context_add_main_entries (ctx, entries, NULL);
  g_option_context_add_group (ctx, gst_init_get_option_group ());
  if (!g_option_context_parse (ctx, &argc, &argv, &error)) {
    g_printerr ("%s\n", error->message);
    return 2;
  }
  g_option_context_free (ctx);
  if (env_frames)
    frames = (gint) g_ascii_strtoll (env_frames, NULL, 10);
  if (cv_test_under_cuda_tool () && frames > SANITIZER_FRAMES) {
    /* compute-sanitizer: the GPU work is 10-100 times slower */
    g_print ("under a CUDA tool: %d frames instead of %d\n",
        SANITIZER_FRAMES, frames);
    frames = SANITIZER_FRAMES;
    warmup = MIN (warmup, SANITIZER_FRAMES / 3);
  }
  if (frames <= warmup) {
    g_printerr ("--frames must exceed --warmup (%d)\n", warmup);
    return 2;
  }
  if (gpu && !cv_test_have_cuda_elements ())
    return CV_TEST_EXIT_SKIP;

  soak.frames = (guint) frames;
  soak.warmup = (guint) warmup;
  soak.gpu = gpu;
  soak.leak_bytes = leak_bytes;
  g_mutex_init (&soak.lock);
  /* the runtime's own context exists before the baseline */
  gpu_free_bytes (gpu);

  {
    guint n_instances;
    /* overlays drawn by every element that draws, summaries posted (the
     * bus is drained below, as an application that ignores them would) */
    desc = rel_chain_description (width, height, frames, gpu, 1,
        "post-messages=true", TRUE, &n_instances);
  }
  g_print ("soak: %d frames of %dx%d, %s\n%s\n", frames, width, height,
      gpu ? "CUDA memory" : "system memory", desc);
  pipeline = gst_parse_launch (desc, &error);
  if (pipeline == NULL || error) {
    g_printerr ("'%s': %s\n", desc, error ? error->message : "?");
    return 1;
  }
  sink = gst_bin_get_by_name (GST_BIN (pipeline), "sink");
  pad = gst_element_get_static_pad (sink, "sink");
  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, count_probe, &soak,
      NULL);
  gst_object_unref (pad);
  gst_object_unref (sink);

  bus = gst_element_get_bus (pipeline);
  t0 = g_get_monotonic_time ();
  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  /* element messages (post-messages) are popped and dropped here, as an
   * application that ignores them would */
  msg = gst_bus_timed_pop_filtered (bus, GST_CLOCK_TIME_NONE,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  t_end = g_get_monotonic_time ();
  take_sample (&soak, &end);
  if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
    gchar *debug = NULL;
    gst_message_parse_error (msg, &error, &debug);
    g_string_append_printf (failures, " error from %s: %s (%s);",
        GST_MESSAGE_SRC_NAME (msg), error->message, debug);
    g_clear_error (&error);
    g_free (debug);
  }
  gst_message_unref (msg);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  take_sample (&soak, &after_null);
  gst_object_unref (bus);
  gst_object_unref (pipeline);

  print_sample ("end", (guint) g_atomic_int_get (&soak.count), &end);
  print_sample ("NULL", (guint) g_atomic_int_get (&soak.count), &after_null);

  if ((guint) g_atomic_int_get (&soak.count) != soak.frames)
    g_string_append_printf (failures, " %d of %u frames;",
        g_atomic_int_get (&soak.count), soak.frames);
  if (!soak.have_warm) {
    g_string_append (failures, " no baseline;");
  } else {
    gint64 rss_growth = (gint64) end.rss_kib - (gint64) soak.warm.rss_kib;
    /* under compute-sanitizer the tool's own host and device bookkeeping
     * (and other processes it runs beside) move both: reported only */
    const gboolean own_memory = !cv_test_under_cuda_tool ();
    if (own_memory && rss_growth > rss_margin)
      g_string_append_printf (failures, " VmRSS grew %" G_GINT64_FORMAT
          " KiB (margin %d);", rss_growth, rss_margin);
    if (end.fds != soak.warm.fds)
      g_string_append_printf (failures, " open fds %d -> %d;", soak.warm.fds,
          end.fds);
    if (end.device_bytes != soak.warm.device_bytes)
      g_string_append_printf (failures, " core device bytes %" G_GINT64_FORMAT
          " -> %" G_GINT64_FORMAT ";", soak.warm.device_bytes,
          end.device_bytes);
    if (own_memory && gpu && soak.warm.gpu_free - end.gpu_free >
        (gint64) gpu_margin * 1048576)
      g_string_append_printf (failures, " GPU free memory dropped %.1f MiB "
          "(margin %d);", (soak.warm.gpu_free - end.gpu_free) / 1048576.0,
          gpu_margin);
  }
  if (after_null.device_bytes > 0)
    g_string_append_printf (failures, " %" G_GINT64_FORMAT " core device "
        "bytes still held after NULL;", after_null.device_bytes);

  {
    gchar *gpu_free = gpu ? g_strdup_printf ("%.1f->%.1f",
        soak.warm.gpu_free / 1048576.0, end.gpu_free / 1048576.0) :
        g_strdup ("n/a");

    g_print ("SOAK %s frames=%d size=%dx%d time=%.1fs fps=%.0f "
        "rss_kib=%" G_GUINT64_FORMAT "->%" G_GUINT64_FORMAT " fds=%d->%d "
        "core_device_bytes=%" G_GINT64_FORMAT "->%" G_GINT64_FORMAT
        " gpu_free_mib=%s %s%s\n", gpu ? "gpu" : "cpu",
        g_atomic_int_get (&soak.count), width, height, (t_end - t0) / 1e6,
        g_atomic_int_get (&soak.count) / ((t_end - t0) / 1e6),
        soak.warm.rss_kib, end.rss_kib, soak.warm.fds, end.fds,
        soak.warm.device_bytes, end.device_bytes, gpu_free,
        failures->len ? "FAIL:" : "PASS", failures->str);
    g_free (gpu_free);
  }
  g_free (desc);
  return failures->len ? 1 : 0;
}
