/* gst-cudavision: stereotestsrc, a synthetic rectified stereo camera.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef __GST_STEREO_TEST_SRC_H__
#define __GST_STEREO_TEST_SRC_H__

#include <gst/gst.h>
#include <gst/base/gstpushsrc.h>
#include <gst/video/video.h>

#include "scene/cv_scene.h"

G_BEGIN_DECLS

#define GST_TYPE_STEREO_TEST_SRC (gst_stereo_test_src_get_type ())
G_DECLARE_FINAL_TYPE (GstStereoTestSrc, gst_stereo_test_src, GST,
    STEREO_TEST_SRC, GstPushSrc)

/**
 * GstStereoLayout:
 * @GST_STEREO_LAYOUT_SIDE_BY_SIDE: left view on the left half, right view
 *   on the right half
 * @GST_STEREO_LAYOUT_TOP_BOTTOM: left view on top, right view below
 *
 * How the two views of a stereo pair share one frame.
 */
typedef enum
{
  GST_STEREO_LAYOUT_SIDE_BY_SIDE,
  GST_STEREO_LAYOUT_TOP_BOTTOM,
} GstStereoLayout;

#define GST_TYPE_STEREO_LAYOUT (gst_stereo_layout_get_type ())
GType gst_stereo_layout_get_type (void);

struct _GstStereoTestSrc
{
  GstPushSrc parent;

  /* properties (object lock) */
  GstStereoLayout layout;
  gboolean attach_disparity;
  gdouble speed;
  guint seed;
  guint n_boxes;
  guint supersample;

  /* negotiated */
  GstVideoInfo info;
  gint view_width, view_height;

  /* streaming state */
  guint64 frame;                /* the next frame to render */
  gboolean reverse;             /* playing backwards (rate < 0) */
  gboolean ended;               /* reverse playback went past frame 0 */
  guint64 anchor_frame;         /* where `speed` last changed ... */
  gdouble anchor_travel;        /* ... the camera's travel there, m */
  gdouble anchor_speed;         /* the speed since (< 0: not started) */
  CvSceneParams scene;
  guint8 *left, *right;         /* RGBA views */
  gfloat *disparity;            /* ground truth of the left view */
  gboolean views_valid;         /* left, right (and disparity where
                                 * disparity_valid) show rendered_scene */
  gboolean disparity_valid;
  CvSceneParams rendered_scene;
  GstBufferPool *disparity_pool;
};

G_END_DECLS
#endif /* __GST_STEREO_TEST_SRC_H__ */
