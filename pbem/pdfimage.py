"""The report PDF's map page: the map PNG's own compressed pixels put into the PDF as they are.

Cairo, given the map as an image, writes it into the PDF as 24-bit RGB and deflates those 5.5 MB again: about 80
ms a report, the largest single cost of writing a turn's reports.  The map PNG (``mapsvg.png_bytes``) is already
an 8-bit paletted image, deflated row by row with PNG's filter bytes; a PDF image takes exactly that: an
``/Indexed`` colour space holding the palette, and ``/FlateDecode`` with PNG predictors (``/Predictor 15``),
which read the filter byte each row starts with.  So the page is drawn by cairo with a 1x1 placeholder image
scaled to the page, and the placeholder's image object is then swapped for one holding the PNG's palette and its
IDAT data, unchanged (an image object is always drawn onto the unit square its page's matrix places, whatever
its size in pixels).  The PDF's cross-reference table is moved on by the bytes the swap adds.

The swap asks for the PDF as cairo writes it under PDF 1.4 (``restrict_to_version``): plain objects and a
classic cross-reference table, no object or cross-reference streams.  Anything else, or a PNG of another kind,
and ``swap_placeholder``/``png_parts`` answer None: the caller then draws the image through cairo, as before.
"""
from __future__ import annotations

import re
import struct
from dataclasses import dataclass


@dataclass(frozen=True)
class PngParts:
    width: int
    height: int
    palette: bytes  # RGB triples
    idat: bytes  # the zlib stream of the rows, each led by its PNG filter byte


def png_parts(png: bytes) -> PngParts | None:
    """An 8-bit paletted, non-interlaced PNG's size, palette and compressed rows; None for any other PNG (or
    not a PNG)."""
    if not png.startswith(b"\x89PNG\r\n\x1a\n"):
        return None
    pos, ihdr, palette, idat = 8, None, None, []
    while pos + 8 <= len(png):
        length, kind = struct.unpack(">I4s", png[pos:pos + 8])
        body = png[pos + 8:pos + 8 + length]
        if len(body) != length:
            return None
        if kind == b"IHDR":
            ihdr = body
        elif kind == b"PLTE":
            palette = body
        elif kind == b"IDAT":
            idat.append(body)
        elif kind == b"tRNS":  # transparency: not what the map is; let cairo handle it
            return None
        elif kind == b"IEND":
            break
        pos += 12 + length
    if ihdr is None or palette is None or not idat or len(ihdr) != 13 or len(palette) % 3:
        return None
    width, height, depth, colour, _compression, _filter, interlace = struct.unpack(">IIBBBBB", ihdr)
    if depth != 8 or colour != 3 or interlace != 0 or not width or not height or not 3 <= len(palette) <= 768:
        return None
    return PngParts(width, height, palette, b"".join(idat))


_HEAD = re.compile(rb"\n(\d+) 0 obj\n")
_STREAM = re.compile(rb">>\s*stream\r?\n")
_LENGTH_REF = re.compile(rb"/Length (\d+) 0 R")
_LENGTH = re.compile(rb"/Length (\d+)\s*/")
_XREF = re.compile(rb"\nxref\n0 (\d+)\n")
_STARTXREF = re.compile(rb"\nstartxref\n(\d+)\n%%EOF\s*$")


def image_object(number: int, parts: PngParts) -> bytes:
    """The PDF image object holding ``parts`` as they are."""
    hival = len(parts.palette) // 3 - 1
    head = (f"{number} 0 obj\n<< /Length {len(parts.idat)}\n   /Filter /FlateDecode\n"
            f"   /DecodeParms << /Predictor 15 /Colors 1 /BitsPerComponent 8 /Columns {parts.width} >>\n"
            f"   /Type /XObject\n   /Subtype /Image\n   /Width {parts.width}\n   /Height {parts.height}\n"
            f"   /ColorSpace [ /Indexed /DeviceRGB {hival} <{parts.palette.hex()}> ]\n"
            f"   /Interpolate true\n   /BitsPerComponent 8\n>>\nstream\n").encode("ascii")
    return head + parts.idat + b"\nendstream\nendobj"


def swap_placeholder(pdf: bytes, parts: PngParts) -> bytes | None:
    """``pdf`` (cairo's, PDF 1.4) with its one image object replaced by ``parts``; None if it is not as expected
    (not exactly one image, a stream or cross-reference table not where its numbers say)."""
    if pdf.count(b"/Subtype /Image") != 1 or pdf.count(b"\nxref\n") != 1 or b"/Prev" in pdf:
        return None
    at_image = pdf.index(b"/Subtype /Image")
    heads = list(_HEAD.finditer(pdf, 0, at_image))
    if not heads:
        return None
    head = heads[-1]  # the image object's "N 0 obj" line
    number, start = int(head.group(1)), head.start() + 1
    opened = _STREAM.search(pdf, at_image)
    if opened is None or _HEAD.search(pdf, head.end(), opened.start()):
        return None
    dictionary = pdf[head.end():opened.start()]
    ref, direct = _LENGTH_REF.search(dictionary), _LENGTH.search(dictionary)
    if ref is not None:
        held = re.search(rb"\n%s 0 obj\s*(\d+)\s*endobj" % ref.group(1), pdf)
        if held is None:
            return None
        length = int(held.group(1))
    elif direct is not None:
        length = int(direct.group(1))
    else:
        return None
    stream_end = opened.end() + length
    tail = re.compile(rb"\r?\nendstream\s*endobj").match(pdf, stream_end)
    if tail is None:
        return None
    end = tail.end()  # just after "endobj"
    new = image_object(number, parts)
    delta = len(new) - (end - start)
    xref = _XREF.search(pdf)
    startxref = _STARTXREF.search(pdf)
    if xref is None or startxref is None or int(startxref.group(1)) != xref.start() + 1:
        return None
    count = int(xref.group(1))
    table_at = xref.end()
    entries = pdf[table_at:table_at + 20 * count]
    if len(entries) != 20 * count:
        return None
    moved, found = [], False
    for i in range(count):
        entry = entries[20 * i:20 * i + 20]
        offset, gen, kind = entry[:10], entry[11:16], entry[17:18]
        if kind == b"n":
            at = int(offset)
            if at == start:
                if i != number:
                    return None
                found = True
            elif start < at < end:
                return None  # an object inside the one replaced: not cairo's layout
            elif at > start:
                at += delta
            entry = b"%010d %s n%s" % (at, gen, entry[18:])
        moved.append(entry)
    if not found:
        return None
    body = pdf[:start] + new + pdf[end:table_at]  # (everything but the object itself unchanged)
    out = body + b"".join(moved) + pdf[table_at + 20 * count:startxref.start()]
    out += b"\nstartxref\n%d\n%%%%EOF\n" % (xref.start() + 1 + delta)
    return out
