"""The report PDF's map page holds the map PNG's own palette and compressed rows (pbem.pdfimage).

Measured before the change: cairo deflated the map again as 24-bit RGB, about 80 ms of a report's 190 ms in a
12-player game (bench/bench_render.py, pdf_image); the PDF's first page looks the same either way (checked by
rendering both with poppler's pdftoppm at 120 dpi: identical pixels).
"""
from __future__ import annotations

import io
import re
import struct
import zlib

import pytest

from pbem import mapsvg, pdfimage, report

TEXT = "TREASURY\n  Gold: 12\n" + "\n".join(f"line {i}" for i in range(120)) + "\n"


def picture(w: int = 40, h: int = 24) -> bytes:
    """A small map-like picture as the reports' PNG writer makes it (8-bit paletted)."""
    import cairocffi
    image = cairocffi.ImageSurface(cairocffi.FORMAT_RGB24, w, h)
    cr = cairocffi.Context(image)
    cr.set_source_rgb(0.6, 0.75, 0.9)
    cr.paint()
    cr.set_source_rgb(0.8, 0.1, 0.1)
    cr.rectangle(3, 5, 11, 7)
    cr.fill()
    cr.set_source_rgb(0.1, 0.5, 0.1)
    cr.arc(28, 12, 6, 0, 6.3)
    cr.fill()
    return mapsvg.png_bytes(image)


def png_rows(png: bytes) -> bytes:
    parts = pdfimage.png_parts(png)
    return zlib.decompress(parts.idat)


def image_stream(pdf: bytes) -> tuple[bytes, bytes]:
    """(dictionary, stream bytes) of the PDF's one image object, its length as the dictionary says."""
    assert pdf.count(b"/Subtype /Image") == 1
    at = pdf.index(b"/Subtype /Image")
    start = pdf.rindex(b" 0 obj", 0, at)
    opened = re.compile(rb">>\s*stream\n").search(pdf, at)
    dictionary = pdf[start:opened.start()]
    ref = re.search(rb"/Length (\d+) 0 R", dictionary)
    if ref:
        length = int(re.search(rb"\n%s 0 obj\s*(\d+)\s*endobj" % ref.group(1), pdf).group(1))
    else:
        length = int(re.search(rb"/Length (\d+)", dictionary).group(1))
    body = pdf[opened.end():opened.end() + length]
    assert pdf[opened.end() + length:].startswith(b"\nendstream")
    return dictionary, body


def check_xref(pdf: bytes) -> None:
    """Every object the cross-reference table lists starts where it says, and startxref finds the table."""
    at = int(re.search(rb"startxref\n(\d+)\n%%EOF\s*$", pdf).group(1))
    assert pdf[at:at + 5] == b"xref\n"
    head = re.compile(rb"xref\n0 (\d+)\n").match(pdf, at)
    count = int(head.group(1))
    for i in range(count):
        entry = pdf[head.end() + 20 * i:head.end() + 20 * i + 20]
        assert len(entry) == 20 and entry.endswith(b"\n"), entry
        if entry[17:18] == b"n":
            offset = int(entry[:10])
            assert pdf[offset:].startswith(b"%d 0 obj" % i), (i, pdf[offset:offset + 20])
    assert b"/Size %d" % count in pdf[head.end() + 20 * count:]


def test_the_map_page_holds_the_pngs_palette_and_rows_as_they_are():
    png = picture()
    pdf = report.pdf_report(None, TEXT, "t", map_png=png)
    dictionary, body = image_stream(pdf)
    parts = pdfimage.png_parts(png)
    assert b"/Indexed /DeviceRGB 255 <" + parts.palette.hex().encode() + b">" in dictionary
    assert b"/Predictor 15" in dictionary and b"/Columns 40" in dictionary
    assert b"/Width 40" in dictionary and b"/Height 24" in dictionary
    assert body == parts.idat  # not deflated again
    assert zlib.decompress(body) == png_rows(png)
    check_xref(pdf)
    # the page is the map's size: 40 px at PNG_SCALE pixels a px of the map, 0.75 pt a px
    box = re.findall(rb"/MediaBox \[ ?0 0 ([\d.]+) ([\d.]+) ?\]", pdf)[0]
    assert (float(box[0]), float(box[1])) == (round(40 / mapsvg.PNG_SCALE) * 0.75, round(24 / mapsvg.PNG_SCALE) * 0.75)
    assert pdf.startswith(b"%PDF-1.4")


