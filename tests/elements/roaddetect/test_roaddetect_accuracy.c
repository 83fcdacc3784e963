/* cudaroaddetect accuracy on the CPU backend: synthetic driving sequences
 * (tests/unit/road/road_sequence.h: cv_scene frames, ground-truth disparity
 * with rough off-road ground, ground-truth labels) pushed through
 * `appsrc ! [videoconvert !] cudaroaddetect ! appsink`, scored per frame at
 * patch level from the road meta.
 *
 *   drift   30 frames, illumination 1.0 -> 0.6 -> 1.05; three detectors on
 *           the same frames: RGBA with the scene's pose, NV12 (through
 *           videoconvert) with the scene's pose, RGBA with estimate-camera
 *   change  70 frames, grey asphalt turning into a dirt road (the new colour
 *           enters the 10 m training range at frame 40)
 *
 * After a 10-frame warm-up: mean IoU >= 0.90 and mean false-positive rate
 * <= 5 % for every run; for the colour change also IoU >= 0.85 in every
 * frame from 20 frames after the change on; with estimate-camera the
 * estimated pose within 5 cm and 5 mrad of the scene's in every frame.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gst/check/gstcheck.h>
#include <math.h>

#include "cvtestutil.h"
#include "roadtestutil.h"

#define W 640
#define H 480
#define WARM_UP_FRAMES 10
#define RECOVERY_FRAMES 20
#define TARGET_MEAN_IOU 0.90
#define TARGET_MEAN_FPR 0.05
#define TARGET_MIN_IOU 0.85
#define POSE_HEIGHT_TOLERANCE_M 0.05
#define POSE_PITCH_TOLERANCE_RAD 0.005

typedef struct
{
  const gchar *name;
  RoadRun *run;
  gboolean estimate;
  gdouble sum_iou, sum_fpr, min_iou, min_iou_after;
  gint counted, change;
  gchar *failure;               /* first failed per-frame check */
} Scored;

static void
score_frame (Scored * sc, RoadSequence * seq, gint f, gint change)
{
  GstBuffer *out = road_run_push (sc->run, road_frame_buffer (seq, f, 1, TRUE),
      NULL);
  GstCvRoadMeta *m;
  guint8 *classes;
  RoadScore score;

  fail_unless (out != NULL, "%s: no output for frame %d", sc->name, f);
  m = gst_buffer_get_cv_road_meta (out);
  fail_unless (m != NULL, "%s: no road meta on frame %d", sc->name, f);
  classes = road_meta_classes (m);
  road_sequence_score (seq, classes, m->grid_cols, m->grid_rows,
      m->patch_size, &score);
  GST_INFO ("%s %2d: IoU %.3f FPR %.4f TPR %.3f models %u", sc->name, f,
      score.iou, score.fpr, score.tpr, m->n_models);

  if (sc->estimate) {
    GList *msgs = road_run_messages (sc->run);
    gdouble height, pitch;
    gboolean ok;

    fail_unless_equals_int (g_list_length (msgs), 1);
    fail_unless (gst_structure_get_double (msgs->data, "camera-height",
            &height));
    fail_unless (gst_structure_get_double (msgs->data, "camera-pitch",
            &pitch));
    fail_unless (gst_structure_get_boolean (msgs->data, "camera-estimated",
            &ok));
    GST_INFO ("%s %2d: camera %.4f m, %.5f rad (%s)", sc->name, f, height,
        pitch, ok ? "estimated" : "prior");
    if (sc->failure == NULL && (!ok
            || fabs (height - seq->scene.pose.height) >= POSE_HEIGHT_TOLERANCE_M
            || fabs (pitch - seq->scene.pose.pitch) >= POSE_PITCH_TOLERANCE_RAD))
      sc->failure = g_strdup_printf ("frame %d: camera %.3f m %.4f rad (%s), "
          "scene %.3f m %.4f rad", f, height, pitch, ok ? "estimated" :
          "estimate failed", seq->scene.pose.height, seq->scene.pose.pitch);
    g_list_free_full (msgs, (GDestroyNotify) gst_structure_free);
  }

  if (f >= WARM_UP_FRAMES) {
    sc->sum_iou += score.iou;
    sc->sum_fpr += score.fpr;
    sc->min_iou = MIN (sc->min_iou, score.iou);
    sc->counted++;
    if (change >= 0 && f >= change + RECOVERY_FRAMES)
      sc->min_iou_after = MIN (sc->min_iou_after, score.iou);
  }
  g_free (classes);
  gst_buffer_unref (out);
}

