/* gst-cudavision: element registration declarations.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef __CV_ELEMENTS_H__
#define __CV_ELEMENTS_H__

#include <gst/gst.h>

G_BEGIN_DECLS

GST_ELEMENT_REGISTER_DECLARE (stereotestsrc);
GST_ELEMENT_REGISTER_DECLARE (cudasgm);
GST_ELEMENT_REGISTER_DECLARE (cudastixels);
GST_ELEMENT_REGISTER_DECLARE (cudardp);
GST_ELEMENT_REGISTER_DECLARE (cudahough);
GST_ELEMENT_REGISTER_DECLARE (cudaroaddetect);

G_END_DECLS
#endif /* __CV_ELEMENTS_H__ */
