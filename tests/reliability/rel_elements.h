/* The elements the reliability tests exercise, described once: what input
 * each needs, the formats it takes, a format it refuses, and the values its
 * mutable properties take in the property stress.  Elements that are not
 * built (their factory is missing) are left out at run time, so a new
 * element needs one entry here.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef __REL_ELEMENTS_H__
#define __REL_ELEMENTS_H__

#include "rel_util.h"

G_BEGIN_DECLS

typedef enum
{
  REL_INPUT_IMAGE,              /* any frame (the left view of the test scene) */
  REL_INPUT_DISPARITY,          /* a frame with a disparity meta of its size */
  REL_INPUT_STEREO,             /* both views side by side */
  REL_INPUT_SOURCE,             /* none: the element is the source itself */
} RelInput;

#define REL_MAX_FORMATS 10

typedef struct
{
  const gchar *factory;
  RelInput input;
  /* properties of a plain valid run */
  const gchar *props;
  /* system-memory formats it takes, NULL-terminated; [0] is the default */
  const gchar *cpu_formats[REL_MAX_FORMATS];
  /* CUDA-memory formats it takes (cudaupload gives them), NULL-terminated */
  const gchar *cuda_formats[REL_MAX_FORMATS];
  /* a raw format its caps refuse */
  const gchar *refused_format;
  /* the RelMetaKind it adds to every frame */
  guint result;
  /* its output depends on earlier frames (it starts over on a flush, a
   * caps change and a new stream) */
  gboolean stateful;
  /* every GST_PARAM_MUTABLE_PLAYING property with values to cycle through */
  const RelStressProp *stress;
  /* views narrower or lower than these (px) are refused at negotiation
   * with an error containing @too_small_error (0: any size works) */
  gint min_width, min_height;
  const gchar *too_small_error;
  /* an 8K frame: the error its default properties give on system memory
   * (NULL: none; "-": not run, too heavy for the CPU reference), properties
   * that make it work in bounded time, and the error CUDA memory may give
   * with them (NULL: none) */
  const gchar *large_default_error;
  const gchar *large_props;
  const gchar *large_cuda_error;
  /* extra property sets the disparity cases (patterns, calibrations) run
   * with too, e.g. the depth signal ("" first) */
  const gchar *data_variants[4];
} RelElement;

/* The elements of this build (factory present), in chain order. */
const RelElement *const *rel_elements (guint * n_elements);
/* One of them by factory name; NULL when it is not built. */
const RelElement *rel_element (const gchar * factory);

/* Source description ending in "! " that feeds @e @n_buffers frames of
 * @width x @height (one view) in @format, through cudaupload when @cuda;
 * @src_props are added to the stereotestsrc. */
gchar *rel_source (const RelElement * e, const gchar * format, gint width,
    gint height, gint n_buffers, gboolean cuda, const gchar * src_props);

/* Makes the source of a rel_source() pipeline produce @width x @height
 * views (while the pipeline is in NULL or READY, or to renegotiate). */
void rel_source_set_size (GstElement * pipeline, gint width, gint height);
/* The same while PLAYING: the crop and the caps change together between
 * two frames (the frame in hand is dropped), so no frame of a mixed size
 * passes; returns once the change is made. */
void rel_source_resize_live (GstElement * pipeline, gint width, gint height);

/* "<source> ! <e> name=el <e->props> <props> ! [cudadownload !] fakesink
 * name=sink sync=false" */
gchar *rel_pipeline (const RelElement * e, const gchar * format, gint width,
    gint height, gint n_buffers, gboolean cuda, const gchar * props);

/* The whole chain of the elements built, for @n_frames (< 0: endless)
 * @width x @height views: the stereo matcher first when it is built (with
 * the scene's calibration), else the source's ground-truth disparity of the
 * left view; then every disparity consumer and image element @repeats
 * times, each with @props (and overlay=true with @overlays, where the
 * element draws), named f0, f1, ...; through cudaupload when
 * @cuda (the frames stay in CUDA memory), a queue after the source, into
 * "fakesink name=sink".  *@n_instances: the elements in it. */
gchar *rel_chain_description (gint width, gint height, gint n_frames,
    gboolean cuda, guint repeats, const gchar * props, gboolean overlays,
    guint * n_instances);

/* TRUE when @e has a property @name. */
gboolean rel_element_has_property (const RelElement * e, const gchar * name);

/* Asserts that @e's result meta is on every frame of @run from frame index
 * @from_index on. */
void rel_assert_result_metas (const RelElement * e, const RelRun * run,
    gint from_index, const gchar * what);

G_END_DECLS
#endif /* __REL_ELEMENTS_H__ */
