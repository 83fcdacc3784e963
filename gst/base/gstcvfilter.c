/* gst-cudavision: the filter base class every element derives from.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/**
 * SECTION:gstcvfilter
 * @title: GstCvFilter
 * @short_description: base class of the cudavision elements
 *
 * A #GstBaseTransform that works on `video/x-raw(memory:CUDAMemory)` with the
 * element's CUDA implementation and on system memory with its CPU reference
 * implementation: the memory of the negotiated input decides.  It handles
 * the CUDA context (sharing it with neighbours through context queries and
 * messages, `cuda-device-id`), owns one CUDA stream per element, proposes and
 * decides #GstCudaBufferPool allocation, snapshots the subclass' properties
 * once per frame under the object lock, and turns every failure into a
 * GST_ELEMENT_ERROR that says what failed (for CUDA: the call and the CUDA
 * error string) - nothing aborts the process.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcvfilter.h"
#include "gstcvcapsrefusal.h"

#include <string.h>

#ifdef CV_HAVE_CUDA
#include <gst/cuda/gstcudabufferpool.h>
#include <gst/cuda/gstcudaloader.h>
#include <gst/cuda/gstcudautils.h>
#endif

GST_DEBUG_CATEGORY_STATIC (gst_cv_filter_debug);
#define GST_CAT_DEFAULT gst_cv_filter_debug

#define DEFAULT_PROP_CUDA_DEVICE_ID (-1)
#define DEFAULT_PROP_POST_MESSAGES FALSE

/* Buffers a CUDA pool we create keeps ready: one being processed, one
 * downstream, one in flight upstream of a queue. */
#define CUDA_POOL_MIN_BUFFERS 3

enum
{
  PROP_0,
  PROP_CUDA_DEVICE_ID,
  PROP_TRANSFER_BYTES,
  PROP_POST_MESSAGES,
};

static GstBaseTransformClass *parent_class = NULL;
static void gst_cv_filter_class_init (gpointer g_class, gpointer data);
static void gst_cv_filter_init (GTypeInstance * instance, gpointer g_class);

/* Written out (not G_DEFINE_TYPE) because instance init needs the class of
 * the object being created, to size the subclass' settings: during a parent
 * instance_init, G_TYPE_INSTANCE_GET_CLASS still gives the parent class. */
GType
gst_cv_filter_get_type (void)
{
  static GType type = 0;

  if (g_once_init_enter (&type)) {
    static const GTypeInfo info = {
      sizeof (GstCvFilterClass), NULL, NULL, gst_cv_filter_class_init, NULL,
      NULL, sizeof (GstCvFilter), 0, gst_cv_filter_init, NULL
    };
    GType t = g_type_register_static (GST_TYPE_BASE_TRANSFORM, "GstCvFilter",
        &info, G_TYPE_FLAG_ABSTRACT);
    GST_DEBUG_CATEGORY_INIT (gst_cv_filter_debug, "cvfilter", 0,
        "cudavision filter base class");
    g_once_init_leave (&type, t);
  }
  return type;
}

/* ---- caps helpers ------------------------------------------------------- */

/* Any size and rate, progressive only: rows of one frame are matched,
 * fitted and voted on as neighbours, and woven fields would make every
 * second row a different instant (field buffers half a frame). */
#define FRAME_FIELDS "width = (int) [ 1, max ], height = (int) [ 1, max ], " \
    "framerate = (fraction) [ 0, max ], interlace-mode = (string) progressive"

GstCaps *
gst_cv_filter_make_caps (const gchar * cuda_formats,
    const gchar * system_formats)
{
  GstCaps *caps = gst_caps_new_empty ();

#ifdef CV_HAVE_CUDA
  if (cuda_formats != NULL) {
    gchar *s = g_strdup_printf ("video/x-raw(" GST_CAPS_FEATURE_MEMORY_CUDA_MEMORY
        "), format = (string) %s, " FRAME_FIELDS, cuda_formats);
    gst_caps_append (caps, gst_caps_from_string (s));
    g_free (s);
  }
#endif
  if (system_formats != NULL) {
    gchar *s = g_strdup_printf ("video/x-raw, format = (string) %s, "
        FRAME_FIELDS, system_formats);
    gst_caps_append (caps, gst_caps_from_string (s));
    g_free (s);
  }
  return caps;
}

void
gst_cv_filter_class_add_pad_templates (GstCvFilterClass * klass,
    GstCaps * sink_caps, GstCaps * src_caps)
{
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);

  gst_element_class_add_pad_template (element_class,
      gst_pad_template_new ("sink", GST_PAD_SINK, GST_PAD_ALWAYS, sink_caps));
  gst_element_class_add_pad_template (element_class,
      gst_pad_template_new ("src", GST_PAD_SRC, GST_PAD_ALWAYS, src_caps));
  gst_caps_unref (sink_caps);
  gst_caps_unref (src_caps);
}

void
gst_cv_filter_class_set_in_place (GstCvFilterClass * klass)
{
  /* GstBaseTransform treats a class without transform() as always in place
   * and then proxies allocation queries downstream. */
  GST_BASE_TRANSFORM_CLASS (klass)->transform = NULL;
}

static gboolean
caps_are_cuda (GstCaps * caps)
{
#ifdef CV_HAVE_CUDA
  return gst_cv_caps_features_are_cuda (gst_caps_get_features (caps, 0));
#else
  return FALSE;
#endif
}

/* @caps with its memory:CUDAMemory structures first (order kept otherwise).
 * Upstream elements such as cudaupload list system memory first and
 * fixate the first structure both sides accept; without this a pipeline
 * `cudaupload ! cudasgm` would silently run the CPU backend. */
static GstCaps *
prefer_cuda_memory (GstCaps * caps)
{
  GstCaps *result = gst_caps_new_empty ();

  for (gint pass = 0; pass < 2; pass++) {
    for (guint i = 0; i < gst_caps_get_size (caps); i++) {
      GstCapsFeatures *f = gst_caps_get_features (caps, i);
      gboolean cuda = gst_cv_caps_features_are_cuda (f);

      if (cuda == (pass == 0))
        gst_caps_append_structure_full (result,
            gst_structure_copy (gst_caps_get_structure (caps, i)),
            f ? gst_caps_features_copy (f) : NULL);
    }
  }
  gst_caps_unref (caps);
  return result;
}

