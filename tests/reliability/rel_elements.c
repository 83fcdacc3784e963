/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "rel_elements.h"

#include <gst/check/gstcheck.h>
#include <string.h>

#include "scene/cv_scene.h"

/* ---- property stress values ----------------------------------------------
 * The first value of each is what the run settles on (the default, or a
 * value that keeps the frame's result interesting); every combination of
 * the values must be a valid configuration for the 64x48 stress frames. */

static const RelStressProp stixels_stress[] = {
  {"stixel-width", {"5", "3", "8", "1", NULL}},
  {"row-step", {"1", "2", "3", NULL}},
  {"max-disparity", {"0", "32", "64", "2047", NULL}},
  {"left-band", {"0", "-1", "10", "100", NULL}},
  {"height", {"1.65", "1.2", "2.5", NULL}},
  {"pitch", {"0", "0.05", "-0.05", NULL}},
  {"estimate-camera", {"false", "true", NULL}},
  {"sigma-ground", {"1", "0.5", "2", NULL}},
  {"sigma-object", {"1", "0.5", "2", NULL}},
  {"sigma-sky", {"0.5", "0.2", "1", NULL}},
  {"model-complexity", {"4", "1", "10", NULL}},
  {"gravity-flying", {"2.302585", "0", "5", NULL}},
  {"gravity-flying-slope", {"1", "0", "3", NULL}},
  {"gravity-sinking", {"3.218876", "0", "5", NULL}},
  {"gravity-sinking-slope", {"1", "0", "3", NULL}},
  {"gravity-tolerance", {"3", "0", "10", NULL}},
  {"ordering", {"1.609438", "0", "5", NULL}},
  {"ordering-slope", {"1", "0", "3", NULL}},
  {"gap-nearer", {"1", "0", "5", NULL}},
  {"gap-nearer-slope", {"0", "1", NULL}},
  {"gap-farther", {"1", "0", "5", NULL}},
  {"gap-farther-slope", {"0", "1", NULL}},
  {"gap-tolerance", {"3", "0", "10", NULL}},
  {"height-sigma", {"0.05", "0", "0.5", NULL}},
  {"pitch-sigma", {"0.00087266463", "0", "0.01", NULL}},
  {"object-slope-sigma", {"0", "0.1", NULL}},
  {"focal-length", {"0", "100", NULL}},
  {"principal-x", {"-1", "10", NULL}},
  {"principal-y", {"-1", "10", NULL}},
  {"baseline", {"0", "0.5", NULL}},
  {"overlay", {"true", "false", NULL}},
  {"overlay-max-depth", {"40", "5", NULL}},
  {"post-messages", {"false", "true", NULL}},
  {NULL, {NULL}},
};

/* every combination valid: min-disparity < max-disparity and
 * min + max <= 56 px on the 64 px views; p1 < p2 */
static const RelStressProp sgm_stress[] = {
  {"max-disparity", {"16", "32", "48", NULL}},
  {"min-disparity", {"0", "4", "8", NULL}},
  {"p1", {"10", "5", "20", NULL}},
  {"p2", {"64", "30", "120", NULL}},
  {"adaptive-p2", {"true", "false", NULL}},
  {"adaptive-p2-scale", {"32", "8", "100", NULL}},
  {"paths", {"8", "4", NULL}},
  {"census", {"center-symmetric-9x7", "9x7", NULL}},
  {"subpixel", {"true", "false", NULL}},
  {"uniqueness", {"0.95", "0.8", "1", NULL}},
  {"lr-check", {"true", "false", NULL}},
  {"lr-max-diff", {"1", "0", "3", NULL}},
  {"median", {"true", "false", NULL}},
  {"focal-length", {"64", "0", "100", NULL}},
  {"principal-x", {"-1", "30", NULL}},
  {"principal-y", {"-1", "20", NULL}},
  {"baseline", {"0.5", "0", "0.1", NULL}},
  {"post-messages", {"false", "true", NULL}},
  {NULL, {NULL}},
};

static const RelStressProp rdp_stress[] = {
  {"epsilon", {"-1", "2", "0.5", "8", NULL}},
  {"signal", {"disparity", "depth", NULL}},
  {"column-step", {"1", "4", "7", NULL}},
  {"column-mode", {"sample", "mean", NULL}},
  {"median", {"3", "off", "5", NULL}},
  {"max-depth", {"0", "50", "10", NULL}},
  {"focal-length", {"0", "100", NULL}},
  {"baseline", {"0", "0.5", NULL}},
  {"overlay", {"true", "false", NULL}},
  {"post-messages", {"false", "true", NULL}},
  {NULL, {NULL}},
};

