/* gst-cudavision core, SGM: device helpers shared by the CUDA kernels.
 *
 * Data layout of the CUDA implementation:
 *  - census: one word per pixel (uint32_t for the 31-bit centre-symmetric
 *    census, unsigned long long for the 62-bit full census), dense rows;
 *  - cost volume `sum`: uint16 per (pixel, disparity index), disparity
 *    fastest, dense: the only buffer of 2 bytes per cell;
 *  - aggregation: one warp per image slice; lane l holds the K consecutive
 *    disparity indices [l K, l K + K) of a pixel as K/2 registers of two
 *    uint16 (low half = even index), so D is padded to 32 K ("padded lanes"
 *    l >= D / K carry a constant large cost and are never stored).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CV_SGM_DEVICE_CUH
#define CV_SGM_DEVICE_CUH

#include <stdint.h>

#ifdef SGM_EMULATION
/* the tests compile the kernels for CPU threads (tests/unit/sgm) */
#include "sgm_emulation.h"
#else
#include <cuda_runtime.h>
#include "cv_cuda.cuh"
#endif
#include "cv_round.h"
#include "cv_sgm_common.h"
#include "cv_sgm_kernel_args.h"

#define SGM_WARP 32

/* Not inlined (the CPU emulation inlines what it likes: glib's headers
 * cannot take a __noinline__ macro). */
#ifdef SGM_EMULATION
#define SGM_NOINLINE
#else
#define SGM_NOINLINE __noinline__
#endif

#ifndef SGM_EMULATION
/* Block-shared storage of type T (one instance per kernel using it). */
template < typename T > static __device__ __forceinline__ T &
sgm_block_shared (void)
{
  __shared__ T storage;
  return storage;
}

/* The block's dynamic shared memory. */
static __device__ __forceinline__ unsigned char *
sgm_dynamic_shared (void)
{
  extern __shared__ __align__ (16) unsigned char sgm_dynamic_smem[];
  return sgm_dynamic_smem;
}
#endif
#define SGM_FULL_MASK 0xffffffffu

/* Path costs of padded disparity lanes: a matching cost above
 * 62 + 2 * CV_SGM_MAX_P2, so that neither such a lane's cost plus P1 nor its
 * value ever wins a minimum against real lanes (see cv_sgm_cuda_plan.h). */
#define SGM_PAD_COST 0x1100u
/* Path cost of the neighbours outside [0, 32 K): never wins, and adding
 * P1 <= CV_SGM_MAX_P2 stays within 16 bits. */
#define SGM_INF_COST 0x7fffu
#define SGM_PACK2(v) ((uint32_t) (v) * 0x10001u)

/* ---- packed uint16 pairs --------------------------------------------------- */

static __device__ __forceinline__ uint32_t
sgm_vmin2 (uint32_t a, uint32_t b)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  uint32_t r;
  asm ("min.u16x2 %0, %1, %2;" : "=r" (r) : "r" (a), "r" (b));
  return r;
#else
  return __vminu2 (a, b);
#endif
}

/* min over the two halves of a packed pair */
static __device__ __forceinline__ uint32_t
sgm_fold_min (uint32_t v)
{
  return min (v & 0xffffu, v >> 16);
}

static __device__ __forceinline__ uint32_t
sgm_warp_min (uint32_t v)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  return __reduce_min_sync (SGM_FULL_MASK, v);
#else
  for (int o = 16; o > 0; o >>= 1)
    v = min (v, __shfl_xor_sync (SGM_FULL_MASK, v, o));
  return v;
#endif
}

/* ---- census words ------------------------------------------------------------ */

static __device__ __forceinline__ int
sgm_hamming (uint32_t a, uint32_t b)
{
  return __popc (a ^ b);
}

static __device__ __forceinline__ int
sgm_hamming (unsigned long long a, unsigned long long b)
{
  return __popcll (a ^ b);
}

/* Shared-memory index of element @e of a padded array: one padding
 * element per 128 bytes, so lanes accessing with a stride of a few
 * elements hit distinct banks (the right-view minima of the horizontal
 * kernel). */
