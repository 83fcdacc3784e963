/* gst-cudavision core, SGM: device helpers of the packed variant
 * (cv_sgm_fast_*.cu; see cv_sgm_kernel_args.h for the cell format).
 *
 * Interleaved layout: a pixel's D cells are D / 2 words of 32 bits; word w
 * holds disparity index w in its low half and w + D / 2 in its high half.
 * A chain (one path through the image) is aggregated by a segment of LPS
 * lanes; lane j of the segment holds words [j KH, j KH + KH) as registers
 * (D = 2 LPS KH exactly: no padded disparities).  With this layout the
 * neighbours k - 1 and k + 1 of both halves of a word are the same halves
 * of the neighbouring words, so eq. 2.3 needs no byte permutations except
 * at the two ends of the segment (where index D / 2 - 1 meets D / 2).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CV_SGM_PACKED_CUH
#define CV_SGM_PACKED_CUH

#include "cv_sgm_device.cuh"

/* 16-byte units of a pixel's cells (D uint16 = D / 8 units). */
#define SGM_UNIT_BYTES 16
#define SGM_NO_MATCH 0xffffffffu

/* Segments of this many lanes or more reduce with one warp reduction per
 * segment (sgm_seg_min_u32).  H200, 1024x440 D 128 4 paths: the 16-lane
 * path kernel 0.241 -> 0.232 ms (its four shuffle levels had ~17 % of
 * the kernel's stall samples); 8 lanes by four reductions ran slower
 * (the sweeps at 1226x370 D 128 0.439 -> 0.483 ms). */
#define SGM_SEG_REDUX_MIN_LPS 16

/* Minimum of 32-bit values over each segment of LPS lanes: from
 * SGM_SEG_REDUX_MIN_LPS lanes on by independent warp reductions (the other
 * segments' lanes offering the largest value), below by shuffles with a
 * 32-bit minimum per step (the packed 16-bit minimum there, the same
 * result for values whose halves are equal, ran the sweeps at 1226x370
 * D 128 in 0.460 ms against 0.439). */
template < int LPS > static __device__ __forceinline__ uint32_t
sgm_seg_min_u32 (uint32_t v)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800 && !defined(SGM_EMULATION)
  constexpr bool REDUX = LPS >= SGM_SEG_REDUX_MIN_LPS;
#else
  constexpr bool REDUX = false;
#endif
  if constexpr (LPS == SGM_WARP) {
    return sgm_warp_min (v);
  } else if constexpr (REDUX) {
    const int seg = (int) (threadIdx.x & (SGM_WARP - 1)) / LPS;
    uint32_t m[SGM_WARP / LPS], r;
#pragma unroll
    for (int s = 0; s < SGM_WARP / LPS; s++)
      m[s] = sgm_warp_min (seg == s ? v : ~0u);
    r = m[0];
#pragma unroll
    for (int s = 1; s < SGM_WARP / LPS; s++)
      r = seg == s ? m[s] : r;
    return r;
  } else {
#pragma unroll
    for (int o = LPS / 2; o > 0; o >>= 1)
      v = min (v, (uint32_t) __shfl_xor_sync (SGM_FULL_MASK, v, o, LPS));
    return v;
  }
}

/* The minimum of all of a lane's path costs, replicated into both halves,
 * reduced over the segment: m packed for the next step. */
template < int LPS, int KH > static __device__ __forceinline__ uint32_t
sgm_ipl_min (const uint32_t (&L)[KH])
{
  uint32_t v = L[0];
#pragma unroll
  for (int r = 1; r < KH; r++)
    v = sgm_vmin2 (v, L[r]);
  v = sgm_vmin2 (v, __byte_perm (v, v, 0x1032));
  /* both halves equal: the 32-bit order is the order of the halves */
  return sgm_seg_min_u32 < LPS > (v);
}

