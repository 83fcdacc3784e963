/* gst-cudavision: cudaroaddetect, self-supervised road detection from colour
 * and stereo.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef __GST_CUDA_ROAD_DETECT_H__
#define __GST_CUDA_ROAD_DETECT_H__

#include "gstcvfilter.h"
#include "gstcvdisparityinput.h"
#include "gstroadsummary.h"
#include "road/cv_road.h"
#include "vote/cv_ground.h"
#ifdef CV_HAVE_CUDA
#include "cv_cuda.h"
#endif

G_BEGIN_DECLS

#define GST_TYPE_CUDA_ROAD_DETECT (gst_cuda_road_detect_get_type ())
G_DECLARE_FINAL_TYPE (GstCudaRoadDetect, gst_cuda_road_detect, GST,
    CUDA_ROAD_DETECT, GstCvFilter)

/* The properties, snapshotted once per frame by the base class. */
typedef struct
{
  gboolean equalize;
  guint patch_size;             /* px */
  guint bins;
  gdouble max_range;            /* m */
  gdouble min_point_fraction;   /* 0..1 */
  gdouble roughness;            /* m^2 */
  guint max_models;
  guint initial_models;
  guint new_models;
  guint min_samples;
  gdouble update_threshold;
  gdouble classify_threshold;
  gboolean horizon_gate;
  gdouble variance_floor;       /* count^2 */
  guint em_max_iterations;
  gdouble em_tolerance;         /* nats per sample */
  gdouble height;               /* m */
  gdouble pitch;                /* rad, + = looking down */
  gboolean estimate_camera;
  gboolean overlay;
} GstCudaRoadDetectSettings;

struct _GstCudaRoadDetect
{
  GstCvFilter parent;

  /* streaming thread only */
  CvRoadParams applied;         /* parameters the detector runs with */
  CvRoadCpu *cpu;
  CvGroundCpu *ground_cpu;
  guint8 *rgba;                 /* converted frame, CPU backend */
  gsize rgba_size;
  GstCvDisparityScratch disparity_scratch;
  GstRoadSummaryScratch summary;
#ifdef CV_HAVE_CUDA
  CvRoadCuda *cuda;
  CvGroundCuda *ground_cuda;
  CvDeviceBuffer rgba_device;   /* converted frame, CUDA backend */
  CvDeviceBuffer pose_device;   /* one CvCameraPose from the ground estimate */
#endif

  /* set by events and caps changes, consumed by the next frame */
  gint reset_pending;
};

G_END_DECLS
#endif /* __GST_CUDA_ROAD_DETECT_H__ */
