/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* common-draw-gpu: the CUDA overlay renderer against the CPU, byte for
 * byte, on random frames of odd sizes in every format, from host lists
 * (cv_draw_cuda) and from device lists bounded by counts in device memory
 * (cv_draw_cuda_device).  Primitives of one
 * kind never overlap (cells aligned to even coordinates, so not even their
 * chroma samples do); rectangles and lines may overlap each other (lines
 * are drawn after rectangles on both backends).  Skips (77) without a GPU. */
#include <stdlib.h>

#include "cv_draw.h"
#include "gpu_frame_util.h"

/* (the last two: the widest and the tallest frames, 65535 px a side) */
static const int sizes[][2] = { {1, 1}, {2, 3}, {5, 3}, {37, 23},
{333, 211}, {641, 481}, {65535, 3}, {5, 65535}
};

/* Cells of the grid that keeps primitives apart (even, so a 2x2 chroma
 * block never straddles two cells). */
#define CELL_W 24
#define CELL_H 20
#define MAX_PRIMS 4096

static int n_failures;

static CvColor
random_color (guint32 * state)
{
  static const guint8 alphas[] = { 0, 1, 64, 128, 200, 254, 255 };
  CvColor c;
  guint32 r = cv_test_rand (state);
  c.r = r & 0xff;
  c.g = (r >> 8) & 0xff;
  c.b = (r >> 16) & 0xff;
  c.a = alphas[cv_test_rand (state) % G_N_ELEMENTS (alphas)];
  return c;
}

static int
rand_range (guint32 * state, int lo, int hi)
{
  return lo + (int) (cv_test_rand (state) % (guint32) (hi - lo + 1));
}

/* Random primitives, one per cell of a grid that starts half a cell
 * outside the frame (so border primitives are clipped). */
static void
make_cell_list (int w, int h, guint32 * state, CvDrawRect * rects,
    int *n_rects, CvDrawLine * lines, int *n_lines)
{
  *n_rects = *n_lines = 0;
  for (int cy = -CELL_H / 2; cy < h; cy += CELL_H)
    for (int cx = -CELL_W / 2; cx < w; cx += CELL_W) {
      if (*n_rects + *n_lines >= MAX_PRIMS)
        return;
      if (cv_test_rand (state) % 2) {
        CvDrawRect *r = &rects[(*n_rects)++];
        r->x = cx + rand_range (state, 0, CELL_W - 2);
        r->y = cy + rand_range (state, 0, CELL_H - 2);
        r->w = rand_range (state, 1, cx + CELL_W - r->x);
        r->h = rand_range (state, 1, cy + CELL_H - r->y);
        r->fill = random_color (state);
        r->border = random_color (state);
      } else {
        CvDrawLine *l = &lines[(*n_lines)++];
        int t = rand_range (state, 1, 5), m = t / 2 + 1;
        /* end points with sub-pixel parts, kept inside the cell minus the
         * half thickness */
        l->x0 = cx + m + rand_range (state, 0, (CELL_W - 2 * m - 1) * 4) / 4.0f;
        l->y0 = cy + m + rand_range (state, 0, (CELL_H - 2 * m - 1) * 4) / 4.0f;
        l->x1 = cx + m + rand_range (state, 0, (CELL_W - 2 * m - 1) * 4) / 4.0f;
        l->y1 = cy + m + rand_range (state, 0, (CELL_H - 2 * m - 1) * 4) / 4.0f;
        l->thickness = t;
        l->color = random_color (state);
      }
    }
}

/* One big translucent rectangle beyond the frame and long, nearly
 * horizontal lines 8 px apart crossing it (apart even in chroma). */
static void
make_long_list (int w, int h, guint32 * state, CvDrawRect * rects,
    int *n_rects, CvDrawLine * lines, int *n_lines)
{
  rects[0] = (CvDrawRect) {
  -5, -3, w + 9, h + 7, random_color (state), random_color (state)};
  rects[0].fill.a = 100;
  *n_rects = 1;
  *n_lines = 0;
  for (int y = 2; y < h && *n_lines < MAX_PRIMS; y += 8) {
    CvDrawLine *l = &lines[(*n_lines)++];
    l->x0 = -30.25f;
    l->y0 = (float) y;
    l->x1 = w + 30.5f;
    l->y1 = y + rand_range (state, 0, 2) - 0.25f;
    l->thickness = rand_range (state, 1, 3);
    l->color = random_color (state);
    l->color.a = l->color.a ? l->color.a : 1;
  }
}