template < typename CT > static __device__ __forceinline__ int
sgm_pad_index (int e)
{
  /* e >= 0: unsigned, a shift and an add (signed division needs four) */
  return (int) ((unsigned) e + (unsigned) e / (unsigned) (128 / sizeof (CT)));
}

/* Packs the costs of the pairs of a lane from its census words @w
 * (ascending columns): w[K - 1 - j] is the right census of disparity index
 * lane K + j.  Padded lanes (!@real) get SGM_PAD_COST. */
template < int K, typename CT > static __device__ __forceinline__ void
sgm_pack_costs (uint32_t (&cost)[K / 2], CT cl, const CT (&w)[K], bool real)
{
#pragma unroll
  for (int q = 0; q < K / 2; q++) {
    int c0 = sgm_hamming (cl, w[K - 1 - 2 * q]);
    int c1 = sgm_hamming (cl, w[K - 2 - 2 * q]);
    cost[q] = real ? __byte_perm ((uint32_t) c0, (uint32_t) c1, 0x5410)
        : SGM_PACK2 (SGM_PAD_COST);
  }
}

/* ---- census window of one slice (path kernel) ----------------------------- */

/* Packed matching costs of a lane from the census window of its pixel:
 * window element m is the right census of column x - min_disp - (D - 1) + m,
 * so disparity indices k, k + 1 (k = lane K + 2q) are elements D - 1 - k and
 * D - 2 - k: one aligned pair (D and K are even), loaded at once.  Padded
 * lanes (!@real) get SGM_PAD_COST and read nothing. */
template < int K, typename CT > static __device__ __forceinline__ void
sgm_window_costs (uint32_t (&cost)[K / 2], CT cl, const CT * window,
    int n_disp, int lane, bool real)
{
#pragma unroll
  for (int q = 0; q < K / 2; q++) {
    cost[q] = SGM_PACK2 (SGM_PAD_COST);
    if (real) {
      const int k = lane * K + 2 * q;
      const CT *pair = window + (n_disp - 2 - k);       /* [k + 1], [k] */
      CT w0, w1;
      if (sizeof (CT) == 8) {
        uint4 v = *(const uint4 *) pair;
        w1 = (CT) (((unsigned long long) v.y << 32) | v.x);
        w0 = (CT) (((unsigned long long) v.w << 32) | v.z);
      } else {
        uint2 v = *(const uint2 *) pair;
        w1 = (CT) v.x;
        w0 = (CT) v.y;
      }
      cost[q] = __byte_perm ((uint32_t) sgm_hamming (cl, w0),
          (uint32_t) sgm_hamming (cl, w1), 0x5410);
    }
  }
}

/* ---- census row with duplicated line halos (horizontal kernel) --------------- */

/* Element e of a row is stored at sgm_row_slot (e); each line of 32 elements
 * is preceded by copies of the K - 1 elements before it, so that a lane can
 * read the K elements p - K + 1 .. p from sgm_row_slot (p) - j, j < K, with
 * immediate offsets, and lanes K elements apart hit distinct banks. */
template < int K > static __host__ __device__ __forceinline__ int
sgm_row_slot (int e)
{
  return e + (K - 1) * (e / 32 + 1);
}

template < int K > static __host__ __device__ constexpr int
sgm_row_slots (int n)
{
  return n + (K - 1) * (n / 32 + 2);
}

/* Stores element @e (value @v) of a duplicated-halo row. */
template < int K, typename CT > static __device__ __forceinline__ void
sgm_row_store (CT * row, int e, CT v)
{
  const int r = e % 32;
  row[sgm_row_slot < K > (e)] = v;
  if (r >= 32 - (K - 1))        /* also in the halo of the next line */
    row[(32 + K - 1) * (e / 32 + 1) + r - (32 - (K - 1))] = v;
}

/* The K census words of a lane for the pixel whose disparity-0 element is
 * @p (= x + D - 1 in the row of the horizontal kernel): w[K - 1 - j] =
 * element p - lane K - j. */
template < int K, typename CT > static __device__ __forceinline__ void
sgm_row_words (CT (&w)[K], const CT * row, int p, int lane)
{
  const CT *src = row + sgm_row_slot < K > (p - lane * K);
#pragma unroll
  for (int j = 0; j < K; j++)
    w[K - 1 - j] = src[-j];
}

