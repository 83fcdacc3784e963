/* rdp-emulated-kernels: the CUDA kernels of cuda/rdp (segment, gather),
 * compiled for the host and run on rdp_emu.h's emulation of warps
 * and blocks, must reproduce the CPU reference exactly.  This checks the
 * kernels' logic (lane-major layout, segment ends, crossing segments,
 * atomics, idle handling, compaction) on machines without a GPU; the
 * arithmetic path of the CUDA intrinsics is covered by rdp-identity-gpu.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#undef _FORTIFY_SOURCE          /* see rdp_emu.h */
#include "rdp_emu.h"

#include "cv_rdp_private.h"
#include "cv_rdp_segment_kernel.cuh"
#include "cv_rdp_gather_kernel.cuh"
#include "cv_test.h"
#include "rdp_test_support.h"

using rdp_emu::Dim3;

namespace {

struct EmuFrame
{
  std::vector < int32_t > counts, slot_rows;
  std::vector < float >slot_values;
  std::vector < CvRdpGap > slot_gaps;
  std::vector < uint16_t > column_cuts, column_levels, cut_rows;
  std::vector < uint32_t > cut_values;  /* int16 or float */
  CvRdpFlat flat;               /* the decoded result */
  CvRdpResult result;

  EmuFrame ()
  {
    std::memset (&flat, 0, sizeof (flat));
  }
  ~EmuFrame ()
  {
    cv_rdp_flat_clear (&flat);
  }
};

template < class T > void
fill_garbage (std::vector < T > &v, size_t n)
{
  v.resize (n);
  std::memset (v.data (), 0xef, n * sizeof (T));
}

template < class Sig, int W, int kHalf > void
run_segment (const SegmentArgs & a)
{
  const int c = a.columns_per_block;
  const unsigned blocks = (unsigned) ((a.n_columns + c - 1) / c);
  rdp_emu::launch (Dim3 { blocks, 1, 1 }, Dim3 { (unsigned) (c * kLanes), 1,
        1 }, c * a.warp_shared_bytes, [&a]() {
        rdp_segment_kernel < Sig, W, kHalf > (a);
      });
}

template < class Sig, int W > void
run_segment_median (const SegmentArgs & a)
{
  switch (a.source.median_half) {
    case 0:
      run_segment < Sig, W, 0 > (a);
      break;
    case 1:
      run_segment < Sig, W, 1 > (a);
      break;
    default:
      run_segment < Sig, W, 2 > (a);
      break;
  }
}

/* @columns_per_block: 0 = the launcher's choice */
template < class Sig > void
run_segment_signal (const CvRdpSetup & setup, const CvImageS16 * img,
    const RdpDeviceSlots & slots, int columns_per_block)
{
  SegmentArgs a = segment_args (&setup, img, &slots,
      sizeof (typename Sig::Value));
  if (columns_per_block > 0)
    a.columns_per_block = columns_per_block;
  switch (segment_words (a.rows_per_lane)) {
    case 1:
      run_segment_median < Sig, 1 > (a);
      break;
    case 2:
      run_segment_median < Sig, 2 > (a);
      break;
    case 4:
      run_segment_median < Sig, 4 > (a);
      break;
    case 8:
      run_segment_median < Sig, 8 > (a);
      break;
    default:
      run_segment_median < Sig, 16 > (a);
      break;
  }
}

/* The plan's two launches (cv_rdp_cuda.cu), on the emulator, with
 * @columns_per_block warps (columns) per segmentation block (0: the
 * launcher's choice). */
bool
emu_compute (const CvRdpParams * p, const CvImageS16 * img,
    int columns_per_block, EmuFrame & f)
{
  CvRdpSetup setup;
  CvError err = { };
  if (cv_rdp_setup (p, img->width, img->height, &setup, &err) != CV_OK) {
    g_printerr ("emulator: %s\n", err.message);
    return false;
  }
  const int n = setup.n_columns, h = setup.height;
  const int cut_cap = h, gap_cap = (h + 1) / 2;

  fill_garbage (f.counts, 3 * (size_t) n);
  fill_garbage (f.slot_rows, (size_t) n * cut_cap);
  fill_garbage (f.slot_values, (size_t) n * cut_cap);
  fill_garbage (f.slot_gaps, (size_t) n * gap_cap);
  RdpDeviceSlots slots;
  slots.cut_count = f.counts.data ();
  slots.gap_count = f.counts.data () + n;
  slots.levels = f.counts.data () + 2 * n;
  slots.cut_rows = f.slot_rows.data ();
  slots.cut_values = f.slot_values.data ();
  slots.gaps = f.slot_gaps.data ();
  slots.cut_capacity = cut_cap;
  slots.gap_capacity = gap_cap;
  if (setup.signal == CV_RDP_SIGNAL_DEPTH)
    run_segment_signal < DepthSignal > (setup, img, slots, columns_per_block);
  else
    run_segment_signal < DisparitySignal > (setup, img, slots,
        columns_per_block);

  fill_garbage (f.column_cuts, (size_t) n);
  fill_garbage (f.column_levels, (size_t) n);
  fill_garbage (f.cut_rows, (size_t) n * cut_cap);
  fill_garbage (f.cut_values, (size_t) n * cut_cap);
  GatherArgs ga;
  ga.n_columns = n;
  ga.depth = setup.signal == CV_RDP_SIGNAL_DEPTH;
  ga.slots = slots;
  ga.wire.column_cuts = f.column_cuts.data ();
  ga.wire.column_levels = f.column_levels.data ();
  ga.wire.cut_rows = f.cut_rows.data ();
  ga.wire.cut_values = f.cut_values.data ();
  rdp_emu::launch (Dim3 { (unsigned) ((n + kGatherWarps - 1) / kGatherWarps), 1,
        1 }, Dim3 { (unsigned) (kGatherWarps * kLanes), 1, 1 }, 0, [&ga]() {
        rdp_gather_kernel (ga);
      });

  cv_error_clear (&err);
  if (cv_rdp_wire_decode (&ga.wire, &setup, &f.flat, &f.result, NULL,
          &err) != CV_OK) {
    g_printerr ("decode: %s\n", err.message);
    return false;
  }
  return true;
}

int failures = 0;

void
run_case (RdpInputKind kind, int w, int h, int param_set, guint32 seed)
{
  char label[160];
  CvRdpParams p;
  rdp_params_set (&p, param_set);
  /* the launcher's choice, 1 or kMaxColumnsPerBlock columns per block:
   * warps sharing a block, partial last blocks (odd widths) */
  const int choices[] = { 0, 1, kMaxColumnsPerBlock };
  const int columns_per_block = choices[seed % 3];
  g_snprintf (label, sizeof (label), "%s %dx%d params %d seed %u, %d per "
      "block", rdp_input_name (kind), w, h, param_set, seed,
      columns_per_block);
  CvImageS16 *img = rdp_image_new (w, h, 2 * (int) (seed % 4));
  rdp_image_fill (img, kind, seed);
  CvRdpCpu *cpu = cv_rdp_cpu_new ();
  CvError err = { };
  CvRdpResult ref;
  EmuFrame f;
  if (cv_rdp_cpu_compute (cpu, &p, img, 1, &err) != CV_OK) {
    g_printerr ("%s: cpu: %s\n", label, err.message);
    failures++;
  } else if (!emu_compute (&p, img, columns_per_block, f)) {
    failures++;
  } else {
    cv_rdp_cpu_result (cpu, &ref);
    if (!rdp_results_equal (&ref, &f.result, "cpu", "emulated-gpu", label))
      failures++;
  }
  if (g_getenv ("RDP_EMU_VERBOSE")) {
    static long last = 0;
    g_print ("%8ld %s\n", rdp_emu::machine ().collectives - last, label);
    last = rdp_emu::machine ().collectives;
  }
  cv_rdp_cpu_free (cpu);
  rdp_image_free (img);
}

}                               /* namespace */