/* ---- CUDA context and stream ------------------------------------------- */

#ifdef CV_HAVE_CUDA
static gboolean
cuda_result (GstCvFilter * filter, CUresult result, const gchar * call)
{
  const gchar *name = NULL, *text = NULL;

  if (result == CUDA_SUCCESS)
    return TRUE;
  CuGetErrorName (result, &name);
  CuGetErrorString (result, &text);
  GST_ELEMENT_ERROR (filter, LIBRARY, FAILED,
      ("CUDA call %s failed: %s", call, text ? text : "unknown error"),
      ("%s returned %d (%s)", call, (gint) result, name ? name : "?"));
  return FALSE;
}
#endif

/* Filters holding a CUDA stream (gst_cv_filter_cuda_filters). */
static gint cuda_filters;

gint
gst_cv_filter_cuda_filters (void)
{
  return g_atomic_int_get (&cuda_filters);
}

/* Obtains the CUDA context (shared with neighbours when they have one) and
 * creates the element's stream. */
static gboolean
gst_cv_filter_ensure_cuda (GstCvFilter * filter)
{
#ifdef CV_HAVE_CUDA
  if (filter->cuda_ready)
    return TRUE;

  if (!gst_cuda_load_library ()) {
    GST_ELEMENT_ERROR (filter, RESOURCE, NOT_FOUND,
        ("CUDA memory was negotiated but the CUDA driver library could not "
            "be loaded"), ("gst_cuda_load_library() failed: is the NVIDIA "
            "driver installed?"));
    return FALSE;
  }
  if (!gst_cuda_ensure_element_context (GST_ELEMENT_CAST (filter),
          filter->device_id, &filter->context)) {
    GST_ELEMENT_ERROR (filter, RESOURCE, NOT_FOUND,
        ("No CUDA context for device %d", filter->device_id),
        ("gst_cuda_ensure_element_context() failed: no usable CUDA device"));
    return FALSE;
  }
  if (!gst_cuda_context_push (filter->context)) {
    GST_ELEMENT_ERROR (filter, LIBRARY, FAILED,
        ("Could not make the CUDA context current"),
        ("gst_cuda_context_push() failed"));
    return FALSE;
  }
  /* Non-blocking: our work does not serialise with the legacy default
   * stream of other elements; we synchronise before pushing each buffer. */
  if (!cuda_result (filter, CuStreamCreate (&filter->stream,
              CU_STREAM_NON_BLOCKING), "cuStreamCreate")) {
    gst_cuda_context_pop (NULL);
    return FALSE;
  }
  gst_cuda_context_pop (NULL);
  filter->cuda_ready = TRUE;
  g_atomic_int_inc (&cuda_filters);
  return TRUE;
#else
  GST_ELEMENT_ERROR (filter, CORE, NOT_IMPLEMENTED,
      ("This build of gst-cudavision has no CUDA backend"),
      ("configure with -Dcuda=enabled and a CUDA toolkit"));
  return FALSE;
#endif
}

static void
gst_cv_filter_release_backend (GstCvFilter * filter)
{
  GstCvFilterClass *klass = GST_CV_FILTER_GET_CLASS (filter);

#ifdef CV_HAVE_CUDA
  if (filter->context != NULL && gst_cuda_context_push (filter->context)) {
    if (klass->release)
      klass->release (filter);
    gst_cuda_context_pop (NULL);
    return;
  }
#endif
  if (klass->release)
    klass->release (filter);
}

static void
gst_cv_filter_free_cuda (GstCvFilter * filter)
{
#ifdef CV_HAVE_CUDA
  if (filter->stream != NULL && gst_cuda_context_push (filter->context)) {
    CuStreamDestroy (filter->stream);
    gst_cuda_context_pop (NULL);
  }
  filter->stream = NULL;
  gst_clear_object (&filter->context);
  if (filter->cuda_ready)
    g_atomic_int_add (&cuda_filters, -1);
  filter->cuda_ready = FALSE;
#endif
}

/* ---- GObject / GstElement ------------------------------------------------ */

static void
gst_cv_filter_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstCvFilter *filter = GST_CV_FILTER (object);

  if (gst_cv_element_refuses_change (GST_ELEMENT (object), pspec))
    return;
  switch (prop_id) {
    case PROP_CUDA_DEVICE_ID:
      GST_OBJECT_LOCK (filter);
      filter->device_id = g_value_get_int (value);
      GST_OBJECT_UNLOCK (filter);
      break;
    case PROP_POST_MESSAGES:
      GST_OBJECT_LOCK (filter);
      filter->post_messages = g_value_get_boolean (value);
      GST_OBJECT_UNLOCK (filter);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
}

