/* 8K frames (7680x4320) through every element on system memory: a clear
 * error where the defaults cannot take them, results with the properties
 * meant for them.  Slow under valgrind: suite 'slow'.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gst/check/gstcheck.h>

#include "rel_cases.h"

REL_ELEMENT_TEST (large_frames, FALSE);

static Suite *
large_suite (void)
{
  Suite *s = suite_create ("reliability-large");
  TCase *tc = tcase_create ("large");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_large_frames);
  return s;
}

int
main (int argc, char **argv)
{
  rel_isolate_tests ();
  gst_check_init (&argc, &argv);
  return gst_check_run_suite (large_suite (), "reliability-large", __FILE__);
}
