/* gst-cudavision core: the compact form in which a frame's RDP result
 * crosses from the device to the host (internal to cuda/rdp; plain C so
 * the gather kernel, the host decoder and the emulation test share it).
 *
 * The gather kernel writes it into pinned host memory; cv_rdp_wire_decode
 * expands it into CvRdpResult's flat arrays.  It takes 4 bytes per output
 * column and 4 bytes per cut (disparity signal; 6 with depth), where the
 * flat arrays take 20 per column and 8 per cut and per gap:
 *
 *  - per column, its number of cuts and its levels (uint16 each: both are
 *    at most the height, < CV_RDP_MAX_HEIGHT = 2^14);
 *  - per cut, the columns one after another: its row, or'ed with
 *    CV_RDP_WIRE_GAP_FOLLOWS when the row below it is invalid (uint16),
 *    and its value: int16 in 1/16 px for the disparity signal (whose
 *    filtered samples are fixed point: cv_rdp_disparity_px converts back
 *    exactly), float metres for depth.
 *
 * Gaps are not sent: every valid run starts and ends with a cut, so a
 * column's invalid rows are those above its first cut (all of them when
 * it has none) and those after each flagged cut, up to the next cut or the
 * last row.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CV_RDP_WIRE_H
#define CV_RDP_WIRE_H

#include <stddef.h>
#include <stdint.h>

#include "cv_rdp_private.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CV_RDP_WIRE_GAP_FOLLOWS 0x8000u
#define CV_RDP_WIRE_ROW_MASK 0x7FFFu

/* Where the parts of one frame's wire form are (host or device-visible
 * addresses of the same pinned buffer). */
typedef struct
{
  uint16_t *column_cuts;        /* [n_columns] */
  uint16_t *column_levels;      /* [n_columns] */
  uint16_t *cut_rows;           /* [cuts]: row | CV_RDP_WIRE_GAP_FOLLOWS */
  void *cut_values;             /* [cuts]: int16 (disparity) or float (depth) */
} CvRdpWire;

/* Bytes of one value on the wire for @signal. */
size_t cv_rdp_wire_value_size (CvRdpSignal signal);

/* Bytes of the wire form of @n_columns columns holding @n_cuts cuts. */
size_t cv_rdp_wire_bytes (CvRdpSignal signal, size_t n_columns,
    size_t n_cuts);

/* Host arrays a decoded result lives in; grow-only (no allocation per
 * frame once sized).  Zero-initialise, free with cv_rdp_flat_clear. */
typedef struct
{
  int32_t *cut_offsets, *gap_offsets, *levels, *cut_rows;
  float *cut_values;
  CvRdpGap *gaps;
  size_t columns_cap, cuts_cap, gaps_cap;
} CvRdpFlat;

void cv_rdp_flat_clear (CvRdpFlat * flat);

/* Expands @wire (setup->n_columns columns of setup->height rows) into
 * @flat and points @result at it.  @wire_bytes (may be NULL) receives the
 * size of the wire form read.  Fails on a corrupt wire form (a count or
 * row out of range, rows out of order) or when memory runs out. */
CvStatus cv_rdp_wire_decode (const CvRdpWire * wire, const CvRdpSetup * setup,
    CvRdpFlat * flat, CvRdpResult * result, size_t *wire_bytes, CvError * err);

#ifdef __cplusplus
}
#endif
#endif /* CV_RDP_WIRE_H */