/* The same random frame on the host (@cpu, @list drawn into it by the
 * CPU) and on the device (@dev, for the GPU to draw into). */
typedef struct
{
  CvFrame cpu, gpu, dev;
} FramePair;

static void
pair_begin (FramePair * p, CvPixelFormat f, int w, int h,
    const CvDrawList * list, guint32 * state)
{
  CvError err = { 0 };

  test_frame_alloc (&p->cpu, f, w, h, 5);
  test_frame_alloc (&p->gpu, f, w, h, 5);
  test_frame_randomize (&p->cpu, state);
  test_frame_copy (&p->gpu, &p->cpu);
  gpu_frame_alloc (&p->dev, &p->gpu);
  gpu_frame_upload (&p->dev, &p->gpu);
  if (cv_draw_cpu (&p->cpu, list, &err) != CV_OK)
    g_error ("cv_draw_cpu: %s", err.message);
}

/* Waits for the GPU's drawing and compares it with the CPU's. */
static void
pair_end (FramePair * p, const CvDrawList * list, cudaStream_t stream,
    const char *mismatch, const char *what)
{
  CUDA_OK (cudaStreamSynchronize (stream));
  gpu_frame_download (&p->gpu, &p->dev);
  if (!frames_identical (&p->cpu, &p->gpu, mismatch)) {
    g_printerr ("  (%s: %d rects, %d lines)\n", what, list->n_rects,
        list->n_lines);
    n_failures++;
  }
  gpu_frame_free (&p->dev);
  test_frame_free (&p->cpu);
  test_frame_free (&p->gpu);
}

static void
check_list (CvDrawCuda * draw, CvPixelFormat f, int w, int h,
    CvDrawRect * rects, int n_rects, CvDrawLine * lines, int n_lines,
    guint32 * state, cudaStream_t stream, const char *what)
{
  FramePair p;
  CvDrawList list = { rects, n_rects, lines, n_lines };
  CvError err = { 0 };

  pair_begin (&p, f, w, h, &list, state);
  if (cv_draw_cuda (draw, &p.dev, &list, stream, &err) != CV_OK)
    g_error ("cv_draw_cuda: %s", err.message);
  /* the list was copied: scribbling over it now must not matter */
  memset (rects, 0x5a, sizeof (CvDrawRect) * n_rects);
  memset (lines, 0x5a, sizeof (CvDrawLine) * n_lines);
  pair_end (&p, &list, stream, "MISMATCH draw CPU vs GPU", what);
}

/* The list from device memory, followed by entries that would paint the
 * whole frame: the counts in device memory must stop the kernels before
 * them. */
