/* CPU emulation of the CUDA constructs the SGM kernels use, so that the
 * kernel source (the .cu files of cuda/sgm, built with SGM_EMULATION) runs in a test
 * without a GPU.  Every CUDA thread is a fiber (ucontext) on one OS thread;
 * fibers switch only at warp collectives, barriers and spin-wait back-offs,
 * in a pseudo-random order, so the schedule varies with the seed.  Warp
 * shuffles, reductions and barriers follow the CUDA semantics for full
 * warps.
 *
 * Weaker than a real GPU where the kernels must not rely on more than CUDA
 * guarantees:
 *  - residency: a cooperative launch has all its blocks resident; an
 *    ordinary launch only `resident` blocks at a time, started in a random
 *    order (a block spinning on another one that is not resident hangs);
 *  - visibility of global writes made with __stcg and read with __ldcg
 *    (every access of the cost volume by the SGM kernels): a write is seen
 *    by its own thread at once, by the threads of its warp / block after a
 *    __syncwarp / __syncthreads that both passed, and by every other thread
 *    only if the writer (or a thread that passed such a barrier with it)
 *    executed __threadfence after the write and the reader executed
 *    __threadfence (or passed a barrier with a thread that did) after that;
 *    otherwise the reader sees the value from before.  Shuffles do not
 *    order memory.  A kernel's end makes everything visible.
 *
 * When no fiber has made progress for a few rounds, spin-waits are told
 * that their time is up (sgm_emu_wait_expired: the kernels' escape from a
 * deadlock); if that does not help either, the deadlock is reported (which
 * fiber waits where) and the process aborts.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef SGM_EMULATION_H
#define SGM_EMULATION_H

#include <climits>
#include <cstddef>
#include <cstdint>
#include <cstring>

#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define __launch_bounds__(...)

struct dim3
{
  unsigned x, y, z;
  dim3 (unsigned a = 1, unsigned b = 1, unsigned c = 1):x (a), y (b), z (c)
  {
  }
};

struct uint2
{
  unsigned x, y;
};
struct uint4
{
  unsigned x, y, z, w;
};
static inline uint2
make_uint2 (unsigned a, unsigned b)
{
  uint2 r = { a, b };
  return r;
}

static inline uint4
make_uint4 (unsigned a, unsigned b, unsigned c, unsigned d)
{
  uint4 r = { a, b, c, d };
  return r;
}

/* ---- the running fiber ---- */
struct EmuFiber;
extern EmuFiber *emu_current;
const dim3 & emu_thread_idx ();
const dim3 & emu_block_idx ();
const dim3 & emu_block_dim ();
#define threadIdx (emu_thread_idx ())
#define blockIdx (emu_block_idx ())
#define blockDim (emu_block_dim ())

unsigned char *emu_block_smem ();

template < typename T > static inline T &
sgm_block_shared (void)
{
  return *reinterpret_cast < T * >(emu_block_smem ());
}

static inline unsigned char *
sgm_dynamic_shared (void)
{
  return emu_block_smem ();
}

void sgm_emu_sleep ();
/* TRUE when no fiber has made progress for a few scheduling rounds. */
bool sgm_emu_wait_expired ();
void __syncthreads ();
void __syncwarp (unsigned mask = 0xffffffffu);
uint64_t emu_warp_exchange (uint64_t v, int src_lane);
unsigned emu_warp_min (unsigned v);

int emu_lane ();

/* Shuffles with the CUDA semantics, including sub-sections of @width
 * lanes (a power of two): sources outside the caller's sub-section give the
 * caller's own value (up/down) or wrap within it (indexed). */
template < typename T > static inline T
__shfl_sync (unsigned, T v, int src, int width = 32)
{
  int base = emu_lane () & ~(width - 1);
  return (T) emu_warp_exchange ((uint64_t) v, base + (src & (width - 1)));
}

template < typename T > static inline T
__shfl_up_sync (unsigned, T v, unsigned d, int width = 32)
{
  int base = emu_lane () & ~(width - 1);
  int src = emu_lane () - (int) d;
  return (T) emu_warp_exchange ((uint64_t) v, src < base ? emu_lane () : src);
}

template < typename T > static inline T
__shfl_down_sync (unsigned, T v, unsigned d, int width = 32)
{
  int base = emu_lane () & ~(width - 1);
  int src = emu_lane () + (int) d;
  return (T) emu_warp_exchange ((uint64_t) v,
      src >= base + width ? emu_lane () : src);
}

template < typename T > static inline T
__shfl_xor_sync (unsigned, T v, int m, int width = 32)
{
  int base = emu_lane () & ~(width - 1);
  int src = emu_lane () ^ m;
  return (T) emu_warp_exchange ((uint64_t) v,
      src < base || src >= base + width ? emu_lane () : src);
}

