/* gst-cudavision: cudasgm, Semi-Global Matching stereo.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/**
 * SECTION:element-cudasgm
 * @title: cudasgm
 *
 * Dense disparity of a rectified stereo pair by Semi-Global Matching
 * (census transform, Hamming cost, 4 or 8 path aggregation, winner takes
 * all, sub-pixel refinement, uniqueness ratio, left-right check, 3x3
 * median; cuda/sgm/cv_sgm.h defines it exactly).  The input is one frame
 * holding both views, side-by-side or top-bottom: `multiview-mode` in the
 * caps says which, else the `layout` property.  CUDA memory runs on the
 * GPU, system memory on the CPU reference; both give identical results.
 *
 * The output is the left view (or, with `output`, a colour-mapped RGBA or
 * a KITTI-style GRAY16_LE image of the disparity) carrying a
 * #GstCvDisparityMeta: int16 disparity with 4 fractional bits (negative =
 * invalid), a uint8 confidence map, the searched range and the calibration
 * of the `focal-length`, `principal-x`, `principal-y` and `baseline`
 * properties.  On CUDA memory the disparity stays on the GPU.
 *
 * ## Example launch lines
 * |[
 * gst-launch-1.0 stereotestsrc num-buffers=100 ! \
 *   video/x-raw,format=NV12,width=1280,height=480 ! cudaupload ! \
 *   cudasgm output=disparity-color ! cudadownload ! videoconvert ! \
 *   autovideosink
 * gst-launch-1.0 stereotestsrc num-buffers=10 ! \
 *   video/x-raw,format=RGBA,width=800,height=240 ! \
 *   cudasgm max-disparity=64 output=disparity-16 ! videoconvert ! \
 *   video/x-raw,format=GRAY16_BE ! pngenc ! \
 *   multifilesink location=disp_%04d.png
 * ]|
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudasgm.h"

#include <string.h>

#include <gst/cudavision/cudavision.h>
#include "cvelements.h"
#include "gstcvcamera.h"
#include "gstcvenum.h"
#include "gstcudasgmcaps.h"
#include "gstcudasgmoutput.h"
#ifdef CV_HAVE_CUDA
#include <cuda_runtime_api.h>
#include "cv_cuda.h"
#include "gstcvdevicememory.h"
#endif

GST_DEBUG_CATEGORY_STATIC (gst_cuda_sgm_debug);
#define GST_CAT_DEFAULT gst_cuda_sgm_debug

/* The defaults of cv_sgm_params_init (cuda/sgm/cv_sgm.h says how they were
 * tuned); the element test checks that they agree. */
#define DEFAULT_PROP_MAX_DISPARITY 128
#define DEFAULT_PROP_MIN_DISPARITY 0
#define DEFAULT_PROP_P1 10
#define DEFAULT_PROP_P2 63
#define DEFAULT_PROP_ADAPTIVE_P2 TRUE
#define DEFAULT_PROP_ADAPTIVE_P2_SCALE 32
#define DEFAULT_PROP_PATHS GST_CUDA_SGM_PATHS_8
#define DEFAULT_PROP_CENSUS GST_CUDA_SGM_CENSUS_CS_9X7
#define DEFAULT_PROP_SUBPIXEL TRUE
#define DEFAULT_PROP_UNIQUENESS 0.95
#define DEFAULT_PROP_LR_CHECK TRUE
#define DEFAULT_PROP_LR_MAX_DIFF 1
#define DEFAULT_PROP_MEDIAN TRUE
#define DEFAULT_PROP_LAYOUT GST_CUDA_SGM_LAYOUT_SIDE_BY_SIDE
#define DEFAULT_PROP_OUTPUT GST_CUDA_SGM_OUTPUT_LEFT
#define DEFAULT_PROP_FOCAL_LENGTH 0.0   /* unknown */
#define DEFAULT_PROP_PRINCIPAL (-1.0)   /* the view's centre */
#define DEFAULT_PROP_BASELINE 0.0       /* unknown */

/* Ranges of the properties (the core's limits where it has them). */
#define MAX_MIN_DISPARITY (CV_SGM_MAX_DISPARITIES - 1)  /* < max-disparity */
#define MAX_LR_MAX_DIFF CV_SGM_MAX_DISPARITIES

/* KITTI GRAY16 holds px x 256 in 16 bits: disparities below 256 px. */
#define KITTI_DISPARITY_LIMIT 256

/* Disparity storage buffers kept ready: one being written, one downstream. */
#define STORAGE_POOL_MIN_BUFFERS 2

#ifdef CV_HAVE_CUDA
/* Row alignment of the device luma of RGB input, bytes: whole 128-byte
 * lines for the census kernel's row loads. */
#define LUMA_ROW_ALIGN 128
#endif

enum
{
  PROP_0,
  PROP_MAX_DISPARITY,
  PROP_MIN_DISPARITY,
  PROP_P1,
  PROP_P2,
  PROP_ADAPTIVE_P2,
  PROP_ADAPTIVE_P2_SCALE,
  PROP_PATHS,
  PROP_CENSUS,
  PROP_SUBPIXEL,
  PROP_UNIQUENESS,
  PROP_LR_CHECK,
  PROP_LR_MAX_DIFF,
  PROP_MEDIAN,
  PROP_LAYOUT,
  PROP_OUTPUT,
  PROP_FOCAL_LENGTH,
  PROP_PRINCIPAL_X,
  PROP_PRINCIPAL_Y,
  PROP_BASELINE,
};

struct _GstCudaSgm
{
  GstCvFilter parent;

  /* from the negotiated caps */
  GstCudaSgmPacking packing;
  GstCudaSgmOutput output;

  /* disparity + confidence storage of the metas, on the backend's memory
   * (created on the first frame after negotiation) */
  GstBufferPool *storage_pool;

