/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* vote-layout: passes, parts and bin stretching (eq. 3, 5, 6, 8) of stage 2. */
#include <stdio.h>
#include <stdlib.h>

#include "vote_test_util.h"

static CvVoteLayout
plan (const CvVoteTuning * tuning, int spaces, int bins, int64_t elements,
    int threads)
{
  const CvDeviceLimits h200 = cv_test_h200_limits ();
  CvVoteLayout lay;
  CvError err = { 0 };
  CvStatus st = cv_vote_layout_plan (&h200, tuning, spaces, bins, elements,
      threads, &lay, &err);
  VT_OK (st, &err);
  printf ("  G=%d N=%d T=%d -> passes %d x %d bins, S=%d S'=%d, parts %d, %zu B\n",
      spaces, bins, threads, lay.n_passes, lay.bins_per_pass, lay.stretch_s,
      lay.stretch, lay.n_parts, lay.smem_bytes);
  VT_CHECK (lay.n_passes * lay.bins_per_pass >= bins, "passes cover the bins");
  VT_CHECK ((lay.n_passes - 1) * lay.bins_per_pass < bins, "no empty pass");
  VT_CHECK (lay.smem_bytes == (size_t) lay.bins_per_pass * lay.stretch * 4,
      "shared memory = bins x S' x 4");
  VT_CHECK (lay.smem_bytes <= h200.smem_per_block_optin, "fits a block");
  VT_CHECK (lay.stretch <= lay.stretch_s && lay.stretch >= 1, "1 <= S' <= S");
  return lay;
}

int
main (void)
{
  const CvDeviceLimits h200 = cv_test_h200_limits ();
  CvVoteTuning tuning;
  CvVoteLayout lay;
  CvError err = { 0 };

  cv_vote_tuning_init (&tuning);
  VT_CHECK (tuning.stretching == 1 && tuning.smem_budget == 0, "defaults");

  /* Hough 1080p, 1 px / 1 deg: 180 spaces of 4123 bins, two blocks per SM
   * get 113 KiB each -> 28928 bins -> S = 7 (eq. 3), odd -> S' = 7 */
  lay = plan (&tuning, 180, 4123, 1920 * 1080, 1024);
  VT_CHECK (lay.n_passes == 1 && lay.stretch_s == 7 && lay.stretch == 7
      && lay.n_parts == 1, "Hough 1080p layout");

  /* eq. 5: S < 64 kept as is (even too), S >= 64 made odd */
  lay = plan (&tuning, 180, 500, 1920 * 1080, 1024);
  VT_CHECK (lay.stretch_s == 57 && lay.stretch == 57, "S = 57");
  lay = plan (&tuning, 180, 1000, 1920 * 1080, 1024);
  VT_CHECK (lay.stretch_s == 28 && lay.stretch == 28, "even S below 64 kept");
  lay = plan (&tuning, 180, 400, 1920 * 1080, 1024);
  VT_CHECK (lay.stretch_s == 72 && lay.stretch == 71, "S = 72 -> S' = 71");
  lay = plan (&tuning, 180, 310, 1920 * 1080, 1024);
  VT_CHECK (lay.stretch_s == 93 && lay.stretch == 93, "odd S >= 64 kept");

  /* exhaustively: S' for S = 1..1024 (budget = S bins of one bin) */
  for (int s = 1; s <= 1024; s++) {
    CvVoteTuning t = tuning;
    t.smem_budget = (size_t) s * 4;
    lay = (CvVoteLayout) { 0 };
    VT_OK (cv_vote_layout_plan (&h200, &t, 1000, 1, 1 << 30, 1024, &lay, &err),
        &err);
    const int expected = s < 64 ? s : (s % 2 ? s : s - 1);
    VT_CHECK (lay.stretch_s == s && lay.stretch == expected,
        "S=%d: got S=%d S'=%d, expected S'=%d", s, lay.stretch_s, lay.stretch,
        expected);
  }

  /* a vote space larger than shared memory: passes (section 3.2) */
  lay = plan (&tuning, 180, 40000, 1920 * 1080, 1024);
  VT_CHECK (lay.n_passes == 2 && lay.bins_per_pass == 20000 && lay.stretch == 1,
      "40000 bins in two passes");
  {
    CvVoteTuning paper = tuning;
    paper.smem_budget = 48 * 1024;  /* the paper's Fermi: Nmax = 12288 */
    lay = plan (&paper, 180, 16000, 1920 * 1080, 1024);
    VT_CHECK (lay.n_passes == 2 && lay.bins_per_pass == 8000, "16000 in 2 x 8000");
    lay = plan (&paper, 64, 4200, 1920 * 1080, 1024);
    VT_CHECK (lay.stretch_s == 2 && lay.n_parts == 4,
        "paper's example: 64 angles x 4200 bins -> S 2, parts 264 / 64 = 4");
  }

  /* few spaces: the input is split into parts (eq. 8), limited by elements */
  lay = plan (&tuning, 1, 256, 1920 * 1080, 1024);
  VT_CHECK (lay.n_parts == 264, "histogram parts = slots");
  VT_CHECK (lay.stretch_s == 30, "S capped by votes per bin of a part (7855/256)");
  lay = plan (&tuning, 1, 256, 5000, 1024);
  VT_CHECK (lay.n_parts == 5, "no more parts than threads' worth of elements");
  VT_CHECK (lay.stretch_s == 3, "S = 1000 / 256");
  lay = plan (&tuning, 1080, 256, 1920, 256);
  VT_CHECK (lay.n_parts == 1 && lay.stretch_s == 7, "v-disparity rows");

  /* no stretching */
  tuning.stretching = 0;
  lay = plan (&tuning, 180, 500, 1920 * 1080, 1024);
  VT_CHECK (lay.stretch_s == 1 && lay.stretch == 1, "stretching off");
  tuning.stretching = 1;

  /* errors */
  {
    CvVoteTuning t = tuning;
    t.smem_budget = 2;
    cv_error_clear (&err);
    VT_CHECK (cv_vote_layout_plan (&h200, &t, 1, 10, 100, 256, &lay, &err)
        == CV_ERROR_INVALID_ARGUMENT, "a budget without a bin fails");
    printf ("  expected error: %s\n", err.message);
    cv_error_clear (&err);
    VT_CHECK (cv_vote_layout_plan (&h200, &tuning, 1, 10, 100, 4096, &lay, &err)
        == CV_ERROR_INVALID_ARGUMENT, "more threads than an SM holds fails");
    printf ("  expected error: %s\n", err.message);
    cv_error_clear (&err);
    VT_CHECK (cv_vote_layout_plan (&h200, &tuning, 0, 10, 100, 256, &lay, &err)
        == CV_ERROR_INVALID_ARGUMENT, "no space fails");
  }
  printf ("vote-layout: all checks passed\n");
  return 0;
}
