/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * cv-json: runs a GStreamer pipeline that ends in an appsink and prints the
 * cudavision results of every frame as one JSON object per line (JSON
 * lines), read from the buffers' metas with the public meta API
 * (<gst/cudavision/cudavision.h>, pkg-config gstreamer-cudavision-1.0).
 *
 *   cv-json                         the synthetic camera through the chain
 *   cv-json -n 100 --sgm --gpu      with cudasgm, on the GPU
 *   cv-json 'filesrc ... ! cudasgm ... ! cudastixels'   your own pipeline
 *
 * A user launch line either names an appsink "sink" or gets
 * "! appsink name=sink" appended.  The output schema is documented in
 * docs/meta-api.md; examples/cv-json.py prints the same from Python.
 */
#include <gst/gst.h>
#include <gst/app/gstappsink.h>
#include <gst/video/video.h>
#include <gst/cudavision/cudavision.h>
#include <glib-unix.h>

#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

/* The synthetic camera of the default pipeline: two 640x480 views side by
 * side; its rig is documented in docs/elements/stereotestsrc.md. */
#define SYNTH_VIEW_WIDTH 640
#define SYNTH_VIEW_HEIGHT 480
#define SYNTH_FOCAL_PX 371.2    /* 0.58 x view width */
#define SYNTH_BASELINE_M 0.54
#define SYNTH_PITCH_RAD 0.02

/* How long one wait for a sample lasts before the bus is looked at. */
#define PULL_TIMEOUT (100 * GST_MSECOND)

typedef struct
{
  gint num_buffers;
  gchar *backend;               /* auto, cpu, gpu */
  gboolean sgm;
  gboolean brief;
  gboolean print_pipeline;
} Options;

static gboolean
have_element (const gchar * name)
{
  GstElementFactory *f = gst_element_factory_find (name);

  if (!f)
    return FALSE;
  gst_object_unref (f);
  return TRUE;
}

/* The default pipeline: stereotestsrc through the elements this
 * installation has, in the order that keeps elements which read pixels
 * (cudahough, cudaroaddetect) ahead of those that only read disparity. */
static gchar *
default_pipeline (const Options * opt, GError ** error)
{
  GString *p = g_string_new (NULL);
  gboolean gpu;

  if (g_str_equal (opt->backend, "gpu"))
    gpu = TRUE;
  else if (g_str_equal (opt->backend, "cpu"))
    gpu = FALSE;
  else
    gpu = have_element ("cudaupload") && have_element ("cudadownload");
  if (gpu && !(have_element ("cudaupload") && have_element ("cudadownload"))) {
    g_set_error (error, GST_CORE_ERROR, GST_CORE_ERROR_MISSING_PLUGIN,
        "--backend=gpu needs cudaupload and cudadownload (gst-plugins-bad's "
        "nvcodec plugin, which registers them only when a CUDA driver and "
        "GPU are present)");
    g_string_free (p, TRUE);
    return NULL;
  }
  if (opt->sgm && !have_element ("cudasgm")) {
    g_set_error (error, GST_CORE_ERROR, GST_CORE_ERROR_MISSING_PLUGIN,
        "--sgm needs the cudasgm element (not in this installation)");
    g_string_free (p, TRUE);
    return NULL;
  }

  g_string_append_printf (p, "stereotestsrc num-buffers=%d%s ! "
      "video/x-raw,format=RGBA,width=%d,height=%d,framerate=10/1 ! ",
      opt->num_buffers, opt->sgm ? "" : " attach-disparity=true",
      2 * SYNTH_VIEW_WIDTH, SYNTH_VIEW_HEIGHT);
  /* without matching, the ground truth belongs to the left view */
  if (!opt->sgm)
    g_string_append_printf (p, "videocrop right=%d ! ", SYNTH_VIEW_WIDTH);
  if (gpu)
    g_string_append (p, "cudaupload ! ");
  /* the scene's nearest road lies at ~82 px of disparity in 640-px views */
  if (opt->sgm)
    g_string_append_printf (p, "cudasgm max-disparity=96 focal-length=%g "
        "principal-x=%g principal-y=%g baseline=%g ! ", SYNTH_FOCAL_PX,
        (SYNTH_VIEW_WIDTH - 1) / 2.0, (SYNTH_VIEW_HEIGHT - 1) / 2.0,
        SYNTH_BASELINE_M);
  /* the lane markings below the horizon (row 232), see cudahough.md */
  if (have_element ("cudahough"))
    g_string_append (p, "cudahough roi-y=273 min-theta=-75 max-theta=75 "
        "theta-step=0.5 edge-threshold=400 threshold=60 nms-radius=4 "
        "max-lines=8 ! ");
  if (have_element ("cudaroaddetect"))
    g_string_append_printf (p, "cudaroaddetect pitch=%g ! ", SYNTH_PITCH_RAD);
  if (have_element ("cudastixels"))
    g_string_append_printf (p, "cudastixels pitch=%g ! ", SYNTH_PITCH_RAD);
  if (have_element ("cudardp"))
    g_string_append (p, "cudardp ! ");
  if (gpu)
    g_string_append (p, "cudadownload ! ");
  g_string_append (p, "appsink name=sink sync=false");
  return g_string_free (p, FALSE);
}

