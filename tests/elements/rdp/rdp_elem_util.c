/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "rdp_elem_util.h"

#include <gst/check/gstcheck.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cv_test.h"
#include "rdp_test_support.h"

GstBuffer *
rdp_elem_frame_new (GstVideoFormat format, gint width, gint height,
    guint32 seed)
{
  GstVideoInfo info;
  GstVideoFrame frame;
  GstBuffer *buf;

  gst_video_info_set_format (&info, format, width, height);
  buf = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (&info), NULL);
  fail_unless (gst_video_frame_map (&frame, &info, buf, GST_MAP_WRITE));
  for (guint p = 0; p < GST_VIDEO_FRAME_N_PLANES (&frame); p++) {
    guint8 *data = GST_VIDEO_FRAME_PLANE_DATA (&frame, p);
    const gint stride = GST_VIDEO_FRAME_PLANE_STRIDE (&frame, p);
    const gint comp = p == 0 ? 0 : 1;
    const gint rows = GST_VIDEO_FRAME_COMP_HEIGHT (&frame, comp);
    const gint bytes = GST_VIDEO_FRAME_COMP_WIDTH (&frame, comp) *
        GST_VIDEO_FRAME_COMP_PSTRIDE (&frame, comp);

    for (gint y = 0; y < rows; y++)
      for (gint x = 0; x < bytes; x++)
        data[(gsize) y * stride + x] = (guint8) (cv_test_rand (&seed) >> 24);
  }
  gst_video_frame_unmap (&frame);
  return buf;
}

void
rdp_elem_attach_disparity (GstBuffer * buffer, const CvImageS16 * disparity,
    const GstCvStereoCalibration * calib, gint max_disparity)
{
  gsize stride;
  gsize size = gst_cv_disparity_storage_size (disparity->width,
      disparity->height, FALSE, &stride, NULL, NULL);
  GstBuffer *storage = gst_buffer_new_allocate (NULL, size, NULL);
  GstCvStereoCalibration none = { 0 };
  GstMapInfo map;

  fail_unless (gst_buffer_map (storage, &map, GST_MAP_WRITE));
  for (gint y = 0; y < disparity->height; y++)
    memcpy (map.data + (gsize) y * stride, CV_ROW (disparity, y),
        (gsize) disparity->width * sizeof (gint16));
  gst_buffer_unmap (storage, &map);
  gst_buffer_add_cv_disparity_meta (buffer, storage, disparity->width,
      disparity->height, 0, max_disparity, FALSE, calib ? calib : &none,
      NULL);
  gst_buffer_unref (storage);
}

GstBuffer *
rdp_elem_gray_frame_new (GstVideoFormat format, const guint16 * values,
    gint width, gint height)
{
  GstVideoInfo info;
  GstVideoFrame frame;
  GstBuffer *buf;

  gst_video_info_set_format (&info, format, width, height);
  buf = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (&info), NULL);
  fail_unless (gst_video_frame_map (&frame, &info, buf, GST_MAP_WRITE));
  for (gint y = 0; y < height; y++) {
    guint8 *row = (guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&frame, 0) +
        (gsize) y * GST_VIDEO_FRAME_PLANE_STRIDE (&frame, 0);
    for (gint x = 0; x < width; x++) {
      const guint16 v = values[(gsize) y * width + x];
      if (format == GST_VIDEO_FORMAT_GRAY8) {
        fail_unless (v <= 255);
        row[x] = (guint8) v;
      } else {
        GST_WRITE_UINT16_LE (row + 2 * x, v);
      }
    }
  }
  gst_video_frame_unmap (&frame);
  return buf;
}

CvImageS16 *
rdp_elem_gray_disparity (GstVideoFormat format, const guint16 * values,
    gint width, gint height)
{
  CvImageS16 *img = rdp_image_new (width, height, 6);

  for (gint y = 0; y < height; y++)
    for (gint x = 0; x < width; x++) {
      const gint v = values[(gsize) y * width + x];
      CV_ROW (img, y)[x] = v == 0 ? -1 : (gint16) (format ==
          GST_VIDEO_FORMAT_GRAY8 ? v * 16 : (v + 8) / 16);
    }
  return img;
}

CvImageS16 *
rdp_elem_meta_disparity (GstBuffer * buffer, CvStereoCalibration * calib)
{
  GstCvDisparityMeta *meta = gst_buffer_get_cv_disparity_meta (buffer);
  GstCvDisparityMapping map;
  CvImageS16 *img;

  if (meta == NULL)
    return NULL;
  fail_unless (gst_cv_disparity_meta_map (meta, GST_MAP_READ, &map));
  img = rdp_image_new (meta->width, meta->height, 0);
  for (guint y = 0; y < meta->height; y++)
    memcpy (CV_ROW (img, y), (guint8 *) map.disparity + y *
        map.disparity_stride, meta->width * sizeof (gint16));
  gst_cv_disparity_meta_unmap (meta, &map);
  if (calib) {
    calib->focal_length = (float) meta->calibration.focal_length;
    calib->principal_x = (float) meta->calibration.principal_x;
    calib->principal_y = (float) meta->calibration.principal_y;
    calib->baseline = (float) meta->calibration.baseline;
  }
  return img;
}