static const RelStressProp hough_stress[] = {
  {"rho-step", {"1", "2", "0.5", NULL}},
  {"theta-step", {"1", "2", "0.5", NULL}},
  /* any min with any max: 0 < max - min <= 180 */
  {"min-theta", {"0", "10", "20", NULL}},
  {"max-theta", {"180", "150", "90", NULL}},
  {"threshold", {"20", "100", "5", NULL}},
  {"max-lines", {"16", "4", "64", NULL}},
  {"nms-radius", {"3", "0", "8", NULL}},
  /* the ROI starts inside the 64x48 frame; beyond it is clipped */
  {"roi-x", {"0", "4", "8", NULL}},
  {"roi-y", {"0", "4", "8", NULL}},
  {"roi-width", {"0", "16", "32", NULL}},
  {"roi-height", {"0", "16", "24", NULL}},
  {"edge-threshold", {"200", "100", "400", NULL}},
  {"overlay", {"true", "false", NULL}},
  {"post-messages", {"false", "true", NULL}},
  {NULL, {NULL}},
};

static const RelStressProp stereotestsrc_stress[] = {
  {"attach-disparity", {"true", "false", NULL}},
  {"speed", {"0.5", "0", "3", NULL}},
  {NULL, {NULL}},
};

/* every combination valid: initial/new models <= max-models <= ...,
 * min-samples >= both; patches fit the 64x48 frames */
static const RelStressProp roaddetect_stress[] = {
  {"equalize", {"true", "false", NULL}},
  {"patch-size", {"5", "4", "8", NULL}},
  {"bins", {"8", "4", "16", NULL}},
  {"max-range", {"10", "5", "50", NULL}},
  {"min-point-fraction", {"0.5", "0.2", "0.9", NULL}},
  {"roughness", {"0.00001", "0.001", "0", NULL}},
  {"max-models", {"10", "4", "16", NULL}},
  {"initial-models", {"1", "2", "3", NULL}},
  {"new-models", {"1", "2", "3", NULL}},
  {"min-samples", {"20", "10", "40", NULL}},
  {"update-threshold", {"1", "0.5", "5", NULL}},
  {"classify-threshold", {"5", "1", "20", NULL}},
  {"horizon-gate", {"true", "false", NULL}},
  {"variance-floor", {"1", "0.1", "10", NULL}},
  {"em-max-iterations", {"100", "5", "300", NULL}},
  {"em-tolerance", {"0.0001", "0.01", "0", NULL}},
  {"height", {"1.65", "1.2", "2.5", NULL}},
  {"pitch", {"0", "0.05", "-0.05", NULL}},
  {"estimate-camera", {"false", "true", NULL}},
  {"overlay", {"true", "false", NULL}},
  {"post-messages", {"false", "true", NULL}},
  {NULL, {NULL}},
};

