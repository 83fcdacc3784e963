/* Helpers of the reliability tests: pipelines run under a watchdog, every
 * output buffer's metas checked for consistency and digested (so a run can
 * be compared with a reference run frame by frame), buffers with
 * hand-made disparity metas, a property-hammering thread, and the
 * process' resident memory and open file descriptors.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef __REL_UTIL_H__
#define __REL_UTIL_H__

#include <gst/gst.h>
#include <gst/video/video.h>
#include <gst/cudavision/cudavision.h>

/* cv_test_quick, cv_test_under_cuda_tool: under compute-sanitizer the
 * cases run their reduced variant and wait longer */
#include "cv_test.h"

G_BEGIN_DECLS

/* Frame rate of every test stream: frame n has PTS n / REL_FPS s. */
#define REL_FPS 30

/* Takes "--checks NAME,NAME" off the command line and runs only those
 * GstCheck tests (GST_CHECKS), so one program can be several meson tests;
 * names also in GST_CHECKS_IGNORE are left out (GstCheck itself reads that
 * list only without GST_CHECKS). */
void rel_select_checks (gint * argc, gchar ** argv);

/* ---- hang detection ---------------------------------------------------- */

/* For the CPU programs, before their suite is made: every test in its own
 * process (check's fork mode).  A check that fails while a pipeline is live
 * then ends that process only (in one process the pipeline would go on
 * with the failed test's stack data), and check ends a test that takes
 * more than REL_TEST_TIMEOUT_S x rel_time_scale().  The GPU programs keep
 * CK_FORK=no: CUDA does not survive fork(); the CPU ones touch CUDA only
 * inside a test, after the fork. */
#define REL_TEST_TIMEOUT_S 300
void rel_isolate_tests (void);

/* TRUE under valgrind (its preload library is in LD_PRELOAD). */
gboolean rel_under_valgrind (void);

/* How much longer waits may take in this process: 40 under valgrind, 20
 * under compute-sanitizer, else 1.  Every deadline of these tests is
 * multiplied by it. */
guint rel_time_scale (void);

/* Aborts the process with "HANG: @what" when rel_watchdog_disarm() is not
 * called within @seconds (GstCheck's own timeouts need fork(), which CUDA
 * does not survive).  Not nested. */
void rel_watchdog_arm (guint seconds, const gchar * what);
void rel_watchdog_disarm (void);

/* ---- process resources ------------------------------------------------- */

/* VmRSS of this process, KiB (0 when /proc is not readable). */
guint64 rel_rss_kib (void);
/* Open file descriptors of this process (-1 when /proc is not readable). */
gint rel_open_fds (void);

/* Device bytes the loaded cudavision plugin holds through its core's
 * CvDeviceBuffers (the plugin carries its own copy of the core, so the
 * test's cv_device_bytes_in_use() would not see them); -1 when the plugin
 * or the symbol cannot be found (a build without CUDA). */
gint64 rel_plugin_device_bytes (void);

/* ---- metas ------------------------------------------------------------- */

/* Appends to @problems (when not NULL) every inconsistency of the
 * cudavision metas on @buffer (a frame of @width x @height): stixels that do
 * not tile their columns, non-finite values, lines out of order, rows or
 * columns outside the frame, unknown classes/flags, a disparity map of
 * another size or (with @check_disparity) out of its announced range.
 * Returns TRUE when none. */
gboolean rel_check_metas (GstBuffer * buffer, gint width, gint height,
    gboolean check_disparity, GString * problems);

/* A digest (hex) of every cudavision meta on @buffer and, with @pixels, of
 * the frame's bytes (@info describes the frame; system memory only). */
gchar *rel_digest (GstBuffer * buffer, const GstVideoInfo * info,
    gboolean pixels);

/* The kinds of cudavision metas on a buffer. */
typedef enum
{
  REL_META_DISPARITY = 1 << 0,
  REL_META_STIXELS = 1 << 1,
  REL_META_LINES = 1 << 2,
  REL_META_SEGMENTS = 1 << 3,
  REL_META_ROAD = 1 << 4,
} RelMetaKind;

/* The RelMetaKind bits of the cudavision metas on @buffer. */
guint rel_meta_kinds (GstBuffer * buffer);

/* ---- pipelines --------------------------------------------------------- */

