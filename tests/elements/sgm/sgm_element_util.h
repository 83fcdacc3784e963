/* Helpers of the cudasgm element tests: stereo frames in any format from
 * the synthetic scene, the expected result from the core's CPU reference,
 * running pipelines and comparing disparity metas.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef __SGM_ELEMENT_UTIL_H__
#define __SGM_ELEMENT_UTIL_H__

#include <gst/gst.h>
#include <gst/video/video.h>
#include <gst/cudavision/cudavision.h>

#include "cv_scene.h"
#include "cv_sgm.h"

G_BEGIN_DECLS

/* Both views of a synthetic road scene, RGBA, plus its ground truth. */
typedef struct
{
  gint width, height;           /* per view */
  guint8 *left, *right;         /* RGBA, 4 * width bytes per row */
  gfloat *disparity;            /* px, left view */
  guint8 *occluded;             /* 1 where the right camera does not see */
  guint8 *labels;               /* CvSceneClass */
  CvSceneParams params;
} SgmTestScene;

/* Renders the default scene of cv_scene_params_init (@boxes, @seed) at
 * @travel metres with @supersample. */
void sgm_test_scene_render (SgmTestScene * scene, gint width, gint height,
    gint boxes, guint seed, gfloat travel, gint supersample);
void sgm_test_scene_clear (SgmTestScene * scene);

/* One frame of @format holding @left and @right (RGBA views of
 * @width x @height) side-by-side or top-bottom (the right view first when
 * @right_first); @info receives the frame's video info. */
GstBuffer *sgm_test_pack_pair (const guint8 * left, const guint8 * right,
    gint width, gint height, GstVideoFormat format, gboolean top_bottom,
    gboolean right_first, GstVideoInfo * info);

/* Caps of such a frame: multiview-mode @mode unless NULL, with @flags. */
GstCaps *sgm_test_pair_caps (const GstVideoInfo * info, const gchar * mode,
    GstVideoMultiviewFlags flags);

/* The expected disparity and confidence (@width x @height, packed rows)
 * of the views of @frame (as packed above), from the core's CPU reference
 * with @params. */
void sgm_test_reference (GstBuffer * frame, const GstVideoInfo * info,
    gboolean top_bottom, gboolean right_first, const CvSgmParams * params,
    gint16 * disparity, guint8 * confidence);

/* Number of pixels where @meta differs from @disparity / @confidence
 * (packed rows; @confidence may be NULL); prints the first mismatch with
 * both values, prefixed with @what. */
guint sgm_test_compare_meta (GstCvDisparityMeta * meta,
    const gint16 * disparity, const guint8 * confidence, const gchar * what);

/* The disparity (and confidence, if @confidence is not NULL) of @meta as
 * packed rows, downloaded to the host when it is on the device. */
void sgm_test_meta_data (GstCvDisparityMeta * meta, gint16 * disparity,
    guint8 * confidence);

/* Runs @description (an appsink named "sink") to EOS and returns its
 * buffers (refs, in order); fails the test on an error. */
GList *sgm_test_collect (const gchar * description);

/* As sgm_test_collect, calling @setup on the pipeline before it starts
 * (e.g. to add pad probes). */
GList *sgm_test_collect_full (const gchar * description,
    void (*setup) (GstElement * pipeline, gpointer data), gpointer data);

/* "appsrc name=src ! @middle ! appsink name=sink", @caps on the appsrc,
 * frames pushed one at a time. */
typedef struct _SgmTestPipe SgmTestPipe;

SgmTestPipe *sgm_test_pipe_new (const gchar * middle, GstCaps * caps);
/* Pushes @frame (not taken) and returns the next output buffer (ref);
 * fails the test on an error. */
GstBuffer *sgm_test_pipe_process (SgmTestPipe * pipe, GstBuffer * frame);
/* The caps the appsink got (ref). */
GstCaps *sgm_test_pipe_output_caps (SgmTestPipe * pipe);
/* The element named @name (ref). */
GstElement *sgm_test_pipe_get (SgmTestPipe * pipe, const gchar * name);
/* The next element message named @structure_name on the bus (ref), or
 * NULL when there is none. */
GstMessage *sgm_test_pipe_pop_message (SgmTestPipe * pipe,
    const gchar * structure_name);
void sgm_test_pipe_free (SgmTestPipe * pipe);

G_END_DECLS
#endif /* __SGM_ELEMENT_UTIL_H__ */
