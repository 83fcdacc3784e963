/* gst-cudavision: cudahough, straight lines by Hough voting.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef __GST_CUDA_HOUGH_H__
#define __GST_CUDA_HOUGH_H__

#include "gstcvfilter.h"

G_BEGIN_DECLS

#define GST_TYPE_CUDA_HOUGH (gst_cuda_hough_get_type ())
G_DECLARE_FINAL_TYPE (GstCudaHough, gst_cuda_hough, GST, CUDA_HOUGH,
    GstCvFilter)

/**
 * GstCudaHoughInput:
 * @GST_CUDA_HOUGH_INPUT_EDGES: pixels of the luma whose 3x3 Sobel magnitude
 *   |gx| + |gy| exceeds `edge-threshold` vote
 * @GST_CUDA_HOUGH_INPUT_BINARY: every non-zero pixel of a GRAY8 frame votes
 *   (e.g. an edge or mask image made upstream)
 *
 * Which pixels of the frame vote.
 */
typedef enum
{
  GST_CUDA_HOUGH_INPUT_EDGES,
  GST_CUDA_HOUGH_INPUT_BINARY,
} GstCudaHoughInput;

#define GST_TYPE_CUDA_HOUGH_INPUT (gst_cuda_hough_input_get_type ())
GType gst_cuda_hough_input_get_type (void);

G_END_DECLS
#endif /* __GST_CUDA_HOUGH_H__ */
