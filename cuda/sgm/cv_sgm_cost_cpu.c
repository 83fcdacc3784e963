/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* SGM, CPU reference: the matching costs of a row (eq. 2.1-2.2), the
 * Hamming distances between a left pixel's census and those of its
 * candidates in the right view.
 *
 * Each sweep of the aggregation computes them again for the row in hand,
 * so they take a good part of a frame: where the CPU has AVX-512's 64-bit
 * population count (VPOPCNTDQ: Ice Lake and later Xeons, Zen 4), eight
 * candidates take one vector instruction; elsewhere a scalar POPCNT each.
 * Both give the same bytes (the unit tests compare them). */
#include "cv_sgm_internal.h"
#include "cv_simd.h"

#include <string.h>

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define HAVE_POPCNT_VECTORS 1
#endif

/* Candidates k of pixel @x that lie in the image (the others see a flat
 * patch, census 0, left of it). */
static inline int
inside_candidates (int x, int n_disp, int min_disp)
{
  const int inside = x - min_disp + 1;
  return inside < 0 ? 0 : inside > n_disp ? n_disp : inside;
}

CV_SIMD_CLONES_256 static void
cost_span_scalar (const uint64_t * cl, const uint64_t * cr, int x0, int x1,
    int n_disp, int min_disp, uint8_t * cost)
{
  int x, k;

  for (x = x0; x < x1; x++) {
    uint8_t *restrict c = cost + (size_t) x * n_disp;
    const uint64_t l = cl[x];
    const int inside = inside_candidates (x, n_disp, min_disp);
    const uint64_t *r = inside > 0 ? cr + (x - min_disp) : cr;  /* k at r[-k] */

    for (k = 0; k < inside; k++)
      c[k] = (uint8_t) __builtin_popcountll (l ^ r[-k]);
    memset (c + inside, __builtin_popcountll (l), n_disp - inside);
  }
}

#ifdef HAVE_POPCNT_VECTORS
/* Eight candidates at a time: r[-k - 7] .. r[-k] loaded together, turned
 * round so that lane i holds candidate k + i, and their counts narrowed
 * to the eight bytes c[k] .. c[k + 7]. */
__attribute__ ((target ("avx512f,avx512vpopcntdq,popcnt")))
static void
cost_span_avx512 (const uint64_t * cl, const uint64_t * cr, int x0, int x1,
    int n_disp, int min_disp, uint8_t * cost)
{
  const __m512i turn = _mm512_set_epi64 (0, 1, 2, 3, 4, 5, 6, 7);
  int x, k;

  for (x = x0; x < x1; x++) {
    uint8_t *c = cost + (size_t) x * n_disp;
    const uint64_t l = cl[x];
    const __m512i left = _mm512_set1_epi64 ((long long) l);
    const int inside = inside_candidates (x, n_disp, min_disp);
    const uint64_t *r = inside > 0 ? cr + (x - min_disp) : cr;

    for (k = 0; k + 8 <= inside; k += 8) {
      __m512i right = _mm512_loadu_si512 (r - k - 7);
      right = _mm512_permutexvar_epi64 (turn, right);
      _mm_storel_epi64 ((__m128i *) (c + k),
          _mm512_cvtepi64_epi8 (_mm512_popcnt_epi64 (_mm512_xor_si512 (left,
                      right))));
    }
    for (; k < inside; k++)
      c[k] = (uint8_t) __builtin_popcountll (l ^ r[-k]);
    memset (c + inside, __builtin_popcountll (l), n_disp - inside);
  }
}
#endif

void
cv_sgm_cost_span_scalar_cpu (const uint64_t * census_left,
    const uint64_t * census_right, int width, int y, int x0, int x1,
    int n_disp, int min_disp, uint8_t * cost)
{
  cost_span_scalar (census_left + (size_t) y * width,
      census_right + (size_t) y * width, x0, x1, n_disp, min_disp, cost);
}

void
cv_sgm_cost_span_cpu (const uint64_t * census_left,
    const uint64_t * census_right, int width, int y, int x0, int x1,
    int n_disp, int min_disp, uint8_t * cost)
{
#ifdef HAVE_POPCNT_VECTORS
  if (__builtin_cpu_supports ("avx512vpopcntdq")) {
    cost_span_avx512 (census_left + (size_t) y * width,
        census_right + (size_t) y * width, x0, x1, n_disp, min_disp, cost);
    return;
  }
#endif
  cv_sgm_cost_span_scalar_cpu (census_left, census_right, width, y, x0, x1,
      n_disp, min_disp, cost);
}

void
cv_sgm_cost_row_cpu (const uint64_t * census_left,
    const uint64_t * census_right, int width, int y, int n_disp, int min_disp,
    uint8_t * cost)
{
  cv_sgm_cost_span_cpu (census_left, census_right, width, y, 0, width,
      n_disp, min_disp, cost);
}
