/* Accuracy of cudasgm through the element: stereotestsrc with
 * attach-disparity=true gives the exact disparity of the left view on the
 * INPUT buffer; a probe on cudasgm's sink pad keeps it, and cudasgm's
 * output (the left view with its own disparity meta) is scored against it:
 * bad-2 (invalid or off by more than 2 px) on the pixels that are neither
 * occluded in the right view nor sky must be <= 3 %.  The occlusion and
 * sky masks come from rendering the same scene with cv_scene (the test
 * first checks that its render gives stereotestsrc's ground truth).
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gst/check/gstcheck.h>
#include <math.h>
#include <string.h>

#include "cvtestutil.h"
#include "sgm_element_util.h"

/* The scene stereotestsrc renders (its properties below). */
#define VIEW_W 400
#define VIEW_H 240
#define SCENE_SEED 3
#define SCENE_BOXES 6
#define SCENE_SPEED 1.5         /* m per frame */
#define SCENE_SUPERSAMPLE 2
#define FRAMES 3

/* The bound on the synthetic scenes, and the error threshold. */
#define MAX_BAD2_PERCENT 3.0
#define BAD_THRESHOLD_PX 2.0

typedef struct
{
  GHashTable *truth;            /* buffer offset -> gint16[VIEW_W * VIEW_H] */
} Truth;

/* Runs in the streaming thread: no assertions here (score () reports a
 * frame without saved truth). */
static GstPadProbeReturn
keep_truth (GstPad * pad, GstPadProbeInfo * info, gpointer data)
{
  Truth *truth = data;
  GstBuffer *buffer = GST_PAD_PROBE_INFO_BUFFER (info);
  GstCvDisparityMeta *meta = gst_buffer_get_cv_disparity_meta (buffer);
  GstCvDisparityMapping m;
  gint16 *copy;

  if (meta == NULL || meta->width != VIEW_W || meta->height != VIEW_H
      || !gst_cv_disparity_meta_map (meta, GST_MAP_READ, &m))
    return GST_PAD_PROBE_OK;
  copy = g_new (gint16, VIEW_W * VIEW_H);
  for (gint y = 0; y < VIEW_H; y++)
    memcpy (copy + y * VIEW_W, (guint8 *) m.disparity +
        y * m.disparity_stride, VIEW_W * sizeof (gint16));
  gst_cv_disparity_meta_unmap (meta, &m);
  g_hash_table_insert (truth->truth,
      GUINT_TO_POINTER ((guint) GST_BUFFER_OFFSET (buffer)), copy);
  return GST_PAD_PROBE_OK;
}

static void
add_probe (GstElement * pipeline, gpointer data)
{
  GstElement *sgm = gst_bin_get_by_name (GST_BIN (pipeline), "sgm");
  GstPad *pad = gst_element_get_static_pad (sgm, "sink");

  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, keep_truth, data, NULL);
  gst_object_unref (pad);
  gst_object_unref (sgm);
}