static const RelElement elements[] = {
  {
        "stereotestsrc", REL_INPUT_SOURCE, "attach-disparity=true",
        {"RGBA", "NV12", "I420", "GRAY8", NULL},
        {NULL},
        /* stateful: a new speed drives on from where the camera is */
        "YUY2", REL_META_DISPARITY, TRUE, stereotestsrc_stress,
        0, 0, NULL, NULL, NULL, NULL, {"", NULL}},
  {
        /* 16 disparities: the 64 px views of the cases hold the range */
        "cudasgm", REL_INPUT_STEREO, "max-disparity=16",
        {"RGBA", "NV12", "I420", "Y444", "BGRA", "RGBx", "BGRx", "GRAY8",
            "GRAY16_LE", NULL},
        {"RGBA", "NV12", "I420", "Y444", "BGRA", NULL},
        "YUY2", REL_META_DISPARITY, FALSE, sgm_stress,
        /* views narrower than min-disparity + max-disparity */
        16, 0, "narrower than the disparity range",
        /* the defaults' cost volume of an 8K pair is 8.5 GB on the CPU; on
         * the GPU a row of 7680 px exceeds the census kernel's shared
         * memory (cv_sgm.h: about 7000 px) */
        "-", "max-disparity=16 paths=4", "shared memory", {"", NULL}},
  {
        "cudastixels", REL_INPUT_DISPARITY, "",
        /* GRAY8 / GRAY16_LE frames with a meta: the meta is the disparity */
        {"RGBA", "NV12", "I420", "Y444", "BGRA", "RGBx", "BGRx", "GRAY8",
            "GRAY16_LE", NULL},
        {"RGBA", "NV12", "I420", "Y444", "BGRA", NULL},
        "YUY2", REL_META_STIXELS, FALSE, stixels_stress,
        0, 0, NULL,
        /* 4320 rows need a row-step: the column DP holds 2048 cells */
        "more than 2048", "row-step=4 stixel-width=64", NULL,
        {"", "estimate-camera=true", NULL}},
  {
        "cudardp", REL_INPUT_DISPARITY, "",
        /* GRAY8 / GRAY16_LE frames with a meta: the meta is the disparity */
        {"RGBA", "NV12", "I420", "Y444", "BGRA", "RGBx", "BGRx", "GRAY8",
            "GRAY16_LE", NULL},
        {"RGBA", "NV12", "I420", "Y444", "BGRA", NULL},
        "YUY2", REL_META_SEGMENTS, FALSE, rdp_stress,
        0, 0, NULL, NULL, "", NULL,
        /* depth = f B / d: zero disparities and odd calibrations give
         * infinite / NaN depths */
        {"", "signal=depth", "signal=depth max-depth=20", NULL}},
  {
        "cudahough", REL_INPUT_IMAGE, "threshold=20",
        {"RGBA", "NV12", "I420", "Y444", "BGRA", "RGBx", "BGRx", "GRAY8", NULL},
        {"RGBA", "NV12", "I420", "Y444", "BGRA", NULL},
        "GRAY16_LE", REL_META_LINES, FALSE, hough_stress,
        0, 0, NULL, NULL, "", NULL, {"", NULL}},
  {
        "cudaroaddetect", REL_INPUT_DISPARITY, "",
        {"RGBA", "NV12", "I420", "BGRA", "RGBx", "BGRx", NULL},
        {"RGBA", "NV12", "I420", "BGRA", NULL},
        "Y444", REL_META_ROAD, TRUE, roaddetect_stress,
        /* one patch of the default patch-size */
        5, 5, "smaller than one",
        NULL, "patch-size=15", NULL, {"", "estimate-camera=true", NULL}},
};

const RelElement *const *
rel_elements (guint * n_elements)
{
  static const RelElement *present[G_N_ELEMENTS (elements) + 1];
  static gsize done = 0;
  static guint n = 0;

  if (g_once_init_enter (&done)) {
    for (guint i = 0; i < G_N_ELEMENTS (elements); i++) {
      GstElementFactory *f = gst_element_factory_find (elements[i].factory);
      if (f != NULL) {
        present[n++] = &elements[i];
        gst_object_unref (f);
      } else {
        g_print ("%s is not built: its cases are skipped\n",
            elements[i].factory);
      }
    }
    g_once_init_leave (&done, 1);
  }
  *n_elements = n;
  return present;
}

const RelElement *
rel_element (const gchar * factory)
{
  guint n;
  const RelElement *const *all = rel_elements (&n);

  for (guint i = 0; i < n; i++)
    if (strcmp (all[i]->factory, factory) == 0)
      return all[i];
  return NULL;
}

