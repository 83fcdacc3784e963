/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "cvtestfilter.h"

#include <gst/cudavision/cudavision.h>
#include <string.h>

#include "cv_draw.h"
#ifdef CV_HAVE_CUDA
#include <cuda_runtime_api.h>
#include "cv_cuda.h"
#include "gstcvdevicememory.h"
#endif

typedef struct
{
  gboolean overlay;
} CvTestFilterSettings;

typedef struct
{
  GstCvFilter parent;
  GstBufferPool *storage_pool;
  guint8 *luma;
#ifdef CV_HAVE_CUDA
  CvDeviceBuffer luma_dev;
  CvDrawCuda *draw;
#endif
} CvTestFilter;

typedef struct
{
  GstCvFilterClass parent_class;
} CvTestFilterClass;

enum
{
  PROP_0,
  PROP_OVERLAY,
};

G_DEFINE_TYPE (CvTestFilter, cv_test_filter, GST_TYPE_CV_FILTER);

#define FORMATS "{ RGBA, BGRx, NV12, I420, Y444 }"
#define SYSTEM_FORMATS "{ RGBA, BGRx, NV12, I420, Y444, GRAY8 }"
/* disparity = luma * LUMA_SCALE / 16 px */
#define LUMA_SCALE 16

static const CvDrawRect marker = { 1, 1, 4, 3, {255, 255, 255, 255},
{0, 0, 0, 0}
};

static gsize
storage_size (GstCvFilter * filter)
{
  return gst_cv_disparity_storage_size (GST_VIDEO_INFO_WIDTH (&filter->in_info),
      GST_VIDEO_INFO_HEIGHT (&filter->in_info), FALSE, NULL, NULL, NULL);
}

static void
release (GstCvFilter * filter)
{
  CvTestFilter *self = (CvTestFilter *) filter;

  if (self->storage_pool) {
    gst_buffer_pool_set_active (self->storage_pool, FALSE);
    gst_clear_object (&self->storage_pool);
  }
  g_clear_pointer (&self->luma, g_free);
#ifdef CV_HAVE_CUDA
  cv_device_buffer_free (&self->luma_dev);
  g_clear_pointer (&self->draw, cv_draw_cuda_free);
#endif
}

static gboolean
set_info (GstCvFilter * filter, GstCaps * incaps, const GstVideoInfo * in,
    GstCaps * outcaps, const GstVideoInfo * out)
{
  release (filter);
  return TRUE;
}

static void
attach (GstCvFilter * filter, GstBuffer * buf, GstBuffer * storage,
    GstObject * context)
{
  GstCvStereoCalibration calib = { 100.0, 10.0, 5.0, 0.5 };

  gst_buffer_add_cv_disparity_meta (buf, storage,
      GST_VIDEO_INFO_WIDTH (&filter->in_info),
      GST_VIDEO_INFO_HEIGHT (&filter->in_info), 0, 256, FALSE, &calib,
      context);
}

static GstFlowReturn
process_cpu (GstCvFilter * filter, gconstpointer p, GstBuffer * inbuf,
    GstBuffer * outbuf)
{
  CvTestFilter *self = (CvTestFilter *) filter;
  const CvTestFilterSettings *s = p;
  gint w = GST_VIDEO_INFO_WIDTH (&filter->in_info);
  gint h = GST_VIDEO_INFO_HEIGHT (&filter->in_info);
  GstVideoFrame vframe;
  CvFrame frame;
  CvImageU8 luma = { NULL, w, h, (gsize) w };
  CvError err = { 0 };
  GstBuffer *storage;
  GstMapInfo map;
  gsize stride;

  if (self->storage_pool == NULL) {
    GstStructure *config;
    self->storage_pool = gst_buffer_pool_new ();
    config = gst_buffer_pool_get_config (self->storage_pool);
    gst_buffer_pool_config_set_params (config, NULL, storage_size (filter), 2,
        0);
    gst_buffer_pool_set_config (self->storage_pool, config);
    gst_buffer_pool_set_active (self->storage_pool, TRUE);
    self->luma = g_malloc ((gsize) w * h);
  }
  luma.data = self->luma;

  if (!gst_cv_filter_map_frame (filter, outbuf, &filter->in_info,
          s->overlay ? GST_MAP_READWRITE : GST_MAP_READ, &vframe))
    return GST_FLOW_ERROR;
  gst_cv_frame_from_video_frame (&vframe, &frame);
  if (cv_frame_luma_cpu (&frame, &luma, &err) != CV_OK) {
    gst_video_frame_unmap (&vframe);
    return gst_cv_filter_core_error (filter, "Luma", &err);
  }
  if (s->overlay) {
    CvDrawList list = { &marker, 1, NULL, 0 };
    cv_draw_cpu (&frame, &list, &err);
  }
  gst_video_frame_unmap (&vframe);

  gst_buffer_pool_acquire_buffer (self->storage_pool, &storage, NULL);
  gst_cv_disparity_storage_size (w, h, FALSE, &stride, NULL, NULL);
  gst_buffer_map (storage, &map, GST_MAP_WRITE);
  for (gint y = 0; y < h; y++)
    for (gint x = 0; x < w; x++)
      ((gint16 *) (map.data + y * stride))[x] =
          (gint16) (self->luma[y * w + x] * LUMA_SCALE);
  gst_buffer_unmap (storage, &map);
  attach (filter, outbuf, storage, NULL);
  gst_buffer_unref (storage);

  if (gst_cv_filter_wants_summary (filter)) {
    guint64 sum = 0;
    for (gint i = 0; i < w * h; i++)
      sum += self->luma[i];
    gst_cv_filter_post_summary (filter, outbuf,
        gst_structure_new ("cvtestfilter", "mean-luma", G_TYPE_DOUBLE,
            (gdouble) sum / (w * h), NULL));
  }
  return GST_FLOW_OK;
}

