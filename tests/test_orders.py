"""The order file format: schema <-> Orders.from_dict agreement, parsing, friendly schema messages (R-TURN-1)."""
from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path
from typing import Iterable

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbem import yamlio
from pbem.errors import OrderSyntaxError
from pbem.gamedata import tables
from pbem.model import GameState, Unit, UnitType
from demo_campaign import demo_spec
from pbem.orders import expand_units, load_orders, orders_schema, parse_text
from pbem.ordertypes import PHASE_KEYS, Attack, CardUse, DefenceCard, Move, Orders, Recruit, Standing

REPO = Path(__file__).resolve().parent.parent
SCHEMA_FILE = REPO / "schemas" / "orders.schema.json"
EXAMPLES = sorted((REPO / "examples" / "orders").glob("*.yaml"))
HEAD = "campaign: demo\nturn: 1\nplayer: athens\nsecret: b6bf-5bc2-a03d-344d\n"


def fields(cls) -> set[str]:
    return {f.name for f in dataclasses.fields(cls)} - {"index"}


def props(name: str | None = None, branch: str | None = None) -> set[str]:
    sch = orders_schema() if name is None else orders_schema()["$defs"][name]
    if branch:
        sch = sch[branch]
    return set(sch["properties"])


# -- the schema is the contract of Orders.from_dict ------------------------------------------------------

def test_schema_is_valid_draft_2020_12():
    raw = json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))
    assert raw["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    jsonschema.Draft202012Validator.check_schema(raw)


def test_schema_keys_are_the_keys_from_dict_reads():
    assert props() == {"campaign", "turn", "player", "secret", *PHASE_KEYS}
    assert props("standing") == fields(Standing)
    assert props("move") == fields(Move)
    assert props("attack") == fields(Attack)
    assert props("recruit") == fields(Recruit)
    assert props("card_use", "else") == fields(CardUse)
    assert props("defence_card", "else") == fields(DefenceCard)
    assert props("diplomacy_target", "else") == {"target"}


def test_additional_properties_are_refused_everywhere():
    def walk(node):
        if isinstance(node, dict):
            if "properties" in node:
                assert node.get("additionalProperties") is False, sorted(node["properties"])
            for v in node.values():
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)
    walk(orders_schema())


def test_card_ids_in_the_schema_are_the_deck():
    assert sorted(orders_schema()["$defs"]["card"]["enum"]) == sorted(tables().cards)


HEX = st.from_regex(r"[0-9]{4}", fullmatch=True)
UNIT = st.from_regex(r"[A-Z]{2,4}-[A-Z][0-9]{1,3}", fullmatch=True)
WORD = st.from_regex(r"[a-z][a-z0-9_]{0,10}", fullmatch=True)
CARD = st.sampled_from(sorted(tables().cards))
TARGET = st.one_of(HEX, UNIT, WORD)
TEXT = st.text(st.characters(blacklist_categories=("Cs", "Cc", "Zl", "Zp")), min_size=1, max_size=20)


def opt(required: dict, optional: dict):
    return st.fixed_dictionaries(required, optional=optional)


CARD_USE = st.one_of(CARD, opt({"card": CARD}, {"target": TARGET, "if_needed": st.booleans()}))
MOVE = opt({"units": st.lists(st.one_of(UNIT, HEX), min_size=1, max_size=3)},
           {"path": st.lists(HEX, min_size=1, max_size=4), "load": st.lists(UNIT, min_size=1, max_size=2),
            "unload": st.lists(UNIT, min_size=1, max_size=2), "partial": st.booleans(),
            "cards": st.lists(CARD_USE, min_size=1, max_size=2)})
ATTACK = opt({"units": st.lists(st.one_of(UNIT, HEX), min_size=1, max_size=3), "target": HEX},
             {"cards": st.lists(CARD_USE, min_size=1, max_size=3), "plunder": st.booleans(),
              "destroy": st.booleans()})
RECRUIT = st.one_of(
    opt({"city": WORD, "unit": st.sampled_from(["army", "rowers", "fleet", "transport"])},
        {"baggage": st.integers(0, 6)}),
    opt({"city": WORD, "baggage": st.integers(0, 6)}, {}))
