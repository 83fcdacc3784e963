/* CUDA faults inside the elements (GPU host; exits 77 without a GPU or
 * cudaupload):
 *
 * - device-memory exhaustion: CUDAVISION_DEVICE_ALLOC_LIMIT makes the core's
 *   device allocations fail once the process-wide total would pass it.  It
 *   is read once per process, so each element runs in a child process with
 *   a limit between what a small stream and a large stream hold (measured
 *   here first, in this process, without a limit).  The child asserts that
 *   the large stream fails with GST_ELEMENT_ERROR carrying the CUDA error
 *   text, that nothing stays allocated, that the same element set to NULL
 *   and back to PLAYING at the small size works and gives the frames a
 *   fresh element gives, and the same for a stream that grows past the
 *   limit while PLAYING.
 *
 * - kernel launch failures: no element lets a size through that the launch
 *   configuration cannot take (they check sizes, and the vote layout caps
 *   grid dimensions), so the child runs with the CUDA driver told to load
 *   no kernel image: CUDA_FORCE_PTX_JIT=1 (ignore the machine code, JIT the
 *   PTX) with CUDA_DISABLE_PTX_JIT=1 (no JIT).  Every launch then fails; the
 *   element must post the CUDA error, survive NULL -> PLAYING and fail the
 *   same way again, and system memory must keep working in that process.
 *   When the driver loads the kernels anyway, the case reports that and
 *   counts as skipped.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gst/check/gstcheck.h>
#include <string.h>

#include "cv_cuda.h"
#include "cv_test.h"
#include "cvtestutil.h"
#include "rel_cases.h"

#define SMALL_W 64
#define SMALL_H 48
#define LARGE_W 1280
#define LARGE_H 720
#define N_FRAMES 3

/* The child's mode and element (argv: --child-alloc|--child-launch NAME). */
static const gchar *child_mode;
static const gchar *child_factory;
static gboolean child_not_provoked;

static gchar *
props_of (const RelElement * e)
{
  GObjectClass *klass;
  GstElement *el = gst_element_factory_make (e->factory, NULL);
  gboolean overlay;

  klass = G_OBJECT_GET_CLASS (el);
  overlay = g_object_class_find_property (klass, "overlay") != NULL;
  gst_object_unref (el);
  return g_strdup (overlay ? "overlay=true" : "");
}

/* ---- parent ------------------------------------------------------------ */

static void
read_device_bytes (GstElement * pipeline, gpointer user_data)
{
  *(gint64 *) user_data = rel_plugin_device_bytes ();
}

/* Device bytes the element holds after a @w x @h stream (plans only grow,
 * so this is its peak). */
static gint64
measure (const RelElement * e, gint w, gint h)
{
  gchar *props = props_of (e);
  gchar *desc = rel_pipeline (e, e->cuda_formats[0], w, h, N_FRAMES, TRUE,
      props);
  gint64 bytes = -1;
  RelRun run;

  rel_run (desc, 120, REL_RUN_DEFAULT, read_device_bytes, &bytes, &run);
  rel_assert_eos (&run, desc);
  rel_run_clear (&run);
  fail_unless (bytes >= 0, "cv_device_bytes_in_use not found in the plugin");
  g_free (desc);
  g_free (props);
  return bytes;
}

/* Runs this program as a child with @mode for @e and @env_extra (NULL-
 * terminated KEY=VALUE list); returns its exit status. */
static gint
run_child (const gchar * mode, const RelElement * e,
    const gchar * const *env_extra)
{
  gchar *self = g_file_read_link ("/proc/self/exe", NULL);
  gchar *argv[] = { self, (gchar *) mode, (gchar *) e->factory, NULL };
  gchar **envp = g_get_environ ();
  gchar *out = NULL, *err = NULL;
  gint status = -1;
  GError *error = NULL;

  for (guint i = 0; env_extra[i] != NULL; i++) {
    gchar **kv = g_strsplit (env_extra[i], "=", 2);
    envp = g_environ_setenv (envp, kv[0], kv[1], TRUE);
    g_strfreev (kv);
  }
  fail_unless (g_spawn_sync (NULL, argv, envp, G_SPAWN_DEFAULT, NULL, NULL,
          &out, &err, &status, &error), "spawn: %s",
      error ? error->message : "?");
  g_print ("---- child %s %s ----\n%s%s---- end of child (status %d) ----\n",
      mode, e->factory, out, err, status);
  g_free (out);
  g_free (err);
  g_strfreev (envp);
  g_free (self);
  return WIFEXITED (status) ? WEXITSTATUS (status) : 128 + WTERMSIG (status);
}

