/* gst-cudavision: cudardp, column-wise Ramer-Douglas-Peucker segmentation
 * of disparity or depth.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef __GST_CUDA_RDP_H__
#define __GST_CUDA_RDP_H__

#include "gstcvfilter.h"

G_BEGIN_DECLS

#define GST_TYPE_CUDA_RDP (gst_cuda_rdp_get_type ())
G_DECLARE_FINAL_TYPE (GstCudaRdp, gst_cuda_rdp, GST, CUDA_RDP, GstCvFilter)

/**
 * GstCudaRdpSignal:
 * @GST_CUDA_RDP_SIGNAL_DISPARITY: the disparity itself, in pixels
 * @GST_CUDA_RDP_SIGNAL_DEPTH: the depth focal-length * baseline / disparity,
 *   in metres (zero disparity has no depth: invalid)
 *
 * What each column's polyline approximates.
 */
typedef enum
{
  GST_CUDA_RDP_SIGNAL_DISPARITY = 0,
  GST_CUDA_RDP_SIGNAL_DEPTH = 1,
} GstCudaRdpSignal;

#define GST_TYPE_CUDA_RDP_SIGNAL (gst_cuda_rdp_signal_get_type ())
GType gst_cuda_rdp_signal_get_type (void);

/**
 * GstCudaRdpColumnMode:
 * @GST_CUDA_RDP_COLUMNS_SAMPLE: segmented column j is image column
 *   j * column-step
 * @GST_CUDA_RDP_COLUMNS_MEAN: segmented column j is the mean of the valid
 *   samples of image columns j * column-step .. (j + 1) * column-step - 1
 *
 * How `column-step` image columns become one segmented column.
 */
typedef enum
{
  GST_CUDA_RDP_COLUMNS_SAMPLE = 0,
  GST_CUDA_RDP_COLUMNS_MEAN = 1,
} GstCudaRdpColumnMode;

#define GST_TYPE_CUDA_RDP_COLUMN_MODE (gst_cuda_rdp_column_mode_get_type ())
GType gst_cuda_rdp_column_mode_get_type (void);

/**
 * GstCudaRdpMedian:
 * @GST_CUDA_RDP_MEDIAN_OFF: no prefilter
 * @GST_CUDA_RDP_MEDIAN_3: median of 3 rows
 * @GST_CUDA_RDP_MEDIAN_5: median of 5 rows
 *
 * Median prefilter along each segmented column (the value is the window
 * in rows).
 */
typedef enum
{
  GST_CUDA_RDP_MEDIAN_OFF = 0,
  GST_CUDA_RDP_MEDIAN_3 = 3,
  GST_CUDA_RDP_MEDIAN_5 = 5,
} GstCudaRdpMedian;

#define GST_TYPE_CUDA_RDP_MEDIAN (gst_cuda_rdp_median_get_type ())
GType gst_cuda_rdp_median_get_type (void);

G_END_DECLS
#endif /* __GST_CUDA_RDP_H__ */