void
rdp_elem_params (GstElement * rdp, const CvStereoCalibration * calib,
    CvRdpParams * p)
{
  gfloat epsilon, max_depth;
  gint signal, step, mode, median;
  gdouble focal, baseline;

  g_object_get (rdp, "epsilon", &epsilon, "signal", &signal, "column-step",
      &step, "column-mode", &mode, "median", &median, "max-depth",
      &max_depth, "focal-length", &focal, "baseline", &baseline, NULL);
  cv_rdp_params_init (p);
  p->signal = signal == 1 ? CV_RDP_SIGNAL_DEPTH : CV_RDP_SIGNAL_DISPARITY;
  if (epsilon < 0.0f)
    epsilon = p->signal == CV_RDP_SIGNAL_DEPTH ? RDP_ELEM_DEPTH_EPSILON :
        CV_RDP_DEFAULT_EPSILON;
  p->epsilon = epsilon;
  p->column_step = step;
  p->column_mode = mode == 1 ? CV_RDP_COLUMNS_MEAN : CV_RDP_COLUMNS_SAMPLE;
  p->median_window = median;
  p->max_depth = max_depth;
  if (calib) {
    p->calib = *calib;
  } else {
    p->calib.focal_length = (float) focal;
    p->calib.baseline = (float) baseline;
  }
}

gfloat
rdp_elem_applied_epsilon (const CvRdpParams * p)
{
  if (p->signal == CV_RDP_SIGNAL_DEPTH)
    return p->epsilon;
  return (gfloat) lround (p->epsilon * 16.0) / 16.0f;
}

CvRdpResult *
rdp_elem_result_from_meta (const GstCvSegmentsMeta * m, gint height,
    gint column_step)
{
  const guint n = m->n_columns;
  const guint n_cuts = n ? m->cut_offsets[n] : 0;
  const guint n_gaps = n ? m->gap_offsets[n] : 0;
  CvRdpResult *r = g_new0 (CvRdpResult, 1);
  gint32 *cut_offsets = g_new (gint32, n + 1), *gap_offsets =
      g_new (gint32, n + 1);
  gint32 *rows = g_new (gint32, n_cuts + 1), *levels = g_new0 (gint32, n + 1);
  gfloat *values = g_new (gfloat, n_cuts + 1);
  CvRdpGap *gaps = g_new (CvRdpGap, n_gaps + 1);

  for (guint j = 0; j <= n; j++) {
    cut_offsets[j] = (gint32) m->cut_offsets[j];
    gap_offsets[j] = (gint32) m->gap_offsets[j];
  }
  for (guint i = 0; i < n_cuts; i++) {
    rows[i] = m->cut_rows[i];
    values[i] = m->cut_values[i];
  }
  for (guint i = 0; i < n_gaps; i++) {
    gaps[i].start = m->gap_starts[i];
    gaps[i].end = m->gap_ends[i];
  }
  r->n_columns = (int) n;
  r->height = height;
  r->column_step = column_step;
  r->signal = m->signal == GST_CV_SEGMENTS_DEPTH ? CV_RDP_SIGNAL_DEPTH :
      CV_RDP_SIGNAL_DISPARITY;
  r->cut_offsets = cut_offsets;
  r->gap_offsets = gap_offsets;
  r->cut_rows = rows;
  r->cut_values = values;
  r->gaps = gaps;
  r->levels = levels;
  return r;
}

void
rdp_elem_result_free (CvRdpResult * r)
{
  g_free ((gpointer) r->cut_offsets);
  g_free ((gpointer) r->gap_offsets);
  g_free ((gpointer) r->cut_rows);
  g_free ((gpointer) r->cut_values);
  g_free ((gpointer) r->gaps);
  g_free ((gpointer) r->levels);
  g_free (r);
}

