/* rdp-cpu: the CPU reference against an independent naive RDP and against
 * RDP's defining properties, on every input kind and column length.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cv_rdp_math.h"
#include "cv_rdp_private.h"
#include "cv_rdp_wire.h"
#include "cv_test.h"
#include "cv_test_expect.h"
#include "rdp_test_support.h"

/* A one-column image from @values (1/16 px, negative = invalid). */
static CvImageS16 *
column_image (const int16_t * values, int n)
{
  CvImageS16 *img = rdp_image_new (1, n, 6);
  for (int y = 0; y < n; y++)
    CV_ROW (img, y)[0] = values[y];
  return img;
}

static void
expect_cuts (const int16_t * values, int n, float epsilon,
    const int32_t * rows, int n_rows, int levels, const char *what)
{
  CvRdpParams p;
  CvRdpResult r;
  CvError err = { 0 };
  CvImageS16 *img = column_image (values, n);
  CvRdpCpu *cpu = cv_rdp_cpu_new ();

  cv_rdp_params_init (&p);
  p.median_window = 0;
  p.epsilon = epsilon;
  EXPECT (cv_rdp_cpu_compute (cpu, &p, img, 1, &err) == CV_OK, "%s: %s", what,
      err.message);
  cv_rdp_cpu_result (cpu, &r);
  EXPECT (r.cut_offsets[1] == n_rows, "%s: %d cuts, expected %d", what,
      r.cut_offsets[1], n_rows);
  for (int i = 0; i < MIN (n_rows, r.cut_offsets[1]); i++)
    EXPECT (r.cut_rows[i] == rows[i], "%s: cut %d at row %d, expected %d", what,
        i, r.cut_rows[i], rows[i]);
  EXPECT (r.levels[0] == levels, "%s: %d levels, expected %d", what,
      r.levels[0], levels);
  cv_rdp_cpu_free (cpu);
  rdp_image_free (img);
}

/* Hand-computed cases, including the tie rule. */
static void
test_known_columns (void)
{
  {
    const int16_t v[] = { 0, 0, 160, 0, 0 };
    const int32_t cuts[] = { 0, 2, 4 };
    expect_cuts (v, 5, 6.0f, cuts, 3, 2, "peak");
  }
  {
    /* rows 1 and 3 are equally far from the chord 0-4: the lowest row wins;
     * then [1, 4] has rows 2 and 3 equally far: row 2 wins */
    const int16_t v[] = { 0, 160, 0, 160, 0 };
    const int32_t cuts[] = { 0, 1, 2, 3, 4 };
    expect_cuts (v, 5, 4.0f, cuts, 5, 3, "ties");
  }
  {
    /* a sample exactly epsilon away is within tolerance (D > T splits) */
    const int16_t v[] = { 0, 64, 0 };
    const int32_t cuts[] = { 0, 2 };
    expect_cuts (v, 3, 4.0f, cuts, 2, 1, "exactly epsilon");
  }
  {
    const int16_t v[] = { 0, 65, 0 };
    const int32_t cuts[] = { 0, 1, 2 };
    expect_cuts (v, 3, 4.0f, cuts, 3, 1, "just beyond epsilon");
  }
  {
    /* invalid samples split runs; runs of 1 and 2 samples; no interior */
    const int16_t v[] = { -1, 100, -16, 100, 200, -1, -1, 7 };
    const int32_t cuts[] = { 1, 3, 4, 7 };
    expect_cuts (v, 8, 4.0f, cuts, 4, 0, "short runs");
  }
  {
    const int16_t v[] = { -1, -1, -1 };
    expect_cuts (v, 3, 4.0f, NULL, 0, 0, "all invalid");
  }
  {
    const int16_t v[] = { 5 };
    const int32_t cuts[] = { 0 };
    expect_cuts (v, 1, 4.0f, cuts, 1, 0, "one sample");
  }
}