/* ---- one step of eq. 2.3 for a lane ---------------------------------------------- */

/* @L: the lane's path costs at the previous pixel (updated in place to the
 * current pixel); @m: min over all lanes of the previous costs; @p2e: the
 * effective P2.  Returns the lane's minimum of the new costs (both halves
 * folded); the caller reduces it over the warp.  When @start, the new costs
 * are the matching costs. */
template < int K > static __device__ __forceinline__ uint32_t
sgm_path_step (uint32_t (&L)[K / 2], const uint32_t (&cost)[K / 2], uint32_t m,
    uint32_t p1_pk, uint32_t p2e, bool start, int lane)
{
  const uint32_t inf_pk = SGM_PACK2 (SGM_INF_COST);
  uint32_t up = __shfl_up_sync (SGM_FULL_MASK, L[K / 2 - 1], 1);
  uint32_t dn = __shfl_down_sync (SGM_FULL_MASK, L[0], 1);
  uint32_t m_pk = SGM_PACK2 (m);
  uint32_t jump_pk = SGM_PACK2 (m + p2e);
  uint32_t out[K / 2];
  uint32_t vmin;

  if (lane == 0)
    up = inf_pk;
  if (lane == SGM_WARP - 1)
    dn = inf_pk;

#pragma unroll
  for (int q = 0; q < K / 2; q++) {
    uint32_t below = q > 0 ? L[q - 1] : up;     /* holds index 2q - 1 in its high half */
    uint32_t above = q < K / 2 - 1 ? L[q + 1] : dn;     /* holds 2q + 2 in its low half */
    uint32_t lm1 = __byte_perm (below, L[q], 0x5432);
    uint32_t lp1 = __byte_perm (L[q], above, 0x5432);
    uint32_t t = __viaddmin_u16x2 (lm1, p1_pk, L[q]);
    t = __viaddmin_u16x2 (lp1, p1_pk, t);
    t = sgm_vmin2 (t, jump_pk);
    /* each half: cost + t - m, with t >= m and the result < 2^16, so the
     * 32-bit arithmetic never carries between the halves */
    out[q] = cost[q] + t - m_pk;
  }
#pragma unroll
  for (int q = 0; q < K / 2; q++)
    L[q] = start ? cost[q] : out[q];

  vmin = L[0];
#pragma unroll
  for (int q = 1; q < K / 2; q++)
    vmin = sgm_vmin2 (vmin, L[q]);
  return sgm_fold_min (vmin);
}

/* ---- loads and stores of a lane's K uint16 of the cost volume ------------------ */

template < int K > struct SgmVec;

template <> struct SgmVec <2 >
{
  static __device__ __forceinline__ void load (uint32_t (&v)[1], const uint16_t * p)
  {
    v[0] = __ldcg ((const unsigned int *) p);
  }
  static __device__ __forceinline__ void store (uint16_t * p, const uint32_t (&v)[1])
  {
    __stcg ((unsigned int *) p, v[0]);
  }
};

template <> struct SgmVec <4 >
{
  static __device__ __forceinline__ void load (uint32_t (&v)[2], const uint16_t * p)
  {
    uint2 r = __ldcg ((const uint2 *) p);
    v[0] = r.x;
    v[1] = r.y;
  }
  static __device__ __forceinline__ void store (uint16_t * p, const uint32_t (&v)[2])
  {
    __stcg ((uint2 *) p, make_uint2 (v[0], v[1]));
  }
};

template <> struct SgmVec <6 >
{
  /* 12 bytes per lane: only 4-byte alignment is guaranteed */
  static __device__ __forceinline__ void load (uint32_t (&v)[3], const uint16_t * p)
  {
    const unsigned int *w = (const unsigned int *) p;
    v[0] = __ldcg (w);
    v[1] = __ldcg (w + 1);
    v[2] = __ldcg (w + 2);
  }
  static __device__ __forceinline__ void store (uint16_t * p, const uint32_t (&v)[3])
  {
    unsigned int *w = (unsigned int *) p;
    __stcg (w, v[0]);
    __stcg (w + 1, v[1]);
    __stcg (w + 2, v[2]);
  }
};

