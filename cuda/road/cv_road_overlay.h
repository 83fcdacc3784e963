/* gst-cudavision core: drawing a road patch grid into a video frame.
 *
 * The `overlay` of cudaroaddetect: every road patch gets a translucent
 * tint, and every training seed additionally a mark in its centre (a
 * square of max(1, n / 3) px, so 1 px for the default 5 px patches).
 * The drawing is a function of each pixel's patch alone, so CPU and CUDA
 * produce identical bytes on every format by construction (this is why it
 * is not a cv_draw list: per-patch rectangles of an odd patch size share the
 * 2x2 chroma blocks of NV12 / I420 with their neighbours, and cv_draw leaves
 * the order of overlapping primitives on the GPU unspecified).
 *
 * Colours (RGBA, blended with cv_draw's integer formula and its BT.601
 * conversion for YUV frames):
 *   road tint  CV_ROAD_OVERLAY_ROAD   (0, 255, 0) at alpha 96
 *   seed mark  CV_ROAD_OVERLAY_SEED   (0, 64, 255) at alpha 224
 * NV12 / I420 chroma: a 2x2 block takes the strongest paint of its pixels
 * inside the frame (seed mark over road tint over nothing), blended once.
 * Pixels outside the grid (the right / bottom remainder of fewer than n px)
 * are never touched.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CV_ROAD_OVERLAY_H
#define CV_ROAD_OVERLAY_H

#include "cv_draw.h"
#include "cv_frame.h"
#include "road/cv_road.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CV_ROAD_OVERLAY_ROAD_R 0
#define CV_ROAD_OVERLAY_ROAD_G 255
#define CV_ROAD_OVERLAY_ROAD_B 0
#define CV_ROAD_OVERLAY_ROAD_ALPHA 96   /* translucent: the road stays visible */
#define CV_ROAD_OVERLAY_SEED_R 0
#define CV_ROAD_OVERLAY_SEED_G 64
#define CV_ROAD_OVERLAY_SEED_B 255
#define CV_ROAD_OVERLAY_SEED_ALPHA 224  /* nearly opaque: small but visible */

/* Checks @grid against @frame (patch size, grid inside the frame, classes
 * present). */
CvStatus cv_road_overlay_check (const CvFrame * frame, const CvRoadGrid * grid,
    CvError * err);

/* Draws @grid (host classes) into the host frame @frame. */
CvStatus cv_road_overlay_cpu (CvFrame * frame, const CvRoadGrid * grid,
    CvError * err);

#ifdef CV_HAVE_CUDA
/* Draws @grid (DEVICE classes, e.g. from cv_road_cuda_device_grid) into the
 * device frame @frame on @stream; identical bytes to cv_road_overlay_cpu. */
CvStatus cv_road_overlay_cuda (CvFrame * frame, const CvRoadGrid * grid,
    CvStream stream, CvError * err);
#endif

#ifdef __cplusplus
}
#endif
#endif /* CV_ROAD_OVERLAY_H */
