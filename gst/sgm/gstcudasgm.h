/* gst-cudavision: cudasgm, Semi-Global Matching stereo.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef __GST_CUDA_SGM_H__
#define __GST_CUDA_SGM_H__

#include "gstcvfilter.h"
#include "cv_sgm.h"

G_BEGIN_DECLS

/**
 * GstCudaSgmLayout:
 * @GST_CUDA_SGM_LAYOUT_SIDE_BY_SIDE: left view in the left half
 * @GST_CUDA_SGM_LAYOUT_TOP_BOTTOM: left view in the top half
 *
 * How the two views share the input frame when the caps do not say it
 * with `multiview-mode`.
 */
typedef enum
{
  GST_CUDA_SGM_LAYOUT_SIDE_BY_SIDE,
  GST_CUDA_SGM_LAYOUT_TOP_BOTTOM,
} GstCudaSgmLayout;

/**
 * GstCudaSgmOutput:
 * @GST_CUDA_SGM_OUTPUT_LEFT: the left view, in the input's format and memory
 * @GST_CUDA_SGM_OUTPUT_DISPARITY_COLOR: the colour-mapped disparity, RGBA,
 *   in the input's memory
 * @GST_CUDA_SGM_OUTPUT_DISPARITY_16: the disparity as GRAY16_LE in the KITTI
 *   convention (pixels x 256, 0 = invalid), system memory only
 *
 * What the output frame shows; the disparity meta is attached in every mode.
 */
typedef enum
{
  GST_CUDA_SGM_OUTPUT_LEFT,
  GST_CUDA_SGM_OUTPUT_DISPARITY_COLOR,
  GST_CUDA_SGM_OUTPUT_DISPARITY_16,
} GstCudaSgmOutput;

/**
 * GstCudaSgmPaths:
 * @GST_CUDA_SGM_PATHS_4: horizontal and vertical paths
 * @GST_CUDA_SGM_PATHS_8: plus the four diagonals
 *
 * Aggregation paths of SGM.
 */
typedef enum
{
  GST_CUDA_SGM_PATHS_4 = 4,
  GST_CUDA_SGM_PATHS_8 = 8,
} GstCudaSgmPaths;

/**
 * GstCudaSgmCensus:
 * @GST_CUDA_SGM_CENSUS_CS_9X7: centre-symmetric 9x7 census (31 bits)
 * @GST_CUDA_SGM_CENSUS_9X7: full 9x7 census (62 bits)
 *
 * The census transform of the matching cost (values of #CvSgmCensus).
 */
typedef enum
{
  GST_CUDA_SGM_CENSUS_CS_9X7 = CV_SGM_CENSUS_CS_9X7,
  GST_CUDA_SGM_CENSUS_9X7 = CV_SGM_CENSUS_9X7,
} GstCudaSgmCensus;

GType gst_cuda_sgm_layout_get_type (void);
#define GST_TYPE_CUDA_SGM_LAYOUT (gst_cuda_sgm_layout_get_type ())
GType gst_cuda_sgm_output_get_type (void);
#define GST_TYPE_CUDA_SGM_OUTPUT (gst_cuda_sgm_output_get_type ())
GType gst_cuda_sgm_paths_get_type (void);
#define GST_TYPE_CUDA_SGM_PATHS (gst_cuda_sgm_paths_get_type ())
GType gst_cuda_sgm_census_get_type (void);
#define GST_TYPE_CUDA_SGM_CENSUS (gst_cuda_sgm_census_get_type ())

/* The property values (GstCvFilter::settings), snapshot once per frame. */
typedef struct
{
  gint max_disparity;           /* number of disparities D, px */
  gint min_disparity;           /* px */
  gint p1, p2;                  /* cost units */
  gboolean adaptive_p2;
  gint adaptive_p2_scale;       /* grey levels */
  GstCudaSgmPaths paths;
  GstCudaSgmCensus census;
  gboolean subpixel;
  gdouble uniqueness;           /* (0, 1] */
  gboolean lr_check;
  gint lr_max_diff;             /* px */
  gboolean median;
  GstCudaSgmLayout layout;      /* when the caps have no multiview-mode */
  GstCudaSgmOutput output;
  gdouble focal_length;         /* px, 0 = unknown */
  gdouble principal_x;          /* px, < 0 = view centre */
  gdouble principal_y;          /* px, < 0 = view centre */
  gdouble baseline;             /* m, 0 = unknown */
} GstCudaSgmSettings;

#define GST_TYPE_CUDA_SGM (gst_cuda_sgm_get_type ())
G_DECLARE_FINAL_TYPE (GstCudaSgm, gst_cuda_sgm, GST, CUDA_SGM, GstCvFilter);

G_END_DECLS
#endif /* __GST_CUDA_SGM_H__ */