static void
gst_cv_filter_get_property (GObject * object, guint prop_id, GValue * value,
    GParamSpec * pspec)
{
  GstCvFilter *filter = GST_CV_FILTER (object);

  switch (prop_id) {
    case PROP_CUDA_DEVICE_ID:
      GST_OBJECT_LOCK (filter);
      g_value_set_int (value, filter->device_id);
      GST_OBJECT_UNLOCK (filter);
      break;
    case PROP_TRANSFER_BYTES:
      GST_OBJECT_LOCK (filter);
      g_value_set_uint64 (value, filter->transfer_bytes);
      GST_OBJECT_UNLOCK (filter);
      break;
    case PROP_POST_MESSAGES:
      GST_OBJECT_LOCK (filter);
      g_value_set_boolean (value, filter->post_messages);
      GST_OBJECT_UNLOCK (filter);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
}

/* ---- settings: properties stored in the subclass' settings struct ------- */

static GQuark setting_offset_quark;

/* Where @pspec's value lives in @filter's staged settings (NULL: not a
 * setting).  set_property writes there and get_property reads there;
 * dispatch_properties_changed commits them, so that one g_object_set of
 * dependent properties (min-theta with max-theta) reaches a frame whole. */
static gpointer
setting_field (GstCvFilter * filter, GParamSpec * pspec)
{
  gsize offset_1 = GPOINTER_TO_SIZE (g_param_spec_get_qdata (pspec,
          setting_offset_quark));

  return offset_1 ? G_STRUCT_MEMBER_P (filter->staged_settings,
      offset_1 - 1) : NULL;
}

static void
setting_from_value (gpointer field, const GValue * value)
{
  switch (G_TYPE_FUNDAMENTAL (G_VALUE_TYPE (value))) {
    case G_TYPE_BOOLEAN:
      *(gboolean *) field = g_value_get_boolean (value);
      break;
    case G_TYPE_INT:
      *(gint *) field = g_value_get_int (value);
      break;
    case G_TYPE_ENUM:
      *(gint *) field = g_value_get_enum (value);
      break;
    case G_TYPE_UINT:
      *(guint *) field = g_value_get_uint (value);
      break;
    case G_TYPE_FLOAT:
      *(gfloat *) field = g_value_get_float (value);
      break;
    case G_TYPE_DOUBLE:
      *(gdouble *) field = g_value_get_double (value);
      break;
    default:
      g_assert_not_reached ();  /* refused by install_setting */
  }
}

static void
setting_to_value (gconstpointer field, GValue * value)
{
  switch (G_TYPE_FUNDAMENTAL (G_VALUE_TYPE (value))) {
    case G_TYPE_BOOLEAN:
      g_value_set_boolean (value, *(const gboolean *) field);
      break;
    case G_TYPE_INT:
      g_value_set_int (value, *(const gint *) field);
      break;
    case G_TYPE_ENUM:
      g_value_set_enum (value, *(const gint *) field);
      break;
    case G_TYPE_UINT:
      g_value_set_uint (value, *(const guint *) field);
      break;
    case G_TYPE_FLOAT:
      g_value_set_float (value, *(const gfloat *) field);
      break;
    case G_TYPE_DOUBLE:
      g_value_set_double (value, *(const gdouble *) field);
      break;
    default:
      g_assert_not_reached ();
  }
}

/* GObject dispatches the notifications of a g_object_set (or of changes
 * between g_object_freeze_notify and thaw) once, after the last property
 * was set: those properties' staged values become the settings frames see.
 * Only those: another thread's g_object_set may be half-way through
 * staging its own. */
static void
gst_cv_filter_dispatch_properties_changed (GObject * object, guint n_pspecs,
    GParamSpec ** pspecs)
{
  GstCvFilter *filter = GST_CV_FILTER (object);

  GST_OBJECT_LOCK (filter);
  for (guint i = 0; i < n_pspecs; i++) {
    guint8 *staged = setting_field (filter, pspecs[i]);
    GValue value = G_VALUE_INIT;

    if (staged == NULL)
      continue;
    g_value_init (&value, G_PARAM_SPEC_VALUE_TYPE (pspecs[i]));
    setting_to_value (staged, &value);
    setting_from_value ((guint8 *) filter->settings +
        (staged - (guint8 *) filter->staged_settings), &value);
    g_value_unset (&value);
  }
  GST_OBJECT_UNLOCK (filter);
  G_OBJECT_CLASS (parent_class)->dispatch_properties_changed (object,
      n_pspecs, pspecs);
}

gboolean
gst_cv_element_refuses_change (GstElement * element, GParamSpec * pspec)
{
  GstState state;

  if (!(pspec->flags & GST_PARAM_MUTABLE_READY))
    return FALSE;
  GST_OBJECT_LOCK (element);
  state = GST_STATE (element);
  GST_OBJECT_UNLOCK (element);
  if (state <= GST_STATE_READY)
    return FALSE;
  g_warning ("%s: property '%s' can only change in the NULL or READY state "
      "(the element is %s): the change is ignored", GST_ELEMENT_NAME (element),
      pspec->name, gst_element_state_get_name (state));
  return TRUE;
}

static void
setting_set_property (GObject * object, guint prop_id, const GValue * value,
    GParamSpec * pspec)
{
  GstCvFilter *filter = GST_CV_FILTER (object);
  gpointer field = setting_field (filter, pspec);

  if (field == NULL) {
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    return;
  }
  if (gst_cv_element_refuses_change (GST_ELEMENT (object), pspec))
    return;
  GST_OBJECT_LOCK (filter);
  setting_from_value (field, value);
  GST_OBJECT_UNLOCK (filter);
}

static void
setting_get_property (GObject * object, guint prop_id, GValue * value,
    GParamSpec * pspec)
{
  GstCvFilter *filter = GST_CV_FILTER (object);
  gpointer field = setting_field (filter, pspec);

  if (field == NULL) {
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    return;
  }
  GST_OBJECT_LOCK (filter);
  setting_to_value (field, value);
  GST_OBJECT_UNLOCK (filter);
}

void
gst_cv_filter_class_install_setting (GstCvFilterClass * klass, guint prop_id,
    GParamSpec * pspec, gsize offset)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GType fundamental = G_TYPE_FUNDAMENTAL (G_PARAM_SPEC_VALUE_TYPE (pspec));

  g_return_if_fail (fundamental == G_TYPE_BOOLEAN || fundamental == G_TYPE_INT
      || fundamental == G_TYPE_ENUM || fundamental == G_TYPE_UINT
      || fundamental == G_TYPE_FLOAT || fundamental == G_TYPE_DOUBLE);
  /* a change reaches frames through its notification */
  g_return_if_fail ((pspec->flags & G_PARAM_READWRITE) == G_PARAM_READWRITE
      && !(pspec->flags & G_PARAM_EXPLICIT_NOTIFY));
  /* what may change while PLAYING may follow a GstControlBinding too
   * (before_transform syncs the values to each frame's stream time) */
  if (!(pspec->flags & GST_PARAM_MUTABLE_READY))
    pspec->flags |= GST_PARAM_CONTROLLABLE;
  g_param_spec_set_qdata (pspec, setting_offset_quark,
      GSIZE_TO_POINTER (offset + 1));
  gobject_class->set_property = setting_set_property;
  gobject_class->get_property = setting_get_property;
  g_object_class_install_property (gobject_class, prop_id, pspec);
}