gchar *
rel_source (const RelElement * e, const gchar * format, gint width,
    gint height, gint n_buffers, gboolean cuda, const gchar * src_props)
{
  const gchar *upload = cuda ? "cudaupload ! " : "";
  gchar *num = n_buffers >= 0 ? g_strdup_printf ("num-buffers=%d", n_buffers)
      : g_strdup ("");
  gchar *desc;

  if (e->input == REL_INPUT_SOURCE) {
    /* the source renders @format itself; @src_props carry its properties */
    desc = g_strdup_printf ("stereotestsrc name=el supersample=1 %s %s %s ! "
        "capsfilter name=srccaps caps=\"video/x-raw,format=%s,width=%d,"
        "height=%d,framerate=%d/1\" ! ", e->props, num,
        src_props ? src_props : "", format, 2 * width, height, REL_FPS);
  } else if (e->input == REL_INPUT_STEREO) {
    /* both views, rendered as RGBA (any pair width) and converted */
    desc = g_strdup_printf ("stereotestsrc supersample=1 %s %s ! "
        "capsfilter name=srccaps caps=\"video/x-raw,format=RGBA,width=%d,"
        "height=%d,framerate=%d/1\" ! videoconvert ! video/x-raw,format=%s ! "
        "%s", num,
        src_props ? src_props : "", 2 * width, height, REL_FPS, format,
        upload);
  } else {
    /* the left view, with its exact disparity when the element needs it
     * (videocrop and videoconvert keep untagged metas) */
    desc = g_strdup_printf ("stereotestsrc supersample=1 %s %s %s ! "
        "capsfilter name=srccaps caps=\"video/x-raw,format=RGBA,width=%d,"
        "height=%d,framerate=%d/1\" ! videocrop name=crop right=%d ! "
        "videoconvert ! video/x-raw,format=%s ! %s",
        e->input == REL_INPUT_DISPARITY ? "attach-disparity=true" : "", num,
        src_props ? src_props : "", 2 * width, height, REL_FPS, width, format,
        upload);
  }
  g_free (num);
  return desc;
}

void
rel_source_set_size (GstElement * pipeline, gint width, gint height)
{
  GstElement *capsfilter = gst_bin_get_by_name (GST_BIN (pipeline), "srccaps");
  GstElement *crop = gst_bin_get_by_name (GST_BIN (pipeline), "crop");
  GstCaps *caps;
  GstStructure *s;

  fail_unless (capsfilter != NULL);
  g_object_get (capsfilter, "caps", &caps, NULL);
  caps = gst_caps_make_writable (caps);
  s = gst_caps_get_structure (caps, 0);
  gst_structure_set (s, "width", G_TYPE_INT, 2 * width, "height", G_TYPE_INT,
      height, NULL);
  if (crop)
    g_object_set (crop, "right", width, NULL);
  g_object_set (capsfilter, "caps", caps, NULL);
  gst_caps_unref (caps);
  gst_object_unref (capsfilter);
  if (crop)
    gst_object_unref (crop);
}

/* Shared by the test thread and the probe; the last of the two frees it
 * (the probe may still run when a failed wait has left the test). */
typedef struct
{
  gint refs;
  GstElement *pipeline;
  gint width, height;
  GMutex lock;
  GCond cond;
  gboolean done;
} Resize;

static void
resize_unref (gpointer data)
{
  Resize *r = data;

  if (!g_atomic_int_dec_and_test (&r->refs))
    return;
  g_mutex_clear (&r->lock);
  g_cond_clear (&r->cond);
  g_free (r);
}

static GstPadProbeReturn
resize_probe (GstPad * pad, GstPadProbeInfo * info, gpointer user_data)
{
  Resize *r = user_data;

  g_mutex_lock (&r->lock);
  if (r->done) {
    g_mutex_unlock (&r->lock);
    return GST_PAD_PROBE_OK;
  }
  /* in the streaming thread, between two frames: nothing is in flight
   * downstream; the source renegotiates before its next frame */
  rel_source_set_size (r->pipeline, r->width, r->height);
  r->done = TRUE;
  g_cond_signal (&r->cond);
  g_mutex_unlock (&r->lock);
  return GST_PAD_PROBE_DROP;
}

void
rel_source_resize_live (GstElement * pipeline, gint width, gint height)
{
  GstElement *capsfilter = gst_bin_get_by_name (GST_BIN (pipeline), "srccaps");
  GstPad *pad;
  Resize *r = g_new0 (Resize, 1);
  gulong id;
  gboolean done;
  gint64 deadline = g_get_monotonic_time () +
      (gint64) 60 * rel_time_scale () * G_USEC_PER_SEC;

  fail_unless (capsfilter != NULL);
  pad = gst_element_get_static_pad (capsfilter, "sink");
  r->refs = 2;                  /* the test's and the probe's */
  r->pipeline = pipeline;
  r->width = width;
  r->height = height;
  g_mutex_init (&r->lock);
  g_cond_init (&r->cond);
  id = gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, resize_probe, r,
      resize_unref);
  g_mutex_lock (&r->lock);
  while (!r->done)
    if (!g_cond_wait_until (&r->cond, &r->lock, deadline))
      break;
  done = r->done;
  g_mutex_unlock (&r->lock);
  /* removed before any verdict: a failed check leaves no probe behind */
  gst_pad_remove_probe (pad, id);
  resize_unref (r);
  gst_object_unref (pad);
  gst_object_unref (capsfilter);
  fail_unless (done, "no frame reached the source's capsfilter to resize at");
}

