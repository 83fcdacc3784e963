/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "rel_cases.h"

#include "cvtestutil.h"

#include <gst/check/gstcheck.h>
#include <gst/base/gstbasesrc.h>
#include <gst/base/gstbasetransform.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The frames of the stream cases (small: the CPU reference is fast there). */
#define CASE_W 64
#define CASE_H 48

/* Frames each stress run keeps the property thread busy for, at least. */
#define STRESS_MIN_FRAMES 200
#define STRESS_MIN_US (1 * G_USEC_PER_SEC)
/* Frames after the properties settled that are compared with a reference. */
#define STRESS_SETTLED_FRAMES 30
/* Frames that may have taken their property snapshot before the settle:
 * the one being processed and, with cudaupload/cudadownload, one more. */
#define STRESS_IN_FLIGHT 3

/* Flushing seeks: positions (frames) in [0, SEEK_MAX_START], segments of
 * SEEK_SEGMENT frames. */
#define SEEK_COUNT 20
#define SEEK_MAX_START 40
#define SEEK_SEGMENT 6
/* the first frame of the last segment, which plays to its end */
#define SEEK_LAST_START 10

/* PLAYING <-> NULL / READY / PAUSED cycles. */
#define STATE_CYCLES 30

/* Random runs of the fuzz case (REL_FUZZ_ITERATIONS overrides). */
#define FUZZ_ITERATIONS 40
#define FUZZ_MAX_W 80
#define FUZZ_MAX_H 60

/* The GPU tests' reduced mode (cv_test_quick: CV_TEST_QUICK=1, or running
 * under compute-sanitizer): every case with fewer formats, frames and
 * iterations (cv_test_count). */
static gboolean
quick (void)
{
  return cv_test_quick (0, NULL);
}

/* cv_test_count for the volume of the stream cases (frames under property
 * stress, seeks, state cycles), which also shrinks under valgrind: the
 * memory checker needs their code paths, not hundreds of frames of each. */
static guint
stream_scaled (guint n, guint quick_n)
{
  return rel_under_valgrind ()? quick_n : cv_test_count (n, quick_n);
}

static gchar *
what_of (const RelElement * e, gboolean cuda, const gchar * name)
{
  return g_strdup_printf ("%s%s: %s", e->factory, cuda ? " (CUDA)" : "",
      name);
}

static const gchar *const *
formats_of (const RelElement * e, gboolean cuda)
{
  return cuda ? e->cuda_formats : e->cpu_formats;
}

static GObjectClass *
class_of (const RelElement * e)
{
  GstElementFactory *f = gst_element_factory_find (e->factory);
  GType type;

  fail_unless (f != NULL);
  type = gst_element_factory_get_element_type (f);
  if (type == G_TYPE_INVALID) {
    /* not loaded yet */
    GstPluginFeature *loaded =
        gst_plugin_feature_load (GST_PLUGIN_FEATURE (f));
    type = gst_element_factory_get_element_type (GST_ELEMENT_FACTORY
        (loaded));
    gst_object_unref (loaded);
  }
  gst_object_unref (f);
  /* classes of static types live as long as the process */
  return g_type_class_peek (type) ? g_type_class_peek (type) :
      g_type_class_ref (type);
}

static gboolean
has_property (const RelElement * e, const gchar * name)
{
  return g_object_class_find_property (class_of (e), name) != NULL;
}

/* "overlay=true" when the element draws, so drawing is exercised too. */
static const gchar *
overlay_on (const RelElement * e)
{
  return has_property (e, "overlay") ? "overlay=true" : "";
}

/* "[cudaupload !] <e> name=el <props> [! cudadownload]" */
static gchar *
element_desc (const RelElement * e, gboolean cuda, const gchar * props)
{
  return g_strdup_printf ("%s%s name=el %s %s%s", cuda ? "cudaupload ! " :
      "", e->factory, e->props, props ? props : "",
      cuda ? " ! cudadownload" : "");
}

/* ---- disparity patterns ----------------------------------------------------- */

static gint16
disp_invalid (gint x, gint y, gint w, gint h, gpointer d)
{
  return -1;
}

static gint16
disp_most_negative (gint x, gint y, gint w, gint h, gpointer d)
{
  return G_MININT16;
}

static gint16
disp_zero (gint x, gint y, gint w, gint h, gpointer d)
{
  return 0;
}

static gint16
disp_largest (gint x, gint y, gint w, gint h, gpointer d)
{
  return G_MAXINT16;
}

/* 100 px everywhere, while the meta announces at most 16 px */
static gint16
disp_beyond_meta (gint x, gint y, gint w, gint h, gpointer d)
{
  return 100 * GST_CV_DISPARITY_SCALE;
}

static gint16
disp_garbage (gint x, gint y, gint w, gint h, gpointer d)
{
  guint32 v = (guint32) (x * 73856093u) ^ (guint32) (y * 19349663u);
  v ^= v >> 13;
  v *= 0x5bd1e995u;
  return (gint16) (v >> 16);
}

/* a road: disparity growing linearly below the horizon (mid-height), a box
 * in the middle, invalid sky */
static gint16
disp_road (gint x, gint y, gint w, gint h, gpointer d)
{
  gint horizon = h / 2;

  if (x > w / 3 && x < w / 2 && y > horizon - h / 6 && y < horizon + h / 4)
    return (gint16) (GST_CV_DISPARITY_SCALE * 6);
  if (y <= horizon)
    return -1;
  return (gint16) (GST_CV_DISPARITY_SCALE * (y - horizon) * 16 / h);
}

typedef struct
{
  const gchar *name;
  RelDisparityFn fn;
  gint max_disparity;           /* what the meta announces, px */
} DispPattern;

static const DispPattern disp_patterns[] = {
  {"all invalid (-1)", disp_invalid, 64},
  {"all invalid (-32768)", disp_most_negative, 64},
  {"all zero (at infinity)", disp_zero, 64},
  {"all 2047.9 px (wider than the frame)", disp_largest, 2048},
  {"100 px, beyond the meta's 16 px", disp_beyond_meta, 16},
  {"random garbage", disp_garbage, 2048},
  {"road", disp_road, 64},
};

/* Samples of @n frames from @first_index with @fn disparity. */
static void
add_samples (GPtrArray * samples, GstVideoFormat format, gint w, gint h,
    RelDisparityFn fn, gint max_disparity,
    const GstCvStereoCalibration * calib, guint first_index, guint n)
{
  GstCvStereoCalibration c;

  if (calib == NULL) {
    rel_default_calibration (w, h, &c);
    calib = &c;
  }
  for (guint i = 0; i < n; i++)
    g_ptr_array_add (samples, rel_sample (rel_buffer_with_disparity (format,
                w, h, w, h, fn, NULL, calib, max_disparity, first_index + i),
            format, w, h));
}

static GPtrArray *
new_samples (void)
{
  return g_ptr_array_new_with_free_func ((GDestroyNotify) gst_sample_unref);
}

/* ---- caps ------------------------------------------------------------------ */

