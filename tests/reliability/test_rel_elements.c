/* Reliability of every element on system memory (the CPU backend, in CI):
 * bad input, renegotiation, property stress, seeks, EOS, state cycles,
 * invalid devices and random input.  docs/reliability.md lists the cases.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gst/check/gstcheck.h>

#include "rel_cases.h"

REL_ELEMENT_TEST (refused_format, FALSE);
REL_ELEMENT_TEST (crop_downstream, FALSE);
REL_ELEMENT_TEST (padded_frames, FALSE);
REL_ELEMENT_TEST (short_buffers, FALSE);
REL_ELEMENT_TEST (interlaced, FALSE);
REL_ELEMENT_TEST (odd_sizes, FALSE);
REL_ELEMENT_TEST (missing_disparity, FALSE);
REL_ELEMENT_TEST (wrong_size_disparity, FALSE);
REL_ELEMENT_TEST (invalid_disparity, FALSE);
REL_ELEMENT_TEST (bad_calibration, FALSE);
REL_ELEMENT_TEST (extreme_properties, FALSE);
REL_ELEMENT_TEST (renegotiation, FALSE);
REL_ELEMENT_TEST (property_stress, FALSE);
REL_ELEMENT_TEST (flushing_seeks, FALSE);
REL_ELEMENT_TEST (eos, FALSE);
REL_ELEMENT_TEST (state_cycles, FALSE);
REL_ELEMENT_TEST (invalid_device, FALSE);
REL_ELEMENT_TEST (fuzz, FALSE);

static Suite *
reliability_suite (void)
{
  Suite *s = suite_create ("reliability");
  TCase *input = tcase_create ("input");
  TCase *streams = tcase_create ("streams");

  suite_add_tcase (s, input);
  tcase_add_test (input, test_refused_format);
  tcase_add_test (input, test_interlaced);
  tcase_add_test (input, test_crop_downstream);
  tcase_add_test (input, test_padded_frames);
  tcase_add_test (input, test_short_buffers);
  tcase_add_test (input, test_odd_sizes);
  tcase_add_test (input, test_missing_disparity);
  tcase_add_test (input, test_wrong_size_disparity);
  tcase_add_test (input, test_invalid_disparity);
  tcase_add_test (input, test_bad_calibration);
  tcase_add_test (input, test_extreme_properties);
  tcase_add_test (input, test_invalid_device);
  tcase_add_test (input, test_fuzz);

  suite_add_tcase (s, streams);
  tcase_add_test (streams, test_renegotiation);
  tcase_add_test (streams, test_property_stress);
  tcase_add_test (streams, test_flushing_seeks);
  tcase_add_test (streams, test_eos);
  tcase_add_test (streams, test_state_cycles);
  return s;
}

int
main (int argc, char **argv)
{
  /* --checks a,b: only those tests (meson splits the suite this way) */
  rel_select_checks (&argc, argv);
  rel_isolate_tests ();
  gst_check_init (&argc, &argv);
  return gst_check_run_suite (reliability_suite (), "reliability", __FILE__);
}
