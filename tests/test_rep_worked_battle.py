"""docs/rules.md "A worked battle" on the default Aegean map, with the hexes the doc names (player review,
finding 6: the doc used the tiny test map's hexes, 0505 and 0506, for Sparta and Megara)."""
import re
from pathlib import Path

from pbem.gamedata import load_map
from scenario import add, battle_event, give, land_attacks, make_state, run_phase

AEGEAN = load_map()
DOC = (Path(__file__).parent.parent / "docs" / "rules.md").read_text(encoding="utf-8")
SECTION = DOC.split("### A worked battle", 1)[1].split("\n## ", 1)[0]


def test_the_worked_battle_names_the_real_maps_hexes_and_they_fit_together():
    megara, sparta = AEGEAN.cities["megara"].hex, AEGEAN.cities["sparta"].hex
    assert (megara, sparta) == ("1112", "0716")
    hexes = set(re.findall(r"\b\d{4}\b", SECTION))
    assert {"1212", "1113", megara}.issubset(hexes)
    assert {"1212", "1113"} <= set(AEGEAN.neighbours[megara])  # the attackers stand next to Megara
    assert not {"0405", "0507", "0505", "0506"} & hexes  # the tiny map's


def test_R_BAT_worked_example_of_docs_rules_md():
    """The worked battle example of docs/rules.md ("A worked battle", R-BAT-1..4), number for number, on the
    default map the doc names (it replaced a copy on the tiny test map)."""
    s = make_state(game_map=AEGEAN)
    s.cities["megara"].controller = "sparta"
    s.cities["megara"].hostile = True
    s.players["athens"].traits = ["bronze_panoply"]
    s.players["sparta"].traits = ["fortifications"]
    give(s, "athens", "outflank")
    give(s, "sparta", "strong_garrison")
    s.players["sparta"].standing = {"defence_cards": [{"card": "strong_garrison", "hex": "1112"}]}
    a1 = add(s, "athens", "army", "1212")
    add(s, "athens", "leader", "1212", skills=["general", "heroism"])
    a2 = add(s, "athens", "army", "1113")
    d = add(s, "sparta", "army", "1112")
    gold = s.players["athens"].gold
    ctx = run_phase("land_battle", s, "athens", dice=[6, 3, 7, 4, 5, 6, 2, 5, 2, 6, 3], game_map=AEGEAN,
                    orders=land_attacks("athens", {"units": [a1.id, a2.id], "target": "1112", "plunder": True,
                                                   "cards": [{"card": "outflank", "if_needed": True}]}))
    b = battle_event(ctx)
    results = [u["result"] for u in b["attack"]["units"]] + [u["result"] for u in b["defence"]["units"]]
    assert results == [10, 5, 14, 9]
    assert [c["card"] for c in b["cards"]] == ["outflank", "strong_garrison"]
    assert (b["attack_total"], b["defence_total"], b["winner"]) == (26, 25, "athens")
    assert f"SPA-A1 retreats to {d.hex}" in SECTION, f"the doc names the hex SPA-A1 retreats to: {d.hex}"
    assert a1.hex == "1112" and a2.hex == "1113"
    assert s.cities["megara"].controller == "athens" and s.cities["megara"].hostile and s.cities["megara"].razed == 3
    assert s.players["athens"].gold == gold + 11