void
rel_case_refused_format (const RelElement * e, gboolean cuda)
{
  gchar *src = rel_source (e, e->refused_format, CASE_W, CASE_H, 2, cuda,
      NULL);
  gchar *desc;

  if (e->input == REL_INPUT_SOURCE) {
    /* the source's caps cannot meet the capsfilter: refused at link time */
    GError *error = NULL;
    GstElement *pipeline;

    desc = g_strdup_printf ("%sfakesink name=sink", src);
    pipeline = gst_parse_launch (desc, &error);
    fail_unless (error != NULL && strstr (error->message, "could not link"),
        "'%s': %s", desc, error ? error->message : "no error");
    g_clear_error (&error);
    gst_clear_object (&pipeline);
    g_free (desc);
    g_free (src);
    return;
  }
  /* linked directly: refused when the pipeline is built, naming the caps */
  {
    GError *error = NULL;
    GstElement *pipeline;
    gchar *expected = g_strdup_printf ("format=(string)%s", e->refused_format);

    desc = g_strdup_printf ("%s%s name=el %s ! fakesink name=sink", src,
        e->factory, e->props);
    pipeline = gst_parse_launch (desc, &error);
    if (cuda && error != NULL && strstr (error->message, "cudaupload")
        && strstr (error->message, "can't handle caps")) {
      /* the stock cudaupload takes no such frames: not what this tests */
      g_print ("  %s: cudaupload refused it (%s): not ours, skipped\n",
          e->factory, error->message);
      g_clear_error (&error);
      gst_clear_object (&pipeline);
      g_free (expected);
      g_free (desc);
      g_free (src);
      return;
    }
    /* (after cudaupload, whose caps take any format, GStreamer names no
     * caps: "could not link cudaupload0 to el") */
    fail_unless (error != NULL && (cuda ?
            strstr (error->message, "could not link") != NULL
            && strstr (error->message, "to el") != NULL :
            strstr (error->message, "can't handle caps") != NULL
            && strstr (error->message, expected) != NULL), "'%s': %s", desc,
        error ? error->message : "no error");
    g_clear_error (&error);
    gst_clear_object (&pipeline);
    g_free (expected);
    g_free (desc);
  }
  /* an application's source that decides the format at run time: refused
   * when negotiating */
  {
    GPtrArray *samples = new_samples ();
    gchar *middle = element_desc (e, cuda, NULL);
    GstVideoFormat format = gst_video_format_from_string (e->refused_format);
    gchar *expected = g_strdup_printf ("format %s is not supported",
        e->refused_format);
    RelRun run;

    g_ptr_array_add (samples, rel_sample (rel_buffer_with_disparity (format,
                CASE_W, CASE_H, CASE_W, CASE_H, e->input == REL_INPUT_DISPARITY
                ? disp_road : NULL, NULL, NULL, 64, 0), format, CASE_W,
            CASE_H));
    rel_run_appsrc (middle, samples, 60, REL_RUN_DEFAULT, &run);
    /* the element's own refusal naming the format; on the GPU the stock
     * cudaupload before it may refuse first (GStreamer's not-negotiated) */
    if (!cuda || g_strcmp0 (run.error_source, "el") == 0) {
      rel_assert_error (&run, "refused format from appsrc", expected);
      fail_unless_equals_string (run.error_source, "el");
    } else {
      rel_assert_error (&run, "refused format from appsrc", "not-negotiated");
    }
    rel_run_clear (&run);
    g_free (expected);
    g_free (middle);
  }
  g_free (src);
}

/* A crop-aware element downstream (videocrop, display sinks) answers the
 * allocation query with GstVideoCropMeta support; an element that passes
 * that upstream gets the uncropped frame of the videocrop before it, with
 * a crop meta (cudahough overflowed its luma buffer, the disparity
 * consumers refused the frame). */
void
rel_case_crop_downstream (const RelElement * e, gboolean cuda)
{
  gchar *src, *desc, *what;
  RelRun run;

  if (e->input != REL_INPUT_IMAGE && e->input != REL_INPUT_DISPARITY)
    return;
  src = rel_source (e, formats_of (e, cuda)[0], CASE_W, CASE_H, 2, cuda,
      NULL);
  /* the results are checked at the identity (rel_run's "sink"), before
   * the crop (which crops system memory only) */
  desc = g_strdup_printf ("%s%s name=el %s %s ! %sidentity name=sink ! "
      "videocrop left=2 ! fakesink sync=false", src, e->factory, e->props,
      overlay_on (e), cuda ? "cudadownload ! video/x-raw ! " : "");
  what = what_of (e, cuda, desc);
  rel_run (desc, 60, REL_RUN_DEFAULT, NULL, NULL, &run);
  rel_assert_eos (&run, what);
  fail_unless_equals_int (run.frames->len, 2);
  rel_run_clear (&run);
  g_free (what);
  g_free (desc);
  g_free (src);
}

/* Frames with padded rows and planes (a GstVideoMeta's strides and
 * offsets: cameras, decoders, aligned pools) give the results of the
 * packed frame, every format. */
void
rel_case_padded_frames (const RelElement * e, gboolean cuda)
{
  const gchar *const *formats = formats_of (e, cuda);
  const gint width = e->input == REL_INPUT_STEREO ? 2 * CASE_W : CASE_W;

  if (e->input == REL_INPUT_SOURCE)
    return;
  for (guint f = 0; formats[f] != NULL; f++) {
    GstVideoFormat format = gst_video_format_from_string (formats[f]);
    gchar *middle = element_desc (e, cuda, overlay_on (e));
    gchar *what = g_strdup_printf ("%s %s, padded rows", e->factory,
        formats[f]);
    RelRun packed, padded;

    for (gint pad = 0; pad < 2; pad++) {
      GPtrArray *samples = new_samples ();
      GstBuffer *frame = rel_buffer_with_disparity (format, width, CASE_H,
          CASE_W, CASE_H, e->input == REL_INPUT_DISPARITY ? disp_road : NULL,
          NULL, NULL, 64, 0);
      GstVideoInfo info;

      if (pad) {
        GstBuffer *copy;
        gst_video_info_set_format (&info, format, width, CASE_H);
        copy = cv_test_pad_frame (frame, &info);
        gst_buffer_unref (frame);
        frame = copy;
      }
      g_ptr_array_add (samples, rel_sample (frame, format, width, CASE_H));
      rel_run_appsrc (middle, samples, 60, REL_RUN_PIXELS,
          pad ? &padded : &packed);
    }
    rel_assert_eos (&packed, what);
    rel_assert_eos (&padded, what);
    rel_assert_frames_match (&padded, &packed, 0, what);
    rel_run_clear (&packed);
    rel_run_clear (&padded);
    g_free (what);
    g_free (middle);
  }
}

/* One frame for a filter's appsrc: @e's first system format (its name in
 * @format_name), views of CASE_W x CASE_H (side by side for a stereo
 * element, @width in all), a road's disparity for a disparity element. */
static GstBuffer *
case_frame (const RelElement * e, const gchar ** format_name,
    GstVideoFormat * format, gint * width)
{
  *format_name = formats_of (e, FALSE)[0];
  *format = gst_video_format_from_string (*format_name);
  *width = e->input == REL_INPUT_STEREO ? 2 * CASE_W : CASE_W;
  return rel_buffer_with_disparity (*format, *width, CASE_H, CASE_W, CASE_H,
      e->input == REL_INPUT_DISPARITY ? disp_road : NULL, NULL, NULL, 64, 0);
}

/* An application's buffer smaller than its caps' frame (a bug upstream):
 * the element says so, in bytes, instead of "could not map" (system
 * memory: before CUDA memory, cudaupload copies and refuses it itself). */
void
rel_case_short_buffers (const RelElement * e, gboolean cuda)
{
  const gchar *format_name;
  GstVideoFormat format;
  gint width;
  GPtrArray *samples;
  GstBuffer *frame;
  gchar *middle, *what;
  RelRun run;

  if (e->input == REL_INPUT_SOURCE || cuda)
    return;
  samples = new_samples ();
  frame = case_frame (e, &format_name, &format, &width);
  gst_buffer_resize (frame, 0, gst_buffer_get_size (frame) - 1);
  g_ptr_array_add (samples, rel_sample (frame, format, width, CASE_H));
  middle = element_desc (e, FALSE, NULL);
  what = g_strdup_printf ("%s %s, one byte short", e->factory, format_name);
  rel_run_appsrc (middle, samples, 60, REL_RUN_INPUT_DISPARITY, &run);
  rel_assert_error (&run, what, "bytes, less than the");
  fail_unless_equals_string (run.error_source, "el");
  rel_run_clear (&run);
  g_free (what);
  g_free (middle);
}