GST_START_TEST (test_device_memory_exhaustion)
{
  guint n;
  const RelElement *const *all = rel_elements (&n);

  for (guint i = 0; i < n; i++) {
    const RelElement *e = all[i];
    gint64 small, large, limit;
    gchar *env;

    if (e->cuda_formats[0] == NULL)
      continue;
    small = measure (e, SMALL_W, SMALL_H);
    large = measure (e, LARGE_W, LARGE_H);
    g_print ("%s: a %dx%d stream holds %" G_GINT64_FORMAT " device bytes, "
        "%dx%d %" G_GINT64_FORMAT "\n", e->factory, SMALL_W, SMALL_H, small,
        LARGE_W, LARGE_H, large);
    fail_unless (large > small, "%s: the large stream holds no more device "
        "memory than the small one", e->factory);
    fail_unless_equals_int64 (rel_plugin_device_bytes (), 0);
    /* between the two */
    limit = small + (large - small) / 2;
    env = g_strdup_printf ("%s=%" G_GINT64_FORMAT, CV_ENV_DEVICE_ALLOC_LIMIT,
        limit);
    {
      const gchar *extra[] = { env, NULL };
      fail_unless_equals_int (run_child ("--child-alloc", e, extra), 0);
    }
    g_free (env);
  }
}

GST_END_TEST;

GST_START_TEST (test_kernel_launch_failure)
{
  guint n;
  const RelElement *const *all = rel_elements (&n);
  const gchar *extra[] = { "CUDA_FORCE_PTX_JIT=1", "CUDA_DISABLE_PTX_JIT=1",
    "CUDA_MODULE_LOADING=LAZY", NULL
  };

  if (cv_test_under_cuda_tool ()) {
    /* every launch fails on purpose: the sanitizer would count them */
    g_print ("launch failures are not provoked under a CUDA tool "
        "(compute-sanitizer): run this test without it\n");
    return;
  }
  for (guint i = 0; i < n; i++) {
    gint status;

    if (all[i]->cuda_formats[0] == NULL)
      continue;
    status = run_child ("--child-launch", all[i], extra);
    if (status == CV_TEST_EXIT_SKIP)
      g_print ("%s: no launch failure provoked (the driver loaded the "
          "kernels anyway, or no GPU in the child: see its log)\n",
          all[i]->factory);
    else
      fail_unless_equals_int (status, 0);
  }
}

GST_END_TEST;

/* ---- children ------------------------------------------------------------ */

static void
assert_cuda_error (const RelRun * run, const gchar * what)
{
  fail_unless (run->error != NULL, "%s: no error", what);
  fail_unless_equals_string (run->error_source, "el");
  g_print ("%s: %s (%s)\n", what, run->error, run->debug);
  /* gst_cv_filter_core_error: "<stage>: <call> failed: <CUDA text>",
   * debug "CUDA error <code>" */
  fail_unless (strstr (run->error, "failed") != NULL
      && strstr (run->debug, "CUDA error") != NULL, "%s: '%s' (%s) is not a "
      "CUDA error report", what, run->error, run->debug);
}

