/* gst-cudavision meta library: everything an application needs to read the
 * results the cudavision elements attach to buffers.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef __GST_CUDA_VISION_H__
#define __GST_CUDA_VISION_H__

#include <gst/cudavision/cudavision-prelude.h>
#include <gst/cudavision/gstcvdisparitymeta.h>
#include <gst/cudavision/gstcvstixelsmeta.h>
#include <gst/cudavision/gstcvsegmentsmeta.h>
#include <gst/cudavision/gstcvlinesmeta.h>
#include <gst/cudavision/gstcvroadmeta.h>

#endif /* __GST_CUDA_VISION_H__ */
