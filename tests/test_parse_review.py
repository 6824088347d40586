"""Order-file reading as a player's review found it (player review, findings 1-8): the fix-it hints of the
schema messages (a list written as text, a value left empty by a #, stray text that reads as a key), ids in any
case, empty lists, retreat keys and city names where a hex id is wanted.  The syntax errors: test_parse_syntax.py."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from pbem import yamlio
from pbem.checker import check_text
from pbem.gamedata import json_path, load_map
from pbem.orders import parse_text
from pbem.ordertypes import Orders
from demo_campaign import create_demo

REPO = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((REPO / "examples" / "orders").glob("*.yaml"))
HEAD = "campaign: demo\nturn: 1\nplayer: athens\nsecret: b6bf-5bc2-a03d-344d\n"


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    return create_demo(tmp_path_factory.mktemp("campaigns") / "demo")


def problems(text: str) -> list[tuple[str, str, str | None]]:
    parsed = parse_text(text, "o.yaml")
    return [(json_path(p.path), p.message, p.hint) for p in parsed.problems]


# -- 1. a list written as one text: the hint lists each item ---------------------------------------------

@pytest.mark.parametrize("value, hint", [
    ('"1313, 1312"', 'write ["1313", "1312"]'),
    ('"1313"', 'write ["1313"]'),
    ("1313", 'write ["1313"]'),
    ("0712", 'write ["0712"]'),
])
def test_a_path_written_as_text_gets_a_hint_with_every_hex_in_quotes(value, hint):
    [(where, message, got)] = problems(HEAD + f"first_move:\n  - units: [ATH-A1]\n    path: {value}\n")
    assert where == "first_move[0].path" and message.startswith("must be a list"), message
    assert got == hint


def test_units_written_as_text_get_a_hint_with_each_unit():
    [(_, _, hint)] = problems(HEAD + 'first_move:\n  - units: ATH-A1, ATH-A2\n    path: ["1212"]\n')
    assert hint == "write [ATH-A1, ATH-A2]"


# -- 2. a key glued to its value: named as such, for any key, as `pbem submit` names the secret ---------

def test_a_glued_key_in_a_list_item_that_yaml_reads_as_text_is_named():
    [(where, message, hint)] = problems(HEAD + "recruit:\n  - city:athens\n")
    assert (where, message, hint) == ("recruit[0]", "`city:` needs a space after the colon", "write city: athens")


# -- 3. a # in a list starts a comment: named at the #, with the hex in quotes ---------------------------

def test_a_hash_after_a_key_leaves_it_empty_and_says_why():
    [(where, message, hint)] = problems(HEAD + "land_battle:\n  - units: [ATH-A1]\n    target: #1313\n")
    assert where == "land_battle[0].target"
    assert message == "has no value: # starts a comment, so #1313 is left out"
    assert hint == 'a hex id must be in quotes: write "1313"'


# -- 4. stray text (an email's greeting or signature): named at its line ---------------------------------

def test_a_greeting_with_a_colon_is_an_unknown_key_with_the_same_hint():
    [(where, message, hint)] = problems("Hi Mod: here are my orders\n" + HEAD)
    assert message == "unknown key 'Hi Mod' at the top level"
    assert hint.startswith("line 1 is not an order")


# -- 5. ids in any case: read as the ids, by the checker and the adjudicator alike -----------------------

def shout(data, path=()):
    """An order file's data with every city, card, unit type and choice id capitalised and every unit id in
    lower case (card targets and the header as written)."""
    if isinstance(data, dict):
        return {k: v if (not path and k in ("campaign", "player", "secret"))
                or (k == "target" and "diplomacy" not in path) else shout(v, path + (k,))
                for k, v in data.items()}
    if isinstance(data, list):
        return [shout(v, path) for v in data]
    if isinstance(data, str) and re.fullmatch(r"[A-Z]{2,4}-[A-Z][0-9]+", data):
        return data.lower()
    if isinstance(data, str) and re.fullmatch(r"[a-z][a-z0-9_]*", data):
        return data.title()
    return data


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_an_example_with_its_ids_in_other_cases_reads_and_checks_the_same(path, demo):
    data = yamlio.load(path).data
    loud = shout(data)
    assert loud != data or path.name == "header-only.yaml"
    assert Orders.from_dict(loud) == Orders.from_dict(data)  # what the adjudicator reads (pbem.turn)
    plain, shouted = yamlio.dump(data), yamlio.dump(loud)
    assert parse_text(shouted, "o.yaml").orders == parse_text(plain, "o.yaml").orders
    said = [(f.severity, f.line, f.path, f.message) for f in check_text(plain, "o.yaml", demo).findings]
    assert [(f.severity, f.line, f.path, f.message) for f in check_text(shouted, "o.yaml", demo).findings] == said


def test_a_city_in_capitals_is_taken_in_diplomacy_as_in_a_card_target(demo):
    text = HEAD + "cards: [{card: formal_agreement, target: Aegina}]\ndiplomacy: [{target: Chalcis}, Melos]\n"
    report = check_text(text, "o.yaml", demo)
    assert not report.errors, report.to_text()
    assert parse_text(text, "o.yaml").orders.diplomacy == ("chalcis", "melos")


def test_every_id_is_read_in_its_game_case():
    text = HEAD + """discard: [Storms]