/* Every setting of @klass at its pspec's default. */
static void
settings_set_defaults (GstCvFilter * filter, GstCvFilterClass * klass)
{
  guint n;
  GParamSpec **pspecs =
      g_object_class_list_properties (G_OBJECT_CLASS (klass), &n);

  for (guint i = 0; i < n; i++) {
    gpointer field = setting_field (filter, pspecs[i]);
    if (field != NULL)
      setting_from_value (field, g_param_spec_get_default_value (pspecs[i]));
  }
  g_free (pspecs);
}

static void
gst_cv_filter_finalize (GObject * object)
{
  GstCvFilter *filter = GST_CV_FILTER (object);

  g_free (filter->settings);
  g_free (filter->staged_settings);
  g_free (filter->frame_settings);
  gst_caps_replace (&filter->refused_caps, NULL);
  g_free (filter->refused_settings);
  gst_cv_filter_free_cuda (filter);
  G_OBJECT_CLASS (parent_class)->finalize (object);
}

static void
gst_cv_filter_set_context (GstElement * element, GstContext * context)
{
#ifdef CV_HAVE_CUDA
  GstCvFilter *filter = GST_CV_FILTER (element);

  if (gst_cuda_load_library ())
    gst_cuda_handle_set_context (element, context, filter->device_id,
        &filter->context);
#endif
  GST_ELEMENT_CLASS (parent_class)->set_context (element, context);
}

/* ---- GstBaseTransform ----------------------------------------------------- */

static gboolean
gst_cv_filter_start (GstBaseTransform * trans)
{
  GstCvFilter *filter = GST_CV_FILTER (trans);
  gint device_id;

  GST_OBJECT_LOCK (filter);
  device_id = filter->device_id;
  filter->transfer_bytes = 0;
  filter->caps_error_posted = FALSE;
  GST_OBJECT_UNLOCK (filter);
  gst_caps_replace (&filter->refused_caps, NULL);

  /* An explicit device must exist, whatever memory gets negotiated later:
   * asking for a GPU that is not there is a configuration error. */
  if (device_id >= 0) {
#ifdef CV_HAVE_CUDA
    gint n_devices = 0;

    if (gst_cuda_load_library ())
      CuDeviceGetCount (&n_devices);
    if (device_id >= n_devices) {
      GST_ELEMENT_ERROR (filter, RESOURCE, NOT_FOUND,
          ("cuda-device-id=%d, but this system has %d CUDA device(s)",
              device_id, n_devices),
          ("valid values are -1 (any) and 0 .. %d", n_devices - 1));
      return FALSE;
    }
#else
    GST_ELEMENT_ERROR (filter, RESOURCE, NOT_FOUND,
        ("cuda-device-id=%d, but this build has no CUDA backend", device_id),
        ("use cuda-device-id=-1 with system memory"));
    return FALSE;
#endif
  }
  return TRUE;
}

static gboolean
gst_cv_filter_stop (GstBaseTransform * trans)
{
  GstCvFilter *filter = GST_CV_FILTER (trans);

  gst_cv_filter_release_backend (filter);
  gst_cv_filter_free_cuda (filter);
  return TRUE;
}

/* Whether the element's settings equal @snapshot (a copy of them). */
static gboolean
settings_unchanged_since (GstCvFilter * filter, gconstpointer snapshot)
{
  gsize size = GST_CV_FILTER_GET_CLASS (filter)->settings_size;
  gboolean same;

  GST_OBJECT_LOCK (filter);
  same = size == 0 || memcmp (filter->settings, snapshot, size) == 0;
  GST_OBJECT_UNLOCK (filter);
  return same;
}

static gboolean
gst_cv_filter_set_caps (GstBaseTransform * trans, GstCaps * incaps,
    GstCaps * outcaps)
{
  GstCvFilter *filter = GST_CV_FILTER (trans);
  GstCvFilterClass *klass = GST_CV_FILTER_GET_CLASS (filter);
  GstVideoInfo in_info, out_info;
  GstCvBackend backend;

  if (!gst_video_info_from_caps (&in_info, incaps)
      || !gst_video_info_from_caps (&out_info, outcaps)) {
    GST_ELEMENT_ERROR (filter, CORE, NEGOTIATION, ("Invalid caps"),
        ("in %" GST_PTR_FORMAT ", out %" GST_PTR_FORMAT, incaps, outcaps));
    return FALSE;
  }
  /* upstream offers refused caps again after its not-negotiated: the
   * same caps with the same settings get the same verdict, without a
   * second error message */
  if (filter->refused_caps != NULL
      && gst_caps_is_equal (incaps, filter->refused_caps)
      && settings_unchanged_since (filter, filter->refused_settings)) {
    GST_DEBUG_OBJECT (filter, "refused again: %" GST_PTR_FORMAT, incaps);
    return FALSE;
  }

  backend = caps_are_cuda (incaps) ? GST_CV_BACKEND_CUDA : GST_CV_BACKEND_CPU;
  if (backend != filter->backend)
    gst_cv_filter_release_backend (filter);
  filter->backend = backend;
  if (backend == GST_CV_BACKEND_CUDA && !gst_cv_filter_ensure_cuda (filter))
    return FALSE;

  filter->in_info = in_info;
  filter->out_info = out_info;
  GST_DEBUG_OBJECT (filter, "%s backend, in %" GST_PTR_FORMAT ", out %"
      GST_PTR_FORMAT, backend == GST_CV_BACKEND_CUDA ? "CUDA" : "CPU",
      incaps, outcaps);

  if (klass->set_info && !klass->set_info (filter, incaps, &in_info, outcaps,
          &out_info)) {
    gst_caps_replace (&filter->refused_caps, incaps);
    g_free (filter->refused_settings);
    GST_OBJECT_LOCK (filter);
    filter->refused_settings = g_memdup2 (filter->settings,
        klass->settings_size);
    GST_OBJECT_UNLOCK (filter);
    return FALSE;
  }
  gst_caps_replace (&filter->refused_caps, NULL);
  return TRUE;
}

