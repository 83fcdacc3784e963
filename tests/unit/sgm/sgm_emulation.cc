/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* CPU emulation of CUDA threads for the SGM kernel tests: fibers on one OS
 * thread (see sgm_emulation.h).  Fibers start with makecontext and switch
 * with _setjmp/_longjmp (no system call per switch). */
#undef _FORTIFY_SOURCE
#include "sgm_emulation.h"
#include "cv_sgm_kernel_args.h"

#include <climits>
#include <csetjmp>
#include <cstdio>
#include <cstdlib>
#include <ucontext.h>
#include <unordered_map>
#include <vector>

#define EMU_STACK_BYTES (64 * 1024)
#define EMU_SMEM_FILL 0xa5
/* Rounds without progress after which spin-waits are told to give up, and
 * after which the emulation reports a deadlock: later than any wait can
 * give up (a wait asks every SGM_WAIT_CHECK_POLLS polls, one per round). */
#define EMU_STALL_ROUNDS 4
#define EMU_DEADLOCK_ROUNDS (2 * EMU_STALL_ROUNDS + 2 * (int) SGM_WAIT_CHECK_POLLS)

/* ---- the visibility model of global writes (sgm_emulation.h) ---- */

static const long EMU_NEVER = LONG_MAX;

struct EmuStore
{
  uint32_t value;
  int writer;                   /* fiber index */
  int warp, block;              /* global warp index, block index */
  long t_warp, t_block, t_global;       /* when visible in that scope */
};

struct EmuWord
{
  uint32_t before;              /* the value before this launch's stores */
  std::vector < EmuStore > stores;
};

/* a store not yet visible to all */
struct EmuPending
{
  EmuWord *word;
  int index;
};

static std::unordered_map < uintptr_t, EmuWord > emu_words;
static long emu_clock;

struct EmuBarrier
{
  int size = 0, count = 0;
  unsigned gen = 0;
  /* memory barriers: the largest acquire time of the fibers arrived, and
   * what the last completion handed out */
  long acc_acquire = 0, out_acquire = 0, out_release = 0;
};

struct EmuWarpState
{
  EmuBarrier bar;
  uint64_t xchg[32];
  /* stores brought to the current __syncwarp, and those visible to the
   * warp (not yet to all) */
  std::vector < EmuPending > arrived, pending;
};

struct EmuBlockState
{
  dim3 idx;
  int index;
  EmuBarrier bar;
  std::vector < unsigned char >smem;
  std::vector < EmuWarpState > warps;
  /* as for the warp, for __syncthreads */
  std::vector < EmuPending > arrived, pending;
  int started, n_done;
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
  int index, warp, lane, state;
  EmuBarrier *wait_bar;
  unsigned wait_gen;
  int wait_scope;               /* 0: no memory effect, 1: warp, 2: block */
  const char *where;
  /* visibility: writes not yet visible to all; the times up to which
   * published / warp / block writes are visible to this fiber */
  std::vector < EmuPending > pending;
  long acq_global, acq_warp, acq_block;
};

EmuFiber *emu_current;
static jmp_buf sched_jb;
static ucontext_t sched_uc;
static dim3 emu_bdim;
static EmuBody emu_body;
static void *emu_user;
static bool emu_progress;
static int emu_stalled;         /* consecutive rounds without progress */
static int emu_warps_per_block;

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

static int
global_warp (const EmuFiber * f)
{
  return f->block->index * emu_warps_per_block + f->warp;
}

/* ---- global memory ---- */

static bool
visible (const EmuStore & s, const EmuFiber * f)
{
  return s.writer == f->index || s.t_global <= f->acq_global
      || (s.block == f->block->index && s.t_block <= f->acq_block)
      || (s.warp == global_warp (f) && s.t_warp <= f->acq_warp);
}

uint32_t
emu_global_load (const void *p)
{
  auto it = emu_words.find ((uintptr_t) p);
  if (it == emu_words.end () || emu_current == NULL)
    return *(const uint32_t *) p;
  const EmuWord & w = it->second;
  for (size_t i = w.stores.size (); i-- > 0;)
    if (visible (w.stores[i], emu_current))
      return w.stores[i].value;
  return w.before;
}

void
emu_global_store (void *p, uint32_t v)
{
  if (emu_current == NULL) {
    *(uint32_t *) p = v;
    return;
  }
  auto it = emu_words.find ((uintptr_t) p);
  if (it == emu_words.end ()) {
    EmuWord w;
    w.before = *(const uint32_t *) p;
    it = emu_words.emplace ((uintptr_t) p, w).first;
  }
  EmuStore s;
  s.value = v;
  s.writer = emu_current->index;
  s.warp = global_warp (emu_current);
  s.block = emu_current->block->index;
  s.t_warp = s.t_block = s.t_global = EMU_NEVER;
  it->second.stores.push_back (s);
  emu_current->pending.push_back ({&it->second,
          (int) it->second.stores.size () - 1});
  /* memory holds the newest value, for plain reads (after the kernel) */
  *(uint32_t *) p = v;
}

