/* gst-cudavision: the filter base class every element derives from.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef __GST_CV_FILTER_H__
#define __GST_CV_FILTER_H__

#include <gst/gst.h>
#include <gst/base/gstbasetransform.h>
#include <gst/video/video.h>

#ifdef CV_HAVE_CUDA
#include <gst/cuda/gstcudacontext.h>
#include <gst/cuda/gstcudamemory.h>
#endif

#include "cv_error.h"
#include "cv_frame.h"
#include "gstcvframe.h"

G_BEGIN_DECLS

#define GST_TYPE_CV_FILTER            (gst_cv_filter_get_type ())
#define GST_CV_FILTER(obj)            (G_TYPE_CHECK_INSTANCE_CAST ((obj), GST_TYPE_CV_FILTER, GstCvFilter))
#define GST_CV_FILTER_CLASS(klass)    (G_TYPE_CHECK_CLASS_CAST ((klass), GST_TYPE_CV_FILTER, GstCvFilterClass))
#define GST_CV_FILTER_GET_CLASS(obj)  (G_TYPE_INSTANCE_GET_CLASS ((obj), GST_TYPE_CV_FILTER, GstCvFilterClass))
#define GST_IS_CV_FILTER(obj)         (G_TYPE_CHECK_INSTANCE_TYPE ((obj), GST_TYPE_CV_FILTER))

typedef struct _GstCvFilter GstCvFilter;
typedef struct _GstCvFilterClass GstCvFilterClass;

/**
 * GstCvBackend:
 * @GST_CV_BACKEND_CPU: system memory: the CPU reference implementation
 * @GST_CV_BACKEND_CUDA: CUDA memory: the CUDA implementation
 *
 * The memory of the negotiated input caps decides the backend.
 */
typedef enum
{
  GST_CV_BACKEND_CPU,
  GST_CV_BACKEND_CUDA,
} GstCvBackend;

struct _GstCvFilter
{
  GstBaseTransform parent;

  /*< protected >*/
  GstVideoInfo in_info;         /* negotiated input */
  GstVideoInfo out_info;        /* negotiated output */
  GstCvBackend backend;         /* from the input caps' memory */

  /* Property values of the subclass (settings_size bytes), under the
   * object lock.  Properties set together (one g_object_set, or between
   * g_object_freeze_notify and thaw) land here together, when their
   * notifications are dispatched; process() receives a snapshot taken
   * once per frame, so properties may change while PLAYING. */
  gpointer settings;

#ifdef CV_HAVE_CUDA
  GstCudaContext *context;      /* set when a CUDA context was obtained */
  CUstream stream;              /* owned; all of this element's GPU work */
#endif

  /*< private >*/
  gint device_id;
  gboolean post_messages;
  gpointer staged_settings;     /* as set, not yet committed to settings */
  gpointer frame_settings;
  guint64 transfer_bytes;
  gboolean cuda_ready;
  gboolean caps_error_posted;
  GstCaps *refused_caps;        /* the caps set_info refused last, */
  gpointer refused_settings;    /* with these settings */
};

/**
 * GstCvFilterClass:
 * @settings_size: size of the subclass' settings struct (see #GstCvFilter);
 *   its fields are properties installed with
 *   gst_cv_filter_class_install_setting(), which start at their defaults
 * @transform_caps: caps on the other pad for @caps on the @direction pad
 *   (no filter; the base class intersects with the templates and the
 *   filter and puts CUDA memory first); %NULL: the same caps (in-place
 *   elements)
 * @caps_rejection: why fixed input caps that the sink pad refuses cannot
 *   work, as a newly allocated message, or %NULL to leave the refusal to
 *   GStreamer's not-negotiated error (which does not say why); the base
 *   class posts the message as a negotiation error, once per run.  The
 *   default names a media type, memory or format the sink template lacks
 *   (gst_cv_caps_refusal); an override for what else its transform_caps
 *   refuses chains up to it
 * @set_info: called when caps are set; check what the caps cannot tell
 *   (return %FALSE with a GST_ELEMENT_ERROR saying why) and size state
 * @process_cpu: processes one frame in system memory; @outbuf == @inbuf for
 *   in-place elements.  A mapped GstVideoFrame holds a reference to its
 *   buffer (making it read-only for metadata): unmap before adding metas
 * @process_cuda: processes one frame in CUDA memory, with the element's
 *   CUDA context pushed; enqueue work on @filter->stream: the base class
 *   synchronises it (and reports asynchronous CUDA faults) afterwards
 * @release: frees backend resources; called at stop (with the CUDA context
 *   pushed when there is one) and before a backend switch
 */