/* Scores one output buffer; returns bad-2 in percent. */
static gdouble
score (GstBuffer * out, Truth * truth, const gchar * what)
{
  guint frame = (guint) GST_BUFFER_OFFSET (out);
  const gint16 *gt = g_hash_table_lookup (truth->truth,
      GUINT_TO_POINTER (frame));
  GstCvDisparityMeta *meta = gst_buffer_get_cv_disparity_meta (out);
  gint16 *d = g_new (gint16, VIEW_W * VIEW_H);
  SgmTestScene scene;
  guint64 n = 0, bad1 = 0, bad2 = 0, invalid = 0, gt_mismatch = 0;
  gdouble bad2_percent;

  fail_unless (gt != NULL, "%s: no ground truth saved for frame %u", what,
      frame);
  fail_unless (meta != NULL, "%s: no disparity meta on the output", what);
  fail_unless (meta->has_confidence, "%s: the output meta is not cudasgm's",
      what);
  sgm_test_meta_data (meta, d, NULL);

  sgm_test_scene_render (&scene, VIEW_W, VIEW_H, SCENE_BOXES, SCENE_SEED,
      (gfloat) (frame * SCENE_SPEED), SCENE_SUPERSAMPLE);
  for (gint i = 0; i < VIEW_W * VIEW_H; i++) {
    gfloat truth_px = scene.disparity[i];
    gdouble error;

    /* our render is the scene stereotestsrc rendered */
    if (gt[i] != (gint16) lrintf (truth_px * 16.0f))
      gt_mismatch++;
    if (scene.occluded[i] || scene.labels[i] == CV_SCENE_SKY)
      continue;
    n++;
    if (d[i] < 0) {
      invalid++;
      bad1++;
      bad2++;
      continue;
    }
    error = fabs (d[i] / 16.0 - truth_px);
    bad1 += error > 1.0;
    bad2 += error > BAD_THRESHOLD_PX;
  }
  fail_unless (gt_mismatch == 0, "%s frame %u: %" G_GUINT64_FORMAT " pixels "
      "of the re-rendered scene differ from stereotestsrc's ground truth",
      what, frame, gt_mismatch);
  fail_unless (n > VIEW_W * VIEW_H / 4, "%s: only %" G_GUINT64_FORMAT
      " scored pixels", what, n);
  bad2_percent = 100.0 * bad2 / n;
  g_print ("%-24s frame %u: bad-1 %5.2f %%, bad-2 %5.2f %% (invalid %5.2f "
      "%%) of %" G_GUINT64_FORMAT " non-occluded, non-sky pixels\n", what,
      frame, 100.0 * bad1 / n, bad2_percent, 100.0 * invalid / n, n);
  sgm_test_scene_clear (&scene);
  g_free (d);
  return bad2_percent;
}

static void
check_accuracy (const gchar * format, gboolean top_bottom)
{
  Truth truth;
  gchar *desc = g_strdup_printf ("stereotestsrc num-buffers=%d seed=%u "
      "boxes=%d speed=%g supersample=%d attach-disparity=true layout=%s ! "
      "video/x-raw,format=%s,width=%d,height=%d ! "
      "cudasgm name=sgm max-disparity=64 ! appsink name=sink sync=false",
      FRAMES, SCENE_SEED, SCENE_BOXES, SCENE_SPEED, SCENE_SUPERSAMPLE,
      top_bottom ? "top-bottom" : "side-by-side", format,
      top_bottom ? VIEW_W : 2 * VIEW_W, top_bottom ? 2 * VIEW_H : VIEW_H);
  gchar *what = g_strdup_printf ("%s %s", format,
      top_bottom ? "top-bottom" : "side-by-side");
  GList *buffers;

  truth.truth = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  buffers = sgm_test_collect_full (desc, add_probe, &truth);
  fail_unless_equals_int (g_list_length (buffers), FRAMES);
  for (GList * l = buffers; l != NULL; l = l->next) {
    gdouble bad2 = score (l->data, &truth, what);

    fail_unless (bad2 <= MAX_BAD2_PERCENT, "%s frame %u: bad-2 %.2f %% > "
        "%.1f %%", what, (guint) GST_BUFFER_OFFSET (l->data), bad2,
        MAX_BAD2_PERCENT);
  }
  g_list_free_full (buffers, (GDestroyNotify) gst_buffer_unref);
  g_hash_table_unref (truth.truth);
  g_free (desc);
  g_free (what);
}

GST_START_TEST (test_accuracy_side_by_side_rgba)
{
  check_accuracy ("RGBA", FALSE);
}

GST_END_TEST;

GST_START_TEST (test_accuracy_top_bottom_nv12)
{
  check_accuracy ("NV12", TRUE);
}

GST_END_TEST;

GST_START_TEST (test_accuracy_side_by_side_gray8)
{
  check_accuracy ("GRAY8", FALSE);
}

GST_END_TEST;

static void
teardown (void)
{
  cv_test_stop_all ();
}

static Suite *
cudasgm_accuracy_suite (void)
{
  Suite *s = suite_create ("cudasgm-accuracy");
  TCase *tc = tcase_create ("general");

  tcase_set_timeout (tc, 240);
  tcase_add_checked_fixture (tc, NULL, teardown);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_accuracy_side_by_side_rgba);
  tcase_add_test (tc, test_accuracy_top_bottom_nv12);
  tcase_add_test (tc, test_accuracy_side_by_side_gray8);
  return s;
}

GST_CHECK_MAIN (cudasgm_accuracy);
