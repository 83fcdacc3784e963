/* The filter base class on CUDA memory (GPU host only; exits 77 without a
 * GPU): cudaupload ! element ! cudadownload keeps metas, device-resident
 * disparity is readable on the host, the CUDA backend agrees with the CPU
 * one, in-place writes reach the frame, and bad device ids are refused.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gst/check/gstcheck.h>
#include <gst/app/gstappsink.h>
#include <gst/cudavision/cudavision.h>

#include "cv_test.h"
#include "cvtestfilter.h"
#include "cvtestutil.h"

#define CAPS "video/x-raw,format=%s,width=96,height=40,framerate=30/1"

/* Runs `videotestsrc ! caps ! [upload] cvtestfilter [download] ! appsink`
 * and returns the first output buffer (ref). */
static GstBuffer *
run_one (const gchar * format, gboolean cuda, gboolean overlay)
{
  gchar *caps = g_strdup_printf (CAPS, format);
  gchar *desc = g_strdup_printf ("videotestsrc num-buffers=1 pattern=ball ! "
      "%s ! %s cvtestfilter overlay=%d ! %s appsink name=sink sync=false",
      caps, cuda ? "cudaupload !" : "", overlay, cuda ? "cudadownload ! "
      "video/x-raw !" : "");
  GError *error = NULL;
  GstElement *p = gst_parse_launch (desc, &error);
  GstElement *sink;
  GstSample *sample;
  GstBuffer *buf;

  fail_unless (p != NULL, "%s", error ? error->message : "");
  sink = gst_bin_get_by_name (GST_BIN (p), "sink");
  gst_element_set_state (p, GST_STATE_PLAYING);
  sample = gst_app_sink_pull_sample (GST_APP_SINK (sink));
  fail_unless (sample != NULL, "no output from '%s'", desc);
  buf = gst_buffer_ref (gst_sample_get_buffer (sample));
  gst_sample_unref (sample);
  gst_element_set_state (p, GST_STATE_NULL);
  gst_object_unref (sink);
  gst_object_unref (p);
  g_free (desc);
  g_free (caps);
  return buf;
}

static void
compare_disparity (GstBuffer * a, GstBuffer * b)
{
  GstCvDisparityMeta *ma = gst_buffer_get_cv_disparity_meta (a);
  GstCvDisparityMeta *mb = gst_buffer_get_cv_disparity_meta (b);
  GstCvDisparityMapping pa, pb;

  fail_unless (ma && mb);
  fail_unless (ma->width == mb->width && ma->height == mb->height);
  fail_unless (gst_cv_disparity_meta_map (ma, GST_MAP_READ, &pa));
  fail_unless (gst_cv_disparity_meta_map (mb, GST_MAP_READ, &pb));
  for (guint y = 0; y < ma->height; y++)
    fail_unless (memcmp ((guint8 *) pa.disparity + y * pa.disparity_stride,
            (guint8 *) pb.disparity + y * pb.disparity_stride,
            ma->width * 2) == 0, "row %u differs", y);
  gst_cv_disparity_meta_unmap (ma, &pa);
  gst_cv_disparity_meta_unmap (mb, &pb);
}

GST_START_TEST (test_metas_survive_cuda_round_trip)
{
  const gchar *formats[] = { "RGBA", "BGRx", "NV12", "I420", "Y444" };

  for (guint i = 0; i < G_N_ELEMENTS (formats); i++) {
    GstBuffer *gpu = run_one (formats[i], TRUE, FALSE);
    GstBuffer *cpu = run_one (formats[i], FALSE, FALSE);
    GstCvDisparityMeta *meta = gst_buffer_get_cv_disparity_meta (gpu);
    GstCvDisparityMapping m;

    fail_unless (meta != NULL, "%s: meta lost through cudadownload",
        formats[i]);
    fail_unless (meta->on_device, "%s: disparity not on the device",
        formats[i]);
    fail_unless (meta->cuda_context != NULL);
    fail_unless (gst_cv_disparity_meta_map (meta,
            GST_MAP_READ | GST_CV_MAP_DEVICE, &m));
    fail_unless (m.on_device);
    gst_cv_disparity_meta_unmap (meta, &m);
    compare_disparity (gpu, cpu);
    gst_buffer_unref (gpu);
    gst_buffer_unref (cpu);
  }
}

GST_END_TEST;

GST_START_TEST (test_in_place_overlay_on_gpu)
{
  const gchar *formats[] = { "RGBA", "NV12", "I420" };

  for (guint i = 0; i < G_N_ELEMENTS (formats); i++) {
    GstBuffer *gpu = run_one (formats[i], TRUE, TRUE);
    GstBuffer *cpu = run_one (formats[i], FALSE, TRUE);
    GstMapInfo a, b;

    gst_buffer_map (gpu, &a, GST_MAP_READ);
    gst_buffer_map (cpu, &b, GST_MAP_READ);
    fail_unless (a.size == b.size);
    fail_unless (memcmp (a.data, b.data, a.size) == 0,
        "%s: GPU overlay differs from the CPU one", formats[i]);
    gst_buffer_unmap (gpu, &a);
    gst_buffer_unmap (cpu, &b);
    gst_buffer_unref (gpu);
    gst_buffer_unref (cpu);
  }
}

GST_END_TEST;

GST_START_TEST (test_bad_device_id)
{
  cv_test_expect_error ("videotestsrc num-buffers=1 ! "
      "video/x-raw,format=RGBA,width=64,height=48 ! cudaupload ! "
      "cvtestfilter cuda-device-id=99 ! fakesink", "cuda-device-id=99");
}

GST_END_TEST;

static Suite *
filter_gpu_suite (void)
{
  Suite *s = suite_create ("cudavision-filter-gpu");
  TCase *tc = tcase_create ("general");

  tcase_set_timeout (tc, 120);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_metas_survive_cuda_round_trip);
  tcase_add_test (tc, test_in_place_overlay_on_gpu);
  tcase_add_test (tc, test_bad_device_id);
  return s;
}

int
main (int argc, char **argv)
{
  gst_check_init (&argc, &argv);
  if (!cv_test_have_cuda_elements ())
    return CV_TEST_EXIT_SKIP;
  cv_test_filter_register ();
  return gst_check_run_suite (filter_gpu_suite (), "cudavision-filter-gpu",
      __FILE__);
}