/* One step of eq. 2.3 in the interleaved layout.  @L: the previous path
 * costs (updated in place); @C: the matching costs of the new pixel;
 * @m_pk: the previous minimum (both halves); @jump_pk: m + P2 (both halves);
 * @sl: lane within the segment.  A path starts with L = 0 and m = 0 (the
 * step then yields L = C exactly). */
template < int LPS, int KH > static __device__ __forceinline__ void
sgm_ipl_step (uint32_t (&L)[KH], const uint32_t (&C)[KH], uint32_t m_pk,
    uint32_t p1_pk, uint32_t jump_pk, int sl)
{
  const uint32_t inf_pk = SGM_PACK2 (SGM_INF_COST);
  uint32_t up = __shfl_sync (SGM_FULL_MASK, L[KH - 1], (sl + LPS - 1) & (LPS - 1),
      LPS);
  uint32_t dn = __shfl_sync (SGM_FULL_MASK, L[0], (sl + 1) & (LPS - 1), LPS);
  uint32_t out[KH];

  /* word 0: index -1 is outside (INF), index D/2 - 1 is the low half of
   * the segment's last word; word D/2 - 1: index D/2 is the high half of
   * word 0, index D is outside */
  if (sl == 0)
    up = __byte_perm (inf_pk, up, 0x5410);
  if (sl == LPS - 1)
    dn = __byte_perm (dn, inf_pk, 0x7632);
#pragma unroll
  for (int r = 0; r < KH; r++) {
    uint32_t below = r > 0 ? L[r - 1] : up;
    uint32_t above = r < KH - 1 ? L[r + 1] : dn;
    uint32_t t = __viaddmin_u16x2 (below, p1_pk, L[r]);
    t = __viaddmin_u16x2 (above, p1_pk, t);
    t = sgm_vmin2 (t, jump_pk);
    /* each half: C + t - m with m <= t and the result < 2^16: the 32-bit
     * arithmetic never carries or borrows between the halves */
    out[r] = C[r] + t - m_pk;
  }
#pragma unroll
  for (int r = 0; r < KH; r++)
    L[r] = out[r];
}

/* *(@base + @index) = min (it, @v) in shared memory, atomically: a
 * reduction without a result (@base_s: @base as a shared-memory address,
 * __cvta_generic_to_shared, taken once per kernel; a generic atomicMin
 * recomputed the shared window for each of the winner-takes-all's 2 KH per
 * lane and pixel group). */
static __device__ __forceinline__ void
sgm_shared_min (uint32_t * base, unsigned base_s, int index, uint32_t v)
{
#if defined(__CUDA_ARCH__) && !defined(SGM_EMULATION)
  (void) base;
  asm volatile ("red.shared.min.u32 [%0], %1;"::"r" (base_s + 4u *
          (unsigned) index), "r" (v):"memory");
#else
  (void) base_s;
  atomicMin (base + index, v);
#endif
}

/* ---- KH consecutive words of a lane: vector loads and stores -------------- */

template < int KH > static __device__ __forceinline__ void
sgm_words_store_cg (uint32_t * dst, const uint32_t (&v)[KH])
{
#pragma unroll
  for (int r = 0; r < KH;) {
    if constexpr (KH % 4 == 0) {
      __stcg ((uint4 *) (dst + r), make_uint4 (v[r], v[r + 1], v[r + 2],
              v[r + 3]));
      r += 4;
    } else if constexpr (KH % 2 == 0) {
      __stcg ((uint2 *) (dst + r), make_uint2 (v[r], v[r + 1]));
      r += 2;
    } else {
      __stcg ((unsigned int *) (dst + r), v[r]);
      r += 1;
    }
  }
}

/* *@dst = @q (bypassing L1) where @pred, as a predicated store (no
 * branch: the path kernel's row step stays one block of straight-line
 * code). */