/* ---- JSON output -------------------------------------------------------- */

/* Doubles: 12 significant digits; floats: 9 (the value round-trips). */
static void
json_double (GString * s, gdouble v)
{
  gchar buf[G_ASCII_DTOSTR_BUF_SIZE];

  if (!isfinite (v)) {
    g_string_append (s, "null");
    return;
  }
  g_string_append (s, g_ascii_formatd (buf, sizeof (buf), "%.12g", v));
}

static void
json_float (GString * s, gfloat v)
{
  gchar buf[G_ASCII_DTOSTR_BUF_SIZE];

  if (!isfinite (v)) {
    g_string_append (s, "null");
    return;
  }
  g_string_append (s, g_ascii_formatd (buf, sizeof (buf), "%.9g", v));
}

static void
json_key (GString * s, const gchar * key)
{
  gchar last = s->len ? s->str[s->len - 1] : '{';

  if (last != '{' && last != '[')
    g_string_append_c (s, ',');
  g_string_append_printf (s, "\"%s\":", key);
}

/* A key and its value. */
static void
json_field_uint (GString * s, const gchar * key, guint64 v)
{
  json_key (s, key);
  g_string_append_printf (s, "%" G_GUINT64_FORMAT, v);
}

static void
json_field_int (GString * s, const gchar * key, gint64 v)
{
  json_key (s, key);
  g_string_append_printf (s, "%" G_GINT64_FORMAT, v);
}

static void
json_field_bool (GString * s, const gchar * key, gboolean v)
{
  json_key (s, key);
  g_string_append (s, v ? "true" : "false");
}

static void
json_field_double (GString * s, const gchar * key, gdouble v)
{
  json_key (s, key);
  json_double (s, v);
}

static void
json_field_float (GString * s, const gchar * key, gfloat v)
{
  json_key (s, key);
  json_float (s, v);
}

static void
json_sep (GString * s)
{
  gchar last = s->str[s->len - 1];

  if (last != '{' && last != '[')
    g_string_append_c (s, ',');
}

static const gchar *
stixel_class_name (gint c)
{
  switch (c) {
    case GST_CV_STIXEL_GROUND:
      return "ground";
    case GST_CV_STIXEL_OBJECT:
      return "object";
    case GST_CV_STIXEL_SKY:
      return "sky";
    default:
      return "unknown";
  }
}

/* Disparity statistics over the whole map: map it for the host (device
 * data is downloaded once per buffer), count the valid values
 * (non-negative), and their smallest, mean and largest value in px. */
