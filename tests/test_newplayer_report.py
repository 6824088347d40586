"""A new player's six turns: what they misread in the reports, the order template and the players' guide."""
from __future__ import annotations

import re
from pathlib import Path

from pbem import report
from pbem.gamedata import load_map

from scenario import TABLES, TINY, add, give, make_state, orders, run_phase

ROOT = Path(__file__).resolve().parent.parent
PLAYERS = ("athens", "sparta", "troy")


def context(before, after, records, viewer, turn=1):
    return report.build_context("t", turn, TINY, TABLES, after, before, records, viewer)


def text_report(ctx):
    return report.environment().get_template("report.txt.j2").render(**ctx)


def html_report(ctx):
    return report.environment().get_template("report.html.j2").render(**ctx, map_svg="", css="")


def joined(text):
    """A report's text with its lines joined (wrapped lines read as one)."""
    return " ".join(text.split())


def section(text, title, end):
    """The lines of a text report's section, from its title line to the line ``end``."""
    return text.split(f"\n{title}\n", 1)[1].split(f"\n{end}\n", 1)[0]


# -- 1. an exiled leader is in no hex: listed in a group of its own, not under the hex he left ----------------

def exiled():
    s = make_state(players=PLAYERS)
    add(s, "athens", "army", "0403")
    add(s, "athens", "leader", "0403", name="Astyochus", away_until=10)  # exiled (Ostracism) at 0403
    return s


def test_an_exiled_leader_is_listed_away_not_under_the_hex_he_left():
    # the new player: "0403 Forest / ATH-L1 leader: Astyochus, out of play until turn 10 ... not in this hex
    # meanwhile" read as "my leader is still at 0403"
    s = exiled()
    for viewer in ("athens", None):
        ctx = context(s.copy(), s, [], viewer)
        text = text_report(ctx)
        units = section(text, "YOUR UNITS" if viewer else "UNITS", "OTHER UNITS IN SIGHT" if viewer else "ORDERS (ALL PLAYERS)")
        who = " (Athenians)" if viewer is None else ""
        assert joined(units) == (f"0403 Forest ATH-A1 army{who} Away (out of play) ATH-L1 leader{who}: Astyochus, "
                                 "out of play until turn 10, then back at the home city (or the controlled city "
                                 "nearest to it)"), units
        assert max(len(line) for line in units.splitlines()) <= 78  # the away line wraps (an email body)
        html = joined(html_report(ctx))
        assert "<tr><td>Away (out of play)</td><td>ATH-L1 leader" in html
        assert "<tr><td>0403 Forest</td><td>ATH-A1 army" + (" (Athenians)" if viewer is None else "") \
            + "</td></tr>" in html
        assert "not in this hex" not in text and "not in this hex" not in html



# -- 2. the order template's example ships end the turn where ships may (R-PH-SECOND) ----------------------

def _template_moves():
    """The move examples of orders/template.yaml as a player uncomments them: section -> [move]."""
    from pbem import yamlio
    text = (ROOT / "orders" / "template.yaml").read_text(encoding="utf-8")
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if re.match(r"# (first_move|second_move):", line):
            lines[i] = line[2:]
            for j in range(i + 1, len(lines)):
                if not lines[j].startswith("#   "):
                    break
                lines[j] = lines[j][2:]
    data = yamlio.parse("\n".join(lines) + "\n", "template.yaml").data
    return data["first_move"], data["second_move"]


def test_the_templates_example_ships_end_the_turn_in_a_city_sandy_coast_or_fishing_village():
    # the new player: second_move's example ended ATH-F1 on 1314, Water, right under "Ships should end it in a
    # City, Sandy Coast or Fishing Village"
    aegean = load_map()
    first, second = _template_moves()
    at = {}
    for m in first + second:  # each path goes on from where the unit stands, one next hex after another
        for uid in m["units"]:
            start = at.get(uid)
            path = [start, *m["path"]] if start else m["path"]
            assert all(aegean.adjacent(a, b) for a, b in zip(path, path[1:])), (uid, path)
            at[uid] = m["path"][-1]
    ships = [u for m in first + second for u in m["units"] if re.match(r"ATH-[FT]\d", u)]
    assert ships
    for uid in ships:
        assert aegean.ship_may_stop(at[uid]), (uid, at[uid], aegean.terrain[at[uid]].name)
    assert at["ATH-F1"] == "1313"  # Athens: the example's own home port


