/* gst-cudavision core: the arithmetic of RDP, defined once for C and CUDA.
 *
 * Everything that decides a cut lives here and is compiled into both
 * backends, so the CPU reference and the CUDA kernels agree bit for bit:
 *
 *  - Distance.  The vertical distance of sample r to the chord of segment
 *    [a, b] (a < r < b), multiplied by the segment length (b - a) so that no
 *    division is needed:
 *        D = | y_a * (b - r) + y_b * (r - a) - y_r * (b - a) |
 *    and the threshold, scaled the same way, T = epsilon * (b - a).
 *    Sample r is within tolerance iff D <= T; a segment is split iff some
 *    interior sample has D > T (strictly).
 *
 *  - Disparity signal: y is the fixed-point disparity (1/16 px, 0..32767)
 *    and epsilon is rounded to 1/16 px (epsilon_q); D and T are exact int32
 *    (|D| <= 32767 * (b - a) < 2^31 for b - a <= 65536).
 *
 *  - Depth signal: y is float metres; D is evaluated with exactly the four
 *    correctly rounded float operations below, in this order, each rounded
 *    to float (never fused): p = y_a * (b - r), q = y_b * (r - a), s = p + q,
 *    t = y_r * (b - a), D = |s - t|; T = epsilon * (b - a).  Row differences
 *    convert to float exactly (< 2^24).  On the GPU the operations are the
 *    __fmul_rn / __fadd_rn / __fsub_rn / __fdiv_rn intrinsics, which nvcc
 *    never contracts into an FMA.  On the host, C compilers may contract
 *    a * b + c into an FMA (GCC does by default in GNU C mode on targets with
 *    FMA, e.g. aarch64): every C file including this header must be built
 *    with -ffp-contract=off (the rdp meson files do so; clang also gets the
 *    STDC FP_CONTRACT pragma below), and float arithmetic must be evaluated
 *    in float (FLT_EVAL_METHOD 0, checked below).  The unit test
 *    rdp-cpu checks the compiled library against an exact emulation.
 *
 *  - Tie rule.  Among the interior samples of a segment, the split point is
 *    the one with the largest D; among equal D, the lowest row.  Both
 *    backends use the ordering of cv_rdp_key(): D's bits (non-negative int32
 *    or non-negative float, both ordered as unsigned) in the high word, the
 *    complement of the row in the low word.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CV_RDP_MATH_H
#define CV_RDP_MATH_H

#include <stdint.h>

#ifdef __CUDACC__
#define CV_RDP_FN static inline __host__ __device__
#else
#include <float.h>
#include <math.h>
#include <string.h>
#define CV_RDP_FN static inline
#if defined(FLT_EVAL_METHOD) && FLT_EVAL_METHOD != 0
#error "cv_rdp_math.h needs float expressions evaluated in float (FLT_EVAL_METHOD 0)"
#endif
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#endif
#endif

#if defined(__CUDA_ARCH__)
#define CV_RDP_FMUL(x, y) __fmul_rn ((x), (y))
#define CV_RDP_FADD(x, y) __fadd_rn ((x), (y))
#define CV_RDP_FSUB(x, y) __fsub_rn ((x), (y))
#define CV_RDP_FDIV(x, y) __fdiv_rn ((x), (y))
#else
#define CV_RDP_FMUL(x, y) ((x) * (y))
#define CV_RDP_FADD(x, y) ((x) + (y))
#define CV_RDP_FSUB(x, y) ((x) - (y))
#define CV_RDP_FDIV(x, y) ((x) / (y))
#endif

/* Invalid marker of the prepared signals: any negative value. */
#define CV_RDP_INVALID_S32 ((int32_t) -1)
#define CV_RDP_INVALID_F32 (-1.0f)

/* Largest median window, and the fixed-point scale of the disparity. */
#define CV_RDP_MEDIAN_MAX 5
#define CV_RDP_DISP_TO_PX (1.0f / 16.0f)        /* exact: a power of two */

CV_RDP_FN uint32_t
cv_rdp_f32_bits (float x)
{
#if defined(__CUDA_ARCH__)
  return __float_as_uint (x);
#else
  uint32_t u;
  memcpy (&u, &x, sizeof (u));
  return u;
#endif
}

/* ---- distance and threshold, as ordered unsigned bit patterns ---------- */

CV_RDP_FN uint32_t
cv_rdp_distance_s32 (int32_t ya, int32_t yb, int32_t yr, int32_t a, int32_t b,
    int32_t r)
{
  int32_t s = ya * (b - r) + yb * (r - a) - yr * (b - a);
  return (uint32_t) (s < 0 ? -s : s);
}

CV_RDP_FN uint32_t
cv_rdp_threshold_s32 (int32_t epsilon_q, int32_t a, int32_t b)
{
  return (uint32_t) (epsilon_q * (b - a));
}

