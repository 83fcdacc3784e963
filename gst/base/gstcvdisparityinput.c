/* gst-cudavision: where a consumer element gets its disparity from.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcvdisparityinput.h"

#include <string.h>

#ifdef CV_HAVE_CUDA
#include <cuda_runtime_api.h>
#endif

void
gst_cv_calibration_from_meta (const GstCvStereoCalibration * in,
    CvStereoCalibration * out)
{
  out->focal_length = in->focal_length;
  out->principal_x = in->principal_x;
  out->principal_y = in->principal_y;
  out->baseline = in->baseline;
}

static gint16 *
scratch_host (GstCvDisparityScratch * scratch, gsize bytes)
{
  if (scratch->host_size < bytes) {
    g_free (scratch->host);
    scratch->host = g_malloc (bytes);
    scratch->host_size = bytes;
  }
  return scratch->host;
}

/* A GRAY8 (pixels) or GRAY16_LE (value / 256) disparity frame as fixed point;
 * 0 is invalid in both conventions. */
static void
convert_gray_frame (const GstVideoFrame * frame, CvImageS16 * out)
{
  gboolean gray16 = GST_VIDEO_FRAME_FORMAT (frame) == GST_VIDEO_FORMAT_GRAY16_LE;
  const guint8 *base = GST_VIDEO_FRAME_PLANE_DATA (frame, 0);
  gint stride = GST_VIDEO_FRAME_PLANE_STRIDE (frame, 0);

  for (gint y = 0; y < out->height; y++) {
    gint16 *dst = CV_ROW (out, y);
    const guint8 *row = base + (gsize) y * stride;

    for (gint x = 0; x < out->width; x++) {
      gint v = gray16 ? GST_READ_UINT16_LE (row + 2 * x) : row[x];

      if (v == 0)
        dst[x] = CV_DISP_INVALID;
      else if (gray16)
        /* value/256 px * 16 = value/16, rounded; fits int16 (< 4096 px) */
        dst[x] = (gint16) ((v + 8) >> 4);
      else
        dst[x] = (gint16) (v << CV_DISP_FRAC_BITS);
    }
  }
}

