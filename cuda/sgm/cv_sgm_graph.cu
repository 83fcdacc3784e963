/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* SGM, CUDA: the byte planes' frames as one CUDA graph ("Frame graph" in
 * cuda/sgm/README.md). */
#include "cv_sgm_cuda_plan.h"

#include <string.h>

/* Destroys a frame graph (one still executing is freed when it is done)
 * and forgets its key. */
void
sgm_graph_clear (SgmFrameGraph * g)
{
  if (g->exec != NULL)
    cudaGraphExecDestroy (g->exec);
  if (g->graph != NULL)
    cudaGraphDestroy (g->graph);
  *g = SgmFrameGraph ();
}

/* The byte planes' frames (the default with 4 paths) run as a graph, on a
 * stream that can be captured (not the legacy default stream, nor one the
 * caller is capturing), without stage events. */
int
sgm_graph_applies (const CvSgmCuda * plan, cudaStream_t stream)
{
  return plan->graphs && plan->planes_now && !plan->planes_serial
      && !plan->profiling && stream != NULL
      && !cv_cuda_stream_capturing (stream);
}

static void
graph_key (const CvSgmCuda * plan, const SgmFrame * f, SgmGraphKey * key)
{
  memset (key, 0, sizeof (*key));
  key->params = *f->params;
  key->width = f->left->width;
  key->height = f->left->height;
  key->lanes = f->lanes;
  key->diagonal_lanes[0] = plan->diagonal_lanes_now[0];
  key->diagonal_lanes[1] = plan->diagonal_lanes_now[1];
  key->with_conf = f->confidence != NULL;
  key->variant = plan->variant;
  key->buffers[0] = plan->census_l.ptr;
  key->buffers[1] = plan->census_r.ptr;
  key->buffers[2] = plan->sum.ptr;
  key->buffers[3] = plan->disp.ptr;
  key->buffers[4] = plan->best.ptr;
  key->buffers[5] = plan->best_right.ptr;
  key->buffers[6] = plan->conf.ptr;
  key->buffers[7] = plan->jumps.ptr;
  key->buffers[8] = plan->counters.ptr;
  key->buffers[9] = plan->census_rows.ptr;
}

/* Captures frame @f's launches on @stream into plan->graph and finds the
 * nodes whose arguments hold the frame's views.  0 where anything failed
 * (nothing ran: a capture only records). */
static int
graph_capture (CvSgmCuda * plan, const SgmFrame * f, cudaStream_t stream)
{
  SgmFrameGraph *g = &plan->graph;
  const void *census = sgm_census_kernel_of (f->full);
  const void *post = sgm_post_kernel_of ();
  SgmFastHorizArgs ha;
  CvError unused = { CV_OK, 0, "" };
  cudaGraphNode_t nodes[16];
  size_t n_nodes = 0;
  CvStatus st;
  cudaError_t ce;

  sgm_fast_horiz_args (plan, f->params, f->left, &ha);
  const void *horiz = sgm_fast_horizontal_kernel_of (&ha, f->full);
  if (f->full || horiz == NULL
      || cudaStreamBeginCapture (stream, cudaStreamCaptureModeThreadLocal)
      != cudaSuccess)
    return 0;
  st = sgm_launch_frame (plan, f, stream, &unused);
  ce = cudaStreamEndCapture (stream, &g->graph);
  if (st != CV_OK || ce != cudaSuccess || g->graph == NULL
      || cudaGraphGetNodes (g->graph, NULL, &n_nodes) != cudaSuccess
      || n_nodes > sizeof (nodes) / sizeof (nodes[0])
      || cudaGraphGetNodes (g->graph, nodes, &n_nodes) != cudaSuccess)
    return 0;
  for (size_t i = 0; i < n_nodes; i++) {
    cudaGraphNodeType type;
    cudaKernelNodeParams kp;
    if (cudaGraphNodeGetType (nodes[i], &type) != cudaSuccess)
      return 0;
    if (type != cudaGraphNodeTypeKernel)
      continue;
    if (cudaGraphKernelNodeGetParams (nodes[i], &kp) != cudaSuccess)
      return 0;
    if (kp.func == census) {
      g->census = nodes[i];
      g->census_kp = kp;
    } else if (kp.func == horiz) {
      g->horiz = nodes[i];
      g->horiz_kp = kp;
    } else if (kp.func == post) {
      g->post = nodes[i];
      g->post_kp = kp;
    }
  }
  return g->census != NULL && g->horiz != NULL && g->post != NULL
      && cudaGraphInstantiate (&g->exec, g->graph, 0) == cudaSuccess;
}

