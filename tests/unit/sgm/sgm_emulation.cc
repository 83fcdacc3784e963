/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* CPU emulation of CUDA threads for the SGM kernel tests: fibers on one OS
 * thread (see sgm_emulation.h).  Fibers start with makecontext and switch
 * with _setjmp/_longjmp (no system call per switch). */
#undef _FORTIFY_SOURCE
#include "sgm_emulation.h"

#include <csetjmp>
#include <cstdio>
#include <cstdlib>
#include <ucontext.h>
#include <vector>

#define EMU_STACK_BYTES (64 * 1024)
#define EMU_SMEM_FILL 0xa5

struct EmuBarrier
{
  int size = 0, count = 0;
  unsigned gen = 0;
};

struct EmuWarpState
{
  EmuBarrier bar;
  uint64_t xchg[32];
};

struct EmuBlockState
{
  dim3 idx;
  EmuBarrier bar;
  std::vector < unsigned char >smem;
  std::vector < EmuWarpState > warps;
};

enum
{ EMU_NEW, EMU_RUNNABLE, EMU_WAIT_BARRIER, EMU_SLEEPING, EMU_DONE };

struct EmuFiber
{
  ucontext_t uc;
  jmp_buf jb;
  char *stack;
  dim3 tid;
  EmuBlockState *block;
  int warp, lane, state;
  EmuBarrier *wait_bar;
  unsigned wait_gen;
  const char *where;
};

EmuFiber *emu_current;
static jmp_buf sched_jb;
static ucontext_t sched_uc;
static dim3 emu_bdim;
static EmuBody emu_body;
static void *emu_user;
static bool emu_progress;

const dim3 &
emu_thread_idx ()
{
  return emu_current->tid;
}

const dim3 &
emu_block_idx ()
{
  return emu_current->block->idx;
}

const dim3 &
emu_block_dim ()
{
  return emu_bdim;
}

int
emu_lane ()
{
  return emu_current->lane;
}

unsigned char *
emu_block_smem ()
{
  return emu_current->block->smem.data ();
}

static void
emu_yield ()
{
  if (!_setjmp (emu_current->jb))
    _longjmp (sched_jb, 1);
}

static void
emu_barrier (EmuBarrier & b, const char *where)
{
  if (++b.count == b.size) {
    b.count = 0;
    b.gen++;
    emu_progress = true;
    return;
  }
  emu_current->state = EMU_WAIT_BARRIER;
  emu_current->wait_bar = &b;
  emu_current->wait_gen = b.gen;
  emu_current->where = where;
  emu_yield ();
}

void
sgm_emu_sleep ()
{
  emu_current->state = EMU_SLEEPING;
  emu_current->where = "spin-wait on a counter";
  emu_yield ();
}

void
__syncthreads ()
{
  emu_barrier (emu_current->block->bar, "__syncthreads");
}

void
__syncwarp (unsigned)
{
  emu_barrier (emu_current->block->warps[emu_current->warp].bar, "__syncwarp");
}

uint64_t
emu_warp_exchange (uint64_t v, int src)
{
  EmuWarpState & w = emu_current->block->warps[emu_current->warp];
  uint64_t r;
  w.xchg[emu_current->lane] = v;
  emu_barrier (w.bar, "shuffle");
  r = w.xchg[src];
  emu_barrier (w.bar, "shuffle");
  return r;
}

unsigned
emu_warp_min (unsigned v)
{
  EmuWarpState & w = emu_current->block->warps[emu_current->warp];
  unsigned r = v;
  w.xchg[emu_current->lane] = v;
  emu_barrier (w.bar, "reduce");
  for (int i = 0; i < w.bar.size; i++)
    r = (unsigned) w.xchg[i] < r ? (unsigned) w.xchg[i] : r;
  emu_barrier (w.bar, "reduce");
  return r;
}

static void
fiber_main ()
{
  emu_body (emu_user);
  emu_current->state = EMU_DONE;
  emu_progress = true;
  _longjmp (sched_jb, 1);
}