static gboolean
write_disparity (GString * s, GstCvDisparityMeta * meta)
{
  GstCvDisparityMapping m;
  guint64 valid = 0;
  gint64 sum = 0;
  gint min_raw = G_MAXINT, max_raw = G_MININT;
  guint x, y;

  if (!gst_cv_disparity_meta_map (meta, GST_MAP_READ, &m)) {
    g_printerr ("cv-json: could not map the disparity meta for reading\n");
    return FALSE;
  }
  for (y = 0; y < meta->height; y++) {
    const gint16 *row = (const gint16 *) ((const guint8 *) m.disparity +
        y * m.disparity_stride);
    for (x = 0; x < meta->width; x++) {
      gint v = row[x];
      if (v < 0)
        continue;
      valid++;
      sum += v;
      min_raw = MIN (min_raw, v);
      max_raw = MAX (max_raw, v);
    }
  }
  gst_cv_disparity_meta_unmap (meta, &m);

  json_key (s, "disparity");
  g_string_append_c (s, '{');
  json_field_uint (s, "width", meta->width);
  json_field_uint (s, "height", meta->height);
  json_field_int (s, "min_disparity", meta->min_disparity);
  json_field_int (s, "max_disparity", meta->max_disparity);
  json_field_bool (s, "on_device", meta->on_device);
  json_field_bool (s, "has_confidence", meta->has_confidence);
  json_key (s, "calibration");
  g_string_append_c (s, '{');
  json_field_double (s, "focal_length", meta->calibration.focal_length);
  json_field_double (s, "principal_x", meta->calibration.principal_x);
  json_field_double (s, "principal_y", meta->calibration.principal_y);
  json_field_double (s, "baseline", meta->calibration.baseline);
  g_string_append_c (s, '}');
  json_field_double (s, "valid_fraction",
      (gdouble) valid / ((gdouble) meta->width * meta->height));
  json_key (s, "min");
  if (valid)
    json_double (s, (gdouble) min_raw / GST_CV_DISPARITY_SCALE);
  else
    g_string_append (s, "null");
  json_key (s, "mean");
  if (valid)
    json_double (s, (gdouble) sum / valid / GST_CV_DISPARITY_SCALE);
  else
    g_string_append (s, "null");
  json_key (s, "max");
  if (valid)
    json_double (s, (gdouble) max_raw / GST_CV_DISPARITY_SCALE);
  else
    g_string_append (s, "null");
  g_string_append_c (s, '}');
  return TRUE;
}

static void
write_stixels (GString * s, const GstCvStixelsMeta * meta, gboolean brief)
{
  guint counts[3] = { 0, 0, 0 };
  const GstCvStixel *nearest = NULL;
  guint i;

  for (i = 0; i < meta->n_stixels; i++) {
    const GstCvStixel *st = &meta->stixels[i];
    if (st->stixel_class >= 0 && st->stixel_class < 3)
      counts[st->stixel_class]++;
    if (st->stixel_class == GST_CV_STIXEL_OBJECT && st->depth > 0
        && (!nearest || st->depth < nearest->depth))
      nearest = st;
  }

  json_key (s, "stixels");
  g_string_append_c (s, '{');
  json_field_uint (s, "frame_width", meta->frame_width);
  json_field_uint (s, "frame_height", meta->frame_height);
  json_field_uint (s, "n", meta->n_stixels);
  json_field_uint (s, "n_ground", counts[GST_CV_STIXEL_GROUND]);
  json_field_uint (s, "n_object", counts[GST_CV_STIXEL_OBJECT]);
  json_field_uint (s, "n_sky", counts[GST_CV_STIXEL_SKY]);
  json_key (s, "nearest_object_depth");
  if (nearest)
    json_float (s, nearest->depth);
  else
    g_string_append (s, "null");
  if (!brief) {
    json_key (s, "items");
    g_string_append_c (s, '[');
    for (i = 0; i < meta->n_stixels; i++) {
      const GstCvStixel *st = &meta->stixels[i];
      json_sep (s);
      g_string_append_c (s, '{');
      json_field_uint (s, "column", st->column);
      json_field_uint (s, "width", st->width);
      json_field_uint (s, "top", st->top);
      json_field_uint (s, "bottom", st->bottom);
      json_key (s, "class");
      g_string_append_printf (s, "\"%s\"", stixel_class_name
          (st->stixel_class));
      json_field_float (s, "disparity_slope", st->disparity_slope);
      json_field_float (s, "disparity_intercept", st->disparity_intercept);
      json_field_float (s, "depth", st->depth);
      json_field_float (s, "cost", st->cost);
      g_string_append_c (s, '}');
    }
    g_string_append_c (s, ']');
  }
  g_string_append_c (s, '}');
}

static void
write_lines (GString * s, const GstCvLinesMeta * meta, gboolean brief)
{
  guint i;

  json_key (s, "lines");
  g_string_append_c (s, '{');
  json_field_uint (s, "n", meta->n_lines);
  if (!brief) {
    json_key (s, "items");
    g_string_append_c (s, '[');
    for (i = 0; i < meta->n_lines; i++) {
      const GstCvLine *l = &meta->lines[i];
      json_sep (s);
      g_string_append_c (s, '{');
      json_field_float (s, "rho", l->rho);
      json_field_float (s, "theta", l->theta);
      json_field_uint (s, "votes", l->votes);
      json_field_float (s, "x0", l->x0);
      json_field_float (s, "y0", l->y0);
      json_field_float (s, "x1", l->x1);
      json_field_float (s, "y1", l->y1);
      g_string_append_c (s, '}');
    }
    g_string_append_c (s, ']');
  }
  g_string_append_c (s, '}');
}