/* RDP's result is greedy, not minimal: the "removing any cut breaks
 * the tolerance" holds for leaf cuts only.  Values (px) 0 2.5 5 7.5 10 11 10
 * 7.5 5 2.5 0, epsilon 1 px: cuts 0 4 5 6 10, and without cut 5 the chord
 * 4-6 is exactly 1 px from row 5 (within tolerance). */
static void
test_greedy_not_minimal (void)
{
  const int16_t v[] = { 0, 40, 80, 120, 160, 176, 160, 120, 80, 40, 0 };
  const int32_t cuts[] = { 0, 4, 5, 6, 10 };
  CvRdpParams p;
  CvRdpResult r;
  CvImageS16 *img = column_image (v, 11);
  CvRdpCpu *cpu = cv_rdp_cpu_new ();
  RdpNaive *nv;
  int removable = -1;

  expect_cuts (v, 11, 1.0f, cuts, 5, 3, "greedy counterexample");
  cv_rdp_params_init (&p);
  p.median_window = 0;
  p.epsilon = 1.0f;
  EXPECT (cv_rdp_cpu_compute (cpu, &p, img, 1, NULL) == CV_OK, "compute");
  cv_rdp_cpu_result (cpu, &r);
  nv = rdp_naive_compute (&p, img);
  EXPECT (rdp_check_properties (nv, &p, &r, "greedy counterexample",
          &removable), "properties");
  EXPECT (removable == 1, "expected exactly one removable cut (row 5), got %d",
      removable);
  rdp_naive_free (nv);
  cv_rdp_cpu_free (cpu);
  rdp_image_free (img);
}

/* cv_rdp_median3 (min/max form, used by both backends) is the rank
 * selection cv_rdp_median for 3 samples around a valid centre: every
 * combination of a small range with ties, invalid neighbours and the
 * extremes of the fixed-point range. */
static void
test_median3 (void)
{
  static const int32_t values[] = { CV_RDP_INVALID_S32, -7, 0, 1, 2, 3, 5,
    16, 32766, 32767
  };
  const int nv = (int) (sizeof (values) / sizeof (values[0]));
  int mismatches = 0;

  for (int i = 0; i < nv; i++)
    for (int j = 0; j < nv; j++)
      for (int k = 0; k < nv; k++) {
        const int32_t w[3] = { values[i], values[j], values[k] };
        if (w[1] < 0)
          continue;             /* the filter keeps invalid centres */
        if (cv_rdp_median3 (w[0], w[1], w[2]) != cv_rdp_median (w, 3)) {
          if (mismatches++ < 5)
            g_printerr ("median3 (%d, %d, %d) = %d, rank selection %d\n",
                w[0], w[1], w[2], cv_rdp_median3 (w[0], w[1], w[2]),
                cv_rdp_median (w, 3));
        }
      }
  EXPECT (mismatches == 0, "cv_rdp_median3 differs from cv_rdp_median in %d "
      "windows", mismatches);
}

/* The library's float distance is the unfused sequence of cv_rdp_math.h:
 * each product and sum rounded to float.  Reference: the double result of
 * one operation on floats, rounded to float, is the correctly rounded float
 * result (double has more than 2 * 24 + 2 bits), so no FMA is involved. */