  /* luma of RGB / GRAY16 views, both views, grown only */
  guint8 *luma_host;
  gsize luma_host_size;
  /* the CPU reference's working memory, kept from frame to frame */
  CvSgmCpu *cpu;
#ifdef CV_HAVE_CUDA
  CvSgmCuda *plan;
  CvDeviceBuffer luma_device;
#endif
};

#define gst_cuda_sgm_parent_class parent_class
G_DEFINE_FINAL_TYPE (GstCudaSgm, gst_cuda_sgm, GST_TYPE_CV_FILTER);
GST_ELEMENT_REGISTER_DEFINE (cudasgm, "cudasgm", GST_RANK_NONE,
    GST_TYPE_CUDA_SGM);

/* ---- enums ------------------------------------------------------------- */

GType
gst_cuda_sgm_layout_get_type (void)
{
  static gsize type = 0;
  static const GEnumValue values[] = {
    {GST_CUDA_SGM_LAYOUT_SIDE_BY_SIDE, "Left view left, right view right",
        "side-by-side"},
    {GST_CUDA_SGM_LAYOUT_TOP_BOTTOM, "Left view on top, right view below",
        "top-bottom"},
    {0, NULL, NULL},
  };

  return gst_cv_enum_type (&type, "GstCudaSgmLayout", values);
}

GType
gst_cuda_sgm_output_get_type (void)
{
  static gsize type = 0;
  static const GEnumValue values[] = {
    {GST_CUDA_SGM_OUTPUT_LEFT, "The left view, in the input's format",
        "left"},
    {GST_CUDA_SGM_OUTPUT_DISPARITY_COLOR,
        "The disparity colour-mapped (RGBA; far blue .. near red, invalid "
          "black)", "disparity-color"},
    {GST_CUDA_SGM_OUTPUT_DISPARITY_16,
        "The disparity as GRAY16_LE, px x 256, 0 = invalid (KITTI; system "
          "memory only)", "disparity-16"},
    {0, NULL, NULL},
  };

  return gst_cv_enum_type (&type, "GstCudaSgmOutput", values);
}

GType
gst_cuda_sgm_paths_get_type (void)
{
  static gsize type = 0;
  static const GEnumValue values[] = {
    {GST_CUDA_SGM_PATHS_4, "4 paths: horizontal and vertical", "4"},
    {GST_CUDA_SGM_PATHS_8, "8 paths: plus the diagonals", "8"},
    {0, NULL, NULL},
  };

  return gst_cv_enum_type (&type, "GstCudaSgmPaths", values);
}

GType
gst_cuda_sgm_census_get_type (void)
{
  static gsize type = 0;
  static const GEnumValue values[] = {
    {GST_CUDA_SGM_CENSUS_CS_9X7,
        "Centre-symmetric 9x7 census (31 bits, the thesis')",
        "center-symmetric-9x7"},
    {GST_CUDA_SGM_CENSUS_9X7, "Full 9x7 census (62 bits)", "9x7"},
    {0, NULL, NULL},
  };

  return gst_cv_enum_type (&type, "GstCudaSgmCensus", values);
}

/* ---- properties -------------------------------------------------------- */

/* The current `layout` and `output` (for caps work, outside a frame). */
static void
get_packing_properties (GstCudaSgm * self, GstCudaSgmLayout * layout,
    GstCudaSgmOutput * output)
{
  const GstCudaSgmSettings *s = GST_CV_FILTER (self)->settings;

  GST_OBJECT_LOCK (self);
  *layout = s->layout;
  *output = s->output;
  GST_OBJECT_UNLOCK (self);
}

/* The core's parameters from the settings, checked against the
 * negotiated views.  FALSE with the reason in @why (free with g_free). */
static gboolean
make_params (GstCudaSgm * self, const GstCudaSgmSettings * s,
    CvSgmParams * p, gchar ** why)
{
  CvError err = { 0 };
  gint range_end;

  cv_sgm_params_init (p);
  p->max_disparity = s->max_disparity;
  p->min_disparity = s->min_disparity;
  p->p1 = s->p1;
  p->p2 = s->p2;
  p->adaptive_p2 = s->adaptive_p2 ? 1 : 0;
  p->adaptive_p2_scale = s->adaptive_p2_scale;
  p->paths = (int) s->paths;
  p->census = (CvSgmCensus) s->census;
  p->subpixel = s->subpixel ? 1 : 0;
  p->uniqueness = (float) s->uniqueness;
  p->lr_check = s->lr_check ? 1 : 0;
  p->lr_max_diff = s->lr_max_diff;
  p->median = s->median ? 1 : 0;

  if (cv_sgm_params_validate (p, &err) != CV_OK) {
    *why = gst_cv_filter_property_words (GST_CV_FILTER (self), err.message);
    return FALSE;
  }
  if (p->min_disparity >= p->max_disparity) {
    *why = g_strdup_printf ("min-disparity (%d) must be smaller than "
        "max-disparity (%d); the search covers min-disparity .. "
        "min-disparity + max-disparity - 1 px", p->min_disparity,
        p->max_disparity);
    return FALSE;
  }
  range_end = p->min_disparity + p->max_disparity;
  if (self->packing.view_width < range_end) {
    *why = g_strdup_printf ("the views are %d px wide, narrower than the "
        "disparity range (min-disparity %d + max-disparity %d = %d px): "
        "lower max-disparity (a multiple of 16) or use wider views",
        self->packing.view_width, p->min_disparity, p->max_disparity,
        range_end);
    return FALSE;
  }
  if (self->output == GST_CUDA_SGM_OUTPUT_DISPARITY_16
      && range_end > KITTI_DISPARITY_LIMIT) {
    *why = g_strdup_printf ("output=disparity-16 holds disparities below %d "
        "px (px x 256 in 16 bits), but min-disparity + max-disparity = %d",
        KITTI_DISPARITY_LIMIT, range_end);
    return FALSE;
  }
  return TRUE;
}