/* Interlaced frames (woven fields) are refused with the reason. */
void
rel_case_interlaced (const RelElement * e, gboolean cuda)
{
  const gchar *format_name;
  GstVideoFormat format;
  gint width;
  GPtrArray *samples;
  GstBuffer *frame;
  GstSample *progressive;
  GstCaps *caps;
  gchar *middle, *what;
  RelRun run;

  if (e->input == REL_INPUT_SOURCE)
    return;
  samples = new_samples ();
  frame = case_frame (e, &format_name, &format, &width);
  progressive = rel_sample (frame, format, width, CASE_H);
  caps = gst_caps_copy (gst_sample_get_caps (progressive));
  gst_caps_set_simple (caps, "interlace-mode", G_TYPE_STRING, "interleaved",
      NULL);
  g_ptr_array_add (samples, gst_sample_new (gst_sample_get_buffer
          (progressive), caps, NULL, NULL));
  gst_caps_unref (caps);
  gst_sample_unref (progressive);
  middle = element_desc (e, cuda, NULL);
  what = g_strdup_printf ("%s %s, interleaved fields", e->factory,
      format_name);
  rel_run_appsrc (middle, samples, 60, REL_RUN_INPUT_DISPARITY, &run);
  /* on the GPU the stock cudaupload before it may refuse first */
  if (!cuda || g_strcmp0 (run.error_source, "el") == 0) {
    rel_assert_error (&run, what, "takes progressive video, not "
        "interlace-mode interleaved (deinterlace first)");
    fail_unless_equals_string (run.error_source, "el");
  } else {
    rel_assert_error (&run, what, "not-negotiated");
  }
  rel_run_clear (&run);
  g_free (what);
  g_free (middle);
}

/* Sizes the odd-size case runs: odd, one pixel, one row, one column. */
static const gint odd_sizes[][2] = {
  {33, 17}, {1, 1}, {2, 3}, {3, 2}, {1, 31}, {31, 1},
};

void
rel_case_odd_sizes (const RelElement * e, gboolean cuda)
{
  const gchar *const *formats = formats_of (e, cuda);

  for (guint f = 0; formats[f] != NULL; f++) {
    for (guint s = 0; s < G_N_ELEMENTS (odd_sizes); s++) {
      gint w = odd_sizes[s][0], h = odd_sizes[s][1];
      gchar *desc, *what;
      RelRun run;

      /* every format at the odd size, two formats at the tiny ones */
      if ((s > 0 && f > 1) || (quick () && (f > 0 || s > 1)))
        continue;
      desc = rel_pipeline (e, formats[f], w, h, 2, cuda, overlay_on (e));
      what = g_strdup_printf ("%s %s %dx%d: %s", e->factory, formats[f], w, h,
          desc);
      rel_run (desc, 60, REL_RUN_PIXELS, NULL, NULL, &run);
      if (cuda && run.error && g_strcmp0 (run.error_source, "el") != 0
          && g_str_has_prefix (run.error_source, "cuda")) {
        /* the stock CUDA elements' limits are not what this tests */
        g_print ("  %s: %s refused it (%s): not ours, skipped\n", what,
            run.error_source, run.error);
      } else if ((e->input == REL_INPUT_SOURCE
              || e->input == REL_INPUT_STEREO) && (2 * w) % 4 != 0
          && (g_str_equal (formats[f], "NV12")
              || g_str_equal (formats[f], "I420"))) {
        /* the views of a pair must start on a chroma sample */
        rel_assert_error (&run, what, "divisible by 4");
      } else if (w < e->min_width || h < e->min_height) {
        rel_assert_error (&run, what, e->too_small_error);
        fail_unless_equals_string (run.error_source, "el");
      } else {
        rel_assert_eos (&run, what);
        fail_unless_equals_int (run.frames->len, 2);
        rel_assert_result_metas (e, &run, 0, what);
      }
      rel_run_clear (&run);
      g_free (what);
      g_free (desc);
    }
  }
}

#define LARGE_W 7680
#define LARGE_H 4320

/* One 8K frame (a 2x8K pair for stereo input) through @e with @props:
 * a road disparity meta for disparity input, else SMPTE bars. */
static void
run_large (const RelElement * e, gboolean cuda, const gchar * format,
    const gchar * props, RelRun * run)
{
  gchar *element = element_desc (e, cuda, props);
  gint64 t0 = g_get_monotonic_time ();

  if (e->input == REL_INPUT_DISPARITY) {
    GPtrArray *samples = new_samples ();

    add_samples (samples, gst_video_format_from_string (format), LARGE_W,
        LARGE_H, disp_road, 64, NULL, 0, 1);
    rel_run_appsrc (element, samples, 300, REL_RUN_DEFAULT, run);
  } else {
    gchar *desc = g_strdup_printf ("videotestsrc num-buffers=1 pattern=smpte ! "
        "video/x-raw,format=%s,width=%d,height=%d,framerate=%d/1 ! %s ! "
        "fakesink name=sink sync=false", format,
        e->input == REL_INPUT_STEREO ? 2 * LARGE_W : LARGE_W, LARGE_H,
        REL_FPS, element);
    rel_run (desc, 300, REL_RUN_DEFAULT, NULL, NULL, run);
    g_free (desc);
  }
  g_print ("  8K %s %s: %.1f s, %s\n", format, props,
      (g_get_monotonic_time () - t0) / 1e6, run->error ? run->error : "EOS");
  g_free (element);
}

void
rel_case_large_frames (const RelElement * e, gboolean cuda)
{
  const gchar *const *formats = formats_of (e, cuda);
  gchar *what;
  RelRun run;

  if (e->input == REL_INPUT_SOURCE)
    return;
  if (g_strcmp0 (e->large_default_error, "-") != 0) {
    what = what_of (e, cuda, "8K frame, default properties");
    run_large (e, cuda, formats[0], "", &run);
    if (cuda && e->large_cuda_error && run.error)
      rel_assert_error (&run, what, e->large_cuda_error);
    else if (e->large_default_error)
      rel_assert_error (&run, what, e->large_default_error);
    else
      rel_assert_eos (&run, what);
    rel_run_clear (&run);
    g_free (what);
  }

  /* the properties meant for large frames: it works, in every format (on
   * CUDA memory: or fails with the documented limit) */
  /* (a stereo matcher's 8K pair costs half a minute on the CPU: one format) */
  for (guint f = 0; formats[f] != NULL && f < cv_test_count (e->input ==
          REL_INPUT_STEREO ? 1 : 2, 1); f++) {
    what = g_strdup_printf ("%s%s: 8K %s frame with %s", e->factory,
        cuda ? " (CUDA)" : "", formats[f], e->large_props);
    run_large (e, cuda, formats[f], e->large_props, &run);
    if (cuda && e->large_cuda_error && run.error) {
      rel_assert_error (&run, what, e->large_cuda_error);
      fail_unless_equals_string (run.error_source, "el");
    } else {
      rel_assert_eos (&run, what);
      fail_unless_equals_int (run.frames->len, 1);
      rel_assert_result_metas (e, &run, 0, what);
    }
    rel_run_clear (&run);
    g_free (what);
  }
}

/* ---- disparity input ------------------------------------------------------ */

void
rel_case_missing_disparity (const RelElement * e, gboolean cuda)
{
  const gchar *const *formats = formats_of (e, cuda);
  RelElement image = *e;

  if (e->input != REL_INPUT_DISPARITY)
    return;
  image.input = REL_INPUT_IMAGE;
  for (guint f = 0; formats[f] != NULL && f < 2; f++) {
    gchar *desc = rel_pipeline (&image, formats[f], CASE_W, CASE_H, 2, cuda,
        NULL);
    rel_expect_error (desc, "No disparity for this frame");
    g_free (desc);
  }
}