static __device__ __forceinline__ void
sgm_store_cg_v4_if (bool pred, uint32_t * dst, uint4 q)
{
#if defined(__CUDA_ARCH__) && !defined(SGM_EMULATION)
  asm volatile ("{\n\t.reg .pred p;\n\tsetp.ne.u32 p, %0, 0;\n\t"
      "@p st.global.cg.v4.u32 [%1], {%2, %3, %4, %5};\n\t}"
      ::"r" ((unsigned) pred), "l" (dst), "r" (q.x), "r" (q.y), "r" (q.z),
      "r" (q.w):"memory");
#else
  if (pred)
    __stcg ((uint4 *) dst, q);
#endif
}

/* The same with 8 bytes. */
static __device__ __forceinline__ void
sgm_store_cg_v2_if (bool pred, uint32_t * dst, uint2 q)
{
#if defined(__CUDA_ARCH__) && !defined(SGM_EMULATION)
  asm volatile ("{\n\t.reg .pred p;\n\tsetp.ne.u32 p, %0, 0;\n\t"
      "@p st.global.cg.v2.u32 [%1], {%2, %3};\n\t}"
      ::"r" ((unsigned) pred), "l" (dst), "r" (q.x), "r" (q.y):"memory");
#else
  if (pred)
    __stcg ((uint2 *) dst, q);
#endif
}

/* sgm_words_store_cg where @pred, as predicated stores where KH allows
 * (sgm_store_cg_v4_if). */
template < int KH > static __device__ __forceinline__ void
sgm_words_store_cg_if (bool pred, uint32_t * dst, const uint32_t (&v)[KH])
{
  if constexpr (KH % 4 == 0) {
#pragma unroll
    for (int r = 0; r < KH; r += 4)
      sgm_store_cg_v4_if (pred, dst + r, make_uint4 (v[r], v[r + 1], v[r + 2],
              v[r + 3]));
  } else {
    if (pred)
      sgm_words_store_cg < KH > (dst, v);
  }
}

/* To shared memory (the layout of sgm_words_load_shared). */
template < int KH > static __device__ __forceinline__ void
sgm_words_store_shared (uint32_t * dst, const uint32_t (&v)[KH])
{
#pragma unroll
  for (int r = 0; r < KH;) {
    if constexpr (KH % 4 == 0) {
      *(uint4 *) (dst + r) = make_uint4 (v[r], v[r + 1], v[r + 2], v[r + 3]);
      r += 4;
    } else if constexpr (KH % 2 == 0) {
      *(uint2 *) (dst + r) = make_uint2 (v[r], v[r + 1]);
      r += 2;
    } else {
      dst[r] = v[r];
      r += 1;
    }
  }
}

/* From shared memory. */
template < int KH > static __device__ __forceinline__ void
sgm_words_load_shared (uint32_t (&v)[KH], const uint32_t * src)
{
#pragma unroll
  for (int r = 0; r < KH;) {
    if constexpr (KH % 4 == 0) {
      uint4 q = *(const uint4 *) (src + r);
      v[r] = q.x;
      v[r + 1] = q.y;
      v[r + 2] = q.z;
      v[r + 3] = q.w;
      r += 4;
    } else if constexpr (KH % 2 == 0) {
      uint2 q = *(const uint2 *) (src + r);
      v[r] = q.x;
      v[r + 1] = q.y;
      r += 2;
    } else {
      v[r] = src[r];
      r += 1;
    }
  }
}

/* From global memory written by an earlier kernel (read-only path). */
template < int KH > static __device__ __forceinline__ void
sgm_words_load_ro (uint32_t (&v)[KH], const uint32_t * src)
{
#pragma unroll
  for (int r = 0; r < KH;) {
    if constexpr (KH % 4 == 0) {
      uint4 q = __ldg ((const uint4 *) (src + r));
      v[r] = q.x;
      v[r + 1] = q.y;
      v[r + 2] = q.z;
      v[r + 3] = q.w;
      r += 4;
    } else if constexpr (KH % 2 == 0) {
      uint2 q = __ldg ((const uint2 *) (src + r));
      v[r] = q.x;
      v[r + 1] = q.y;
      r += 2;
    } else {
      v[r] = __ldg (src + r);
      r += 1;
    }
  }
}