static void
publish (std::vector < EmuPending > &list, long now)
{
  for (const EmuPending & e : list) {
    EmuStore & s = e.word->stores[e.index];
    if (s.t_global == EMU_NEVER)
      s.t_global = now;
  }
  list.clear ();
}

void
__threadfence ()
{
  EmuFiber *f = emu_current;
  long now = ++emu_clock;
  /* cumulative: also what the fiber saw through barriers */
  publish (f->pending, now);
  publish (f->block->warps[f->warp].pending, now);
  publish (f->block->pending, now);
  f->acq_global = now;
}

/* ---- scheduling ---- */

static void
emu_yield ()
{
  if (!_setjmp (emu_current->jb))
    _longjmp (sched_jb, 1);
}

static void
append (std::vector < EmuPending > &to, std::vector < EmuPending > &from)
{
  to.insert (to.end (), from.begin (), from.end ());
  from.clear ();
}

/* A barrier completed at @now: the stores of @list become visible in the
 * scope (warp or block). */
static void
promote (std::vector < EmuPending > &list, int scope, long now)
{
  for (const EmuPending & e : list) {
    EmuStore & s = e.word->stores[e.index];
    if (scope == 1 && s.t_warp == EMU_NEVER)
      s.t_warp = now;
    if (scope == 2 && s.t_block == EMU_NEVER)
      s.t_block = now;
  }
}

/* The fiber leaves a memory barrier of @scope. */
static void
barrier_leave (EmuFiber * f, const EmuBarrier & b, int scope)
{
  if (scope == 1)
    f->acq_warp = b.out_release;
  else if (scope == 2)
    f->acq_block = f->acq_warp = b.out_release;
  if (scope > 0 && b.out_acquire > f->acq_global)
    f->acq_global = b.out_acquire;
}

/* @scope: 0 for shuffles and reductions (no memory ordering), 1 for
 * __syncwarp, 2 for __syncthreads. */
static void
emu_barrier (EmuBarrier & b, int scope, const char *where)
{
  EmuFiber *f = emu_current;
  EmuWarpState & ws = f->block->warps[f->warp];
  if (scope == 1) {
    append (ws.arrived, f->pending);
  } else if (scope == 2) {
    append (f->block->arrived, f->pending);
    append (f->block->arrived, ws.pending);
  }
  if (scope > 0 && f->acq_global > b.acc_acquire)
    b.acc_acquire = f->acq_global;
  if (++b.count == b.size) {
    b.count = 0;
    b.gen++;
    if (scope > 0) {
      long now = ++emu_clock;
      std::vector < EmuPending > &arrived = scope == 1 ? ws.arrived
          : f->block->arrived;
      promote (arrived, scope, now);
      append (scope == 1 ? ws.pending : f->block->pending, arrived);
      b.out_release = now;
      b.out_acquire = b.acc_acquire;
      b.acc_acquire = 0;
      barrier_leave (f, b, scope);
    }
    emu_progress = true;
    return;
  }
  f->state = EMU_WAIT_BARRIER;
  f->wait_bar = &b;
  f->wait_gen = b.gen;
  f->wait_scope = scope;
  f->where = where;
  emu_yield ();
  barrier_leave (f, b, scope);
}

void
sgm_emu_sleep ()
{
  emu_current->state = EMU_SLEEPING;
  emu_current->where = "spin-wait on a counter";
  emu_yield ();
}

bool
sgm_emu_wait_expired ()
{
  return emu_stalled >= EMU_STALL_ROUNDS;
}

void
__syncthreads ()
{
  emu_barrier (emu_current->block->bar, 2, "__syncthreads");
}

void
__syncwarp (unsigned)
{
  emu_barrier (emu_current->block->warps[emu_current->warp].bar, 1,
      "__syncwarp");
}

uint64_t
emu_warp_exchange (uint64_t v, int src)
{
  EmuWarpState & w = emu_current->block->warps[emu_current->warp];
  uint64_t r;
  w.xchg[emu_current->lane] = v;
  emu_barrier (w.bar, 0, "shuffle");
  r = w.xchg[src];
  emu_barrier (w.bar, 0, "shuffle");
  return r;
}