template <> struct SgmVec <8 >
{
  static __device__ __forceinline__ void load (uint32_t (&v)[4], const uint16_t * p)
  {
    uint4 r = __ldcg ((const uint4 *) p);
    v[0] = r.x;
    v[1] = r.y;
    v[2] = r.z;
    v[3] = r.w;
  }
  static __device__ __forceinline__ void store (uint16_t * p, const uint32_t (&v)[4])
  {
    __stcg ((uint4 *) p, make_uint4 (v[0], v[1], v[2], v[3]));
  }
};

/* Brings the 128-byte line holding @p into L2 (no registers, no waiting). */
static __device__ __forceinline__ void
sgm_prefetch_l2 (const void *p)
{
#ifdef __CUDA_ARCH__
  asm volatile ("prefetch.global.L2 [%0];"::"l" (p));
#else
  (void) p;
#endif
}

/* ---- asynchronous copies to shared memory (sm_80+; synchronous before) ------- */

template < typename CT > static __device__ __forceinline__ void
sgm_copy_async (CT * dst, const CT * src)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  unsigned s = (unsigned) __cvta_generic_to_shared (dst);
  asm volatile ("cp.async.ca.shared.global [%0], [%1], %2;"::"r" (s), "l" (src),
      "n" (sizeof (CT)));
#else
  *dst = *src;
#endif
}

/* @p as a shared-memory address (0 in the CPU emulation, which uses the
 * pointers): taken once per kernel, it spares the copies and loads below
 * recomputing the CTA's shared window from a generic pointer. */
static __device__ __forceinline__ unsigned
sgm_shared_address (const void *p)
{
#if defined(__CUDA_ARCH__) && !defined(SGM_EMULATION)
  return (unsigned) __cvta_generic_to_shared (p);
#else
  (void) p;
  return 0;
#endif
}

/* sgm_copy_async where @pred (a predicated copy, no branch), @dst at the
 * shared-memory address @dst_s */
template < typename CT > static __device__ __forceinline__ void
sgm_copy_async_if_at (bool pred, CT * dst, unsigned dst_s, const CT * src)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  (void) dst;
  asm volatile ("{\n\t.reg .pred p;\n\tsetp.ne.b32 p, %2, 0;\n\t"
      "@p cp.async.ca.shared.global [%0], [%1], %3;\n\t}"::"r" (dst_s),
      "l" (src), "r" ((int) pred), "n" (sizeof (CT)));
#else
  (void) dst_s;
  if (pred)
    *dst = *src;
#endif
}

/* 16-byte copy that bypasses L1 (data written by other warps this launch),
 * @dst at the shared-memory address @dst_s */
static __device__ __forceinline__ void
sgm_copy_async16_cg_at (void *dst, unsigned dst_s, const void *src)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  (void) dst;
  asm volatile ("cp.async.cg.shared.global [%0], [%1], 16;"::"r" (dst_s),
      "l" (src));
#else
  (void) dst_s;
  *(uint4 *) dst = __ldcg ((const uint4 *) src);
#endif
}

/* sgm_copy_async16_cg_at where @pred (a predicated copy: @src is not read
 * otherwise) */
static __device__ __forceinline__ void
sgm_copy_async16_cg_if_at (bool pred, void *dst, unsigned dst_s,
    const void *src)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  (void) dst;
  asm volatile ("{\n\t.reg .pred p;\n\tsetp.ne.b32 p, %2, 0;\n\t"
      "@p cp.async.cg.shared.global [%0], [%1], 16;\n\t}"::"r" (dst_s),
      "l" (src), "r" ((int) pred));
#else
  (void) dst_s;
  if (pred)
    *(uint4 *) dst = __ldcg ((const uint4 *) src);
#endif
}

static __device__ __forceinline__ void
sgm_copy_async16_cg (void *dst, const void *src)
{
  sgm_copy_async16_cg_at (dst, sgm_shared_address (dst), src);
}

/* 16 bytes from shared memory at @p, the shared-memory address @p_s
 * (volatile: kept in order with the copies' waits and the warp's barrier) */
