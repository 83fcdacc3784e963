/* What the road test programs share: their failure count, EXPECT, the
 * checks that end a program when a call fails, and the verdict main
 * returns.  Include it once per program, from the file with main.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef ROAD_TEST_H
#define ROAD_TEST_H

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

/* The same for a CUDA runtime call (GPU programs, after
 * cuda_runtime_api.h). */
#define CUDA_OK(call) \
  do { \
    cudaError_t e_ = (call); \
    if (e_ != cudaSuccess) { \
      printf ("FAIL %s:%d: %s: %s\n", __FILE__, __LINE__, #call, \
          cudaGetErrorString (e_)); \
      exit (1); \
    } \
  } while (0)

/* main's exit status: prints "@name: ok" or the number of failures. */
static inline int
road_test_verdict (const char *name)
{
  if (failures) {
    printf ("%s: %d failures\n", name, failures);
    return 1;
  }
  printf ("%s: ok\n", name);
  return 0;
}

#endif /* ROAD_TEST_H */
