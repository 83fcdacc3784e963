/* gst-cudavision meta library: export macro.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef __GST_CUDA_VISION_PRELUDE_H__
#define __GST_CUDA_VISION_PRELUDE_H__

#include <gst/gst.h>

#ifdef BUILDING_GST_CUDA_VISION
#define GST_CUDA_VISION_API GST_API_EXPORT
#else
#define GST_CUDA_VISION_API GST_API_IMPORT
#endif

#endif /* __GST_CUDA_VISION_PRELUDE_H__ */