static void
check_device_list (CvPixelFormat f, int w, int h, const CvDrawRect * rects,
    int n_rects, const CvDrawLine * lines, int n_lines, guint32 * state,
    cudaStream_t stream, const char *what)
{
  enum { EXTRA = 3 };
  const CvDrawRect cover = { -1, -1, w + 2, h + 2, {255, 0, 255, 255},
  {0, 255, 0, 255}
  };
  const CvDrawLine across = { 0.0f, 0.0f, (float) w, (float) h,
  {0, 0, 255, 255}, 9
  };
  CvDrawRect *d_rects;
  CvDrawLine *d_lines;
  int32_t counts[2] = { n_rects, n_lines }, *d_counts;
  FramePair p;
  CvDrawList list = { rects, n_rects, lines, n_lines };
  CvDrawDeviceList dlist;
  CvError err = { 0 };

  CUDA_OK (cudaMalloc ((void **) &d_rects,
          sizeof (CvDrawRect) * (n_rects + EXTRA)));
  CUDA_OK (cudaMalloc ((void **) &d_lines,
          sizeof (CvDrawLine) * (n_lines + EXTRA)));
  CUDA_OK (cudaMalloc ((void **) &d_counts, sizeof (counts)));
  CUDA_OK (cudaMemcpy (d_rects, rects, sizeof (CvDrawRect) * n_rects,
          cudaMemcpyHostToDevice));
  CUDA_OK (cudaMemcpy (d_lines, lines, sizeof (CvDrawLine) * n_lines,
          cudaMemcpyHostToDevice));
  for (int i = 0; i < EXTRA; i++) {
    CUDA_OK (cudaMemcpy (d_rects + n_rects + i, &cover, sizeof (cover),
            cudaMemcpyHostToDevice));
    CUDA_OK (cudaMemcpy (d_lines + n_lines + i, &across, sizeof (across),
            cudaMemcpyHostToDevice));
  }
  CUDA_OK (cudaMemcpy (d_counts, counts, sizeof (counts),
          cudaMemcpyHostToDevice));

  pair_begin (&p, f, w, h, &list, state);
  dlist.rects = d_rects;
  dlist.n_rects = n_rects + EXTRA;
  dlist.n_rects_device = d_counts;
  dlist.lines = d_lines;
  dlist.n_lines = n_lines + EXTRA;
  dlist.n_lines_device = d_counts + 1;
  if (cv_draw_cuda_device (&p.dev, &dlist, stream, &err) != CV_OK)
    g_error ("cv_draw_cuda_device: %s", err.message);
  pair_end (&p, &list, stream, "MISMATCH draw CPU vs GPU device list", what);
  CUDA_OK (cudaFree (d_rects));
  CUDA_OK (cudaFree (d_lines));
  CUDA_OK (cudaFree (d_counts));
}

int
main (void)
{
  cudaStream_t stream;
  guint32 state = 555;
  CvDrawRect *rects = g_new (CvDrawRect, MAX_PRIMS);
  CvDrawLine *lines = g_new (CvDrawLine, MAX_PRIMS);
  CvDrawCuda *draw;
  int n_cases = 0;

  cv_test_require_gpu ();
  CUDA_OK (cudaSetDevice (0));
  CUDA_OK (cudaStreamCreate (&stream));
  draw = cv_draw_cuda_new ();
  g_assert_nonnull (draw);

  for (guint i = 0; i < G_N_ELEMENTS (all_formats); i++)
    for (guint s = 0; s < G_N_ELEMENTS (sizes); s++) {
      CvPixelFormat f = all_formats[i];
      int w = sizes[s][0], h = sizes[s][1], n_rects, n_lines;
      int before = n_failures;

      for (int rep = 0; rep < 3; rep++) {
        make_cell_list (w, h, &state, rects, &n_rects, lines, &n_lines);
        check_device_list (f, w, h, rects, n_rects, lines, n_lines, &state,
            stream, "cells");
        check_list (draw, f, w, h, rects, n_rects, lines, n_lines, &state,
            stream, "cells");
      }
      make_long_list (w, h, &state, rects, &n_rects, lines, &n_lines);
      check_list (draw, f, w, h, rects, n_rects, lines, n_lines, &state,
          stream, "frame-wide rect + long lines");
      n_cases++;
      g_print ("%-9s %4dx%-4d %s\n", format_name (f), w, h,
          n_failures == before ? "identical" : "DIFFERENT");
    }

  /* an empty list is a no-op */
  {
    CvFrame host, dev;
    CvDrawList empty = { NULL, 0, NULL, 0 };
    CvError err = { 0 };
    test_frame_alloc (&host, CV_PIXEL_NV12, 9, 7, 1);
    gpu_frame_alloc (&dev, &host);
    g_assert_cmpint (cv_draw_cuda (draw, &dev, &empty, stream, &err), ==,
        CV_OK);
    gpu_frame_free (&dev);
    test_frame_free (&host);
  }

  cv_draw_cuda_free (draw);
  CUDA_OK (cudaStreamDestroy (stream));
  g_free (rects);
  g_free (lines);
  g_print ("%d format/size cases, %d mismatches\n", n_cases, n_failures);
  return n_failures ? 1 : 0;
}
