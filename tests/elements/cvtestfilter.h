/* A minimal GstCvFilter subclass used to test the base class: it attaches
 * a disparity meta whose disparity is the frame's luma (in pixels), computed
 * by the CPU or the CUDA backend, stored on the host or the GPU.  It can
 * draw a white rectangle (overlay) to test in-place writes.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef __CV_TEST_FILTER_H__
#define __CV_TEST_FILTER_H__

#include "gstcvfilter.h"

G_BEGIN_DECLS

#define CV_TYPE_TEST_FILTER (cv_test_filter_get_type ())
GType cv_test_filter_get_type (void);

/* Registers "cvtestfilter" (call after gst_init). */
gboolean cv_test_filter_register (void);

G_END_DECLS
#endif