/* One output buffer seen by the probe of the element named "sink". */
typedef struct
{
  GstClockTime pts;
  gint width, height;
  gchar *format;
  gchar *digest;
  guint metas;                  /* RelMetaKind bits */
  /* index of the first frame after the last event that makes a stateful
   * element start over (stream start, caps, flush) */
  gint history_start;
} RelFrame;

typedef struct
{
  /* result */
  gchar *error;                 /* NULL: EOS */
  gchar *debug;
  gchar *error_source;          /* name of the element that posted it */
  GArray *frames;               /* RelFrame, in arrival order */
  guint frames_before_flush;    /* frames that arrived before the last flush */
  gchar *first_problem;         /* first inconsistency of an output's metas */

  /*< private >*/
  GMutex lock;
  gboolean pixels;
  gboolean check_disparity;
  gboolean reset_pending;
  gint history_start;
  GstPad *probe_pad;            /* the sink's pad while attached */
  gulong probe_ids[2];
} RelRun;

/* Called with the pipeline still PLAYING (or in error) once the run ended,
 * before it is set to NULL. */
typedef void (*RelAtEnd) (GstElement * pipeline, gpointer user_data);

/* Flags of rel_run. */
typedef enum
{
  REL_RUN_DEFAULT = 0,
  REL_RUN_PIXELS = 1 << 0,      /* digest the frame bytes too */
  /* the disparity metas are the test's own (deliberately broken) input:
   * do not check their values */
  REL_RUN_INPUT_DISPARITY = 1 << 1,
} RelRunFlags;

/* Parses and runs @description to EOS or error (at most @timeout_s, else
 * the test fails), recording the buffers reaching the element named "sink"
 * (if any).  Teardown is watched as well. */
void rel_run (const gchar * description, guint timeout_s, RelRunFlags flags,
    RelAtEnd at_end, gpointer user_data, RelRun * run);
/* The same with an existing pipeline (not unreffed, left in NULL). */
void rel_run_pipeline (GstElement * pipeline, guint timeout_s,
    RelRunFlags flags, RelAtEnd at_end, gpointer user_data, RelRun * run);
void rel_run_clear (RelRun * run);

/* Installs the recording probe on @pipeline's "sink" element (for tests
 * that drive a pipeline themselves); rel_run_pipeline does it too. */
void rel_run_attach (RelRun * run, GstElement * pipeline, RelRunFlags flags);
guint rel_run_n_frames (RelRun * run);

/* A pipeline the test drives itself (seeks, state changes, stress). */
typedef struct
{
  GstElement *pipeline;
  GstBus *bus;
  RelRun run;
  gchar *what;
  gboolean eos;                 /* an EOS message was seen */
  guint32 eos_seqnum;           /* its seqnum */
} RelLive;

/* Parses @description and records its "sink" (the pipeline stays NULL). */
void rel_live_prepare (RelLive * live, const gchar * description,
    RelRunFlags flags, const gchar * what);
/* rel_live_prepare, then PLAYING. */
void rel_live_start (RelLive * live, const gchar * description,
    RelRunFlags flags, const gchar * what);
/* Waits until @n frames reached the sink (TRUE) or an EOS message came
 * (FALSE); an error or @timeout_s fail the test. */
gboolean rel_live_wait_frames (RelLive * live, guint n, guint timeout_s);
/* Waits for an error message (EOS or @timeout_s fail the test); fills
 * @live->run's error, debug and error_source. */
void rel_live_wait_error (RelLive * live, guint timeout_s);
/* Waits for an EOS message (an error or @timeout_s fail the test). */
void rel_live_wait_eos (RelLive * live, guint timeout_s);
/* Waits for the EOS message of the seek (or EOS event) with @seqnum: the
 * EOS of an earlier segment may still be on the bus. */
void rel_live_wait_eos_of (RelLive * live, guint32 seqnum, guint timeout_s);
/* Sets @state and waits until it is reached (a failure or a hang fail). */
void rel_live_set_state (RelLive * live, GstState state);
/* Sets the pipeline to NULL and frees it (the run stays in @live->run). */
void rel_live_stop (RelLive * live);
/* Frees what rel_live_stop left. */
void rel_live_clear (RelLive * live);
/* Largest frame index that reached the sink so far (-1: none). */
gint rel_live_max_index (RelLive * live);

/* Asserts that @run ended in an error whose message or debug text contains
 * @expected (case-insensitive) - the error must also name something: an
 * empty or generic message fails. */