int
main ()
{
  static const int heights[] = { 1, 2, 3, 4, 31, 32, 33, 64, 65, 375, 1023,
    1024, 1025
  };
  guint32 seed = 100;
  int cases = 0;

  /* every kind, length and parameter set; long columns (the costly part
   * of the emulation) with the default disparity and the depth signal */
  for (int k = 0; k < RDP_N_INPUTS; k++)
    for (int h : heights)
      for (int ps = 0; ps < RDP_N_PARAM_SETS; ps++, seed++) {
        if (h >= 375 && ps != 0 && ps != 3)
          continue;
        run_case ((RdpInputKind) k, h >= 1000 ? 2 : 3 + (int) (seed % 5), h,
            ps, seed);
        cases++;
      }
  /* wide frames: several gather blocks (32 columns each) */
  run_case (RDP_INPUT_STREET, 70, 40, 0, seed++);
  run_case (RDP_INPUT_INVALID_RUNS, 65, 17, 2, seed++);
  cases += 2;
  /* every parameter set over several load chunks (kChunkRows): the median
   * windows (3 and 5) and the column means across chunk boundaries */
  for (RdpInputKind k : { RDP_INPUT_STREET, RDP_INPUT_INVALID_RUNS,
        RDP_INPUT_NOISE })
    for (int ps = 0; ps < RDP_N_PARAM_SETS; ps++) {
      run_case (k, 4, 3 * kChunkRows + 7, ps, seed++);
      cases++;
    }
  /* more rows per lane than one register word holds, up to the maximum */
  for (int h : { 2048, 2049, 4096, 8192, CV_RDP_MAX_HEIGHT }) {
    for (RdpInputKind k : { RDP_INPUT_STREET, RDP_INPUT_INVALID_RUNS,
          RDP_INPUT_NOISE, RDP_INPUT_TIES }) {
      if (h > 4096 && (k == RDP_INPUT_NOISE || k == RDP_INPUT_TIES))
        continue;
      run_case (k, 1, h, 0, seed++);
      run_case (k, 1, h, 3, seed++);
      cases += 2;
    }
  }
  g_print ("rdp-emulated-kernels: %d cases, %ld warp collectives emulated\n",
      cases, rdp_emu::machine ().collectives);
  if (failures) {
    g_printerr ("rdp-emulated-kernels: %d failures\n", failures);
    return 1;
  }
  g_print ("rdp-emulated-kernels: all passed\n");
  return 0;
}