gchar *
rel_pipeline (const RelElement * e, const gchar * format, gint width,
    gint height, gint n_buffers, gboolean cuda, const gchar * props)
{
  gchar *src, *desc;

  if (e->input == REL_INPUT_SOURCE) {
    src = rel_source (e, format, width, height, n_buffers, FALSE, props);
    desc = g_strdup_printf ("%sfakesink name=sink sync=false", src);
    g_free (src);
    return desc;
  }
  src = rel_source (e, format, width, height, n_buffers, cuda, NULL);
  desc = g_strdup_printf ("%s%s name=el %s %s ! %sfakesink name=sink "
      "sync=false", src, e->factory, e->props, props ? props : "",
      cuda ? "cudadownload ! " : "");

  g_free (src);
  return desc;
}

gboolean
rel_element_has_property (const RelElement * e, const gchar * name)
{
  GstElement *el = gst_element_factory_make (e->factory, NULL);
  gboolean has;

  g_return_val_if_fail (el != NULL, FALSE);
  has = g_object_class_find_property (G_OBJECT_GET_CLASS (el), name) != NULL;
  gst_object_unref (el);
  return has;
}

gchar *
rel_chain_description (gint width, gint height, gint n_frames, gboolean cuda,
    guint repeats, const gchar * props, gboolean overlays,
    guint * n_instances)
{
  guint n;
  const RelElement *const *all = rel_elements (&n);
  const RelElement *stereo = NULL;
  GString *d = g_string_new (NULL);
  gchar *num = n_frames >= 0 ? g_strdup_printf ("num-buffers=%d", n_frames)
      : g_strdup ("");

  *n_instances = 0;
  for (guint i = 0; i < n; i++)
    if (all[i]->input == REL_INPUT_STEREO)
      stereo = all[i];
  if (stereo) {
    CvSceneParams scene;

    /* the matcher gives the disparity, with stereotestsrc's calibration */
    cv_scene_params_init (&scene, width, height, 0, 1);
    g_string_append_printf (d, "stereotestsrc supersample=1 %s ! "
        "video/x-raw,format=RGBA,width=%d,height=%d,framerate=%d/1 ! queue%s"
        " ! %s name=f%u %s focal-length=%g principal-x=%g principal-y=%g "
        "baseline=%g %s", num, 2 * width, height, REL_FPS,
        cuda ? " ! cudaupload" : "", stereo->factory, (*n_instances)++,
        stereo->props, scene.calib.focal_length, scene.calib.principal_x,
        scene.calib.principal_y, scene.calib.baseline, props ? props : "");
  } else {
    g_string_append_printf (d, "stereotestsrc supersample=1 "
        "attach-disparity=true %s ! video/x-raw,format=RGBA,width=%d,"
        "height=%d,framerate=%d/1 ! videocrop right=%d ! queue%s", num,
        2 * width, height, REL_FPS, width, cuda ? " ! cudaupload" : "");
  }
  for (guint r = 0; r < repeats; r++) {
    for (guint i = 0; i < n; i++) {
      if (all[i]->input != REL_INPUT_DISPARITY
          && all[i]->input != REL_INPUT_IMAGE)
        continue;
      g_string_append_printf (d, " ! %s name=f%u %s %s%s", all[i]->factory,
          (*n_instances)++, all[i]->props, props ? props : "", overlays
          && rel_element_has_property (all[i], "overlay") ?
          " overlay=true" : "");
    }
  }
  g_string_append (d, " ! fakesink name=sink sync=false");
  g_free (num);
  return g_string_free (d, FALSE);
}

void
rel_assert_result_metas (const RelElement * e, const RelRun * run,
    gint from_index, const gchar * what)
{
  for (guint i = 0; i < run->frames->len; i++) {
    const RelFrame *f = &g_array_index (run->frames, RelFrame, i);
    if (rel_frame_index (f->pts) < from_index)
      continue;
    fail_unless ((f->metas & e->result) == e->result, "%s: output %u (frame "
        "%d) lacks the %s result meta (metas 0x%x)", what, i,
        rel_frame_index (f->pts), e->factory, f->metas);
  }
}
