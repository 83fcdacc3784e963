/* gst-cudavision: the disparity meta.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/**
 * SECTION:gstcvdisparitymeta
 * @title: GstCvDisparityMeta
 * @short_description: dense disparity of a stereo pair, on the host or the GPU
 *
 * Produced by `cudasgm` (or by `stereotestsrc attach-disparity=true` with the
 * ground truth), consumed by `cudastixels`, `cudardp` and `cudaroaddetect`.
 * The data lives in a storage buffer; when it was computed on the GPU it
 * stays there and gst_cv_disparity_meta_map() with %GST_MAP_READ downloads
 * it on demand (once per buffer), while %GST_CV_MAP_DEVICE gives the device
 * address without any copy.  Copying a buffer shares the (immutable) data.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcvdisparitymeta.h"
#include "gstcvmetaregister.h"

#include <string.h>

/* the header spells the scale as a literal for g-ir-scanner */
G_STATIC_ASSERT (GST_CV_DISPARITY_SCALE == (1 << GST_CV_DISPARITY_FRAC_BITS));

/* Rows start on this many bytes: coalesced device access, and the same
 * layout on host and device so a download is a single copy. */
#define STORAGE_ROW_ALIGN 256

static gboolean
disparity_meta_init (GstMeta * meta, gpointer params, GstBuffer * buffer)
{
  GstCvDisparityMeta *dmeta = (GstCvDisparityMeta *) meta;

  dmeta->storage = NULL;
  dmeta->cuda_context = NULL;
  return TRUE;
}

static void
disparity_meta_free (GstMeta * meta, GstBuffer * buffer)
{
  GstCvDisparityMeta *dmeta = (GstCvDisparityMeta *) meta;

  gst_clear_buffer (&dmeta->storage);
  gst_clear_object (&dmeta->cuda_context);
}

static gboolean
disparity_meta_transform (GstBuffer * dest, GstMeta * meta, GstBuffer * buffer,
    GQuark type, gpointer data)
{
  GstCvDisparityMeta *src = (GstCvDisparityMeta *) meta;
  GstCvDisparityMeta *dst;

  /* The map describes the pixels of the frame it was computed for: keep it
   * through copies; scaling or cropping would silently break the
   * correspondence, so drop it there. */
  if (!GST_META_TRANSFORM_IS_COPY (type))
    return FALSE;

  dst = gst_buffer_add_cv_disparity_meta (dest, src->storage, src->width,
      src->height, src->min_disparity, src->max_disparity,
      src->has_confidence, &src->calibration, src->cuda_context);
  return dst != NULL;
}

GST_CV_DEFINE_META (gst_cv_disparity_meta, GstCvDisparityMeta,
    disparity_meta_init, disparity_meta_free, disparity_meta_transform);

/**
 * gst_cv_disparity_storage_size:
 * @width: disparity map width, px
 * @height: disparity map height, px
 * @has_confidence: whether a confidence map follows the disparity
 * @disparity_stride: (out) (optional): bytes between disparity rows
 * @confidence_offset: (out) (optional): byte offset of the confidence map
 * @confidence_stride: (out) (optional): bytes between confidence rows
 *
 * The layout every disparity storage buffer uses.  Producers allocate a
 * storage buffer of the returned size and write the data at these offsets.
 *
 * Returns: the storage size in bytes
 */
gsize
gst_cv_disparity_storage_size (guint width, guint height,
    gboolean has_confidence, gsize * disparity_stride,
    gsize * confidence_offset, gsize * confidence_stride)
{
  gsize dstride = GST_ROUND_UP_N ((gsize) width * sizeof (gint16),
      STORAGE_ROW_ALIGN);
  gsize cstride = has_confidence ? GST_ROUND_UP_N ((gsize) width,
      STORAGE_ROW_ALIGN) : 0;
  gsize coffset = dstride * height;

  if (disparity_stride)
    *disparity_stride = dstride;
  if (confidence_offset)
    *confidence_offset = has_confidence ? coffset : 0;
  if (confidence_stride)
    *confidence_stride = cstride;
  return coffset + cstride * height;
}