struct _GstCvFilterClass
{
  GstBaseTransformClass parent_class;

  gsize settings_size;

  GstCaps *(*transform_caps) (GstCvFilter * filter, GstPadDirection direction,
      GstCaps * caps);
  gchar *(*caps_rejection) (GstCvFilter * filter, GstCaps * caps);

  gboolean (*set_info) (GstCvFilter * filter, GstCaps * incaps,
      const GstVideoInfo * in_info, GstCaps * outcaps,
      const GstVideoInfo * out_info);
  GstFlowReturn (*process_cpu) (GstCvFilter * filter, gconstpointer settings,
      GstBuffer * inbuf, GstBuffer * outbuf);
  GstFlowReturn (*process_cuda) (GstCvFilter * filter, gconstpointer settings,
      GstBuffer * inbuf, GstBuffer * outbuf);
  void (*release) (GstCvFilter * filter);
};

GType gst_cv_filter_get_type (void);

/* ---- for subclasses' class_init ---------------------------------------- */

/* Caps of both memory kinds: @cuda_formats in memory:CUDAMemory (ignored
 * without CUDA) and @system_formats in system memory, e.g. "{ NV12, RGBA }". */
GstCaps *gst_cv_filter_make_caps (const gchar * cuda_formats,
    const gchar * system_formats);

void gst_cv_filter_class_add_pad_templates (GstCvFilterClass * klass,
    GstCaps * sink_caps, GstCaps * src_caps);

/* In-place elements (the frame passes through, results are added as metas
 * and optionally drawn into it) call this in class_init. */
void gst_cv_filter_class_set_in_place (GstCvFilterClass * klass);

/* Installs @pspec (taken) as property @prop_id of @klass whose value lives
 * in the settings struct at @offset (G_STRUCT_OFFSET): the base class sets
 * and gets it under the object lock, and a new element's settings start at
 * the pspec's default.  The field's C type follows the pspec's value type:
 * gboolean, gint (and enums), guint, gfloat or gdouble.  A subclass whose
 * properties are all settings needs no set_property / get_property. */
void gst_cv_filter_class_install_setting (GstCvFilterClass * klass,
    guint prop_id, GParamSpec * pspec, gsize offset);

/* TRUE when @pspec is flagged GST_PARAM_MUTABLE_READY and @element is in
 * PAUSED or PLAYING: the change is refused with a warning that says so
 * (the settings do it for every element; other set_property functions
 * call it first). */
gboolean gst_cv_element_refuses_change (GstElement * element,
    GParamSpec * pspec);

/* ---- for process() ------------------------------------------------------ */

/* Maps @buffer for the current backend (device addresses for CUDA).
 * Posts an element error and returns FALSE on failure. */
gboolean gst_cv_filter_map_frame (GstCvFilter * filter, GstBuffer * buffer,
    const GstVideoInfo * info, GstMapFlags flags, GstVideoFrame * frame);

/* Reports a failed core call as GST_ELEMENT_ERROR (CUDA failures carry the
 * call and the CUDA error string) and returns GST_FLOW_ERROR.  The message
 * is "@what: the core's message" in the property words below, without the
 * core's own prefix when it repeats @what. */
GstFlowReturn gst_cv_filter_core_error (GstCvFilter * filter,
    const gchar * what, const CvError * err);

/* @message (a core's, which names its C fields: max_disparity) with each
 * field that is a property of @filter named as the property is
 * (max-disparity); free with g_free. */
gchar *gst_cv_filter_property_words (GstCvFilter * filter,
    const gchar * message);

/* TRUE when `post-messages` is on: build the frame's summary only then. */
gboolean gst_cv_filter_wants_summary (GstCvFilter * filter);

/* Posts @summary (taken) as an element message, adding the buffer's
 * "timestamp" and "stream-time" (GstClockTime) fields; each element's docs
 * page (docs/elements/) describes its structure. */
void gst_cv_filter_post_summary (GstCvFilter * filter, GstBuffer * buffer,
    GstStructure * summary);

/* Counts bytes copied between host and device (the `transfer-bytes`
 * property), so the no-host-copies rule of the chain can be measured. */
void gst_cv_filter_count_transfer (GstCvFilter * filter, gsize bytes);

/* Filters of this process running their CUDA backend (holding a CUDA
 * stream), the caller included: more than one, and the GPU is shared with
 * the others' kernels. */
gint gst_cv_filter_cuda_filters (void);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (GstCvFilter, gst_object_unref)

G_END_DECLS
#endif /* __GST_CV_FILTER_H__ */