/* ---- byte planes (4 paths, cv_sgm_kernel_args.h): a lane's KH words ------
 *
 * A lane's KH words of two halves hold 2 KH path-cost sums below 256; in a
 * plane they are 2 KH consecutive bytes, the halves of word r at bytes
 * 2 r and 2 r + 1 (the cells' order, a byte each). */

/* Two matching costs (below 2^16) as the halves of one word, low and
 * high: one PRMT (a shift and an OR took two instructions). */
static __device__ __forceinline__ uint32_t
sgm_pack_halves (uint32_t lo, uint32_t hi)
{
  return __byte_perm (lo, hi, 0x5410);
}

/* Words 2 j and 2 j + 1 as the 4 bytes of one word (their halves' low
 * bytes), and back. */
static __device__ __forceinline__ uint32_t
sgm_bytes_of_words (uint32_t w0, uint32_t w1)
{
  return __byte_perm (w0, w1, 0x6420);
}

static __device__ __forceinline__ uint32_t
sgm_word_of_bytes (uint32_t b, int j)
{
  return __byte_perm (b, 0u, j == 0 ? 0x4140 : 0x4342);
}

/* Lane's 2 KH bytes at @dst (2 KH-aligned, KH even: whole words) from its
 * words @v, bypassing L1 (another kernel or SM reads them). */
template < int KH > static __device__ __forceinline__ void
sgm_lane_bytes_store_cg (unsigned char *dst, const uint32_t (&v)[KH])
{
  static_assert (KH % 2 == 0, "a lane's bytes are whole words");
  uint32_t b[KH / 2];
#pragma unroll
  for (int j = 0; j < KH / 2; j++)
    b[j] = sgm_bytes_of_words (v[2 * j], v[2 * j + 1]);
  sgm_words_store_cg < KH / 2 > ((uint32_t *) dst, b);
}

/* A lane's NW words of packed bytes to @dst (4 NW-aligned) where @pred,
 * bypassing L1: predicated stores (no branch around them) for 8 bytes or
 * a multiple of 16. */
template < int NW > static __device__ __forceinline__ void
sgm_bytes_store_cg_if (bool pred, uint32_t * dst, const uint32_t (&b)[NW])
{
  if constexpr (NW == 2)
    sgm_store_cg_v2_if (pred, dst, make_uint2 (b[0], b[1]));
  else
    sgm_words_store_cg_if < NW > (pred, dst, b);
}

/* How a chain kernel stores a row's cells (the vertical/diagonal paths and
 * the sweeps).  Where a lane's KH words are not 1, 2 or 4 (4, 8 or 16
 * bytes), they take several store instructions from its registers, each
 * leaving gaps between the lanes that another one fills: the L2 then
 * takes every 32-byte sector in parts (twice at KH 8).  Those cells go out
 * through the row's ring slot instead, in whole sectors
 * (sgm_pixel_store_cg_if). */
static __host__ __device__ constexpr bool
sgm_staged_store (int kh)
{
  return kh != 1 && kh != 2 && kh != 4;
}

/* The ring slots' swizzle (sgm_unit_swizzle) of a chain kernel with @lps
 * lanes of @kh words: where a lane's words are 4 units and a segment spans
 * a quarter warp, 4-way bank conflicts otherwise (H200, D 256 with 8
 * lanes: 1226x370 0.790 -> 0.722 ms, 1920x1080 3.76 -> 3.39).  The 2-way
 * conflicts of 2 units per lane cost less than the swizzle's addressing
 * (KH = 8: 0.393 -> 0.397). */
static __host__ __device__ constexpr int
sgm_ring_swizzle (int lps, int kh)
{
  return lps >= 8 && kh == 16 ? 3 : 0;
}