static GstCaps *
gst_cv_filter_transform_caps (GstBaseTransform * trans,
    GstPadDirection direction, GstCaps * caps, GstCaps * filter)
{
  GstCvFilter *self = GST_CV_FILTER (trans);
  GstCvFilterClass *klass = GST_CV_FILTER_GET_CLASS (self);
  GstPad *other = direction == GST_PAD_SINK ? trans->srcpad : trans->sinkpad;
  GstCaps *templ = gst_pad_get_pad_template_caps (other);
  GstCaps *result, *tmp;

  result = klass->transform_caps ? klass->transform_caps (self, direction,
      caps) : gst_caps_ref (caps);
  tmp = gst_caps_intersect_full (result, templ, GST_CAPS_INTERSECT_FIRST);
  gst_caps_unref (result);
  gst_caps_unref (templ);
  result = prefer_cuda_memory (tmp);
  if (filter) {
    /* our order first: it is the preference we announce */
    tmp = gst_caps_intersect_full (result, filter, GST_CAPS_INTERSECT_FIRST);
    gst_caps_unref (result);
    result = tmp;
  }
  GST_TRACE_OBJECT (self, "%s %" GST_PTR_FORMAT " -> %" GST_PTR_FORMAT,
      direction == GST_PAD_SINK ? "sink" : "src", caps, result);
  return result;
}

static gchar *
gst_cv_filter_caps_rejection (GstCvFilter * filter, GstCaps * caps)
{
  GstCaps *templ =
      gst_pad_get_pad_template_caps (GST_BASE_TRANSFORM_SINK_PAD (filter));
  gchar *why = gst_cv_caps_refusal (GST_ELEMENT (filter), templ, caps);

  gst_caps_unref (templ);
  return why;
}

/* Fixed input caps the element refuses get an error that says why, once
 * per run (upstream's not-negotiated error does not say); any other
 * refusal is left to the stock handling. */
static gboolean
gst_cv_filter_accept_caps (GstBaseTransform * trans,
    GstPadDirection direction, GstCaps * caps)
{
  GstCvFilter *self = GST_CV_FILTER (trans);
  GstCvFilterClass *klass = GST_CV_FILTER_GET_CLASS (self);
  gchar *why;
  gboolean first;

  if (GST_BASE_TRANSFORM_CLASS (parent_class)->accept_caps (trans, direction,
          caps))
    return TRUE;
  if (direction != GST_PAD_SINK || !gst_caps_is_fixed (caps))
    return FALSE;
  why = klass->caps_rejection (self, caps);
  if (why == NULL)
    return FALSE;

  GST_OBJECT_LOCK (self);
  first = !self->caps_error_posted;
  self->caps_error_posted = TRUE;
  GST_OBJECT_UNLOCK (self);
  if (first)
    GST_ELEMENT_ERROR (self, CORE, NEGOTIATION, ("%s", why),
        ("refused input caps %" GST_PTR_FORMAT, caps));
  else
    GST_WARNING_OBJECT (self, "%s", why);
  g_free (why);
  return FALSE;
}

/* The other side's buffer size from its caps alone: a buffer may be larger
 * than its caps' packed size (rows or planes padded, as a GstVideoMeta
 * describes: cameras, decoders, aligned pools), which the stock rule (a
 * multiple of the caps' frame size) refuses. */
static gboolean
gst_cv_filter_transform_size (GstBaseTransform * trans,
    GstPadDirection direction, GstCaps * caps, gsize size, GstCaps * othercaps,
    gsize * othersize)
{
  GstVideoInfo info;

  if (!gst_video_info_from_caps (&info, othercaps))
    return FALSE;
  *othersize = GST_VIDEO_INFO_SIZE (&info);
  return TRUE;
}

static gboolean
gst_cv_filter_query (GstBaseTransform * trans, GstPadDirection direction,
    GstQuery * query)
{
#ifdef CV_HAVE_CUDA
  GstCvFilter *filter = GST_CV_FILTER (trans);

  if (GST_QUERY_TYPE (query) == GST_QUERY_CONTEXT
      && gst_cuda_handle_context_query (GST_ELEMENT_CAST (filter), query,
          filter->context))
    return TRUE;
#endif
  return GST_BASE_TRANSFORM_CLASS (parent_class)->query (trans, direction,
      query);
}

#ifdef CV_HAVE_CUDA
/* A CUDA pool for @caps in our context, configured; NULL on failure. */
static GstBufferPool *
make_cuda_pool (GstCvFilter * filter, GstCaps * caps, guint * size)
{
  GstVideoInfo info;
  GstBufferPool *pool;
  GstStructure *config;

  if (!gst_video_info_from_caps (&info, caps))
    return NULL;
  pool = gst_cuda_buffer_pool_new (filter->context);
  config = gst_buffer_pool_get_config (pool);
  gst_buffer_pool_config_add_option (config, GST_BUFFER_POOL_OPTION_VIDEO_META);
  gst_buffer_pool_config_set_params (config, caps, GST_VIDEO_INFO_SIZE (&info),
      CUDA_POOL_MIN_BUFFERS, 0);
  if (!gst_buffer_pool_set_config (pool, config)) {
    GST_WARNING_OBJECT (filter, "CUDA pool rejected its configuration");
    gst_object_unref (pool);
    return NULL;
  }
  /* the pool may have aligned the size */
  config = gst_buffer_pool_get_config (pool);
  gst_buffer_pool_config_get_params (config, NULL, size, NULL, NULL);
  gst_structure_free (config);
  return pool;
}
#endif

static gboolean
gst_cv_filter_propose_allocation (GstBaseTransform * trans,
    GstQuery * decide_query, GstQuery * query)
{
  GstCaps *caps;

  /* In-place: upstream writes into what we push, so downstream decides
   * (the parent class proxies the query), except for crop metas: the
   * frames are read as the caps describe them, and upstream (videocrop)
   * would otherwise hand over the uncropped frame with a crop meta. */
  if (decide_query == NULL) {
    gboolean ok =
        GST_BASE_TRANSFORM_CLASS (parent_class)->propose_allocation (trans,
        decide_query, query);
    guint index;

    while (gst_query_find_allocation_meta (query,
            GST_VIDEO_CROP_META_API_TYPE, &index))
      gst_query_remove_nth_allocation_meta (query, index);
    return ok;
  }

  gst_query_parse_allocation (query, &caps, NULL);
  if (caps == NULL)
    return FALSE;

#ifdef CV_HAVE_CUDA
  if (caps_are_cuda (caps) && gst_query_get_n_allocation_pools (query) == 0) {
    GstCvFilter *filter = GST_CV_FILTER (trans);
    GstBufferPool *pool;
    guint size;

    if (!gst_cv_filter_ensure_cuda (filter))
      return FALSE;
    pool = make_cuda_pool (filter, caps, &size);
    if (pool == NULL)
      return FALSE;
    gst_query_add_allocation_pool (query, pool, size, CUDA_POOL_MIN_BUFFERS,
        0);
    gst_object_unref (pool);
  }
#endif
  gst_query_add_allocation_meta (query, GST_VIDEO_META_API_TYPE, NULL);
  return TRUE;
}