void rel_assert_error (const RelRun * run, const gchar * what,
    const gchar * expected);
/* Asserts that @run reached EOS with consistent metas on every output. */
void rel_assert_eos (const RelRun * run, const gchar * what);

/* Runs @description and asserts an error mentioning @expected. */
void rel_expect_error (const gchar * description, const gchar * expected);
/* Runs @description, asserts EOS and consistent metas; returns the number
 * of output frames. */
guint rel_expect_eos (const gchar * description);

/* Frame index of a PTS (REL_FPS). */
gint rel_frame_index (GstClockTime pts);

/* Asserts that every frame of @run whose index is >= @from_index has the
 * digest the frame of the same index (and size) has in @reference. */
void rel_assert_frames_match (const RelRun * run, const RelRun * reference,
    gint from_index, const gchar * what);
typedef enum
{
  REL_MATCH_DEFAULT = 0,
  /* frames of a size the reference does not have are left out (e.g. the
   * transition frames of a renegotiation) */
  REL_MATCH_KNOWN_SIZES = 1 << 0,
  /* frames match only frames with the same history (stateful elements:
   * the output depends on the frames since the last start-over) */
  REL_MATCH_HISTORY = 1 << 1,
} RelMatchFlags;

void rel_assert_frames_match_full (const RelRun * run,
    const RelRun * reference, gint from_index, RelMatchFlags flags,
    const gchar * what);

/* ---- buffers with hand-made disparity ---------------------------------- */

/* Fills the disparity (fixed point, 1/16 px, negative = invalid) of pixel
 * (@x, @y) of a @width x @height map. */
typedef gint16 (*RelDisparityFn) (gint x, gint y, gint width, gint height,
    gpointer user_data);

/* A @format frame of @width x @height (grey, with a few edges) carrying a
 * host disparity meta of @disp_width x @disp_height from @fn, with @calib
 * (NULL: rel_default_calibration) and @max_disparity (px); no meta when @fn
 * is NULL; PTS from @index. */
GstBuffer *rel_buffer_with_disparity (GstVideoFormat format, gint width,
    gint height, gint disp_width, gint disp_height, RelDisparityFn fn,
    gpointer user_data, const GstCvStereoCalibration * calib,
    gint max_disparity, guint index);

/* A calibration that works for the test frames: f = width px, B = 0.5 m. */
void rel_default_calibration (gint width, gint height,
    GstCvStereoCalibration * calib);

/* A sample (buffer + caps) for appsrc. */
GstSample *rel_sample (GstBuffer * buffer, GstVideoFormat format, gint width,
    gint height);

/* "appsrc name=src ... ! @middle ! fakesink name=sink ...": the pipeline
 * rel_run_appsrc runs (free with g_free). */
gchar *rel_appsrc_description (const gchar * middle);

/* Runs `appsrc name=src ! @middle ! fakesink name=sink` pushing @samples
 * (taken) then EOS. */
void rel_run_appsrc (const gchar * middle, GPtrArray * samples,
    guint timeout_s, RelRunFlags flags, RelRun * run);

/* ---- property stress --------------------------------------------------- */

/* A mutable property and the values (strings as gst-launch takes them,
 * NULL-terminated; the first is used to settle) the stress cycles through. */
typedef struct
{
  const gchar *name;
  const gchar *values[5];
} RelStressProp;

typedef struct
{
  GstElement *element;
  const RelStressProp *props;
  guint32 seed;
  gint stop;
  guint64 n_sets;
  GThread *thread;
} RelStress;

/* Asserts that @props lists every writable GST_PARAM_MUTABLE_PLAYING
 * property of @element (so the stress covers properties added later). */
void rel_stress_assert_covers (GstElement * element,
    const RelStressProp * props);
/* Starts a thread that sets a random property of @props to one of its
 * values (and reads one back) as fast as it can. */
void rel_stress_start (RelStress * stress, GstElement * element,
    const RelStressProp * props, guint32 seed);
/* Stops it; returns the number of g_object_set calls made. */
guint64 rel_stress_stop (RelStress * stress);
/* Sets every property of @props to its first value. */
void rel_stress_settle (GstElement * element, const RelStressProp * props);
/* " name=value ..." of the first values, for a reference description. */
gchar *rel_stress_settled_string (const RelStressProp * props);

G_END_DECLS
#endif /* __REL_UTIL_H__ */