CV_RDP_FN float
cv_rdp_distance_f32 (float ya, float yb, float yr, int32_t a, int32_t b,
    int32_t r)
{
  float p = CV_RDP_FMUL (ya, (float) (b - r));
  float q = CV_RDP_FMUL (yb, (float) (r - a));
  float s = CV_RDP_FADD (p, q);
  float t = CV_RDP_FMUL (yr, (float) (b - a));
  return fabsf (CV_RDP_FSUB (s, t));
}

CV_RDP_FN float
cv_rdp_threshold_f32 (float epsilon, int32_t a, int32_t b)
{
  return CV_RDP_FMUL (epsilon, (float) (b - a));
}

/* ---- tie rule ------------------------------------------------------------ */

/* Orders candidates: larger distance first, then lower row.  Never 0 for a
 * candidate that passed D > T (then D > 0). */
CV_RDP_FN uint64_t
cv_rdp_key (uint32_t distance_bits, int32_t row)
{
  return ((uint64_t) distance_bits << 32) | (uint64_t) (0xFFFFFFFFu -
      (uint32_t) row);
}

CV_RDP_FN int32_t
cv_rdp_key_row (uint64_t key)
{
  return (int32_t) (0xFFFFFFFFu - (uint32_t) key);
}

/* Fixed-point disparity (1/16 px) to px, exact (scaling by a power of two). */
CV_RDP_FN float
cv_rdp_disparity_px (int32_t d_q)
{
  return CV_RDP_FMUL ((float) d_q, CV_RDP_DISP_TO_PX);
}

/* Inverse of cv_rdp_disparity_px for its results, exact. */
CV_RDP_FN int32_t
cv_rdp_disparity_q (float px)
{
  return (int32_t) CV_RDP_FMUL (px, 16.0f);
}

/* ---- preparation ---------------------------------------------------------- */

/* Rounded (half up) mean of @count >= 0 valid fixed-point samples summing to
 * @sum; invalid when @count is 0. */
CV_RDP_FN int32_t
cv_rdp_mean (int32_t sum, int32_t count)
{
  return count > 0 ? (sum + count / 2) / count : CV_RDP_INVALID_S32;
}

/* Lower median of the valid (>= 0) values among @window[0 .. n), n <= 5;
 * invalid when none is valid.  Written as a rank selection (the valid value
 * with (count - 1) / 2 valid values before it, ties ordered by position)
 * rather than a sort, so with a constant n the GPU keeps it in registers. */
CV_RDP_FN int32_t
cv_rdp_median (const int32_t * window, int n)
{
  int count = 0;
  int32_t result = CV_RDP_INVALID_S32;
  for (int i = 0; i < n; i++)
    count += window[i] >= 0;
  for (int i = 0; i < n; i++) {
    int rank = 0;
    if (window[i] < 0)
      continue;
    for (int j = 0; j < n; j++)
      rank += window[j] >= 0 && (window[j] < window[i]
          || (window[j] == window[i] && j < i));
    if (rank == (count - 1) / 2)
      result = window[i];
  }
  return result;
}

/* The 3-sample median of the filter (window @a, @b, @c around a valid
 * centre @b) in min/max form, equal to cv_rdp_median ({a, b, c}, 3) for
 * every b >= 0 (rdp-cpu checks it exhaustively on a range with ties and
 * invalid values): an invalid neighbour stands in as -inf, so one invalid
 * neighbour gives the lower median of the other two (their minimum); when
 * both are invalid the second stands in as +inf, giving b. */
CV_RDP_FN int32_t
cv_rdp_median3 (int32_t a, int32_t b, int32_t c)
{
  const int32_t a2 = a < 0 ? INT32_MIN : a;
  const int32_t c2 = c >= 0 ? c : (a < 0 ? INT32_MAX : INT32_MIN);
  const int32_t lo = a2 < b ? a2 : b;
  const int32_t hi = a2 < b ? b : a2;
  const int32_t mid = hi < c2 ? hi : c2;
  return lo > mid ? lo : mid;
}

/* Depth (m) of a fixed-point disparity @d_q: @numerator / d_q with
 * numerator = focal_length * baseline * 16 (rounded to float once, on the
 * host), clamped to @max_depth when that is > 0.  Invalid for d_q <= 0. */
CV_RDP_FN float
cv_rdp_depth (float numerator, int32_t d_q, float max_depth)
{
  if (d_q <= 0)
    return CV_RDP_INVALID_F32;
  float z = CV_RDP_FDIV (numerator, (float) d_q);
  return (max_depth > 0.0f && z > max_depth) ? max_depth : z;
}

#endif /* CV_RDP_MATH_H */
