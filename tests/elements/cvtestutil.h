/* Helpers shared by the element tests.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef __CV_TEST_UTIL_H__
#define __CV_TEST_UTIL_H__

#include <gst/gst.h>
#include <gst/check/gstharness.h>
#include <gst/video/video.h>

G_BEGIN_DECLS

/* Runs @description to completion (EOS or error, at most @timeout_s).
 * Returns the error message (free with g_free) or NULL on EOS; with
 * @debug_out also the error's debug string. */
gchar *cv_test_run_pipeline (const gchar * description, guint timeout_s,
    gchar ** debug_out);

/* Pipelines a test drives itself.  The tests run in the test process
 * (CK_FORK=no): a failed assertion jumps past the test's own stop, and a
 * pipeline left PLAYING keeps the next test's task cleanup
 * (gst_task_cleanup_all in GST_END_TEST) waiting forever, so the failure is
 * never reported.  cv_test_launch parses @description (asserting it parses
 * without error) and remembers the pipeline; cv_test_stop sets it to NULL
 * and drops it; cv_test_stop_all, a test case's checked teardown (or part
 * of one), stops whatever a failed test left. */
GstElement *cv_test_launch (const gchar * description);
void cv_test_stop (GstElement * pipeline);
void cv_test_stop_all (void);

/* Asserts that running @description ends in an error whose message or debug
 * text contains @expected (case-insensitive). */
void cv_test_expect_error (const gchar * description, const gchar * expected);

/* Runs "appsrc name=src ! @middle ! fakesink" with @caps and one frame
 * of @size bytes and asserts an error whose message or debug text
 * contains @expected (case-insensitive). */
void cv_test_push_expect_error (const gchar * middle, GstCaps * caps,
    gsize size, const gchar * expected);

/* A copy of the packed frame @packed (laid out as @info says, its metas
 * included) with every row padded and a gap before the first plane, as a
 * GstVideoMeta describes: what cameras, decoders and aligned pools give.
 * The padding holds 0xa5, so reading it shows. */
GstBuffer *cv_test_pad_frame (GstBuffer * packed, const GstVideoInfo * info);

/* Asserts that @description runs to EOS without error. */
void cv_test_expect_eos (const gchar * description);

/* TRUE when this machine has a CUDA device and GStreamer's cudaupload (what
 * the GPU element tests need); else says why they are skipped and returns
 * FALSE (the caller exits with CV_TEST_EXIT_SKIP).  After gst_init. */
gboolean cv_test_have_cuda_elements (void);

/* Wall time of each buffer inside an element, sink pad to src pad (map,
 * kernels, stream sync, result lists, meta), for the GPU element tests'
 * latency logs.  Probes added after others on the same pads run after
 * them. */
typedef struct _CvTestLatency CvTestLatency;
CvTestLatency *cv_test_latency_attach (GstElement * element);
/* Buffers timed so far. */
guint cv_test_latency_count (const CvTestLatency * latency);
/* Median in µs of the buffers after the first @skip (the warm-up; sorts
 * those samples). */
gdouble cv_test_latency_median (CvTestLatency * latency, guint skip);
/* Removes the probes and frees. */
void cv_test_latency_free (CvTestLatency * latency);

/* The address of @name (a function the plugin exports) in the loaded
 * cudavision plugin, NULL when it cannot be found.  The tests see the base
 * class's headers only (cvbase_headers_dep): what needs the plugin's own
 * copy of the base class or the core (its registered types, its device
 * accounting) is called through this. */
gpointer cv_test_plugin_symbol (const gchar * name);

/* The plugin's gst_cv_device_pool_new (@cuda_context: a GstCudaContext):
 * a pool of device buffers of @size bytes, NULL when it fails. */
GstBufferPool *cv_test_device_pool_new (gpointer cuda_context, gsize size,
    guint min_buffers);

/* One element on both backends, for the GPU element tests: `ELEMENT PROPS`
 * on system memory (cpu) and `cudaupload ! ELEMENT PROPS ! cudadownload`
 * (gpu), both fed frames of @info (cvtestpair.c). */
typedef struct
{
  GstHarness *cpu, *gpu;
  GstElement *cpu_element, *gpu_element;
  GstVideoInfo info;
} CvTestPair;

CvTestPair cv_test_pair_new (const gchar * element, const gchar * props,
    GstVideoFormat format, gint width, gint height);
void cv_test_pair_free (CvTestPair * pair);
/* Sets the property @name from the string @value on both elements. */
void cv_test_pair_set (CvTestPair * pair, const gchar * name,
    const gchar * value);
/* Asserts that the GPU element negotiated CUDA memory (the frame stays
 * there); @name labels the failure. */
void cv_test_pair_check_on_gpu (CvTestPair * pair, const gchar * name);

/* The element's read-only `transfer-bytes` (host<->device bytes so far). */
guint64 cv_test_transfer_bytes (GstElement * element);

G_END_DECLS
#endif