unsigned
emu_warp_min (unsigned v)
{
  EmuWarpState & w = emu_current->block->warps[emu_current->warp];
  unsigned r = v;
  w.xchg[emu_current->lane] = v;
  emu_barrier (w.bar, 0, "reduce");
  for (int i = 0; i < w.bar.size; i++)
    r = (unsigned) w.xchg[i] < r ? (unsigned) w.xchg[i] : r;
  emu_barrier (w.bar, 0, "reduce");
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
emu_launch (dim3 grid, dim3 block, size_t smem_bytes, int resident,
    unsigned seed, EmuBody body, void *user)
{
  const int nb = grid.x * grid.y * grid.z;
  const int nt = block.x * block.y * block.z;
  const int nw = (nt + 31) / 32;
  std::vector < EmuBlockState > blocks (nb);
  std::vector < EmuFiber > fibers ((size_t) nb * nt);
  /* the fibers of the started blocks (finished ones dropped each round) */
  std::vector < int >order, start_order (nb);
  /* volatile: the fibers come back here with _longjmp */
  volatile size_t done = 0;
  volatile int next_start = 0;
  volatile unsigned rng = seed * 2654435761u + 12345u;

  emu_bdim = block;
  emu_body = body;
  emu_user = user;
  emu_warps_per_block = nw;
  emu_words.clear ();
  emu_stalled = 0;
  for (int b = 0; b < nb; b++) {
    EmuBlockState & bs = blocks[b];
    bs.idx = dim3 (b % grid.x, (b / grid.x) % grid.y, b / (grid.x * grid.y));
    bs.index = b;
    bs.bar.size = nt;
    bs.smem.assign (smem_bytes + 16, EMU_SMEM_FILL);
    bs.warps.resize (nw);
    bs.started = 0;
    bs.n_done = 0;
    for (int w = 0; w < nw; w++)
      bs.warps[w].bar.size = w < nw - 1 ? 32 : nt - 32 * (nw - 1);
    for (int t = 0; t < nt; t++) {
      EmuFiber & f = fibers[(size_t) b * nt + t];
      f.tid = dim3 (t % block.x, (t / block.x) % block.y,
          t / (block.x * block.y));
      f.block = &bs;
      f.index = b * nt + t;
      f.warp = t / 32;
      f.lane = t % 32;
      f.state = EMU_NEW;
      f.stack = NULL;
      f.wait_scope = 0;
      f.where = "start";
      f.acq_global = f.acq_warp = f.acq_block = 0;
    }
  }
  /* blocks start in a random order, at most @resident at a time */
  for (int b = 0; b < nb; b++)
    start_order[b] = b;
  for (int i = nb - 1; i > 0; i--) {
    rng = rng * 1664525u + 1013904223u;
    int j = (int) ((rng >> 8) % (unsigned) (i + 1));
    int t = start_order[i];
    start_order[i] = start_order[j];
    start_order[j] = t;
  }
  if (resident <= 0 || resident > nb)
    resident = nb;
  auto start_block = [&](int b) {
    blocks[b].started = 1;
    for (int t = 0; t < nt; t++)
      order.push_back (b * nt + t);
  };
  for (next_start = 0; next_start < resident; next_start++)
    start_block (start_order[next_start]);

  while (done < fibers.size ()) {
    emu_progress = false;
    {
      size_t n = 0;
      for (size_t i = 0; i < order.size (); i++)
        if (fibers[order[i]].state != EMU_DONE)
          order[n++] = order[i];
      order.resize (n);
    }
    /* a fresh pseudo-random order each round */
    for (size_t i = order.size (); i-- > 1;) {
      rng = rng * 1664525u + 1013904223u;
      size_t j = (size_t) (rng >> 8) % (i + 1);
      int t = order[i];
      order[i] = order[j];
      order[j] = t;
    }
    for (volatile size_t oi = 0; oi < order.size (); oi++) {
      EmuFiber & f = fibers[order[oi]];
      if (f.state == EMU_DONE || !f.block->started)
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
        /* a finished block makes room for the next one */
        if (++f.block->n_done == nt && next_start < nb)
          start_block (start_order[next_start++]);
      } else if (f.state != EMU_SLEEPING) {
        emu_progress = true;
      }
    }
    emu_stalled = emu_progress ? 0 : emu_stalled + 1;
    if (emu_stalled > EMU_DEADLOCK_ROUNDS && done < fibers.size ()) {
      fprintf (stderr, "EMULATION DEADLOCK: no thread can progress "
          "(%zu of %zu done, %d of %d blocks started); first waiting "
          "threads:\n", done, fibers.size (), next_start, nb);
      int shown = 0;
      for (size_t i = 0; i < fibers.size () && shown < 12; i++) {
        EmuFiber & f = fibers[i];
        if (f.state == EMU_DONE || f.lane != 0 || !f.block->started)
          continue;
        fprintf (stderr, "  block (%u,%u,%u) warp %d lane 0: %s\n",
            f.block->idx.x, f.block->idx.y, f.block->idx.z, f.warp, f.where);
        shown++;
      }
      abort ();
    }
  }
  emu_current = NULL;
  emu_words.clear ();           /* the kernel's end: all writes visible */
}
