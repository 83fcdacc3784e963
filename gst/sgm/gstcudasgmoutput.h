/* gst-cudavision: cudasgm's output frames (the left view, the KITTI
 * GRAY16 disparity) and the summary of a disparity map.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef __GST_CUDA_SGM_OUTPUT_H__
#define __GST_CUDA_SGM_OUTPUT_H__

#include <gst/video/video.h>

#include "cv_error.h"
#include "cv_frame.h"
#include "cv_types.h"

G_BEGIN_DECLS

/* Copies @view (a crop of the input frame in the format of @out, host
 * memory) into the mapped frame @out of the same size. */
void gst_cuda_sgm_copy_view_cpu (const CvFrame * view,
    const GstVideoFrame * out);

#ifdef CV_HAVE_CUDA
/* As gst_cuda_sgm_copy_view_cpu for device addresses, asynchronously on
 * @stream (the CUDA context current). */
CvStatus gst_cuda_sgm_copy_view_cuda (const CvFrame * view,
    const GstVideoFrame * out, CvStream stream, CvError * err);
#endif

/* Writes @disparity into the GRAY16_LE frame @out (same size) in the KITTI
 * convention: pixels x 256 (= raw value x 16), 0 where invalid. */
void gst_cuda_sgm_disparity_to_kitti (const CvImageS16 * disparity,
    const GstVideoFrame * out);

/* Summary of a (host) disparity map for the `cudasgm` message. */
typedef struct
{
  gdouble valid_fraction;       /* valid pixels / all pixels */
  gdouble mean, min, max;       /* px, over the valid pixels; 0 if none */
} GstCudaSgmSummary;

void gst_cuda_sgm_summarize (const CvImageS16 * disparity,
    GstCudaSgmSummary * summary);

G_END_DECLS
#endif /* __GST_CUDA_SGM_OUTPUT_H__ */
