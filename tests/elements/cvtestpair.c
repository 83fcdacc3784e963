/* The GPU element tests' pair of one element on the CPU and GPU backends.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "cvtestutil.h"

#include <gst/check/gstcheck.h>

CvTestPair
cv_test_pair_new (const gchar * element, const gchar * props,
    GstVideoFormat format, gint width, gint height)
{
  CvTestPair p;
  gchar *caps = g_strdup_printf ("video/x-raw,format=%s,width=%d,height=%d,"
      "framerate=30/1", gst_video_format_to_string (format), width, height);
  gchar *cpu = g_strdup_printf ("%s %s", element, props);
  gchar *gpu = g_strdup_printf ("cudaupload ! %s %s ! cudadownload ! "
      "capsfilter caps=video/x-raw", element, props);

  p.cpu = gst_harness_new_parse (cpu);
  p.gpu = gst_harness_new_parse (gpu);
  gst_harness_set_src_caps_str (p.cpu, caps);
  gst_harness_set_src_caps_str (p.gpu, caps);
  p.cpu_element = gst_harness_find_element (p.cpu, element);
  p.gpu_element = gst_harness_find_element (p.gpu, element);
  gst_video_info_set_format (&p.info, format, width, height);
  g_free (caps);
  g_free (cpu);
  g_free (gpu);
  return p;
}

void
cv_test_pair_free (CvTestPair * p)
{
  gst_object_unref (p->cpu_element);
  gst_object_unref (p->gpu_element);
  gst_harness_teardown (p->cpu);
  gst_harness_teardown (p->gpu);
}

void
cv_test_pair_set (CvTestPair * p, const gchar * name, const gchar * value)
{
  gst_util_set_object_arg (G_OBJECT (p->cpu_element), name, value);
  gst_util_set_object_arg (G_OBJECT (p->gpu_element), name, value);
}

void
cv_test_pair_check_on_gpu (CvTestPair * p, const gchar * name)
{
  GstPad *pad = gst_element_get_static_pad (p->gpu_element, "sink");
  GstCaps *caps = gst_pad_get_current_caps (pad);
  GstCapsFeatures *f;

  fail_unless (caps != NULL, "%s: no caps on the GPU %s", name,
      GST_OBJECT_NAME (p->gpu_element));
  f = gst_caps_get_features (caps, 0);
  fail_unless (f && gst_caps_features_contains (f, "memory:CUDAMemory"),
      "%s: %s behind cudaupload got %" GST_PTR_FORMAT, name,
      GST_OBJECT_NAME (p->gpu_element), caps);
  gst_caps_unref (caps);
  gst_object_unref (pad);
}

guint64
cv_test_transfer_bytes (GstElement * element)
{
  guint64 bytes;
  g_object_get (element, "transfer-bytes", &bytes, NULL);
  return bytes;
}
