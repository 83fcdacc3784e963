/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Road detection, CUDA (FAST variants): model library and EM in one block,
 * FP32 or FP64 (template parameter T).
 *
 * The per-frame EM runs on one training set of a few thousand samples
 * (~3 300 at 640x480), mostly with one component, for two or three
 * iterations whose count is decided on the device: a single block keeps it
 * in one launch with no host round trip and no grid-wide barrier.  What
 * made the baseline's block slow was its memory access, not its size: the
 * E-step had every thread read its own sample byte by byte (32 cache lines
 * per warp load) and the M-step walked ~400 samples per thread through
 * dependent loads.  Here every pass reads the samples as words:
 *   E-step   a thread per sample, its row as 16-byte words, EM_GROUP
 *            components at a time (FP64: half) with their {mean, 1/var}
 *            staged in shared memory (broadcast reads), the count converted
 *            exactly once per dimension and one accumulator per component;
 *   M-step   a thread per (4-dimension word, slice of samples), a warp
 *            reading whole rows (coalesced), EM_BATCH samples' loads in
 *            flight per thread, EM_GROUP components' sums in registers,
 *            then a fixed-order reduction over the slices (deterministic);
 *   centres  the same two layouts on exact integers (as the CPU).
 * FP64 is left where it is cheap and matters: the per-iteration solve
 * (means, variances, weights, log-determinants: O(k dims)), the
 * log-likelihood sum (its change is the stopping test) and the model update
 * equations (integer sums, eq. 4-6, as the CPU reference).
 *
 * One component (k = 1, the thesis' k0 = k = 1: nearly every frame) takes
 * a shortcut with the same results: every responsibility is exactly 1
 * (exp(0), log(1) = 0), so the first M-step gives the sample mean and
 * variance P1 - from the exact integer sums the centre search computes
 * anyway - and the second M-step reproduces them bit for bit, so the third
 * E-step repeats the second's log-likelihood and stops.  The outcome is
 * fixed by the first two E-steps: parameters P1, iterations 1 when
 * |LL1 - LL0| <= tolerance * n (or max_iterations is 1), else 2.  And with
 * one component the log-likelihood depends on the samples only through
 * those sums:
 *   LL = n (log w - 1/2 sum_d log var_d)
 *        - 1/2 sum_d (sum_i x_id^2 - 2 mu_d sum_i x_id + n mu_d^2) / var_d,
 * evaluated in FP64 (exactly in integers for the centre's parameters).  So
 * k = 1 takes 2 passes over the samples (sums, centre) instead of 7. */
#include "cv_road_distance.cuh"
#include "cv_road_library.cuh"

#include <climits>

#define EM_THREADS CV_ROAD_BLOCK_THREADS
/* Components per sample pass: independent accumulators per thread (FP64
 * takes half as many: its M-step registers would spill). */
#define EM_GROUP 4
#define EM_GROUP_OF(T) (sizeof (T) == sizeof (double) ? EM_GROUP / 2 : EM_GROUP)
/* Samples whose loads a thread of the M-step has in flight together. */
#define EM_BATCH 4
#define EM_MAX_DIMS (CV_ROAD_MAX_BINS * CV_ROAD_MAX_BINS)
#define EM_WORD_BYTES 4
/* Largest n for which n * 255 fits a signed 32-bit integer. */
#define EM_NARROW_MAX_N (INT_MAX / 255)
/* Shared scratch reused by the passes: EM_GROUP components' {mean, 1/var}
 * pairs (FP64: 16 KiB at 256 dims) or the M-step partials of the block
 * (FP64: 4 x 8 bytes a thread). */
#define EM_SCRATCH_WORDS ((EM_GROUP * EM_MAX_DIMS * 16) / (int) sizeof (uint4))

struct FastEmArgs
{
  const uint8_t *samples;       /* rows of counts */
  size_t stride;                /* bytes between rows */
  const int32_t *idx;           /* row of sample i, NULL: row i */
  int n, dims, k, max_iterations;
  double tolerance, variance_floor;
  bool aligned;                 /* 16-byte aligned rows, stride a multiple of
                                 * 16: word loads */
  double *mean, *var, *weight;  /* the solve: k * dims, k * dims, k */
  void *tab;                    /* k * dims {mean, 1/var} pairs of T */
  void *resp;                   /* k * n of T */
  long long *min_d2;            /* n */
};

static __device__ __forceinline__ const uint8_t *
em_row (const FastEmArgs & a, int i)
{
  return a.samples + (size_t) (a.idx != NULL ? a.idx[i] : i) * a.stride;
}

/* 16 counts from dimension d0 (bytes past dims: garbage on aligned rows,
 * zero otherwise; callers ignore them).  Samples are read-only for the
 * kernel (written by an earlier one): the non-coherent path is safe. */
static __device__ __forceinline__ uint4
em_load16 (const FastEmArgs & a, const uint8_t * row, int d0)
{
  uint32_t w[4] = { 0, 0, 0, 0 };

  if (a.aligned)
    return __ldg ((const uint4 *) (row + d0));
#pragma unroll
  for (int b = 0; b < CV_ROAD_ROW_ALIGN; b++)
    if (d0 + b < a.dims)
      w[b >> 2] |= (uint32_t) row[d0 + b] << (8 * (b & 3));
  return make_uint4 (w[0], w[1], w[2], w[3]);
}

/* The 4 counts of word @wc (dimensions 4 wc .. 4 wc + 3). */
static __device__ __forceinline__ uint32_t
em_load32 (const FastEmArgs & a, const uint8_t * row, int wc)
{
  uint32_t w = 0;

  if (a.aligned)
    return __ldg ((const uint32_t *) row + wc);
#pragma unroll
  for (int b = 0; b < EM_WORD_BYTES; b++)
    if (EM_WORD_BYTES * wc + b < a.dims)
      w |= (uint32_t) row[EM_WORD_BYTES * wc + b] << (8 * b);
  return w;
}

static __device__ __forceinline__ uint32_t
em_byte (uint32_t word, int b)
{
  return (word >> (8 * b)) & 0xffu;
}

static __device__ __forceinline__ uint32_t
uint4_at (uint4 v, int i)
{
  return i == 0 ? v.x : i == 1 ? v.y : i == 2 ? v.z : v.w;
}

/* ---- centres (exact integers, as the CPU reference) ------------------------- */

/* sums[d] = sum over samples of x_d, sums_sq[d] of x_d^2.  Threads as (word
 * column, slice); @part holds EM_WORD_BYTES 64-bit words a thread. */
static __device__ void
em_integer_sums (const FastEmArgs & a, long long *sums, long long *sums_sq,
    uint4 * part)
{
  const int wcols = cv_div_up (a.dims, EM_WORD_BYTES);
  const int slices = blockDim.x / wcols;
  const int wc = threadIdx.x % wcols, slice = threadIdx.x / wcols;
  unsigned long long *part_sq = (unsigned long long *) part;
  uint32_t acc[EM_WORD_BYTES] = { 0, 0, 0, 0 };
  unsigned long long acc_sq[EM_WORD_BYTES] = { 0, 0, 0, 0 };

  if (slice < slices) {
    for (int i = slice; i < a.n; i += EM_BATCH * slices) {
      uint32_t w[EM_BATCH];
#pragma unroll
      for (int u = 0; u < EM_BATCH; u++) {
        int ii = i + u * slices;
        w[u] = ii < a.n ? em_load32 (a, em_row (a, ii), wc) : 0u;
      }
#pragma unroll
      for (int u = 0; u < EM_BATCH; u++) {
#pragma unroll
        for (int b = 0; b < EM_WORD_BYTES; b++) {
          uint32_t x = em_byte (w[u], b);
          acc[b] += x;
          acc_sq[b] += x * x;
        }
      }
    }
  }
  __syncthreads ();
  part[threadIdx.x] = make_uint4 (acc[0], acc[1], acc[2], acc[3]);
  __syncthreads ();
  for (int d = threadIdx.x; d < a.dims; d += blockDim.x) {
    long long total = 0;
    for (int s = 0; s < slices; s++)
      total += uint4_at (part[s * wcols + d / EM_WORD_BYTES],
          d % EM_WORD_BYTES);
    sums[d] = total;
  }
  __syncthreads ();
#pragma unroll
  for (int b = 0; b < EM_WORD_BYTES; b++)
    part_sq[threadIdx.x * EM_WORD_BYTES + b] = acc_sq[b];
  __syncthreads ();
  for (int d = threadIdx.x; d < a.dims; d += blockDim.x) {
    long long total = 0;
    for (int s = 0; s < slices; s++)
      total += (long long) part_sq[(s * wcols + d / EM_WORD_BYTES) *
          EM_WORD_BYTES + d % EM_WORD_BYTES];
    sums_sq[d] = total;
  }
  __syncthreads ();
}

/* centre 0 = the sample nearest the mean (compared as n x - sum), then the
 * samples farthest from the chosen centres; ties to the lowest index. */
static __device__ void
em_pick_centres (const FastEmArgs & a, int *centres, uint4 * part,
    long long *sums, long long *sums_sq)
{
  __shared__ int crow[EM_MAX_DIMS];
  long long key = LLONG_MAX;
  int best_i = -1, centre;

  em_integer_sums (a, sums, sums_sq, part);
  for (int i = threadIdx.x; i < a.n; i += blockDim.x) {
    const uint8_t *row = em_row (a, i);
    long long d2 = 0;
    for (int d0 = 0; d0 < a.dims; d0 += CV_ROAD_ROW_ALIGN) {
      uint4 v = em_load16 (a, row, d0);
      uint32_t w[4] = { v.x, v.y, v.z, v.w };
#pragma unroll
      for (int b = 0; b < CV_ROAD_ROW_ALIGN; b++) {
        if (d0 + b < a.dims) {
          if (a.n <= EM_NARROW_MAX_N) {
            /* |n x - sum| <= 255 n fits 32 bits: one widening
             * multiply-add per dimension */
            int diff = a.n * (int) em_byte (w[b >> 2], b & 3) -
                (int) sums[d0 + b];
            d2 += (long long) diff * diff;
          } else {
            long long diff = (long long) a.n * em_byte (w[b >> 2], b & 3) -
                sums[d0 + b];
            d2 += diff * diff;
          }
        }
      }
    }
    if (d2 < key) {             /* increasing i per thread: first minimum */
      key = d2;
      best_i = i;
    }
  }
  centre = cv_road_block_arg_best (key, best_i, false);
  if (threadIdx.x == 0)
    centres[0] = centre;

  for (int i = threadIdx.x; i < a.n; i += blockDim.x)
    a.min_d2[i] = LLONG_MAX;
  for (int c = 1; c < a.k; c++) {
    const uint8_t *prev = em_row (a, centre);
    for (int d = threadIdx.x; d < a.dims; d += blockDim.x)
      crow[d] = prev[d];
    __syncthreads ();
    key = -1;
    best_i = -1;
    for (int i = threadIdx.x; i < a.n; i += blockDim.x) {
      const uint8_t *row = em_row (a, i);
      int d2 = 0;               /* <= 256 * 255^2: fits */
      long long m;
      for (int d0 = 0; d0 < a.dims; d0 += CV_ROAD_ROW_ALIGN) {
        uint4 v = em_load16 (a, row, d0);
        uint32_t w[4] = { v.x, v.y, v.z, v.w };
#pragma unroll
        for (int b = 0; b < CV_ROAD_ROW_ALIGN; b++) {
          if (d0 + b < a.dims) {
            int diff = (int) em_byte (w[b >> 2], b & 3) - crow[d0 + b];
            d2 += diff * diff;
          }
        }
      }
      m = a.min_d2[i];
      if (d2 < m)
        m = d2;
      a.min_d2[i] = m;
      if (m > key) {
        key = m;
        best_i = i;
      }
    }
    centre = cv_road_block_arg_best (key, best_i, true);
    if (threadIdx.x == 0)
      centres[c] = centre;
  }
  __syncthreads ();
}

/* ---- iterations ------------------------------------------------------------------ */

/* E-step tables of every component: {mean, 1/var} as T, and (FP64)
 * lconst[c] = log w_c - 1/2 sum_d log var_cd (a warp per component, fixed
 * reduction order). */
template <typename T>
static __device__ void
em_prepare (const FastEmArgs & a, double *lconst)
{
  typedef typename RoadReal<T>::Pair Pair;
  Pair *tab = (Pair *) a.tab;
  int lane = threadIdx.x % CV_ROAD_WARP, warp = threadIdx.x / CV_ROAD_WARP;
  int n_warps = blockDim.x / CV_ROAD_WARP;

  for (int t = threadIdx.x; t < a.k * a.dims; t += blockDim.x) {
    Pair p;
    p.x = (T) a.mean[t];
    p.y = (T) (1.0 / a.var[t]);
    tab[t] = p;
  }
  for (int c = warp; c < a.k; c += n_warps) {
    double s = 0.0;
    for (int d = lane; d < a.dims; d += CV_ROAD_WARP)
      s += log (a.var[c * a.dims + d]);
    for (int off = CV_ROAD_WARP / 2; off > 0; off >>= 1)
      s += __shfl_xor_sync (CV_ROAD_FULL_MASK, s, off);
    if (lane == 0)
      lconst[c] = log (a.weight[c]) - 0.5 * s;
  }
  __syncthreads ();
}

/* Responsibilities into a.resp (component-major); returns the block's log
 * likelihood (FP64 sum). */
template <typename T>
static __device__ double
em_expectation (const FastEmArgs & a, const double *lconst,
    typename RoadReal<T>::Pair * staged)
{
  typedef RoadReal<T> R;
  typedef typename R::Pair Pair;
  const int G = EM_GROUP_OF (T);
  const Pair *tab = (const Pair *) a.tab;
  T *resp = (T *) a.resp;
  double ll = 0.0;

  for (int cg = 0; cg < a.k; cg += G) {
    int gk = min (G, a.k - cg);
    __syncthreads ();
    for (int t = threadIdx.x; t < gk * a.dims; t += blockDim.x)
      staged[t] = tab[cg * a.dims + t];
    __syncthreads ();
    for (int i = threadIdx.x; i < a.n; i += blockDim.x) {
      const uint8_t *row = em_row (a, i);
      T acc[EM_GROUP_OF (T)];
#pragma unroll
      for (int q = 0; q < G; q++)
        acc[q] = 0;
      for (int d0 = 0; d0 < a.dims; d0 += CV_ROAD_ROW_ALIGN) {
        uint4 v = em_load16 (a, row, d0);
        uint32_t w[4] = { v.x, v.y, v.z, v.w };
#pragma unroll
        for (int b = 0; b < CV_ROAD_ROW_ALIGN; b++) {
          if (d0 + b < a.dims) {
            T xv = R::count (w[b >> 2], b & 3);
#pragma unroll
            for (int q = 0; q < G; q++)
              if (q < gk)
                acc[q] = R::step (acc[q], xv, staged[q * a.dims + d0 + b]);
          }
        }
      }
#pragma unroll
      for (int q = 0; q < G; q++)
        if (q < gk)
          resp[(size_t) (cg + q) * a.n + i] = (T) lconst[cg + q] -
              (T) 0.5 * acc[q];
    }
  }

  /* log-sum-exp of each sample's own entries (no barrier needed) */
  for (int i = threadIdx.x; i < a.n; i += blockDim.x) {
    T lse;
    if (a.k == 1) {
      /* exp(0) = 1 and log(1) = 0 exactly: the general formula's values */
      lse = resp[i];
      resp[i] = 1;
    } else {
      T top = -INFINITY, s = 0;
      for (int c = 0; c < a.k; c++)
        top = fmax (top, resp[(size_t) c * a.n + i]);
      for (int c = 0; c < a.k; c++)
        s += R::ex (resp[(size_t) c * a.n + i] - top);
      lse = top + R::lg (s);
      for (int c = 0; c < a.k; c++)
        resp[(size_t) c * a.n + i] = R::ex (resp[(size_t) c * a.n + i] - lse);
    }
    ll += (double) lse;
  }
  return cv_road_block_sum (ll);
}

/* The M-step's solve of one dimension from the sums of r x, r x^2 and the
 * mass, in FP64 operation by operation (no contraction: the k = 1 shortcut
 * and the general M-step give the same bits, as the CPU's x86 code). */
static __device__ __forceinline__ void
em_solve (double sx, double sxx, double mass, double variance_floor,
    double *mean, double *var)
{
  double mu = CV_ROAD_DDIV (sx, mass);
  double v = CV_ROAD_DSUB (CV_ROAD_DDIV (sxx, mass), CV_ROAD_DMUL (mu, mu));

  *mean = mu;
  *var = v > variance_floor ? v : variance_floor;
}

/* New means, variances and weights (FP64) from the responsibilities. */
template <typename T>
static __device__ void
em_maximization (const FastEmArgs & a, T * part, T * part_mass,
    double *sx_total)
{
  typedef RoadReal<T> R;
  const T *resp = (const T *) a.resp;
  const int wcols = cv_div_up (a.dims, EM_WORD_BYTES);
  const int slices = blockDim.x / wcols;
  const int wc = threadIdx.x % wcols, slice = threadIdx.x / wcols;

  const int G = EM_GROUP_OF (T);

  for (int cg = 0; cg < a.k; cg += G) {
    const int gk = min (G, a.k - cg);
    T ax[EM_GROUP_OF (T)][EM_WORD_BYTES], axx[EM_GROUP_OF (T)][EM_WORD_BYTES];
    T am[EM_GROUP_OF (T)];

#pragma unroll
    for (int q = 0; q < G; q++) {
      am[q] = 0;
#pragma unroll
      for (int b = 0; b < EM_WORD_BYTES; b++)
        ax[q][b] = axx[q][b] = 0;
    }
    if (slice < slices) {
      for (int i = slice; i < a.n; i += EM_BATCH * slices) {
        uint32_t w[EM_BATCH];
        T r[EM_BATCH][EM_GROUP_OF (T)];
#pragma unroll
        for (int u = 0; u < EM_BATCH; u++) {
          int ii = i + u * slices;
          bool ok = ii < a.n;
          w[u] = ok ? em_load32 (a, em_row (a, ii), wc) : 0u;
#pragma unroll
          for (int q = 0; q < G; q++)
            r[u][q] = ok && q < gk ? resp[(size_t) (cg + q) * a.n + ii] : 0;
        }
#pragma unroll
        for (int u = 0; u < EM_BATCH; u++) {
#pragma unroll
          for (int q = 0; q < G; q++) {
            am[q] += r[u][q];
#pragma unroll
            for (int b = 0; b < EM_WORD_BYTES; b++) {
              T xv = R::count (w[u], b);
              T rx = r[u][q] * xv;
              ax[q][b] += rx;
              axx[q][b] = R::mad (rx, xv, axx[q][b]);
            }
          }
        }
      }
    }

#pragma unroll
    for (int q = 0; q < G; q++) {
      double mass = 0.0;
      if (q >= gk)
        break;                  /* uniform */
      /* sums of r x over the slices (fixed order), and the mass */
      __syncthreads ();
#pragma unroll
      for (int b = 0; b < EM_WORD_BYTES; b++)
        part[threadIdx.x * EM_WORD_BYTES + b] = ax[q][b];
      part_mass[threadIdx.x] = am[q];
      __syncthreads ();
      for (int s = 0; s < slices; s++)
        mass += (double) part_mass[s * wcols];
      for (int d = threadIdx.x; d < a.dims; d += blockDim.x) {
        double total = 0.0;
        for (int s = 0; s < slices; s++)
          total += (double) part[(s * wcols + d / EM_WORD_BYTES) *
              EM_WORD_BYTES + d % EM_WORD_BYTES];
        sx_total[d] = total;
      }
      /* sums of r x^2, then the solve */
      __syncthreads ();
#pragma unroll
      for (int b = 0; b < EM_WORD_BYTES; b++)
        part[threadIdx.x * EM_WORD_BYTES + b] = axx[q][b];
      __syncthreads ();
      for (int d = threadIdx.x; d < a.dims; d += blockDim.x) {
        double sxx = 0.0;
        for (int s = 0; s < slices; s++)
          sxx += (double) part[(s * wcols + d / EM_WORD_BYTES) *
              EM_WORD_BYTES + d % EM_WORD_BYTES];
        if (mass >= CV_ROAD_EM_MIN_MASS)
          em_solve (sx_total[d], sxx, mass, a.variance_floor,
              &a.mean[(cg + q) * a.dims + d], &a.var[(cg + q) * a.dims + d]);
      }
      if (threadIdx.x == 0)
        a.weight[cg + q] = mass >= CV_ROAD_EM_MIN_MASS ?
            CV_ROAD_DDIV (mass, (double) a.n) : CV_ROAD_EM_MIN_MASS / a.n;
    }
  }
  __syncthreads ();
}

/* The algorithm of cv_road_stages.h; every thread of the block calls it. */
template <typename T>
static __device__ __forceinline__ void
em_block_fast (const FastEmArgs & a, int *iterations, double *log_likelihood)
{
  __shared__ uint4 scratch[EM_SCRATCH_WORDS];
  __shared__ T part_mass[EM_THREADS];
  __shared__ double sx_total[EM_MAX_DIMS];
  __shared__ long long sums[EM_MAX_DIMS], sums_sq[EM_MAX_DIMS];
  __shared__ int centres[CV_ROAD_MAX_MODELS];
  __shared__ double lconst[CV_ROAD_MAX_MODELS];
  const double var0 = a.variance_floor > 1.0 ? a.variance_floor : 1.0;
  typedef typename RoadReal<T>::Pair Pair;
  double ll = 0.0, ll_prev = 0.0;
  int done = 0;

  em_pick_centres (a, centres, scratch, sums, sums_sq);
  for (int t = threadIdx.x; t < a.k * a.dims; t += blockDim.x) {
    int c = t / a.dims, d = t - c * a.dims;
    a.mean[t] = em_row (a, centres[c])[d];
    a.var[t] = var0;
  }
  for (int c = threadIdx.x; c < a.k; c += blockDim.x)
    a.weight[c] = 1.0 / a.k;
  __syncthreads ();

  if (a.k == 1) {
    /* the shortcut (top of the file); mean/var hold the centre's parameters
     * (iteration 0) */
    const double n = (double) a.n;
    double q0 = 0.0, q1 = 0.0, log_det1 = 0.0, ll0, ll1;
    double mu = 0.0, var = var0;

    for (int d = threadIdx.x; d < a.dims; d += blockDim.x) {
      long long c = (long long) a.mean[d];
      /* sum_i (x_id - c)^2, exact in integers */
      long long dev0 = sums_sq[d] - 2 * c * sums[d] + (long long) a.n * c * c;
      q0 += (double) dev0 / var0;
      /* P1: the M-step's solve on sums of r x with every r = 1;
       * sum_i (x_id - mu)^2 = sum x^2 - mu sum x */
      em_solve ((double) sums[d], (double) sums_sq[d], n, a.variance_floor,
          &mu, &var);
      q1 += ((double) sums_sq[d] - mu * (double) sums[d]) / var;
      log_det1 += log (var);
    }
    /* the log-determinant of iteration 0 is dims * log(var0) */
    ll0 = -0.5 * n * (double) a.dims * log (var0) -
        0.5 * cv_road_block_sum (q0);
    ll1 = -0.5 * n * cv_road_block_sum (log_det1) -
        0.5 * cv_road_block_sum (q1);
    ll = ll0;
    if (a.max_iterations > 0) {
      for (int d = threadIdx.x; d < a.dims; d += blockDim.x) {
        em_solve ((double) sums[d], (double) sums_sq[d], n,
            a.variance_floor, &a.mean[d], &a.var[d]);
      }
      if (threadIdx.x == 0)
        a.weight[0] = CV_ROAD_DDIV (n, n);
      ll = ll1;
      done = a.max_iterations == 1
          || fabs (ll1 - ll0) <= a.tolerance * a.n ? 1 : 2;
    }
    if (threadIdx.x == 0) {
      *iterations = done;
      *log_likelihood = ll / a.n;
    }
    __syncthreads ();
    return;
  }

  for (int it = 0;; it++) {
    em_prepare<T> (a, lconst);
    ll = em_expectation<T> (a, lconst, (Pair *) scratch);
    if (it > 0 && fabs (ll - ll_prev) <= a.tolerance * a.n)
      break;
    ll_prev = ll;
    if (it == a.max_iterations)
      break;
    em_maximization<T> (a, (T *) scratch, part_mass, sx_total);
    done++;
  }
  if (threadIdx.x == 0) {
    *iterations = done;
    *log_likelihood = ll / a.n;
  }
  __syncthreads ();
}

template <typename T>
__global__ void __launch_bounds__ (EM_THREADS, 1)
em_fast_kernel (FastEmArgs a, CvRoadEmStats * stats)
{
  __shared__ int iterations;
  __shared__ double ll;

  em_block_fast<T> (a, &iterations, &ll);
  if (threadIdx.x == 0) {
    stats->iterations = iterations;
    stats->log_likelihood = ll;
  }
}

extern "C" CvStatus
cv_road_cuda_em_fast (const uint8_t * samples, size_t stride, int n,
    int dims, int k, const CvRoadEmParams * params, int use_double,
    CvDeviceBuffer * workspace, double *means, double *variances,
    double *weights, CvRoadEmStats * stats, CvStream stream, CvError * err)
{
  FastEmArgs a;
  CvRoadEmWorkspace ws;
  uint8_t *base;
  CvStatus status;

  if (k < 1 || k > CV_ROAD_MAX_MODELS || n < k || dims < 1
      || dims > EM_MAX_DIMS)
    return cv_error_set (err, CV_ERROR_INVALID_ARGUMENT,
        "road EM: needs 1 <= k <= min(n, %d), 1 <= dims <= %d (k %d, n %d, "
        "dims %d)", CV_ROAD_MAX_MODELS, EM_MAX_DIMS, k, n, dims);
  /* each array on its own aligned offset (cv_road_stages.h) */
  cv_road_em_workspace_layout (n, dims, k, &ws);
  status = cv_device_buffer_ensure (workspace, ws.total, err);
  if (status != CV_OK)
    return status;
  base = (uint8_t *) workspace->ptr;
  a.samples = samples;
  a.stride = stride;
  a.idx = NULL;
  a.n = n;
  a.dims = dims;
  a.k = k;
  a.max_iterations = params->max_iterations;
  a.tolerance = params->tolerance;
  a.variance_floor = params->variance_floor;
  a.aligned = stride % CV_ROAD_ROW_ALIGN == 0
      && (uintptr_t) samples % CV_ROAD_ROW_ALIGN == 0;
  a.mean = means;
  a.var = variances;
  a.weight = weights;
  a.resp = base + ws.resp;
  a.tab = base + ws.tab;
  a.min_d2 = (long long *) (base + ws.min_d2);
  if (use_double) {
    em_fast_kernel<double> <<< 1, EM_THREADS, 0, stream >>> (a, stats);
    CV_CUDA_CHECK_LAUNCH (err, "em_fast_kernel<double>");
  } else {
    em_fast_kernel<float> <<< 1, EM_THREADS, 0, stream >>> (a, stats);
    CV_CUDA_CHECK_LAUNCH (err, "em_fast_kernel<float>");
  }
  return CV_OK;
}

/* ---- library management -------------------------------------------------------- */

/* As library_kernel (cv_road_model.cu) with em_block_fast, the distance
 * table for the next kernels, and the per-frame sums and counter cleared
 * for the next frame once consumed (no per-frame memset). */
template <typename T>
__global__ void __launch_bounds__ (EM_THREADS, 1)
library_fast_kernel (RoadDev c)
{
  typedef typename RoadReal<T>::Pair Pair;
  __shared__ int slots[CV_ROAD_MAX_MODELS];
  __shared__ int s_iterations;
  __shared__ double s_total;
  const int n_old = c.lib->count;
  const int n_training = c.counters->n_training;
  const int unexplained = c.counters->n_unexplained;
  const double inv_s = n_training > 0 ? 1.0 / (double) n_training : 0.0;
  Pair *tab = (Pair *) c.lib_tab;
  int k_new = 0, n_models;

  /* eq. 4-6, then the sums are spent */
  if (n_old > 0 && n_training > 0)
    cv_road_apply_updates (c, n_old, inv_s);
  for (int t = threadIdx.x; t < c.max_models * c.dims; t += blockDim.x) {
    c.upd_sx[t] = 0;
    c.upd_sxx[t] = 0;
  }
  for (int m = threadIdx.x; m < c.max_models; m += blockDim.x)
    c.upd_count[m] = 0;

  if (unexplained > 0 && unexplained >= c.min_samples) {
    FastEmArgs a;
    double ll, mass = CV_ROAD_DMUL ((double) unexplained, inv_s);
    /* when nothing was explained the list is the identity: skip it */
    bool all = unexplained == n_training;

    k_new = n_old == 0 ? c.initial_models : c.new_models;
    if (!all)
      cv_road_compact_unexplained (c, n_training, false);
    a.samples = c.train_feat;
    a.stride = c.dims_pad;
    a.idx = all ? NULL : c.rem_idx;
    a.n = unexplained;
    a.dims = c.dims;
    a.k = k_new;
    a.max_iterations = c.em_max_iterations;
    a.tolerance = c.em_tolerance;
    a.variance_floor = c.variance_floor;
    a.aligned = true;
    a.mean = c.em_mean;
    a.var = c.em_var;
    a.weight = c.em_weight;
    a.tab = c.em_tab;
    a.resp = c.em_resp;
    a.min_d2 = c.em_min_d2;
    em_block_fast<T> (a, &s_iterations, &ll);

    cv_road_place_new_models (c, n_old, k_new, mass, slots);
  } else {
    cv_road_compact_unexplained (c, n_training, true);
    if (threadIdx.x == 0) {
      c.lib->carry_count = unexplained;
      s_iterations = 0;
    }
  }
  __syncthreads ();

  /* weights back to a sum of 1, inverse variances, tables, summary */
  n_models = cv_road_normalise_weights (c, &s_total);
  for (int t = threadIdx.x; t < n_models * c.dims; t += blockDim.x) {
    int m = t / c.dims, d = t - m * c.dims;
    double inv = CV_ROAD_DDIV (1.0, c.lib_var[t]);
    Pair p;
    c.lib_inv[t] = inv;
    c.summary_mean[t] = (float) c.lib_mean[t];
    p.x = (T) c.lib_mean[t];
    p.y = (T) inv;
    tab[(size_t) m * c.dims_pad + d] = p;
  }
  if (threadIdx.x == 0) {
    cv_road_write_summary (c, n_training, unexplained, k_new, s_iterations,
        n_models);
    c.counters->n_unexplained = 0;      /* for the next frame's updates */
  }
}

CvStatus
cv_road_launch_model_fast (const RoadDev & dev, bool use_double,
    CvStream stream, CvError * err)
{
  CvStatus status = cv_road_launch_update_fast (dev, use_double, stream, err);

  if (status != CV_OK)
    return status;
  if (use_double) {
    library_fast_kernel<double> <<< 1, EM_THREADS, 0, stream >>> (dev);
    CV_CUDA_CHECK_LAUNCH (err, "library_fast_kernel<double>");
  } else {
    library_fast_kernel<float> <<< 1, EM_THREADS, 0, stream >>> (dev);
    CV_CUDA_CHECK_LAUNCH (err, "library_fast_kernel<float>");
  }
  return CV_OK;
}
