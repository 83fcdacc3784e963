#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Every element page's property tables say what the element says.

  test_doc_properties.py

(the pages of the source tree around this file, docs/elements/<element>.md;
the elements from GST_PLUGIN_PATH, through PyGObject)

A property table is one whose header starts `| property |`; its rows name
a property in backticks and may have `type`, `default` and `range`
columns.  For every element:

- each of its properties has a row (GStreamer's own, e.g. GstBaseSrc's
  num-buffers, may: then it is checked), and each row names one of its
  properties;
- the type is the property's (int, uint, uint64, float, double, bool, enum);
- the default, its first word, is the value a new element has: a number
  (within 1e-4 relative, as pages round), true / false, or an enum nick;
- the range, where the page gives one, is the property's: "min – max"
  ("..", "-" and "–" alike; 1e6 or 10⁶), "a, min – max" when a special
  value a sits below the range (then a is the minimum), "min –" when the
  range is open (the type's maximum); for an enum, the nicks, every one.

Exits 77 when PyGObject or the plugin is missing.
"""
import os
import re
import sys

try:
    import gi
    gi.require_version('Gst', '1.0')
    from gi.repository import GObject, Gst
except (ImportError, ValueError) as e:
    print('SKIP: no PyGObject with Gst:', e)
    sys.exit(77)

ROOT = os.path.normpath(os.path.join(os.path.dirname(__file__), '..', '..'))
PAGES = os.path.join(ROOT, 'docs', 'elements')
# GStreamer's classes: their properties are GStreamer's documentation's
GSTREAMER_OWNERS = ('GstObject', 'GstElement', 'GstBaseSrc', 'GstPushSrc',
                    'GstBaseTransform')
TYPES = {
    'int': 'gint', 'uint': 'guint', 'uint64': 'guint64', 'float': 'gfloat',
    'double': 'gdouble', 'bool': 'gboolean',
}
NUMBER = r'-?\d+(?:\.\d+)?(?:e-?\d+)?'
RANGE = re.compile(r'^\s*(?:(?P<special>%s)\s*,\s*)?(?P<min>%s)\s*'
                   r'(?:\.\.|–|-)\s*(?P<max>%s)?\s*(?:,.*)?$'
                   % (NUMBER, NUMBER, NUMBER))


def cells(line):
    return [c.strip() for c in line.strip().strip('|').split('|')]


def property_rows(path):
    """{name: {column: cell}} of the page's property tables."""
    rows = {}
    header = None
    with open(path, encoding='utf-8') as f:
        for line in f:
            if not line.startswith('|'):
                header = None
                continue
            c = cells(line)
            if c[0] == 'property':
                header = c
            elif header and c[0].startswith('`'):
                rows[c[0].strip('`')] = dict(zip(header, c))
    return rows


def plain(cell):
    """The cell without backticks, with 10⁶ written 1e6."""
    return cell.replace('`', '').replace('10⁶', '1e6')


def close(a, b):
    return abs(a - b) <= 1e-4 * max(abs(a), abs(b), 1e-12)


def enum_nicks(pspec):
    values = pspec.default_value.__class__.__enum_values__
    return {v.value_nick for v in values.values()}


def check_type(pspec, doc, problems):
    type_name = GObject.type_name(pspec.value_type)
    if doc == 'enum':
        ok = pspec.value_type.is_a(GObject.TYPE_ENUM)
    else:
        ok = TYPES.get(doc) == type_name
    if not ok:
        problems.append('type %s, the element says %s' % (doc, type_name))


def check_default(element, pspec, doc, problems):
    words = plain(doc).split()
    if not words or not pspec.flags & GObject.ParamFlags.WRITABLE:
        return                      # read-only: the page says what it counts
    word = words[0]
    value = element.get_property(pspec.name)
    if pspec.value_type.is_a(GObject.TYPE_ENUM):
        actual = value.value_nick
        ok = word == actual
    elif isinstance(value, bool):
        actual = 'true' if value else 'false'
        ok = word == actual
    else:
        actual = value
        ok = re.fullmatch(NUMBER, word) and close(float(word), value)
    if not ok:
        problems.append('default %s, the element has %s' % (word, actual))


def check_range(pspec, doc, problems):
    text = plain(doc)
    if not text or text == 'read-only':
        return
    if pspec.value_type.is_a(GObject.TYPE_ENUM):
        listed = {re.sub(r'\s*\(.*\)', '', w).strip()
                  for w in text.split(',')}
        if listed != enum_nicks(pspec):
            problems.append('values %s, the element has %s'
                            % (sorted(listed), sorted(enum_nicks(pspec))))
        return
    m = RANGE.match(text)
    if not m:
        problems.append('range "%s" is not "min – max"' % doc)
        return
    low = float(m.group('special') or m.group('min'))
    high = float(m.group('max')) if m.group('max') else None
    if not close(low, pspec.minimum):
        problems.append('minimum %g, the element has %g'
                        % (low, pspec.minimum))
    if high is None:
        if pspec.maximum < 2**31 - 1:
            problems.append('open range, the element stops at %g'
                            % pspec.maximum)
    elif not close(high, pspec.maximum):
        problems.append('maximum %g, the element has %g'
                        % (high, pspec.maximum))


def check_element(name, problems):
    path = os.path.join(PAGES, name + '.md')
    element = Gst.ElementFactory.make(name, None)
    if element is None:
        problems.append('%s: no such element (GST_PLUGIN_PATH?)' % name)
        return
    rows = property_rows(path)
    specs = {p.name: p for p in element.list_properties()}
    own = {n for n, p in specs.items()
           if GObject.type_name(p.owner_type) not in GSTREAMER_OWNERS}
    for missing in sorted(own - set(rows)):
        problems.append('%s: property %s has no row in %s'
                        % (name, missing, os.path.relpath(path, ROOT)))
    for extra in sorted(set(rows) - set(specs)):
        problems.append('%s: %s documents %s, which the element does not '
                        'have' % (name, os.path.relpath(path, ROOT), extra))
    for prop in sorted(set(rows) & set(specs)):
        row, pspec, found = rows[prop], specs[prop], []
        if 'type' in row:
            check_type(pspec, row['type'], found)
        if 'default' in row:
            check_default(element, pspec, row['default'], found)
        if 'range' in row:
            check_range(pspec, row['range'], found)
        problems.extend('%s %s: the page says %s' % (name, prop, p)
                        for p in found)


def main():
    Gst.init(None)
    names = sorted(f[:-3] for f in os.listdir(PAGES) if f.endswith('.md'))
    if Gst.ElementFactory.find(names[0]) is None:
        print('SKIP: the plugin is not on GST_PLUGIN_PATH')
        return 77
    problems = []
    for name in names:
        check_element(name, problems)
    for p in problems:
        print(p)
    print('%d pages, %d problems' % (len(names), len(problems)))
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
