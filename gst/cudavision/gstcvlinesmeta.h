/* gst-cudavision: the lines meta.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef __GST_CV_LINES_META_H__
#define __GST_CV_LINES_META_H__

#include <gst/gst.h>
#include <gst/cudavision/cudavision-prelude.h>

G_BEGIN_DECLS

/**
 * GstCvLine:
 * @rho: signed distance of the line from the image origin (top-left pixel
 *   centre), px
 * @theta: angle of the line's normal from the x axis, radians:
 *   x cos(theta) + y sin(theta) = rho
 * @votes: accumulator votes (edge pixels on the line)
 * @x0: first end point where the line crosses the region of interest, px
 * @y0: first end point, px
 * @x1: second end point, px
 * @y1: second end point, px
 *
 * A straight line found by Hough voting.
 */
typedef struct
{
  gfloat rho;
  gfloat theta;
  guint votes;
  gfloat x0, y0, x1, y1;
} GstCvLine;

/**
 * GstCvLinesMeta:
 * @meta: parent #GstMeta
 * @n_lines: number of lines
 * @lines: (array length=n_lines): the lines, most votes first
 *
 * Lines of one frame, produced by `cudahough`.
 */
typedef struct
{
  GstMeta meta;
  guint n_lines;
  GstCvLine *lines;
} GstCvLinesMeta;

GST_CUDA_VISION_API
GType gst_cv_lines_meta_api_get_type (void);
#define GST_CV_LINES_META_API_TYPE (gst_cv_lines_meta_api_get_type ())

GST_CUDA_VISION_API
const GstMetaInfo *gst_cv_lines_meta_get_info (void);
#define GST_CV_LINES_META_INFO (gst_cv_lines_meta_get_info ())

GST_CUDA_VISION_API
GstCvLinesMeta *gst_buffer_add_cv_lines_meta (GstBuffer * buffer,
    const GstCvLine * lines, guint n_lines);

GST_CUDA_VISION_API
GstCvLinesMeta *gst_buffer_get_cv_lines_meta (GstBuffer * buffer);

GST_CUDA_VISION_API
const GstCvLine *gst_cv_lines_meta_get_line (GstCvLinesMeta * meta,
    guint index);

G_END_DECLS
#endif /* __GST_CV_LINES_META_H__ */