static inline int
__any_sync (unsigned, int pred)
{
  return emu_warp_min (pred ? 0u : 1u) == 0u;
}

static inline int
__all_sync (unsigned, int pred)
{
  return emu_warp_min (pred ? 1u : 0u) == 1u;
}

template < typename T > static inline T
__ldg (const T * p)
{
  return *p;
}

static inline unsigned
__reduce_min_sync (unsigned, unsigned v)
{
  return emu_warp_min (v);
}

/* ---- arithmetic intrinsics ---- */
static inline int
__popc (unsigned v)
{
  return __builtin_popcount (v);
}

static inline int
__popcll (unsigned long long v)
{
  return __builtin_popcountll (v);
}

/* the low word of hi:lo shifted right by @shift mod 32 */
static inline unsigned
__funnelshift_r (unsigned lo, unsigned hi, unsigned shift)
{
  return (unsigned) ((((unsigned long long) hi << 32) | lo) >> (shift & 31));
}

static inline unsigned
__byte_perm (unsigned x, unsigned y, unsigned s)
{
  unsigned char b[8];
  unsigned r = 0;
  for (int i = 0; i < 4; i++) {
    b[i] = (unsigned char) (x >> (8 * i));
    b[4 + i] = (unsigned char) (y >> (8 * i));
  }
  for (int i = 0; i < 4; i++)
    r |= (unsigned) b[(s >> (4 * i)) & 7] << (8 * i);
  return r;
}

static inline unsigned
__vminu2 (unsigned a, unsigned b)
{
  unsigned lo = (a & 0xffffu) < (b & 0xffffu) ? (a & 0xffffu) : (b & 0xffffu);
  unsigned hi = (a >> 16) < (b >> 16) ? (a >> 16) : (b >> 16);
  return lo | (hi << 16);
}

static inline unsigned
__viaddmin_u16x2 (unsigned a, unsigned b, unsigned c)
{
  unsigned lo = ((a & 0xffffu) + (b & 0xffffu)) & 0xffffu;
  unsigned hi = ((a >> 16) + (b >> 16)) & 0xffffu;
  return __vminu2 (lo | (hi << 16), c);
}

static inline int
min (int a, int b)
{
  return a < b ? a : b;
}

static inline int
max (int a, int b)
{
  return a > b ? a : b;
}

static inline unsigned
min (unsigned a, unsigned b)
{
  return a < b ? a : b;
}

/* ---- memory ---- */

/* Global memory accesses under the visibility model (32-bit words). */
uint32_t emu_global_load (const void *p);
void emu_global_store (void *p, uint32_t v);

template < typename T > static inline T
__ldcg (const T * p)
{
  static_assert (sizeof (T) % 4 == 0, "32-bit words");
  uint32_t w[sizeof (T) / 4];
  T v;
  for (size_t i = 0; i < sizeof (T) / 4; i++)
    w[i] = emu_global_load ((const uint32_t *) (const void *) p + i);
  memcpy (&v, w, sizeof (T));
  return v;
}

template < typename T > static inline void
__stcg (T * p, T v)
{
  static_assert (sizeof (T) % 4 == 0, "32-bit words");
  uint32_t w[sizeof (T) / 4];
  memcpy (w, &v, sizeof (T));
  for (size_t i = 0; i < sizeof (T) / 4; i++)
    emu_global_store ((uint32_t *) (void *) p + i, w[i]);
}

/* Makes the calling thread's global writes (and those it has seen through
 * barriers) visible to all, and all writes so published visible to it. */
void __threadfence ();

static inline void
__threadfence_system ()
{
  __threadfence ();
}

static inline int
atomicAdd (int *p, int v)
{
  int old = *p;
  *p = old + v;
  return old;
}

static inline int
atomicCAS (int *p, int compare, int v)
{
  int old = *p;
  if (old == compare)
    *p = v;
  return old;
}

static inline unsigned
atomicMin (unsigned *p, unsigned v)
{
  unsigned old = *p;
  if (v < old)
    *p = v;
  return old;
}

/* ---- launching ---- */
typedef void (*EmuBody) (void *user);

/* Runs @body as grid x block threads, each block with @smem_bytes of
 * shared memory filled with a garbage pattern (reads before writes show
 * up); @resident: blocks resident at a time (0: all, a cooperative launch),
 * started in a random order; @seed varies the order in which blocks start
 * and fibers run.  Aborts with a report on a deadlock. */
void emu_launch (dim3 grid, dim3 block, size_t smem_bytes, int resident,
    unsigned seed, EmuBody body, void *user);

#endif /* SGM_EMULATION_H */
