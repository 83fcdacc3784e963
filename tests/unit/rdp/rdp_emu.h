/* A host emulation of the CUDA execution model, just enough to run the RDP
 * kernels (cuda/rdp/cv_rdp_*_kernel.cuh) unchanged on the CPU.
 *
 * Every thread of a block is a fiber with its own stack (entered once with
 * swapcontext, then switched with _setjmp/_longjmp, which unlike
 * swapcontext costs no system call; _FORTIFY_SOURCE's longjmp check does
 * not allow switching stacks, so the including file must #undef it before
 * any include); the
 * scheduler runs each fiber until it reaches a collective (warp shuffle,
 * vote, __syncwarp: the 32 lanes of its warp; __syncthreads: the block),
 * and releases a group when all its members have arrived, so warp-
 * synchronous code behaves as on the GPU, deterministically.  Blocks run one
 * after the other; __shared__ variables are static, dynamic shared memory is
 * refilled with a garbage pattern for every block.  Misuse (a collective
 * with exited lanes, a deadlock) aborts with a message.
 *
 * Include this before the kernel headers, in a C++ file compiled with
 * -ffp-contract=off (the kernels' float arithmetic then runs the host path
 * of cv_rdp_math.h, which is the definition the CUDA intrinsics implement).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef RDP_EMU_H
#define RDP_EMU_H

#if defined(_FORTIFY_SOURCE)
#error "rdp_emu.h: #undef _FORTIFY_SOURCE before the first include"
#endif

#include <setjmp.h>
#include <ucontext.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <vector>

namespace rdp_emu {

struct Dim3
{
  unsigned x, y, z;
};

enum State
{ kRunnable, kWaitWarp, kWaitBlock, kDone };

struct Fiber
{
  ucontext_t ctx;               /* first entry */
  jmp_buf jmp;                  /* where it waits */
  bool started;
  Dim3 tid;
  int linear;
  State state;
  unsigned seq;                 /* warp collectives passed: exchange buffer parity */
};

/* Stack per emulated thread: the kernels need a few KB. */
constexpr size_t kStackBytes = 64 * 1024;
/* Garbage written into dynamic shared memory before every block. */
constexpr unsigned char kSharedGarbage = 0xa5;

struct Machine
{
  Dim3 grid, block, block_idx;
  int n_threads;
  std::vector < Fiber > fibers;
  std::vector < char >stacks;
  std::vector < uint64_t > exchange[2];       /* [warp * 32 + lane] */
  std::vector < unsigned char >shared;
  ucontext_t scheduler;          /* saved by the first entry, never resumed */
  jmp_buf scheduler_jmp;
  Fiber *current;
  const std::function < void () > *body;
  long collectives;             /* statistics */
};

inline Machine &
machine ()
{
  static Machine m;
  return m;
}

[[noreturn]] inline void
fatal (const char *what)
{
  Machine & m = machine ();
  std::fprintf (stderr, "rdp emulator: %s (block %u,%u thread %d)\n", what,
      m.block_idx.x, m.block_idx.y, m.current ? m.current->linear : -1);
  std::abort ();
}

inline Dim3
thread_idx ()
{
  return machine ().current->tid;
}

inline Dim3
block_idx ()
{
  return machine ().block_idx;
}

inline Dim3
block_dim ()
{
  return machine ().block;
}

inline void *
dynamic_shared ()
{
  return machine ().shared.data ();
}

inline void
block_on (State s)
{
  Machine & m = machine ();
  Fiber *f = m.current;
  f->state = s;
  if (_setjmp (f->jmp) == 0)
    _longjmp (m.scheduler_jmp, 1);
}

/* Publishes @v for the lanes of the caller's warp and waits for all of them;
 * returns the warp's 32 published values (valid until the next collective
 * of this warp, thanks to the two alternating buffers). */
inline const uint64_t *
warp_exchange (unsigned mask, uint64_t v)
{
  Machine & m = machine ();
  Fiber & f = *m.current;
  if (mask != 0xffffffffu)
    fatal ("partial-warp collectives are not emulated");
  uint64_t *buf = &m.exchange[f.seq++ & 1][(size_t) (f.linear / 32) * 32];
  buf[f.linear % 32] = v;
  m.collectives++;
  block_on (kWaitWarp);
  return buf;
}

inline int
lane ()
{
  return machine ().current->linear % 32;
}

template < class T > inline uint64_t
to_bits (T v)
{
  uint64_t u = 0;
  static_assert (sizeof (T) <= sizeof (uint64_t), "64-bit exchange");
  std::memcpy (&u, &v, sizeof (T));
  return u;
}

template < class T > inline T
from_bits (uint64_t u)
{
  T v;
  std::memcpy (&v, &u, sizeof (T));
  return v;
}

inline void
fiber_main ()
{
  Machine & m = machine ();
  (*m.body) ();
  m.current->state = kDone;
  _longjmp (m.scheduler_jmp, 1);        /* never returns */
}

/* Runs @f until it waits at a collective or finishes. */
inline void
resume (Fiber & f)
{
  Machine & m = machine ();
  m.current = &f;
  if (_setjmp (m.scheduler_jmp) == 0) {
    if (!f.started) {
      f.started = true;
      swapcontext (&m.scheduler, &f.ctx);
    } else {
      _longjmp (f.jmp, 1);
    }
  }
}

