/* Meta round trips: add, copy, through queue ! videoconvert, host access.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gst/check/gstcheck.h>
#include <gst/app/gstappsink.h>
#include <gst/app/gstappsrc.h>
#include <gst/cudavision/cudavision.h>

#define W 37
#define H 11

static GstBuffer *
make_disparity_storage (gsize * stride)
{
  gsize size = gst_cv_disparity_storage_size (W, H, TRUE, stride, NULL, NULL);
  GstBuffer *storage = gst_buffer_new_allocate (NULL, size, NULL);
  GstMapInfo map;

  gst_buffer_map (storage, &map, GST_MAP_WRITE);
  for (gint y = 0; y < H; y++)
    for (gint x = 0; x < W; x++)
      ((gint16 *) (map.data + y * *stride))[x] = (gint16) (x * 16 + y);
  {
    gsize coff, cstride;
    gst_cv_disparity_storage_size (W, H, TRUE, NULL, &coff, &cstride);
    for (gint y = 0; y < H; y++)
      memset (map.data + coff + y * cstride, 200 + y, W);
  }
  gst_buffer_unmap (storage, &map);
  return storage;
}

static void
check_disparity (GstBuffer * buf)
{
  GstCvDisparityMeta *meta = gst_buffer_get_cv_disparity_meta (buf);
  GstCvDisparityMapping m;
  gdouble d;

  fail_unless (meta != NULL);
  fail_unless_equals_int (meta->width, W);
  fail_unless_equals_int (meta->height, H);
  fail_unless_equals_int (meta->max_disparity, 64);
  fail_unless (meta->has_confidence);
  fail_unless (!meta->on_device);
  fail_unless_equals_float (meta->calibration.focal_length, 721.5);
  fail_unless_equals_float (meta->calibration.baseline, 0.54);

  fail_unless (gst_cv_disparity_meta_map (meta, GST_MAP_READ, &m));
  fail_if (m.on_device);
  for (gint y = 0; y < H; y++) {
    const gint16 *row = (const gint16 *) ((guint8 *) m.disparity +
        y * m.disparity_stride);
    const guint8 *conf = (const guint8 *) m.confidence +
        y * m.confidence_stride;
    for (gint x = 0; x < W; x++) {
      fail_unless_equals_int (row[x], x * 16 + y);
      fail_unless_equals_int (conf[x], 200 + y);
    }
  }
  gst_cv_disparity_meta_unmap (meta, &m);
  /* host data has no device address */
  fail_if (gst_cv_disparity_meta_map (meta, GST_MAP_READ | GST_CV_MAP_DEVICE,
          &m));
  fail_unless (gst_cv_disparity_meta_get_pixel (meta, 3, 2, &d));
  fail_unless_equals_float (d, 3.0 + 2.0 / 16.0);
  fail_if (gst_cv_disparity_meta_get_pixel (meta, W, 0, &d));
}

static void
add_all_metas (GstBuffer * buf)
{
  GstCvStereoCalibration calib = { 721.5, 609.5, 172.8, 0.54 };
  GstCvStixel stixels[2] = {
    {0, 5, 100, 374, GST_CV_STIXEL_GROUND, 0.2f, -30.0f, 8.0f, 1.5f},
    {5, 5, 80, 200, GST_CV_STIXEL_OBJECT, 0.0f, 20.0f, 19.5f, 0.5f},
  };
  guint16 columns[2] = { 0, 4 };
  guint cut_offsets[3] = { 0, 2, 5 };
  guint16 cut_rows[5] = { 0, 10, 0, 3, 10 };
  gfloat cut_values[5] = { 1, 2, 3, 4, 5 };
  guint gap_offsets[3] = { 0, 0, 1 };
  guint16 gap_starts[1] = { 5 }, gap_ends[1] = { 6 };
  GstCvLine lines[1] = { {10.5f, 1.25f, 42, 0, 1, 30, 9} };
  guint8 patches[6] = { 0, 1, 3, 1, 0, 0 };
  GstCvRoadModel models[1] = { {1.0f, 30.0f, 0.2f} };
  gsize stride;
  GstBuffer *storage = make_disparity_storage (&stride);

  fail_unless (gst_buffer_add_cv_disparity_meta (buf, storage, W, H, 0, 64,
          TRUE, &calib, NULL) != NULL);
  gst_buffer_unref (storage);
  gst_buffer_add_cv_stixels_meta (buf, W, H, stixels, 2);
  gst_buffer_add_cv_segments_meta (buf, GST_CV_SEGMENTS_DEPTH, 0.5f, 2,
      columns, cut_offsets, cut_rows, cut_values, gap_offsets, gap_starts,
      gap_ends);
  gst_buffer_add_cv_lines_meta (buf, lines, 1);
  gst_buffer_add_cv_road_meta (buf, 5, 3, 2, patches, models, 1);
}