static gboolean
gst_cv_filter_decide_allocation (GstBaseTransform * trans, GstQuery * query)
{
  GstCaps *caps;

  gst_query_parse_allocation (query, &caps, NULL);
  if (caps == NULL)
    return FALSE;

#ifdef CV_HAVE_CUDA
  if (caps_are_cuda (caps)) {
    GstCvFilter *filter = GST_CV_FILTER (trans);
    GstBufferPool *pool = NULL;
    guint size = 0, min = 0, max = 0;
    gboolean update = gst_query_get_n_allocation_pools (query) > 0;

    if (!gst_cv_filter_ensure_cuda (filter))
      return FALSE;
    if (update) {
      gst_query_parse_nth_allocation_pool (query, 0, &pool, &size, &min, &max);
      /* only a CUDA pool of our own context gives memory our kernels can
       * write without a copy */
      if (pool != NULL && (!GST_IS_CUDA_BUFFER_POOL (pool)
              || GST_CUDA_BUFFER_POOL (pool)->context != filter->context))
        gst_clear_object (&pool);
    }
    if (pool == NULL) {
      pool = make_cuda_pool (filter, caps, &size);
      if (pool == NULL)
        return FALSE;
      min = MAX (min, CUDA_POOL_MIN_BUFFERS);
    } else {
      GstStructure *config = gst_buffer_pool_get_config (pool);

      gst_buffer_pool_config_add_option (config,
          GST_BUFFER_POOL_OPTION_VIDEO_META);
      gst_buffer_pool_config_set_params (config, caps, size, min, max);
      if (!gst_buffer_pool_set_config (pool, config)) {
        gst_object_unref (pool);
        pool = make_cuda_pool (filter, caps, &size);
        if (pool == NULL)
          return FALSE;
      }
    }
    if (update)
      gst_query_set_nth_allocation_pool (query, 0, pool, size, min, max);
    else
      gst_query_add_allocation_pool (query, pool, size, min, max);
    gst_object_unref (pool);
    return GST_BASE_TRANSFORM_CLASS (parent_class)->decide_allocation (trans,
        query);
  }
#endif

  return GST_BASE_TRANSFORM_CLASS (parent_class)->decide_allocation (trans,
      query);
}

/* The stream time of @buffer; none when the segment is not in time (e.g. an
 * appsrc left in bytes format). */
static GstClockTime
buffer_stream_time (GstBaseTransform * trans, GstBuffer * buffer)
{
  if (trans->segment.format != GST_FORMAT_TIME)
    return GST_CLOCK_TIME_NONE;
  return gst_segment_to_stream_time (&trans->segment, GST_FORMAT_TIME,
      GST_BUFFER_PTS (buffer));
}

static void
gst_cv_filter_before_transform (GstBaseTransform * trans, GstBuffer * buffer)
{
  GstClockTime stream_time = buffer_stream_time (trans, buffer);

  /* controlled properties follow the stream */
  if (GST_CLOCK_TIME_IS_VALID (stream_time))
    gst_object_sync_values (GST_OBJECT (trans), stream_time);
}

static GstFlowReturn
gst_cv_filter_dispatch (GstCvFilter * filter, GstBuffer * inbuf,
    GstBuffer * outbuf)
{
  GstCvFilterClass *klass = GST_CV_FILTER_GET_CLASS (filter);
  GstFlowReturn ret;

  if (klass->settings_size > 0) {
    GST_OBJECT_LOCK (filter);
    memcpy (filter->frame_settings, filter->settings, klass->settings_size);
    GST_OBJECT_UNLOCK (filter);
  }

  if (filter->backend == GST_CV_BACKEND_CPU)
    return klass->process_cpu (filter, filter->frame_settings, inbuf, outbuf);

#ifdef CV_HAVE_CUDA
  {
    GstMemory *mem = gst_buffer_peek_memory (inbuf, 0);
    CUresult sync;

    if (!gst_is_cuda_memory (mem)) {
      GST_ELEMENT_ERROR (filter, STREAM, FORMAT,
          ("Input buffer is not in CUDA memory"),
          ("caps say memory:CUDAMemory, the buffer holds %s memory",
              mem->allocator ? mem->allocator->mem_type : "unknown"));
      return GST_FLOW_ERROR;
    }
    if (GST_CUDA_MEMORY_CAST (mem)->context != filter->context
        && !gst_cuda_context_can_access_peer (filter->context,
            GST_CUDA_MEMORY_CAST (mem)->context)) {
      GST_ELEMENT_ERROR (filter, STREAM, FORMAT,
          ("Input CUDA memory belongs to another CUDA device"),
          ("share one CUDA context (cuda-device-id) along the pipeline"));
      return GST_FLOW_ERROR;
    }
    if (!gst_cuda_context_push (filter->context)) {
      GST_ELEMENT_ERROR (filter, LIBRARY, FAILED,
          ("Could not make the CUDA context current"),
          ("gst_cuda_context_push() failed"));
      return GST_FLOW_ERROR;
    }
    ret = klass->process_cuda (filter, filter->frame_settings, inbuf, outbuf);
    /* asynchronous faults of this frame's kernels surface here */
    sync = CuStreamSynchronize (filter->stream);
    gst_cuda_context_pop (NULL);
    if (ret == GST_FLOW_OK && !cuda_result (filter, sync,
            "cuStreamSynchronize"))
      ret = GST_FLOW_ERROR;
  }
#else
  /* without CUDA the caps never select the CUDA backend */
  ret = GST_FLOW_NOT_NEGOTIATED;
#endif
  return ret;
}

