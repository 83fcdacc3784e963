/* Inputs and timing shared by the voting benchmarks (bench_vote.c, built
 * by meson) and the NPP comparison (npp_hough_compare.cu, built on the GPU
 * host by npp-compare.sh).  Plain C on top of the CUDA runtime API; no glib.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef BENCH_VOTE_DATA_H
#define BENCH_VOTE_DATA_H

#include <stddef.h>
#include <stdint.h>

#include "cv_error.h"
#include "cv_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* H200 HBM3e bandwidth as measured on the GPU host (DESIGN/rules). */
#define BV_DRAM_BYTES_PER_S 4.3e12

/* Host images (malloc), stride = width * bytes per pixel. */
CvImageU8 bv_image_new (int width, int height, int bytes_per_pixel);
CvImageS16 bv_disparity_new (int width, int height);
void bv_image_free (void *data);

/* A gray scene: smooth background with @n_lines bright bars of random
 * width and angle (deterministic from @seed); ~5 % Sobel edge pixels at
 * 1920x1080 with 40 bars and the default threshold. */
void bv_scene_luma (CvImageU8 * luma, int n_lines, uint32_t seed);

/* binary = 255 where the Sobel |gx| + |gy| of @luma exceeds @threshold
 * (the Hough edge rule), else 0; returns the fraction of edge pixels. */
double bv_binary_edges (const CvImageU8 * luma, int threshold, CvImageU8 * binary);

/* Uniformly random bytes (bytes_per_pixel x width per row). */
void bv_random (CvImageU8 * img, int bytes_per_pixel, uint32_t seed);

/* A road-plane disparity map (camera 1.65 m high, pitch 0.02 rad, KITTI-
 * like rig scaled to the width) with a few boxes and 5 % invalid pixels. */
void bv_road_disparity (CvImageS16 * disp, CvStereoCalibration * calib,
    uint32_t seed);

/* Device copies (cudaMalloc, same stride); free with bv_device_free. */
void *bv_upload (const void *host, size_t bytes);
void bv_device_free (void *dev);

/* GPU time of @fn (enqueueing work on @stream) with CUDA events: @warmup
 * untimed runs, then the median of @runs timed ones, in ms.  Exits with a
 * message when @fn fails. */
typedef CvStatus (*BvWork) (void *ctx, CvStream stream, CvError * err);
double bv_time_ms (BvWork fn, void *ctx, CvStream stream, int warmup, int runs);

/* Device name, SM count and clock (kHz) of the current device. */
void bv_device_info (char *name, size_t name_size, int *n_sms, int *clock_khz);

#ifdef __cplusplus
}
#endif
#endif /* BENCH_VOTE_DATA_H */