void
rel_case_wrong_size_disparity (const RelElement * e, gboolean cuda)
{
  static const gint scaled[][2] = { {32, 24}, {96, 72}, {64, 47}, {63, 48} };

  if (e->input != REL_INPUT_DISPARITY)
    return;
  /* videoscale keeps untagged metas: a scaled frame keeps the disparity
   * of the unscaled one */
  for (guint i = 0; i < G_N_ELEMENTS (scaled); i++) {
    gchar *element = element_desc (e, cuda, NULL);
    gchar *desc = g_strdup_printf ("stereotestsrc supersample=1 "
        "attach-disparity=true num-buffers=2 ! video/x-raw,format=RGBA,"
        "width=%d,height=%d,framerate=%d/1 ! videocrop right=%d ! videoscale ! "
        "video/x-raw,width=%d,height=%d ! %s ! fakesink name=sink",
        2 * CASE_W, CASE_H, REL_FPS, CASE_W, scaled[i][0], scaled[i][1],
        element);
    rel_expect_error (desc, "does not match the frame");
    g_free (desc);
    g_free (element);
  }
  /* a producer that attaches a map of another size */
  {
    GPtrArray *samples = new_samples ();
    GstCvStereoCalibration calib;
    gchar *middle = element_desc (e, cuda, NULL);
    RelRun run;

    rel_default_calibration (CASE_W, CASE_H, &calib);
    g_ptr_array_add (samples, rel_sample (rel_buffer_with_disparity
            (GST_VIDEO_FORMAT_RGBA, CASE_W, CASE_H, CASE_W + 1, CASE_H - 1,
                disp_road, NULL, &calib, 64, 0), GST_VIDEO_FORMAT_RGBA, CASE_W,
            CASE_H));
    rel_run_appsrc (middle, samples, 60, REL_RUN_DEFAULT, &run);
    rel_assert_error (&run, "65x47 map on a 64x48 frame",
        "does not match the frame");
    rel_run_clear (&run);
    g_free (middle);
  }
}

void
rel_case_invalid_disparity (const RelElement * e, gboolean cuda)
{
  if (e->input != REL_INPUT_DISPARITY)
    return;
  for (guint v = 0; e->data_variants[v] != NULL; v++)
  for (guint p = 0; p < G_N_ELEMENTS (disp_patterns); p++) {
    /* (on CUDA memory one format: the upload path is what differs) */
    for (guint f = 0; f < (cuda ? 1 : cv_test_count (2, 1)); f++) {
      const gchar *format = formats_of (e, cuda)[f];
      GPtrArray *samples = new_samples ();
      gchar *props = g_strdup_printf ("%s %s", overlay_on (e),
          e->data_variants[v]);
      gchar *middle = element_desc (e, cuda, props);
      gchar *what = g_strdup_printf ("%s%s %s: %s disparity, %s", e->factory,
          cuda ? " (CUDA)" : "", e->data_variants[v], disp_patterns[p].name,
          format);
      RelRun run, again;

      add_samples (samples, gst_video_format_from_string (format), CASE_W,
          CASE_H, disp_patterns[p].fn, disp_patterns[p].max_disparity, NULL,
          0, 3);
      rel_run_appsrc (middle, samples, 60, REL_RUN_PIXELS |
          REL_RUN_INPUT_DISPARITY, &run);
      rel_assert_eos (&run, what);
      fail_unless_equals_int (run.frames->len, 3);
      rel_assert_result_metas (e, &run, 0, what);

      /* and the same result again: nothing depends on leftovers */
      samples = new_samples ();
      add_samples (samples, gst_video_format_from_string (format), CASE_W,
          CASE_H, disp_patterns[p].fn, disp_patterns[p].max_disparity, NULL,
          0, 3);
      rel_run_appsrc (middle, samples, 60, REL_RUN_PIXELS |
          REL_RUN_INPUT_DISPARITY, &again);
      rel_assert_frames_match (&again, &run, 0, what);
      rel_run_clear (&again);
      rel_run_clear (&run);
      g_free (what);
      g_free (middle);
      g_free (props);
    }
  }
}

void
rel_case_bad_calibration (const RelElement * e, gboolean cuda)
{
  struct
  {
    const gchar *name;
    gint field;                 /* 0 focal, 1 principal x, 2 principal y, 3 baseline */
    gdouble value;
  } bad[] = {
    {"focal length NaN", 0, NAN}, {"focal length +Inf", 0, INFINITY},
    {"focal length -Inf", 0, -INFINITY}, {"focal length 0", 0, 0.0},
    {"focal length -100", 0, -100.0}, {"focal length 1e30", 0, 1e30},
    {"principal x NaN", 1, NAN}, {"principal x +Inf", 1, INFINITY},
    {"principal y -1e9", 2, -1e9}, {"principal y NaN", 2, NAN},
    {"baseline NaN", 3, NAN}, {"baseline +Inf", 3, INFINITY},
    {"baseline 0", 3, 0.0}, {"baseline -0.5", 3, -0.5},
    {"baseline 1e30", 3, 1e30},
  };

  if (e->input != REL_INPUT_DISPARITY)
    return;
  for (guint v = 0; e->data_variants[v] != NULL; v++)
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++) {
    GstCvStereoCalibration calib;
    gdouble *field[4] = { &calib.focal_length, &calib.principal_x,
      &calib.principal_y, &calib.baseline
    };
    GPtrArray *samples = new_samples ();
    gchar *props = g_strdup_printf ("%s %s", overlay_on (e),
        e->data_variants[v]);
    gchar *middle = element_desc (e, cuda, props);
    gchar *what = g_strdup_printf ("%s%s %s: calibration with %s",
        e->factory, cuda ? " (CUDA)" : "", e->data_variants[v], bad[i].name);
    RelRun run;

    rel_default_calibration (CASE_W, CASE_H, &calib);
    *field[bad[i].field] = bad[i].value;
    add_samples (samples, GST_VIDEO_FORMAT_RGBA, CASE_W, CASE_H, disp_road, 64,
        &calib, 0, 2);
    rel_run_appsrc (middle, samples, 60, REL_RUN_PIXELS, &run);
    /* refused with a message about the calibration, or used sensibly */
    if (run.error) {
      gchar *lower = g_ascii_strdown (run.error, -1);
      fail_unless (strstr (lower, "calibration") || strstr (lower, "focal")
          || strstr (lower, "baseline") || strstr (lower, "principal"),
          "%s: error '%s' does not name the calibration", what, run.error);
      g_free (lower);
      fail_unless_equals_string (run.error_source, "el");
    } else {
      rel_assert_eos (&run, what);
      rel_assert_result_metas (e, &run, 0, what);
    }
    g_print ("  %s: %s\n", what, run.error ? run.error : "processed");
    rel_run_clear (&run);
    g_free (what);
    g_free (middle);
    g_free (props);
  }
}

/* ---- properties ----------------------------------------------------------- */

/* The string gst-launch takes for @value (of @spec's type). */
static gchar *
value_string (GParamSpec * spec, gdouble value)
{
  GType t = G_PARAM_SPEC_VALUE_TYPE (spec);

  if (t == G_TYPE_FLOAT)
    return g_strdup_printf ("%.9g", value);
  if (t == G_TYPE_DOUBLE)
    return g_strdup_printf ("%.17g", value);
  return g_strdup_printf ("%.0f", value);
}