/* The views of frame @f as the graph's nodes take them. */
static void
graph_views (const SgmFrame * f, CvImageU8 * left, CvImageU8 * right,
    CvImageS16 * disparity, CvImageU8 * confidence)
{
  const CvImageU8 none = { NULL, 0, 0, 0 };
  *left = *f->left;
  *right = *f->right;
  *disparity = *f->disparity;
  *confidence = f->confidence != NULL ? *f->confidence : none;
}

static int
same_u8 (const CvImageU8 * a, const CvImageU8 * b)
{
  return a->data == b->data && a->width == b->width
      && a->height == b->height && a->stride == b->stride;
}

/* Sets the argument of kernel node @node of @exec, captured as
 * @captured: the struct at @args (each of the three kernels takes one). */
static cudaError_t
set_node_args (cudaGraphExec_t exec, cudaGraphNode_t node,
    cudaKernelNodeParams captured, void *args)
{
  void *params[] = { args };
  captured.kernelParams = params;
  captured.extra = NULL;
  return cudaGraphExecKernelNodeSetParams (exec, node, &captured);
}

/* Sets frame @f's views in the graph's census, horizontal and post nodes
 * (their other arguments are the key's) where they are not those the
 * nodes hold. */
static cudaError_t
graph_set_frame (CvSgmCuda * plan, const SgmFrame * f)
{
  SgmFrameGraph *g = &plan->graph;
  CvImageU8 vl, vr, vc;
  CvImageS16 vd;
  graph_views (f, &vl, &vr, &vd, &vc);
  if (same_u8 (&vl, &g->left) && same_u8 (&vr, &g->right)
      && same_u8 (&vc, &g->confidence) && vd.data == g->disparity.data
      && vd.width == g->disparity.width && vd.height == g->disparity.height
      && vd.stride == g->disparity.stride)
    return cudaSuccess;
  SgmCensusArgs ca;
  SgmFastHorizArgs ha;
  SgmPostArgs pa;
  cudaError_t e;

  sgm_census_args (plan, f, &ca);
  sgm_fast_horiz_args (plan, f->params, f->left, &ha);
  sgm_post_args (plan, f, &pa);
  if ((e = set_node_args (g->exec, g->census, g->census_kp, &ca))
      != cudaSuccess
      || (e = set_node_args (g->exec, g->horiz, g->horiz_kp, &ha))
      != cudaSuccess
      || (e = set_node_args (g->exec, g->post, g->post_kp, &pa))
      != cudaSuccess)
    return e;
  g->left = vl;
  g->right = vr;
  g->disparity = vd;
  g->confidence = vc;
  return cudaSuccess;
}

/* Frame @f as the plan's graph: a key's first frame is launched kernel by
 * kernel, its second captured, the later ones launched as the graph with
 * their views set, also behind a frame of the plan still in flight (the
 * views' update affects later launches only; why not kernel by kernel
 * there, with the measurements: cuda/sgm/README.md, "Frame graph").
 * Where a graph call fails the plan stops using graphs and the frame is
 * launched kernel by kernel. */
CvStatus
sgm_graph_frame (CvSgmCuda * plan, const SgmFrame * f, cudaStream_t stream,
    CvError * err)
{
  SgmFrameGraph *g = &plan->graph;
  SgmGraphKey key;

  graph_key (plan, f, &key);
  if (g->exec == NULL || memcmp (&key, &g->key, sizeof (key)) != 0) {
    const int seen = g->exec == NULL && g->key_seen
        && memcmp (&key, &g->key, sizeof (key)) == 0;
    sgm_graph_clear (g);
    g->key = key;
    g->key_seen = 1;
    if (!seen)
      return sgm_launch_frame (plan, f, stream, err);
    if (!graph_capture (plan, f, stream)) {
      cudaGetLastError ();
      sgm_graph_clear (g);
      plan->graphs = 0;
      return sgm_launch_frame (plan, f, stream, err);
    }
  }
  if (graph_set_frame (plan, f) != cudaSuccess
      || cudaGraphLaunch (g->exec, stream) != cudaSuccess) {
    cudaGetLastError ();
    sgm_graph_clear (g);
    plan->graphs = 0;
    return sgm_launch_frame (plan, f, stream, err);
  }
  plan->graph_frames++;
  return CV_OK;
}