#ifdef CV_HAVE_CUDA
static GstFlowReturn
process_cuda (GstCvFilter * filter, gconstpointer p, GstBuffer * inbuf,
    GstBuffer * outbuf)
{
  CvTestFilter *self = (CvTestFilter *) filter;
  const CvTestFilterSettings *s = p;
  gint w = GST_VIDEO_INFO_WIDTH (&filter->in_info);
  gint h = GST_VIDEO_INFO_HEIGHT (&filter->in_info);
  cudaStream_t stream = (cudaStream_t) filter->stream;
  GstVideoFrame vframe;
  CvFrame frame;
  CvImageU8 luma = { NULL, w, h, (gsize) w };
  CvError err = { 0 };
  GstBuffer *storage = NULL;
  GstMapInfo map;
  gsize stride;
  guint8 *host_luma;

  if (self->storage_pool == NULL) {
    self->storage_pool = gst_cv_device_pool_new (filter->context,
        storage_size (filter), 2);
    self->luma = g_malloc ((gsize) w * h);
    self->draw = cv_draw_cuda_new ();
  }
  if (cv_device_buffer_ensure (&self->luma_dev, (gsize) w * h, &err) != CV_OK)
    return gst_cv_filter_core_error (filter, "Luma buffer", &err);
  luma.data = self->luma_dev.ptr;

  if (!gst_cv_filter_map_frame (filter, outbuf, &filter->in_info,
          s->overlay ? GST_MAP_READWRITE : GST_MAP_READ, &vframe))
    return GST_FLOW_ERROR;
  gst_cv_frame_from_video_frame (&vframe, &frame);
  if (cv_frame_luma_cuda (&frame, &luma, filter->stream, &err) != CV_OK) {
    gst_video_frame_unmap (&vframe);
    return gst_cv_filter_core_error (filter, "Luma", &err);
  }
  if (s->overlay) {
    CvDrawList list = { &marker, 1, NULL, 0 };
    if (cv_draw_cuda (self->draw, &frame, &list, filter->stream, &err) != CV_OK) {
      gst_video_frame_unmap (&vframe);
      return gst_cv_filter_core_error (filter, "Overlay", &err);
    }
  }
  /* a deliberately simple device path: luma to host, scale, store on the
   * device - the test is about memory and metas, not speed */
  host_luma = self->luma;
  cudaMemcpyAsync (host_luma, self->luma_dev.ptr, (gsize) w * h,
      cudaMemcpyDeviceToHost, stream);
  cudaStreamSynchronize (stream);
  gst_video_frame_unmap (&vframe);

  gst_buffer_pool_acquire_buffer (self->storage_pool, &storage, NULL);
  gst_cv_disparity_storage_size (w, h, FALSE, &stride, NULL, NULL);
  {
    gint16 *tmp = g_malloc (stride * h);
    for (gint y = 0; y < h; y++)
      for (gint x = 0; x < w; x++)
        ((gint16 *) ((guint8 *) tmp + y * stride))[x] =
            (gint16) (host_luma[y * w + x] * LUMA_SCALE);
    gst_buffer_map (storage, &map, GST_MAP_WRITE | GST_MAP_CUDA);
    cudaMemcpyAsync (map.data, tmp, stride * h, cudaMemcpyHostToDevice, stream);
    cudaStreamSynchronize (stream);
    gst_buffer_unmap (storage, &map);
    g_free (tmp);
  }
  attach (filter, outbuf, storage, GST_OBJECT (filter->context));
  gst_buffer_unref (storage);
  return GST_FLOW_OK;
}
#endif

static void
cv_test_filter_class_init (CvTestFilterClass * klass)
{
  GstCvFilterClass *filter_class = GST_CV_FILTER_CLASS (klass);

  filter_class->settings_size = sizeof (CvTestFilterSettings);
  gst_cv_filter_class_install_setting (filter_class, PROP_OVERLAY,
      g_param_spec_boolean ("overlay", "Overlay", "Draw a marker", FALSE,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS),
      G_STRUCT_OFFSET (CvTestFilterSettings, overlay));

  gst_element_class_set_static_metadata (GST_ELEMENT_CLASS (klass),
      "cudavision test filter", "Filter/Video", "luma as disparity", "tests");
  gst_cv_filter_class_add_pad_templates (filter_class,
      gst_cv_filter_make_caps (FORMATS, SYSTEM_FORMATS),
      gst_cv_filter_make_caps (FORMATS, SYSTEM_FORMATS));
  gst_cv_filter_class_set_in_place (filter_class);

  filter_class->set_info = set_info;
  filter_class->process_cpu = process_cpu;
#ifdef CV_HAVE_CUDA
  filter_class->process_cuda = process_cuda;
#endif
  filter_class->release = release;
}

static void
cv_test_filter_init (CvTestFilter * self)
{
}

gboolean
cv_test_filter_register (void)
{
  return gst_element_register (NULL, "cvtestfilter", GST_RANK_NONE,
      CV_TYPE_TEST_FILTER);
}
