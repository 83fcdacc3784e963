/* Reliability of every element on CUDA memory (cudaupload ! element !
 * cudadownload), on the GPU host; exits 77 without a GPU or cudaupload.
 * The cases of the CPU test, plus several instances sharing one CUDA
 * context (inside one pipeline, and across two pipelines given the same
 * application context) and device ids beyond the last device.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gst/check/gstcheck.h>
#include <gst/cuda/gstcudacontext.h>
#include <gst/cuda/gstcudautils.h>

#include "cv_cuda.h"
#include "cv_test.h"
#include "cvtestutil.h"
#include "gstcvfilter.h"
#include "rel_cases.h"

REL_ELEMENT_TEST (refused_format, TRUE);
REL_ELEMENT_TEST (interlaced, TRUE);
REL_ELEMENT_TEST (crop_downstream, TRUE);
REL_ELEMENT_TEST (padded_frames, TRUE);
REL_ELEMENT_TEST (odd_sizes, TRUE);
REL_ELEMENT_TEST (large_frames, TRUE);
REL_ELEMENT_TEST (missing_disparity, TRUE);
REL_ELEMENT_TEST (wrong_size_disparity, TRUE);
REL_ELEMENT_TEST (invalid_disparity, TRUE);
REL_ELEMENT_TEST (bad_calibration, TRUE);
REL_ELEMENT_TEST (extreme_properties, TRUE);
REL_ELEMENT_TEST (renegotiation, TRUE);
REL_ELEMENT_TEST (property_stress, TRUE);
REL_ELEMENT_TEST (flushing_seeks, TRUE);
REL_ELEMENT_TEST (eos, TRUE);
REL_ELEMENT_TEST (state_cycles, TRUE);
REL_ELEMENT_TEST (invalid_device, TRUE);
REL_ELEMENT_TEST (fuzz, TRUE);

/* Instances of every filter element, twice each, in one CUDA chain. */
#define CHAIN_REPEATS 2
#define CHAIN_FRAMES 20

static gchar *
chain_description (guint * n_instances)
{
  return rel_chain_description (64, 48, CHAIN_FRAMES, TRUE, CHAIN_REPEATS,
      NULL, TRUE, n_instances);
}

typedef struct
{
  guint n_instances;
  GstCudaContext *expected;     /* NULL: any, but one for all */
  GstCudaContext *seen;
} ContextCheck;

/* At the end of a run (before NULL): every instance holds the same
 * context, the expected one when given. */
static void
check_contexts (GstElement * pipeline, gpointer user_data)
{
  ContextCheck *check = user_data;

  for (guint i = 0; i < check->n_instances; i++) {
    gchar *name = g_strdup_printf ("f%u", i);
    GstElement *el = gst_bin_get_by_name (GST_BIN (pipeline), name);
    GstCudaContext *ctx;

    fail_unless (el != NULL);
    /* the plugin registered GstCvFilter from its own copy of the base
     * class: this program's gst_cv_filter_get_type (GST_CV_FILTER) would
     * try to register the type again, so the type is looked up by name */
    fail_unless (G_TYPE_CHECK_INSTANCE_TYPE (el,
            g_type_from_name ("GstCvFilter")), "%s is no GstCvFilter", name);
    ctx = ((GstCvFilter *) el)->context;
    fail_unless (ctx != NULL, "%s has no CUDA context", name);
    if (check->seen == NULL)
      check->seen = ctx;
    fail_unless (ctx == check->seen, "%s has context %p, %s %p", name, ctx,
        "the first instance", check->seen);
    if (check->expected)
      fail_unless (ctx == check->expected, "%s has context %p, not the "
          "application's %p", name, ctx, check->expected);
    gst_object_unref (el);
    g_free (name);
  }
}

GST_START_TEST (test_shared_context)
{
  guint n_instances;
  gchar *desc = chain_description (&n_instances);
  ContextCheck check = { n_instances, NULL, NULL };
  RelRun run;

  g_print ("shared context: %u instances in one pipeline\n", n_instances);
  rel_run (desc, 120, REL_RUN_PIXELS, check_contexts, &check, &run);
  rel_assert_eos (&run, desc);
  fail_unless_equals_int (run.frames->len, CHAIN_FRAMES);
  rel_run_clear (&run);
  g_free (desc);
}

GST_END_TEST;

