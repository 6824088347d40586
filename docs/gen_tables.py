"""Write the tables of cards, leader skills and city traits in docs/rules.md from the data files.

    python docs/gen_tables.py           rewrite the tables in docs/rules.md
    python docs/gen_tables.py --check   exit 1 (and say so) if docs/rules.md is not what the data gives

The tables sit between the two marker lines below in the section "Cards, leader skills and city traits";
everything else in docs/rules.md is left alone.  Each row gives the id, the name, the seed's text, when it acts,
what it does as the code implements it (read from its effects in ``pbem/data/tables/*.yaml``, the effect kinds
of the header of cards.yaml) and the test that covers it.  ``tests/test_docs_tables.py`` fails when the data
changed and the tables were not written again.
"""
from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "docs" / "rules.md"
sys.path.insert(0, str(ROOT))

from pbem.textview import card_timing  # noqa: E402  (one wording of a card's timing: the reports' HAND too)
from pbem.cardwords import effects_text  # noqa: E402  (one wording of what it does: the reports' HAND too)
BEGIN = "<!-- begin: tables written by docs/gen_tables.py from pbem/data/tables/*.yaml; do not edit by hand -->"
END = "<!-- end: tables written by docs/gen_tables.py -->"
BEGIN_TERRAIN = "<!-- begin: terrain table written by docs/gen_tables.py from pbem/data/tables/terrain.yaml -->"
END_TERRAIN = "<!-- end: terrain table -->"
SHIPS = {"sea": "sail through", "dock": "dock (coastal only)", "beach": "beach (coastal only)", "none": "no"}


ACTS = {"battle_total": "battles", "roll_modifier": None, "diplomacy_rolls": "Diplomacy phase",
        "gold": "first Revenue phase", "income": "Revenue phase", "movement": "move phases",
        "hand_size": "Draw phase", "victory_cities": "end of the game", "extra_recruit": "Recruit phase"}
ROLL_ACTS = {"upkeep": "upkeep rolls (Upkeep phase, Plague, Desertions)",
             "navigation": "navigation rolls (Second Move, Storms)"}


def held_timing(row, source: str) -> str:
    when = []
    for e in row.effects:
        w = ACTS[e["kind"]] or ROLL_ACTS.get(e["roll"], "battles")
        if w not in when:
            when.append(w)
    if source == "skill":
        stack = any(e.get("scope") == "stack" for e in row.effects)
        who = "the leader's stack" if stack else "while the leader is in play"
    else:
        who = "held from the home city or a controlled minor city"
    return f"{', '.join(when)}; {who}"


def cell(text: str) -> str:
    return text.replace("|", "\\|")


def table(rows, source: str, test: str) -> list[str]:
    out = ["| id | name | seed text | when | effect, as implemented | test |", "| --- | --- | --- | --- | --- | --- |"]
    for r in sorted(rows, key=lambda r: r.id):
        timing = card_timing(r) if source == "card" else held_timing(r, source)
        effect = effects_text(r, source)
        out.append(f"| `{r.id}` | {cell(r.name)} | {cell(r.text)} | {cell(timing)} | {cell(effect)} | "
                   f"`tests/{test}[{r.id}]` |")
    return out


def generated(tables) -> str:
    lines = [BEGIN, "", f"### Cards ({len(tables.cards)})", ""]
    lines += table(tables.cards.values(), "card", "test_every_card.py::test_card")
    lines += ["", f"### Leader skills ({len(tables.skills)})", ""]
    lines += table(tables.skills.values(), "skill", "test_every_skill.py::test_skill")
    lines += ["", f"### City traits ({len(tables.traits)})", ""]
    lines += table(tables.traits.values(), "trait", "test_every_trait.py::test_trait")
    lines += ["", END]
    return "\n".join(lines)


def terrain_table(tables) -> str:
    """The seed's terrain table as the map uses it (R-MAP-2): what a player plans moves and stacks with."""
    lines = [BEGIN_TERRAIN, "", "| terrain | move cost | stacking limit | defence | ships |",
             "| --- | --- | --- | --- | --- |"]
    for t in tables.terrain.values():
        cost = "impassable" if t.move_cost is None else str(t.move_cost)
        stack = "-" if t.stack is None else str(t.stack)
        defence = "-" if t.defense is None else f"{t.defense:+d}" + (" (home city +8)" if t.id == "city" else "")
        lines.append(f"| {t.name} | {cost} | {stack} | {defence} | {SHIPS[t.ships]} |")
    return "\n".join(lines + ["", END_TERRAIN])


def _between(rules: str, begin: str, end: str, text: str) -> str:
    start, stop = rules.find(begin), rules.find(end)
    if start < 0 or stop < start:
        raise SystemExit(f"{RULES}: the marker lines of the generated tables are missing")
    return rules[:start] + text + rules[stop + len(end):]


def render(rules: str, tables) -> str:
    """``rules`` (the text of docs/rules.md) with the generated tables put between the markers."""
    rules = _between(rules, BEGIN_TERRAIN, END_TERRAIN, terrain_table(tables))
    return _between(rules, BEGIN, END, generated(tables))


def main(argv: list[str]) -> int:
    from pbem.gamedata import tables
    text = RULES.read_text(encoding="utf-8")
    new = render(text, tables())
    if "--check" in argv:
        if new != text:
            print(f"{RULES} is out of date: run python docs/gen_tables.py", file=sys.stderr)
            return 1
        return 0
    if new != text:
        RULES.write_text(new, encoding="utf-8")
        print(f"{RULES}: tables written")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