/* Range of a numeric property; FALSE for other types. */
static gboolean
numeric_range (GParamSpec * spec, gdouble * min, gdouble * max)
{
  if (G_IS_PARAM_SPEC_INT (spec)) {
    *min = G_PARAM_SPEC_INT (spec)->minimum;
    *max = G_PARAM_SPEC_INT (spec)->maximum;
  } else if (G_IS_PARAM_SPEC_UINT (spec)) {
    *min = G_PARAM_SPEC_UINT (spec)->minimum;
    *max = G_PARAM_SPEC_UINT (spec)->maximum;
  } else if (G_IS_PARAM_SPEC_FLOAT (spec)) {
    *min = G_PARAM_SPEC_FLOAT (spec)->minimum;
    *max = G_PARAM_SPEC_FLOAT (spec)->maximum;
  } else if (G_IS_PARAM_SPEC_DOUBLE (spec)) {
    *min = G_PARAM_SPEC_DOUBLE (spec)->minimum;
    *max = G_PARAM_SPEC_DOUBLE (spec)->maximum;
  } else {
    return FALSE;
  }
  return TRUE;
}

/* Properties that are not the element's own (GstBaseSrc's num-buffers,
 * GstBaseTransform's qos, ...) or that the cases choose: not varied. */
static gboolean
skip_property (GParamSpec * spec)
{
  return !(spec->flags & G_PARAM_WRITABLE)
      || g_type_is_a (GST_TYPE_BASE_SRC, spec->owner_type)
      || g_type_is_a (GST_TYPE_BASE_TRANSFORM, spec->owner_type)
      || (spec->flags & G_PARAM_CONSTRUCT_ONLY)
      || strcmp (spec->name, "cuda-device-id") == 0
      || strcmp (spec->name, "name") == 0
      || strcmp (spec->name, "parent") == 0
      || strcmp (spec->name, "qos") == 0;
}

/* Accepts an outcome of a run with unusual settings: EOS with consistent
 * metas, or a specific error of the element itself. */
static void
assert_clean_outcome (const RelElement * e, const RelRun * run,
    const gchar * what)
{
  if (run->error == NULL) {
    rel_assert_eos (run, what);
    rel_assert_result_metas (e, run, 0, what);
    return;
  }
  fail_unless (g_strcmp0 (run->error_source, "el") == 0,
      "%s: the error came from %s, not the element: %s (%s)", what,
      run->error_source, run->error, run->debug);
  fail_unless (strlen (run->error) > 10
      && strstr (run->error, "Internal data stream error") == NULL,
      "%s: the element's error says nothing specific: '%s'", what,
      run->error);
  fail_unless (run->first_problem == NULL, "%s: %s", what,
      run->first_problem);
}

void
rel_case_extreme_properties (const RelElement * e, gboolean cuda)
{
  guint n_specs;
  GParamSpec **specs = g_object_class_list_properties (class_of (e),
      &n_specs);
  const gchar *format = formats_of (e, cuda)[0];

  /* GObject refuses NaN and infinite values for float/double properties
   * (GLib warns: "invalid or out of range"), so the extremes a property
   * can really take are its minimum and maximum: each alone. */
  for (guint i = 0; i < n_specs; i++) {
    gdouble range[2];

    if (skip_property (specs[i])
        || !numeric_range (specs[i], &range[0], &range[1]))
      continue;
    for (guint k = 0; k < cv_test_count (2, 1); k++) {
      gchar *value = value_string (specs[i], range[k]);
      gchar *props = g_strdup_printf ("%s %s=%s", overlay_on (e),
          specs[i]->name, value);
      gchar *desc = rel_pipeline (e, format, CASE_W, CASE_H, 2, cuda, props);
      gchar *what = g_strdup_printf ("%s%s: %s=%s (its %s)", e->factory,
          cuda ? " (CUDA)" : "", specs[i]->name, value,
          k == 0 ? "minimum" : "maximum");
      RelRun run;

      rel_run (desc, 120, REL_RUN_PIXELS, NULL, NULL, &run);
      assert_clean_outcome (e, &run, what);
      if (run.error)
        g_print ("  %s: %s\n", what, run.error);
      rel_run_clear (&run);
      g_free (what);
      g_free (desc);
      g_free (props);
      g_free (value);
    }
  }
  g_free (specs);
}

/* ---- streams ----------------------------------------------------------------- */

static void
append_frames (RelRun * dst, const RelRun * src)
{
  for (guint i = 0; i < src->frames->len; i++) {
    RelFrame f = g_array_index (src->frames, RelFrame, i);
    f.format = g_strdup (f.format);
    f.digest = g_strdup (f.digest);
    g_array_append_val (dst->frames, f);
  }
}

/* Runs @description from frame @first to frame @end (excluded): PAUSED,
 * a flushing seek, PLAYING until the segment's EOS. */
static void
run_from (const gchar * description, gint first, gint end, RelRun * run)
{
  RelLive live;

  rel_live_prepare (&live, description, REL_RUN_PIXELS, description);
  rel_live_set_state (&live, GST_STATE_PAUSED);
  fail_unless (gst_element_seek (live.pipeline, 1.0, GST_FORMAT_TIME,
          GST_SEEK_FLAG_FLUSH | GST_SEEK_FLAG_ACCURATE, GST_SEEK_TYPE_SET,
          gst_util_uint64_scale (first, GST_SECOND, REL_FPS),
          GST_SEEK_TYPE_SET, gst_util_uint64_scale (end, GST_SECOND,
              REL_FPS)));
  rel_live_set_state (&live, GST_STATE_PLAYING);
  rel_live_wait_eos (&live, 120);
  rel_live_stop (&live);
  rel_assert_eos (&live.run, description);
  *run = live.run;
  g_free (live.what);
}

typedef struct
{
  gint width, height, history_start, last;
} RefGroup;

/* What fresh pipelines give for the frames of @run: per size the frames
 * from 0 on; for a stateful element per size and history (the frames since
 * it last started over) a fresh pipeline started at that frame. */
static void
make_reference (const RelElement * e, const RelRun * run,
    const gchar * format, gboolean cuda, const gchar * props,
    RelRun * reference)
{
  GHashTable *groups = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
      g_free);
  GHashTableIter iter;
  RefGroup *g;
  gboolean first = TRUE;

  for (guint i = 0; i < run->frames->len; i++) {
    const RelFrame *f = &g_array_index (run->frames, RelFrame, i);
    gint history = e->stateful ? f->history_start : 0;
    gchar *key = g_strdup_printf ("%dx%d/%d", f->width, f->height, history);

    g = g_hash_table_lookup (groups, key);
    if (g == NULL) {
      g = g_new0 (RefGroup, 1);
      /* the size of a view: the source's frames hold two side by side */
      g->width = e->input == REL_INPUT_SOURCE ? f->width / 2 : f->width;
      g->height = f->height;
      g->history_start = history;
      g_hash_table_insert (groups, key, g);
    } else {
      g_free (key);
    }
    g->last = MAX (g->last, rel_frame_index (f->pts));
  }

  memset (reference, 0, sizeof (*reference));
  g_hash_table_iter_init (&iter, groups);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) & g)) {
    RelRun part;
    gchar *desc;

    if (!e->stateful) {
      desc = rel_pipeline (e, format, g->width, g->height, g->last + 1, cuda,
          props);
      rel_run (desc, 120, REL_RUN_PIXELS, NULL, NULL, &part);
      rel_assert_eos (&part, desc);
    } else {
      desc = rel_pipeline (e, format, g->width, g->height, -1, cuda, props);
      run_from (desc, g->history_start, g->last + 1, &part);
    }
    if (first)
      *reference = part;
    else {
      append_frames (reference, &part);
      rel_run_clear (&part);
    }
    first = FALSE;
    g_free (desc);
  }
  g_hash_table_unref (groups);
}

static RelMatchFlags
match_flags (const RelElement * e)
{
  return e->stateful ? REL_MATCH_HISTORY : REL_MATCH_DEFAULT;
}

