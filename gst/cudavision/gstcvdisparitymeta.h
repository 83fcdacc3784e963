/* gst-cudavision: the disparity meta.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef __GST_CV_DISPARITY_META_H__
#define __GST_CV_DISPARITY_META_H__

#include <gst/gst.h>
#include <gst/cudavision/cudavision-prelude.h>

G_BEGIN_DECLS

/**
 * GST_CV_DISPARITY_FRAC_BITS:
 *
 * Disparity values are int16 fixed point with this many fractional bits:
 * value / 16 = disparity in pixels.  Any negative value means "invalid".
 */
#define GST_CV_DISPARITY_FRAC_BITS 4

/**
 * GST_CV_DISPARITY_SCALE:
 *
 * 1 << GST_CV_DISPARITY_FRAC_BITS: divide a raw value by this to get pixels.
 */
/* a literal: g-ir-scanner evaluates (1 << GST_CV_DISPARITY_FRAC_BITS) to 1 */
#define GST_CV_DISPARITY_SCALE 16

/**
 * GST_CV_MAP_DEVICE:
 *
 * Extra #GstMapFlags bit asking for the device (CUDA) address of disparity
 * data that lives on the GPU.  It has the value of `GST_MAP_CUDA` from the
 * gstreamer-cuda library, so either name works.
 */
#define GST_CV_MAP_DEVICE (GST_MAP_FLAG_LAST << 1)

/**
 * GstCvStereoCalibration:
 * @focal_length: focal length of the rectified left camera, in pixels
 * @principal_x: principal point, column, in pixels
 * @principal_y: principal point, row, in pixels
 * @baseline: distance between the two cameras, in metres
 *
 * Rectified pinhole stereo calibration: depth Z = focal_length * baseline / d.
 */
typedef struct
{
  gdouble focal_length;
  gdouble principal_x;
  gdouble principal_y;
  gdouble baseline;
} GstCvStereoCalibration;

/**
 * GstCvDisparityMeta:
 * @meta: parent #GstMeta
 * @width: width of the disparity map, in pixels
 * @height: height of the disparity map, in pixels
 * @min_disparity: smallest disparity searched, in pixels
 * @max_disparity: largest disparity searched (exclusive), in pixels
 * @has_confidence: whether a uint8 confidence map (0 = none, 255 = best) is
 *   stored next to the disparity
 * @calibration: the stereo calibration the disparity belongs to
 * @on_device: %TRUE when the data lives in CUDA device memory
 * @cuda_context: the GstCudaContext (as a #GstObject) owning the device
 *   memory, or %NULL for host data
 * @storage: the buffer holding the data (keeps it alive); map it through
 *   gst_cv_disparity_meta_map()
 *
 * A dense disparity map for the left view of a rectified stereo pair,
 * attached to the buffer it was computed for (the left view after cudasgm).
 * The data is int16 fixed point (see %GST_CV_DISPARITY_FRAC_BITS), row
 * pitch in bytes given by the mapping.
 */
typedef struct
{
  GstMeta meta;

  guint width;
  guint height;
  gint min_disparity;
  gint max_disparity;
  gboolean has_confidence;
  GstCvStereoCalibration calibration;

  gboolean on_device;
  GstObject *cuda_context;
  GstBuffer *storage;

  /*< private >*/
  gsize disparity_stride;
  gsize confidence_offset;
  gsize confidence_stride;
} GstCvDisparityMeta;

/**
 * GstCvDisparityMapping:
 * @disparity: int16 disparity, first row (host or device address)
 * @disparity_stride: bytes between rows of @disparity
 * @confidence: uint8 confidence, first row, or %NULL
 * @confidence_stride: bytes between rows of @confidence
 * @on_device: %TRUE when the addresses are CUDA device addresses
 *
 * The result of gst_cv_disparity_meta_map().
 */
typedef struct
{
  gpointer disparity;
  gsize disparity_stride;
  gpointer confidence;
  gsize confidence_stride;
  gboolean on_device;

  /*< private >*/
  GstMapInfo info;
} GstCvDisparityMapping;

GST_CUDA_VISION_API
GType gst_cv_disparity_meta_api_get_type (void);
#define GST_CV_DISPARITY_META_API_TYPE (gst_cv_disparity_meta_api_get_type ())

GST_CUDA_VISION_API
const GstMetaInfo *gst_cv_disparity_meta_get_info (void);
#define GST_CV_DISPARITY_META_INFO (gst_cv_disparity_meta_get_info ())

GST_CUDA_VISION_API
gsize gst_cv_disparity_storage_size (guint width, guint height,
    gboolean has_confidence, gsize * disparity_stride,
    gsize * confidence_offset, gsize * confidence_stride);

GST_CUDA_VISION_API
GstCvDisparityMeta *gst_buffer_add_cv_disparity_meta (GstBuffer * buffer,
    GstBuffer * storage, guint width, guint height, gint min_disparity,
    gint max_disparity, gboolean has_confidence,
    const GstCvStereoCalibration * calibration, GstObject * cuda_context);

GST_CUDA_VISION_API
GstCvDisparityMeta *gst_buffer_get_cv_disparity_meta (GstBuffer * buffer);

GST_CUDA_VISION_API
gboolean gst_cv_disparity_meta_map (GstCvDisparityMeta * meta,
    GstMapFlags flags, GstCvDisparityMapping * mapping);

GST_CUDA_VISION_API
void gst_cv_disparity_meta_unmap (GstCvDisparityMeta * meta,
    GstCvDisparityMapping * mapping);

GST_CUDA_VISION_API
gboolean gst_cv_disparity_meta_get_pixel (GstCvDisparityMeta * meta,
    guint x, guint y, gdouble * disparity);

GST_CUDA_VISION_API
GBytes *gst_cv_disparity_meta_get_disparity_bytes (GstCvDisparityMeta * meta,
    gsize * stride);

GST_CUDA_VISION_API
GBytes *gst_cv_disparity_meta_get_confidence_bytes (GstCvDisparityMeta * meta,
    gsize * stride);

G_END_DECLS
#endif /* __GST_CV_DISPARITY_META_H__ */