static void
test_no_fp_contraction (void)
{
  guint32 s = 4242;
  int mismatches = 0;

  for (int i = 0; i < 200000; i++) {
    float ya = (float) (cv_test_rand (&s) % 100000) / 977.0f;
    float yb = (float) (cv_test_rand (&s) % 100000) / 613.0f;
    float yr = (float) (cv_test_rand (&s) % 100000) / 419.0f;
    int32_t a = (int32_t) (cv_test_rand (&s) % 1000);
    int32_t b = a + 2 + (int32_t) (cv_test_rand (&s) % 15000);
    int32_t r = a + 1 + (int32_t) (cv_test_rand (&s) % (uint32_t) (b - a - 1));
    float p = (float) ((double) ya * (double) (float) (b - r));
    float q = (float) ((double) yb * (double) (float) (r - a));
    float sum = (float) ((double) p + (double) q);
    float t = (float) ((double) yr * (double) (float) (b - a));
    float expect = fabsf ((float) ((double) sum - (double) t));
    float got = cv_rdp_distance_f32_compiled (ya, yb, yr, a, b, r);
    if (memcmp (&expect, &got, sizeof (float)) != 0 && mismatches++ < 5)
      g_printerr ("distance(%a, %a, %a, %d, %d, %d) = %a, unfused %a\n",
          (double) ya, (double) yb, (double) yr, a, b, r, (double) got,
          (double) expect);
  }
  EXPECT (mismatches == 0, "%d float distances differ from the unfused "
      "definition: the host build contracts to FMA", mismatches);
}

static void
expect_invalid (CvRdpParams * p, int w, int h, const char *what)
{
  CvError err = { 0 };
  CvStatus st = cv_rdp_params_validate (p, w, h, &err);
  EXPECT (st == CV_ERROR_INVALID_ARGUMENT && err.message[0] != '\0',
      "%s: expected an invalid-argument error, got %s", what,
      cv_status_name (st));
}

static void
test_validation (void)
{
  CvRdpParams p;
  CvError err = { 0 };
  CvRdpCpu *cpu = cv_rdp_cpu_new ();
  CvImageS16 *img = rdp_image_new (4, 4, 0);

  cv_rdp_params_init (&p);
  EXPECT (p.epsilon == 4.0f && p.median_window == 3 && p.column_step == 1
      && p.signal == CV_RDP_SIGNAL_DISPARITY, "defaults");
  EXPECT (cv_rdp_params_validate (&p, 1242, 375, &err) == CV_OK, "%s",
      err.message);
  p.epsilon = -1;
  expect_invalid (&p, 10, 10, "negative epsilon");
  p.epsilon = NAN;
  expect_invalid (&p, 10, 10, "NaN epsilon");
  p.epsilon = 5000;
  expect_invalid (&p, 10, 10, "huge disparity epsilon");
  cv_rdp_params_init (&p);
  p.median_window = 4;
  expect_invalid (&p, 10, 10, "median 4");
  cv_rdp_params_init (&p);
  p.column_step = 0;
  expect_invalid (&p, 10, 10, "column step 0");
  cv_rdp_params_init (&p);
  p.signal = (CvRdpSignal) 7;
  expect_invalid (&p, 10, 10, "signal 7");
  cv_rdp_params_init (&p);
  p.signal = CV_RDP_SIGNAL_DEPTH;
  expect_invalid (&p, 10, 10, "depth without calibration");
  p.calib.focal_length = 700;
  p.calib.baseline = 0.5f;
  EXPECT (cv_rdp_params_validate (&p, 10, 10, NULL) == CV_OK, "depth ok");
  p.max_depth = -1;
  expect_invalid (&p, 10, 10, "negative max depth");
  cv_rdp_params_init (&p);
  expect_invalid (&p, 10, 0, "height 0");
  expect_invalid (&p, 10, CV_RDP_MAX_HEIGHT + 1, "height above maximum");
  expect_invalid (&p, 0, 10, "width 0");
  EXPECT (cv_rdp_cpu_compute (cpu, &p, img, 0, &err) ==
      CV_ERROR_INVALID_ARGUMENT, "0 threads");
  img->stride = 6;
  cv_error_clear (&err);
  EXPECT (cv_rdp_cpu_compute (cpu, &p, img, 1, &err) ==
      CV_ERROR_INVALID_ARGUMENT, "stride below width");
  EXPECT (cv_rdp_output_columns (&p, 1242) == 1242, "columns k=1");
  p.column_step = 4;
  EXPECT (cv_rdp_output_columns (&p, 1242) == 311, "columns k=4");
  rdp_image_free (img);
  cv_rdp_cpu_free (cpu);
}