/* ---- negotiation ------------------------------------------------------- */

static GstCaps *
gst_cuda_sgm_transform_caps (GstCvFilter * filter, GstPadDirection direction,
    GstCaps * caps)
{
  GstCudaSgmLayout layout;
  GstCudaSgmOutput output;

  get_packing_properties (GST_CUDA_SGM (filter), &layout, &output);
  return gst_cuda_sgm_caps_transform (direction, caps, layout, output);
}

static GstCaps *
gst_cuda_sgm_fixate_caps (GstBaseTransform * trans, GstPadDirection direction,
    GstCaps * caps, GstCaps * othercaps)
{
  GstCudaSgmLayout layout;
  GstCudaSgmOutput output;
  GstCaps *result;

  get_packing_properties (GST_CUDA_SGM (trans), &layout, &output);
  result = gst_cuda_sgm_caps_fixate (direction, caps, othercaps, layout,
      output);
  GST_DEBUG_OBJECT (trans, "fixated to %" GST_PTR_FORMAT, result);
  return result;
}

static void
drop_storage_pool (GstCudaSgm * self)
{
  /* buffers still held downstream free themselves when they come back */
  if (self->storage_pool) {
    gst_buffer_pool_set_active (self->storage_pool, FALSE);
    gst_clear_object (&self->storage_pool);
  }
}

static gboolean
negotiation_error (GstCudaSgm * self, GstCaps * incaps, gchar * why)
{
  GST_ELEMENT_ERROR (self, CORE, NEGOTIATION, ("%s", why),
      ("input caps %" GST_PTR_FORMAT, incaps));
  g_free (why);
  return FALSE;
}

static gboolean
gst_cuda_sgm_set_info (GstCvFilter * filter, GstCaps * incaps,
    const GstVideoInfo * in_info, GstCaps * outcaps,
    const GstVideoInfo * out_info)
{
  GstCudaSgm *self = GST_CUDA_SGM (filter);
  GstCudaSgmSettings s;
  GstCudaSgmPacking packing;
  GstVideoFormat expected;
  CvSgmParams params;
  gchar *why = NULL;

  GST_OBJECT_LOCK (self);
  s = *(const GstCudaSgmSettings *) filter->settings;
  GST_OBJECT_UNLOCK (self);

  /* the storage size follows the views' size */
  drop_storage_pool (self);

  if (!gst_cuda_sgm_packing_from_info (in_info, s.layout, &packing, &why))
    return negotiation_error (self, incaps, why);
  self->packing = packing;
  self->output = s.output;

  if (s.output == GST_CUDA_SGM_OUTPUT_DISPARITY_16
      && filter->backend == GST_CV_BACKEND_CUDA)
    return negotiation_error (self, incaps,
        g_strdup ("output=disparity-16 needs the input in system memory: "
            "GRAY16_LE does not exist in CUDA memory; put cudadownload "
            "before cudasgm, or use output=disparity-color (RGBA, CUDA "
            "memory)"));

  switch (s.output) {
    case GST_CUDA_SGM_OUTPUT_DISPARITY_COLOR:
      expected = GST_VIDEO_FORMAT_RGBA;
      break;
    case GST_CUDA_SGM_OUTPUT_DISPARITY_16:
      expected = GST_VIDEO_FORMAT_GRAY16_LE;
      break;
    default:
      expected = GST_VIDEO_INFO_FORMAT (in_info);
      break;
  }
  if (GST_VIDEO_INFO_WIDTH (out_info) != packing.view_width
      || GST_VIDEO_INFO_HEIGHT (out_info) != packing.view_height
      || GST_VIDEO_INFO_FORMAT (out_info) != expected)
    return negotiation_error (self, incaps,
        g_strdup_printf ("the output caps (%dx%d %s) are not the %dx%d %s "
            "view this input gives", GST_VIDEO_INFO_WIDTH (out_info),
            GST_VIDEO_INFO_HEIGHT (out_info),
            gst_video_format_to_string (GST_VIDEO_INFO_FORMAT (out_info)),
            packing.view_width, packing.view_height,
            gst_video_format_to_string (expected)));

  if (!make_params (self, &s, &params, &why))
    return negotiation_error (self, incaps, why);

  GST_INFO_OBJECT (self, "%s %dx%d views, right view at (%d, %d), output %d",
      packing.layout == GST_CUDA_SGM_LAYOUT_TOP_BOTTOM ? "top-bottom" :
      "side-by-side", packing.view_width, packing.view_height,
      packing.right_x, packing.right_y, s.output);
  return TRUE;
}

/* ---- per frame --------------------------------------------------------- */

/* One frame's resources; what is set is released by end_frame. */
typedef struct
{
  CvSgmParams params;
  GstBuffer *storage;
  GstMapInfo storage_map;
  gboolean storage_mapped;
  GstVideoFrame in, out;
  gboolean in_mapped, out_mapped;
  CvFrame left, right;          /* the views, in the input's format */
  CvImageS16 disparity;         /* in the storage */
  CvImageU8 confidence;         /* in the storage */
} SgmFrame;

