/* For test programs that go on after a failed check: their failure count,
 * EXPECT, the check that ends a program when a core call fails, and the
 * verdict main returns.  Include it once per program, from the file with
 * main (GPU programs take CUDA_OK from cv_test_cuda.h).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CV_TEST_EXPECT_H
#define CV_TEST_EXPECT_H

#include <stdio.h>
#include <stdlib.h>

static int failures = 0;

/* Counts and prints a failure; the program goes on. */
#define EXPECT(cond, ...) \
  do { \
    if (!(cond)) { \
      failures++; \
      printf ("FAIL %s:%d: ", __FILE__, __LINE__); \
      printf (__VA_ARGS__); \
      printf ("\n"); \
    } \
  } while (0)

/* A core call (CvStatus, CvError *@err) that what follows needs: exit 1
 * with its message when it fails. */
#define CV_OK_OR_DIE(call, err) \
  do { \
    if ((call) != CV_OK) { \
      printf ("FAIL %s:%d: %s: %s\n", __FILE__, __LINE__, #call, \
          (err)->message); \
      exit (1); \
    } \
  } while (0)

/* main's exit status: prints "@name: ok" or the number of failures. */
static inline int
cv_test_verdict (const char *name)
{
  if (failures) {
    printf ("%s: %d failures\n", name, failures);
    return 1;
  }
  printf ("%s: ok\n", name);
  return 0;
}

#endif /* CV_TEST_EXPECT_H */
