/* gst-cudavision core: the CUDA Hough plan's overlay, drawn from the line
 * list of the last run where the peaks left it (device memory): nothing is
 * copied, nothing waited for.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "cv_draw.h"
#include "cv_hough.h"
#include "cv_hough_plan.cuh"

namespace
{

constexpr int kDrawListThreads = 128;

/* One draw line per reported line (the first result->n_lines slots). */
__global__ void __launch_bounds__ (kDrawListThreads)
draw_list_kernel (const HoughResult * __restrict__ result, CvColor color,
    int thickness, CvDrawLine * __restrict__ out)
{
  const int n = result->n_lines;
  for (int i = threadIdx.x; i < n; i += blockDim.x) {
    const CvHoughLine line = result->lines[i];
    CvDrawLine d;
    d.x0 = line.x0;
    d.y0 = line.y0;
    d.x1 = line.x1;
    d.y1 = line.y1;
    d.color = color;
    d.thickness = thickness;
    out[i] = d;
  }
}

}  // namespace

extern "C" CvStatus
cv_hough_cuda_draw (CvHoughCuda * plan, CvFrame * frame, CvColor color,
    int thickness, CvStream stream, CvError * err)
{
  const cudaStream_t s = (cudaStream_t) stream;

  if (!plan->ran)
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
        "Hough (CUDA): no completed run to draw");
  if (thickness < 1)
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
        "Hough (CUDA): line thickness %d px (must be >= 1)", thickness);
  const int max_lines = plan->params.max_lines;
  /* earlier frames' overlays on @stream may still read the list */
  CvStatus status = cv_device_buffer_ensure_on (&plan->draw_lines,
      sizeof (CvDrawLine) * (size_t) max_lines, stream, err);
  if (status != CV_OK)
    return status;

  const HoughResult *result = (const HoughResult *) plan->result.ptr;
  CvDrawLine *lines = (CvDrawLine *) plan->draw_lines.ptr;
  draw_list_kernel<<<1, kDrawListThreads, 0, s>>> (result, color, thickness,
      lines);
  CV_CUDA_CHECK_LAUNCH (err, "draw_list_kernel (Hough overlay)");

  const CvDrawDeviceList list = { nullptr, 0, nullptr, lines, max_lines,
    &result->n_lines
  };
  return cv_draw_cuda_device (frame, &list, stream, err);
}