upkeep: [ath-a1]
recruit: [{city: Athens, unit: Army}]
cards: [Intrigue, {card: Spy, target: spa-l1}]
first_move: [{units: [ath-a1, "1313"], path: ["1212"], load: [ath-l1], cards: [Forced_March]}]
land_battle: [{units: [Ath-A1], target: "1112", cards: [{card: TREASURE, if_needed: true}]}]
second_move: [{units: [ath-f1], path: ["1314"], unload: [ath-l1]}]
standing:
  defence_cards: [Strong_Garrison, {card: Determined_Resistance, hex: "1313"}]
  reactions: [Hesitation]
  captured_leaders: Execute
  discard: [Storms]
  upkeep: [ath-r1]
"""
    parsed = parse_text(text, "o.yaml")
    assert parsed.problems == []
    o = parsed.orders
    assert o.discard == ("storms",) and o.upkeep == ("ATH-A1",)
    assert (o.recruit[0].city, o.recruit[0].unit) == ("athens", "army")
    assert [(c.card, c.target) for c in o.cards] == [("intrigue", None), ("spy", "SPA-L1")]
    m = o.first_move[0]
    assert m.units == ("ATH-A1", "1313") and m.load == ("ATH-L1",) and m.cards[0].card == "forced_march"
    assert o.land_battle[0].units == ("ATH-A1",) and o.land_battle[0].cards[0].card == "treasure"
    assert o.second_move[0].unload == ("ATH-L1",)
    st = o.standing
    assert [d.card for d in st.defence_cards] == ["strong_garrison", "determined_resistance"]
    assert st.reactions[0].card == "hesitation" and st.captured_leaders == "execute"
    assert st.discard == ("storms",) and st.upkeep == ("ATH-R1",)
    assert Orders.from_dict(yamlio.parse(text, "o.yaml").data) == o  # as the adjudicator reads the stored file


def test_a_misspelt_id_is_still_named_with_a_hint():
    [(_, message, hint)] = problems(HEAD + "discard: [Storrms]\n")
    assert message == "'storrms' is not a card" and hint == "did you mean storms?"
    [(_, message, _)] = problems(HEAD + "recruit: [{city: New Athens, unit: army}]\n")
    assert message == "'New Athens' is not a city id"


def test_the_header_player_is_the_senders_id_as_written():
    [(where, message, hint)] = problems(HEAD.replace("player: athens", "player: Athens"))
    assert where == "player" and hint == "did you mean athens?"


# -- 6. an empty list where it means "none" ----------------------------------------------------------------

def test_empty_lists_that_mean_none_are_taken():
    text = HEAD + """first_move: [{units: [ATH-A1], path: ["1212"], load: [], unload: [], cards: []}]
