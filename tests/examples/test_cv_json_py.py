#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""examples-cv-json-py: examples/cv-json.py (GObject introspection) prints
the same JSON lines as the C application examples/cv-json on the same
pipelines (the C one is checked against the metas by examples-cv-json).

With a meta library that has the accessors for bindings (get_stixel,
get_line, get_patches, get_cut_rows, ...) the two outputs must be equal;
without them, cv-json.py may leave out exactly the lists and the counts
derived from them, and everything it prints must still be equal.

    CV_JSON=... CV_JSON_PY=... test_cv_json_py.py
"""
import json
import math
import os
import subprocess
import sys

CV_JSON = os.environ["CV_JSON"]
CV_JSON_PY = os.environ["CV_JSON_PY"]

# what cv-json.py cannot print without the accessors (docs/meta-api.md)
NEED_ACCESSORS = {"items", "n_ground", "n_object", "n_sky",
                  "nearest_object_depth", "n_cuts", "n_gaps", "columns",
                  "seed_patches", "models", "grid"}

failures = []


def fail(msg):
    failures.append(msg)
    if len(failures) <= 30:
        print("FAIL: " + msg, file=sys.stderr)


def have(factory):
    return subprocess.run(["gst-inspect-1.0", "--exists",
                           "--atleast-version=0.0.0", factory]).returncode == 0


def run(cmd):
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
    lines = [json.loads(l) for l in p.stdout.splitlines() if l.strip()]
    return p.returncode, lines, p.stderr


def same_number(a, b):
    return math.isclose(a, b, rel_tol=1e-6, abs_tol=1e-9)


def compare(path, c, py, complete):
    if isinstance(c, dict):
        if not isinstance(py, dict):
            fail("%s: object in C, %r in Python" % (path, py))
            return
        for k in c:
            if k not in py:
                if complete or k not in NEED_ACCESSORS:
                    fail("%s.%s: missing in Python" % (path, k))
                continue
            compare(path + "." + k, c[k], py[k], complete)
        for k in py:
            if k not in c:
                fail("%s.%s: only in Python" % (path, k))
    elif isinstance(c, list):
        if not isinstance(py, list) or len(py) != len(c):
            fail("%s: %d entries in C, %r in Python" % (
                path, len(c), len(py) if isinstance(py, list) else py))
            return
        for i, (a, b) in enumerate(zip(c, py)):
            compare("%s[%d]" % (path, i), a, b, complete)
    elif isinstance(c, bool) or c is None or isinstance(c, str):
        if c != py:
            fail("%s: %r in C, %r in Python" % (path, c, py))
    elif isinstance(c, (int, float)):
        if isinstance(py, bool) or not isinstance(py, (int, float)) \
                or not same_number(c, py):
            fail("%s: %r in C, %r in Python" % (path, c, py))
    else:
        fail("%s: unexpected %r" % (path, c))


def main():
    for e in ("stereotestsrc", "videocrop"):
        if not have(e):
            print("SKIP: no %s" % e)
            return 77
    chain = []
    if have("cudahough"):
        chain.append("cudahough roi-y=136 min-theta=-75 max-theta=75 "
                     "theta-step=0.5 edge-threshold=400 threshold=30 "
                     "nms-radius=4 max-lines=8")
    if have("cudaroaddetect"):
        chain.append("cudaroaddetect pitch=0.02")
    if have("cudastixels"):
        chain.append("cudastixels pitch=0.02")
    if have("cudardp"):
        chain.append("cudardp")
    line = " ! ".join(["stereotestsrc num-buffers=2 attach-disparity=true",
                       "video/x-raw,format=RGBA,width=640,height=240,"
                       "framerate=10/1", "videocrop right=320"] + chain
                      + ["appsink name=sink sync=false"])
    complete = None
    for brief in ([], ["--brief"]):
        rc_c, c_lines, err_c = run([CV_JSON] + brief + [line])
        rc_py, py_lines, err_py = run([sys.executable, CV_JSON_PY] + brief
                                      + [line])
        if rc_c != 0 or rc_py != 0:
            fail("exit status C %d, Python %d\n%s\n%s" % (rc_c, rc_py,
                                                          err_c, err_py))
            continue
        complete = "no accessors for bindings" not in err_py
        if len(c_lines) != 2 or len(py_lines) != 2:
            fail("%d lines from C, %d from Python, expected 2" % (
                len(c_lines), len(py_lines)))
        for i, (c, py) in enumerate(zip(c_lines, py_lines)):
            compare("frame%d%s" % (i, "(brief)" if brief else ""), c, py,
                    complete)
    print("meta library accessors for bindings: %s"
          % ("yes: outputs compared in full" if complete
             else "no: lists left out by cv-json.py"))

    # the default pipeline and the options parse the same way
    rc, lines, err = run([sys.executable, CV_JSON_PY, "-n", "1", "--brief",
                          "--backend=cpu"])
    if rc != 0 or len(lines) != 1 or lines[0].get("width") != 640:
        fail("default pipeline: status %d, %r\n%s" % (rc, lines, err))
    rc, lines, err = run([sys.executable, CV_JSON_PY, "nosuchelement"])
    if rc == 0 or "could not build the pipeline" not in err:
        fail("bad launch line: status %d: %s" % (rc, err))

    if failures:
        print("%d failure(s)" % len(failures))
        return 1
    print("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