static __device__ __forceinline__ uint4
sgm_shared_load16_at (const void *p, unsigned p_s)
{
#if defined(__CUDA_ARCH__) && !defined(SGM_EMULATION)
  (void) p;
  uint4 v;
  asm volatile ("ld.shared.v4.u32 {%0, %1, %2, %3}, [%4];":"=r" (v.x),
      "=r" (v.y), "=r" (v.z), "=r" (v.w):"r" (p_s));
  return v;
#else
  (void) p_s;
  return *(const uint4 *) p;
#endif
}

/* 8 bytes from shared memory at @p, the shared-memory address @p_s */
static __device__ __forceinline__ uint2
sgm_shared_load8_at (const void *p, unsigned p_s)
{
#if defined(__CUDA_ARCH__) && !defined(SGM_EMULATION)
  (void) p;
  uint2 v;
  asm volatile ("ld.shared.v2.u32 {%0, %1}, [%2];":"=r" (v.x), "=r" (v.y)
      :"r" (p_s));
  return v;
#else
  (void) p_s;
  return *(const uint2 *) p;
#endif
}

/* 4 bytes from shared memory at @p, the shared-memory address @p_s */
static __device__ __forceinline__ uint32_t
sgm_shared_load4_at (const uint32_t * p, unsigned p_s)
{
#if defined(__CUDA_ARCH__) && !defined(SGM_EMULATION)
  (void) p;
  uint32_t v;
  asm volatile ("ld.shared.u32 %0, [%1];":"=r" (v):"r" (p_s));
  return v;
#else
  (void) p_s;
  return *p;
#endif
}

/* 2 bytes from shared memory at @p, the shared-memory address @p_s */
static __device__ __forceinline__ uint32_t
sgm_shared_load_u16_at (const uint16_t * p, unsigned p_s)
{
#if defined(__CUDA_ARCH__) && !defined(SGM_EMULATION)
  (void) p;
  unsigned short v;
  asm volatile ("ld.shared.u16 %0, [%1];":"=h" (v):"r" (p_s));
  return v;
#else
  (void) p_s;
  return *p;
#endif
}

static __device__ __forceinline__ void
sgm_copy_commit (void)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile ("cp.async.commit_group;");
#endif
}

/* Waits until at most @N committed groups of this thread are pending. */
template < int N > static __device__ __forceinline__ void
sgm_copy_wait (void)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile ("cp.async.wait_group %0;"::"n" (N));
#endif
}

/* Waits until at most @pending (0 .. MAXP, warp-uniform) committed groups
 * of this thread are pending. */
template < int MAXP > static __device__ __forceinline__ void
sgm_copy_wait_pending (int pending)
{
  if constexpr (MAXP > 0) {
    if (pending >= MAXP) {
      sgm_copy_wait < MAXP > ();
      return;
    }
    sgm_copy_wait_pending < MAXP - 1 > (pending);
  } else {
    (void) pending;
    sgm_copy_wait < 0 > ();
  }
}

/* ---- cross-warp ordering through counters in global memory ------------------ *
 *
 * Only between the warps of one cooperative launch (all blocks resident);
 * see "bounded waits" in cv_sgm_kernel_args.h. */

/* Publishes this warp's earlier global writes, then adds 1 to @counter. */
static __device__ __forceinline__ void
sgm_signal (int *counter, int lane)
{
  __threadfence ();
  __syncwarp ();
  if (lane == 0)
    atomicAdd (counter, 1);
}

/* The GPU's nanosecond clock (0 in the CPU emulation). */
static __device__ __forceinline__ unsigned long long
sgm_clock_ns (void)
{
#if defined(__CUDA_ARCH__)
  unsigned long long t;
  asm volatile ("mov.u64 %0, %%globaltimer;":"=l" (t));
  return t;
#else
  return 0;
#endif
}

/* TRUE when a wait that started at @start_ns (sgm_clock_ns) after @polls
 * polls has to give up. */