static gboolean
ensure_storage_pool (GstCudaSgm * self)
{
  GstCvFilter *filter = GST_CV_FILTER (self);
  gsize size;

  if (self->storage_pool != NULL)
    return TRUE;
  size = gst_cv_disparity_storage_size (self->packing.view_width,
      self->packing.view_height, TRUE, NULL, NULL, NULL);
#ifdef CV_HAVE_CUDA
  if (filter->backend == GST_CV_BACKEND_CUDA) {
    self->storage_pool = gst_cv_device_pool_new (filter->context, size,
        STORAGE_POOL_MIN_BUFFERS);
  } else
#endif
  {
    GstBufferPool *pool = gst_buffer_pool_new ();
    GstStructure *config = gst_buffer_pool_get_config (pool);

    gst_buffer_pool_config_set_params (config, NULL, size,
        STORAGE_POOL_MIN_BUFFERS, 0);
    if (gst_buffer_pool_set_config (pool, config)
        && gst_buffer_pool_set_active (pool, TRUE))
      self->storage_pool = pool;
    else
      gst_object_unref (pool);
  }
  if (self->storage_pool == NULL) {
    GST_ELEMENT_ERROR (self, RESOURCE, FAILED,
        ("Could not set up the disparity storage (%" G_GSIZE_FORMAT
            " bytes per frame, %s memory)", size,
            filter->backend == GST_CV_BACKEND_CUDA ? "GPU" : "host"), (NULL));
    return FALSE;
  }
  return TRUE;
}

/* Snapshot checks, storage, input mapping and views: everything both
 * backends need before matching.  Posts an error and returns FALSE on
 * failure (end_frame releases what was taken). */
static gboolean
begin_frame (GstCudaSgm * self, const GstCudaSgmSettings * s,
    GstBuffer * inbuf, SgmFrame * f)
{
  GstCvFilter *filter = GST_CV_FILTER (self);
  const GstCudaSgmPacking *pk = &self->packing;
  GstMapFlags storage_flags = GST_MAP_WRITE;
  gsize dstride, coffset, cstride;
  CvError err = { 0 };
  CvFrame frame;
  gchar *why = NULL;

  memset (f, 0, sizeof (*f));
  /* properties may have changed since the last frame */
  if (!make_params (self, s, &f->params, &why)) {
    GST_ELEMENT_ERROR (self, LIBRARY, SETTINGS, ("Invalid cudasgm settings: "
            "%s", why), (NULL));
    g_free (why);
    return FALSE;
  }
  if (!ensure_storage_pool (self))
    return FALSE;
  if (gst_buffer_pool_acquire_buffer (self->storage_pool, &f->storage,
          NULL) != GST_FLOW_OK) {
    GST_ELEMENT_ERROR (self, RESOURCE, FAILED,
        ("Could not get a disparity storage buffer"), (NULL));
    return FALSE;
  }
#ifdef CV_HAVE_CUDA
  if (filter->backend == GST_CV_BACKEND_CUDA)
    storage_flags |= GST_MAP_CUDA;
#endif
  if (!gst_buffer_map (f->storage, &f->storage_map, storage_flags)) {
    GST_ELEMENT_ERROR (self, RESOURCE, FAILED,
        ("Could not map the disparity storage for writing"), (NULL));
    return FALSE;
  }
  f->storage_mapped = TRUE;
  gst_cv_disparity_storage_size (pk->view_width, pk->view_height, TRUE,
      &dstride, &coffset, &cstride);
  f->disparity.data = (int16_t *) f->storage_map.data;
  f->disparity.width = pk->view_width;
  f->disparity.height = pk->view_height;
  f->disparity.stride = dstride;
  f->confidence.data = f->storage_map.data + coffset;
  f->confidence.width = pk->view_width;
  f->confidence.height = pk->view_height;
  f->confidence.stride = cstride;

  if (!gst_cv_filter_map_frame (filter, inbuf, &filter->in_info, GST_MAP_READ,
          &f->in))
    return FALSE;
  f->in_mapped = TRUE;
  gst_cv_frame_from_video_frame (&f->in, &frame);
  if (cv_frame_crop (&frame, pk->left_x, pk->left_y, pk->view_width,
          pk->view_height, &f->left, &err) != CV_OK
      || cv_frame_crop (&frame, pk->right_x, pk->right_y, pk->view_width,
          pk->view_height, &f->right, &err) != CV_OK) {
    gst_cv_filter_core_error (filter, "Splitting the stereo pair", &err);
    return FALSE;
  }
  return TRUE;
}

static gboolean
map_output (GstCudaSgm * self, GstBuffer * outbuf, SgmFrame * f)
{
  GstCvFilter *filter = GST_CV_FILTER (self);

  if (!gst_cv_filter_map_frame (filter, outbuf, &filter->out_info,
          GST_MAP_WRITE, &f->out))
    return FALSE;
  f->out_mapped = TRUE;
  return TRUE;
}

/* Unmaps everything (a mapped frame holds a reference on its buffer, so
 * the output takes its meta only afterwards); keeps the storage. */
static void
unmap_frame (SgmFrame * f)
{
  if (f->out_mapped)
    gst_video_frame_unmap (&f->out);
  if (f->in_mapped)
    gst_video_frame_unmap (&f->in);
  if (f->storage_mapped)
    gst_buffer_unmap (f->storage, &f->storage_map);
  f->out_mapped = f->in_mapped = f->storage_mapped = FALSE;
}

static void
end_frame (SgmFrame * f)
{
  unmap_frame (f);
  gst_clear_buffer (&f->storage);
}

/* The Y plane of a view when its format has one (no copy). */
static gboolean
luma_plane (const CvFrame * view, CvImageU8 * luma)
{
  switch (view->format) {
    case CV_PIXEL_GRAY8:
    case CV_PIXEL_NV12:
    case CV_PIXEL_I420:
    case CV_PIXEL_Y444:
      luma->data = view->planes[0];
      luma->width = view->width;
      luma->height = view->height;
      luma->stride = view->strides[0];
      return TRUE;
    default:
      return FALSE;
  }
}