void
rel_case_renegotiation (const RelElement * e, gboolean cuda)
{
  /* size and format changes in one stream, two frames each */
  struct
  {
    gint w, h, format;          /* index into the element's formats */
  } steps[] = {
    {64, 48, 0}, {96, 72, 0}, {32, 24, 1}, {17, 9, 0}, {64, 48, 0},
  };
  static const gint sizes[][2] = { {64, 48}, {96, 72}, {48, 36}, {64, 48} };
  const gchar *const *formats = formats_of (e, cuda);
  RelDisparityFn fn = e->input == REL_INPUT_DISPARITY ? disp_road : NULL;
  gchar *middle = element_desc (e, cuda, overlay_on (e));
  gchar *what = what_of (e, cuda, "renegotiation (appsrc)");
  GPtrArray *samples;
  RelRun run, reference;
  RelLive live;
  gchar *desc;
  guint index = 0, seen = 0, pair;

  if (e->input == REL_INPUT_SOURCE)
    goto source;
  /* a stereo element takes both views side by side */
  pair = e->input == REL_INPUT_STEREO ? 2 : 1;
  samples = new_samples ();
  for (guint s = 0; s < G_N_ELEMENTS (steps); s++) {
    GstVideoFormat format =
        gst_video_format_from_string (formats[steps[s].format]);
    add_samples (samples, format, pair * steps[s].w, steps[s].h, fn, 64,
        NULL, index, 2);
    index += 2;
  }
  rel_run_appsrc (middle, samples, 60, REL_RUN_PIXELS, &run);
  rel_assert_eos (&run, what);
  fail_unless_equals_int (run.frames->len, index);
  rel_assert_result_metas (e, &run, 0, what);

  /* each size by a fresh element (which is where a stateful element starts
   * over too: at a caps change) */
  memset (&reference, 0, sizeof (reference));
  index = 0;
  for (guint s = 0; s < G_N_ELEMENTS (steps); s++) {
    GstVideoFormat format =
        gst_video_format_from_string (formats[steps[s].format]);
    RelRun part;

    samples = new_samples ();
    add_samples (samples, format, pair * steps[s].w, steps[s].h, fn, 64, NULL,
        index, 2);
    index += 2;
    rel_run_appsrc (middle, samples, 60, REL_RUN_PIXELS, &part);
    rel_assert_eos (&part, what);
    if (s == 0)
      reference = part;
    else {
      append_frames (&reference, &part);
      rel_run_clear (&part);
    }
  }
  rel_assert_frames_match_full (&run, &reference, 0, match_flags (e), what);
  rel_run_clear (&reference);
  rel_run_clear (&run);

  /* the source renegotiates while PLAYING (capsfilter change) */
source:
  g_free (what);
  what = what_of (e, cuda, "renegotiation (source)");
  desc = rel_pipeline (e, formats[0], sizes[0][0], sizes[0][1], -1, cuda,
      overlay_on (e));
  rel_live_start (&live, desc, REL_RUN_PIXELS, what);
  for (guint s = 1; s < G_N_ELEMENTS (sizes); s++) {
    seen += 5;
    fail_unless (rel_live_wait_frames (&live, seen, 60));
    rel_source_resize_live (live.pipeline, sizes[s][0], sizes[s][1]);
  }
  fail_unless (rel_live_wait_frames (&live, seen + 5, 60));
  gst_element_send_event (live.pipeline, gst_event_new_eos ());
  rel_live_wait_eos (&live, 60);
  rel_live_stop (&live);
  fail_unless (live.run.first_problem == NULL, "%s: %s", what,
      live.run.first_problem);
  rel_assert_result_metas (e, &live.run, 0, what);
  make_reference (e, &live.run, formats[0], cuda, overlay_on (e),
      &reference);
  rel_assert_frames_match_full (&live.run, &reference, 0, match_flags (e),
      what);
  rel_run_clear (&reference);
  rel_live_clear (&live);
  g_free (desc);
  g_free (what);
  g_free (middle);
}

void
rel_case_property_stress (const RelElement * e, gboolean cuda)
{
  const gchar *format = formats_of (e, cuda)[0];
  gchar *desc = rel_pipeline (e, format, CASE_W, CASE_H, -1, cuda, NULL);
  gchar *what = what_of (e, cuda, "property stress");
  gchar *settled = rel_stress_settled_string (e->stress);
  GstElement *el;
  RelLive live;
  RelStress stress;
  RelRun reference;
  gint64 t0;
  guint64 n_sets;
  guint n;
  gint settled_from;

  {
    /* checked before anything runs: a failed check leaves no thread of a
     * live pipeline behind */
    GstElement *probe = gst_element_factory_make (e->factory, NULL);

    fail_unless (probe != NULL);
    rel_stress_assert_covers (probe, e->stress);
    gst_object_unref (probe);
  }
  rel_live_start (&live, desc, REL_RUN_PIXELS, what);
  el = gst_bin_get_by_name (GST_BIN (live.pipeline), "el");
  fail_unless (rel_live_wait_frames (&live, 3, 60));

  rel_stress_start (&stress, el, e->stress, 0x5eed);
  t0 = g_get_monotonic_time ();
  n = rel_run_n_frames (&live.run);
  while (n < stream_scaled (STRESS_MIN_FRAMES, 30)
      || g_get_monotonic_time () - t0 < STRESS_MIN_US) {
    fail_unless (rel_live_wait_frames (&live, n + 10, 60));
    n = rel_run_n_frames (&live.run);
  }
  n_sets = rel_stress_stop (&stress);

  /* settle, then the frames after it must be exactly a fresh run's */
  rel_stress_settle (el, e->stress);
  settled_from = rel_live_max_index (&live) + STRESS_IN_FLIGHT;
  if (e->stateful) {
    /* what it learned under the stress stays: compare after it started
     * over (a flush), beyond every frame so far */
    settled_from += 10;
    fail_unless (gst_element_seek (live.pipeline, 1.0, GST_FORMAT_TIME,
            GST_SEEK_FLAG_FLUSH | GST_SEEK_FLAG_ACCURATE, GST_SEEK_TYPE_SET,
            gst_util_uint64_scale (settled_from, GST_SECOND, REL_FPS),
            GST_SEEK_TYPE_NONE, GST_CLOCK_TIME_NONE));
  }
  n = rel_run_n_frames (&live.run);
  fail_unless (rel_live_wait_frames (&live,
          n + stream_scaled (STRESS_SETTLED_FRAMES, 8), 60));
  gst_element_send_event (live.pipeline, gst_event_new_eos ());
  rel_live_wait_eos (&live, 60);
  rel_live_stop (&live);
  gst_object_unref (el);
  fail_unless (live.run.first_problem == NULL, "%s: inconsistent output "
      "while properties changed: %s", what, live.run.first_problem);
  /* (a property may decide whether there is a result, e.g. the source's
   * attach-disparity: only the settled frames must have it) */
  rel_assert_result_metas (e, &live.run, settled_from, what);
  g_print ("  %s: %" G_GUINT64_FORMAT " property sets during %u frames\n",
      what, n_sets, live.run.frames->len);
  fail_unless (n_sets > 0);

  {
    /* the reference of the settled frames only */
    RelRun settled_run = live.run;
    GArray *all = live.run.frames;

    settled_run.frames = g_array_new (FALSE, TRUE, sizeof (RelFrame));
    for (guint i = 0; i < all->len; i++)
      if (rel_frame_index (g_array_index (all, RelFrame, i).pts) >=
          settled_from)
        g_array_append_val (settled_run.frames, g_array_index (all, RelFrame,
                i));
    fail_unless (settled_run.frames->len > 0);
    make_reference (e, &settled_run, format, cuda, settled, &reference);
    g_array_unref (settled_run.frames);
  }
  rel_assert_frames_match_full (&live.run, &reference, settled_from,
      match_flags (e), what);
  rel_run_clear (&reference);
  rel_live_clear (&live);
  g_free (settled);
  g_free (what);
  g_free (desc);
}