static void
report (const Scored * sc)
{
  gdouble iou = sc->sum_iou / sc->counted, fpr = sc->sum_fpr / sc->counted;

  g_print ("%s: mean IoU %.3f, mean FPR %.4f, min IoU %.3f over frames %d.."
      "%d", sc->name, iou, fpr, sc->min_iou, WARM_UP_FRAMES,
      WARM_UP_FRAMES + sc->counted - 1);
  if (sc->change >= 0)
    g_print ("; colour change at frame %d, min IoU from frame %d on %.3f",
        sc->change, sc->change + RECOVERY_FRAMES, sc->min_iou_after);
  g_print ("\n");
  fail_unless (sc->failure == NULL, "%s: %s", sc->name, sc->failure);
  fail_unless (iou >= TARGET_MEAN_IOU, "%s: mean IoU %.3f < %.2f", sc->name,
      iou, TARGET_MEAN_IOU);
  fail_unless (fpr <= TARGET_MEAN_FPR, "%s: mean FPR %.4f > %.2f", sc->name,
      fpr, TARGET_MEAN_FPR);
  fail_unless (sc->min_iou_after >= TARGET_MIN_IOU, "%s: IoU %.3f < %.2f "
      "after the colour change", sc->name, sc->min_iou_after, TARGET_MIN_IOU);
}

GST_START_TEST (test_drift)
{
  RoadSequenceSpec spec;
  RoadSequence seq;
  gchar *pose, *rgba, *nv12;
  Scored runs[3] = {
    {"drift RGBA"}, {"drift NV12"}, {"drift RGBA estimate-camera"}
  };

  road_sequence_spec_init (&spec);
  spec.n_frames = 30;
  spec.illumination_start = 1.0f;
  spec.illumination_low = 0.6f;
  spec.illumination_end = 1.05f;
  spec.seed = 3;
  road_sequence_init (&seq, &spec);
  pose = road_pose_properties (&seq);
  rgba = g_strdup_printf ("cudaroaddetect name=road %s", pose);
  nv12 = g_strdup_printf ("videoconvert ! video/x-raw,format=NV12 ! "
      "cudaroaddetect name=road %s", pose);
  runs[0].run = road_run_start (rgba, W, H);
  runs[1].run = road_run_start (nv12, W, H);
  /* default pose properties (1.65 m, 0 rad): only the estimate knows the
   * scene's 0.02 rad pitch */
  runs[2].run = road_run_start ("cudaroaddetect name=road estimate-camera=true "
      "post-messages=true", W, H);
  runs[2].estimate = TRUE;
  for (gint k = 0; k < 3; k++) {
    runs[k].min_iou = runs[k].min_iou_after = 1.0;
    runs[k].change = -1;
  }

  for (gint f = 0; f < spec.n_frames; f++) {
    road_sequence_render (&seq, f);
    for (gint k = 0; k < 3; k++)
      score_frame (&runs[k], &seq, f, -1);
  }
  /* stop before judging: a failure leaves no streaming thread behind */
  for (gint k = 0; k < 3; k++)
    road_run_stop (runs[k].run);
  for (gint k = 0; k < 3; k++)
    report (&runs[k]);
  road_sequence_clear (&seq);
  g_free (pose);
  g_free (rgba);
  g_free (nv12);
}

GST_END_TEST;

GST_START_TEST (test_colour_change)
{
  RoadSequenceSpec spec;
  RoadSequence seq;
  gchar *pose, *middle;
  gint change;
  Scored run = { "colour change RGBA" };

  road_sequence_spec_init (&spec);
  spec.n_frames = 70;
  spec.color_change_z = 30.0f;
  spec.seed = 4;
  road_sequence_init (&seq, &spec);
  change = road_sequence_change_frame (&seq, 10.0f);
  fail_unless (change > WARM_UP_FRAMES && change + RECOVERY_FRAMES <
      spec.n_frames);
  pose = road_pose_properties (&seq);
  middle = g_strdup_printf ("cudaroaddetect name=road %s", pose);
  run.run = road_run_start (middle, W, H);
  run.min_iou = run.min_iou_after = 1.0;
  run.change = change;
  for (gint f = 0; f < spec.n_frames; f++) {
    road_sequence_render (&seq, f);
    score_frame (&run, &seq, f, change);
  }
  road_run_stop (run.run);
  report (&run);
  road_sequence_clear (&seq);
  g_free (pose);
  g_free (middle);
}

GST_END_TEST;

static Suite *
roaddetect_accuracy_suite (void)
{
  Suite *s = suite_create ("cudaroaddetect-accuracy");
  TCase *tc = tcase_create ("general");

  tcase_set_timeout (tc, 240);
  tcase_add_checked_fixture (tc, NULL, cv_test_stop_all);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_drift);
  tcase_add_test (tc, test_colour_change);
  return s;
}

GST_CHECK_MAIN (roaddetect_accuracy);
