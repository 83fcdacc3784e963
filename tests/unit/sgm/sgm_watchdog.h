/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A wall-clock limit per step of the SGM GPU tests and benchmark, so that a
 * hanging kernel cannot hold the GPU host for the whole session: a step
 * not finished within its limit prints what it was doing and exits with
 * SGM_WATCHDOG_EXIT (the driver ends the kernel with the process).
 *
 * The limit is the caller's default, or CV_SGM_GPU_TIMEOUT_S seconds when
 * that is set (0: no limit, e.g. under compute-sanitizer). */
#ifndef SGM_WATCHDOG_H
#define SGM_WATCHDOG_H

#include <glib.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define SGM_WATCHDOG_ENV "CV_SGM_GPU_TIMEOUT_S"
#define SGM_WATCHDOG_EXIT 1

static char sgm_watchdog_msg[1024];
static volatile size_t sgm_watchdog_len;
static unsigned sgm_watchdog_default_s;

static inline void
sgm_watchdog_fire (int sig)
{
  ssize_t unused;
  (void) sig;
  /* only async-signal-safe calls: the message was formatted when armed */
  unused = write (STDERR_FILENO, sgm_watchdog_msg, sgm_watchdog_len);
  (void) unused;
  _exit (SGM_WATCHDOG_EXIT);
}

/* Installs the handler; @default_s: the limit of a step (seconds). */
static inline void
sgm_watchdog_init (unsigned default_s)
{
  struct sigaction sa;
  const char *env = getenv (SGM_WATCHDOG_ENV);
  sgm_watchdog_default_s = env != NULL ? (unsigned) atoi (env) : default_s;
  memset (&sa, 0, sizeof (sa));
  sa.sa_handler = sgm_watchdog_fire;
  sigemptyset (&sa.sa_mask);
  sigaction (SIGALRM, &sa, NULL);
}

/* Starts the limit of a step; @format: what it does (printed on expiry). */
static inline void G_GNUC_PRINTF (1, 2)
sgm_watchdog_arm (const char *format, ...)
{
  va_list args;
  int n;
  alarm (0);
  n = g_snprintf (sgm_watchdog_msg, sizeof (sgm_watchdog_msg),
      "TIMEOUT after %u s (a hang; %s=N changes the limit): ",
      sgm_watchdog_default_s, SGM_WATCHDOG_ENV);
  va_start (args, format);
  if (n > 0 && (size_t) n < sizeof (sgm_watchdog_msg))
    n += g_vsnprintf (sgm_watchdog_msg + n, sizeof (sgm_watchdog_msg) - n,
        format, args);
  va_end (args);
  n = MIN (n, (int) sizeof (sgm_watchdog_msg) - 2);
  sgm_watchdog_msg[n] = '\n';
  sgm_watchdog_len = (size_t) n + 1;
  alarm (sgm_watchdog_default_s);
}

/* The step is done. */
static inline void
sgm_watchdog_disarm (void)
{
  alarm (0);
}

#endif /* SGM_WATCHDOG_H */