void
rel_case_flushing_seeks (const RelElement * e, gboolean cuda)
{
  const gchar *format = formats_of (e, cuda)[0];
  gchar *desc = rel_pipeline (e, format, CASE_W, CASE_H, -1, cuda,
      overlay_on (e));
  gchar *what = what_of (e, cuda, "flushing seeks");
  GRand *rand = g_rand_new_with_seed (7);
  RelLive live;
  RelRun reference;

  rel_live_start (&live, desc, REL_RUN_PIXELS, what);
  fail_unless (rel_live_wait_frames (&live, 3, 60));
  guint n_seeks = stream_scaled (SEEK_COUNT, 4);

  for (guint i = 0; i <= n_seeks; i++) {
    /* the last one plays a known segment to its end */
    gint start = i == n_seeks ? SEEK_LAST_START : g_rand_int_range (rand, 0,
        SEEK_MAX_START + 1);
    GstClockTime t = gst_util_uint64_scale (start, GST_SECOND, REL_FPS);
    GstClockTime stop = gst_util_uint64_scale (start + SEEK_SEGMENT,
        GST_SECOND, REL_FPS);
    guint n = rel_run_n_frames (&live.run);
    GstEvent *seek = gst_event_new_seek (1.0, GST_FORMAT_TIME,
        GST_SEEK_FLAG_FLUSH | GST_SEEK_FLAG_ACCURATE, GST_SEEK_TYPE_SET, t,
        GST_SEEK_TYPE_SET, stop);
    guint32 seqnum = gst_event_get_seqnum (seek);

    fail_unless (gst_element_send_event (live.pipeline, seek), "%s: seek %u "
        "to frame %d refused", what, i, start);
    if (i == n_seeks)
      /* not the EOS of an earlier segment that played to its end */
      rel_live_wait_eos_of (&live, seqnum, 60);
    else
      /* some frames of the segment, or all of it */
      rel_live_wait_frames (&live, n + 2, 60);
  }
  rel_live_stop (&live);
  fail_unless (live.run.first_problem == NULL, "%s: %s", what,
      live.run.first_problem);
  rel_assert_result_metas (e, &live.run, 0, what);
  g_rand_free (rand);
  {
    /* the last segment arrived whole: after the last flush, frames
     * SEEK_LAST_START .. SEEK_LAST_START + SEEK_SEGMENT - 1 */
    const guint last_from = live.run.frames_before_flush;
    gboolean whole = live.run.frames->len == last_from + SEEK_SEGMENT;
    GString *last = g_string_new (NULL);
    for (guint i = last_from; i < live.run.frames->len; i++) {
      gint idx = rel_frame_index (g_array_index (live.run.frames, RelFrame,
              i).pts);
      whole = whole && idx == SEEK_LAST_START + (gint) (i - last_from);
      g_string_append_printf (last, " %d", idx);
    }
    fail_unless (whole, "%s: the last segment gave the frames%s, expected "
        "%d .. %d", what, last->str, SEEK_LAST_START,
        SEEK_LAST_START + SEEK_SEGMENT - 1);
    g_string_free (last, TRUE);
  }
  make_reference (e, &live.run, format, cuda, overlay_on (e), &reference);
  rel_assert_frames_match_full (&live.run, &reference, 0, match_flags (e),
      what);
  rel_run_clear (&reference);
  rel_live_clear (&live);
  g_free (what);
  g_free (desc);
}

void
rel_case_eos (const RelElement * e, gboolean cuda)
{
  const gchar *format = formats_of (e, cuda)[0];
  gchar *desc, *what;
  RelRun run;

  /* EOS before any buffer (and before caps) */
  desc = rel_pipeline (e, format, CASE_W, CASE_H, 0, cuda, NULL);
  fail_unless_equals_int (rel_expect_eos (desc), 0);
  g_free (desc);

  /* after a few */
  desc = rel_pipeline (e, format, CASE_W, CASE_H, 3, cuda, NULL);
  fail_unless_equals_int (rel_expect_eos (desc), 3);
  g_free (desc);

  /* an application's source that ends at once */
  if (e->input == REL_INPUT_SOURCE)
    goto streaming;
  desc = element_desc (e, cuda, NULL);
  what = what_of (e, cuda, "EOS from appsrc before caps");
  rel_run_appsrc (desc, new_samples (), 60, REL_RUN_DEFAULT, &run);
  rel_assert_eos (&run, what);
  fail_unless_equals_int (run.frames->len, 0);
  rel_run_clear (&run);
  g_free (what);
  g_free (desc);

  /* EOS sent by the application in the middle of the stream */
streaming:
  {
    RelLive live;

    what = what_of (e, cuda, "EOS while streaming");
    desc = rel_pipeline (e, format, CASE_W, CASE_H, -1, cuda, NULL);
    rel_live_start (&live, desc, REL_RUN_DEFAULT, what);
    fail_unless (rel_live_wait_frames (&live, 5, 60));
    gst_element_send_event (live.pipeline, gst_event_new_eos ());
    rel_live_wait_eos (&live, 60);
    rel_live_stop (&live);
    rel_assert_eos (&live.run, what);
    rel_live_clear (&live);
    g_free (what);
    g_free (desc);
  }
}

void
rel_case_state_cycles (const RelElement * e, gboolean cuda)
{
  static const GstState targets[] = {
    GST_STATE_NULL, GST_STATE_READY, GST_STATE_PAUSED, GST_STATE_NULL,
    GST_STATE_PAUSED, GST_STATE_READY,
  };
  /* the sizes alternate whenever the pipeline went down to READY or NULL */
  static const gint sizes[][2] = { {CASE_W, CASE_H}, {48, 36} };
  const gchar *format = formats_of (e, cuda)[0];
  gchar *desc = rel_pipeline (e, format, CASE_W, CASE_H, -1, cuda,
      overlay_on (e));
  gchar *what = what_of (e, cuda, "state cycles");
  gint size = 0;
  RelLive live;
  RelRun reference;

  rel_live_start (&live, desc, REL_RUN_PIXELS, what);
  for (guint i = 0; i < stream_scaled (STATE_CYCLES, 6); i++) {
    GstState target = targets[i % G_N_ELEMENTS (targets)];

    fail_unless (rel_live_wait_frames (&live,
            rel_run_n_frames (&live.run) + 1, 60), "%s: cycle %u", what, i);
    rel_live_set_state (&live, target);
    if (target <= GST_STATE_READY) {
      size = 1 - size;
      rel_source_set_size (live.pipeline, sizes[size][0], sizes[size][1]);
    }
    rel_live_set_state (&live, GST_STATE_PLAYING);
  }
  fail_unless (rel_live_wait_frames (&live, rel_run_n_frames (&live.run) + 3,
          60));
  rel_live_stop (&live);
  fail_unless (live.run.first_problem == NULL, "%s: %s", what,
      live.run.first_problem);
  rel_assert_result_metas (e, &live.run, 0, what);
  make_reference (e, &live.run, format, cuda, overlay_on (e), &reference);
  rel_assert_frames_match_full (&live.run, &reference, 0, match_flags (e),
      what);
  rel_run_clear (&reference);
  rel_live_clear (&live);
  g_free (what);
  g_free (desc);
}

void
rel_case_invalid_device (const RelElement * e, gboolean cuda)
{
  gchar *desc;

  if (!has_property (e, "cuda-device-id"))
    return;
  desc = rel_pipeline (e, formats_of (e, cuda)[0], CASE_W, CASE_H, 2, cuda,
      "cuda-device-id=99");
  rel_expect_error (desc, "cuda-device-id=99");
  g_free (desc);
}

/* ---- fuzz ---------------------------------------------------------------- */

static gdouble
random_in (GRand * rand, gdouble min, gdouble max, gboolean integer)
{
  switch (g_rand_int_range (rand, 0, 4)) {
    case 0:
      return min;
    case 1:
      return max;
    case 2:{
      /* near the minimum, where most sensible values are (MIN evaluates
       * its arguments twice: draw first) */
      gdouble v = min + (integer ? g_rand_int_range (rand, 0, 16) :
          g_rand_double_range (rand, 0.0, 4.0));
      return MIN (max, v);
    }
    default:
      return integer ? floor (g_rand_double_range (rand, min, max)) :
          g_rand_double_range (rand, min, max);
  }
}

