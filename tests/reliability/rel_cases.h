/* The reliability cases, each for one element on one backend (system
 * memory, or CUDA memory through cudaupload / cudadownload).  Every case
 * asserts a clear error (its text) or correct output: consistent metas on
 * every frame and, where a reference exists, the very bytes a fresh
 * pipeline gives for the same frames - never a crash, a hang (watchdog) or
 * a silently wrong result.  docs/reliability.md lists them.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef __REL_CASES_H__
#define __REL_CASES_H__

#include "rel_elements.h"

G_BEGIN_DECLS

void rel_case_refused_format (const RelElement * e, gboolean cuda);
void rel_case_crop_downstream (const RelElement * e, gboolean cuda);
void rel_case_padded_frames (const RelElement * e, gboolean cuda);
void rel_case_short_buffers (const RelElement * e, gboolean cuda);
void rel_case_interlaced (const RelElement * e, gboolean cuda);
void rel_case_odd_sizes (const RelElement * e, gboolean cuda);
void rel_case_large_frames (const RelElement * e, gboolean cuda);
void rel_case_missing_disparity (const RelElement * e, gboolean cuda);
void rel_case_wrong_size_disparity (const RelElement * e, gboolean cuda);
void rel_case_invalid_disparity (const RelElement * e, gboolean cuda);
void rel_case_bad_calibration (const RelElement * e, gboolean cuda);
void rel_case_extreme_properties (const RelElement * e, gboolean cuda);
void rel_case_renegotiation (const RelElement * e, gboolean cuda);
void rel_case_property_stress (const RelElement * e, gboolean cuda);
void rel_case_flushing_seeks (const RelElement * e, gboolean cuda);
void rel_case_eos (const RelElement * e, gboolean cuda);
void rel_case_state_cycles (const RelElement * e, gboolean cuda);
void rel_case_invalid_device (const RelElement * e, gboolean cuda);
void rel_case_fuzz (const RelElement * e, gboolean cuda);

/* A GstCheck test running rel_case_<name> for every element built. */
#define REL_ELEMENT_TEST(name, cuda)                                        \
  GST_START_TEST (test_##name)                                              \
  {                                                                         \
    guint n_, i_;                                                           \
    const RelElement *const *all_ = rel_elements (&n_);                     \
    for (i_ = 0; i_ < n_; i_++) {                                           \
      if ((cuda) && all_[i_]->cuda_formats[0] == NULL)                      \
        continue;                                                           \
      g_print ("%s%s: %s\n", #name, (cuda) ? " (CUDA)" : "",                \
          all_[i_]->factory);                                               \
      rel_case_##name (all_[i_], (cuda));                                   \
    }                                                                       \
  }                                                                         \
  GST_END_TEST

G_END_DECLS
#endif /* __REL_CASES_H__ */
