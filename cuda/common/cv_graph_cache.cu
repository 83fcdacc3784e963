/* gst-cudavision core: a frame's launches replayed as CUDA graphs
 * (cv_graph_cache.h).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "cv_graph_cache.h"
#include "cv_cuda.cuh"

#include <cuda_runtime.h>
#include <cstring>

/* The entry that holds @key, or NULL. */
static CvGraphCacheEntry *
find_entry (CvGraphCache * cache, const void *key, size_t key_bytes)
{
  for (int i = 0; i < CV_GRAPH_CACHE_ENTRIES; i++) {
    CvGraphCacheEntry *e = &cache->entry[i];
    if (e->key_bytes == key_bytes && std::memcmp (e->key, key, key_bytes) == 0)
      return e;
  }
  return nullptr;
}

static void
entry_clear (CvGraphCacheEntry * e)
{
  if (e->exec != nullptr)
    cudaGraphExecDestroy ((cudaGraphExec_t) e->exec);
  std::memset (e, 0, sizeof (*e));
}

/* A free entry, else the one used least recently, cleared. */
static CvGraphCacheEntry *
take_entry (CvGraphCache * cache)
{
  CvGraphCacheEntry *oldest = &cache->entry[0];
  for (int i = 0; i < CV_GRAPH_CACHE_ENTRIES; i++) {
    CvGraphCacheEntry *e = &cache->entry[i];
    if (e->key_bytes == 0)
      return e;
    if (e->used < oldest->used)
      oldest = e;
  }
  entry_clear (oldest);
  return oldest;
}

/* The graph of @launch's work on @stream, instantiated into @e; 0 where
 * anything failed (the capture only recorded: nothing ran). */
static int
capture (CvGraphCacheEntry * e, CvStatus (*launch) (void *, CvStream,
        CvError *), void *user, cudaStream_t stream)
{
  CvError unused = { CV_OK, 0, "" };
  cudaGraph_t graph = nullptr;
  cudaGraphExec_t exec = nullptr;

  if (cudaStreamBeginCapture (stream, cudaStreamCaptureModeThreadLocal)
      != cudaSuccess)
    return 0;
  const CvStatus st = launch (user, (CvStream) stream, &unused);
  const cudaError_t ended = cudaStreamEndCapture (stream, &graph);
  const int ok = st == CV_OK && ended == cudaSuccess && graph != nullptr
      && cudaGraphInstantiate (&exec, graph, 0) == cudaSuccess;
  if (graph != nullptr)
    cudaGraphDestroy (graph);
  if (ok)
    e->exec = exec;
  return ok;
}

extern "C" CvStatus
cv_graph_cache_launch (CvGraphCache * cache, const void *key,
    size_t key_bytes, CvStatus (*launch) (void *, CvStream, CvError *),
    void *user, CvStream stream_, CvError * err)
{
  cudaStream_t stream = (cudaStream_t) stream_;

  if (cache->disabled || key_bytes == 0
      || key_bytes > CV_GRAPH_CACHE_KEY_BYTES || stream == nullptr
      || cv_cuda_stream_capturing (stream))
    return launch (user, stream_, err);
  CvGraphCacheEntry *e = find_entry (cache, key, key_bytes);
  if (e == nullptr) {
    /* a key's first frame: launched directly (a key seen once, as in a
     * test's sweep of sizes, costs no capture), and remembered where it
     * went well */
    const CvStatus st = launch (user, stream_, err);
    if (st == CV_OK) {
      e = take_entry (cache);
      std::memcpy (e->key, key, key_bytes);
      e->key_bytes = key_bytes;
      e->used = ++cache->clock;
    }
    return st;
  }
  e->used = ++cache->clock;
  if ((e->exec != nullptr || capture (e, launch, user, stream))
      && cudaGraphLaunch ((cudaGraphExec_t) e->exec, stream) == cudaSuccess) {
    cache->graph_frames++;
    return CV_OK;
  }
  /* a graph call failed: nothing of this frame ran */
  cudaGetLastError ();
  cv_graph_cache_clear (cache, 1);
  return launch (user, stream_, err);
}

extern "C" void
cv_graph_cache_clear (CvGraphCache * cache, int disable)
{
  for (int i = 0; i < CV_GRAPH_CACHE_ENTRIES; i++)
    entry_clear (&cache->entry[i]);
  if (disable)
    cache->disabled = 1;
}