/* Attaches the meta (taking the storage) to @outbuf. */
static gboolean
attach_meta (GstCudaSgm * self, const GstCudaSgmSettings * s, SgmFrame * f,
    GstBuffer * outbuf, GstObject * cuda_context)
{
  const GstCudaSgmPacking *pk = &self->packing;
  GstCvStereoCalibration calib;
  GstCvDisparityMeta *meta;

  calib.focal_length = s->focal_length;
  calib.principal_x = s->principal_x >= 0.0 ? s->principal_x :
      (pk->view_width - 1) / 2.0;
  calib.principal_y = s->principal_y >= 0.0 ? s->principal_y :
      (pk->view_height - 1) / 2.0;
  calib.baseline = s->baseline;
  meta = gst_buffer_add_cv_disparity_meta (outbuf, f->storage, pk->view_width,
      pk->view_height, f->params.min_disparity,
      f->params.min_disparity + f->params.max_disparity, TRUE, &calib,
      cuda_context);
  if (meta == NULL) {
    GST_ELEMENT_ERROR (self, CORE, FAILED,
        ("Could not attach the disparity meta"),
        ("storage of %" G_GSIZE_FORMAT " bytes for %dx%d",
            gst_buffer_get_size (f->storage), pk->view_width,
            pk->view_height));
    return FALSE;
  }
  return TRUE;
}

static void
post_summary (GstCudaSgm * self, GstBuffer * outbuf,
    const CvImageS16 * disparity)
{
  GstCudaSgmSummary summary;

  gst_cuda_sgm_summarize (disparity, &summary);
  gst_cv_filter_post_summary (GST_CV_FILTER (self), outbuf,
      gst_structure_new ("cudasgm",
          "valid-fraction", G_TYPE_DOUBLE, summary.valid_fraction,
          "mean-disparity", G_TYPE_DOUBLE, summary.mean,
          "min-disparity", G_TYPE_DOUBLE, summary.min,
          "max-disparity", G_TYPE_DOUBLE, summary.max, NULL));
}

/* The system-memory path's buffers: the host luma and the CPU plan. */
static void
drop_cpu_state (GstCudaSgm * self)
{
  g_clear_pointer (&self->luma_host, g_free);
  self->luma_host_size = 0;
  g_clear_pointer (&self->cpu, cv_sgm_cpu_free);
}

static GstFlowReturn
gst_cuda_sgm_process_cpu (GstCvFilter * filter, gconstpointer settings,
    GstBuffer * inbuf, GstBuffer * outbuf)
{
  GstCudaSgm *self = GST_CUDA_SGM (filter);
  const GstCudaSgmSettings *s = settings;
  const gint w = self->packing.view_width, h = self->packing.view_height;
  CvImageU8 left, right;
  CvError err = { 0 };
  SgmFrame f;
  GstFlowReturn ret = GST_FLOW_ERROR;

  if (!begin_frame (self, s, inbuf, &f))
    goto done;

  if (!luma_plane (&f.left, &left) || !luma_plane (&f.right, &right)) {
    gsize view_size = (gsize) w * h;

    if (self->luma_host_size < 2 * view_size) {
      g_free (self->luma_host);
      self->luma_host = g_malloc (2 * view_size);
      self->luma_host_size = 2 * view_size;
    }
    left = (CvImageU8) { self->luma_host, w, h, (size_t) w };
    right = (CvImageU8) { self->luma_host + view_size, w, h, (size_t) w };
    if (cv_frame_luma_cpu (&f.left, &left, &err) != CV_OK
        || cv_frame_luma_cpu (&f.right, &right, &err) != CV_OK) {
      gst_cv_filter_core_error (filter, "Luma of the views", &err);
      goto done;
    }
  }
  if (self->cpu == NULL && (self->cpu = cv_sgm_cpu_new ()) == NULL) {
    GST_ELEMENT_ERROR (self, RESOURCE, NO_SPACE_LEFT,
        ("Could not create the SGM CPU plan"), ("cv_sgm_cpu_new() failed"));
    goto done;
  }
  if (cv_sgm_cpu_compute (self->cpu, &f.params, &left, &right,
          &f.disparity, &f.confidence, &err) != CV_OK) {
    gst_cv_filter_core_error (filter, "Semi-global matching", &err);
    goto done;
  }

  if (!map_output (self, outbuf, &f))
    goto done;
  switch (self->output) {
    case GST_CUDA_SGM_OUTPUT_LEFT:
      gst_cuda_sgm_copy_view_cpu (&f.left, &f.out);
      break;
    case GST_CUDA_SGM_OUTPUT_DISPARITY_COLOR:{
      CvImageU8 rgba = { GST_VIDEO_FRAME_PLANE_DATA (&f.out, 0), w, h,
        (size_t) GST_VIDEO_FRAME_PLANE_STRIDE (&f.out, 0)
      };

      if (cv_disparity_to_color_cpu (&f.disparity, f.params.min_disparity,
              f.params.min_disparity + f.params.max_disparity, &rgba,
              &err) != CV_OK) {
        gst_cv_filter_core_error (filter, "Colour-mapping the disparity",
            &err);
        goto done;
      }
      break;
    }
    case GST_CUDA_SGM_OUTPUT_DISPARITY_16:
      gst_cuda_sgm_disparity_to_kitti (&f.disparity, &f.out);
      break;
  }

  if (gst_cv_filter_wants_summary (filter))
    post_summary (self, outbuf, &f.disparity);
  unmap_frame (&f);
  if (attach_meta (self, s, &f, outbuf, NULL))
    ret = GST_FLOW_OK;

done:
  end_frame (&f);
  return ret;
}

#ifdef CV_HAVE_CUDA
/* The luma of both views on the device: the Y planes, or converted into
 * the element's luma buffer. */