void
emu_launch (dim3 grid, dim3 block, size_t smem_bytes, unsigned seed,
    EmuBody body, void *user)
{
  const int nb = grid.x * grid.y * grid.z;
  const int nt = block.x * block.y * block.z;
  const int nw = (nt + 31) / 32;
  std::vector < EmuBlockState > blocks (nb);
  std::vector < EmuFiber > fibers ((size_t) nb * nt);
  std::vector < int >order (fibers.size ());
  /* volatile: the fibers come back here with _longjmp */
  volatile size_t done = 0;
  volatile unsigned rng = seed * 2654435761u + 12345u;

  emu_bdim = block;
  emu_body = body;
  emu_user = user;
  for (int b = 0; b < nb; b++) {
    EmuBlockState & bs = blocks[b];
    bs.idx = dim3 (b % grid.x, (b / grid.x) % grid.y, b / (grid.x * grid.y));
    bs.bar.size = nt;
    bs.smem.assign (smem_bytes + 16, EMU_SMEM_FILL);
    bs.warps.resize (nw);
    for (int w = 0; w < nw; w++)
      bs.warps[w].bar.size = w < nw - 1 ? 32 : nt - 32 * (nw - 1);
    for (int t = 0; t < nt; t++) {
      EmuFiber & f = fibers[(size_t) b * nt + t];
      f.tid = dim3 (t % block.x, (t / block.x) % block.y,
          t / (block.x * block.y));
      f.block = &bs;
      f.warp = t / 32;
      f.lane = t % 32;
      f.state = EMU_NEW;
      f.stack = NULL;
      f.where = "start";
    }
  }
  for (size_t i = 0; i < order.size (); i++)
    order[i] = (int) i;

  while (done < fibers.size ()) {
    emu_progress = false;
    /* a fresh pseudo-random order each round */
    for (size_t i = order.size () - 1; i > 0; i--) {
      rng = rng * 1664525u + 1013904223u;
      size_t j = (size_t) (rng >> 8) % (i + 1);
      int t = order[i];
      order[i] = order[j];
      order[j] = t;
    }
    for (volatile size_t oi = 0; oi < order.size (); oi++) {
      EmuFiber & f = fibers[order[oi]];
      if (f.state == EMU_DONE)
        continue;
      if (f.state == EMU_WAIT_BARRIER) {
        if (f.wait_bar->gen == f.wait_gen)
          continue;
        f.state = EMU_RUNNABLE;
      }
      emu_current = &f;
      if (!_setjmp (sched_jb)) {
        if (f.state == EMU_NEW) {
          f.state = EMU_RUNNABLE;
          f.stack = (char *) malloc (EMU_STACK_BYTES);
          getcontext (&f.uc);
          f.uc.uc_stack.ss_sp = f.stack;
          f.uc.uc_stack.ss_size = EMU_STACK_BYTES;
          f.uc.uc_link = NULL;
          makecontext (&f.uc, fiber_main, 0);
          swapcontext (&sched_uc, &f.uc);
        } else {
          if (f.state == EMU_SLEEPING)
            f.state = EMU_RUNNABLE;
          _longjmp (f.jb, 1);
        }
      }
      /* back from the fiber */
      if (f.state == EMU_DONE) {
        free (f.stack);
        f.stack = NULL;
        done++;
      } else if (f.state != EMU_SLEEPING) {
        emu_progress = true;
      }
    }
    if (!emu_progress && done < fibers.size ()) {
      fprintf (stderr, "EMULATION DEADLOCK: no thread can progress "
          "(%zu of %zu done); first waiting threads:\n", done,
          fibers.size ());
      int shown = 0;
      for (size_t i = 0; i < fibers.size () && shown < 12; i++) {
        EmuFiber & f = fibers[i];
        if (f.state == EMU_DONE || f.lane != 0)
          continue;
        fprintf (stderr, "  block (%u,%u,%u) warp %d lane 0: %s\n",
            f.block->idx.x, f.block->idx.y, f.block->idx.z, f.warp, f.where);
        shown++;
      }
      abort ();
    }
  }
}