static void
write_segments (GString * s, const GstCvSegmentsMeta * meta, gboolean brief)
{
  guint i, k;

  json_key (s, "segments");
  g_string_append_c (s, '{');
  json_key (s, "signal");
  g_string_append (s, meta->signal == GST_CV_SEGMENTS_DEPTH ?
      "\"depth\"" : "\"disparity\"");
  json_field_float (s, "epsilon", meta->epsilon);
  json_field_uint (s, "n_columns", meta->n_columns);
  json_field_uint (s, "n_cuts", meta->n_columns ?
      meta->cut_offsets[meta->n_columns] : 0);
  json_field_uint (s, "n_gaps", meta->n_columns ?
      meta->gap_offsets[meta->n_columns] : 0);
  if (!brief) {
    json_key (s, "columns");
    g_string_append_c (s, '[');
    for (i = 0; i < meta->n_columns; i++) {
      json_sep (s);
      g_string_append_c (s, '{');
      json_field_uint (s, "column", meta->columns[i]);
      json_key (s, "cuts");
      g_string_append_c (s, '[');
      for (k = meta->cut_offsets[i]; k < meta->cut_offsets[i + 1]; k++) {
        json_sep (s);
        g_string_append_printf (s, "[%u,", meta->cut_rows[k]);
        json_float (s, meta->cut_values[k]);
        g_string_append_c (s, ']');
      }
      g_string_append_c (s, ']');
      json_key (s, "gaps");
      g_string_append_c (s, '[');
      for (k = meta->gap_offsets[i]; k < meta->gap_offsets[i + 1]; k++) {
        json_sep (s);
        g_string_append_printf (s, "[%u,%u]", meta->gap_starts[k],
            meta->gap_ends[k]);
      }
      g_string_append (s, "]}");
    }
    g_string_append_c (s, ']');
  }
  g_string_append_c (s, '}');
}

static void
write_road (GString * s, const GstCvRoadMeta * meta, gboolean brief)
{
  guint n = meta->grid_cols * meta->grid_rows;
  guint road = 0, seed = 0, i, r, c;

  for (i = 0; i < n; i++) {
    if (meta->patches[i] & GST_CV_ROAD_PATCH_ROAD)
      road++;
    if (meta->patches[i] & GST_CV_ROAD_PATCH_SEED)
      seed++;
  }
  json_key (s, "road");
  g_string_append_c (s, '{');
  json_field_uint (s, "patch_size", meta->patch_size);
  json_field_uint (s, "grid_cols", meta->grid_cols);
  json_field_uint (s, "grid_rows", meta->grid_rows);
  json_field_uint (s, "road_patches", road);
  json_field_uint (s, "seed_patches", seed);
  json_field_double (s, "road_fraction", n ? (gdouble) road / n : 0.0);
  json_field_uint (s, "n_models", meta->n_models);
  if (!brief) {
    json_key (s, "models");
    g_string_append_c (s, '[');
    for (i = 0; i < meta->n_models; i++) {
      json_sep (s);
      g_string_append_c (s, '{');
      json_field_float (s, "weight", meta->models[i].weight);
      json_field_float (s, "hue", meta->models[i].hue);
      json_field_float (s, "saturation", meta->models[i].saturation);
      g_string_append_c (s, '}');
    }
    g_string_append_c (s, ']');
    /* one string per patch row, one digit per patch: the flags
     * (0 not road, 1 road, 2 seed, 3 road and seed) */
    json_key (s, "grid");
    g_string_append_c (s, '[');
    for (r = 0; r < meta->grid_rows; r++) {
      json_sep (s);
      g_string_append_c (s, '"');
      for (c = 0; c < meta->grid_cols; c++)
        g_string_append_c (s, '0' + (meta->patches[r * meta->grid_cols + c]
                & (GST_CV_ROAD_PATCH_ROAD | GST_CV_ROAD_PATCH_SEED)));
      g_string_append_c (s, '"');
    }
    g_string_append_c (s, ']');
  }
  g_string_append_c (s, '}');
}