static gboolean
device_luma (GstCudaSgm * self, const SgmFrame * f, CvImageU8 * left,
    CvImageU8 * right)
{
  GstCvFilter *filter = GST_CV_FILTER (self);
  const gint w = self->packing.view_width, h = self->packing.view_height;
  const gsize stride = GST_ROUND_UP_N ((gsize) w, LUMA_ROW_ALIGN);
  CvError err = { 0 };
  guint8 *base;

  if (luma_plane (&f->left, left) && luma_plane (&f->right, right))
    return TRUE;
  if (cv_device_buffer_ensure (&self->luma_device, 2 * stride * h,
          &err) != CV_OK) {
    gst_cv_filter_core_error (filter, "Device luma buffer", &err);
    return FALSE;
  }
  base = self->luma_device.ptr;
  *left = (CvImageU8) { base, w, h, stride };
  *right = (CvImageU8) { base + stride * h, w, h, stride };
  if (cv_frame_luma_cuda (&f->left, left, filter->stream, &err) != CV_OK
      || cv_frame_luma_cuda (&f->right, right, filter->stream,
          &err) != CV_OK) {
    gst_cv_filter_core_error (filter, "Luma of the views", &err);
    return FALSE;
  }
  return TRUE;
}

static GstFlowReturn
gst_cuda_sgm_process_cuda (GstCvFilter * filter, gconstpointer settings,
    GstBuffer * inbuf, GstBuffer * outbuf)
{
  GstCudaSgm *self = GST_CUDA_SGM (filter);
  const GstCudaSgmSettings *s = settings;
  const gint w = self->packing.view_width, h = self->packing.view_height;
  CvImageU8 left, right;
  CvError err = { 0 };
  SgmFrame f;
  GstFlowReturn ret = GST_FLOW_ERROR;

  if (!begin_frame (self, s, inbuf, &f))
    goto done;
  /* caps moved from system to CUDA memory: the CPU plan's cost volume
   * (~120 MB at 1242x375, D 128) is not needed any more */
  drop_cpu_state (self);
  if (!gst_is_cuda_memory (gst_buffer_peek_memory (outbuf, 0))) {
    GST_ELEMENT_ERROR (self, STREAM, FORMAT,
        ("Output buffer is not in CUDA memory"),
        ("caps say memory:CUDAMemory, the output buffer holds %s memory",
            gst_buffer_peek_memory (outbuf, 0)->allocator ?
            gst_buffer_peek_memory (outbuf, 0)->allocator->mem_type :
            "unknown"));
    goto done;
  }
  if (self->plan == NULL && (self->plan = cv_sgm_cuda_new ()) == NULL) {
    GST_ELEMENT_ERROR (self, RESOURCE, NO_SPACE_LEFT,
        ("Could not create the SGM plan"), ("cv_sgm_cuda_new() failed"));
    goto done;
  }
  if (!device_luma (self, &f, &left, &right))
    goto done;
  /* other elements' kernels beside ours: the plan's kernels leave them SMs */
  cv_sgm_cuda_set_gpu_shared (self->plan, gst_cv_filter_cuda_filters () > 1);
  if (cv_sgm_cuda_compute (self->plan, &f.params, &left, &right,
          &f.disparity, &f.confidence, filter->stream, &err) != CV_OK) {
    gst_cv_filter_core_error (filter, "Semi-global matching", &err);
    goto done;
  }

  if (!map_output (self, outbuf, &f))
    goto done;
  if (self->output == GST_CUDA_SGM_OUTPUT_DISPARITY_COLOR) {
    CvImageU8 rgba = { GST_VIDEO_FRAME_PLANE_DATA (&f.out, 0), w, h,
      (size_t) GST_VIDEO_FRAME_PLANE_STRIDE (&f.out, 0)
    };

    if (cv_disparity_to_color_cuda (&f.disparity, f.params.min_disparity,
            f.params.min_disparity + f.params.max_disparity, &rgba,
            filter->stream, &err) != CV_OK) {
      gst_cv_filter_core_error (filter, "Colour-mapping the disparity", &err);
      goto done;
    }
  } else if (gst_cuda_sgm_copy_view_cuda (&f.left, &f.out, filter->stream,
          &err) != CV_OK) {
    /* output=disparity-16 never negotiates CUDA memory (set_info) */
    gst_cv_filter_core_error (filter, "Copying the left view", &err);
    goto done;
  }
  unmap_frame (&f);

  if (gst_cv_filter_wants_summary (filter)) {
    /* the summary needs the map on the host: wait for it, then map the
     * storage for reading (one download, kept for later host readers) */
    cudaError_t sync = cudaStreamSynchronize ((cudaStream_t) filter->stream);
    GstMapInfo map;

    if (sync != cudaSuccess) {
      cv_cuda_error (&err, sync, "cudaStreamSynchronize");
      gst_cv_filter_core_error (filter, "Semi-global matching", &err);
      goto done;
    }
    if (!gst_buffer_map (f.storage, &map, GST_MAP_READ)) {
      GST_ELEMENT_ERROR (self, RESOURCE, FAILED,
          ("Could not download the disparity for the summary"), (NULL));
      goto done;
    }
    gst_cv_filter_count_transfer (filter, map.size);
    f.disparity.data = (int16_t *) map.data;
    post_summary (self, outbuf, &f.disparity);
    gst_buffer_unmap (f.storage, &map);
  }
  if (attach_meta (self, s, &f, outbuf, GST_OBJECT (filter->context)))
    ret = GST_FLOW_OK;

done:
  end_frame (&f);
  return ret;
}
#endif

static void
gst_cuda_sgm_release (GstCvFilter * filter)
{
  GstCudaSgm *self = GST_CUDA_SGM (filter);

  drop_storage_pool (self);
  drop_cpu_state (self);
#ifdef CV_HAVE_CUDA
  /* runs with the CUDA context pushed */
  g_clear_pointer (&self->plan, cv_sgm_cuda_free);
  cv_device_buffer_free (&self->luma_device);
#endif
}

/* ---- GstBaseTransform -------------------------------------------------- */