static void
check_all_metas (GstBuffer * buf)
{
  GstCvStixelsMeta *st = gst_buffer_get_cv_stixels_meta (buf);
  GstCvSegmentsMeta *sg = gst_buffer_get_cv_segments_meta (buf);
  GstCvLinesMeta *ln = gst_buffer_get_cv_lines_meta (buf);
  GstCvRoadMeta *rd = gst_buffer_get_cv_road_meta (buf);

  check_disparity (buf);

  fail_unless (st && st->n_stixels == 2);
  fail_unless_equals_int (st->stixels[1].stixel_class, GST_CV_STIXEL_OBJECT);
  fail_unless_equals_float (st->stixels[1].depth, 19.5f);
  fail_unless_equals_int (st->stixels[0].bottom, 374);

  fail_unless (sg && sg->n_columns == 2);
  fail_unless_equals_int (sg->signal, GST_CV_SEGMENTS_DEPTH);
  fail_unless_equals_int (sg->cut_offsets[2], 5);
  fail_unless_equals_int (sg->cut_rows[3], 3);
  fail_unless_equals_float (sg->cut_values[4], 5.0f);
  fail_unless_equals_int (sg->gap_offsets[2], 1);
  fail_unless_equals_int (sg->gap_ends[0], 6);

  fail_unless (ln && ln->n_lines == 1);
  fail_unless_equals_int (ln->lines[0].votes, 42);
  fail_unless_equals_float (ln->lines[0].y1, 9.0f);

  fail_unless (rd && rd->grid_cols == 3 && rd->grid_rows == 2);
  fail_unless (gst_cv_road_meta_is_road (rd, 7, 0));       /* patch (1,0) */
  fail_if (gst_cv_road_meta_is_road (rd, 0, 0));
  fail_unless (gst_cv_road_meta_is_road (rd, 12, 2));      /* patch (2,0) */
  fail_unless (rd->patches[2] & GST_CV_ROAD_PATCH_SEED);
  fail_if (gst_cv_road_meta_is_road (rd, 100, 100));
  fail_unless_equals_int (rd->n_models, 1);
  fail_unless_equals_float (rd->models[0].hue, 30.0f);
}

GST_START_TEST (test_add_and_copy)
{
  GstBuffer *buf = gst_buffer_new_allocate (NULL, W * H, NULL);
  GstBuffer *copy;
  GstCvDisparityMeta *a, *b;

  add_all_metas (buf);
  check_all_metas (buf);

  copy = gst_buffer_copy (buf);
  check_all_metas (copy);
  /* the disparity data is shared, not copied; result lists are deep copies */
  a = gst_buffer_get_cv_disparity_meta (buf);
  b = gst_buffer_get_cv_disparity_meta (copy);
  fail_unless (a->storage == b->storage);
  fail_unless (gst_buffer_get_cv_stixels_meta (buf)->stixels !=
      gst_buffer_get_cv_stixels_meta (copy)->stixels);

  gst_buffer_unref (buf);
  /* the copy survives its source */
  check_all_metas (copy);
  gst_buffer_unref (copy);
}

GST_END_TEST;

/* Counts the metas of @api on @buf. */
static guint
count_metas (GstBuffer * buf, GType api)
{
  gpointer state = NULL;
  GstMeta *meta;
  guint n = 0;

  while ((meta = gst_buffer_iterate_meta_filtered (buf, &state, api)))
    n++;
  return n;
}

/* One meta of each kind per buffer: adding again (a second producer of
 * the kind downstream, a copy onto a buffer that has one) replaces it. */