def test_the_text_pages_and_the_page_count_are_as_with_cairos_picture():
    png = picture()
    swapped = report.pdf_report(None, TEXT, "t", map_png=png)
    drawn = report._pdf_document(None, TEXT, "t", None, None, png)  # cairo drawing the picture itself
    from test_report import pdf_text
    assert pdf_text(swapped) == pdf_text(drawn)
    assert "TREASURY" in pdf_text(swapped) and "page 1 of 4" not in pdf_text(swapped)
    count = [p.count(b"/Type /Page ") + p.count(b"/Type /Page\n") for p in (swapped, drawn)]
    assert count[0] == count[1] >= 3


def test_the_map_picture_costs_less_room_than_cairos_rgb_copy_on_a_real_map(tmp_path):
    """The Aegean map of a set-up report: the PDF is smaller with the PNG's own rows (about 365 KB of picture
    against cairo's 480 KB)."""
    from test_report import tiny_campaign
    camp = tiny_campaign(tmp_path / "p")
    report.write_reports(camp, 1, ["athens"], formats=("png", "pdf"))
    folder = camp.reports_dir(1, "athens")
    png, pdf = (folder / "map.png").read_bytes(), (folder / "report.pdf").read_bytes()
    drawn = report._pdf_document(None, "x", "t", None, None, png)
    _, body = image_stream(pdf)
    assert body == pdfimage.png_parts(png).idat
    assert len(pdf) < len(drawn)
    check_xref(pdf)


def test_a_png_of_another_kind_is_drawn_by_cairo():
    import cairocffi
    image = cairocffi.ImageSurface(cairocffi.FORMAT_RGB24, 30, 20)
    out = io.BytesIO()
    image.write_to_png(out)  # 24-bit RGB, not paletted
    rgb = out.getvalue()
    assert pdfimage.png_parts(rgb) is None
    pdf = report.pdf_report(None, TEXT, "t", map_png=rgb)
    dictionary, _ = image_stream(pdf)
    assert b"/Indexed" not in dictionary and b"/Width 30" in dictionary
    check_xref(pdf)


@pytest.mark.parametrize("damage", ["not a png", "interlaced", "16-bit", "transparent", "no palette", "cut short"])
def test_png_parts_refuses_what_it_cannot_put_in_as_it_is(damage):
    png = picture()
    chunks = []
    pos = 8
    while pos < len(png):
        length, kind = struct.unpack(">I4s", png[pos:pos + 8])
        chunks.append([kind, png[pos + 8:pos + 8 + length]])
        pos += 12 + length
    ihdr = bytearray(chunks[0][1])
    if damage == "interlaced":
        ihdr[12] = 1
    elif damage == "16-bit":
        ihdr[8] = 16
    chunks[0][1] = bytes(ihdr)
    if damage == "transparent":
        chunks.insert(2, [b"tRNS", b"\x00"])
    if damage == "no palette":
        chunks = [c for c in chunks if c[0] != b"PLTE"]

    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
    damaged = b"\x89PNG\r\n\x1a\n" + b"".join(chunk(k, b) for k, b in chunks)
    if damage == "not a png":
        damaged = b"GIF89a" + damaged[8:]
    if damage == "cut short":
        damaged = damaged[:60]
    assert pdfimage.png_parts(png) is not None
    assert pdfimage.png_parts(damaged) is None


def test_a_pdf_not_laid_out_as_expected_is_left_to_cairo(monkeypatch):
    """swap_placeholder answers None for a PDF it does not know how to change (two images, no classic
    cross-reference table); pdf_report then lets cairo draw the picture."""
    png = picture()
    parts = pdfimage.png_parts(png)
    placeholder = report._pdf_document(None, TEXT, "t", None, parts)
    assert pdfimage.swap_placeholder(placeholder, parts) is not None
    two = placeholder.replace(b"/Type /Catalog", b"/Type /Catalog /Subtype /Image", 1)
    assert pdfimage.swap_placeholder(two, parts) is None
    no_table = placeholder.replace(b"\nxref\n", b"\nxrefs\n")
    assert pdfimage.swap_placeholder(no_table, parts) is None
    wrong_start = re.sub(rb"startxref\n(\d+)", lambda m: b"startxref\n%d" % (int(m.group(1)) + 1), placeholder)
    assert pdfimage.swap_placeholder(wrong_start, parts) is None
    monkeypatch.setattr(pdfimage, "swap_placeholder", lambda pdf, parts: None)
    pdf = report.pdf_report(None, TEXT, "t", map_png=png)
    dictionary, _ = image_stream(pdf)
    assert b"/Indexed" not in dictionary and b"/Width 40" in dictionary  # cairo's own copy of the picture