/* Shared-memory position of 16-byte unit @u of a pixel's cells in a
 * swizzled slot: bits 0..1 of the unit flipped by bits 3..4 (SWZ = 0: no
 * swizzle).  With 8 or more lanes per segment, SWZ = 3 for KH = 16 (and 1
 * for KH = 8) makes both access patterns free of bank conflicts: a lane's
 * own KH words (units sl KH / 4 + j, one 128-bit access per j) and the
 * segment's shared units (sl + LPS k, sgm_pixel_copy_async). */
template < int SWZ > static __device__ __forceinline__ int
sgm_unit_swizzle (int u)
{
  return u ^ ((u >> 3) & SWZ);
}

/* Lane @sl's KH words of the pixel slot @slot (swizzled by SWZ: then KH
 * is a multiple of 4). */
template < int KH, int SWZ > static __device__ __forceinline__ void
sgm_lane_words_load_shared (uint32_t (&v)[KH], const uint32_t * slot, int sl)
{
  if constexpr (SWZ == 0) {
    sgm_words_load_shared < KH > (v, slot + sl * KH);
  } else {
    static_assert (KH % 4 == 0, "a swizzled slot holds whole units per lane");
#pragma unroll
    for (int j = 0; j < KH / 4; j++) {
      const uint4 q = *(const uint4 *) (slot + 4 *
          sgm_unit_swizzle < SWZ > (sl * (KH / 4) + j));
      v[4 * j] = q.x;
      v[4 * j + 1] = q.y;
      v[4 * j + 2] = q.z;
      v[4 * j + 3] = q.w;
    }
  }
}

/* sgm_lane_words_load_shared from the slot at the shared-memory address
 * @slot_s (sgm_shared_address) */
template < int KH, int SWZ > static __device__ __forceinline__ void
sgm_lane_words_load_shared_at (uint32_t (&v)[KH], const uint32_t * slot,
    unsigned slot_s, int sl)
{
  if constexpr (KH % 4 == 0) {
#pragma unroll
    for (int j = 0; j < KH / 4; j++) {
      const int u = sgm_unit_swizzle < SWZ > (sl * (KH / 4) + j);
      const uint4 q = sgm_shared_load16_at (slot + 4 * u, slot_s + 16u * u);
      v[4 * j] = q.x;
      v[4 * j + 1] = q.y;
      v[4 * j + 2] = q.z;
      v[4 * j + 3] = q.w;
    }
  } else {
    static_assert (SWZ == 0, "a swizzled slot holds whole units per lane");
    const uint32_t *src = slot + sl * KH;
    const unsigned src_s = slot_s + 4u * (unsigned) (sl * KH);
#pragma unroll
    for (int r = 0; r < KH;) {
      if constexpr (KH % 2 == 0) {
        const uint2 q = sgm_shared_load8_at (src + r, src_s + 4u * r);
        v[r] = q.x;
        v[r + 1] = q.y;
        r += 2;
      } else {
        v[r] = sgm_shared_load4_at (src + r, src_s + 4u * r);
        r += 1;
      }
    }
  }
}

template < int KH, int SWZ > static __device__ __forceinline__ void
sgm_lane_words_store_shared (uint32_t * slot, const uint32_t (&v)[KH], int sl)
{
  if constexpr (SWZ == 0) {
    sgm_words_store_shared < KH > (slot + sl * KH, v);
  } else {
    static_assert (KH % 4 == 0, "a swizzled slot holds whole units per lane");
#pragma unroll
    for (int j = 0; j < KH / 4; j++)
      *(uint4 *) (slot + 4 * sgm_unit_swizzle < SWZ > (sl * (KH / 4) + j)) =
          make_uint4 (v[4 * j], v[4 * j + 1], v[4 * j + 2], v[4 * j + 3]);
  }
}

/* Copies a pixel's cells (WORDS 32-bit words, a multiple of 4, 16-byte
 * aligned) from global to shared memory bypassing L1 (other SMs write
 * them), into the slot @dst (at the shared-memory address @dst_s,
 * sgm_shared_address) swizzled by SWZ, the LPS lanes of a segment sharing
 * the 16-byte units: lane @sl copies units sl, sl + LPS, .. */