static __device__ __forceinline__ bool
sgm_wait_expired (unsigned long long start_ns, unsigned polls,
    unsigned long long timeout_ns)
{
#if defined(SGM_EMULATION)
  (void) start_ns;
  (void) timeout_ns;
  /* no clock: the emulation says when no thread has made progress for a
   * while (a deadlock) */
  return polls >= SGM_WAIT_MAX_POLLS || sgm_emu_wait_expired ();
#else
  return polls >= SGM_WAIT_MAX_POLLS
      || sgm_clock_ns () - start_ns > timeout_ns;
#endif
}

/* Sleeps between two polls of a counter. */
static __device__ __forceinline__ void
sgm_poll_pause (void)
{
#if defined(SGM_EMULATION)
  sgm_emu_sleep ();             /* let the other emulated threads run */
#elif defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 700
  __nanosleep (SGM_WAIT_SLEEP_NS);
#endif
}

/* Records a wait timeout of the calling warp (the fields of SgmFault) as
 * the frame's fault unless one is recorded already: in the device record
 * (every later wait of the frame then returns at once) and, when mapped,
 * in pinned host memory (the code last, after a system-wide fence, so the
 * host never sees a code without its details).  Not inlined: the rare path
 * stays out of the kernels' loops (scalar arguments: no local memory). */
static __device__ SGM_NOINLINE void
sgm_fault_record (SgmFault * dev, SgmFault * host, int kernel, int group,
    int batch, int waited_group, int seen, int target)
{
  SgmFault f;
  f.code = SGM_FAULT_WAIT_TIMEOUT;
  f.kernel = kernel;
  f.group = group;
  f.batch = batch;
  f.waited_group = waited_group;
  f.seen = seen;
  f.target = target;
  f.block = (int) blockIdx.x;
  f.warp = (int) (threadIdx.x / SGM_WARP);
  if (atomicCAS (&dev->code, SGM_FAULT_NONE, f.code) != SGM_FAULT_NONE)
    return;
  dev->kernel = f.kernel;
  dev->group = f.group;
  dev->batch = f.batch;
  dev->waited_group = f.waited_group;
  dev->seen = f.seen;
  dev->target = f.target;
  dev->block = f.block;
  dev->warp = f.warp;
  if (host != NULL) {
    host->kernel = f.kernel;
    host->group = f.group;
    host->batch = f.batch;
    host->waited_group = f.waited_group;
    host->seen = f.seen;
    host->target = f.target;
    host->block = f.block;
    host->warp = f.warp;
    __threadfence_system ();
    *(volatile int *) &host->code = f.code;
  }
}

/* Waits until *@counter (group @waited_group's counter of @batch) >=
 * @target; afterwards the writes published by the signals counted are
 * visible to the whole warp.  Lane 0 polls (volatile loads, which always
 * reach the coherent L2), the warp follows.  Gives up when a fault of the
 * frame is recorded already, or when sgm_wait_expired (after @timeout_ns, the
 * kernel argument wait_timeout_ns): then records a fault
 * (@kernel, @group: the caller's) and returns, the frame being lost (the
 * post kernel invalidates it). */
static __device__ __forceinline__ void
sgm_wait (const int *counter, int target, int lane, SgmFault * fault,
    SgmFault * fault_host, int kernel, int group, int batch, int waited_group,
    unsigned long long timeout_ns)
{
  if (lane == 0) {
    int seen = *(volatile const int *) counter;
    if (seen < target) {
      const volatile int *frame_lost = &fault->code;
      const unsigned long long start = sgm_clock_ns ();
      unsigned polls = 0;
      /* the frame's fault record and the clock every SGM_WAIT_CHECK_POLLS
       * polls: a poll is a few instructions between the pauses (the
       * waiting warps' polls took a fifth of the packed path kernel's
       * instructions when they checked everything every time) */
      while (seen < target) {
        if (++polls % SGM_WAIT_CHECK_POLLS == 0) {
          if (*frame_lost != SGM_FAULT_NONE)
            break;
          if (sgm_wait_expired (start, polls, timeout_ns)) {
            sgm_fault_record (fault, fault_host, kernel, group, batch,
                waited_group, seen, target);
            break;
          }
        }
        sgm_poll_pause ();
        seen = *(volatile const int *) counter;
      }
    }
    __threadfence ();
  }
  __syncwarp ();
}

#endif /* CV_SGM_DEVICE_CUH */
