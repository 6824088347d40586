"""docs/rules.md's tables of cards, leader skills and city traits are what docs/gen_tables.py writes from the
data: edit pbem/data/tables/*.yaml without running ``python docs/gen_tables.py`` and this fails."""
from __future__ import annotations

import importlib.util
import re
from dataclasses import replace
from pathlib import Path

import pytest

from scenario import TABLES

ROOT = Path(__file__).resolve().parent.parent


def gen_tables():
    spec = importlib.util.spec_from_file_location("gen_tables", ROOT / "docs" / "gen_tables.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_tables_in_docs_rules_md_are_the_data_written_by_gen_tables():
    g = gen_tables()
    text = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    assert g.render(text, TABLES) == text, "docs/rules.md is out of date: run python docs/gen_tables.py"
    assert g.main(["--check"]) == 0


def test_a_change_of_the_data_shows_in_the_tables():
    g = gen_tables()
    text = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    card = TABLES.cards["break_formation"]
    changed = replace(card, effects=({**card.effects[0], "dice": "2D10"},))
    tables = replace(TABLES, cards={**TABLES.cards, card.id: changed})
    assert g.render(text, tables) != text
    hills = TABLES.terrain["hills"]
    tables = replace(TABLES, terrain={**TABLES.terrain, "hills": replace(hills, stack=2)})
    assert "| Hills | 2 | 2 | +4 | no |" in g.render(text, tables)  # the terrain table of R-MAP-2 too


@pytest.mark.parametrize("kind,test", [("cards", "test_every_card.py::test_card"),
                                       ("skills", "test_every_skill.py::test_skill"),
                                       ("traits", "test_every_trait.py::test_trait")])
def test_every_row_names_its_own_test(kind, test):
    text = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| `([a-z_]+)` \|.*\| `tests/([^`\[]+)\[([a-z_]+)\]` \|$", text, re.M)
    mine = [(rid, ref) for rid, path, ref in rows if path == test]
    assert sorted(rid for rid, _ in mine) == sorted(getattr(TABLES, kind))
    assert all(rid == ref for rid, ref in mine)