static gboolean
write_frame (GString * s, GstSample * sample, guint64 index, gboolean brief)
{
  GstBuffer *buf = gst_sample_get_buffer (sample);
  GstCaps *caps = gst_sample_get_caps (sample);
  GstVideoInfo info;
  GstCvDisparityMeta *disparity;
  GstCvStixelsMeta *stixels;
  GstCvLinesMeta *lines;
  GstCvSegmentsMeta *segments;
  GstCvRoadMeta *road;

  g_string_truncate (s, 0);
  g_string_append_c (s, '{');
  json_key (s, "frame");
  g_string_append_printf (s, "%" G_GUINT64_FORMAT, index);
  json_key (s, "pts");
  if (GST_BUFFER_PTS_IS_VALID (buf))
    json_double (s, (gdouble) GST_BUFFER_PTS (buf) / GST_SECOND);
  else
    g_string_append (s, "null");
  if (caps && gst_video_info_from_caps (&info, caps)) {
    json_field_int (s, "width", GST_VIDEO_INFO_WIDTH (&info));
    json_field_int (s, "height", GST_VIDEO_INFO_HEIGHT (&info));
    json_key (s, "format");
    g_string_append_printf (s, "\"%s\"",
        gst_video_format_to_string (GST_VIDEO_INFO_FORMAT (&info)));
  }

  disparity = gst_buffer_get_cv_disparity_meta (buf);
  if (disparity && !write_disparity (s, disparity))
    return FALSE;
  stixels = gst_buffer_get_cv_stixels_meta (buf);
  if (stixels)
    write_stixels (s, stixels, brief);
  segments = gst_buffer_get_cv_segments_meta (buf);
  if (segments)
    write_segments (s, segments, brief);
  road = gst_buffer_get_cv_road_meta (buf);
  if (road)
    write_road (s, road, brief);
  lines = gst_buffer_get_cv_lines_meta (buf);
  if (lines)
    write_lines (s, lines, brief);
  g_string_append_c (s, '}');
  return TRUE;
}

/* ---- running the pipeline ----------------------------------------------- */

static gboolean
on_interrupt (gpointer user_data)
{
  GstElement *pipeline = user_data;

  g_printerr ("cv-json: interrupt: sending EOS\n");
  gst_element_send_event (pipeline, gst_event_new_eos ());
  return G_SOURCE_REMOVE;
}

/* A bus message that ends the run: errors (printed), EOS. */
static gboolean
check_bus (GstBus * bus, gint * status)
{
  GstMessage *msg;
  gboolean stop = FALSE;

  while ((msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR |
              GST_MESSAGE_EOS | GST_MESSAGE_WARNING))) {
    if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR
        || GST_MESSAGE_TYPE (msg) == GST_MESSAGE_WARNING) {
      GError *err = NULL;
      gchar *dbg = NULL;
      gboolean is_error = GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR;

      if (is_error)
        gst_message_parse_error (msg, &err, &dbg);
      else
        gst_message_parse_warning (msg, &err, &dbg);
      g_printerr ("cv-json: %s from %s: %s\n%s%s", is_error ? "error" :
          "warning", GST_OBJECT_NAME (GST_MESSAGE_SRC (msg)), err->message,
          dbg ? dbg : "", dbg ? "\n" : "");
      g_clear_error (&err);
      g_free (dbg);
      if (is_error) {
        *status = 1;
        stop = TRUE;
      }
    } else {
      stop = TRUE;
    }
    gst_message_unref (msg);
  }
  return stop;
}

static GstElement *
parse (const gchar * description, GError ** error)
{
  g_clear_error (error);
  return gst_parse_launch_full (description, NULL,
      GST_PARSE_FLAG_FATAL_ERRORS, error);
}

/* The appsink named "sink", or NULL. */
static GstElement *
get_sink (GstElement * pipeline)
{
  GstElement *sink = GST_IS_BIN (pipeline) ?
      gst_bin_get_by_name (GST_BIN (pipeline), "sink") : NULL;

  if (sink && !GST_IS_APP_SINK (sink))
    gst_clear_object (&sink);
  return sink;
}

static gint
run (GstElement * pipeline, GstAppSink * sink, gboolean brief)
{
  GstBus *bus = gst_element_get_bus (pipeline);
  GString *line = g_string_sized_new (4096);
  guint64 index = 0;
  gint status = 0;
  guint sigint_id;

  sigint_id = g_unix_signal_add (SIGINT, on_interrupt, pipeline);
  if (gst_element_set_state (pipeline, GST_STATE_PLAYING) ==
      GST_STATE_CHANGE_FAILURE) {
    check_bus (bus, &status);
    g_printerr ("cv-json: the pipeline could not start\n");
    status = 1;
  }
  while (status == 0) {
    GstSample *sample = gst_app_sink_try_pull_sample (sink, PULL_TIMEOUT);

    g_main_context_iteration (NULL, FALSE);     /* the SIGINT source */
    if (sample) {
      gboolean ok = write_frame (line, sample, index++, brief);
      gst_sample_unref (sample);
      if (!ok) {
        status = 1;
        break;
      }
      fputs (line->str, stdout);
      fputc ('\n', stdout);
      fflush (stdout);
      continue;
    }
    if (gst_app_sink_is_eos (sink))
      break;
    if (check_bus (bus, &status))
      break;
  }
  check_bus (bus, &status);

  g_source_remove (sigint_id);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  g_string_free (line, TRUE);
  gst_object_unref (bus);
  return status;
}

