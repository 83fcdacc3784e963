/* gst-cudavision: linear CUDA device memory for data that is not a video
 * frame (disparity maps and their confidence).
 *
 * GstCudaMemory only describes video formats (and no GRAY16 in 1.22), so
 * the disparity meta's storage uses this small allocator instead.  Mapping
 * with GST_MAP_CUDA gives the device address; a plain host map downloads
 * into a host shadow once (until the device copy is written again), so
 * applications can read GPU results with gst_cv_disparity_meta_map().
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef __GST_CV_DEVICE_MEMORY_H__
#define __GST_CV_DEVICE_MEMORY_H__

#ifdef CV_HAVE_CUDA

#include <gst/gst.h>
#include <gst/cuda/gstcudacontext.h>

G_BEGIN_DECLS

#define GST_CV_DEVICE_MEMORY_TYPE "gst.cudavision.device"

/* An allocator of device memory in @context. */
GstAllocator *gst_cv_device_allocator_new (GstCudaContext * context);

/* A pool of single-memory buffers of @size bytes of device memory in
 * @context, recycled when their last reference goes. */
GstBufferPool *gst_cv_device_pool_new (GstCudaContext * context, gsize size,
    guint min_buffers);

gboolean gst_cv_is_device_memory (GstMemory * mem);

G_END_DECLS

#endif /* CV_HAVE_CUDA */
#endif /* __GST_CV_DEVICE_MEMORY_H__ */
