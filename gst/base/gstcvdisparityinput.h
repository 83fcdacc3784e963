/* gst-cudavision: where a consumer element gets its disparity from.
 *
 * DESIGN.md section 4: from the buffer's GstCvDisparityMeta when present
 * (with its confidence and calibration), else, for GRAY8 / GRAY16_LE input
 * in system memory, from the frame itself (GRAY8: pixels; GRAY16_LE: KITTI
 * convention, value / 256, 0 = invalid) with the calibration the element's
 * properties give.  The view handed out is on the element's backend: device
 * memory for CUDA (uploading host disparity once if it has to, counted as a
 * transfer), host memory for the CPU (downloading device disparity).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef __GST_CV_DISPARITY_INPUT_H__
#define __GST_CV_DISPARITY_INPUT_H__

#include <gst/cudavision/cudavision.h>

#include "gstcvfilter.h"
#include "cv_types.h"
#ifdef CV_HAVE_CUDA
#include "cv_cuda.h"
#endif

G_BEGIN_DECLS

/* Element-owned memory reused from frame to frame (zero-initialise; free
 * with gst_cv_disparity_scratch_free, with the CUDA context pushed). */
typedef struct
{
  gint16 *host;
  gsize host_size;
#ifdef CV_HAVE_CUDA
  CvDeviceBuffer device;
#endif
} GstCvDisparityScratch;

typedef struct
{
  CvImageS16 disparity;         /* on the backend's memory */
  CvImageU8 confidence;         /* data NULL when there is none */
  CvStereoCalibration calibration;
  gint min_disparity, max_disparity;    /* px; max 0 when unknown */

  /*< private >*/
  GstCvDisparityMeta *meta;
  GstCvDisparityMapping mapping;
  gboolean mapped;
} GstCvDisparityInput;

/* Fills @input for @buffer (whose mapped frame is @frame, on the element's
 * backend).  @properties_calibration is used for GRAY8/GRAY16 disparity
 * frames.  When @require_frame_size, a disparity map of another size than
 * the frame is an error.  On failure posts a GST_ELEMENT_ERROR that says what
 * is missing and returns FALSE. */
gboolean gst_cv_disparity_input_acquire (GstCvFilter * filter,
    GstBuffer * buffer, const GstVideoFrame * frame,
    const CvStereoCalibration * properties_calibration,
    gboolean require_frame_size, GstCvDisparityScratch * scratch,
    GstCvDisparityInput * input);

void gst_cv_disparity_input_release (GstCvDisparityInput * input);

void gst_cv_disparity_scratch_free (GstCvDisparityScratch * scratch);

/* The core's calibration from the meta's. */
void gst_cv_calibration_from_meta (const GstCvStereoCalibration * in,
    CvStereoCalibration * out);

G_END_DECLS
#endif /* __GST_CV_DISPARITY_INPUT_H__ */
