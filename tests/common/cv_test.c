/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "cv_test.h"

#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cv_frame.h"
#ifdef CV_HAVE_CUDA
#include "cv_cuda.h"
#endif

gboolean
cv_test_have_gpu (void)
{
#ifdef CV_HAVE_CUDA
  return cv_cuda_device_count () > 0;
#else
  return FALSE;
#endif
}

void
cv_test_require_gpu (void)
{
  if (!cv_test_have_gpu ()) {
    g_print ("no CUDA device: skipping\n");
    exit (CV_TEST_EXIT_SKIP);
  }
}

gboolean
cv_test_under_cuda_tool (void)
{
#ifdef CV_HAVE_CUDA
  return cv_cuda_under_tool () != 0;
#else
  return FALSE;
#endif
}

gboolean
cv_test_quick (int argc, char **argv)
{
  return (argc > 1 && g_strcmp0 (argv[1], "--quick") == 0)
      || g_strcmp0 (g_getenv ("CV_TEST_QUICK"), "1") == 0
      || cv_test_under_cuda_tool ();
}

guint
cv_test_count (guint full, guint quick)
{
  return cv_test_quick (0, NULL) ? MIN (full, quick) : full;
}

CvDeviceLimits
cv_test_h200_limits (void)
{
  CvDeviceLimits d;
  d.n_sms = 132;
  d.max_threads_per_sm = 2048;
  d.smem_per_sm = 233472;
  d.smem_per_block_optin = 232448;
  d.smem_reserved_per_block = 1024;
  return d;
}

gchar *
cv_test_data_path (const gchar * relative)
{
  const gchar *root = g_getenv ("CUDAVISION_DATA");
  return g_build_filename (root ? root : "../shared/data", relative, NULL);
}

CvImageU8 *
cv_test_image_new (int width, int height, int bytes_per_pixel, int pad)
{
  CvImageU8 *img = g_new0 (CvImageU8, 1);
  img->width = width;
  img->height = height;
  img->stride = (size_t) width * bytes_per_pixel + pad;
  img->data = g_malloc0 (img->stride * height);
  return img;
}

void
cv_test_image_free (CvImageU8 * img)
{
  if (img == NULL)
    return;
  g_free (img->data);
  g_free (img);
}

CvImageU8 *
cv_test_load_png (const gchar * path, int channels)
{
  png_image png;
  CvImageU8 *img;
  guint8 *pixels;

  memset (&png, 0, sizeof (png));
  png.version = PNG_IMAGE_VERSION;
  if (!png_image_begin_read_from_file (&png, path)) {
    fprintf (stderr, "cannot read %s: %s\n", path, png.message);
    return NULL;
  }
  png.format = channels == 4 ? PNG_FORMAT_RGBA : PNG_FORMAT_RGB;
  pixels = g_malloc (PNG_IMAGE_SIZE (png));
  if (!png_image_finish_read (&png, NULL, pixels, 0, NULL)) {
    fprintf (stderr, "cannot decode %s: %s\n", path, png.message);
    g_free (pixels);
    return NULL;
  }

  img = cv_test_image_new (png.width, png.height, channels, 0);
  if (channels == 1) {
    /* gray PNGs decode to R = G = B, so the luma formula returns the value */
    for (guint i = 0; i < png.width * png.height; i++)
      img->data[i] = CV_LUMA_FROM_RGB (pixels[3 * i], pixels[3 * i + 1],
          pixels[3 * i + 2]);
  } else {
    memcpy (img->data, pixels, (size_t) png.width * png.height * channels);
  }
  g_free (pixels);
  return img;
}

static int
compare_doubles (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

double
cv_test_median (double *values, int n)
{
  if (n <= 0)
    return 0.0;
  qsort (values, n, sizeof (double), compare_doubles);
  return n % 2 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

void
cv_test_render_scene_luma (const CvSceneParams * params, CvImageU8 * left,
    CvImageU8 * right, float *truth, CvImageU8 * occluded)
{
  const int w = params->width, h = params->height;
  CvImageU8 *lrgba = cv_test_image_new (w, h, 4, 0);
  CvImageU8 *rrgba = cv_test_image_new (w, h, 4, 0);
  CvSceneViews views;
  CvError err = { 0 };

  memset (&views, 0, sizeof (views));
  views.left = *lrgba;
  views.right = *rrgba;
  if (occluded != NULL)
    views.occluded = *occluded;
  views.disparity.data = truth;
  views.disparity.width = w;
  views.disparity.height = h;
  views.disparity.stride = w * sizeof (float);
  if (cv_scene_render (params, &views, &err) != CV_OK)
    g_error ("cv_scene_render: %s", err.message);
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      const uint8_t *l = CV_ROW (lrgba, y) + 4 * x;
      const uint8_t *r = CV_ROW (rrgba, y) + 4 * x;
      CV_ROW (left, y)[x] = CV_LUMA_FROM_RGB (l[0], l[1], l[2]);
      CV_ROW (right, y)[x] = CV_LUMA_FROM_RGB (r[0], r[1], r[2]);
    }
  cv_test_image_free (lrgba);
  cv_test_image_free (rrgba);
}
