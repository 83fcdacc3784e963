/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Road detection, CUDA: connected components on the patch grid and the
 * training set (largest smooth component + carried samples).
 *
 * Labelling is a lock-free union-find (the scheme of Playne and Hawick,
 * "A new algorithm for parallel connected-component labelling on GPUs",
 * 2018, written here from its description):
 *   init     a foreground cell holds its own index, background -1
 *            (fused into the kernels that produce the masks);
 *   merge    every foreground cell unites itself with its left and upper
 *            foreground neighbours: find both roots, hook the larger root
 *            under the smaller with atomicMin, retry from the displaced
 *            parent when another thread hooked it first;
 *   compress every cell replaces its parent by its root.
 * Parents only ever decrease, so each component's root is its smallest
 * index (the CPU reference's labels), and the result is exact after these
 * three fixed launches: no convergence loop, nothing polled by the host (the
 * thesis' Listing 8 relaunches a propagation kernel until a flag read on the
 * host stays clear).  Grids are small (12 288 patches at 640x480, n = 5), so
 * chains stay short. */
#include "cv_road_cuda.cuh"

#define CCL_BLOCK_X 32
#define CCL_BLOCK_Y 8
#define LINEAR_THREADS 256

static __device__ void
ccl_unite (int32_t * labels, int a, int b)
{
  for (;;) {
    a = cv_road_ccl_find (labels, a);
    b = cv_road_ccl_find (labels, b);
    if (a == b)
      return;
    if (a < b) {
      int t = a;
      a = b;
      b = t;
    }
    /* hook root a under b; if a stopped being a root meanwhile, its new
     * parent (old) must still be joined with b */
    int old = atomicMin (labels + a, b);
    if (old == a)
      return;
    a = old;
  }
}

__global__ void
ccl_init_kernel (const uint8_t * mask, int32_t * labels, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    labels[i] = mask[i] ? i : -1;
}

__global__ void
ccl_merge_kernel (int32_t * labels, int cols, int rows)
{
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  int i = y * cols + x;

  if (x >= cols || y >= rows || labels[i] < 0)
    return;
  /* background cells stay -1 and foreground cells >= 0 throughout */
  if (x > 0 && __ldcg (labels + i - 1) >= 0)
    ccl_unite (labels, i, i - 1);
  if (y > 0 && __ldcg (labels + i - cols) >= 0)
    ccl_unite (labels, i, i - cols);
}

__global__ void
ccl_compress_kernel (int32_t * labels, int n, uint32_t * sizes)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int root;

  if (i >= n || labels[i] < 0)
    return;
  root = cv_road_ccl_find (labels, i);
  labels[i] = root;
  if (sizes != NULL)
    atomicAdd (sizes + root, 1u);
}

CvStatus
cv_road_ccl_merge (int32_t * labels, int cols, int rows, CvStream stream,
    CvError * err)
{
  dim3 block (CCL_BLOCK_X, CCL_BLOCK_Y);

  ccl_merge_kernel <<< cv_grid_2d (cols, rows, block), block, 0, stream >>>
      (labels, cols, rows);
  CV_CUDA_CHECK_LAUNCH (err, "ccl_merge_kernel");
  return CV_OK;
}

CvStatus
cv_road_ccl_compress (int32_t * labels, int n, uint32_t * sizes,
    CvStream stream, CvError * err)
{
  ccl_compress_kernel <<< cv_div_up (n, LINEAR_THREADS), LINEAR_THREADS, 0,
      stream >>> (labels, n, sizes);
  CV_CUDA_CHECK_LAUNCH (err, "ccl_compress_kernel");
  return CV_OK;
}

