/* Helpers of the cudastixels element tests: synthetic scenes with exact
 * ground truth as input buffers (a frame with a disparity meta, or a
 * KITTI-style GRAY16_LE / GRAY8 disparity frame), and the evaluation of a
 * GstCvStixelsMeta against the scene's labels and depths.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef __STIXELS_ELEMENT_UTIL_H__
#define __STIXELS_ELEMENT_UTIL_H__

#include <gst/gst.h>
#include <gst/check/gstharness.h>
#include <gst/cudavision/cudavision.h>

#include "cv_scene.h"

G_BEGIN_DECLS

/* Accuracy the issue asks for with exact disparity. */
#define STX_MIN_CLASS_ACCURACY 0.95

typedef struct
{
  CvSceneParams params;
  gint width, height;
  gfloat *disparity;            /* px, exact; 0 for sky */
  guint8 *labels;               /* CvSceneClass */
  guint8 *left;                 /* RGBA, NULL unless asked for */
} StxScene;

/* The default scene (cv_scene_params_init) of width x height with @n_boxes
 * boxes from @seed, at @travel metres; with the left view when @with_left. */
StxScene *stx_scene_new (gint width, gint height, gint n_boxes, guint32 seed,
    gfloat travel, gboolean with_left);
/* From explicit parameters (e.g. another focal length). */
StxScene *stx_scene_new_from_params (const CvSceneParams * params,
    gboolean with_left);
void stx_scene_free (StxScene * scene);

/* focal length x baseline, px m */
gdouble stx_scene_fb (const StxScene * scene);

/* An RGBA frame of the left view (grey when the scene has none) with the
 * exact disparity (rounded to 1/16 px) as a host GstCvDisparityMeta. */
GstBuffer *stx_scene_rgba_buffer (const StxScene * scene);

/* A grey RGBA frame of the columns @x0 .. @x0 + @width - 1 of @scene with
 * their ground-truth disparity (a few pixels invalid: (x * 3 + y) % 17 ==
 * 0 in scene columns) and a confidence map that depends on the scene's
 * column (55 .. 255) as a host GstCvDisparityMeta whose searched range
 * ends at @range px (like a matcher's: cudastixels' left band). */
GstBuffer *stx_scene_band_buffer (const StxScene * scene, gint x0,
    gint width, gint range);

/* KITTI-style GRAY16_LE disparity frame: round (d * 256), 0 = invalid;
 * sky (d = 0) gets @sky_value (0: invalid, 1: 1/256 px, i.e. "at
 * infinity" and valid). */
GstBuffer *stx_scene_gray16_buffer (const StxScene * scene,
    guint16 sky_value);

/* GRAY8 disparity frame: round (d) px, 0 = invalid (sky and far road). */
GstBuffer *stx_scene_gray8_buffer (const StxScene * scene);

typedef struct
{
  gint left_band;               /* px: the columns left of the first stixel
                                 * (cudastixels' left band) */
  gdouble class_accuracy;       /* pixels whose stixel class matches the
                                 * label, of the pixels right of the band */
  gdouble valid_accuracy;       /* the same over the pixels of the mask given */
  guint n_depth_checked;        /* object stixels mostly over one box */
  guint n_depth_bad;            /* of those, depth off by more than the tolerance */
  gdouble worst_depth_error;    /* relative */
  guint n_objects;
} StxMetaEval;

/* Checks the meta's layout (fails the test when the stixels do not tile
 * the frame right of its left band column by column, each column from the
 * bottom up, with sky depth 0 and object depth > 0) and evaluates it
 * against @scene (over the pixels right of the band). */
void stx_evaluate_meta (const StxScene * scene, const GstCvStixelsMeta * meta,
    gdouble depth_tolerance, StxMetaEval * eval);

/* As stx_evaluate_meta, with valid_accuracy over the pixels whose ground
 * truth disparity is at least @min_valid_disparity px (the pixels a
 * disparity frame that cannot hold smaller values keeps valid). */
void stx_evaluate_meta_valid (const StxScene * scene,
    const GstCvStixelsMeta * meta, gdouble depth_tolerance,
    gdouble min_valid_disparity, StxMetaEval * eval);

/* The disparity @meta's stixels model, rendered into @out (frame_width x
 * frame_height, row-major): slope * row + intercept, 0 for sky and where
 * negative; -1 where no stixel covers the pixel (the left band). */
void stx_meta_render (const GstCvStixelsMeta * meta, gfloat * out);

/* Prints one line about @eval. */
void stx_print_eval (const gchar * what, const StxMetaEval * eval);

/* A harness around cudastixels with @caps on its input and a bus for the
 * element's messages (h->element's bus). */
GstHarness *stx_harness_new (const gchar * caps);

/* Pushes @buffer (taken) and returns the output (or NULL on an error). */
GstBuffer *stx_harness_run (GstHarness * h, GstBuffer * buffer);

/* The next "cudastixels" element message on the harness' bus, or NULL. */
GstStructure *stx_harness_pop_summary (GstHarness * h);

/* TRUE when the element factory @name exists (videocrop, from
 * gst-plugins-good, is not packed for the GPU host). */
gboolean stx_have_element (const gchar * name);

/* The outputs of one pipeline run. */
typedef struct
{
  guint n;
  GstSample **samples;
  GstStructure **summaries;     /* "cudastixels" messages (NULL if none) */
  guint64 transfer_bytes;       /* cudastixels' count after the run */
} StxRun;

/* Runs `SRC [! CONVERT] [! cudaupload] ! cudastixels PROPS
 * [! cudadownload ! video/x-raw] ! appsink` for @n frames and checks that
 * cudastixels ran on CUDA memory exactly when @gpu.  SRC is @src, or when
 * NULL an appsrc pushing @inputs (not taken) on @caps, 40 ms apart.
 * @probe (may be NULL) is installed on cudastixels' sink pad. */
StxRun *stx_run_chain (const gchar * src, GstBuffer ** inputs,
    const gchar * caps, const gchar * convert, guint n, const gchar * props,
    gboolean gpu, GstPadProbeCallback probe, gpointer probe_data);
void stx_run_free (StxRun * run);

/* The stixels meta of frame @i (fails the test when there is none). */
GstCvStixelsMeta *stx_run_meta (StxRun * run, guint i);

G_END_DECLS
#endif /* __STIXELS_ELEMENT_UTIL_H__ */
