/* gst-cudavision: cudastixels, disparity -> the Stixel World.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef __GST_CUDA_STIXELS_H__
#define __GST_CUDA_STIXELS_H__

#include "gstcvfilter.h"
#include "gstcvdisparityinput.h"
#include "gststixelsoutput.h"

#include "cv_draw.h"
#include "vote/cv_ground.h"
#include "cv_stixels.h"

G_BEGIN_DECLS

#define GST_TYPE_CUDA_STIXELS (gst_cuda_stixels_get_type ())
G_DECLARE_FINAL_TYPE (GstCudaStixels, gst_cuda_stixels, GST, CUDA_STIXELS,
    GstCvFilter)

/* The properties (GstCvFilter snapshots them once per frame). */
typedef struct
{
  gint stixel_width;            /* px */
  gint row_step;                /* px */
  gint max_disparity;           /* px; 0 = from the disparity meta */
  gint left_band;               /* px left unsegmented; -1 = the disparity
                                 * meta's search range (0 for frames) */
  gdouble camera_height;        /* m */
  gdouble camera_pitch;         /* rad */
  gboolean estimate_camera;
  gdouble sigma_ground, sigma_object, sigma_sky;        /* px */
  gdouble model_complexity;
  gdouble gravity_flying, gravity_flying_slope;
  gdouble gravity_sinking, gravity_sinking_slope;
  gdouble gravity_tolerance;    /* px */
  gdouble ordering, ordering_slope;
  gdouble gap_nearer, gap_nearer_slope;
  gdouble gap_farther, gap_farther_slope;
  gdouble gap_tolerance;        /* px */
  gdouble height_sigma;         /* m */
  gdouble pitch_sigma;          /* rad */
  gdouble object_slope_sigma;   /* px per row */
  gdouble focal_length;         /* px; disparity frames only */
  gdouble principal_x, principal_y;     /* px; < 0 = frame centre */
  gdouble baseline;             /* m */
  gboolean overlay;
  gdouble overlay_max_depth;    /* m */
} GstCudaStixelsSettings;

struct _GstCudaStixels
{
  GstCvFilter parent;

  /* streaming state (streaming thread only) */
  GstCvDisparityScratch disparity_scratch;
  GstCvStixelsOutput output;    /* meta array, draw list */
  CvStixelList cpu_list;
  CvStixelList band_only;       /* the empty result of a frame inside the
                                 * left band (crop_left_band) */

  CvGroundCpu *ground_cpu;
#ifdef CV_HAVE_CUDA
  CvStixelsCuda *plan;
  CvGroundCuda *ground_cuda;
  CvDeviceBuffer pose_device;   /* one CvCameraPose written by the estimator */
#endif
};

GST_ELEMENT_REGISTER_DECLARE (cudastixels);

G_END_DECLS
#endif /* __GST_CUDA_STIXELS_H__ */
