/* gst-cudavision: linear CUDA device memory for non-video data.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#ifdef CV_HAVE_CUDA

#include "gstcvdevicememory.h"

#include <string.h>
#include <gst/cuda/gstcudaloader.h>
#include <gst/cuda/gstcudamemory.h>
#include <gst/cuda/cuda-gst.h>

GST_DEBUG_CATEGORY_STATIC (gst_cv_device_memory_debug);
#define GST_CAT_DEFAULT gst_cv_device_memory_debug

typedef struct
{
  GstMemory mem;
  GstCudaContext *context;
  CUdeviceptr device;
  guint8 *host;                 /* shadow for host maps, allocated on demand */
  gboolean host_valid;          /* shadow holds the device data */
  gboolean device_valid;        /* device holds the latest data */
  GMutex lock;
} GstCvDeviceMemory;

typedef struct
{
  GstAllocator parent;
  GstCudaContext *context;
} GstCvDeviceAllocator;

typedef struct
{
  GstAllocatorClass parent_class;
} GstCvDeviceAllocatorClass;

GType gst_cv_device_allocator_get_type (void);
G_DEFINE_TYPE (GstCvDeviceAllocator, gst_cv_device_allocator,
    GST_TYPE_ALLOCATOR);

static gboolean
copy_linear (GstCudaContext * context, gpointer host, CUdeviceptr device,
    gsize size, gboolean to_host)
{
  CUDA_MEMCPY2D copy;
  CUresult r;

  memset (&copy, 0, sizeof (copy));
  if (to_host) {
    copy.srcMemoryType = CU_MEMORYTYPE_DEVICE;
    copy.srcDevice = device;
    copy.dstMemoryType = CU_MEMORYTYPE_HOST;
    copy.dstHost = host;
  } else {
    copy.srcMemoryType = CU_MEMORYTYPE_HOST;
    copy.srcHost = host;
    copy.dstMemoryType = CU_MEMORYTYPE_DEVICE;
    copy.dstDevice = device;
  }
  copy.srcPitch = copy.dstPitch = size;
  copy.WidthInBytes = size;
  copy.Height = 1;

  if (!gst_cuda_context_push (context))
    return FALSE;
  r = CuMemcpy2D (&copy);
  /* from pageable memory the copy may return before its DMA lands; the
   * elements' non-blocking streams are not ordered after it: wait */
  if (r == CUDA_SUCCESS && !to_host)
    r = CuStreamSynchronize (NULL);
  gst_cuda_context_pop (NULL);
  if (r != CUDA_SUCCESS)
    GST_ERROR ("cuMemcpy2D (%s, %" G_GSIZE_FORMAT " bytes) failed: %d",
        to_host ? "download" : "upload", size, (gint) r);
  return r == CUDA_SUCCESS;
}

static gpointer
device_memory_map (GstMemory * mem, gsize maxsize, GstMapFlags flags)
{
  GstCvDeviceMemory *dmem = (GstCvDeviceMemory *) mem;
  gpointer result = NULL;

  g_mutex_lock (&dmem->lock);
  if (flags & GST_MAP_CUDA) {
    if (!dmem->device_valid) {
      if (!copy_linear (dmem->context, dmem->host, dmem->device,
              mem->maxsize, FALSE))
        goto done;
      dmem->device_valid = TRUE;
    }
    if (flags & GST_MAP_WRITE)
      dmem->host_valid = FALSE;
    result = (gpointer) dmem->device;
  } else {
    if (dmem->host == NULL)
      dmem->host = g_malloc (mem->maxsize);
    if (!dmem->host_valid) {
      if (!copy_linear (dmem->context, dmem->host, dmem->device,
              mem->maxsize, TRUE))
        goto done;
      dmem->host_valid = TRUE;
    }
    if (flags & GST_MAP_WRITE)
      dmem->device_valid = FALSE;
    result = dmem->host;
  }
done:
  g_mutex_unlock (&dmem->lock);
  return result;
}

static void
device_memory_unmap (GstMemory * mem)
{
}

static GstMemory *
device_memory_share (GstMemory * mem, gssize offset, gssize size)
{
  /* sub-buffers of device memory are not needed by anyone */
  return NULL;
}

