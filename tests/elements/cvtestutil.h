/* Helpers shared by the element tests.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef __CV_TEST_UTIL_H__
#define __CV_TEST_UTIL_H__

#include <gst/gst.h>

G_BEGIN_DECLS

/* Runs @description to completion (EOS or error, at most @timeout_s).
 * Returns the error message (free with g_free) or NULL on EOS; with
 * @debug_out also the error's debug string. */
gchar *cv_test_run_pipeline (const gchar * description, guint timeout_s,
    gchar ** debug_out);

/* Asserts that running @description ends in an error whose message or debug
 * text contains @expected (case-insensitive). */
void cv_test_expect_error (const gchar * description, const gchar * expected);

/* Asserts that @description runs to EOS without error. */
void cv_test_expect_eos (const gchar * description);

/* TRUE when this machine has a CUDA device and GStreamer's cudaupload (what
 * the GPU element tests need); else says why they are skipped and returns
 * FALSE (the caller exits with CV_TEST_EXIT_SKIP).  After gst_init. */
gboolean cv_test_have_cuda_elements (void);

G_END_DECLS
#endif
