"""The legend says what each city mark means by itself.  A new player (as Sparta) read the composite row "SPA
holds it, ! hostile, razed 2 counters", drawn beside a red dashed ring, and was left unsure what the ring alone
means: the ring now has its own row ("hostile city"), and the tag's words their own, beside a sample tag."""
from __future__ import annotations

import xml.etree.ElementTree as ET

from pbem import mapsvg
from pbem.visibility import view
from scenario import TINY, make_state
from test_mapsvg import SVG


def rows(svg: str) -> list[tuple[list[str], str]]:
    """The "Map marks" rows, each as (what its sample is drawn with, its words), in order: a row's words start
    30 px right of the legend's edge, its sample before them."""
    legend = next(el for el in ET.fromstring(svg).iter(SVG + "g") if el.get("id") == "marks-legend")
    words_x = float(next(el for el in legend if "".join(el.itertext()) == "Map marks").get("x")) + 30
    out, sample = [], []
    for el in legend:
        words = "".join(el.itertext())
        if el.tag == SVG + "text" and abs(float(el.get("x")) - words_x) < 0.01:
            out.append((sample, words))
            sample = []
        elif words == "Map marks":
            sample = []
        else:
            sample.append(el.tag.replace(SVG, "") + (":" + words if words else ""))
    return out


def test_the_hostile_ring_and_the_tag_each_have_their_own_row():
    svg = mapsvg.map_svg(TINY, view(make_state(), TINY, "athens"))
    legend = rows(svg)
    ring = next((sample, words) for sample, words in legend if sample == ["circle"] and "hostile" in words)
    assert ring[1].startswith("hostile city") and "holds" not in ring[1] and "razed" not in ring[1]
    tag = next((sample, words) for sample, words in legend if "SPA holds it" in words)
    assert tag[1] == "SPA holds it, ! hostile, razed 2 counters"
    assert "circle" not in tag[0] and "text:SPA !" in tag[0]  # a sample tag, no ring


def test_the_legend_with_its_extra_row_still_fits_every_player_of_the_aegean():
    from pbem.gamedata import load_map
    aegean = load_map(None)
    lay = mapsvg.layout_of(aegean)
    players_y = mapsvg._marks_y(mapsvg.legend_height(aegean))[2]
    last = players_y + 16 + 19 * (len(aegean.city_states()) - 1)  # _turn_legend: a row each, 19 px apart
    assert last + 7 <= lay.height  # its colour box's foot on the canvas