template < int LPS, int WORDS, int SWZ = 0 >
static __device__ __forceinline__ void
sgm_pixel_copy_async_at (uint32_t * dst, unsigned dst_s, const uint32_t * src,
    int sl)
{
  constexpr int UNITS = WORDS / 4;
  src += 4 * sl;
#pragma unroll
  for (int k = 0; k < (UNITS + LPS - 1) / LPS; k++)
    if (UNITS % LPS == 0 || sl + k * LPS < UNITS) {
      const int u = sgm_unit_swizzle < SWZ > (sl + k * LPS);
      sgm_copy_async16_cg_at (dst + 4 * u, dst_s + 16u * u,
          src + 4 * k * LPS);
    }
}

/* sgm_pixel_copy_async_at (unswizzled) where @pred, with the lane's
 * first unit (sl) folded into @dst, @dst_s and @src: the lane copies the
 * units sl + LPS k at @dst_s + 16 LPS k from @src + 4 LPS k (the ring
 * slot's and the pixel's running addresses need no lane term in the
 * step).  Nothing is read from @src where not @pred (it may lie outside
 * the buffer).  The lanes past the pixel's units are predicated off too,
 * not branched around: ptxas made a branch of that lane condition, and of
 * @pred inside it, each with its block's bookkeeping and the never-issued
 * loads it puts before a block's first copy (the diagonal pairs, session
 * 54: 678 -> 648 SASS instructions per two row steps, 1226x370 D 128
 * 0.541 -> 0.520 ms on the H200; the vertical pair's copies, written this
 * way, lost: 580 -> 603 instructions, 0.155 -> 0.164 ms, and so did
 * their lane-folded form with the branch, session 55: the first half's
 * loop 700 -> 761 instructions, 0.155 -> 0.160 ms; they keep
 * sgm_pixel_copy_async_at). */
template < int LPS, int WORDS > static __device__ __forceinline__ void
sgm_lane_units_copy_async_if (bool pred, uint32_t * dst, unsigned dst_s,
    const uint32_t * src, int sl)
{
  constexpr int UNITS = WORDS / 4;
#pragma unroll
  for (int k = 0; k < (UNITS + LPS - 1) / LPS; k++)
    sgm_copy_async16_cg_if_at (pred && (UNITS % LPS == 0 || sl + k * LPS
            < UNITS), dst + 4 * k * LPS, dst_s + 16u * k * LPS,
        src + 4 * k * LPS);
}

template < int LPS, int WORDS, int SWZ = 0 >
static __device__ __forceinline__ void
sgm_pixel_copy_async (uint32_t * dst, const uint32_t * src, int sl)
{
  sgm_pixel_copy_async_at < LPS, WORDS, SWZ > (dst, sgm_shared_address (dst),
      src, sl);
}

/* Stores a pixel's cells (WORDS 32-bit words, a multiple of 4, 16-byte
 * aligned) from the slot @src (swizzled by SWZ) to global memory @dst where
 * @pred, the LPS lanes of a segment sharing the 16-byte units as
 * sgm_pixel_copy_async does: each store instruction writes whole 32-byte
 * sectors (a lane's own KH words, stored from registers, cover half
 * sectors when KH > 4). */
template < int LPS, int WORDS, int SWZ = 0 >
static __device__ __forceinline__ void
sgm_pixel_store_cg_if (bool pred, uint32_t * dst, const uint32_t * src,
    int sl)
{
  constexpr int UNITS = WORDS / 4;
  dst += 4 * sl;
#pragma unroll
  for (int k = 0; k < (UNITS + LPS - 1) / LPS; k++)
    if (UNITS % LPS == 0 || sl + k * LPS < UNITS) {
      sgm_store_cg_v4_if (pred, dst + 4 * k * LPS, *(const uint4 *) (src +
              4 * sgm_unit_swizzle < SWZ > (sl + k * LPS)));
    }
}

#endif /* CV_SGM_PACKED_CUH */
