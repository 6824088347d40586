"""An authenticated player cannot blow up time, disk or mail: every list of an order file has a limit, an
answer shows at most MAX_FINDINGS findings, and a player keeps at most MAX_VERSIONS earlier files a turn."""
import json
from datetime import datetime, timezone
from pathlib import Path

import pytest

from pbem import yamlio
from pbem.campaign import create
from pbem.checker import check_text
from pbem.intake import MAX_FINDINGS, MAX_VERSIONS, submit_bytes

NOW = datetime(2026, 11, 22, 12, 0, tzinfo=timezone.utc)
REPO = Path(__file__).resolve().parents[1]


@pytest.fixture
def camp(tmp_path):
    return create(tmp_path / "camp", ["athens", "sparta", "troy"], seed="5", name="test").campaign


def orders(camp, **body):
    data = {"campaign": "test", "turn": 1, "player": "athens", "secret": camp.player_secrets()["athens"], **body}
    return yamlio.dump(data).encode()


def test_every_list_and_open_mapping_of_the_order_schema_has_a_limit():
    schema = json.loads((REPO / "schemas" / "orders.schema.json").read_text(encoding="utf-8"))
    unbounded = []

    def walk(node, path):
        if isinstance(node, dict):
            kinds = node.get("type") if isinstance(node.get("type"), list) else [node.get("type")]
            if "array" in kinds and "items" in node and "maxItems" not in node:
                unbounded.append(path)
            if "object" in kinds and isinstance(node.get("additionalProperties"), dict) \
                    and "maxProperties" not in node:
                unbounded.append(path)
            for k, v in node.items():
                walk(v, f"{path}/{k}")
        elif isinstance(node, list):
            for i, v in enumerate(node):
                walk(v, f"{path}/{i}")
    walk(schema, "")
    assert unbounded == []


def test_the_limits_leave_room_for_real_play():
    schema = json.loads((REPO / "schemas" / "orders.schema.json").read_text(encoding="utf-8"))
    top = schema["properties"]
    assert min(top[k]["maxItems"] for k in ("first_move", "second_move", "sea_battle", "land_battle")) >= 200
    assert min(top[k]["maxItems"] for k in ("diplomacy", "cards", "discard")) >= 24
    assert schema["$defs"]["move"]["properties"]["path"]["maxItems"] >= 30


def test_a_list_of_thousands_of_orders_is_refused_at_once_with_a_short_answer(camp):
    raw = orders(camp) + b"diplomacy: [" + b",".join([b"crete"] * 43_000) + b"]\n"  # the review's manyitems.yaml
    a = submit_bytes(camp, raw, "a.yaml", NOW)
    assert not a.accepted and "43000 entries" in a.text(), a.text()[:300]
    assert len(a.text()) < 500, len(a.text())  # 16.8 MB of answer before
    assert not camp.orders_dir(1).exists()


def test_a_section_over_its_own_limit_is_an_error_of_the_checker(camp):
    assert not check_text(orders(camp, diplomacy=["megara"] * 50).decode(), "a.yaml").errors
    report = check_text(orders(camp, diplomacy=["megara"] * 51).decode(), "a.yaml")
    assert report.errors and all("diplomacy" in f.text() for f in report.errors)
    assert not submit_bytes(camp, orders(camp, diplomacy=["megara"] * 51), "a.yaml", NOW).accepted


def test_an_answer_shows_at_most_the_first_findings_and_counts_the_rest(camp):
    raw = orders(camp, diplomacy=[f"nowhere{i}" for i in range(50)],
                 upkeep=[f"ATH-A{i}" for i in range(100, 130)])
    a = submit_bytes(camp, raw, "a.yaml", NOW)
    assert not a.accepted and len(a.findings) > MAX_FINDINGS
    shown = [line for line in a.text().splitlines() if line.startswith("  ") and "more (run" not in line]
    assert len(shown) == MAX_FINDINGS
    assert f"... and {len(a.findings) - MAX_FINDINGS} more" in a.text()


def test_a_player_keeps_at_most_so_many_versions_a_turn(camp):
    for i in range(MAX_VERSIONS + 1):  # the first file and MAX_VERSIONS replacements
        a = submit_bytes(camp, orders(camp) + f"# version {i}\n".encode(), "a.yaml", NOW)
        assert a.accepted, (i, a.text())
    assert (camp.orders_dir(1) / f"athens.v{MAX_VERSIONS}.yaml").is_file()
    again = orders(camp) + b"# one too many\n"
    a = submit_bytes(camp, again, "a.yaml", NOW)
    assert not a.accepted and f"the limit is {MAX_VERSIONS}" in a.text(), a.text()
    assert not (camp.orders_dir(1) / f"athens.v{MAX_VERSIONS + 1}.yaml").exists()
    # the file already accepted may be sent again (nothing changes), and the moderator may still take one
    assert submit_bytes(camp, orders(camp) + f"# version {MAX_VERSIONS}\n".encode(), "a.yaml", NOW).duplicate
    assert submit_bytes(camp, again, "a.yaml", NOW, moderator_fix=True).accepted


@pytest.mark.parametrize("body, where", [
    ('diplomacy: ["megara\\n"]', "diplomacy[0]"),
    ('upkeep: ["ATH-A1\\n"]', "upkeep[0]"),
    ('cards:\n  - {card: exiled, target: "SPA-L1\\n"}', "cards[0].target"),
    ('first_move:\n  - {units: [ATH-A1], path: ["1213\\n"]}', "first_move[0].path[0]"),
    ('standing:\n  retreat: {"1213\\n": "1313"}', "standing.retreat"),
])
def test_a_value_with_a_trailing_newline_does_not_pass_for_an_id(body, where):
    """Python's re lets `$` match before a final newline: "SPA-L1\\n" passed for a unit id."""
    text = "campaign: test\nturn: 1\nplayer: athens\nsecret: x\n" + body + "\n"
    report = check_text(text, "a.yaml")
    assert any(where in f.text() for f in report.errors), report.to_text()


def test_every_pattern_of_the_order_schema_refuses_a_trailing_newline():
    import re
    schema = json.loads((REPO / "schemas" / "orders.schema.json").read_text(encoding="utf-8"))
    patterns = []

    def walk(node):
        if isinstance(node, dict):
            if isinstance(node.get("pattern"), str):
                patterns.append(node["pattern"])
            for v in node.values():
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)
    walk(schema)
    samples = ["1213", "ATH-A1", "megara", "demo", "1a2b-3c4d"]
    assert len(patterns) >= 8
    for p in patterns:
        ok = [s for s in samples if re.search(p, s)]
        assert ok, p
        assert not any(re.search(p, s + "\n") for s in ok), p
    free = schema["properties"]["secret"]["pattern"]
    assert not re.search(free, "ab\x1bcd") and not re.search(free, "ab\x00")


def test_a_list_over_its_limit_is_said_in_one_short_line():
    """jsonschema's own message repeats the whole list; the player reads how many and the limit."""
    from pbem.checker import check_text
    text = "campaign: demo\nturn: 1\nplayer: athens\nsecret: x\ndiplomacy: [" + ", ".join(["megara"] * 60) + "]\n"
    r = check_text(text, "o.yaml")
    [f] = r.findings
    assert f.path == "diplomacy" and f.message == "has 60 entries; at most 50 are taken"
    assert len(r.to_text()) < 300
