/* Helpers of the cudaroaddetect element tests: synthetic driving frames
 * (tests/unit/road/road_sequence.h) pushed through a pipeline
 * `appsrc ! <middle> ! appsink` in lock step, one output per input.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef __ROAD_TEST_UTIL_H__
#define __ROAD_TEST_UTIL_H__

#include <gst/gst.h>
#include <gst/cudavision/cudavision.h>

#include "road_sequence.h"

G_BEGIN_DECLS

typedef struct
{
  GstElement *pipeline, *src, *sink;
  GstBus *bus;
  gchar *description;
  GList *messages;              /* element messages popped while waiting
                                 * for an error (road_run_messages) */
} RoadRun;

/* Builds and starts `appsrc caps=RGBA w x h ! @middle ! appsink`; @middle
 * names the detector "road" (e.g. "cudaroaddetect name=road overlay=true"). */
RoadRun *road_run_start (const gchar * middle, gint width, gint height);

/* Pushes @buffer (taken) and returns the output buffer (ref) or NULL when
 * the pipeline posted an error (then *error gets its message, if given). */
GstBuffer *road_run_push (RoadRun * run, GstBuffer * buffer, gchar ** error);

/* Pops the element messages named "cudaroaddetect" posted so far (caller
 * frees the list with g_list_free_full (l, gst_structure_free)). */
GList *road_run_messages (RoadRun * run);

GstElement *road_run_detector (RoadRun * run);   /* ref */
void road_run_stop (RoadRun * run);

/* The frame last rendered by @seq as an RGBA buffer (PTS index / 30 s)
 * carrying the ground-truth disparity meta with the scene's calibration.
 * @meta_scale: 1 for a meta of the frame's size, 2 for one of half the
 * size (mismatch test), 0 for no meta; @calibrated FALSE gives a meta
 * whose calibration is all zero. */
GstBuffer *road_frame_buffer (const RoadSequence * seq, gint index,
    gint meta_scale, gboolean calibrated);

/* The scene pose as the element's "height" and "pitch" properties. */
gchar *road_pose_properties (const RoadSequence * seq);

/* Patch flags of @meta as the core's 0 / nonzero road classes, for
 * road_sequence_score (freed by the caller). */
guint8 *road_meta_classes (const GstCvRoadMeta * meta);

G_END_DECLS
#endif