inline void
run_block ()
{
  Machine & m = machine ();
  const int n = m.n_threads;
  const int n_warps = (n + 31) / 32;

  std::fill (m.shared.begin (), m.shared.end (), kSharedGarbage);
  for (int i = 0; i < n; i++) {
    Fiber & f = m.fibers[i];
    f.tid.x = i % m.block.x;
    f.tid.y = (i / m.block.x) % m.block.y;
    f.tid.z = i / (m.block.x * m.block.y);
    f.linear = i;
    f.state = kRunnable;
    f.seq = 0;
    f.started = false;
    getcontext (&f.ctx);
    f.ctx.uc_stack.ss_sp = &m.stacks[(size_t) i * kStackBytes];
    f.ctx.uc_stack.ss_size = kStackBytes;
    f.ctx.uc_link = nullptr;
    makecontext (&f.ctx, fiber_main, 0);
  }
  for (;;) {
    for (int i = 0; i < n; i++) {
      if (m.fibers[i].state == kRunnable)
        resume (m.fibers[i]);
    }
    m.current = nullptr;
    bool released = false;
    for (int w = 0; w < n_warps; w++) {
      int lanes = std::min (32, n - w * 32), waiting = 0, done = 0;
      for (int l = 0; l < lanes; l++) {
        State s = m.fibers[w * 32 + l].state;
        waiting += s == kWaitWarp;
        done += s == kDone;
      }
      if (waiting > 0 && waiting + done == lanes) {
        if (done > 0)
          fatal ("warp collective while some lanes have exited");
        for (int l = 0; l < lanes; l++)
          m.fibers[w * 32 + l].state = kRunnable;
        released = true;
      }
    }
    if (released)
      continue;
    int done = 0, at_barrier = 0;
    for (int i = 0; i < n; i++) {
      done += m.fibers[i].state == kDone;
      at_barrier += m.fibers[i].state == kWaitBlock;
    }
    if (done == n)
      return;
    if (at_barrier + done != n)
      fatal ("deadlock: threads wait at different collectives");
    for (int i = 0; i < n; i++)
      if (m.fibers[i].state == kWaitBlock)
        m.fibers[i].state = kRunnable;
  }
}

/* Runs @body as a kernel of @grid x @block threads with @shared_bytes of
 * dynamic shared memory. */
inline void
launch (Dim3 grid, Dim3 block, size_t shared_bytes,
    const std::function < void () > &body)
{
  Machine & m = machine ();
  m.grid = grid;
  m.block = block;
  m.n_threads = (int) (block.x * block.y * block.z);
  m.fibers.assign ((size_t) m.n_threads, Fiber ());
  m.stacks.resize ((size_t) m.n_threads * kStackBytes);
  const size_t slots = (size_t) (m.n_threads + 31) / 32 * 32;
  m.exchange[0].assign (slots, 0);
  m.exchange[1].assign (slots, 0);
  m.shared.assign (shared_bytes, kSharedGarbage);
  m.body = &body;
  for (unsigned z = 0; z < grid.z; z++)
    for (unsigned y = 0; y < grid.y; y++)
      for (unsigned x = 0; x < grid.x; x++) {
        m.block_idx.x = x;
        m.block_idx.y = y;
        m.block_idx.z = z;
        run_block ();
      }
}

}                               /* namespace rdp_emu */

/* ---- the CUDA names the kernels use ---- */

#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define __launch_bounds__(...)
#define __shared__ static
#define threadIdx (rdp_emu::thread_idx ())
#define blockIdx (rdp_emu::block_idx ())
#define blockDim (rdp_emu::block_dim ())
#define RDP_DYNAMIC_SHARED(type, name) \
  type *name = reinterpret_cast < type * >(rdp_emu::dynamic_shared ())

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

static inline int
__ffs (int x)
{
  return __builtin_ffs (x);
}

static inline int
__clz (int x)
{
  return x ? __builtin_clz ((unsigned) x) : 32;
}

static inline int
__popc (unsigned x)
{
  return __builtin_popcount (x);
}

static inline unsigned long long
atomicMax (unsigned long long *p, unsigned long long v)
{
  unsigned long long old = *p;
  if (v > old)
    *p = v;
  return old;
}

static inline void
__syncwarp (unsigned mask = 0xffffffffu)
{
  rdp_emu::warp_exchange (mask, 0);
}

static inline void
__syncthreads ()
{
  rdp_emu::block_on (rdp_emu::kWaitBlock);
}

static inline unsigned
__ballot_sync (unsigned mask, int predicate)
{
  const uint64_t *v = rdp_emu::warp_exchange (mask, predicate != 0);
  unsigned bits = 0;
  for (int l = 0; l < 32; l++)
    bits |= (v[l] ? 1u : 0u) << l;
  return bits;
}

static inline int
__any_sync (unsigned mask, int predicate)
{
  return __ballot_sync (mask, predicate) != 0;
}

template < class T > static inline T
__shfl_sync (unsigned mask, T var, int src_lane)
{
  const uint64_t *v = rdp_emu::warp_exchange (mask, rdp_emu::to_bits (var));
  return rdp_emu::from_bits < T > (v[src_lane & 31]);
}

template < class T > static inline T
__shfl_up_sync (unsigned mask, T var, unsigned delta)
{
  const int l = rdp_emu::lane ();
  const uint64_t *v = rdp_emu::warp_exchange (mask, rdp_emu::to_bits (var));
  return l >= (int) delta ? rdp_emu::from_bits < T > (v[l - delta]) : var;
}

template < class T > static inline T
__shfl_xor_sync (unsigned mask, T var, int lane_mask)
{
  const int l = rdp_emu::lane ();
  const uint64_t *v = rdp_emu::warp_exchange (mask, rdp_emu::to_bits (var));
  return rdp_emu::from_bits < T > (v[(l ^ lane_mask) & 31]);
}

#endif /* RDP_EMU_H */