/**
 * gst_buffer_add_cv_disparity_meta:
 * @buffer: the frame the disparity belongs to (writable); a disparity meta
 *   it has already is replaced (one per buffer)
 * @storage: (transfer none): data laid out as gst_cv_disparity_storage_size()
 *   says, in host memory or in CUDA device memory; the meta keeps a reference
 *   and the data must not change afterwards
 * @width: disparity map width, px
 * @height: disparity map height, px
 * @min_disparity: smallest disparity searched, px
 * @max_disparity: largest disparity searched (exclusive), px
 * @has_confidence: whether @storage holds a confidence map
 * @calibration: the stereo calibration
 * @cuda_context: (nullable): the GstCudaContext owning @storage's device
 *   memory (the memory must then map to a device address with
 *   %GST_CV_MAP_DEVICE and download on a plain %GST_MAP_READ), or %NULL
 *   when @storage is host memory
 *
 * Returns: (transfer none) (nullable): the new meta, or %NULL when @storage
 * is too small for the given size
 */
GstCvDisparityMeta *
gst_buffer_add_cv_disparity_meta (GstBuffer * buffer, GstBuffer * storage,
    guint width, guint height, gint min_disparity, gint max_disparity,
    gboolean has_confidence, const GstCvStereoCalibration * calibration,
    GstObject * cuda_context)
{
  GstCvDisparityMeta *meta;
  gsize needed;

  g_return_val_if_fail (GST_IS_BUFFER (buffer), NULL);
  g_return_val_if_fail (GST_IS_BUFFER (storage), NULL);
  g_return_val_if_fail (calibration != NULL, NULL);
  g_return_val_if_fail (width > 0 && height > 0, NULL);

  needed = gst_cv_disparity_storage_size (width, height, has_confidence,
      NULL, NULL, NULL);
  if (gst_buffer_get_size (storage) < needed
      || gst_buffer_n_memory (storage) != 1) {
    GST_WARNING ("disparity storage of %" G_GSIZE_FORMAT " bytes in %u "
        "memories cannot hold %ux%u (needs %" G_GSIZE_FORMAT " in one)",
        gst_buffer_get_size (storage), gst_buffer_n_memory (storage), width,
        height, needed);
    return NULL;
  }

  meta = (GstCvDisparityMeta *) gst_cv_meta_replace (buffer,
      GST_CV_DISPARITY_META_INFO);
  meta->width = width;
  meta->height = height;
  meta->min_disparity = min_disparity;
  meta->max_disparity = max_disparity;
  meta->has_confidence = has_confidence;
  meta->calibration = *calibration;
  meta->storage = gst_buffer_ref (storage);
  gst_cv_disparity_storage_size (width, height, has_confidence,
      &meta->disparity_stride, &meta->confidence_offset,
      &meta->confidence_stride);
  meta->on_device = cuda_context != NULL;
  meta->cuda_context = cuda_context ? gst_object_ref (cuda_context) : NULL;
  return meta;
}

/**
 * gst_buffer_get_cv_disparity_meta:
 * @buffer: a #GstBuffer
 *
 * Returns: (transfer none) (nullable): the disparity meta of @buffer
 */
GstCvDisparityMeta *
gst_buffer_get_cv_disparity_meta (GstBuffer * buffer)
{
  return (GstCvDisparityMeta *) gst_buffer_get_meta (buffer,
      GST_CV_DISPARITY_META_API_TYPE);
}

/**
 * gst_cv_disparity_meta_map:
 * @meta: a #GstCvDisparityMeta
 * @flags: %GST_MAP_READ for host addresses (device data is downloaded, once
 *   per storage), or %GST_MAP_READ | %GST_CV_MAP_DEVICE for device addresses
 *   (fails when the data is on the host)
 * @mapping: (out caller-allocates): the addresses and strides
 *
 * Returns: %TRUE on success; unmap with gst_cv_disparity_meta_unmap()
 */
gboolean
gst_cv_disparity_meta_map (GstCvDisparityMeta * meta, GstMapFlags flags,
    GstCvDisparityMapping * mapping)
{
  gboolean want_device = (flags & GST_CV_MAP_DEVICE) != 0;
  guint8 *base;

  g_return_val_if_fail (meta != NULL && mapping != NULL, FALSE);
  g_return_val_if_fail ((flags & GST_MAP_WRITE) == 0, FALSE);

  memset (mapping, 0, sizeof (*mapping));
  if (want_device && !meta->on_device)
    return FALSE;
  if (!gst_buffer_map (meta->storage, &mapping->info, flags))
    return FALSE;

  base = mapping->info.data;
  mapping->disparity = base;
  mapping->disparity_stride = meta->disparity_stride;
  if (meta->has_confidence) {
    mapping->confidence = base + meta->confidence_offset;
    mapping->confidence_stride = meta->confidence_stride;
  }
  mapping->on_device = want_device;
  return TRUE;
}