static GstFlowReturn
gst_cv_filter_transform (GstBaseTransform * trans, GstBuffer * inbuf,
    GstBuffer * outbuf)
{
  return gst_cv_filter_dispatch (GST_CV_FILTER (trans), inbuf, outbuf);
}

/* A gap (GST_BUFFER_FLAG_GAP) carries no picture: an in-place filter has
 * nothing to find in it and draws nothing into it, and state kept across
 * frames (road models, camera estimates) does not see it.  Filters that
 * make a new frame (cudasgm) match it like any other: a neutral frame has
 * no match, and the flag stays on their output (gap-aware). */
static GstFlowReturn
gst_cv_filter_transform_ip (GstBaseTransform * trans, GstBuffer * buf)
{
  if (GST_BUFFER_FLAG_IS_SET (buf, GST_BUFFER_FLAG_GAP)) {
    GST_LOG_OBJECT (trans, "gap: passed through untouched");
    return GST_FLOW_OK;
  }
  return gst_cv_filter_dispatch (GST_CV_FILTER (trans), buf, buf);
}

/* ---- helpers for subclasses --------------------------------------------- */

gboolean
gst_cv_filter_map_frame (GstCvFilter * filter, GstBuffer * buffer,
    const GstVideoInfo * info, GstMapFlags flags, GstVideoFrame * frame)
{
#ifdef CV_HAVE_CUDA
  if (filter->backend == GST_CV_BACKEND_CUDA)
    flags |= GST_MAP_CUDA;
#endif
  if (!gst_video_frame_map (frame, (GstVideoInfo *) info, buffer, flags)) {
    gsize size = gst_buffer_get_size (buffer);

    /* an application's buffer that does not match its caps */
    if (gst_buffer_get_video_meta (buffer) == NULL
        && size < GST_VIDEO_INFO_SIZE (info)) {
      GST_ELEMENT_ERROR (filter, STREAM, FORMAT,
          ("The buffer holds %" G_GSIZE_FORMAT " bytes, less than the %"
              G_GSIZE_FORMAT " of the %dx%d %s frame its caps describe",
              size, GST_VIDEO_INFO_SIZE (info), GST_VIDEO_INFO_WIDTH (info),
              GST_VIDEO_INFO_HEIGHT (info),
              gst_video_format_to_string (GST_VIDEO_INFO_FORMAT (info))),
          ("buffer %" GST_PTR_FORMAT, buffer));
      return FALSE;
    }
    GST_ELEMENT_ERROR (filter, RESOURCE, FAILED,
        ("Could not map a %s frame for %s",
            gst_video_format_to_string (GST_VIDEO_INFO_FORMAT (info)),
            (flags & GST_MAP_WRITE) ? "writing" : "reading"),
        ("gst_video_frame_map() failed on %" GST_PTR_FORMAT, buffer));
    return FALSE;
  }
  /* a video meta larger than the caps (a crop meta's uncropped frame):
   * everything is sized from the caps */
  if (GST_VIDEO_FRAME_WIDTH (frame) != GST_VIDEO_INFO_WIDTH (info)
      || GST_VIDEO_FRAME_HEIGHT (frame) != GST_VIDEO_INFO_HEIGHT (info)) {
    GST_ELEMENT_ERROR (filter, STREAM, FORMAT,
        ("The buffer's video meta describes a %dx%d frame, the caps %dx%d",
            GST_VIDEO_FRAME_WIDTH (frame), GST_VIDEO_FRAME_HEIGHT (frame),
            GST_VIDEO_INFO_WIDTH (info), GST_VIDEO_INFO_HEIGHT (info)),
        ("a crop meta upstream? buffer %" GST_PTR_FORMAT, buffer));
    gst_video_frame_unmap (frame);
    return FALSE;
  }
  return TRUE;
}

gchar *
gst_cv_filter_property_words (GstCvFilter * filter, const gchar * message)
{
  GObjectClass *klass = G_OBJECT_GET_CLASS (filter);
  GString *out = g_string_new (NULL);
  const gchar *p = message;

  while (*p != '\0') {
    gsize n = 0;
    gchar *word, *name;
    GParamSpec *pspec;

    while (g_ascii_isalnum (p[n]) || p[n] == '_')
      n++;
    if (n == 0) {
      g_string_append_c (out, *p++);
      continue;
    }
    word = g_strndup (p, n);
    name = g_strdelimit (g_strdup (word), "_", '-');
    /* (a member, calibration.focal_length, is the meta's, not ours) */
    pspec = strchr (word, '_') != NULL && (p == message || p[-1] != '.') ?
        g_object_class_find_property (klass, name) : NULL;
    g_string_append (out, pspec != NULL ? name : word);
    g_free (name);
    g_free (word);
    p += n;
  }
  return g_string_free (out, FALSE);
}

GstFlowReturn
gst_cv_filter_core_error (GstCvFilter * filter, const gchar * what,
    const CvError * err)
{
  gchar *said = gst_cv_filter_property_words (filter, err->message);
  gsize what_len = strlen (what);
  gchar *message;

  /* "Stixels" and the core's "stixels: ...": once */
  if (g_ascii_strncasecmp (said, what, what_len) == 0
      && g_str_has_prefix (said + what_len, ": "))
    message = g_strdup_printf ("%s%s", what, said + what_len);
  else
    message = g_strdup_printf ("%s: %s", what, said);
  switch (err->status) {
    case CV_ERROR_CUDA:
      GST_ELEMENT_ERROR (filter, LIBRARY, FAILED, ("%s", message),
          ("CUDA error %d", err->cuda_code));
      break;
    case CV_ERROR_INVALID_ARGUMENT:
    case CV_ERROR_UNSUPPORTED:
      GST_ELEMENT_ERROR (filter, STREAM, FORMAT, ("%s", message),
          ("%s", cv_status_name (err->status)));
      break;
    default:
      GST_ELEMENT_ERROR (filter, RESOURCE, FAILED, ("%s", message),
          ("%s", cv_status_name (err->status)));
      break;
  }
  g_free (message);
  g_free (said);
  return GST_FLOW_ERROR;
}

