/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Road detection, CUDA (FAST variants): connected components of the patch
 * grid in one block's shared memory.
 *
 * The grid of a frame is small (12 288 patches at 640x480 with n = 5, 18 600
 * at 1242x375): its labels fit one block's shared memory (4 bytes a cell,
 * up to ~57 000 cells in the 227 KiB of an H200 block).  One launch then
 * does what the global-memory union-find of the baseline needs three for
 * (cv_road_ccl.cu), with every parent lookup a shared-memory access instead
 * of an L2 round trip:
 *   init     foreground cells hold their own index, background -1;
 *   merge    every foreground cell unites with its left neighbour and, unless
 *            its left and upper-left neighbours are both foreground (then the
 *            two rows are already joined through them), its upper one:
 *            find both roots, hook the larger root under the smaller with
 *            atomicMin, retry from the displaced parent when another thread
 *            hooked it first (the scheme of cv_road_ccl.cu);
 *   find     path halving with atomicMin: a parent is only ever replaced by
 *            one of its ancestors, so parents keep decreasing and stay in the
 *            component, and every root is its component's smallest index
 *            (the CPU reference's labels).
 * seeds_block_kernel then counts the component sizes at the roots, picks the
 * largest (ties: smallest root) and lists its patches in row-major order;
 * region_block_kernel keeps the passable patches connected to the seeds.
 * Grids too large for shared memory take the global-memory kernels.
 *
 * While threads walk and hook trees concurrently, every access to a cell
 * another thread may change is an atomic (reads as atomicOr with 0), and
 * "is this cell foreground" comes from the read-only input mask: the
 * lock-free phases have no plain access racing with a write, as
 * compute-sanitizer's racecheck requires. */
#include "cv_road_cuda.cuh"

#define FULL_MASK 0xffffffffu

/* Static shared memory the labelling kernels need besides the cells (block
 * reductions and scans); kept free of the dynamic allocation. */
#define BLOCK_CCL_STATIC_RESERVE 1024

/* A cell other threads may be changing (an atomic read). */
static __device__ __forceinline__ int
bccl_load (int *cells, int i)
{
  return atomicOr (cells + i, 0);
}

static __device__ __forceinline__ int
bccl_find (int *cells, int i)
{
  for (;;) {
    int p = bccl_load (cells, i);
    int gp;
    if (p == i)
      return i;
    gp = bccl_load (cells, p);
    if (gp == p)
      return p;
    /* path halving: i skips to its grandparent (an ancestor: the value can
     * only have dropped to another ancestor meanwhile, atomicMin keeps it) */
    atomicMin (cells + i, gp);
    i = gp;
  }
}

static __device__ __forceinline__ void
bccl_unite (int *cells, int a, int b)
{
  for (;;) {
    int old;
    a = bccl_find (cells, a);
    b = bccl_find (cells, b);
    if (a == b)
      return;
    if (a < b) {
      int t = a;
      a = b;
      b = t;
    }
    /* hook root a under b; if a got a parent meanwhile, that parent (old)
     * must still be joined with b */
    old = atomicMin (cells + a, b);
    if (old == a)
      return;
    a = old;
  }
}

/* Every foreground cell of the cols-wide grid of @n cells joins its left and
 * upper neighbours; @fg (cell index -> bool) reads the input mask.  Ends
 * with a barrier. */
template <typename Foreground>
static __device__ void
bccl_merge (int *cells, int cols, int n, Foreground fg)
{
  for (int i = threadIdx.x; i < n; i += blockDim.x) {
    bool left, up;
    if (!fg (i))
      continue;
    left = i % cols > 0 && fg (i - 1);
    up = i >= cols && fg (i - cols);
    if (left)
      bccl_unite (cells, i, i - 1);
    if (up && !(left && fg (i - cols - 1)))
      bccl_unite (cells, i, i - cols);
  }
  __syncthreads ();
}

/* Every foreground cell's parent becomes its root.  Ends with a barrier. */
template <typename Foreground>
static __device__ void
bccl_flatten (int *cells, int n, Foreground fg)
{
  for (int i = threadIdx.x; i < n; i += blockDim.x)
    if (fg (i))
      atomicExch (cells + i, bccl_find (cells, i));
  __syncthreads ();
}

/* The input masks of the three kernels. */
struct MaskBytes
{
  const uint8_t *mask;
  __device__ bool operator () (int i) const
  {
    return mask[i] != 0;
  }
};

struct MaskLabels
{
  const int32_t *labels;        /* >= 0: foreground */
  __device__ bool operator () (int i) const
  {
    return labels[i] >= 0;
  }
};

/* Combines (size, index) pairs across a warp: the largest size, ties to the
 * smallest index; index -1 marks "none". */
static __device__ __forceinline__ void
bccl_warp_largest (int *size, int *index)
{
  int s = *size, i = *index;

  for (int off = CV_ROAD_WARP / 2; off > 0; off >>= 1) {
    int s2 = __shfl_down_sync (FULL_MASK, s, off);
    int i2 = __shfl_down_sync (FULL_MASK, i, off);
    if (i2 >= 0 && (i < 0 || s2 > s || (s2 == s && i2 < i))) {
      s = s2;
      i = i2;
    }
  }
  *size = s;
  *index = i;
}

/* Block-wide bccl_warp_largest; every thread receives the result. */
static __device__ void
bccl_block_largest (int *size, int *index)
{
  __shared__ int warp_size[CV_ROAD_WARP], warp_index[CV_ROAD_WARP];
  int lane = threadIdx.x % CV_ROAD_WARP, warp = threadIdx.x / CV_ROAD_WARP;
  int n_warps = blockDim.x / CV_ROAD_WARP;

  bccl_warp_largest (size, index);
  __syncthreads ();
  if (lane == 0) {
    warp_size[warp] = *size;
    warp_index[warp] = *index;
  }
  __syncthreads ();
  if (warp == 0) {
    int s = lane < n_warps ? warp_size[lane] : 0;
    int i = lane < n_warps ? warp_index[lane] : -1;
    /* the shuffles order every lane's read before lane 0's write */
    bccl_warp_largest (&s, &i);
    if (lane == 0) {
      warp_size[0] = s;
      warp_index[0] = i;
    }
  }
  __syncthreads ();
  *size = warp_size[0];
  *index = warp_index[0];
  __syncthreads ();
}

/* ---- standalone labelling (tests) ------------------------------------------ */

__global__ void __launch_bounds__ (CV_ROAD_BLOCK_CCL_THREADS)
block_label_kernel (const uint8_t * mask, int cols, int n, int32_t * labels)
{
  extern __shared__ int cells[];
  MaskBytes fg = { mask };

  for (int i = threadIdx.x; i < n; i += blockDim.x)
    cells[i] = mask[i] ? i : -1;
  __syncthreads ();
  bccl_merge (cells, cols, n, fg);
  bccl_flatten (cells, n, fg);
  for (int i = threadIdx.x; i < n; i += blockDim.x)
    labels[i] = cells[i];
}

/* ---- seeds: largest smooth component --------------------------------------- */

__global__ void __launch_bounds__ (CV_ROAD_BLOCK_CCL_THREADS)
seeds_block_kernel (RoadDev c)
{
  extern __shared__ int cells[];
  int *label = cells;
  const int n = c.patches;
  MaskBytes fg = { c.candidates };
  int lane = threadIdx.x % CV_ROAD_WARP;
  int best_size = 0, best_root = -1, root, chunk, begin, end, count = 0;
  int pos, total;

  for (int i = threadIdx.x; i < n; i += blockDim.x)
    cells[i] = c.candidates[i] ? i : -1;
  __syncthreads ();
  bccl_merge (cells, c.cols, n, fg);
  bccl_flatten (cells, n, fg);

  /* sizes at the roots, as -(size + 1): a root starts at -2 (itself), its
   * other cells (still holding the root's index) subtract themselves (a
   * thread touches only its own cells until the barrier) */
  for (int i = threadIdx.x; i < n; i += blockDim.x)
    if (label[i] == i)
      label[i] = -2;
  __syncthreads ();
  for (int base = 0; base < n; base += blockDim.x) {
    int i = base + threadIdx.x;
    /* a root's cell is being counted down meanwhile: atomic read */
    int r = i < n ? bccl_load (cells, i) : -1;
    unsigned active = __ballot_sync (FULL_MASK, r >= 0);
    if (r >= 0) {
      /* lanes of one row usually share a root: one atomic per root */
      unsigned peers = __match_any_sync (active, r);
      if (lane == __ffs (peers) - 1)
        atomicSub (cells + r, (int) __popc (peers));
    }
  }
  __syncthreads ();

  /* the largest component (ties: smallest root, as the CPU reference) */
  for (int i = threadIdx.x; i < n; i += blockDim.x) {
    int v = label[i];
    if (v <= -2 && -v - 1 > best_size) {
      best_size = -v - 1;
      best_root = i;
    }
  }
  bccl_block_largest (&best_size, &best_root);
  root = best_root;

  for (int i = threadIdx.x; i < n; i += blockDim.x) {
    bool seed = root >= 0 && (i == root || label[i] == root);
    c.classes[i] = seed ? CV_ROAD_PATCH_SEED : CV_ROAD_PATCH_NOT_ROAD;
  }

  /* the seeds in row-major order: contiguous chunks, block-wide scan */
  chunk = cv_div_up (n, blockDim.x);
  begin = min (n, (int) threadIdx.x * chunk);
  end = min (begin + chunk, n);
  for (int i = begin; i < end; i++)
    count += root >= 0 && (i == root || label[i] == root);
  pos = cv_road_block_exclusive_scan (count, &total);
  for (int i = begin; i < end; i++)
    if (root >= 0 && (i == root || label[i] == root))
      c.train_idx[pos++] = i;
  if (threadIdx.x == 0) {
    c.counters->seed_root = root;
    c.counters->n_seeds = total;
    c.counters->n_training = total + c.lib->carry_count;
  }
}

/* ---- classification: passable patches connected to the seeds -------------- */

__global__ void __launch_bounds__ (CV_ROAD_BLOCK_CCL_THREADS)
region_block_kernel (RoadDev c)
{
  extern __shared__ int cells[];
  __shared__ int road_root;
  const int n = c.patches;
  /* labels2: p for passable patches (seeds included), -1 otherwise */
  MaskLabels fg = { c.labels2 };
  int n_road = 0;

  for (int i = threadIdx.x; i < n; i += blockDim.x)
    cells[i] = fg (i) ? i : -1;
  __syncthreads ();
  bccl_merge (cells, c.cols, n, fg);
  if (threadIdx.x == 0) {
    int seed = c.counters->seed_root;
    road_root = seed >= 0 ? bccl_find (cells, seed) : -2;
  }
  __syncthreads ();

  for (int base = 0; base < n; base += blockDim.x) {
    int i = base + threadIdx.x;
    bool road = false;
    if (i < n) {
      if (c.classes[i] == CV_ROAD_PATCH_SEED) {
        road = true;
      } else {
        road = fg (i) && bccl_find (cells, i) == road_root;
        c.classes[i] = road ? CV_ROAD_PATCH_ROAD : CV_ROAD_PATCH_NOT_ROAD;
      }
    }
    n_road += __syncthreads_count (road);
  }
  if (threadIdx.x == 0)
    c.summary->n_road = n_road;
}

/* ---- launchers ----------------------------------------------------------------- */

/* Raises the dynamic shared-memory limit of @kernel to what the device allows
 * beside its static shared memory; returns that limit (0 on failure). */
static size_t
allow_max_smem (const void *kernel, int optin)
{
  cudaFuncAttributes fa;
  size_t allowed;

  if (cudaFuncGetAttributes (&fa, kernel) != cudaSuccess)
    return 0;
  if ((size_t) optin <= fa.sharedSizeBytes)
    return 0;
  allowed = (size_t) optin - fa.sharedSizeBytes;
  if (cudaFuncSetAttribute (kernel,
          cudaFuncAttributeMaxDynamicSharedMemorySize, (int) allowed)
      != cudaSuccess)
    return 0;
  return allowed;
}

/* Function attributes belong to the current context, so every detector
 * calls this for its own (once per layout). */
extern "C" int
cv_road_cuda_block_ccl_capacity (void)
{
  int device, optin;
  size_t least, a;

  if (cudaGetDevice (&device) != cudaSuccess
      || cudaDeviceGetAttribute (&optin,
          cudaDevAttrMaxSharedMemoryPerBlockOptin, device) != cudaSuccess) {
    cudaGetLastError ();        /* leave no error for the next launch check */
    return 0;
  }
  least = allow_max_smem ((const void *) seeds_block_kernel, optin);
  a = allow_max_smem ((const void *) region_block_kernel, optin);
  least = a < least ? a : least;
  a = allow_max_smem ((const void *) block_label_kernel, optin);
  least = a < least ? a : least;
  cudaGetLastError ();
  least = least > BLOCK_CCL_STATIC_RESERVE ? least -
      BLOCK_CCL_STATIC_RESERVE : 0;
  return cv_road_block_ccl_cells (least);
}

extern "C" CvStatus
cv_road_cuda_label_components_block (const uint8_t * mask, int cols,
    int rows, int32_t * labels, CvStream stream, CvError * err)
{
  int n = cols * rows, capacity = cv_road_cuda_block_ccl_capacity ();

  if (cols <= 0 || rows <= 0)
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
        "road block CCL: grid %dx%d is empty", cols, rows);
  if (n > capacity)
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
        "road block CCL: grid %dx%d (%d cells) exceeds one block's shared "
        "memory (%d cells)", cols, rows, n, capacity);
  block_label_kernel <<< 1, CV_ROAD_BLOCK_CCL_THREADS,
      sizeof (int32_t) * (size_t) n, stream >>> (mask, cols, n, labels);
  CV_CUDA_CHECK_LAUNCH (err, "block_label_kernel");
  return CV_OK;
}

CvStatus
cv_road_launch_training_fast (const RoadDev & dev, CvStream stream,
    CvError * err)
{
  if (!dev.block_ccl)
    return cv_road_launch_training (dev, stream, err);
  seeds_block_kernel <<< 1, CV_ROAD_BLOCK_CCL_THREADS,
      sizeof (int32_t) * (size_t) dev.patches, stream >>> (dev);
  CV_CUDA_CHECK_LAUNCH (err, "seeds_block_kernel");
  return CV_OK;
}

CvStatus
cv_road_launch_region (const RoadDev & dev, CvStream stream, CvError * err)
{
  if (!dev.block_ccl)
    return cv_road_launch_region_global (dev, stream, err);
  region_block_kernel <<< 1, CV_ROAD_BLOCK_CCL_THREADS,
      sizeof (int32_t) * (size_t) dev.patches, stream >>> (dev);
  CV_CUDA_CHECK_LAUNCH (err, "region_block_kernel");
  return CV_OK;
}