GST_START_TEST (test_application_context_two_pipelines)
{
  guint n_instances;
  gchar *desc = chain_description (&n_instances);
  GstCudaContext *ctx = gst_cuda_context_new (0);
  GstContext *context;
  RelLive a, b;
  ContextCheck check_a = { n_instances, ctx, NULL };
  ContextCheck check_b = { n_instances, ctx, NULL };

  fail_unless (ctx != NULL);
  context = gst_context_new_cuda_context (ctx);
  /* both pipelines stream at once on the application's context */
  rel_live_prepare (&a, desc, REL_RUN_PIXELS, "pipeline A");
  rel_live_prepare (&b, desc, REL_RUN_PIXELS, "pipeline B");
  gst_element_set_context (a.pipeline, context);
  gst_element_set_context (b.pipeline, context);
  gst_element_set_state (a.pipeline, GST_STATE_PLAYING);
  gst_element_set_state (b.pipeline, GST_STATE_PLAYING);
  rel_live_wait_eos (&a, 120);
  rel_live_wait_eos (&b, 120);
  check_contexts (a.pipeline, &check_a);
  check_contexts (b.pipeline, &check_b);
  rel_live_stop (&a);
  rel_live_stop (&b);
  rel_assert_eos (&a.run, "pipeline A");
  rel_assert_eos (&b.run, "pipeline B");
  /* the same input gives the same output in both */
  rel_assert_frames_match (&a.run, &b.run, 0, "pipeline A vs B");
  fail_unless_equals_int (a.run.frames->len, b.run.frames->len);
  rel_live_clear (&a);
  rel_live_clear (&b);
  gst_context_unref (context);
  gst_object_unref (ctx);
  g_free (desc);
}

GST_END_TEST;

GST_START_TEST (test_device_beyond_the_last)
{
  guint n;
  const RelElement *const *all = rel_elements (&n);
  gint n_devices = cv_cuda_device_count ();

  for (guint i = 0; i < n; i++) {
    gchar *props, *desc, *expected;

    if (all[i]->cuda_formats[0] == NULL)
      continue;
    props = g_strdup_printf ("cuda-device-id=%d", n_devices);
    desc = rel_pipeline (all[i], all[i]->cuda_formats[0], 64, 48, 2, TRUE,
        props);
    expected = g_strdup_printf ("this system has %d CUDA device(s)",
        n_devices);
    rel_expect_error (desc, expected);
    g_free (expected);
    g_free (desc);
    g_free (props);
  }
}

GST_END_TEST;

static Suite *
reliability_gpu_suite (void)
{
  Suite *s = suite_create ("reliability-gpu");
  TCase *input = tcase_create ("input");
  TCase *streams = tcase_create ("streams");
  TCase *cuda = tcase_create ("cuda");

  suite_add_tcase (s, input);
  tcase_add_test (input, test_refused_format);
  tcase_add_test (input, test_interlaced);
  tcase_add_test (input, test_crop_downstream);
  tcase_add_test (input, test_padded_frames);
  tcase_add_test (input, test_odd_sizes);
  tcase_add_test (input, test_large_frames);
  tcase_add_test (input, test_missing_disparity);
  tcase_add_test (input, test_wrong_size_disparity);
  tcase_add_test (input, test_invalid_disparity);
  tcase_add_test (input, test_bad_calibration);
  tcase_add_test (input, test_extreme_properties);
  tcase_add_test (input, test_invalid_device);
  tcase_add_test (input, test_fuzz);

  suite_add_tcase (s, streams);
  tcase_add_test (streams, test_renegotiation);
  tcase_add_test (streams, test_property_stress);
  tcase_add_test (streams, test_flushing_seeks);
  tcase_add_test (streams, test_eos);
  tcase_add_test (streams, test_state_cycles);

  suite_add_tcase (s, cuda);
  tcase_add_test (cuda, test_shared_context);
  tcase_add_test (cuda, test_application_context_two_pipelines);
  tcase_add_test (cuda, test_device_beyond_the_last);
  return s;
}

int
main (int argc, char **argv)
{
  /* --checks a,b: only those tests (meson splits the suite this way) */
  rel_select_checks (&argc, argv);
  gst_check_init (&argc, &argv);
  if (!cv_test_have_cuda_elements ())
    return CV_TEST_EXIT_SKIP;
  return gst_check_run_suite (reliability_gpu_suite (), "reliability-gpu",
      __FILE__);
}
