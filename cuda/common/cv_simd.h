/* gst-cudavision core: the CPU references' vector loops (internal header).
 *
 * CV_SIMD_CLONES: a hot function in versions for the CPU at hand, picked
 * when the library loads: x86-64-v4 (AVX-512), AVX2, x86-64-v2 (SSE4.2 and
 * POPCNT, which the baseline lacks: GCC's __builtin_popcountll is then a
 * call into libgcc) and the baseline.  The core is compiled with
 * -ffp-contract=off (cuda/meson.build), so no version fuses a multiply
 * and an add (x86-64-v4 has FMA): every version rounds as the scalar code
 * does, and floating-point results are the same bits on any CPU.
 * CV_SIMD_CLONES_256: the same without the AVX-512 version, for loops that
 * run slower in it (SGM's 16-bit lanes: ~6 % on a Zen 4).
 * CV_SIMD_INLINE: a helper of such a function, inlined into each version
 * (an out-of-line copy would be the baseline's).
 * CV_SIMD_INDEPENDENT (before a loop): its iterations write arrays that
 * none of them reads, so the vectoriser needs no run-time alias checks.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CV_SIMD_H
#define CV_SIMD_H

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define CV_SIMD_CLONES \
  __attribute__ ((target_clones ("arch=x86-64-v4", "avx2", "arch=x86-64-v2", "default")))
#define CV_SIMD_CLONES_256 \
  __attribute__ ((target_clones ("avx2", "arch=x86-64-v2", "default")))
#else
#define CV_SIMD_CLONES
#define CV_SIMD_CLONES_256
#endif

#if defined(__GNUC__)
#define CV_SIMD_INLINE static inline __attribute__ ((always_inline))
#else
#define CV_SIMD_INLINE static inline
#endif

#if defined(__GNUC__) && !defined(__clang__)
#define CV_SIMD_INDEPENDENT _Pragma ("GCC ivdep")
#else
#define CV_SIMD_INDEPENDENT
#endif

#endif /* CV_SIMD_H */
