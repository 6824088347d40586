"""Every hex shows its id (a player's review, 9 turns as Ionia): Halicarnassus (2417) had no id anywhere on
his maps.  Its "Halicarnassus 2417" would run into Doria's name, so the id was left out; it now sits at the
top of the city's hex, as on any other hex.  docs/players.md: "Every hex shows its id, small and grey"."""
from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from demo_campaign import create_demo
from pbem import mapsvg, report, turn
from pbem.gamedata import tables
from test_mapsvg import SVG


@pytest.fixture(scope="module")
def demo_turn_1(tmp_path_factory):
    camp = create_demo(tmp_path_factory.mktemp("campaigns") / "demo")
    turn.run(camp)
    return camp


def _texts(svg: str) -> list[str]:
    return [("".join(el.itertext())).strip() for el in ET.fromstring(svg).iter(SVG + "text")]


def test_every_hex_id_of_the_map_is_in_the_svg_of_players_and_of_the_moderator(demo_turn_1):
    camp = demo_turn_1
    game_map = camp.game_map
    after, before, records = report.load_turn(camp, 1)
    players = list(after.turn_order)
    assert len(players) >= 3
    for viewer in players[:3] + [None]:
        ctx = report.build_context("demo", 1, game_map, tables(), after, before, records, viewer)
        v = ctx["_view"]
        texts = set(_texts(mapsvg.map_svg(game_map, v, v["events"], title="Turn 1")))
        missing = sorted(set(game_map.offsets) - texts)
        assert missing == [], (viewer, missing)


def test_a_city_whose_id_does_not_fit_after_its_name_has_it_at_the_top_of_its_hex():
    from pbem.gamedata import load_map
    aegean = load_map()
    with_id = mapsvg.names_with_ids(aegean)
    left = [c for c in aegean.cities.values() if c.hex not in with_id]
    assert left, "the Aegean has a city whose id does not fit after its name (Halicarnassus)"
    boxes = mapsvg.hex_id_boxes(aegean)
    lay = mapsvg.layout_of(aegean)
    static = mapsvg.static_layer(aegean)
    group = next(el for el in ET.fromstring(mapsvg._document(lay, static, [])).iter(SVG + "g")
                 if el.get("id") == "hex-ids")
    drawn = {el.text for el in group.iter(SVG + "text")}
    for c in left:
        assert c.hex in drawn, c.name
        cx, cy = lay.centre(*aegean.offsets[c.hex])
        box = boxes[c.hex]
        assert mapsvg._in_hex(lay, aegean.offsets[c.hex], box) and box[3] < cy - 10, c.name  # at its top
    # every hex once: at its top, or after its city's name
    assert sorted(drawn | set(with_id)) == sorted(aegean.offsets) and not drawn & set(with_id)
