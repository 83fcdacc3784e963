/* For the GPU test programs and benchmarks: a CUDA runtime call that what
 * follows needs.  On failure, prints where, the call and the CUDA error on
 * stderr and exits with status 1.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CV_TEST_CUDA_H
#define CV_TEST_CUDA_H

#include <cuda_runtime_api.h>
#include <stdio.h>
#include <stdlib.h>

#define CUDA_OK(call) \
  do { \
    cudaError_t cuda_ok_error_ = (call); \
    if (cuda_ok_error_ != cudaSuccess) { \
      fprintf (stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, \
          cudaGetErrorString (cuda_ok_error_)); \
      exit (1); \
    } \
  } while (0)

#endif /* CV_TEST_CUDA_H */