gboolean
gst_cv_filter_wants_summary (GstCvFilter * filter)
{
  gboolean post;

  GST_OBJECT_LOCK (filter);
  post = filter->post_messages;
  GST_OBJECT_UNLOCK (filter);
  return post;
}

void
gst_cv_filter_post_summary (GstCvFilter * filter, GstBuffer * buffer,
    GstStructure * summary)
{
  gst_structure_set (summary,
      "timestamp", G_TYPE_UINT64, GST_BUFFER_PTS (buffer),
      "stream-time", G_TYPE_UINT64,
      buffer_stream_time (GST_BASE_TRANSFORM (filter), buffer), NULL);
  gst_element_post_message (GST_ELEMENT_CAST (filter),
      gst_message_new_element (GST_OBJECT_CAST (filter), summary));
}

void
gst_cv_filter_count_transfer (GstCvFilter * filter, gsize bytes)
{
  GST_OBJECT_LOCK (filter);
  filter->transfer_bytes += bytes;
  GST_OBJECT_UNLOCK (filter);
}

/* ---- class ---------------------------------------------------------------- */

static void
gst_cv_filter_class_init (gpointer g_class, gpointer data)
{
  GstCvFilterClass *klass = g_class;
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseTransformClass *trans_class = GST_BASE_TRANSFORM_CLASS (klass);

  parent_class = g_type_class_peek_parent (klass);
  setting_offset_quark = g_quark_from_static_string ("gst-cv-filter-setting");
  gobject_class->set_property = gst_cv_filter_set_property;
  gobject_class->get_property = gst_cv_filter_get_property;
  gobject_class->finalize = gst_cv_filter_finalize;
  gobject_class->dispatch_properties_changed =
      gst_cv_filter_dispatch_properties_changed;

  g_object_class_install_property (gobject_class, PROP_CUDA_DEVICE_ID,
      g_param_spec_int ("cuda-device-id", "CUDA device id",
          "CUDA device to use for CUDA memory; -1 takes the device of the "
          "neighbouring CUDA elements (or the first one)", -1, G_MAXINT,
          DEFAULT_PROP_CUDA_DEVICE_ID,
          G_PARAM_READWRITE | G_PARAM_CONSTRUCT | GST_PARAM_MUTABLE_READY
          | G_PARAM_STATIC_STRINGS));
  g_object_class_install_property (gobject_class, PROP_TRANSFER_BYTES,
      g_param_spec_uint64 ("transfer-bytes", "Host/device transfer bytes",
          "Bytes this element copied between host and GPU memory since it "
          "started: result lists, and what the element's docs list (e.g. a "
          "disparity meta in host memory uploaded for CUDA frames)",
          0, G_MAXUINT64, 0, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  g_object_class_install_property (gobject_class, PROP_POST_MESSAGES,
      g_param_spec_boolean ("post-messages", "Post messages",
          "Post a compact summary of each frame's result as an element "
          "message on the bus (see gst-launch-1.0 -m)",
          DEFAULT_PROP_POST_MESSAGES, G_PARAM_READWRITE |
          GST_PARAM_MUTABLE_PLAYING | G_PARAM_STATIC_STRINGS));

  element_class->set_context = GST_DEBUG_FUNCPTR (gst_cv_filter_set_context);

  trans_class->passthrough_on_same_caps = FALSE;
  trans_class->start = GST_DEBUG_FUNCPTR (gst_cv_filter_start);
  trans_class->stop = GST_DEBUG_FUNCPTR (gst_cv_filter_stop);
  trans_class->set_caps = GST_DEBUG_FUNCPTR (gst_cv_filter_set_caps);
  trans_class->transform_caps =
      GST_DEBUG_FUNCPTR (gst_cv_filter_transform_caps);
  trans_class->accept_caps = GST_DEBUG_FUNCPTR (gst_cv_filter_accept_caps);
  klass->caps_rejection = GST_DEBUG_FUNCPTR (gst_cv_filter_caps_rejection);
  trans_class->transform_size =
      GST_DEBUG_FUNCPTR (gst_cv_filter_transform_size);
  trans_class->query = GST_DEBUG_FUNCPTR (gst_cv_filter_query);
  trans_class->propose_allocation =
      GST_DEBUG_FUNCPTR (gst_cv_filter_propose_allocation);
  trans_class->decide_allocation =
      GST_DEBUG_FUNCPTR (gst_cv_filter_decide_allocation);
  trans_class->before_transform =
      GST_DEBUG_FUNCPTR (gst_cv_filter_before_transform);
  trans_class->transform = GST_DEBUG_FUNCPTR (gst_cv_filter_transform);
  trans_class->transform_ip = GST_DEBUG_FUNCPTR (gst_cv_filter_transform_ip);

  gst_type_mark_as_plugin_api (GST_TYPE_CV_FILTER, 0);
}

static void
gst_cv_filter_init (GTypeInstance * instance, gpointer g_class)
{
  GstCvFilter *filter = GST_CV_FILTER (instance);
  /* the class of the object being created (a subclass), not GstCvFilter */
  GstCvFilterClass *klass = g_class;

  filter->device_id = DEFAULT_PROP_CUDA_DEVICE_ID;
  /* GstBaseTransform would otherwise answer caps queries in downstream's
   * order (system memory first behind cudadownload), undoing the CUDA
   * preference of our transform_caps */
  gst_base_transform_set_prefer_passthrough (GST_BASE_TRANSFORM (filter),
      FALSE);
  gst_base_transform_set_gap_aware (GST_BASE_TRANSFORM (filter), TRUE);
  /* a frame that would reach a synchronising sink too late is skipped, not
   * processed: the heavy work catches up with a live camera */
  gst_base_transform_set_qos_enabled (GST_BASE_TRANSFORM (filter), TRUE);
  filter->backend = GST_CV_BACKEND_CPU;
  if (klass->settings_size > 0) {
    filter->staged_settings = g_malloc0 (klass->settings_size);
    filter->frame_settings = g_malloc0 (klass->settings_size);
    settings_set_defaults (filter, klass);
    filter->settings = g_memdup2 (filter->staged_settings,
        klass->settings_size);
  }
}