GST_START_TEST (test_alloc_child)
{
  const RelElement *e = rel_element (child_factory);
  const gchar *format;
  gchar *props, *desc, *ref_desc;
  GstElement *pipeline;
  RelRun run, reference;
  RelLive live;

  fail_unless (e != NULL);
  fail_unless (g_getenv (CV_ENV_DEVICE_ALLOC_LIMIT) != NULL);
  format = e->cuda_formats[0];
  props = props_of (e);

  /* 1. the large stream passes the limit */
  desc = rel_pipeline (e, format, LARGE_W, LARGE_H, N_FRAMES, TRUE, props);
  pipeline = gst_parse_launch (desc, NULL);
  fail_unless (pipeline != NULL);
  rel_run_pipeline (pipeline, 120, REL_RUN_PIXELS, NULL, NULL, &run);
  assert_cuda_error (&run, "large stream");
  rel_assert_error (&run, "large stream", "out of memory");
  rel_assert_error (&run, "large stream", CV_ENV_DEVICE_ALLOC_LIMIT);
  rel_run_clear (&run);
  fail_unless_equals_int64 (rel_plugin_device_bytes (), 0);

  /* 2. the same element, NULL -> PLAYING at the small size: works, and
   * gives what a fresh element gives */
  rel_source_set_size (pipeline, SMALL_W, SMALL_H);
  rel_run_pipeline (pipeline, 120, REL_RUN_PIXELS, NULL, NULL, &run);
  rel_assert_eos (&run, "small stream after the failure");
  fail_unless_equals_int (run.frames->len, N_FRAMES);
  rel_assert_result_metas (e, &run, 0, "small stream after the failure");
  ref_desc = rel_pipeline (e, format, SMALL_W, SMALL_H, N_FRAMES, TRUE, props);
  rel_run (ref_desc, 120, REL_RUN_PIXELS, NULL, NULL, &reference);
  rel_assert_eos (&reference, ref_desc);
  rel_assert_frames_match (&run, &reference, 0, "after the failure");
  rel_run_clear (&reference);
  rel_run_clear (&run);
  gst_object_unref (pipeline);
  g_free (desc);

  /* 3. a stream that grows past the limit while PLAYING, then recovers */
  desc = rel_pipeline (e, format, SMALL_W, SMALL_H, -1, TRUE, props);
  rel_live_start (&live, desc, REL_RUN_PIXELS, "growing stream");
  fail_unless (rel_live_wait_frames (&live, 3, 60));
  rel_source_resize_live (live.pipeline, LARGE_W, LARGE_H);
  rel_live_wait_error (&live, 120);
  assert_cuda_error (&live.run, "stream grown to the large size");
  rel_live_set_state (&live, GST_STATE_NULL);
  fail_unless_equals_int64 (rel_plugin_device_bytes (), 0);
  rel_source_set_size (live.pipeline, SMALL_W, SMALL_H);
  {
    guint n = rel_run_n_frames (&live.run);
    rel_live_set_state (&live, GST_STATE_PLAYING);
    fail_unless (rel_live_wait_frames (&live, n + 5, 60));
  }
  gst_element_send_event (live.pipeline, gst_event_new_eos ());
  rel_live_wait_eos (&live, 60);
  rel_live_stop (&live);
  fail_unless (live.run.first_problem == NULL, "%s", live.run.first_problem);
  rel_live_clear (&live);
  g_free (desc);
  g_free (ref_desc);
  g_free (props);
}

GST_END_TEST;

GST_START_TEST (test_launch_child)
{
  const RelElement *e = rel_element (child_factory);
  gchar *props, *desc;
  GstElement *pipeline;
  RelRun run;

  fail_unless (e != NULL);
  props = props_of (e);
  desc = rel_pipeline (e, e->cuda_formats[0], SMALL_W, SMALL_H, N_FRAMES,
      TRUE, props);
  pipeline = gst_parse_launch (desc, NULL);
  fail_unless (pipeline != NULL);
  rel_run_pipeline (pipeline, 120, REL_RUN_PIXELS, NULL, NULL, &run);
  if (run.error == NULL || g_strcmp0 (run.error_source, "el") != 0) {
    /* the driver ran the kernels, or a stock element failed first */
    g_print ("NOT PROVOKED: %s%s%s\n", run.error ? run.error_source : "",
        run.error ? ": " : "the kernels ran", run.error ? run.error : "");
    child_not_provoked = TRUE;
    rel_run_clear (&run);
  } else {
    assert_cuda_error (&run, "launch failure");
    rel_run_clear (&run);
    /* NULL -> PLAYING: the same clean failure again */
    rel_run_pipeline (pipeline, 120, REL_RUN_PIXELS, NULL, NULL, &run);
    assert_cuda_error (&run, "launch failure, second start");
    rel_run_clear (&run);
    /* system memory keeps working in this process */
    g_free (desc);
    desc = rel_pipeline (e, e->cpu_formats[0], SMALL_W, SMALL_H, N_FRAMES,
        FALSE, props);
    fail_unless_equals_int (rel_expect_eos (desc), N_FRAMES);
  }
  gst_object_unref (pipeline);
  g_free (desc);
  g_free (props);
}

GST_END_TEST;

int
main (int argc, char **argv)
{
  Suite *s;
  TCase *tc;
  gint ret;

  if (argc == 3 && g_str_has_prefix (argv[1], "--child-")) {
    child_mode = argv[1];
    child_factory = argv[2];
    argc = 1;
  }
  gst_check_init (&argc, &argv);
  if (!cv_test_have_cuda_elements ())
    return CV_TEST_EXIT_SKIP;

  s = suite_create ("reliability-faults");
  tc = tcase_create ("faults");
  suite_add_tcase (s, tc);
  if (child_mode == NULL) {
    tcase_add_test (tc, test_device_memory_exhaustion);
    tcase_add_test (tc, test_kernel_launch_failure);
  } else if (strcmp (child_mode, "--child-alloc") == 0) {
    tcase_add_test (tc, test_alloc_child);
  } else {
    tcase_add_test (tc, test_launch_child);
  }
  ret = gst_check_run_suite (s, "reliability-faults", __FILE__);
  if (ret == 0 && child_not_provoked)
    return CV_TEST_EXIT_SKIP;
  return ret;
}
