#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Every gst-launch-1.0 pipeline that the README and docs/ show runs.

  test_doc_pipelines.py [gpu]

(the docs of the source tree around this file; the shared data from
$CUDAVISION_DATA, as every test's)

The pipelines are the `gst-launch-1.0` lines of the fenced code blocks in
README.md, docs/*.md and docs/elements/*.md (continuation lines joined).
Each runs in a scratch folder that holds the input files the docs name
(made here, from stereotestsrc or the shared data), with what needs a
camera, a screen or a person replaced:

- `v4l2src ...` -> `videotestsrc`, video sinks -> `fakesink`;
- sources and `imagefreeze` run one frame on the CPU (its reference
  matcher takes seconds at 2560x720), three with `gpu` (a frame graph
  is captured at the second and replayed from the third);
- placeholders such as `<fx>` get example values;
- `../shared/data` is $CUDAVISION_DATA (where that lacks the file, a
  synthetic disparity map stands in);
- on the CPU (the default) `cudaupload` and `cudadownload` become
  `identity`, so the elements run their CPU backend on system memory;
  with `gpu` they stay (exit 77 where there is no `cudaupload`, i.e. no
  GPU or no nvcodec plugin).

A pipeline passes when gst-launch-1.0 exits 0 without a warning or a
critical, every file its sinks name was written, and with `-m` every
element with post-messages=true posted its message.
"""
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

TIMEOUT_S = 120                     # per pipeline
VIDEO_SINKS = ('autovideosink', 'xvimagesink', 'glimagesink', 'ximagesink')
FRAME_SOURCES = ('stereotestsrc', 'videotestsrc', 'imagefreeze')
# Where a page leaves a value to the reader (`focal-length=<fx>`): examples
PLACEHOLDER = re.compile(r'<([a-z]+)>')
PLACEHOLDERS = {'fx': '700', 'cx': '640', 'cy': '360', 'm': '0.12'}


def doc_files(root):
    docs = os.path.join(root, 'docs')
    files = ['README.md']
    for sub in ('', 'elements'):
        folder = os.path.join(docs, sub)
        files += sorted(os.path.relpath(os.path.join(folder, f), root)
                        for f in os.listdir(folder) if f.endswith('.md'))
    return files


def pipelines(root):
    """(file:line, command line) of every gst-launch-1.0 line in a code block."""
    found = []
    for name in doc_files(root):
        with open(os.path.join(root, name), encoding='utf-8') as f:
            lines = f.read().split('\n')
        in_block = False
        i = 0
        while i < len(lines):
            line = lines[i]
            if line.lstrip().startswith('```'):
                in_block = not in_block
            elif in_block and 'gst-launch-1.0' in line:
                start = i
                while line.rstrip().endswith('\\') and i + 1 < len(lines):
                    i += 1
                    line = line.rstrip()[:-1] + ' ' + lines[i]
                cmd = line[line.index('gst-launch-1.0'):]
                found.append(('%s:%d' % (name, start + 1), ' '.join(cmd.split())))
            i += 1
    return found


class Element:
    """An element of a launch line: its factory and its property tokens."""

    def __init__(self, factory):
        self.factory = factory
        self.props = []

    def get(self, key):
        for p in self.props:
            k, _, v = p.partition('=')
            if k == key:
                return v
        return None

    def set(self, key, value):
        self.props = [p for p in self.props if p.partition('=')[0] != key]
        self.props.append('%s=%s' % (key, value))


def parse(tokens):
    """Splits a launch description into links ('!'), caps / pad references
    (strings) and Elements."""
    items = []
    for t in tokens:
        media_type = t.split(',')[0]
        is_caps = '/' in media_type and '=' not in media_type
        is_pad = '.' in t and '=' not in t
        if t == '!' or is_caps or is_pad:
            items.append(t)
        elif '=' in t and items and isinstance(items[-1], Element):
            items[-1].props.append(t)
        else:
            items.append(Element(t))
    return items


def unparse(items):
    out = []
    for it in items:
        if isinstance(it, Element):
            out += [it.factory] + it.props
        else:
            out.append(it)
    return out


def adapt(cmd, data_dir, gpu):
    """The doc's command line made runnable here: (options, items, problems)."""
    max_frames = 3 if gpu else 1
    problems = ['placeholder <%s> has no example value' % p
                for p in PLACEHOLDER.findall(cmd) if p not in PLACEHOLDERS]
    cmd = PLACEHOLDER.sub(lambda m: PLACEHOLDERS.get(m.group(1), '0'), cmd)
    if '$' in cmd:
        problems.append('shell variable in the line')
    argv = shlex.split(cmd)
    options = []
    while len(argv) > 1 and argv[1].startswith('-'):
        options.append(argv.pop(1))
    items = parse(argv[1:])
    for it in items:
        if not isinstance(it, Element):
            continue
        if it.factory == 'v4l2src':
            it.factory, it.props = 'videotestsrc', []
        elif it.factory in VIDEO_SINKS:
            it.factory, it.props = 'fakesink', []
        elif it.factory in ('cudaupload', 'cudadownload') and not gpu:
            it.factory, it.props = 'identity', []
        if it.factory in FRAME_SOURCES:
            n = it.get('num-buffers')
            if n is None or int(n) <= 0 or int(n) > max_frames:
                it.set('num-buffers', max_frames)
        loc = it.get('location')
        if loc and loc.startswith('../shared/data/'):
            it.set('location', os.path.join(data_dir, loc[len('../shared/data/'):]))
    return options, items, problems


def run(argv, cwd):
    try:
        r = subprocess.run(argv, cwd=cwd, capture_output=True, text=True,
                           timeout=TIMEOUT_S)
    except subprocess.TimeoutExpired:
        return None, 'timed out after %d s' % TIMEOUT_S
    return r.returncode, r.stdout + r.stderr


def launch(description, cwd):
    """Runs a pipeline of ours that makes an input file; raises on failure."""
    rc, out = run(['gst-launch-1.0', '-q'] + description.split(), cwd)
    if rc != 0:
        raise RuntimeError('making an input failed: %s\n%s' % (description, out))


def disparity_png(sink, frames=1, fmt='GRAY16_BE'):
    """cudasgm's KITTI-style disparity of the synthetic camera, as PNG."""
    return ('stereotestsrc num-buffers=%d ! '
            'video/x-raw,format=GRAY8,width=2484,height=375 ! '
            'cudasgm max-disparity=128 output=disparity-16 ! videoconvert ! '
            'video/x-raw,format=%s ! pngenc ! %s' % (frames, fmt, sink))


# The input files the docs read, by name: how to make each here.
INPUTS = {
    'mask.png': 'stereotestsrc num-buffers=1 ! '
                'video/x-raw,format=GRAY8,width=1280,height=480 ! '
                'videocrop right=640 ! pngenc ! filesink location=mask.png',
    '000000_10.png': disparity_png('filesink location=000000_10.png'),
    'disp_%06d.png': disparity_png('multifilesink location=disp_%06d.png', 2),
    'pair_%04d.png': 'stereotestsrc num-buffers=2 layout=top-bottom ! '
                     'video/x-raw,format=RGBA,width=1242,height=750 ! pngenc ! '
                     'multifilesink location=pair_%04d.png',
    # Middlebury's cones (450x375) where the shared data is missing
    'left.png': 'stereotestsrc num-buffers=1 ! '
                'video/x-raw,format=RGBA,width=900,height=375 ! '
                'videocrop right=450 ! pngenc ! filesink location=left.png',
    'right.png': 'stereotestsrc num-buffers=1 ! '
                 'video/x-raw,format=RGBA,width=900,height=375 ! '
                 'videocrop left=450 ! pngenc ! filesink location=right.png',
}
CONES = os.path.join('middlebury', 'cones')


def first_file(location):
    """The first file of a (multi)file element's location."""
    return location % 0 if '%' in location else location


def make_inputs(items, cwd, data_dir):
    """Makes the files that the pipeline's sources read and are not there."""
    for it in items:
        if not isinstance(it, Element) or it.factory not in ('filesrc', 'multifilesrc'):
            continue
        loc = it.get('location')
        if os.path.exists(os.path.join(cwd, first_file(loc))):
            continue
        name = os.path.basename(loc)
        if loc.startswith(data_dir):
            # no shared data here: a synthetic disparity map in its place
            # (GRAY8, as Middlebury's disp-left.png)
            it.set('location', os.path.join(cwd, 'shared-' + name))
            launch(disparity_png('filesink location=shared-' + name,
                                 fmt='GRAY8'), cwd)
            continue
        shared = os.path.join(data_dir, CONES, name)
        if name in ('left.png', 'right.png') and os.path.exists(shared):
            shutil.copy(shared, os.path.join(cwd, name))
        elif name in INPUTS:
            launch(INPUTS[name], cwd)
        else:
            raise RuntimeError('no recipe for the input file %s: add one to '
                               'INPUTS in %s' % (loc, __file__))


def check(items, options, rc, out, cwd):
    """What a passing run shows; returns the problems."""
    if rc is None:
        return [out]
    problems = []
    if rc != 0:
        problems.append('exit status %d' % rc)
    for line in out.split('\n'):
        if re.search(r'-(WARNING|CRITICAL) \*\*|^WARNING: |^ERROR: ', line):
            problems.append('output: ' + line.strip())
    for it in items:
        if not isinstance(it, Element):
            continue
        loc = it.get('location')
        if it.factory in ('filesink', 'multifilesink') and loc:
            path = os.path.join(cwd, first_file(loc))
            if not os.path.exists(path) or os.path.getsize(path) == 0:
                problems.append('%s did not write %s' % (it.factory, first_file(loc)))
        if it.get('post-messages') == 'true' and '-m' in options:
            name = it.get('name') or it.factory + r'\d+'
            if not re.search(r'from element "%s" \(element\): %s,'
                             % (name, it.factory), out):
                problems.append('no message from %s' % it.factory)
    return problems


def main():
    if sys.argv[1:] not in ([], ['gpu']):
        sys.exit(__doc__)
    gpu = sys.argv[1:] == ['gpu']
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..')
    data_dir = os.path.abspath(os.environ.get('CUDAVISION_DATA', 'no-shared-data'))
    if gpu and subprocess.run(['gst-inspect-1.0', '--exists', 'cudaupload']).returncode:
        print('SKIP: no cudaupload here (no GPU, or no nvcodec plugin)')
        sys.exit(77)
    found = pipelines(root)
    failures = 0
    for f in doc_files(root):
        if f.startswith('docs/elements/') and not any(w.startswith(f + ':') for w, _ in found):
            print('FAIL: %s shows no gst-launch-1.0 pipeline' % f)
            failures += 1
    with tempfile.TemporaryDirectory() as cwd:
        for where, cmd in found:
            options, items, problems = adapt(cmd, data_dir, gpu)
            if not problems:
                try:
                    make_inputs(items, cwd, data_dir)
                except RuntimeError as e:
                    problems = [str(e)]
            argv = ['gst-launch-1.0'] + options + unparse(items)
            if not problems:
                rc, out = run(argv, cwd)
                problems = check(items, options, rc, out, cwd)
            print('%s %s\n    %s' % ('ok  ' if not problems else 'FAIL', where,
                                     ' '.join(shlex.quote(a) for a in argv)))
            for p in problems:
                print('    ' + p)
            failures += bool(problems)
            sys.stdout.flush()
    print('%d pipelines, %d failed' % (len(found), failures))
    sys.exit(1 if failures else 0)


if __name__ == '__main__':
    main()