GST_START_TEST (test_add_replaces)
{
  const GType apis[] = { GST_CV_DISPARITY_META_API_TYPE,
    GST_CV_STIXELS_META_API_TYPE, GST_CV_SEGMENTS_META_API_TYPE,
    GST_CV_LINES_META_API_TYPE, GST_CV_ROAD_META_API_TYPE
  };
  GstBuffer *buf = gst_buffer_new_allocate (NULL, W * H, NULL);
  GstBuffer *other = gst_buffer_new_allocate (NULL, W * H, NULL);
  GstCvLine newer[2] = { {1.0f, 0.5f, 7, 0, 0, 1, 1}, {2.0f, 0.5f, 6, 0, 0,
      1, 1}
  };

  add_all_metas (buf);
  add_all_metas (buf);
  for (guint i = 0; i < G_N_ELEMENTS (apis); i++)
    fail_unless_equals_int (count_metas (buf, apis[i]), 1);
  check_all_metas (buf);

  /* the newest result is the one found */
  gst_buffer_add_cv_lines_meta (buf, newer, 2);
  fail_unless_equals_int (count_metas (buf, GST_CV_LINES_META_API_TYPE), 1);
  fail_unless_equals_int (gst_buffer_get_cv_lines_meta (buf)->n_lines, 2);

  /* copying the metas onto a buffer that has them */
  add_all_metas (other);
  gst_buffer_copy_into (other, buf, GST_BUFFER_COPY_METADATA, 0, -1);
  for (guint i = 0; i < G_N_ELEMENTS (apis); i++)
    fail_unless_equals_int (count_metas (other, apis[i]), 1);
  fail_unless_equals_int (gst_buffer_get_cv_lines_meta (other)->n_lines, 2);
  gst_buffer_unref (other);
  gst_buffer_unref (buf);
}

GST_END_TEST;

GST_START_TEST (test_storage_too_small)
{
  GstCvStereoCalibration calib = { 1, 0, 0, 1 };
  GstBuffer *buf = gst_buffer_new ();
  GstBuffer *storage = gst_buffer_new_allocate (NULL, 16, NULL);

  fail_unless (gst_buffer_add_cv_disparity_meta (buf, storage, W, H, 0, 64,
          FALSE, &calib, NULL) == NULL);
  fail_unless (gst_buffer_get_cv_disparity_meta (buf) == NULL);
  gst_buffer_unref (storage);
  gst_buffer_unref (buf);
}

GST_END_TEST;

GST_START_TEST (test_through_pipeline)
{
  GstElement *pipeline, *src, *sink;
  GstBuffer *buf;
  GstSample *sample;
  GError *error = NULL;

  pipeline = gst_parse_launch ("appsrc name=src format=time caps="
      "video/x-raw,format=RGBA,width=37,height=11,framerate=30/1 ! queue ! "
      "videoconvert ! video/x-raw,format=I420 ! queue ! "
      "appsink name=sink sync=false", &error);
  fail_unless (pipeline != NULL, "%s", error ? error->message : "");
  src = gst_bin_get_by_name (GST_BIN (pipeline), "src");
  sink = gst_bin_get_by_name (GST_BIN (pipeline), "sink");

  fail_unless (gst_element_set_state (pipeline, GST_STATE_PLAYING) !=
      GST_STATE_CHANGE_FAILURE);
  buf = gst_buffer_new_allocate (NULL, W * 4 * H, NULL);
  gst_buffer_memset (buf, 0, 128, W * 4 * H);
  GST_BUFFER_PTS (buf) = 0;
  add_all_metas (buf);
  fail_unless_equals_int (gst_app_src_push_buffer (GST_APP_SRC (src), buf),
      GST_FLOW_OK);
  gst_app_src_end_of_stream (GST_APP_SRC (src));

  sample = gst_app_sink_pull_sample (GST_APP_SINK (sink));
  fail_unless (sample != NULL);
  check_all_metas (gst_sample_get_buffer (sample));
  gst_sample_unref (sample);

  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (src);
  gst_object_unref (sink);
  gst_object_unref (pipeline);
}

GST_END_TEST;

static Suite *
metas_suite (void)
{
  Suite *s = suite_create ("cudavision-metas");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_add_and_copy);
  tcase_add_test (tc, test_add_replaces);
  tcase_add_test (tc, test_storage_too_small);
  tcase_add_test (tc, test_through_pipeline);
  return s;
}

GST_CHECK_MAIN (metas);
