/* gst-cudavision: the `cudavision` plugin.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/gst.h>
#ifdef CV_HAVE_CUDA
#include <gst/cuda/gstcudaloader.h>
#include <gst/cuda/gstcudamemory.h>
#endif

#include "cvelements.h"

static gboolean
plugin_init (GstPlugin * plugin)
{
  gboolean ok = TRUE;

#ifdef CV_HAVE_CUDA
  /* Without a driver the elements still work on system memory: CUDA memory
   * is then simply never negotiated. */
  if (gst_cuda_load_library ())
    gst_cuda_memory_init_once ();
  else
    GST_INFO ("CUDA driver library not loadable: CPU backend only");
#endif

  ok &= GST_ELEMENT_REGISTER (stereotestsrc, plugin);
#ifdef CV_HAVE_ELEMENT_SGM
  ok &= GST_ELEMENT_REGISTER (cudasgm, plugin);
#endif
#ifdef CV_HAVE_ELEMENT_STIXELS
  ok &= GST_ELEMENT_REGISTER (cudastixels, plugin);
#endif
#ifdef CV_HAVE_ELEMENT_RDP
  ok &= GST_ELEMENT_REGISTER (cudardp, plugin);
#endif
#ifdef CV_HAVE_ELEMENT_HOUGH
  ok &= GST_ELEMENT_REGISTER (cudahough, plugin);
#endif
#ifdef CV_HAVE_ELEMENT_ROADDETECT
  ok &= GST_ELEMENT_REGISTER (cudaroaddetect, plugin);
#endif
  return ok;
}

GST_PLUGIN_DEFINE (GST_VERSION_MAJOR, GST_VERSION_MINOR, cudavision,
    "Real-time stereo vision on the GPU: semi-global matching, stixels, "
    "RDP segmentation, road detection and Hough lines",
    plugin_init, VERSION, GST_LICENSE, GST_PACKAGE_NAME, GST_PACKAGE_ORIGIN)