/* " name=value" for a random property of @specs (or "" when the one drawn
 * cannot be varied). */
static gchar *
random_property (GRand * rand, GParamSpec ** specs, guint n_specs)
{
  GParamSpec *spec = specs[g_rand_int_range (rand, 0, n_specs)];
  gdouble min, max;

  if (skip_property (spec) || strcmp (spec->name, "post-messages") == 0)
    return g_strdup ("");
  if (G_IS_PARAM_SPEC_BOOLEAN (spec))
    return g_strdup_printf (" %s=%s", spec->name,
        g_rand_boolean (rand) ? "true" : "false");
  if (G_IS_PARAM_SPEC_ENUM (spec)) {
    GEnumClass *klass = G_PARAM_SPEC_ENUM (spec)->enum_class;
    return g_strdup_printf (" %s=%s", spec->name,
        klass->values[g_rand_int_range (rand, 0, klass->n_values)].value_nick);
  }
  if (numeric_range (spec, &min, &max)) {
    gboolean integer = G_IS_PARAM_SPEC_INT (spec) || G_IS_PARAM_SPEC_UINT
        (spec);
    gchar *v = value_string (spec, random_in (rand, min, max, integer));
    gchar *s = g_strdup_printf (" %s=%s", spec->name, v);
    g_free (v);
    return s;
  }
  return g_strdup ("");
}

/* A frame width: for a stereo pair mostly two equal views. */
static gint
random_width (GRand * rand, const RelElement * e)
{
  if (e->input == REL_INPUT_STEREO && g_rand_int_range (rand, 0, 8) > 0)
    return 2 * g_rand_int_range (rand, FUZZ_MAX_W / 10, FUZZ_MAX_W / 2 + 1);
  return g_rand_int_range (rand, 1, FUZZ_MAX_W + 1);
}

/* TRUE when "appsrc ! @middle ! fakesink" cannot be built because the
 * element refuses to link (its caps for these properties meet no
 * neighbour); the refusal names the element. */
static gboolean
refused_when_linking (const gchar * middle)
{
  gchar *desc = rel_appsrc_description (middle);
  GError *error = NULL;
  GstElement *pipeline = gst_parse_launch (desc, &error);
  gboolean refused = error != NULL;

  if (refused)
    fail_unless (strstr (error->message, "could not link") != NULL
        && strstr (error->message, "el") != NULL, "'%s': %s", desc,
        error->message);
  g_clear_error (&error);
  gst_clear_object (&pipeline);
  g_free (desc);
  return refused;
}

void
rel_case_fuzz (const RelElement * e, gboolean cuda)
{
  const gchar *env_seed = g_getenv ("REL_FUZZ_SEED");
  const gchar *env_n = g_getenv ("REL_FUZZ_ITERATIONS");
  guint32 seed = env_seed ? (guint32) g_ascii_strtoull (env_seed, NULL, 0) :
      0xc0ffee;
  guint n_iter = env_n ? (guint) g_ascii_strtoull (env_n, NULL, 0) :
      cv_test_count (cuda ? FUZZ_ITERATIONS / 2 : FUZZ_ITERATIONS, 5);
  const gchar *const *formats = formats_of (e, cuda);
  guint n_formats = 0, n_specs, n_errors = 0;
  GParamSpec **specs;
  GRand *rand;

  if (e->input == REL_INPUT_SOURCE)
    return;
  rand = g_rand_new_with_seed (seed);
  specs = g_object_class_list_properties (class_of (e), &n_specs);

  while (formats[n_formats] != NULL)
    n_formats++;
  for (guint it = 0; it < n_iter; it++) {
    GString *props = g_string_new (overlay_on (e));
    GString *input = g_string_new (NULL);
    GPtrArray *samples = new_samples ();
    gchar *middle, *what;
    RelRun run;
    guint n_frames = g_rand_int_range (rand, 1, 4);

    for (guint p = g_rand_int_range (rand, 0, 4); p > 0; p--) {
      gchar *s = random_property (rand, specs, n_specs);
      g_string_append (props, s);
      g_free (s);
    }
    for (guint f = 0; f < n_frames; f++) {
      gint w = random_width (rand, e);
      gint h = g_rand_int_range (rand, 1, FUZZ_MAX_H + 1);
      const gchar *format = formats[g_rand_int_range (rand, 0, n_formats)];
      GstVideoFormat vf = gst_video_format_from_string (format);
      GstCvStereoCalibration calib;
      const DispPattern *pattern =
          &disp_patterns[g_rand_int_range (rand, 0,
              G_N_ELEMENTS (disp_patterns))];
      gint dw = w, dh = h;
      const gdouble odd[] = { NAN, INFINITY, -INFINITY, 0.0, -1.0, 1e30 };

      rel_default_calibration (w, h, &calib);
      if (g_rand_int_range (rand, 0, 10) == 0)
        calib.focal_length = odd[g_rand_int_range (rand, 0, G_N_ELEMENTS (odd))];
      if (g_rand_int_range (rand, 0, 10) == 0)
        calib.baseline = odd[g_rand_int_range (rand, 0, G_N_ELEMENTS (odd))];
      if (g_rand_int_range (rand, 0, 10) == 0)
        dw = w + g_rand_int_range (rand, -2, 3);
      dw = MAX (1, dw);
      if (e->input != REL_INPUT_DISPARITY)
        pattern = NULL;
      g_string_append_printf (input, " [%dx%d %s%s%s f=%g B=%g]", w, h, format,
          pattern ? ", " : "", pattern ? pattern->name : "",
          calib.focal_length, calib.baseline);
      if (dw != w)
        g_string_append_printf (input, "(map %dx%d)", dw, dh);
      g_ptr_array_add (samples, rel_sample (rel_buffer_with_disparity (vf, w,
                  h, dw, dh, pattern ? pattern->fn : NULL, NULL, &calib,
                  pattern ? pattern->max_disparity : 0, f), vf, w, h));
    }
    middle = element_desc (e, cuda, props->str);
    what = g_strdup_printf ("%s%s fuzz %u (seed 0x%x): %s with%s", e->factory,
        cuda ? " (CUDA)" : "", it, seed, props->str, input->str);
    /* before the run: a crash must leave the case in the log */
    g_print ("  %s\n", what);
    if (refused_when_linking (middle)) {
      /* a property that needs other caps (cudasgm output=disparity-16 is
       * system memory only): refused before anything runs */
      n_errors++;
      g_print ("    -> refused when linking\n");
      g_ptr_array_unref (samples);
      g_free (what);
      g_free (middle);
      g_string_free (input, TRUE);
      g_string_free (props, TRUE);
      continue;
    }
    /* the disparity of a consumer's input is the test's own (broken on
     * purpose); a producer's output is checked */
    rel_run_appsrc (middle, samples, 120, REL_RUN_PIXELS |
        (e->input == REL_INPUT_DISPARITY ? REL_RUN_INPUT_DISPARITY : 0), &run);
    if (cuda && run.error && g_str_has_prefix (run.error_source, "cuda")) {
      g_print ("  %s: %s refused it (%s): not ours, skipped\n", what,
          run.error_source, run.error);
    } else {
      assert_clean_outcome (e, &run, what);
      if (run.error) {
        n_errors++;
        g_print ("    -> %s\n", run.error);
      }
    }
    rel_run_clear (&run);
    g_free (what);
    g_free (middle);
    g_string_free (input, TRUE);
    g_string_free (props, TRUE);
  }
  g_print ("  %s: %u random runs, %u ended in the element's own error\n",
      e->factory, n_iter, n_errors);
  g_free (specs);
  g_rand_free (rand);
}
