#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""What test/analysis/plot_kinds.sh checks in dgrdma-plot's images (python3, no module beyond
the standard library):
  png FILE...     a line per PNG (or its error): its WIDTHxHEIGHT and the count of pixels
                  that are not white in its outer 2-pixel frame: text or a line the image's
                  edge cuts ("tolerable" cut to "tolera") marks it; a plot that fits has 0
  series SVG      one line per series (gnuplot_plot_N group), in order: its points drawn
                  beyond the legend's sample (markers + line vertices), then its title
  svg SVG...      a line per SVG: "svg" when well-formed with an <svg> root, its count of
                  distinct gnuplot_plot_N ids, the titles of its series without a point drawn
                  (each with a space before and a ";" after) or "none"
  inside SVG      the least distance in pixels between a drawn line and the graph's top or
                  bottom edge (the largest rectangle drawn): a line at 0 % or 100 % drawn on the
                  frame, where it cannot be seen, gives 0
"""
import contextlib
import io
import re
import struct
import sys
import xml.etree.ElementTree as ET
import zlib

SVG = '{http://www.w3.org/2000/svg}'


def lanes_add(x, y, low):
    """Each byte of the integers x and y added modulo 256 (low: 0x7f in every byte)."""
    return ((x & low) + (y & low)) ^ ((x ^ y) & ~low)


def png_pixels(path):
    data = open(path, 'rb').read()
    if data[:8] != b'\x89PNG\r\n\x1a\n':
        raise SystemExit(f'{path}: not a PNG')
    pos, idat = 8, b''
    while pos < len(data):
        size, kind = struct.unpack('>I4s', data[pos:pos + 8])
        chunk = data[pos + 8:pos + 8 + size]
        pos += 12 + size
        if kind == b'IHDR':
            width, height, depth, ctype = struct.unpack('>IIBB', chunk[:10])
        elif kind == b'IDAT':
            idat += chunk
    if depth != 8 or ctype not in (2, 6):
        raise SystemExit(f'{path}: not 8-bit RGB or RGBA (depth {depth}, colour type {ctype})')
    bpp = 3 if ctype == 2 else 4
    raw, stride, rows, prev, pos = zlib.decompress(idat), width * bpp, [], bytes(width * bpp), 0
    # Sub and Up rows (most of gnuplot's) are unfiltered a row at a time, each byte a lane of one
    # integer: Up adds the row above, Sub the pixel to the left, a prefix sum in log2(width) steps
    low, full = int.from_bytes(b'\x7f' * stride, 'little'), (1 << (8 * stride)) - 1
    for _ in range(height):
        kind, line = raw[pos], bytearray(raw[pos + 1:pos + 1 + stride])
        pos += 1 + stride
        if kind == 1:
            v, shift = int.from_bytes(line, 'little'), 8 * bpp
            while shift < 8 * stride:
                v = lanes_add(v, (v << shift) & full, low)
                shift *= 2
            line = bytearray(v.to_bytes(stride, 'little'))
        elif kind == 2:
            line = bytearray(lanes_add(int.from_bytes(line, 'little'), int.from_bytes(prev, 'little'),
                                       low).to_bytes(stride, 'little'))
        elif kind == 3:
            for x in range(stride):
                line[x] = (line[x] + ((line[x - bpp] if x >= bpp else 0) + prev[x]) // 2) & 255
        elif kind == 4:
            for x in range(bpp):
                line[x] = (line[x] + prev[x]) & 255
            for x in range(bpp, stride):
                a, b, c = line[x - bpp], prev[x], prev[x - bpp]
                pa, pb, pc = abs(b - c), abs(a - c), abs(a + b - c - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(line)
        prev = line
    return width, height, bpp, rows


def png(paths):
    for path in paths:
        # one line per file, an error too: a suite reads the lines of several files at once
        try:
            width, height, bpp, rows = png_pixels(path)
        except (Exception, SystemExit) as e:
            print(f'{path}: {e}')
            continue
        edge = 0
        for y in range(height):
            xs = range(width) if y < 2 or y >= height - 2 else (0, 1, width - 2, width - 1)
            for x in xs:
                if min(rows[y][x * bpp:x * bpp + 3]) < 250:
                    edge += 1
        print(f'{width}x{height} {edge}')


def coords(d):
    return [(float(x), float(y)) for x, y in re.findall(r'(-?[0-9.]+),(-?[0-9.]+)', d)]


def series_groups(path):
    root = ET.parse(path).getroot()
    for g in root.iter(SVG + 'g'):
        if re.fullmatch(r'gnuplot_plot_[0-9]+', g.get('id', '')):
            yield g


def series(path):
    # the legend's sample is drawn once, in the series' group or, with an opaque legend, in a
    # second group of the same id drawn over the data
    marks, vertices, titles = {}, {}, {}
    for g in series_groups(path):
        key = g.get('id')
        title = g.find(SVG + 'title')
        titles[key] = title.text if title is not None else ''
        marks[key] = marks.get(key, 0) + sum(1 for _ in g.iter(SVG + 'use'))
        vertices[key] = vertices.get(key, 0) + sum(len(coords(p.get('d', '')))
                                                   for p in g.iter(SVG + 'path'))
    for key, title in titles.items():
        # the legend's sample: one marker, a line of two points, or both
        legend = (1 if marks[key] else 0) + (2 if vertices[key] else 0)
        print(marks[key] + vertices[key] - legend, title)


def svg(paths):
    # a line per SVG, what plot_kinds.sh's check_kind asks of it: "svg" when it is well-formed
    # XML whose root is <svg>; the distinct id="gnuplot_plot_N" in its text (what grep -o |
    # sort -u counts); the series without a point drawn as `series` counts them, or "none"
    for path in paths:
        try:
            text = open(path, encoding='utf-8', errors='replace').read()
        except OSError:
            print('no-svg 0 unreadable')
            continue
        try:
            well = 'svg' if ET.parse(path).getroot().tag.endswith('svg') else 'no-svg'
        except Exception:
            well = 'no-svg'
        ids = len(set(re.findall(r'id="gnuplot_plot_[0-9]*"', text)))
        try:
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                series(path)
            bad = ''.join(' ' + ' '.join(line.split()[1:]) + ';' for line in out.getvalue().splitlines()
                          if float(line.split()[0]) <= 0)
        except Exception as e:
            bad = f'error: {e}'
        print(well, ids, bad or 'none')


def inside(path):
    root = ET.parse(path).getroot()
    frame = None
    for p in root.iter(SVG + 'path'):
        d = p.get('d', '')
        pts = coords(d)
        if 'Z' in d and len(pts) == 5:
            xs, ys = [x for x, _ in pts], [y for _, y in pts]
            area = (max(xs) - min(xs)) * (max(ys) - min(ys))
            if frame is None or area > frame[0]:
                frame = (area, min(ys), max(ys))
    least = None
    for g in series_groups(path):
        for p in g.iter(SVG + 'path'):
            pts = coords(p.get('d', ''))
            if len(pts) <= 2:
                continue  # the legend's sample
            for _, y in pts:
                gap = min(y - frame[1], frame[2] - y)
                least = gap if least is None else min(least, gap)
    print(f'{least:.1f}')


if __name__ == '__main__':
    if len(sys.argv) < 3 or sys.argv[1] not in ('png', 'svg', 'series', 'inside'):
        raise SystemExit(__doc__)
    {'png': lambda a: png(a), 'svg': lambda a: svg(a), 'series': lambda a: series(a[0]),
     'inside': lambda a: inside(a[0])}[sys.argv[1]](sys.argv[2:])