STANDING = st.one_of(st.none(), opt({}, {
    "defence_cards": st.lists(st.one_of(CARD, opt({"card": CARD}, {"hex": HEX, "if_needed": st.booleans()})),
                              max_size=3),
    "executions": st.booleans(), "reactions": st.lists(CARD_USE, max_size=2),
    "retreat": st.dictionaries(HEX, st.one_of(HEX, st.lists(HEX, min_size=1, max_size=3)), max_size=3),
    "captured_leaders": st.sampled_from(["ransom", "execute"]),
    "discard": st.lists(CARD, max_size=3), "upkeep": st.lists(UNIT, max_size=3)}))
DOCUMENT = opt({"campaign": TEXT, "turn": st.integers(1, 999), "player": WORD}, {
    "secret": TEXT, "discard": st.lists(CARD, max_size=3),
    "upkeep": st.lists(UNIT, max_size=3), "recruit": st.lists(RECRUIT, max_size=3),
    "diplomacy": st.lists(st.one_of(WORD, opt({"target": WORD}, {})), max_size=3),
    "cards": st.lists(CARD_USE, max_size=3), "first_move": st.lists(MOVE, max_size=2),
    "sea_battle": st.lists(ATTACK, max_size=2), "land_battle": st.lists(ATTACK, max_size=2),
    "second_move": st.lists(MOVE, max_size=2), "standing": STANDING})


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(DOCUMENT)
def test_every_document_the_schema_accepts_from_dict_reads(doc):
    validator = jsonschema.Draft202012Validator(orders_schema())
    assert not list(validator.iter_errors(doc))
    orders = Orders.from_dict(doc)
    assert orders.player == doc["player"]
    assert len(orders.first_move) == len(doc.get("first_move", []))
    # and through the YAML text and pbem.orders, the same orders come out
    parsed = parse_text(yamlio.dump(doc), "generated.yaml")
    assert parsed.problems == []
    assert parsed.orders == orders


def test_short_and_long_forms():
    text = HEAD + """
diplomacy: [megara, {target: chalcis}]
cards: [intrigue, {card: storms, target: "1014", if_needed: false}]
standing:
  defence_cards: [determined_resistance, {card: strong_garrison, hex: "1313"}]
  retreat: {"1313": "1212", "1212": ["1313", "1213"]}
"""
    o = parse_text(text, "o.yaml").orders
    assert o.diplomacy == ("megara", "chalcis")
    assert o.cards == (CardUse("intrigue"), CardUse("storms", "1014", False))
    assert o.standing.defence_cards == (DefenceCard("determined_resistance", None, True),
                                        DefenceCard("strong_garrison", "1313", True))
    assert o.standing.retreat == {"1313": ("1212",), "1212": ("1313", "1213")}


def test_empty_standing_means_defaults_and_no_standing_means_keep():
    assert parse_text(HEAD + "standing:\n", "o.yaml").orders.standing == Standing()
    assert parse_text(HEAD, "o.yaml").orders.standing is None


# -- problems: all of them, located, in words ------------------------------------------------------------

def test_all_schema_errors_are_reported_with_lines():
    text = HEAD + """recruit:
  - {city: athens, unit: galley}
first_move:
  - units: [ATH-A1]
    path: [0712, "1313"]
    partial: perhaps
cards: [intrige]
"""
    parsed = parse_text(text, "o.yaml")
    got = {(parsed.where(p.path, p.at_key)[0], p.message) for p in parsed.problems}
    assert got == {
        (6, "'galley' is not a unit type"),
        (9, "0712 is read as the number 458: hex ids must be in quotes"),
        (10, "must be true or false, not 'perhaps'"),
        (11, "'intrige' is not a card"),
    }
    hints = {p.hint for p in parsed.problems}
    assert "did you mean intrigue?" in hints and 'write "0712"' in hints


def test_bad_entries_are_left_out_but_keep_their_positions():
    text = HEAD + """first_move:
  - {units: [ATH-A1], path: ["1212"]}
  - {units: [ATH-A2], path: [1213]}
  - {units: [ATH-L1], path: ["1213"]}
cards: [bogus_card, intrigue]
"""
    parsed = parse_text(text, "o.yaml")
    assert [m.index for m in parsed.orders.first_move] == [0, 2]
    assert parsed.kept[("first_move",)] == [0, 2]
    assert parsed.indexed("cards") == [(1, CardUse("intrigue"))]


