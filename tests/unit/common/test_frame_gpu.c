/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* common-frame-gpu: the CUDA frame conversions against the CPU, byte for
 * byte, on random frames of odd sizes in every format (and on cropped
 * views of device frames).  Skips (77) without a GPU. */
#include <stdlib.h>

#include "gpu_frame_util.h"

static const int sizes[][2] = { {1, 1}, {2, 2}, {3, 5}, {37, 23},
{333, 211}, {641, 481}, {1921, 1083}
};

static int n_failures;

static void
compare_images (const CvImageU8 * cpu, const CvImageU8 * gpu_host,
    int bytes_per_pixel, const char *what, CvPixelFormat f)
{
  for (int y = 0; y < cpu->height; y++)
    for (int x = 0; x < cpu->width * bytes_per_pixel; x++) {
      int a = CV_ROW (cpu, y)[x], b = CV_ROW (gpu_host, y)[x];
      if (a != b) {
        g_printerr ("MISMATCH %s %s %dx%d: pixel (%d, %d) byte %d: CPU %d, "
            "GPU %d\n", what, format_name (f), cpu->width, cpu->height,
            x / bytes_per_pixel, y, x % bytes_per_pixel, a, b);
        n_failures++;
        return;
      }
    }
}

static void
download_image (CvImageU8 * host, const CvImageU8 * dev)
{
  CUDA_OK (cudaMemcpy (host->data, dev->data, host->stride * host->height,
          cudaMemcpyDeviceToHost));
}

static void
check_conversions (CvPixelFormat f, int w, int h, guint32 * state,
    cudaStream_t stream)
{
  CvFrame host, dev, cpu_out, gpu_out, dev_out;
  CvImageU8 *luma_cpu = cv_test_image_new (w, h, 1, 3);
  CvImageU8 *luma_gpu = cv_test_image_new (w, h, 1, 3);
  CvImageU8 *rgba_cpu = cv_test_image_new (w, h, 4, 5);
  CvImageU8 *rgba_gpu = cv_test_image_new (w, h, 4, 5);
  CvImageU8 *src = random_rgba (w, h, state);
  CvImageU8 luma_dev, rgba_dev, src_dev;
  CvError err = { 0 };

  test_frame_alloc (&host, f, w, h, 7);
  test_frame_randomize (&host, state);
  gpu_frame_alloc (&dev, &host);
  gpu_frame_upload (&dev, &host);
  luma_dev = gpu_image_alloc (luma_cpu);
  rgba_dev = gpu_image_alloc (rgba_cpu);
  src_dev = gpu_image_alloc (src);
  CUDA_OK (cudaMemcpy (src_dev.data, src->data, src->stride * h,
          cudaMemcpyHostToDevice));

  /* luma and to_rgba */
  if (cv_frame_luma_cpu (&host, luma_cpu, &err) != CV_OK
      || cv_frame_luma_cuda (&dev, &luma_dev, stream, &err) != CV_OK
      || cv_frame_to_rgba_cpu (&host, rgba_cpu, &err) != CV_OK
      || cv_frame_to_rgba_cuda (&dev, &rgba_dev, stream, &err) != CV_OK)
    g_error ("%s %dx%d: %s", format_name (f), w, h, err.message);
  CUDA_OK (cudaStreamSynchronize (stream));
  download_image (luma_gpu, &luma_dev);
  download_image (rgba_gpu, &rgba_dev);
  compare_images (luma_cpu, luma_gpu, 1, "luma", f);
  compare_images (rgba_cpu, rgba_gpu, 4, "to_rgba", f);

  /* from_rgba into frames holding the same random bytes: whole buffers
   * compared, so writes into the padding would show too */
  test_frame_alloc (&cpu_out, f, w, h, 7);
  test_frame_alloc (&gpu_out, f, w, h, 7);
  test_frame_randomize (&cpu_out, state);
  test_frame_copy (&gpu_out, &cpu_out);
  gpu_frame_alloc (&dev_out, &gpu_out);
  gpu_frame_upload (&dev_out, &gpu_out);
  if (cv_frame_from_rgba_cpu (src, &cpu_out, &err) != CV_OK
      || cv_frame_from_rgba_cuda (&src_dev, &dev_out, stream, &err) != CV_OK)
    g_error ("%s %dx%d from_rgba: %s", format_name (f), w, h, err.message);
  CUDA_OK (cudaStreamSynchronize (stream));
  gpu_frame_download (&gpu_out, &dev_out);
  if (!frames_identical (&cpu_out, &gpu_out, "MISMATCH from_rgba CPU vs GPU"))
    n_failures++;

  /* a cropped view of the device frame (even offsets, to the far edges) */
  if (w > 4 && h > 4) {
    CvFrame view_host, view_dev;
    int cx = 2, cy = 2;
    CvImageU8 *crop_cpu = cv_test_image_new (w - cx, h - cy, 4, 1);
    CvImageU8 *crop_gpu = cv_test_image_new (w - cx, h - cy, 4, 1);
    CvImageU8 crop_dev = gpu_image_alloc (crop_cpu);
    if (cv_frame_crop (&host, cx, cy, w - cx, h - cy, &view_host, &err)
        != CV_OK
        || cv_frame_crop (&dev, cx, cy, w - cx, h - cy, &view_dev, &err)
        != CV_OK
        || cv_frame_to_rgba_cpu (&view_host, crop_cpu, &err) != CV_OK
        || cv_frame_to_rgba_cuda (&view_dev, &crop_dev, stream, &err) != CV_OK)
      g_error ("%s %dx%d crop: %s", format_name (f), w, h, err.message);
    CUDA_OK (cudaStreamSynchronize (stream));
    download_image (crop_gpu, &crop_dev);
    compare_images (crop_cpu, crop_gpu, 4, "to_rgba of a crop", f);
    CUDA_OK (cudaFree (crop_dev.data));
    cv_test_image_free (crop_cpu);
    cv_test_image_free (crop_gpu);
  }

  gpu_frame_free (&dev);
  gpu_frame_free (&dev_out);
  CUDA_OK (cudaFree (luma_dev.data));
  CUDA_OK (cudaFree (rgba_dev.data));
  CUDA_OK (cudaFree (src_dev.data));
  test_frame_free (&host);
  test_frame_free (&cpu_out);
  test_frame_free (&gpu_out);
  cv_test_image_free (luma_cpu);
  cv_test_image_free (luma_gpu);
  cv_test_image_free (rgba_cpu);
  cv_test_image_free (rgba_gpu);
  cv_test_image_free (src);
}

int
main (void)
{
  cudaStream_t stream;
  guint32 state = 2024;
  int n_cases = 0;

  cv_test_require_gpu ();
  CUDA_OK (cudaSetDevice (0));
  CUDA_OK (cudaStreamCreate (&stream));

  for (guint i = 0; i < G_N_ELEMENTS (all_formats); i++)
    for (guint s = 0; s < G_N_ELEMENTS (sizes); s++) {
      int before = n_failures;
      check_conversions (all_formats[i], sizes[s][0], sizes[s][1], &state,
          stream);
      n_cases++;
      g_print ("%-9s %4dx%-4d %s\n", format_name (all_formats[i]),
          sizes[s][0], sizes[s][1], n_failures == before ? "identical" :
          "DIFFERENT");
    }

  CUDA_OK (cudaStreamDestroy (stream));
  g_print ("%d cases, %d mismatches (luma, to_rgba, from_rgba, crop)\n",
      n_cases, n_failures);
  return n_failures ? 1 : 0;
}