static gboolean
gst_cuda_sgm_transform_meta (GstBaseTransform * trans, GstBuffer * outbuf,
    GstMeta * meta, GstBuffer * inbuf)
{
  /* a disparity meta of the input (e.g. stereotestsrc's ground truth)
   * describes other pixels: the output carries cudasgm's own */
  if (meta->info->api == GST_CV_DISPARITY_META_API_TYPE)
    return FALSE;
  return GST_BASE_TRANSFORM_CLASS (parent_class)->transform_meta (trans,
      outbuf, meta, inbuf);
}

static void
gst_cuda_sgm_finalize (GObject * object)
{
  GstCudaSgm *self = GST_CUDA_SGM (object);

  /* stop() released everything; this covers an element never started */
  drop_storage_pool (self);
  g_free (self->luma_host);
  cv_sgm_cpu_free (self->cpu);
  G_OBJECT_CLASS (parent_class)->finalize (object);
}

static void
gst_cuda_sgm_class_init (GstCudaSgmClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseTransformClass *trans_class = GST_BASE_TRANSFORM_CLASS (klass);
  GstCvFilterClass *filter_class = GST_CV_FILTER_CLASS (klass);
  const GParamFlags playing = G_PARAM_READWRITE | GST_PARAM_MUTABLE_PLAYING
      | G_PARAM_STATIC_STRINGS;
  const GParamFlags ready = G_PARAM_READWRITE | GST_PARAM_MUTABLE_READY
      | G_PARAM_STATIC_STRINGS;

  GST_DEBUG_CATEGORY_INIT (gst_cuda_sgm_debug, "cudasgm", 0,
      "semi-global matching stereo");

  gobject_class->finalize = gst_cuda_sgm_finalize;

  gst_cv_filter_class_install_setting (filter_class, PROP_MAX_DISPARITY,
      g_param_spec_int ("max-disparity", "Max disparity",
          "Number of disparities searched, px: a multiple of 16; the search "
          "covers min-disparity .. min-disparity + max-disparity - 1",
          CV_SGM_DISPARITY_STEP, CV_SGM_MAX_DISPARITIES,
          DEFAULT_PROP_MAX_DISPARITY, playing),
      G_STRUCT_OFFSET (GstCudaSgmSettings, max_disparity));
  gst_cv_filter_class_install_setting (filter_class, PROP_MIN_DISPARITY,
      g_param_spec_int ("min-disparity", "Min disparity",
          "Smallest disparity searched, px (smaller than max-disparity)", 0,
          MAX_MIN_DISPARITY, DEFAULT_PROP_MIN_DISPARITY, playing),
      G_STRUCT_OFFSET (GstCudaSgmSettings, min_disparity));
  gst_cv_filter_class_install_setting (filter_class, PROP_P1,
      g_param_spec_int ("p1", "P1",
          "Penalty for a disparity change of 1 px between neighbours along "
          "a path, cost units (Hamming bits); smaller than p2", 0,
          CV_SGM_MAX_P2 - 1, DEFAULT_PROP_P1, playing),
      G_STRUCT_OFFSET (GstCudaSgmSettings, p1));
  gst_cv_filter_class_install_setting (filter_class, PROP_P2,
      g_param_spec_int ("p2", "P2",
          "Penalty for a disparity change of more than 1 px, cost units",
          1, CV_SGM_MAX_P2, DEFAULT_PROP_P2, playing),
      G_STRUCT_OFFSET (GstCudaSgmSettings, p2));
  gst_cv_filter_class_install_setting (filter_class, PROP_ADAPTIVE_P2,
      g_param_spec_boolean ("adaptive-p2", "Adaptive P2",
          "Lower P2 at intensity edges along the path: max (p1 + 1, p2 * s "
          "/ (s + |luma step|)) with s = adaptive-p2-scale",
          DEFAULT_PROP_ADAPTIVE_P2, playing),
      G_STRUCT_OFFSET (GstCudaSgmSettings, adaptive_p2));
  gst_cv_filter_class_install_setting (filter_class, PROP_ADAPTIVE_P2_SCALE,
      g_param_spec_int ("adaptive-p2-scale", "Adaptive P2 scale",
          "Luma step (grey levels) that halves P2 when adaptive-p2 is on",
          1, 255, DEFAULT_PROP_ADAPTIVE_P2_SCALE, playing),
      G_STRUCT_OFFSET (GstCudaSgmSettings, adaptive_p2_scale));
  gst_cv_filter_class_install_setting (filter_class, PROP_PATHS,
      g_param_spec_enum ("paths", "Paths",
          "Aggregation paths: 4 (horizontal, vertical) or 8 (plus "
          "diagonals)", GST_TYPE_CUDA_SGM_PATHS, DEFAULT_PROP_PATHS,
          playing),
      G_STRUCT_OFFSET (GstCudaSgmSettings, paths));
  gst_cv_filter_class_install_setting (filter_class, PROP_CENSUS,
      g_param_spec_enum ("census", "Census",
          "Census transform of the matching cost", GST_TYPE_CUDA_SGM_CENSUS,
          DEFAULT_PROP_CENSUS, playing),
      G_STRUCT_OFFSET (GstCudaSgmSettings, census));
  gst_cv_filter_class_install_setting (filter_class, PROP_SUBPIXEL,
      g_param_spec_boolean ("subpixel", "Sub-pixel",
          "Refine the disparity to 1/16 px (parabola through the costs)",
          DEFAULT_PROP_SUBPIXEL, playing),
      G_STRUCT_OFFSET (GstCudaSgmSettings, subpixel));
  gst_cv_filter_class_install_setting (filter_class, PROP_UNIQUENESS,
      g_param_spec_double ("uniqueness", "Uniqueness",
          "Uniqueness ratio: a pixel is valid only if its best cost is "
          "below this fraction of the best cost at least 2 px away (1 = off)",
          0.01, 1.0, DEFAULT_PROP_UNIQUENESS, playing),
      G_STRUCT_OFFSET (GstCudaSgmSettings, uniqueness));
  gst_cv_filter_class_install_setting (filter_class, PROP_LR_CHECK,
      g_param_spec_boolean ("lr-check", "Left-right check",
          "Invalidate pixels whose left and right disparities (from the same "
          "cost volume) differ by more than lr-max-diff",
          DEFAULT_PROP_LR_CHECK, playing),
      G_STRUCT_OFFSET (GstCudaSgmSettings, lr_check));
  gst_cv_filter_class_install_setting (filter_class, PROP_LR_MAX_DIFF,
      g_param_spec_int ("lr-max-diff", "Left-right max difference",
          "Largest accepted left-right disparity difference, px", 0,
          MAX_LR_MAX_DIFF, DEFAULT_PROP_LR_MAX_DIFF, playing),
      G_STRUCT_OFFSET (GstCudaSgmSettings, lr_max_diff));
  gst_cv_filter_class_install_setting (filter_class, PROP_MEDIAN,
      g_param_spec_boolean ("median", "Median",
          "3x3 median filter of the disparity", DEFAULT_PROP_MEDIAN,
          playing),
      G_STRUCT_OFFSET (GstCudaSgmSettings, median));
  gst_cv_filter_class_install_setting (filter_class, PROP_LAYOUT,
      g_param_spec_enum ("layout", "Layout",
          "How the views share the input frame when the caps carry no "
          "multiview-mode (side-by-side or top-bottom there decides)",
          GST_TYPE_CUDA_SGM_LAYOUT, DEFAULT_PROP_LAYOUT, ready),
      G_STRUCT_OFFSET (GstCudaSgmSettings, layout));
  gst_cv_filter_class_install_setting (filter_class, PROP_OUTPUT,
      g_param_spec_enum ("output", "Output",
          "What the output frame shows (the disparity meta is attached in "
          "every mode)", GST_TYPE_CUDA_SGM_OUTPUT, DEFAULT_PROP_OUTPUT,
          ready),
      G_STRUCT_OFFSET (GstCudaSgmSettings, output));
  gst_cv_filter_class_install_setting (filter_class, PROP_FOCAL_LENGTH,
      g_param_spec_double ("focal-length", "Focal length",
          "Focal length of the rectified left camera, px, for the meta's "
          "calibration (0 = unknown)", 0.0, GST_CV_MAX_FOCAL_LENGTH,
          DEFAULT_PROP_FOCAL_LENGTH, playing),
      G_STRUCT_OFFSET (GstCudaSgmSettings, focal_length));
  gst_cv_filter_class_install_setting (filter_class, PROP_PRINCIPAL_X,
      g_param_spec_double ("principal-x", "Principal point x",
          "Principal point column of the left view, px (< 0: the view's "
          "centre, (width - 1) / 2)", -1.0, GST_CV_MAX_PRINCIPAL,
          DEFAULT_PROP_PRINCIPAL, playing),
      G_STRUCT_OFFSET (GstCudaSgmSettings, principal_x));
  gst_cv_filter_class_install_setting (filter_class, PROP_PRINCIPAL_Y,
      g_param_spec_double ("principal-y", "Principal point y",
          "Principal point row of the left view, px (< 0: the view's "
          "centre, (height - 1) / 2)", -1.0, GST_CV_MAX_PRINCIPAL,
          DEFAULT_PROP_PRINCIPAL, playing),
      G_STRUCT_OFFSET (GstCudaSgmSettings, principal_y));
  gst_cv_filter_class_install_setting (filter_class, PROP_BASELINE,
      g_param_spec_double ("baseline", "Baseline",
          "Distance between the two cameras, m, for the meta's calibration "
          "(0 = unknown)", 0.0, GST_CV_MAX_BASELINE, DEFAULT_PROP_BASELINE,
          playing),
      G_STRUCT_OFFSET (GstCudaSgmSettings, baseline));

  gst_element_class_set_static_metadata (element_class,
      "CUDA semi-global matching stereo", "Filter/Analyzer/Video",
      "Dense disparity of a rectified stereo pair packed side-by-side or "
      "top-bottom in one frame, by semi-global matching; outputs the left "
      "view or the disparity as an image, and attaches a GstCvDisparityMeta; "
      "on the GPU for CUDA memory, on the CPU for system memory",
      "gst-cudavision developers");
  gst_cv_filter_class_add_pad_templates (filter_class,
      gst_cuda_sgm_sink_template_caps (), gst_cuda_sgm_src_template_caps ());

  trans_class->fixate_caps = GST_DEBUG_FUNCPTR (gst_cuda_sgm_fixate_caps);
  trans_class->transform_meta = GST_DEBUG_FUNCPTR (gst_cuda_sgm_transform_meta);

  filter_class->settings_size = sizeof (GstCudaSgmSettings);
  filter_class->transform_caps =
      GST_DEBUG_FUNCPTR (gst_cuda_sgm_transform_caps);
  filter_class->set_info = GST_DEBUG_FUNCPTR (gst_cuda_sgm_set_info);
  filter_class->process_cpu = GST_DEBUG_FUNCPTR (gst_cuda_sgm_process_cpu);
#ifdef CV_HAVE_CUDA
  filter_class->process_cuda = GST_DEBUG_FUNCPTR (gst_cuda_sgm_process_cuda);
#endif
  filter_class->release = GST_DEBUG_FUNCPTR (gst_cuda_sgm_release);

  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_SGM_LAYOUT, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_SGM_OUTPUT, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_SGM_PATHS, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_SGM_CENSUS, 0);
}

static void
gst_cuda_sgm_init (GstCudaSgm * self)
{
}