static GstMemory *
gst_cv_device_allocator_alloc (GstAllocator * allocator, gsize size,
    GstAllocationParams * params)
{
  GstCvDeviceAllocator *self = (GstCvDeviceAllocator *) allocator;
  GstCvDeviceMemory *dmem;
  CUdeviceptr device = 0;
  CUresult r;

  if (!gst_cuda_context_push (self->context))
    return NULL;
  r = CuMemAlloc (&device, size);
  gst_cuda_context_pop (NULL);
  if (r != CUDA_SUCCESS) {
    GST_ERROR_OBJECT (allocator, "cuMemAlloc (%" G_GSIZE_FORMAT " bytes) "
        "failed: %d", size, (gint) r);
    return NULL;
  }

  dmem = g_new0 (GstCvDeviceMemory, 1);
  gst_memory_init (GST_MEMORY_CAST (dmem), 0, allocator, NULL, size, 0, 0,
      size);
  dmem->context = gst_object_ref (self->context);
  dmem->device = device;
  dmem->device_valid = TRUE;
  g_mutex_init (&dmem->lock);
  return GST_MEMORY_CAST (dmem);
}

static void
gst_cv_device_allocator_free (GstAllocator * allocator, GstMemory * mem)
{
  GstCvDeviceMemory *dmem = (GstCvDeviceMemory *) mem;

  if (gst_cuda_context_push (dmem->context)) {
    CuMemFree (dmem->device);
    gst_cuda_context_pop (NULL);
  }
  gst_object_unref (dmem->context);
  g_free (dmem->host);
  g_mutex_clear (&dmem->lock);
  g_free (dmem);
}

static void
gst_cv_device_allocator_finalize (GObject * object)
{
  GstCvDeviceAllocator *self = (GstCvDeviceAllocator *) object;

  gst_clear_object (&self->context);
  G_OBJECT_CLASS (gst_cv_device_allocator_parent_class)->finalize (object);
}

static void
gst_cv_device_allocator_class_init (GstCvDeviceAllocatorClass * klass)
{
  GstAllocatorClass *allocator_class = GST_ALLOCATOR_CLASS (klass);

  G_OBJECT_CLASS (klass)->finalize = gst_cv_device_allocator_finalize;
  allocator_class->alloc = gst_cv_device_allocator_alloc;
  allocator_class->free = gst_cv_device_allocator_free;
  GST_DEBUG_CATEGORY_INIT (gst_cv_device_memory_debug, "cvdevicememory", 0,
      "cudavision linear device memory");
}

static void
gst_cv_device_allocator_init (GstCvDeviceAllocator * self)
{
  GstAllocator *allocator = GST_ALLOCATOR (self);

  allocator->mem_type = GST_CV_DEVICE_MEMORY_TYPE;
  allocator->mem_map = device_memory_map;
  allocator->mem_unmap = device_memory_unmap;
  allocator->mem_share = device_memory_share;
  /* no mem_copy: the default copies through a host map, giving system memory */
  GST_OBJECT_FLAG_SET (allocator, GST_ALLOCATOR_FLAG_CUSTOM_ALLOC);
}

GstAllocator *
gst_cv_device_allocator_new (GstCudaContext * context)
{
  GstCvDeviceAllocator *self;

  g_return_val_if_fail (GST_IS_CUDA_CONTEXT (context), NULL);
  self = g_object_new (gst_cv_device_allocator_get_type (), NULL);
  gst_object_ref_sink (self);
  self->context = gst_object_ref (context);
  return GST_ALLOCATOR (self);
}

GstBufferPool *
gst_cv_device_pool_new (GstCudaContext * context, gsize size,
    guint min_buffers)
{
  GstBufferPool *pool = gst_buffer_pool_new ();
  GstAllocator *allocator = gst_cv_device_allocator_new (context);
  GstStructure *config = gst_buffer_pool_get_config (pool);

  gst_buffer_pool_config_set_params (config, NULL, size, min_buffers, 0);
  gst_buffer_pool_config_set_allocator (config, allocator, NULL);
  gst_object_unref (allocator);
  if (!gst_buffer_pool_set_config (pool, config)
      || !gst_buffer_pool_set_active (pool, TRUE)) {
    gst_object_unref (pool);
    return NULL;
  }
  return pool;
}

gboolean
gst_cv_is_device_memory (GstMemory * mem)
{
  return mem != NULL && mem->allocator != NULL
      && g_strcmp0 (mem->allocator->mem_type, GST_CV_DEVICE_MEMORY_TYPE) == 0;
}

#endif /* CV_HAVE_CUDA */