/**
 * gst_cv_disparity_meta_unmap:
 * @meta: a #GstCvDisparityMeta
 * @mapping: a mapping filled by gst_cv_disparity_meta_map()
 */
void
gst_cv_disparity_meta_unmap (GstCvDisparityMeta * meta,
    GstCvDisparityMapping * mapping)
{
  g_return_if_fail (meta != NULL && mapping != NULL);
  gst_buffer_unmap (meta->storage, &mapping->info);
  memset (mapping, 0, sizeof (*mapping));
}

/**
 * gst_cv_disparity_meta_get_pixel:
 * @meta: a #GstCvDisparityMeta
 * @x: column
 * @y: row
 * @disparity: (out): the disparity at (@x, @y) in pixels
 *
 * Convenience for scripts: maps the data (downloading it on first use) and
 * reads one value.  Applications reading many values should map once.
 *
 * Returns: %TRUE when (@x, @y) is inside and the value is valid
 */
gboolean
gst_cv_disparity_meta_get_pixel (GstCvDisparityMeta * meta, guint x, guint y,
    gdouble * disparity)
{
  GstCvDisparityMapping m;
  gint16 raw;

  g_return_val_if_fail (meta != NULL && disparity != NULL, FALSE);
  if (x >= meta->width || y >= meta->height)
    return FALSE;
  if (!gst_cv_disparity_meta_map (meta, GST_MAP_READ, &m))
    return FALSE;
  raw = ((const gint16 *) ((const guint8 *) m.disparity +
          y * m.disparity_stride))[x];
  gst_cv_disparity_meta_unmap (meta, &m);
  *disparity = (gdouble) raw / GST_CV_DISPARITY_SCALE;
  return raw >= 0;
}

typedef struct
{
  GstBuffer *storage;           /* keeps the meta's data alive */
  GstCvDisparityMapping mapping;
} HostView;

static void
host_view_free (gpointer data)
{
  HostView *view = data;

  gst_buffer_unmap (view->storage, &view->mapping.info);
  gst_buffer_unref (view->storage);
  g_free (view);
}

static GBytes *
host_view_bytes (GstCvDisparityMeta * meta, gboolean confidence,
    gsize * stride)
{
  HostView *view;
  gpointer data;
  gsize row;

  view = g_new0 (HostView, 1);
  if (!gst_cv_disparity_meta_map (meta, GST_MAP_READ, &view->mapping)) {
    g_free (view);
    return NULL;
  }
  view->storage = gst_buffer_ref (meta->storage);
  data = confidence ? view->mapping.confidence : view->mapping.disparity;
  row = confidence ? view->mapping.confidence_stride :
      view->mapping.disparity_stride;
  if (stride)
    *stride = row;
  return g_bytes_new_with_free_func (data, row * meta->height,
      host_view_free, view);
}

/**
 * gst_cv_disparity_meta_get_disparity_bytes:
 * @meta: a #GstCvDisparityMeta
 * @stride: (out) (optional): bytes between rows
 *
 * The disparity in host memory without a copy (data on the GPU is
 * downloaded once per buffer, as by gst_cv_disparity_meta_map()): @height
 * rows of @stride bytes, each starting with @width native-endian int16
 * values, 4 fractional bits, negative = invalid.  For language bindings
 * (Python: `bytes, stride = meta.get_disparity_bytes()`, then
 * `numpy.frombuffer (bytes.get_data (), numpy.int16)`); the data stays
 * mapped while the #GBytes lives.
 *
 * Returns: (transfer full) (nullable): the data, or %NULL when it cannot be
 * mapped
 */
GBytes *
gst_cv_disparity_meta_get_disparity_bytes (GstCvDisparityMeta * meta,
    gsize * stride)
{
  g_return_val_if_fail (meta != NULL, NULL);
  return host_view_bytes (meta, FALSE, stride);
}

/**
 * gst_cv_disparity_meta_get_confidence_bytes:
 * @meta: a #GstCvDisparityMeta
 * @stride: (out) (optional): bytes between rows
 *
 * The uint8 confidence map (0 = none, 255 = best) in host memory, like
 * gst_cv_disparity_meta_get_disparity_bytes().
 *
 * Returns: (transfer full) (nullable): the data, or %NULL when the meta has
 * no confidence map or it cannot be mapped
 */
GBytes *
gst_cv_disparity_meta_get_confidence_bytes (GstCvDisparityMeta * meta,
    gsize * stride)
{
  g_return_val_if_fail (meta != NULL, NULL);
  if (!meta->has_confidence)
    return NULL;
  return host_view_bytes (meta, TRUE, stride);
}
