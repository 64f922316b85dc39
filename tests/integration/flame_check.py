#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""Checks of tests/integration/flamegraph.sh on what Chromium made of a
flame graph (its DOM after the script ran, --dump-dom; its screenshot).
Each subcommand prints what it found and exits 0 when the check holds.

  frames FOLDED DOM      every frame of the DOM is a prefix of the folded
                         lines with the exact count the lines add up to, and
                         every prefix is a frame; widths are count/total
  count DOM PATH         the count of the frame at PATH (a;b;c), or nothing
  zoomed DOM PATH        the frame at PATH fills the width, its ancestors are
                         dimmed, its descendants scaled, every other hidden
  matched DOM            the text of the search result
  png PNG                a PNG, not blank: its size, colours, reddish pixels
"""
import struct
import sys
import xml.etree.ElementTree as ET
import zlib

SVG = "{http://www.w3.org/2000/svg}"


def frames_of(path):
    """The DOM's frames: path (tuple of names from the root) -> element data."""
    root = ET.parse(path).getroot()
    by_id, out = {}, {}
    for g in root.iter(SVG + "g"):
        if g.get("class", "").split()[:1] != ["fr"]:
            continue
        rect = g.find(SVG + "rect")
        by_id[g.get("id")] = {
            "name": g.find(SVG + "title").text.split("\n")[0],
            "parent": g.get("data-p"),
            "n": int(g.get("data-n")),
            "x": int(g.get("data-x")),
            "rx": float(rect.get("x")),
            "rw": float(rect.get("width")),
            "class": g.get("class", ""),
            "title": g.find(SVG + "title").text,
            "id": g.get("id"),
        }
    for f in by_id.values():
        names, p = [], f
        while p is not None:
            names.append(p["name"])
            p = by_id.get(p["parent"])
        out[tuple(reversed(names))] = f
    return root, out


def folded_prefixes(path):
    want = {}
    for line in open(path):
        line = line.rstrip("\n")
        if not line:
            continue
        stack, count = line.rsplit(" ", 1)
        names = ["all"] + stack.split(";")
        for i in range(1, len(names) + 1):
            want[tuple(names[:i])] = want.get(tuple(names[:i]), 0) + int(count)
    return want


def cmd_frames(folded, dom):
    root, got = frames_of(dom)
    want = folded_prefixes(folded)
    bad = 0
    if root.get("data-js") != "ready":
        print("the script did not run (no data-js=\"ready\")")
        bad += 1
    for path, n in sorted(want.items()):
        f = got.get(path)
        if f is None or f["n"] != n:
            print("frame %s: folded %d, DOM %s" % (";".join(path), n, f and f["n"]))
            bad += 1
    for path in sorted(set(got) - set(want)):
        print("frame %s in the DOM, not in the folded lines" % ";".join(path))
        bad += 1
    total = want.get(("all",), 0)
    width = float(root.get("width")) - 2 * float(root.get("data-pad"))
    for path, f in got.items():
        share = "%d drop%s, %.2f%% of all" % (f["n"], "" if f["n"] == 1 else "s",
                                             100.0 * f["n"] / total)
        if abs(f["rw"] - width * f["n"] / total) > 0.01 or \
           abs(f["rx"] - 10 - width * f["x"] / total) > 0.01:
            print("frame %s: x %.3f width %.3f for %d of %d" % (";".join(path), f["rx"],
                                                                f["rw"], f["n"], total))
            bad += 1
        if f["title"].split("\n")[1] != share:
            print("frame %s: title %r, wanted %r" % (";".join(path), f["title"], share))
            bad += 1
    print("%d frames in the DOM, %d prefixes of the folded lines, total %d, %d wrong"
          % (len(got), len(want), total, bad))
    return bad == 0


def cmd_count(dom, path):
    _, got = frames_of(dom)
    f = got.get(tuple(path.split(";")))
    print(f["n"] if f else "")
    return f is not None


def cmd_zoomed(dom, path):
    root, got = frames_of(dom)
    key = tuple(path.split(";"))
    target = got[key]
    width = float(root.get("width")) - 2 * float(root.get("data-pad"))
    scale = width / target["n"]
    bad = 0
    if root.get("data-zoom") != target["id"]:
        print("data-zoom %r, wanted %r" % (root.get("data-zoom"), target["id"]))
        bad += 1
    for p, f in got.items():
        cls = f["class"].split()
        if p == key[:len(p)]:
            ok = abs(f["rw"] - width) < 0.01 and "hide" not in cls and \
                ("parent" in cls) == (p != key)
        elif p[:len(key)] == key:
            ok = "hide" not in cls and abs(f["rw"] - f["n"] * scale) < 0.01 and \
                abs(f["rx"] - 10 - (f["x"] - target["x"]) * scale) < 0.01
        else:
            ok = "hide" in cls
        if not ok:
            print("after zooming: frame %s class %r x %.3f width %.3f"
                  % (";".join(p), f["class"], f["rx"], f["rw"]))
            bad += 1
    print("zoomed into ...;%s (%s): %d frames checked, %d wrong" % (key[-1], target["id"],
                                                                len(got), bad))
    return bad == 0


def cmd_matched(dom):
    root = ET.parse(dom).getroot()
    for t in root.iter(SVG + "text"):
        if t.get("id") == "matched":
            print(t.text or "")
            return True
    return False


def png_pixels(path):
    """Width, height and rows of RGB(A) tuples of an 8-bit PNG."""
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    pos, idat = 8, b""
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            w, h, depth, ctype = struct.unpack(">IIBB", body[:10])
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    bpp = {2: 3, 6: 4}[ctype]
    if depth != 8:
        raise ValueError("bit depth %d" % depth)
    raw, stride, prev, rows = zlib.decompress(idat), w * bpp, bytearray(w * bpp), []
    for y in range(h):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append([tuple(line[i:i + 3]) for i in range(0, stride, bpp)])
        prev = line
    return w, h, rows


def cmd_png(path):
    w, h, rows = png_pixels(path)
    colours = set()
    red = 0
    for row in rows[::2]:
        for px in row[::2]:
            colours.add(px)
            # the drop reason frames: red, little green and blue
            red += px[0] > 190 and px[1] < 110 and px[2] < 100
    print("%dx%d, %d colours, %d reason-red pixels (every 4th pixel)" % (w, h, len(colours), red))
    return len(colours) > 20 and red > 100


def main():
    cmds = {"frames": cmd_frames, "count": cmd_count, "zoomed": cmd_zoomed,
            "matched": cmd_matched, "png": cmd_png}
    if len(sys.argv) < 2 or sys.argv[1] not in cmds:
        print(__doc__)
        return 2
    try:
        return 0 if cmds[sys.argv[1]](*sys.argv[2:]) else 1
    except (OSError, ValueError, KeyError, ET.ParseError, TypeError) as e:
        print("%s: %s" % (sys.argv[1], e))
        return 1


sys.exit(main())