/* One input through the CPU reference (1 and 3 threads) and the naive. */
static gboolean
run_case (RdpInputKind kind, int w, int h, const CvRdpParams * p, guint32 seed,
    int *removable_total)
{
  char label[160];
  CvImageS16 *img = rdp_image_new (w, h, 2 * (int) (seed % 5));
  CvRdpCpu *one = cv_rdp_cpu_new (), *three = cv_rdp_cpu_new ();
  CvRdpResult r1, r3;
  CvError err = { 0 };
  RdpNaive *nv;
  gboolean ok = TRUE;
  int removable = 0;

  g_snprintf (label, sizeof (label), "%s %dx%d eps %g %s median %d step %d%s "
      "seed %u", rdp_input_name (kind), w, h, (double) p->epsilon,
      p->signal == CV_RDP_SIGNAL_DEPTH ? "depth" : "disparity",
      p->median_window, p->column_step,
      p->column_mode == CV_RDP_COLUMNS_MEAN ? " mean" : "", seed);
  rdp_image_fill (img, kind, seed);
  if (cv_rdp_cpu_compute (one, p, img, 1, &err) != CV_OK
      || cv_rdp_cpu_compute (three, p, img, 3, &err) != CV_OK) {
    g_printerr ("%s: %s\n", label, err.message);
    ok = FALSE;
  } else {
    cv_rdp_cpu_result (one, &r1);
    cv_rdp_cpu_result (three, &r3);
    nv = rdp_naive_compute (p, img);
    ok = nv != NULL
        && rdp_results_equal (&nv->result, &r1, "naive", "cpu", label)
        && rdp_results_equal (&r1, &r3, "cpu-1-thread", "cpu-3-threads", label)
        && rdp_check_properties (nv, p, &r1, label, &removable);
    rdp_naive_free (nv);
  }
  *removable_total += removable;
  if (!ok)
    failures++;
  cv_rdp_cpu_free (one);
  cv_rdp_cpu_free (three);
  rdp_image_free (img);
  return ok;
}

/* Decodes a one-column wire form of @n cut words (rows 0..9) into @flat;
 * returns the status. */
static CvStatus
decode_column (const uint16_t * words, int n, CvRdpFlat * flat,
    CvRdpResult * r, CvError * err)
{
  CvRdpSetup setup = { 0 };
  int16_t values[16] = { 0 };
  uint16_t count = (uint16_t) n, levels = 1;
  CvRdpWire wire = { &count, &levels, (uint16_t *) words, values };

  setup.signal = CV_RDP_SIGNAL_DISPARITY;
  setup.n_columns = 1;
  setup.height = 10;
  setup.column_step = 1;
  for (int i = 0; i < n; i++)
    values[i] = (int16_t) (16 * i + 8);
  cv_error_clear (err);
  return cv_rdp_wire_decode (&wire, &setup, flat, r, NULL, err);
}

/* The compact device -> host form (cv_rdp_wire.h): gaps rebuilt from the
 * cut flags, values converted back exactly, broken forms refused. */
