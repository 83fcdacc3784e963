/* gst-cudavision core: integer rounding for memory layouts and grid sizes.
 * Plain inline functions, callable from C, from the CPU emulation of the
 * kernels (C++) and, compiled by nvcc, from host and device code.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CV_ROUND_H
#define CV_ROUND_H

#include <stddef.h>

#ifdef __CUDACC__
#define CV_ROUND_FN static inline __host__ __device__
#else
#define CV_ROUND_FN static inline
#endif

/* @a / @b rounded up (@a >= 0, @b > 0). */
CV_ROUND_FN int
cv_div_up (int a, int b)
{
  return (a + b - 1) / b;
}

/* @x rounded up to a multiple of @a (memory layouts). */
CV_ROUND_FN size_t
cv_align_up (size_t x, size_t a)
{
  return (x + a - 1) / a * a;
}

#endif /* CV_ROUND_H */
