/* gst-cudavision: cudasgm's output frames and the disparity summary.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudasgmoutput.h"

#include <string.h>

#ifdef CV_HAVE_CUDA
#include <cuda_runtime_api.h>
#include "cv_cuda.h"
#endif

/* Bytes per row and rows of plane @plane of @frame. */
static void
plane_extent (const GstVideoFrame * frame, guint plane, gsize * row_bytes,
    guint * rows)
{
  gint comp[GST_VIDEO_MAX_COMPONENTS];

  gst_video_format_info_component (frame->info.finfo, plane, comp);
  *row_bytes = (gsize) GST_VIDEO_FRAME_COMP_WIDTH (frame, comp[0]) *
      GST_VIDEO_FRAME_COMP_PSTRIDE (frame, comp[0]);
  *rows = GST_VIDEO_FRAME_COMP_HEIGHT (frame, comp[0]);
}

void
gst_cuda_sgm_copy_view_cpu (const CvFrame * view, const GstVideoFrame * out)
{
  for (guint p = 0; p < GST_VIDEO_FRAME_N_PLANES (out); p++) {
    guint8 *dst = GST_VIDEO_FRAME_PLANE_DATA (out, p);
    gsize dst_stride = GST_VIDEO_FRAME_PLANE_STRIDE (out, p);
    gsize row_bytes;
    guint rows;

    plane_extent (out, p, &row_bytes, &rows);
    for (guint y = 0; y < rows; y++)
      memcpy (dst + y * dst_stride, view->planes[p] + y * view->strides[p],
          row_bytes);
  }
}

#ifdef CV_HAVE_CUDA
CvStatus
gst_cuda_sgm_copy_view_cuda (const CvFrame * view, const GstVideoFrame * out,
    CvStream stream, CvError * err)
{
  for (guint p = 0; p < GST_VIDEO_FRAME_N_PLANES (out); p++) {
    gsize row_bytes;
    guint rows;
    cudaError_t e;

    plane_extent (out, p, &row_bytes, &rows);
    e = cudaMemcpy2DAsync (GST_VIDEO_FRAME_PLANE_DATA (out, p),
        GST_VIDEO_FRAME_PLANE_STRIDE (out, p), view->planes[p],
        view->strides[p], row_bytes, rows, cudaMemcpyDeviceToDevice,
        (cudaStream_t) stream);
    if (e != cudaSuccess)
      return cv_cuda_error (err, e, "cudaMemcpy2DAsync (left view)");
  }
  return CV_OK;
}
#endif

void
gst_cuda_sgm_disparity_to_kitti (const CvImageS16 * disparity,
    const GstVideoFrame * out)
{
  guint8 *data = GST_VIDEO_FRAME_PLANE_DATA (out, 0);
  gsize stride = GST_VIDEO_FRAME_PLANE_STRIDE (out, 0);
  /* raw values have CV_DISP_FRAC_BITS fractional bits, KITTI 8; KITTI's 0
   * means invalid, so a valid disparity 0 (a point at infinity: the sky)
   * is written as 1, the smallest valid value (1/256 px) */
  const gint shift = 8 - CV_DISP_FRAC_BITS;

  for (gint y = 0; y < disparity->height; y++) {
    const int16_t *d = CV_ROW (disparity, y);
    guint16 *o = (guint16 *) (data + y * stride);

    for (gint x = 0; x < disparity->width; x++)
      o[x] = GUINT16_TO_LE (d[x] < 0 ? 0 : d[x] == 0 ? 1 :
          (guint16) (d[x] << shift));
  }
}

void
gst_cuda_sgm_summarize (const CvImageS16 * disparity,
    GstCudaSgmSummary * summary)
{
  guint64 valid = 0, sum = 0;
  gint lo = G_MAXINT, hi = -1;

  for (gint y = 0; y < disparity->height; y++) {
    const int16_t *d = CV_ROW (disparity, y);

    for (gint x = 0; x < disparity->width; x++) {
      if (d[x] < 0)
        continue;
      valid++;
      sum += (guint64) d[x];
      lo = MIN (lo, d[x]);
      hi = MAX (hi, d[x]);
    }
  }
  summary->valid_fraction = (gdouble) valid /
      ((gdouble) disparity->width * disparity->height);
  if (valid == 0) {
    summary->mean = summary->min = summary->max = 0.0;
    return;
  }
  summary->mean = (gdouble) sum / valid / CV_DISP_SCALE;
  summary->min = (gdouble) lo / CV_DISP_SCALE;
  summary->max = (gdouble) hi / CV_DISP_SCALE;
}