def test_unknown_key_hints():
    parsed = parse_text(HEAD + "secert: x\nexecutions: false\n", "o.yaml")
    by_key = {p.path: p for p in parsed.problems}
    assert by_key[("secert",)].hint == "did you mean secret?"
    assert by_key[("secert",)].at_key
    assert by_key[("executions",)].hint.startswith("executions belongs in standing:")


def test_null_sections_are_refused_not_crashed():
    parsed = parse_text(HEAD + "recruit:\nfirst_move:\n  - units: [ATH-A1]\n    path:\n", "o.yaml")
    assert {p.message for p in parsed.problems} == {"is empty (nothing after the colon)"}
    assert parsed.orders is not None and parsed.orders.recruit == ()


def test_header_problems():
    parsed = parse_text("turn: one\nplayer: Athens\n", "o.yaml")
    msgs = [p.message for p in parsed.problems]
    assert "the file needs the key campaign" in msgs
    assert "game turn must be a whole number, not 'one'" in msgs
    assert "'Athens' is not a player id" in msgs
    assert parsed.orders is None  # whose orders they are is unknown


def test_load_orders_strict():
    path = EXAMPLES[0]
    assert isinstance(load_orders(path), Orders)


def test_load_orders_raises_order_syntax_error_with_the_line(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text(HEAD + "recruit: [{city: athens, unit: galley}]\n")
    with pytest.raises(OrderSyntaxError, match=r"bad.yaml:5:\d+: recruit\[0\]\.unit: 'galley' is not a unit type"):
        load_orders(bad)
    bad.write_text("a: [1\n")
    with pytest.raises(OrderSyntaxError, match="YAML syntax error"):
        load_orders(bad)


# -- examples and the demo campaign file -----------------------------------------------------------------

@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_examples_parse_cleanly_and_name_the_schema(path):
    first = path.read_text(encoding="utf-8").splitlines()[0]
    assert first == "# yaml-language-server: $schema=../../schemas/orders.schema.json"
    parsed = parse_text(path.read_text(encoding="utf-8"), str(path))
    assert parsed.problems == []
    assert parsed.orders == Orders.from_dict(yamlio.load(path).data)


def test_template_is_schema_clean_and_names_the_schema():
    path = REPO / "orders" / "template.yaml"
    text = path.read_text(encoding="utf-8")
    assert text.splitlines()[0] == "# yaml-language-server: $schema=../schemas/orders.schema.json"
    assert (path.parent / "../schemas/orders.schema.json").resolve() == SCHEMA_FILE
    parsed = parse_text(text, str(path))
    assert parsed.problems == []
    for key in PHASE_KEYS:
        assert f"{key}:" in text, key


def test_there_are_examples_of_every_section():
    seen = set()
    for path in EXAMPLES:
        data = yamlio.load(path).data
        seen |= set(data)
        seen |= {f"standing.{k}" for k in data.get("standing") or {}}
        for m in data.get("first_move", []) + data.get("second_move", []):
            seen |= {f"move.{k}" for k in m}
        for a in data.get("land_battle", []) + data.get("sea_battle", []):
            seen |= {f"attack.{k}" for k in a}
    want = {"campaign", "turn", "player", "secret", *PHASE_KEYS}
    want |= {f"standing.{k}" for k in fields(Standing)}
    want |= {f"move.{k}" for k in fields(Move)}
    want |= {f"attack.{k}" for k in fields(Attack)}
    assert want <= seen, sorted(want - seen)


def test_the_examples_demo_campaign_is_the_one_pbem_demo_starts_from(tmp_path):
    from demo_campaign import create_demo as examples_demo
    from pbem.campaign import create_demo
    spec = demo_spec()
    assert spec["players"] == ["athens", "sparta", "thebes", "corinth", "troy", "crete"]
    assert spec["seed"] == "2026"
    a = examples_demo(tmp_path / "a").load_state().to_json()
    b = create_demo(tmp_path / "b", players=6, seed="2026").load_state().to_json()
    assert a == b


# -- stacks named by their hex --------------------------------------------------------------------------

def test_expand_units_hex_means_the_stack_without_cargo():
    state = GameState("t", 1, ["athens"], {}, {}, {}, [])
    for uid, t, h, c in [("ATH-A1", "army", "1313", None), ("ATH-F1", "fleet", "1313", None),
                         ("ATH-R1", "rowers", "1313", "ATH-F1"), ("ATH-A2", "army", "1212", None),
                         ("SPA-A1", "army", "1313", None)]:
        state.add_unit(Unit(uid, UnitType(t), uid[:3].lower().replace("ath", "athens"), h, carried_by=c))
    assert expand_units(state, "athens", ["1313", "ATH-A2", "ATH-A1"]) == ["ATH-A1", "ATH-F1", "ATH-A2"]


def test_yaml_blocks_of_the_players_guide_are_valid_orders():
    import re
    text = (REPO / "docs" / "players.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```yaml\n(.*?)```", text, flags=re.S)
    assert len(blocks) >= 10
    for block in blocks:
        doc = block if block.startswith("campaign:") else HEAD + block
        parsed = parse_text(doc, "players.md")
        assert parsed.problems == [], (block, parsed.problems)
        assert parsed.orders is not None


def test_players_guide_quotes_real_checker_messages():
    """The sample output in the guide is what the checker prints for that file."""
    import re
    from pbem.checker import check_text  # the schema layer only: no campaign needed for these lines
    text = (REPO / "docs" / "players.md").read_text(encoding="utf-8")
    sample = re.search(r"```text\n(orders.yaml:5:1.*?)```", text, flags=re.S).group(1)
    messages = [line.split(": ", 3)[-1] for line in sample.splitlines()[:3]]
    doc = HEAD + "recruits:\n  - {city: athens, baggage: 2}\ncards: [intrigu]\nfirst_move:\n" \
                 "  - units: [ATH-A1, ATH-L2]\n    path: [\"1212\", 1112]\n"
    got = check_text(doc, "orders.yaml").to_text()
    for m in messages:
        assert m in got, m


# -- the template: every section commented out, each example uncommented as it is ----------------------

def _example_blocks(text: str) -> dict[str, list[int]]:
    """Each commented-out example of the template: its key -> the numbers of its lines ("# key:" and the
    indented "#   ..." lines under it)."""
    lines = text.splitlines()
    out: dict[str, list[int]] = {}
    for i, line in enumerate(lines):
        m = re.match(r"# ([a-z_]+):", line)
        if m and m.group(1) in (*PHASE_KEYS, "standing"):
            block = [i]
            for j in range(i + 1, len(lines)):
                if not lines[j].startswith("#   "):
                    break
                block.append(j)
            out[m.group(1)] = block
    return out


def _uncomment(text: str, rows: Iterable[int]) -> str:
    lines = text.splitlines()
    for i in rows:
        lines[i] = lines[i][2:]  # what a player does: remove the "# "
    return "\n".join(lines) + "\n"


def test_template_sections_are_all_commented_out_and_each_example_uncomments_cleanly():
    """R-TURN-1: the order template gives no live empty section (``recruit: []``) that an uncommented
    example would duplicate; removing the "# " of an example's lines gives a valid, schema-clean file."""
    text = (REPO / "orders" / "template.yaml").read_text(encoding="utf-8")
    data = yamlio.parse(text, "template.yaml").data
    assert set(data) == {"campaign", "turn", "player", "secret"}, "only the header is live"
    blocks = _example_blocks(text)
    assert set(blocks) == {*PHASE_KEYS}, sorted(blocks)
    for key, rows in blocks.items():
        one = _uncomment(text, rows)
        parsed = parse_text(one, f"template+{key}")
        assert parsed.problems == [] and key in parsed.data, (key, parsed.problems)
    every = _uncomment(text, [i for rows in blocks.values() for i in rows])
    parsed = parse_text(every, "template+all")
    assert parsed.problems == [] and set(parsed.data) >= set(PHASE_KEYS)