gboolean
rdp_elem_meta_matches (const GstCvSegmentsMeta * m, const CvRdpResult * ref,
    gfloat epsilon, const gchar * label)
{
  const gint expected_signal = ref->signal == CV_RDP_SIGNAL_DEPTH ?
      GST_CV_SEGMENTS_DEPTH : GST_CV_SEGMENTS_DISPARITY;

  if (m->signal != expected_signal || m->epsilon != epsilon
      || m->n_columns != (guint) ref->n_columns) {
    g_printerr ("%s: meta signal %d epsilon %.9g columns %u, expected %d "
        "%.9g %d\n", label, m->signal, m->epsilon, m->n_columns,
        expected_signal, epsilon, ref->n_columns);
    return FALSE;
  }
  for (gint j = 0; j < ref->n_columns; j++) {
    const gint32 c0 = ref->cut_offsets[j], c1 = ref->cut_offsets[j + 1];
    const gint32 g0 = ref->gap_offsets[j], g1 = ref->gap_offsets[j + 1];

    if (m->columns[j] != (guint) (j * ref->column_step)) {
      g_printerr ("%s: column %d is image column %u, expected %d\n", label,
          j, m->columns[j], j * ref->column_step);
      return FALSE;
    }
    if (m->cut_offsets[j] != (guint) c0 || m->cut_offsets[j + 1] != (guint) c1
        || m->gap_offsets[j] != (guint) g0
        || m->gap_offsets[j + 1] != (guint) g1) {
      g_printerr ("%s: column %d: meta cuts [%u, %u) gaps [%u, %u), "
          "reference cuts [%d, %d) gaps [%d, %d)\n", label, j,
          m->cut_offsets[j], m->cut_offsets[j + 1], m->gap_offsets[j],
          m->gap_offsets[j + 1], c0, c1, g0, g1);
      for (gint32 i = c0; i < c1; i++)
        g_printerr ("  reference cut row %d value %.9g\n", ref->cut_rows[i],
            (double) ref->cut_values[i]);
      for (guint i = m->cut_offsets[j]; i < m->cut_offsets[j + 1]; i++)
        g_printerr ("  meta cut row %u value %.9g\n", m->cut_rows[i],
            (double) m->cut_values[i]);
      return FALSE;
    }
    for (gint32 i = c0; i < c1; i++) {
      if (m->cut_rows[i] != (guint) ref->cut_rows[i]
          || memcmp (&m->cut_values[i], &ref->cut_values[i],
              sizeof (gfloat)) != 0) {
        g_printerr ("%s: column %d cut #%d: meta row %u value %.9g, "
            "reference row %d value %.9g\n", label, j, i - c0,
            m->cut_rows[i], (double) m->cut_values[i], ref->cut_rows[i],
            (double) ref->cut_values[i]);
        return FALSE;
      }
    }
    for (gint32 i = g0; i < g1; i++) {
      if (m->gap_starts[i] != (guint) ref->gaps[i].start
          || m->gap_ends[i] != (guint) ref->gaps[i].end) {
        g_printerr ("%s: column %d gap #%d: meta [%u, %u], reference "
            "[%d, %d]\n", label, j, i - g0, m->gap_starts[i], m->gap_ends[i],
            ref->gaps[i].start, ref->gaps[i].end);
        return FALSE;
      }
    }
  }
  return TRUE;
}

gboolean
rdp_elem_metas_equal (const GstCvSegmentsMeta * a,
    const GstCvSegmentsMeta * b, const gchar * label)
{
  guint n_cuts, n_gaps;

  if (a->signal != b->signal || a->epsilon != b->epsilon
      || a->n_columns != b->n_columns) {
    g_printerr ("%s: CPU signal %d epsilon %.9g columns %u, GPU %d %.9g %u\n",
        label, a->signal, a->epsilon, a->n_columns, b->signal, b->epsilon,
        b->n_columns);
    return FALSE;
  }
  for (guint j = 0; j < a->n_columns; j++) {
    if (a->columns[j] != b->columns[j]
        || a->cut_offsets[j + 1] != b->cut_offsets[j + 1]
        || a->gap_offsets[j + 1] != b->gap_offsets[j + 1]) {
      g_printerr ("%s: column %u: CPU image column %u, cuts end at %u, gaps "
          "end at %u; GPU %u, %u, %u\n", label, j, a->columns[j],
          a->cut_offsets[j + 1], a->gap_offsets[j + 1], b->columns[j],
          b->cut_offsets[j + 1], b->gap_offsets[j + 1]);
      for (guint i = a->cut_offsets[j]; i < a->cut_offsets[j + 1]; i++)
        g_printerr ("  CPU cut row %u value %.9g\n", a->cut_rows[i],
            (double) a->cut_values[i]);
      for (guint i = b->cut_offsets[j]; i < b->cut_offsets[j + 1]; i++)
        g_printerr ("  GPU cut row %u value %.9g\n", b->cut_rows[i],
            (double) b->cut_values[i]);
      return FALSE;
    }
  }
  n_cuts = a->n_columns ? a->cut_offsets[a->n_columns] : 0;
  n_gaps = a->n_columns ? a->gap_offsets[a->n_columns] : 0;
  for (guint i = 0; i < n_cuts; i++) {
    if (a->cut_rows[i] != b->cut_rows[i]
        || memcmp (&a->cut_values[i], &b->cut_values[i], sizeof (gfloat))) {
      g_printerr ("%s: cut %u of %u: CPU row %u value %.9g, GPU row %u "
          "value %.9g\n", label, i, n_cuts, a->cut_rows[i],
          (double) a->cut_values[i], b->cut_rows[i],
          (double) b->cut_values[i]);
      return FALSE;
    }
  }
  for (guint i = 0; i < n_gaps; i++) {
    if (a->gap_starts[i] != b->gap_starts[i]
        || a->gap_ends[i] != b->gap_ends[i]) {
      g_printerr ("%s: gap %u of %u: CPU [%u, %u], GPU [%u, %u]\n", label, i,
          n_gaps, a->gap_starts[i], a->gap_ends[i], b->gap_starts[i],
          b->gap_ends[i]);
      return FALSE;
    }
  }
  return TRUE;
}