extern "C" CvStatus
cv_road_cuda_label_components (const uint8_t * mask, int cols, int rows,
    int32_t * labels, CvStream stream, CvError * err)
{
  int n = cols * rows;

  if (cols <= 0 || rows <= 0)
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
        "road CCL: grid %dx%d is empty", cols, rows);
  ccl_init_kernel <<< cv_div_up (n, LINEAR_THREADS), LINEAR_THREADS, 0,
      stream >>> (mask, labels, n);
  CV_CUDA_CHECK_LAUNCH (err, "ccl_init_kernel");
  if (cv_road_ccl_merge (labels, cols, rows, stream, err) != CV_OK)
    return CV_ERROR_CUDA;
  return cv_road_ccl_compress (labels, n, NULL, stream, err);
}

/* ---- training set ---------------------------------------------------------- */

/* One block: finds the largest smooth component (ties: smallest root, as
 * the CPU reference), marks its patches as seeds in the class grid and lists
 * them in row-major order (stream compaction by a block-wide scan over
 * contiguous chunks of the grid). */
__global__ void __launch_bounds__ (CV_ROAD_BLOCK_THREADS)
seed_compact_kernel (RoadDev c)
{
  int chunk = cv_div_up (c.patches, blockDim.x);
  int begin = threadIdx.x * chunk;
  int end = min (begin + chunk, c.patches);
  long long best_size = 0;
  int best_root = -1, root, count = 0, total, pos;

  /* roots (labels[i] == i) carry their component's size */
  for (int i = begin; i < end; i++) {
    if (c.labels[i] == i && (long long) c.comp_size[i] > best_size) {
      best_size = c.comp_size[i];
      best_root = i;
    }
  }
  root = cv_road_block_arg_best (best_size, best_root, true);

  for (int i = begin; i < end; i++)
    count += root >= 0 && c.labels[i] == root;
  pos = cv_road_block_exclusive_scan (count, &total);
  for (int i = begin; i < end; i++) {
    bool seed = root >= 0 && c.labels[i] == root;
    c.classes[i] = seed ? CV_ROAD_PATCH_SEED : CV_ROAD_PATCH_NOT_ROAD;
    if (seed)
      c.train_idx[pos++] = i;
  }
  if (threadIdx.x == 0) {
    c.counters->seed_root = root;
    c.counters->n_seeds = total;
    c.counters->n_training = total + c.lib->carry_count;
  }
}

/* Training features: the seeds' histograms, then the carried samples, one
 * 16-byte word per thread. */
__global__ void
training_gather_kernel (RoadDev c)
{
  int words = c.dims_pad / CV_ROAD_ROW_ALIGN;
  long long t = (long long) blockIdx.x * blockDim.x + threadIdx.x;
  int s = (int) (t / words), w = (int) (t - (long long) s * words);
  int n_seeds = c.counters->n_seeds;
  const uint8_t *src;

  if (s >= c.counters->n_training)
    return;
  src = s < n_seeds ?
      c.features + (size_t) c.train_idx[s] * c.dims_pad :
      c.carry + (size_t) (s - n_seeds) * c.dims_pad;
  ((uint4 *) (c.train_feat + (size_t) s * c.dims_pad))[w] =
      ((const uint4 *) src)[w];
}

CvStatus
cv_road_launch_training (const RoadDev & dev, CvStream stream, CvError * err)
{
  long long words = (long long) dev.max_training *
      (dev.dims_pad / CV_ROAD_ROW_ALIGN);
  CvStatus status;

  status = cv_road_ccl_merge (dev.labels, dev.cols, dev.rows, stream, err);
  if (status == CV_OK)
    status = cv_road_ccl_compress (dev.labels, dev.patches, dev.comp_size,
        stream, err);
  if (status != CV_OK)
    return status;
  seed_compact_kernel <<< 1, CV_ROAD_BLOCK_THREADS, 0, stream >>> (dev);
  CV_CUDA_CHECK_LAUNCH (err, "seed_compact_kernel");
  training_gather_kernel <<< (int) ((words + LINEAR_THREADS - 1) /
          LINEAR_THREADS), LINEAR_THREADS, 0, stream >>> (dev);
  CV_CUDA_CHECK_LAUNCH (err, "training_gather_kernel");
  return CV_OK;
}