static void
test_wire_decode (void)
{
  const uint16_t F = CV_RDP_WIRE_GAP_FOLLOWS;
  static const struct
  {
    uint16_t words[4];
    int n, n_gaps;
    CvRdpGap gaps[3];
  } ok[] = {
    {{2 | 0x8000, 5, 9}, 3, 2, {{0, 1}, {3, 4}}},
    {{0}, 0, 1, {{0, 9}}},
    {{0, 9}, 2, 0, {{0, 0}}},
    {{4 | 0x8000}, 1, 2, {{0, 3}, {5, 9}}},
    {{0 | 0x8000, 9}, 2, 1, {{1, 8}}},
  };
  const uint16_t broken[][3] = {
    {5, 3, 9}, {2, 10, 9}, {2 | F, 3, 9}, {0, 2, 5}, {0, 5, 9 | F},
  };
  CvRdpFlat flat = { 0 };
  CvRdpResult r;
  CvError err = { 0 };

  for (guint c = 0; c < G_N_ELEMENTS (ok); c++) {
    EXPECT (decode_column (ok[c].words, ok[c].n, &flat, &r, &err) == CV_OK,
        "wire case %u: %s", c, err.message);
    if (r.n_columns != 1)
      continue;
    EXPECT (r.cut_offsets[1] == ok[c].n && r.gap_offsets[1] == ok[c].n_gaps,
        "wire case %u: %d cuts, %d gaps", c, r.cut_offsets[1],
        r.gap_offsets[1]);
    for (int i = 0; i < MIN (ok[c].n_gaps, r.gap_offsets[1]); i++)
      EXPECT (r.gaps[i].start == ok[c].gaps[i].start
          && r.gaps[i].end == ok[c].gaps[i].end,
          "wire case %u: gap %d is %d..%d", c, i, r.gaps[i].start,
          r.gaps[i].end);
    for (int i = 0; i < MIN (ok[c].n, r.cut_offsets[1]); i++)
      EXPECT (r.cut_rows[i] == (int32_t) (ok[c].words[i] & CV_RDP_WIRE_ROW_MASK)
          && r.cut_values[i] == (float) i + 0.5f,
          "wire case %u: cut %d is row %d value %g", c, i, r.cut_rows[i],
          (double) r.cut_values[i]);
  }
  for (guint c = 0; c < G_N_ELEMENTS (broken); c++)
    EXPECT (decode_column (broken[c], 3, &flat, &r, &err) ==
        CV_ERROR_INVALID_ARGUMENT && strstr (err.message, "corrupt")
        && r.cut_rows == NULL, "broken wire case %u decoded", c);
  EXPECT (cv_rdp_disparity_q (cv_rdp_disparity_px (32767)) == 32767
      && cv_rdp_disparity_q (cv_rdp_disparity_px (1)) == 1,
      "fixed point does not round-trip");
  cv_rdp_flat_clear (&flat);
}

static void
test_suite (void)
{
  static const int heights[] = { 1, 2, 3, 4, 5, 31, 32, 33, 64, 375, 1023,
    1024, 1025, 4096
  };
  int cases = 0, removable = 0;
  guint32 seed = 1;

  for (int k = 0; k < RDP_N_INPUTS; k++) {
    for (guint hi = 0; hi < G_N_ELEMENTS (heights); hi++) {
      for (int ps = 0; ps < RDP_N_PARAM_SETS; ps++) {
        CvRdpParams p;
        int h = heights[hi];
        int w = h >= 1024 ? 2 + (int) (seed % 3) : 3 + (int) (seed % 6);
        rdp_params_set (&p, ps);
        run_case ((RdpInputKind) k, w, h, &p, seed++, &removable);
        cases++;
      }
    }
  }
  /* the tallest columns, a few kinds */
  {
    CvRdpParams p;
    rdp_params_set (&p, 0);
    run_case (RDP_INPUT_STREET, 2, CV_RDP_MAX_HEIGHT, &p, seed++, &removable);
    run_case (RDP_INPUT_RAMPS, 1, CV_RDP_MAX_HEIGHT, &p, seed++, &removable);
    rdp_params_set (&p, 3);
    run_case (RDP_INPUT_INVALID_RUNS, 1, CV_RDP_MAX_HEIGHT, &p, seed++,
        &removable);
    cases += 3;
  }
  g_print ("rdp-cpu: %d cases; %d non-leaf cuts are removable on their own "
      "(greedy, not minimal)\n", cases, removable);
}

int
main (void)
{
  test_known_columns ();
  test_greedy_not_minimal ();
  test_median3 ();
  test_no_fp_contraction ();
  test_validation ();
  test_wire_decode ();
  test_suite ();
  return cv_test_verdict ("rdp-cpu");
}
