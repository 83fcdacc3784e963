#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""cv-json.py: the cudavision results of every frame as JSON lines, from
Python through GObject introspection (GstCudaVision-1.0).

The same program as examples/cv-json.c, with the same options and the same
JSON values (Python writes numbers its own way: 0.0 for 0, a float meta
field widened to double in full, 371.1999816894531 for 371.199982):

    examples/cv-json.py                      synthetic camera through the chain
    examples/cv-json.py -n 100 --sgm --brief
    examples/cv-json.py 'filesrc ... ! cudasgm ... ! cudastixels'

Needs python3-gi, GStreamer's typelibs and GstCudaVision-1.0.typelib: an
installed one, one on GI_TYPELIB_PATH (with LD_LIBRARY_PATH pointing at
libgstcudavision-1.0.so), or else the build folder of this checkout
(../build, or $CV_BUILD_DIR), found by itself.

Reading the metas (docs/meta-api.md, "Python"): scalar fields are plain
attributes.  PyGObject cannot read C arrays inside structs, so the lists
are read with the meta library's accessors (meta.get_stixel(i),
meta.get_line(i), meta.get_patches(), meta.get_cut_rows(i), ...) where the
library has them; an older library without them gives counts only (a
warning says so).  The disparity is read through gst_cv_disparity_meta_map().
"""
import argparse
import array
import ctypes
import json
import math
import os
import signal
import sys

import gi

gi.require_version("GIRepository", "2.0")
from gi.repository import GIRepository  # noqa: E402


def add_build_dir():
    """Use the checkout's build folder ($CV_BUILD_DIR, default ../build) when
    GstCudaVision is neither installed nor on GI_TYPELIB_PATH."""
    here = os.path.dirname(os.path.abspath(__file__))
    build = os.environ.get("CV_BUILD_DIR", os.path.join(here, "..", "build"))
    libdir = os.path.join(build, "gst", "cudavision")
    if not os.path.exists(os.path.join(libdir, "GstCudaVision-1.0.typelib")):
        sys.exit("cv-json.py: GstCudaVision-1.0.typelib not found: install "
                 "gst-cudavision, set GI_TYPELIB_PATH and LD_LIBRARY_PATH to "
                 "the folder holding it, or CV_BUILD_DIR to a build folder")
    repo = GIRepository.Repository.get_default()
    repo.prepend_search_path(libdir)
    repo.prepend_library_path(libdir)
    if not os.environ.get("GST_PLUGIN_PATH"):
        # the plugin of the same build (its meta library is this one)
        os.environ["GST_PLUGIN_PATH"] = os.path.join(build, "gst")


gi.require_version("Gst", "1.0")
gi.require_version("GstApp", "1.0")
gi.require_version("GstVideo", "1.0")
try:
    gi.require_version("GstCudaVision", "1.0")
except ValueError:
    add_build_dir()
    gi.require_version("GstCudaVision", "1.0")
from gi.repository import GLib, Gst, GstApp, GstCudaVision, GstVideo  # noqa: E402,F401

# The synthetic camera of the default pipeline (docs/elements/stereotestsrc.md)
SYNTH_VIEW_WIDTH = 640
SYNTH_VIEW_HEIGHT = 480
SYNTH_FOCAL_PX = 371.2
SYNTH_BASELINE_M = 0.54
SYNTH_PITCH_RAD = 0.02
PULL_TIMEOUT = 100 * Gst.MSECOND

CV = GstCudaVision
HAVE_ACCESSORS = hasattr(CV.CvStixelsMeta, "get_stixel")
CLASS_NAMES = {0: "ground", 1: "object", 2: "sky"}


def have_element(name):
    return Gst.ElementFactory.find(name) is not None


def default_pipeline(opt):
    """stereotestsrc through the cudavision elements this installation has
    (the order and settings of cv-json.c)."""
    up_down = have_element("cudaupload") and have_element("cudadownload")
    gpu = opt.backend == "gpu" or (opt.backend == "auto" and up_down)
    if gpu and not up_down:
        sys.exit("cv-json.py: --backend=gpu needs cudaupload and cudadownload "
                 "(gst-plugins-bad's nvcodec, registered only with a CUDA "
                 "driver and GPU)")
    if opt.sgm and not have_element("cudasgm"):
        sys.exit("cv-json.py: --sgm needs the cudasgm element")
    p = ["stereotestsrc num-buffers=%d%s" % (
        opt.num_buffers, "" if opt.sgm else " attach-disparity=true"),
        "video/x-raw,format=RGBA,width=%d,height=%d,framerate=10/1" % (
            2 * SYNTH_VIEW_WIDTH, SYNTH_VIEW_HEIGHT)]
    if not opt.sgm:
        p.append("videocrop right=%d" % SYNTH_VIEW_WIDTH)
    if gpu:
        p.append("cudaupload")
    # the scene's nearest road lies at ~82 px of disparity in 640-px views
    if opt.sgm:
        p.append("cudasgm max-disparity=96 focal-length=%g principal-x=%g "
                 "principal-y=%g baseline=%g" % (
                     SYNTH_FOCAL_PX, (SYNTH_VIEW_WIDTH - 1) / 2.0,
                     (SYNTH_VIEW_HEIGHT - 1) / 2.0, SYNTH_BASELINE_M))
    if have_element("cudahough"):
        p.append("cudahough roi-y=273 min-theta=-75 max-theta=75 "
                 "theta-step=0.5 edge-threshold=400 threshold=60 "
                 "nms-radius=4 max-lines=8")
    if have_element("cudaroaddetect"):
        p.append("cudaroaddetect pitch=%g" % SYNTH_PITCH_RAD)
    if have_element("cudastixels"):
        p.append("cudastixels pitch=%g" % SYNTH_PITCH_RAD)
    if have_element("cudardp"):
        p.append("cudardp")
    if gpu:
        p.append("cudadownload")
    p.append("appsink name=sink sync=false")
    return " ! ".join(p)


def num(v):
    """JSON has no NaN or infinity."""
    return v if math.isfinite(v) else None


# ---- the metas ---------------------------------------------------------------

def disparity_values(meta):
    """The int16 disparity rows as one array('h') of width * height values."""
    width, height = meta.width, meta.height
    out = array.array("h")
    if hasattr(meta, "get_disparity_bytes"):
        data, stride = meta.get_disparity_bytes()
        raw = data.get_data()
        for y in range(height):
            out.frombytes(raw[y * stride:y * stride + 2 * width])
        return out
    # without the accessor: map the data and read it through its address
    ok, mapping = meta.map(Gst.MapFlags.READ)
    if not ok:
        raise RuntimeError("could not map the disparity meta for reading")
    try:
        raw = ctypes.string_at(mapping.disparity,
                               mapping.disparity_stride * height)
        stride = mapping.disparity_stride
        for y in range(height):
            out.frombytes(raw[y * stride:y * stride + 2 * width])
    finally:
        meta.unmap(mapping)
    return out


def disparity_json(meta):
    values = disparity_values(meta)
    valid = [v for v in values if v >= 0]
    # 1 << FRAC_BITS: the typelib of libgstcudavision 0.1.0 has
    # CV_DISPARITY_SCALE = 1 (g-ir-scanner cannot evaluate the shift)
    scale = float(1 << CV.CV_DISPARITY_FRAC_BITS)
    cal = meta.calibration
    return {
        "width": meta.width,
        "height": meta.height,
        "min_disparity": meta.min_disparity,
        "max_disparity": meta.max_disparity,
        "on_device": bool(meta.on_device),
        "has_confidence": bool(meta.has_confidence),
        "calibration": {
            "focal_length": cal.focal_length,
            "principal_x": cal.principal_x,
            "principal_y": cal.principal_y,
            "baseline": cal.baseline,
        },
        "valid_fraction": len(valid) / float(meta.width * meta.height),
        "min": min(valid) / scale if valid else None,
        "mean": sum(valid) / float(len(valid)) / scale if valid else None,
        "max": max(valid) / scale if valid else None,
    }


def stixels_json(meta, brief):
    out = {"frame_width": meta.frame_width,
           "frame_height": meta.frame_height, "n": meta.n_stixels}
    if not HAVE_ACCESSORS:
        return out
    stixels = [meta.get_stixel(i) for i in range(meta.n_stixels)]
    for c in (0, 1, 2):
        out["n_" + CLASS_NAMES[c]] = sum(
            1 for s in stixels if s.stixel_class == c)
    objects = [s.depth for s in stixels
               if s.stixel_class == CV.CvStixelClass.OBJECT and s.depth > 0]
    out["nearest_object_depth"] = min(objects) if objects else None
    if not brief:
        out["items"] = [{
            "column": s.column, "width": s.width, "top": s.top,
            "bottom": s.bottom,
            "class": CLASS_NAMES.get(s.stixel_class, "unknown"),
            "disparity_slope": num(s.disparity_slope),
            "disparity_intercept": num(s.disparity_intercept),
            "depth": num(s.depth), "cost": num(s.cost),
        } for s in stixels]
    return out


def segments_json(meta, brief):
    out = {"signal": "depth" if meta.signal == CV.CvSegmentsSignal.DEPTH
           else "disparity",
           "epsilon": num(meta.epsilon), "n_columns": meta.n_columns}
    if not HAVE_ACCESSORS:
        return out
    columns = []
    n_cuts = n_gaps = 0
    for i, column in enumerate(meta.columns):
        rows = meta.get_cut_rows(i)
        values = meta.get_cut_values(i)
        starts = meta.get_gap_starts(i)
        ends = meta.get_gap_ends(i)
        n_cuts += len(rows)
        n_gaps += len(starts)
        columns.append({"column": column,
                        "cuts": [[r, num(v)] for r, v in zip(rows, values)],
                        "gaps": [[s, e] for s, e in zip(starts, ends)]})
    out["n_cuts"] = n_cuts
    out["n_gaps"] = n_gaps
    if not brief:
        out["columns"] = columns
    return out


def road_json(meta, brief):
    out = {"patch_size": meta.patch_size, "grid_cols": meta.grid_cols,
           "grid_rows": meta.grid_rows}
    cols, rows = meta.grid_cols, meta.grid_rows
    if HAVE_ACCESSORS:
        patches = meta.get_patches()
    else:
        # only the road flag is reachable: ask is_road() at each patch
        patches = bytes(
            int(meta.is_road(c * meta.patch_size, r * meta.patch_size))
            for r in range(rows) for c in range(cols))
    road = sum(1 for p in patches if p & CV.CvRoadPatchFlags.ROAD)
    out["road_patches"] = road
    if HAVE_ACCESSORS:
        out["seed_patches"] = sum(1 for p in patches
                                  if p & CV.CvRoadPatchFlags.SEED)
    out["road_fraction"] = road / float(len(patches)) if patches else 0.0
    out["n_models"] = meta.n_models
    if not brief and HAVE_ACCESSORS:
        models = [meta.get_model(i) for i in range(meta.n_models)]
        out["models"] = [{"weight": num(m.weight), "hue": num(m.hue),
                          "saturation": num(m.saturation)} for m in models]
        out["grid"] = ["".join(str(p & 3) for p in patches[r * cols:(r + 1) * cols])
                       for r in range(rows)]
    return out


def lines_json(meta, brief):
    out = {"n": meta.n_lines}
    if not brief and HAVE_ACCESSORS:
        lines = [meta.get_line(i) for i in range(meta.n_lines)]
        out["items"] = [{"rho": num(l.rho), "theta": num(l.theta),
                         "votes": l.votes, "x0": num(l.x0), "y0": num(l.y0),
                         "x1": num(l.x1), "y1": num(l.y1)} for l in lines]
    return out


def frame_json(sample, index, brief):
    buf = sample.get_buffer()
    frame = {"frame": index,
             "pts": buf.pts / Gst.SECOND if buf.pts != Gst.CLOCK_TIME_NONE
             else None}
    caps = sample.get_caps()
    if caps is not None:
        info = GstVideo.VideoInfo.new_from_caps(caps)
        if info is not None:
            frame["width"] = info.width
            frame["height"] = info.height
            frame["format"] = GstVideo.VideoFormat.to_string(info.finfo.format)
    meta = CV.buffer_get_cv_disparity_meta(buf)
    if meta is not None:
        frame["disparity"] = disparity_json(meta)
    meta = CV.buffer_get_cv_stixels_meta(buf)
    if meta is not None:
        frame["stixels"] = stixels_json(meta, brief)
    meta = CV.buffer_get_cv_segments_meta(buf)
    if meta is not None:
        frame["segments"] = segments_json(meta, brief)
    meta = CV.buffer_get_cv_road_meta(buf)
    if meta is not None:
        frame["road"] = road_json(meta, brief)
    meta = CV.buffer_get_cv_lines_meta(buf)
    if meta is not None:
        frame["lines"] = lines_json(meta, brief)
    return frame


# ---- running the pipeline ------------------------------------------------------

def parse(description):
    """(pipeline, None) or (None, error message)."""
    try:
        return Gst.parse_launch_full(description, None,
                                     Gst.ParseFlags.FATAL_ERRORS), None
    except GLib.Error as e:
        return None, e.message


def get_sink(pipeline):
    sink = pipeline.get_by_name("sink") if isinstance(pipeline, Gst.Bin) \
        else None
    return sink if isinstance(sink, GstApp.AppSink) else None


def check_bus(bus):
    """(stop, failed) after printing errors and warnings."""
    stop = failed = False
    while True:
        msg = bus.pop_filtered(Gst.MessageType.ERROR | Gst.MessageType.EOS
                               | Gst.MessageType.WARNING)
        if msg is None:
            return stop, failed
        if msg.type == Gst.MessageType.EOS:
            stop = True
            continue
        if msg.type == Gst.MessageType.ERROR:
            err, dbg = msg.parse_error()
            stop = failed = True
            kind = "error"
        else:
            err, dbg = msg.parse_warning()
            kind = "warning"
        print("cv-json.py: %s from %s: %s\n%s" % (
            kind, msg.src.get_name(), err.message, dbg or ""),
            file=sys.stderr)


def run(pipeline, sink, brief):
    bus = pipeline.get_bus()
    interrupted = []

    def on_interrupt(*_):
        print("cv-json.py: interrupt: sending EOS", file=sys.stderr)
        interrupted.append(True)
        pipeline.send_event(Gst.Event.new_eos())

    signal.signal(signal.SIGINT, on_interrupt)
    if pipeline.set_state(Gst.State.PLAYING) == Gst.StateChangeReturn.FAILURE:
        check_bus(bus)
        print("cv-json.py: the pipeline could not start", file=sys.stderr)
        pipeline.set_state(Gst.State.NULL)
        return 1
    status = 0
    index = 0
    while True:
        sample = sink.try_pull_sample(PULL_TIMEOUT)
        if sample is not None:
            frame = frame_json(sample, index, brief)
            index += 1
            sys.stdout.write(json.dumps(frame, separators=(",", ":")) + "\n")
            sys.stdout.flush()
            continue
        if sink.is_eos():
            break
        stop, failed = check_bus(bus)
        if failed:
            status = 1
        if stop:
            break
    if check_bus(bus)[1]:
        status = 1
    pipeline.set_state(Gst.State.NULL)
    return status


def main():
    ap = argparse.ArgumentParser(
        description="Print the cudavision results of each frame as JSON "
        "lines (the Python twin of cv-json).",
        epilog="Without a launch line: stereotestsrc with its ground-truth "
        "disparity through the cudavision elements of this installation. A "
        "launch line either names an appsink \"sink\" or gets \"! appsink "
        "name=sink\" appended. See docs/meta-api.md.")
    ap.add_argument("-n", "--num-buffers", type=int, default=10,
                    help="frames of the default pipeline (default 10)")
    ap.add_argument("-b", "--backend", choices=("auto", "cpu", "gpu"),
                    default="auto", help="default pipeline: backend")
    ap.add_argument("--sgm", action="store_true",
                    help="default pipeline: match with cudasgm instead of "
                    "using the ground truth")
    ap.add_argument("--brief", action="store_true",
                    help="counts and statistics only, no per-item lists")
    ap.add_argument("--print-pipeline", action="store_true",
                    help="print the launch line on stderr")
    ap.add_argument("launch", nargs=argparse.REMAINDER,
                    help="a launch line (possibly in several arguments)")
    opt = ap.parse_args()

    Gst.init(None)
    if not HAVE_ACCESSORS:
        print("cv-json.py: this libgstcudavision has no accessors for "
              "bindings (get_stixel, get_line, get_patches, ...): lists and "
              "per-class counts are left out (docs/meta-api.md, Python)",
              file=sys.stderr)
    description = " ".join(opt.launch) if opt.launch \
        else default_pipeline(opt)
    pipeline, error = parse(description)
    sink = get_sink(pipeline) if pipeline else None
    if sink is None:
        # no appsink "sink" (or a line ending in caps, which does not parse
        # alone): end the user's line with one
        extended = description + " ! appsink name=sink sync=false"
        other, _ = parse(extended)
        if other is not None and get_sink(other) is not None:
            pipeline, sink, description = other, get_sink(other), extended
    if pipeline is None:
        sys.exit("cv-json.py: could not build the pipeline: %s\n  %s"
                 % (error, description))
    if opt.print_pipeline:
        print("cv-json.py: " + description, file=sys.stderr)
    if sink is None:
        sys.exit("cv-json.py: the pipeline has no appsink named \"sink\"")
    return run(pipeline, sink, opt.brief)


if __name__ == "__main__":
    sys.exit(main())