int
main (int argc, char **argv)
{
  Options opt = { 10, NULL, FALSE, FALSE, FALSE };
  GOptionEntry entries[] = {
    {"num-buffers", 'n', 0, G_OPTION_ARG_INT, &opt.num_buffers,
        "Frames of the default pipeline (default 10)", "N"},
    {"backend", 'b', 0, G_OPTION_ARG_STRING, &opt.backend,
          "Default pipeline: auto (GPU when cudaupload exists), cpu or gpu",
        "auto|cpu|gpu"},
    {"sgm", 0, 0, G_OPTION_ARG_NONE, &opt.sgm,
          "Default pipeline: match the synthetic pair with cudasgm instead "
          "of using its ground-truth disparity", NULL},
    {"brief", 0, 0, G_OPTION_ARG_NONE, &opt.brief,
        "Counts and statistics only, no per-item lists", NULL},
    {"print-pipeline", 0, 0, G_OPTION_ARG_NONE, &opt.print_pipeline,
        "Print the launch line on stderr before running it", NULL},
    {NULL}
  };
  GOptionContext *ctx;
  GError *error = NULL;
  gchar *description;
  GstElement *pipeline, *sink = NULL;
  gint status;

  ctx = g_option_context_new ("[LAUNCH-LINE...] - print the cudavision "
      "results of each frame as JSON lines");
  g_option_context_set_description (ctx,
      "Without a launch line: stereotestsrc with its ground-truth disparity "
      "through the cudavision elements of this installation.\nA launch "
      "line either names an appsink \"sink\" or gets \"! appsink "
      "name=sink\" appended.  One JSON object per frame on stdout; see "
      "docs/meta-api.md.");
  g_option_context_add_main_entries (ctx, entries, NULL);
  g_option_context_add_group (ctx, gst_init_get_option_group ());
  if (!g_option_context_parse (ctx, &argc, &argv, &error)) {
    g_printerr ("cv-json: %s\n", error->message);
    return 2;
  }
  g_option_context_free (ctx);
  if (!opt.backend)
    opt.backend = g_strdup ("auto");
  if (!g_str_equal (opt.backend, "auto") && !g_str_equal (opt.backend, "cpu")
      && !g_str_equal (opt.backend, "gpu")) {
    g_printerr ("cv-json: --backend must be auto, cpu or gpu\n");
    return 2;
  }

  if (argc > 1) {
    /* a launch line, possibly split over several arguments */
    description = g_strjoinv (" ", argv + 1);
  } else {
    description = default_pipeline (&opt, &error);
    if (!description) {
      g_printerr ("cv-json: %s\n", error->message);
      return 1;
    }
  }

  pipeline = parse (description, &error);
  if (pipeline)
    sink = get_sink (pipeline);
  if (!sink) {
    /* no appsink "sink" (or a line ending in caps, which does not parse
     * alone): end the user's line with one */
    gchar *extended = g_strconcat (description,
        " ! appsink name=sink sync=false", NULL);
    GError *extended_error = NULL;
    GstElement *other = parse (extended, &extended_error);

    if (other && (sink = get_sink (other))) {
      gst_clear_object (&pipeline);
      g_clear_error (&error);
      pipeline = other;
      g_free (description);
      description = extended;
    } else {
      gst_clear_object (&other);
      g_clear_error (&extended_error);
      g_free (extended);
    }
  }
  if (!pipeline) {
    g_printerr ("cv-json: could not build the pipeline: %s\n  %s\n",
        error->message, description);
    return 1;
  }
  if (opt.print_pipeline)
    g_printerr ("cv-json: %s\n", description);
  if (!sink) {
    g_printerr ("cv-json: the pipeline has no appsink named \"sink\"\n");
    return 1;
  }

  status = run (pipeline, GST_APP_SINK (sink), opt.brief);

  gst_object_unref (sink);
  gst_object_unref (pipeline);
  g_free (description);
  g_free (opt.backend);
  return status;
}
