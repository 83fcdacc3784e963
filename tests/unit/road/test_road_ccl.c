/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* road-ccl: the union-find labelling of the patch grid against a
 * breadth-first flood fill, and the largest-component selection. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cv_test.h"
#include "road/cv_road_stages.h"
#include "cv_test_expect.h"

/* Flood fill from every unvisited foreground cell in row-major order: the
 * first cell reached is the component's smallest index, its label.
 * Returns the number of components; @largest gets the label of the largest
 * (ties: first found, i.e. smallest label). */
static int
flood_fill (const uint8_t * mask, int cols, int rows, int32_t * labels,
    int *largest, int *largest_size)
{
  int n = cols * rows, components = 0;
  int *queue = malloc (sizeof (int) * (size_t) n);

  *largest = -1;
  *largest_size = 0;
  for (int i = 0; i < n; i++)
    labels[i] = -1;
  for (int start = 0; start < n; start++) {
    int head = 0, tail = 0;
    if (!mask[start] || labels[start] >= 0)
      continue;
    components++;
    labels[start] = start;
    queue[tail++] = start;
    while (head < tail) {
      int i = queue[head++], x = i % cols, y = i / cols;
      int nb[4] = { x > 0 ? i - 1 : -1, x < cols - 1 ? i + 1 : -1,
        y > 0 ? i - cols : -1, y < rows - 1 ? i + cols : -1
      };
      for (int k = 0; k < 4; k++) {
        if (nb[k] >= 0 && mask[nb[k]] && labels[nb[k]] < 0) {
          labels[nb[k]] = start;
          queue[tail++] = nb[k];
        }
      }
    }
    if (tail > *largest_size) {
      *largest_size = tail;
      *largest = start;
    }
  }
  free (queue);
  return components;
}

static void
check_mask (const uint8_t * mask, int cols, int rows, const char *what)
{
  int n = cols * rows, ref_largest, ref_size, largest, size;
  int32_t *labels = malloc (sizeof (int32_t) * (size_t) n);
  int32_t *ref = malloc (sizeof (int32_t) * (size_t) n);
  int32_t *sizes = malloc (sizeof (int32_t) * (size_t) n);
  int comps = cv_road_label_components_cpu (mask, cols, rows, labels);
  int ref_comps = flood_fill (mask, cols, rows, ref, &ref_largest, &ref_size);
  int bad = 0;

  for (int i = 0; i < n; i++)
    if (labels[i] != ref[i] && bad++ < 3)
      printf ("FAIL %s (%dx%d): cell %d (%d,%d) label %d, flood fill %d\n",
          what, cols, rows, i, i % cols, i / cols, labels[i], ref[i]);
  EXPECT (bad == 0, "%s: %d labels differ from the flood fill", what, bad);
  EXPECT (comps == ref_comps, "%s: %d components, flood fill %d", what, comps,
      ref_comps);
  largest = cv_road_largest_component_cpu (labels, n, sizes, &size);
  EXPECT (largest == ref_largest && size == ref_size,
      "%s: largest component %d (%d cells), flood fill %d (%d cells)", what,
      largest, size, ref_largest, ref_size);
  free (labels);
  free (ref);
  free (sizes);
}

int
main (void)
{
  guint32 seed = 99;
  static uint8_t mask[256 * 128];
  const int sizes[][2] = { {1, 1}, {1, 37}, {41, 1}, {7, 5}, {128, 96},
  {248, 75}, {33, 128}
  };
  const int densities[] = { 0, 20, 45, 55, 60, 80, 100 };

  for (size_t s = 0; s < G_N_ELEMENTS (sizes); s++) {
    int cols = sizes[s][0], rows = sizes[s][1];
    for (size_t d = 0; d < G_N_ELEMENTS (densities); d++) {
      char what[64];
      for (int i = 0; i < cols * rows; i++)
        mask[i] = (int) (cv_test_rand (&seed) % 100) < densities[d];
      g_snprintf (what, sizeof (what), "random %d%%", densities[d]);
      check_mask (mask, cols, rows, what);
    }
  }

  /* a serpentine: one long winding component (the worst case for label
   * propagation, which needs as many steps as the path is long) */
  {
    int cols = 64, rows = 63;
    for (int y = 0; y < rows; y++)
      for (int x = 0; x < cols; x++)
        mask[y * cols + x] = y % 2 == 0 || (y % 4 == 1 && x == cols - 1)
            || (y % 4 == 3 && x == 0);
    check_mask (mask, cols, rows, "serpentine");
  }

  /* a checkerboard has no 4-connected neighbours: every cell alone; and
   * two equal components (tie: the smaller label wins) */
  {
    int cols = 20, rows = 10;
    for (int i = 0; i < cols * rows; i++)
      mask[i] = ((i % cols) + (i / cols)) % 2;
    check_mask (mask, cols, rows, "checkerboard");
    memset (mask, 0, (size_t) cols * rows);
    for (int y = 0; y < rows; y++)
      mask[y * cols + 15] = mask[y * cols + 3] = 1;
    check_mask (mask, cols, rows, "equal columns");
  }

  return cv_test_verdict ("road-ccl");
}