gboolean
gst_cv_disparity_input_acquire (GstCvFilter * filter, GstBuffer * buffer,
    const GstVideoFrame * frame,
    const CvStereoCalibration * properties_calibration,
    gboolean require_frame_size, GstCvDisparityScratch * scratch,
    GstCvDisparityInput * input)
{
  GstCvDisparityMeta *meta = gst_buffer_get_cv_disparity_meta (buffer);
  GstVideoFormat format = GST_VIDEO_FRAME_FORMAT (frame);
  gint fw = GST_VIDEO_FRAME_WIDTH (frame), fh = GST_VIDEO_FRAME_HEIGHT (frame);
  gboolean want_device = filter->backend == GST_CV_BACKEND_CUDA;

  memset (input, 0, sizeof (*input));

  if (meta == NULL) {
    if (want_device || (format != GST_VIDEO_FORMAT_GRAY8
            && format != GST_VIDEO_FORMAT_GRAY16_LE)) {
      GST_ELEMENT_ERROR (filter, STREAM, FORMAT,
          ("No disparity for this frame"),
          ("the buffer carries no GstCvDisparityMeta (put cudasgm, or "
              "stereotestsrc attach-disparity=true, upstream) and it is not "
              "a GRAY8/GRAY16_LE disparity image in system memory (it is %s%s)",
              gst_video_format_to_string (format),
              want_device ? " in CUDA memory" : ""));
      return FALSE;
    }
    input->disparity.width = fw;
    input->disparity.height = fh;
    input->disparity.stride = (gsize) fw * sizeof (gint16);
    input->disparity.data = scratch_host (scratch,
        input->disparity.stride * fh);
    convert_gray_frame (frame, &input->disparity);
    input->calibration = *properties_calibration;
    return TRUE;
  }

  if (require_frame_size && ((gint) meta->width != fw
          || (gint) meta->height != fh)) {
    GST_ELEMENT_ERROR (filter, STREAM, FORMAT,
        ("Disparity map does not match the frame"),
        ("the disparity meta is %ux%u but the frame is %dx%d (was the frame "
            "scaled after cudasgm?)", meta->width, meta->height, fw, fh));
    return FALSE;
  }

  input->meta = meta;
  input->min_disparity = meta->min_disparity;
  input->max_disparity = meta->max_disparity;
  gst_cv_calibration_from_meta (&meta->calibration, &input->calibration);
  input->disparity.width = input->confidence.width = meta->width;
  input->disparity.height = input->confidence.height = meta->height;

#ifdef CV_HAVE_CUDA
  if (want_device && meta->on_device
      && meta->cuda_context == GST_OBJECT_CAST (filter->context)) {
    if (!gst_cv_disparity_meta_map (meta, GST_MAP_READ | GST_CV_MAP_DEVICE,
            &input->mapping))
      goto map_failed;
    input->mapped = TRUE;
    input->disparity.data = input->mapping.disparity;
    input->disparity.stride = input->mapping.disparity_stride;
    input->confidence.data = input->mapping.confidence;
    input->confidence.stride = input->mapping.confidence_stride;
    return TRUE;
  }
#endif

  /* host view: the data itself, or a download of it */
  if (!gst_cv_disparity_meta_map (meta, GST_MAP_READ, &input->mapping))
    goto map_failed;
  input->mapped = TRUE;
  if (meta->on_device)
    gst_cv_filter_count_transfer (filter,
        gst_buffer_get_size (meta->storage));

  if (!want_device) {
    input->disparity.data = input->mapping.disparity;
    input->disparity.stride = input->mapping.disparity_stride;
    input->confidence.data = input->mapping.confidence;
    input->confidence.stride = input->mapping.confidence_stride;
    return TRUE;
  }

#ifdef CV_HAVE_CUDA
  {
    /* host disparity (e.g. a test source's ground truth after cudaupload)
     * for a CUDA consumer: one upload into reused scratch memory */
    gsize size = gst_buffer_get_size (meta->storage);
    CvError err = { 0 };
    cudaError_t r;

    if (cv_device_buffer_ensure (&scratch->device, size, &err) != CV_OK) {
      gst_cv_disparity_input_release (input);
      gst_cv_filter_core_error (filter, "Disparity upload", &err);
      return FALSE;
    }
    r = cudaMemcpyAsync (scratch->device.ptr, input->mapping.disparity, size,
        cudaMemcpyHostToDevice, (cudaStream_t) filter->stream);
    if (r == cudaSuccess)
      r = cudaStreamSynchronize ((cudaStream_t) filter->stream);
    if (r != cudaSuccess) {
      cv_cuda_error (&err, r, "cudaMemcpyAsync (disparity upload)");
      gst_cv_disparity_input_release (input);
      gst_cv_filter_core_error (filter, "Disparity upload", &err);
      return FALSE;
    }
    gst_cv_filter_count_transfer (filter, size);
    input->disparity.data = scratch->device.ptr;
    input->disparity.stride = input->mapping.disparity_stride;
    if (input->mapping.confidence) {
      input->confidence.data = (guint8 *) scratch->device.ptr +
          ((guint8 *) input->mapping.confidence -
          (guint8 *) input->mapping.disparity);
      input->confidence.stride = input->mapping.confidence_stride;
    }
    return TRUE;
  }
#endif

map_failed:
  GST_ELEMENT_ERROR (filter, RESOURCE, READ,
      ("Could not read the disparity meta's data"),
      ("gst_cv_disparity_meta_map() failed (%s data)",
          meta->on_device ? "device" : "host"));
  return FALSE;
}

void
gst_cv_disparity_input_release (GstCvDisparityInput * input)
{
  if (input->mapped)
    gst_cv_disparity_meta_unmap (input->meta, &input->mapping);
  input->mapped = FALSE;
  input->meta = NULL;
}

void
gst_cv_disparity_scratch_free (GstCvDisparityScratch * scratch)
{
  g_clear_pointer (&scratch->host, g_free);
  scratch->host_size = 0;
#ifdef CV_HAVE_CUDA
  cv_device_buffer_free (&scratch->device);
#endif
}
