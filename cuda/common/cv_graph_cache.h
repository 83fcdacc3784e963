/* gst-cudavision core: a frame's launches replayed as CUDA graphs (C API).
 *
 * A plan whose frame is a fixed sequence of launches hands that sequence
 * to cv_graph_cache_launch as a function, with a key: every value the
 * launches depend on (parameters, views, buffers).  A key's first frame is
 * launched directly, its second is captured (the function runs once under
 * stream capture, which only records), instantiated and launched as the
 * graph, and the key's later frames replay it with one cudaGraphLaunch
 * each: the GPU then starts the frame sooner and runs its kernels without
 * the gaps of separate launches.  The cache holds the graphs of the last
 * CV_GRAPH_CACHE_ENTRIES keys, so that frames whose views rotate over a
 * buffer pool each find theirs.
 *
 * The launches must not depend on anything outside the key, and must not
 * change host state that a replay would need to change too (a replay
 * calls nothing): per-frame counters belong on the device.  Only built
 * with the CUDA backend (CV_HAVE_CUDA).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CV_GRAPH_CACHE_H
#define CV_GRAPH_CACHE_H

#include <stddef.h>

#include "cv_error.h"
#include "cv_types.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CV_GRAPH_CACHE_ENTRIES 8
#define CV_GRAPH_CACHE_KEY_BYTES 768

typedef struct
{
  unsigned char key[CV_GRAPH_CACHE_KEY_BYTES];
  size_t key_bytes;             /* 0: the entry is free */
  void *exec;                   /* cudaGraphExec_t; NULL: seen once */
  unsigned long used;           /* the cache's clock at the last use */
} CvGraphCacheEntry;

typedef struct
{
  CvGraphCacheEntry entry[CV_GRAPH_CACHE_ENTRIES];
  unsigned long clock;
  int disabled;                 /* launch directly (set, or a graph call failed) */
  long graph_frames;            /* frames replayed as a graph */
} CvGraphCache;

/* Enqueues a frame's launches on @stream: @launch (@user, @stream, @err)
 * itself or the graph captured from it for @key (@key_bytes bytes, at most
 * CV_GRAPH_CACHE_KEY_BYTES; compared byte by byte, so zero a key's padding).
 * Launches directly where graphs cannot be used: the cache disabled, the
 * legacy default stream (NULL), a stream the caller is capturing.  Where a
 * graph call fails, the cache disables itself and launches directly. */
CvStatus cv_graph_cache_launch (CvGraphCache * cache, const void *key,
    size_t key_bytes, CvStatus (*launch) (void *user, CvStream stream,
        CvError * err), void *user, CvStream stream, CvError * err);

/* Destroys the cached graphs (those still executing are freed when they
 * are done); the cache stays usable unless @disable. */
void cv_graph_cache_clear (CvGraphCache * cache, int disable);

#ifdef __cplusplus
}
#endif
#endif /* CV_GRAPH_CACHE_H */