gint
rdp_elem_check_meta (CvRdpCpu * cpu, const GstCvSegmentsMeta * meta,
    const CvRdpParams * params, const CvImageS16 * disparity,
    const gchar * label)
{
  CvError err = { 0 };
  CvRdpResult ref, *from_meta;
  RdpNaive *naive;
  gint max_levels = 0, n_removable = 0;

  fail_unless (cv_rdp_cpu_compute (cpu, params, disparity, 1, &err) == CV_OK,
      "%s: core reference failed: %s", label, err.message);
  cv_rdp_cpu_result (cpu, &ref);
  fail_unless (rdp_elem_meta_matches (meta, &ref,
          rdp_elem_applied_epsilon (params), label),
      "%s: meta differs from the core CPU reference (see above)", label);
  for (gint j = 0; j < ref.n_columns; j++)
    max_levels = MAX (max_levels, ref.levels[j]);

  /* the RDP guarantees, checked by an independent implementation on the
   * input disparity */
  naive = rdp_naive_compute (params, disparity);
  fail_unless (naive != NULL, "%s: naive reference refused the parameters",
      label);
  from_meta = rdp_elem_result_from_meta (meta, disparity->height,
      params->column_step);
  fail_unless (rdp_check_properties (naive, params, from_meta, label,
          &n_removable), "%s: the meta breaks an RDP property (see above)",
      label);
  rdp_elem_result_free (from_meta);
  rdp_naive_free (naive);
  return max_levels;
}

GstBuffer *
rdp_elem_push (GstHarness * h, GstBuffer * in)
{
  GstBuffer *out;

  fail_unless_equals_int (gst_harness_push (h, in), GST_FLOW_OK);
  out = gst_harness_pull (h);
  fail_unless (out != NULL);
  return out;
}

gboolean
rdp_elem_frames_equal (const GstVideoInfo * info, GstBuffer * a,
    GstBuffer * b, const gchar * label)
{
  GstVideoFrame fa, fb;
  gboolean equal = TRUE;

  fail_unless (gst_video_frame_map (&fa, (GstVideoInfo *) info, a,
          GST_MAP_READ));
  fail_unless (gst_video_frame_map (&fb, (GstVideoInfo *) info, b,
          GST_MAP_READ));
  for (guint p = 0; equal && p < GST_VIDEO_FRAME_N_PLANES (&fa); p++) {
    const gint comp = p == 0 ? 0 : 1;
    const gint rows = GST_VIDEO_FRAME_COMP_HEIGHT (&fa, comp);
    const gint bytes = GST_VIDEO_FRAME_COMP_WIDTH (&fa, comp) *
        GST_VIDEO_FRAME_COMP_PSTRIDE (&fa, comp);
    for (gint y = 0; equal && y < rows; y++) {
      const guint8 *ra = (guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&fa, p) +
          (gsize) y * GST_VIDEO_FRAME_PLANE_STRIDE (&fa, p);
      const guint8 *rb = (guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&fb, p) +
          (gsize) y * GST_VIDEO_FRAME_PLANE_STRIDE (&fb, p);
      if (memcmp (ra, rb, bytes) != 0) {
        gint x = 0, n = 0;
        while (ra[x] == rb[x])
          x++;
        for (gint i = 0; i < bytes; i++)
          n += ra[i] != rb[i];
        if (label != NULL)
          g_printerr ("%s: plane %u row %d byte %d: %u vs %u (%d bytes of "
              "the row differ)\n", label, p, y, x, ra[x], rb[x], n);
        equal = FALSE;
      }
    }
  }
  gst_video_frame_unmap (&fa);
  gst_video_frame_unmap (&fb);
  return equal;
}