# -- 3. a city a move may not enter, in the report's words (R-PH-MOVE) ----------------------------------------

def blocked_moves(partial=False):
    """Sparta holds Megara (0506); Delos (1007) is neutral.  Athens moves an Army into each: both refused."""
    s = make_state(players=PLAYERS)
    s.cities["megara"].controller = "sparta"
    add(s, "athens", "army", "0605")
    add(s, "athens", "army", "1006")
    before = s.copy()
    ctx = run_phase("first_move", s, "athens", orders=orders("athens", first_move=[
        {"units": ["ATH-A1"], "path": ["0606", "0506"], "partial": partial},
        {"units": ["ATH-A2"], "path": ["1007"], "partial": partial}]))
    return before, s, ctx.log.records


def test_a_move_into_another_players_city_names_the_city_and_its_people():
    # the new player: "Second move #1: FAILED: 1416 is sparta controlled city Melos; units may not enter it"
    before, after, records = blocked_moves()
    assert any("sparta controlled city Megara" in str(r.get("reason")) for r in records)  # the record keeps its words
    for viewer, whose in (("athens", ""), (None, "Athenians: ")):
        ctx = context(before, after, records, viewer)
        text, html = joined(text_report(ctx)), joined(html_report(ctx))
        assert f"{whose}First move #1: FAILED: 0506 is Megara, a city of the Spartans; units may not enter it" in text
        assert f"{whose}First move #2: FAILED: 1007 is Delos, a neutral city; units may not enter it" in text
        assert "</span>: 0506 is Megara, a city of the Spartans; units may not enter it" in html
        assert "</span>: 1007 is Delos, a neutral city; units may not enter it" in html
        for said in (text, html):
            assert "controlled city" not in said and "the neutral city" not in said


def test_a_partial_move_stopped_before_a_city_says_it_in_the_same_words():
    before, after, records = blocked_moves(partial=True)
    assert after.units["ATH-A1"].hex == "0606"
    text = joined(text_report(context(before, after, records, "athens")))
    assert "stopped: 0506 is Megara, a city of the Spartans; units may not enter it" in text, text
    assert "controlled city" not in text


# -- 4. HAND: what pbem makes of a card, in docs/rules.md's words (R-PH-DIP) ------------------------------------

def test_the_hand_says_a_one_less_roll_card_acts_at_the_targets_next_diplomacy_phase():
    # the new player: HAND showed "Disaffected: Opponent gets one less Diplomacy roll this turn" only, while
    # the game applies it at the target's next Diplomacy phase (docs/rules.md's card table, CARDS IN FORCE)
    s = make_state(players=PLAYERS)
    add(s, "athens", "army", "0302")
    give(s, "athens", "disaffected", "break_formation")
    ctx = context(s.copy(), s, [], "athens")
    effect = ("−1 diplomacy roll at the target player's next Diplomacy phase (a lasting effect until that phase "
              "uses it)")
    hand = joined(section(text_report(ctx), "HAND (2 cards)", "LEADERS"))
    assert hand.startswith("Disaffected: Opponent gets one less Diplomacy roll this turn. when: your Diplomacy "
                           f"phase (`cards`, target: an opponent) effect: {effect} Break Formation: "), hand
    assert "effect: +1D10 to your battle total (attacking or defending), once, in the battle it is played in" in hand
    assert f'<div class="note">effect: {effect}</div>' in html_report(ctx).replace("&#39;", "'")
    # one wording: the row of docs/rules.md's card table says the same
    rules = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    assert f"| `disaffected` | Disaffected | Opponent gets one less Diplomacy roll this turn. | your Diplomacy phase " \
           f"(`cards`, target: an opponent) | {effect} |" in rules