land_battle: [{units: [ATH-A1], target: "1112", cards: []}]
standing: {retreat: {"1212": [], "1313": ["1213"]}}
"""
    parsed = parse_text(text, "o.yaml")
    assert parsed.problems == []
    assert parsed.orders.first_move[0].load == () and parsed.orders.land_battle[0].cards == ()
    assert parsed.orders.standing.retreat == {"1313": ("1213",)}  # no preference for 1212: as if not given


@pytest.mark.parametrize("entry, where", [
    ('first_move: [{units: [], path: ["1212"]}]', "first_move[0].units"),
    ("first_move: [{units: [ATH-A1], path: []}]", "first_move[0].path"),
    ('land_battle: [{units: [], target: "1112"}]', "land_battle[0].units"),
])
def test_empty_lists_that_mean_nothing_are_still_refused(entry, where):
    assert problems(HEAD + entry + "\n") == [(where, "is an empty list", "give at least one entry, or remove the key")]


# -- 7. a retreat key that YAML reads as a number -------------------------------------------------------

def test_an_unquoted_retreat_key_gets_the_words_a_value_gets():
    text = HEAD + 'standing: {retreat: {1313: ["1212"], "1212": [1211], "1112": ["1113"]}}\n'
    parsed = parse_text(text, "o.yaml")
    got = [(json_path(p.path), p.message, p.hint, parsed.where(p.path, p.at_key)) for p in parsed.problems]
    assert got == [
        ("standing.retreat.1313", "1313 is a number: hex ids must be in quotes", 'write "1313"', (5, 22)),
        ("standing.retreat.1212[0]", "1211 is a number: hex ids must be in quotes", 'write "1211"', (5, 47)),
    ]
    assert parsed.orders.standing.retreat == {"1112": ("1113",)}  # the good entry is kept


def test_a_retreat_key_read_as_octal_is_shown_as_written():
    [(where, message, hint)] = problems(HEAD + 'standing:\n  retreat:\n    0712: ["1212"]\n')
    assert (where, message, hint) == ("standing.retreat.0712", "0712 is read as the number 458: hex ids must be in "
                                                               "quotes", 'write "0712"')


# -- 8. a city named where a hex id is wanted: its hex --------------------------------------------------

def test_a_city_as_an_attack_target_or_a_path_step_gets_its_hex():
    megara = load_map().find_city("megara").hex
    text = HEAD + ("land_battle: [{units: [ATH-A1], target: megara}]\n"
                   "first_move: [{units: [ATH-A1], path: [Megara]}]\n"
                   "standing: {defence_cards: [{card: strong_garrison, hex: Megara}], retreat: {megara: []}}\n")
    hints = {w: (m, h) for w, m, h in problems(text)}
    assert hints["land_battle[0].target"] == ("'megara' is not a hex id", f'Megara is hex "{megara}": write '
                                                                          f'target: "{megara}"')
    assert hints["first_move[0].path[0]"][1] == f'Megara is hex "{megara}": write "{megara}" in the path'
    assert hints["standing.defence_cards[0].hex"][1] == f'Megara is hex "{megara}": write hex: "{megara}"'
    assert hints["standing.retreat.megara"][1] == f'Megara is hex "{megara}": write "{megara}"'


def test_a_city_hint_uses_the_map_it_is_given():
    from dataclasses import replace
    m = load_map()
    city = m.cities["megara"]
    moved = replace(m, cities={**m.cities, "megara": replace(city, hex="0101")})
    parsed = parse_text(HEAD + "land_battle: [{units: [ATH-A1], target: megara}]\n", "o.yaml", game_map=moved)
    assert parsed.problems[0].hint == 'Megara is hex "0101": write target: "0101"'


def test_a_word_that_is_no_city_keeps_the_general_hint():
    [(_, _, hint)] = problems(HEAD + "land_battle: [{units: [ATH-A1], target: nowhere}]\n")
    assert hint == 'write 4 digits in quotes, column then row: "0712"'
