"""Turn reports (issue #7): the fog holds in every file a player gets, the text report is stable (golden
files), the SVG parses, PNG and PDF are real, templates can be overridden, `main` reports mistakes.

Golden files: tests/golden/*.txt.  After an intended change of the report's wording, regenerate them with

    PBEM_REGEN_GOLDEN=1 .venv/bin/pytest tests/test_report.py

and read the diff before committing it.
"""
from __future__ import annotations

import html as html_module
import os
import re
import shutil
import struct
import xml.etree.ElementTree as ET
import zlib
from pathlib import Path

import pytest

from pbem import report, turn
from pbem.campaign import create
from pbem.errors import CampaignError, PbemError, UsageError
from pbem.gamedata import tables
from pbem.model import Effect, Unit, UnitType
from pbem.storage import Campaign
from scenario import FIXTURES, TINY, add, make_state

GOLDEN = Path(__file__).parent / "golden"
T = tables()

# -- a campaign played one turn, with a hand-written second half of the log ---------------------------------

SPARTA_GOLD, SPARTA_GOLD_BEFORE, PLUNDER_GOLD = 137, 121, 247
SPARTA_HAND = ["diekplus_circle", "siege_artillery", "promise_of_clemency"]
TROY_HAND = ["cavalry_pursuit", "right_flank_drift"]
ATHENS_HAND = ["reconnaissance", "elite_units"]
SPARTA_SKILLS = [["brilliance", "charisma"], ["honorable"], ["benevolent", "intellectual"]]
THEBES_SKILLS = [["judgment"], ["politician"], ["historian"]]
TROY_SKILLS = [["resolve"], ["ambitious", "charisma"], ["organization"]]
ATHENS_SKILLS = [["heroism"], ["admiral", "economics"], ["strategist"]]
SPARTA_TRAITS = ["long_walls", "olive_oil", "wine", "democracy", "high_culture", "slavery"]


def _give(state, player, cards):
    """Put exactly ``cards`` in the player's hand, keeping every card in one place."""
    for c in cards:
        for p in state.players.values():
            if c in p.hand:
                p.hand.remove(c)
        if c in state.deck:
            state.deck.remove(c)
        if c in state.discard:
            state.discard.remove(c)
    state.deck.extend(state.players[player].hand)
    state.players[player].hand = list(cards)


def land_path(m, a: str, b: str) -> list[str]:
    """The hexes entered on a shortest passable land path from a to b (breadth first, by hex id)."""
    came = {a: None}
    todo = [a]
    while todo:
        h = todo.pop(0)
        if h == b:
            break
        for n in sorted(m.neighbours[h]):
            if n not in came and m.is_land(n) and m.passable(n):
                came[n] = h
                todo.append(n)
    path = [b]
    while came[path[-1]] != a:
        path.append(came[path[-1]])
    return path[::-1]


def played_campaign(root: Path) -> Campaign:
    """Athens, Sparta, Troy and Thebes on the Aegean: turn 1 adjudicated by pbem.turn.run, then the moves,
    battles, cards and diplomacy the phases under construction will write are added to the log by hand, and
    the snapshot after the turn is changed to match."""
    camp = create(root, ["athens", "sparta", "troy", "thebes"], seed="7").campaign
    turn.run(camp)
    before, after = camp.load_state(1), camp.load_state(2)
    m = camp.game_map
    for s in (before, after):
        for pid, cards in (("sparta", SPARTA_HAND), ("troy", TROY_HAND), ("athens", ATHENS_HAND)):
            _give(s, pid, cards)
        for pid, skills in (("sparta", SPARTA_SKILLS), ("athens", ATHENS_SKILLS), ("thebes", THEBES_SKILLS),
                            ("troy", TROY_SKILLS)):
            leaders = sorted((u for u in s.units_of(pid) if u.type is UnitType.LEADER), key=lambda u: u.id)
            for leader, sk in zip(leaders, skills):
                leader.skills = list(sk)
        s.players["sparta"].traits = list(SPARTA_TRAITS)
    before.players["sparta"].gold = SPARTA_GOLD_BEFORE
    after.players["sparta"].gold = SPARTA_GOLD
    athens, thebes = m.cities["athens"].hex, m.cities["thebes"].hex
    # Athens moves two Armies and a leader next door; two Theban Armies come to meet them and lose a battle.
    front = "1213"
    assert front in m.neighbours[athens]
    meet = next(h for h in m.neighbours[front] if m.passable(h) and m.is_land(h) and h != athens
                and h not in m.city_at and h not in m.neighbours[athens])
    retreat = next(h for h in m.neighbours[meet] if m.passable(h) and m.is_land(h) and h not in (front, athens)
                   and h not in m.city_at)
    for uid in ("ATH-A1", "ATH-A2", "ATH-L1"):
        after.place(after.units[uid], front)
    after.remove_unit("THE-A1")
    after.place(after.units["THE-A2"], retreat)
    # Sparta takes and plunders neutral Argos, wins Pylos by diplomacy; Argos is far from Athens.
    after.cities["argos"].controller = "sparta"
    after.cities["argos"].hostile = True
    after.cities["argos"].razed = 3
    after.cities["pylos"].controller = "sparta"
    after.place(after.units["SPA-A1"], m.cities["argos"].hex)
    camp.save_state(before)
    camp.save_state(after)

    # they all sent orders after all: drop the NMR records of the stub turn, keep the numbering
    records = [r for r in camp.read_log(1) if r.get("event") != "nmr"]
    seq = max(r["seq"] for r in records)

    def rec(player, phase, **data):
        nonlocal seq
        seq += 1
        r = {"seq": seq, "turn": 1, "player": player, "phase": phase, **data}
        records.append(r)
        return r

    def roll(player, phase, die, result, purpose, **context):
        rec(player, phase, roll={"die": die, "result": result, "purpose": purpose, **context})

    # Sparta: a card, its secret gold, a Spy on Troy, a diplomacy roll, a battle for Argos
    rec("sparta", "diplomacy", event="card_played", card="treasure", by="sparta")
    roll("sparta", "diplomacy", "1D6", 5, "Treasure gold", who="sparta")
    rec("sparta", "diplomacy", event="gold", who="sparta", amount=5, rolled=5, source="treasure", gold=SPARTA_GOLD)
    rec("sparta", "diplomacy", event="card_played", card="spy", by="sparta", target="troy")
    rec("sparta", "diplomacy", event="hand_seen", of="troy", hand=list(TROY_HAND), private_to="sparta")
    roll("sparta", "diplomacy", "1D6", 6, "diplomacy roll", city="pylos")
    rec("sparta", "diplomacy", event="diplomacy_roll", city="pylos", target="neutral", roll=6, modifier=0, total=6,
        success=True, n=1, of=2)
    rec("sparta", "diplomacy", event="control", city="pylos", cause="diplomacy")
    rec("sparta", "diplomacy", event="order_done", section="diplomacy", index=0, city="pylos", success=True)
    rec("sparta", "first_move", event="moved", units=["SPA-A1"], **{"from": m.cities["sparta"].hex},
        path=[m.cities["argos"].hex])
    rec("sparta", "first_move", event="order_done", section="first_move", index=0, units=["SPA-A1"])
    roll("sparta", "land_battle", "1D10", 9, "attack roll SPA-A1", unit="SPA-A1")
    roll("sparta", "land_battle", "1D6", 2, "garrison roll of Argos", city="argos")
    rec("sparta", "land_battle", event="battle", target=m.cities["argos"].hex, attacker="sparta", defender=None,
        attackers=["SPA-A1"], defenders=[], attack_total=9, defence_total=7, winner="sparta")
    rec("sparta", "land_battle", event="city_taken", city="argos", by="sparta")
    roll("sparta", "land_battle", "3D6", 14, "plunder gold")
    rec("sparta", "land_battle", event="plunder", city="argos", by="sparta", gold=PLUNDER_GOLD, razed=3)
    rec("sparta", "land_battle", event="order_done", section="land_battle", index=0, target=m.cities["argos"].hex)
    # Thebes moves two Armies next to the Athenians (they see them come, not who they are)
    rec("thebes", "first_move", event="moved", units=["THE-A1", "THE-A2"], **{"from": thebes},
        path=land_path(m, thebes, meet))
    # Athens moves, attacks the Thebans, and one order fails
    rec("athens", "first_move", event="moved", units=["ATH-A1", "ATH-A2", "ATH-L1"], **{"from": athens},
        path=[front])
    rec("athens", "first_move", event="order_done", section="first_move", index=0, units=["ATH-A1", "ATH-A2",
                                                                                           "ATH-L1"])
    rec("athens", "first_move", event="order_failed", section="first_move", index=1, units=["ATH-F1"],
        reason="ATH-F1 cannot enter 1213: Farms is not a hex ships may enter")
    rec("athens", "land_battle", event="card_played", card="reconnaissance", by="athens")
    roll("athens", "land_battle", "1D10", 7, "attack roll ATH-A1", unit="ATH-A1", modifier=2)
    roll("athens", "land_battle", "1D10", 4, "attack roll ATH-A2", unit="ATH-A2", modifier=2)
    roll("athens", "land_battle", "1D10", 6, "Reconnaissance", card="reconnaissance")
    roll("athens", "land_battle", "1D10", 3, "defence roll THE-A1", unit="THE-A1")
    roll("athens", "land_battle", "1D10", 5, "defence roll THE-A2", unit="THE-A2")
    rec("athens", "land_battle", event="battle", target=meet, attacker="athens", defender="thebes",
        attackers=["ATH-A1", "ATH-A2"], defenders=["THE-A1", "THE-A2"], attack_total=21, defence_total=8,
        winner="athens")
    roll("athens", "land_battle", "1D6", 2, "casualty roll THE-A1", unit="THE-A1")
    rec("athens", "land_battle", event="casualty", unit="THE-A1", roll=2, result="destroyed")
    roll("athens", "land_battle", "1D6", 5, "casualty roll THE-A2", unit="THE-A2")
    rec("athens", "land_battle", event="casualty", unit="THE-A2", roll=5, result="retreat")
    rec("athens", "land_battle", event="retreat", unit="THE-A2", **{"from": meet, "to": retreat})
    rec("athens", "land_battle", event="order_done", section="land_battle", index=0, target=meet)
    camp.write_log(1, records)
    return camp


@pytest.fixture(scope="module")
def played(tmp_path_factory) -> Campaign:
    camp = played_campaign(tmp_path_factory.mktemp("played") / "camp")
    report.write_reports(camp, 1)
    return camp


# -- reading the files back ----------------------------------------------------------------------------

def pdf_text(data: bytes) -> str:
    """The text of a PDF written by cairo: the strings shown in every content stream (WinAnsi fonts), a
    space where a TJ array moves on by more than a fifth of an em."""
    out = []
    for m in re.finditer(rb"<<(.*?)>>\s*stream\r?\n(.*?)\r?\nendstream", data, re.S):
        if b"/Image" in m.group(1):  # pictures (the map page) hold no text
            continue
        body = m.group(2)
        if b"FlateDecode" in m.group(1):
            try:
                body = zlib.decompress(body)
            except zlib.error:
                continue
        if b"Tj" not in body and b"TJ" not in body:
            continue
        for op in re.finditer(rb"\[(.*?)\]\s*TJ|(\((?:\\.|[^\\)])*\)|<[0-9A-Fa-f]*>)\s*Tj", body, re.S):
            if op.group(1) is not None:
                parts = re.findall(rb"\((?:\\.|[^\\)])*\)|<[0-9A-Fa-f]*>|-?\d+(?:\.\d+)?", op.group(1))
            else:
                parts = [op.group(2)]
            for p in parts:
                if p.startswith(b"("):
                    s = re.sub(rb"\\([()\\])", rb"\1", p[1:-1])
                    out.append(s.decode("cp1252", "replace"))
                elif p.startswith(b"<"):
                    out.append(bytes.fromhex(p[1:-1].decode()).decode("cp1252", "replace"))
                elif float(p) < -200:
                    out.append(" ")
            out.append("\n")
    return "".join(out)


def png_text_chunks(data: bytes) -> list[bytes]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    i, chunks = 8, []
    while i < len(data):
        n, kind = struct.unpack(">I4s", data[i:i + 8])
        if kind in (b"tEXt", b"zTXt", b"iTXt", b"eXIf"):
            chunks.append(data[i + 8:i + 8 + n])
        i += 12 + n
    return chunks


def svg_text(svg: str) -> str:
    root = ET.fromstring(svg)
    return "\n".join("".join(el.itertext()) for el in root.iter() if el.tag.endswith(("text", "title", "desc")))


def player_texts(folder: Path) -> dict[str, str]:
    """Every text a player can read in their files, by file."""
    svg = (folder / "map.svg").read_text(encoding="utf-8")
    html = (folder / "report.html").read_text(encoding="utf-8")
    return {
        "report.txt": (folder / "report.txt").read_text(encoding="utf-8"),
        "report.html (raw)": html,
        "report.html (text)": re.sub(r"<[^>]+>", " ", re.sub(r"<svg.*?</svg>", " ", html, flags=re.S)),
        "map.svg (raw)": svg,
        "map.svg (text)": svg_text(svg),
        "report.pdf (text)": pdf_text((folder / "report.pdf").read_bytes()),
        "report.pdf (raw)": (folder / "report.pdf").read_bytes().decode("latin-1"),
        "map.png (metadata)": b"".join(png_text_chunks((folder / "map.png").read_bytes())).decode("latin-1"),
    }


# -- the leak test --------------------------------------------------------------------------------------------

def secrets_hidden_from_athens(camp: Campaign) -> dict[str, list[str]]:
    """What the Athenians may not learn this turn: {kind: [strings]}."""
    after, before = camp.load_state(2), camp.load_state(1)
    records = camp.read_log(1)
    in_athens_battle = {"THE-A1", "THE-A2"}
    ids = [u for s in (before, after) for u in s.units if not u.startswith("ATH-") and u not in in_athens_battle]
    athens_skills = {T.skills[s].name for u in after.units_of("athens") for s in u.skills}
    athens_skill_texts = {T.skills[s].text for u in after.units_of("athens") for s in u.skills}
    enemy_skills = {s for u in after.units.values() if u.owner not in ("athens", None) for s in u.skills}
    public_traits = {T.traits[c.trait].name for c in after.cities.values() if c.trait}
    own_traits = {T.traits[t].name for t in after.players["athens"].traits}
    hands = SPARTA_HAND + TROY_HAND + [c for p in ("thebes",) for c in after.players[p].hand]
    played = {r.get("card") for r in records if r.get("event") == "card_played"}
    return {
        "unit ids": sorted(set(ids)),
        "cards in other hands": sorted({T.cards[c].name for c in hands if c not in played}),
        "card texts": sorted({T.cards[c].text for c in hands if c not in played
                              and all(T.cards[c].text != T.cards[x].text for x in after.players["athens"].hand)}),
        "leader skills": sorted({T.skills[s].name for s in enemy_skills} - athens_skills),
        "skill texts": sorted({T.skills[s].text for s in enemy_skills} - athens_skill_texts),
        "home traits": sorted({T.traits[t].name for t in SPARTA_TRAITS} - public_traits - own_traits),
    }


NUMBERS = (SPARTA_GOLD, SPARTA_GOLD_BEFORE, PLUNDER_GOLD)


def test_leak_nothing_hidden_reaches_any_file_of_the_athenians(played):
    folder = played.reports_dir(1, "athens")
    texts = player_texts(folder)
    secrets = secrets_hidden_from_athens(played)
    assert len(secrets["unit ids"]) > 20 and secrets["cards in other hands"] and secrets["leader skills"]
    leaks = []
    for name, text in texts.items():
        for kind, values in secrets.items():
            for v in values:
                if re.search(r"(?<![\w-])" + re.escape(v) + r"(?![\w-])", text):
                    leaks.append(f"{name}: {kind}: {v!r}")
        if "raw" not in name:  # numbers: only where people read (geometry in the SVG holds any number)
            for n in NUMBERS:
                if re.search(rf"(?<![\d.]){n}(?![\d.])", text):
                    leaks.append(f"{name}: a secret amount of gold: {n}")
    assert not leaks, "leaks:\n" + "\n".join(leaks)


def test_leak_test_can_see_what_the_athenians_may_know(played):
    """The reading works: own units, hand, skills and the battle they fought are in every readable file."""
    texts = player_texts(played.reports_dir(1, "athens"))
    for name in ("report.txt", "report.html (text)", "report.pdf (text)"):
        t = texts[name]
        for must in ("ATH-A1", "ATH-F2", "Reconnaissance", "Elite Units", "Heroism", "Admiral", "THE-A1",
                     "casualty roll THE-A2", "FAILED"):
            assert must in t, f"{must!r} missing from {name}"
    assert "A1-2" in texts["map.svg (text)"]  # own unit ids on the map
    assert "Argos" in texts["report.txt"] and "plundered" in texts["report.txt"]  # public, redacted


def test_other_players_files_hold_their_secrets_and_not_the_athenians(played):
    sparta = player_texts(played.reports_dir(1, "sparta"))["report.txt"]
    assert "Diekplus Circle" in sparta and "Cavalry Pursuit" in sparta  # own hand, and Troy's seen by Spy
    assert f"{SPARTA_GOLD} gold" in sparta and str(PLUNDER_GOLD) in sparta
    assert "Reconnaissance" in sparta  # a card the Athenians played is public...
    assert "Elite Units" not in sparta and "ATH-A1" not in sparta  # ...their hand and their units are not
    thebes = player_texts(played.reports_dir(1, "thebes"))["report.txt"]
    assert "ATH-A1" in thebes and "defence roll THE-A2" in thebes  # the battle they lost, whole
    assert "Cavalry Pursuit" not in thebes and "Diekplus Circle" not in thebes


def test_moderator_report_has_everything_and_the_complete_roll_log(played):
    folder = played.reports_dir(1, "moderator")
    text = (folder / "report.txt").read_text()
    for must in ("ROLL LOG", "attack roll SPA-A1", "Diekplus Circle", "Cavalry Pursuit", f"{SPARTA_GOLD}",
                 "Brilliance", "SPA-A1", "TRO-F1", "Spartans"):
        assert must in text, must
    n_rolls = sum(1 for r in played.read_log(1) if "event" not in r)
    assert text.count("\n  #") >= n_rolls


def test_all_files_are_written_and_sound(played):
    for who in ("athens", "sparta", "troy", "thebes", "moderator"):
        folder = played.reports_dir(1, who)
        svg = (folder / "map.svg").read_text()
        root = ET.fromstring(svg)  # parses
        assert root.tag.endswith("svg") and len(list(root.iter())) > 30
        png = (folder / "map.png").read_bytes()
        assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 50_000
        w, h = struct.unpack(">II", png[16:24])
        assert w > 1000 and h > 600
        assert png_text_chunks(png) == []
        pdf = (folder / "report.pdf").read_bytes()
        assert pdf.startswith(b"%PDF-") and pdf.rstrip().endswith(b"%%EOF") and len(pdf) > 20_000
        assert pdf.count(b"/Type /Page ") + pdf.count(b"/Type /Page\n") >= 2  # the map and the text
        html = (folder / "report.html").read_text()
        assert html.startswith("<!DOCTYPE html>") and "<svg" in html and "<style>" in html
        assert "http://" not in html.replace('xmlns="http://www.w3.org/2000/svg"', "").replace(
            'xmlns:xlink="http://www.w3.org/1999/xlink"', "")  # self-contained: nothing to fetch
        txt = (folder / "report.txt").read_text()
        assert max(len(line) for line in txt.splitlines()) <= 79


def test_fog_on_the_map_is_one_path_and_covers_what_the_player_cannot_see(played):
    svg = (played.reports_dir(1, "athens") / "map.svg").read_text()
    root = ET.fromstring(svg)
    fog = [el for el in root.iter() if el.get("id") == "fog"]
    assert len(fog) == 1 and fog[0].tag.endswith("path") and fog[0].get("d").count("M") >= 1
    mod = (played.reports_dir(1, "moderator") / "map.svg").read_text()
    assert 'id="fog"' not in mod


def test_report_shows_treasury_lines_orders_battle_dice_and_deadline(played):
    text = (played.reports_dir(1, "athens") / "report.txt").read_text()
    assert "TREASURY" in text and "Income: Athens" in text and re.search(r"Upkeep: \d units", text)
    assert "At the start of the turn" in text and "Now" in text
    assert "First move #2: FAILED: ATH-F1 cannot enter 1213" in text
    assert "die 1D10 = 7: attack roll ATH-A1 (modifier +2)" in text
    assert "Orders due: no deadline set yet" in text
    assert "Spartans' turn" in text


def test_deadline_from_campaign_yaml(tmp_path):
    camp = played_campaign(tmp_path / "c")
    cfg = dict(camp.config)
    cfg["deadline"] = "2025-03-14 18:00 UTC"
    camp.write_config(cfg)
    report.write_reports(camp, 1, ["athens"], formats=("txt", "html"))
    folder = camp.reports_dir(1, "athens")
    assert "Orders due: 2025-03-14 18:00 UTC." in (folder / "report.txt").read_text()
    assert "2025-03-14 18:00 UTC" in (folder / "report.html").read_text()
    assert sorted(p.name for p in folder.iterdir()) == ["report.html", "report.txt"]


# -- golden files of the text report, on the tiny map -----------------------------------------------------

def tiny_campaign(root: Path) -> Campaign:
    """A campaign folder built by hand on the tiny map: nothing random, so the report is the same forever."""
    root.mkdir(parents=True)
    shutil.copy(FIXTURES / "tiny.yaml", root / "map.yaml")
    camp = Campaign(root)
    camp.write_config({"name": "golden", "players": ["athens", "sparta"], "options": {}, "deadline": "Friday noon",
                       "turn_days": 7})
    before = make_state(["athens", "sparta"], gold=10)
    before.campaign = "golden"
    before.players["athens"].traits = ["peltasts", "seamanship"]
    before.players["sparta"].traits = ["hoplites", "phalanx"]
    for pid, cards in (("athens", ["reconnaissance", "bribes"]), ("sparta", ["spy", "storms"])):
        for c in cards:
            before.deck.remove(c)
        before.players[pid].hand = list(cards)
    add(before, "athens", "army", "0302")
    add(before, "athens", "army", "0302")
    fleet = add(before, "athens", "fleet", "0302")
    add(before, "athens", "rowers", "0302", carried_by=fleet.id)
    add(before, "athens", "leader", "0302", name="Pericles", skills=["heroism", "economics"])
    add(before, "sparta", "army", "0505")
    add(before, "sparta", "army", "0505")
    add(before, "sparta", "leader", "0505", name="Brasidas", skills=["brilliance"])
    before.cities["megara"].trait = "trade"
    after = before.copy()
    after.turn = 2
    after.players["athens"].gold = 10 + 7 + 3 - 3 - 2
    after.players["sparta"].gold = 10 + 7 - 2
    after.cities["megara"].controller = "athens"
    # cards in force: Sparta's Truce (everyone knows of it), Athens' Atrocities against Sparta (both do),
    # Sparta's Raids on the city of Athens; Athens' Political Rivalry on Sparta ran through turn 1: over
    after.effects = [Effect("truce", "truce", "sparta", None, 0, 2, "sparta"),
                     Effect("diplomacy_rolls", "atrocities", "athens", "sparta", -1),
                     Effect("income_block", "raids", "sparta", "athens", 0, 2, "athens"),
                     Effect("cannot_move_or_attack", "political_rivalry", "athens", "sparta", 0, 1, "sparta")]
    after.place(after.units["ATH-A1"], "0403")
    after.place(after.units["ATH-A2"], "0403")
    after.place(after.units["SPA-A1"], "0404")
    recruit = Unit("ATH-A3", UnitType.ARMY, "athens", "0302")
    after.add_unit(recruit)
    after.next_id["ATH-A"] = 3
    records = []

    def rec(player, phase, **data):
        records.append({"seq": len(records) + 1, "turn": 1, "player": player, "phase": phase, **data})

    rec("sparta", None, event="player_turn", nmr=False)
    rec("sparta", "revenue", event="income", city="sparta", amount=7, base=7, bonus=0, hostile=False, gold=17)
    rec("sparta", "upkeep", event="upkeep_paid", unit="SPA-A1", gold=1, starvation_cleared=0)
    rec("sparta", "upkeep", event="upkeep_paid", unit="SPA-A2", gold=1, starvation_cleared=0)
    rec("sparta", "first_move", event="moved", units=["SPA-A1"], **{"from": "0505"}, path=["0404"])
    rec("athens", None, event="player_turn", nmr=False)
    rec("athens", "revenue", event="income", city="athens", amount=7, base=7, bonus=0, hostile=False, gold=17)
    rec("athens", "upkeep", event="upkeep_paid", unit="ATH-A1", gold=1, starvation_cleared=0)
    rec("athens", "upkeep", event="upkeep_paid", unit="ATH-A2", gold=1, starvation_cleared=0)
    rec("athens", "upkeep", event="upkeep_paid", unit="ATH-R1", gold=1, starvation_cleared=0)
    rec("athens", "recruit", event="recruited", city="athens", unit="ATH-A3", type="army", cost=2, aboard=None)
    rec("athens", "recruit", event="order_done", section="recruit", index=0, city="athens", units=["ATH-A3"], cost=2)
    records.append({"seq": len(records) + 1, "turn": 1, "player": "athens", "phase": "recruit",
                    "roll": {"die": "1D10", "result": 4, "purpose": "experience roll", "city": "athens"}})
    rec("athens", "recruit", event="experience", city="athens", roll=4, result="nothing")
    records.append({"seq": len(records) + 1, "turn": 1, "player": "athens", "phase": "diplomacy",
                    "roll": {"die": "1D6", "result": 6, "purpose": "diplomacy roll", "city": "megara"}})
    rec("athens", "diplomacy", event="diplomacy_roll", city="megara", target="neutral", roll=6, modifier=0, total=6,
        success=True, n=1, of=1)
    rec("athens", "diplomacy", event="control", city="megara", cause="diplomacy")
    rec("athens", "diplomacy", event="order_done", section="diplomacy", index=0, city="megara", success=True)
    rec("athens", "diplomacy", event="gold", who="athens", amount=3, rolled=3, source="treasure", gold=20)
    rec("athens", "first_move", event="moved", units=["ATH-A1", "ATH-A2"], **{"from": "0302"}, path=["0303", "0403"])
    rec("athens", "first_move", event="order_done", section="first_move", index=0, units=["ATH-A1", "ATH-A2"])
    rec("athens", "second_move", event="order_failed", section="second_move", index=0, units=["ATH-F1"],
        reason="ATH-F1 has no path to 0909: it is off the map")
    rec(None, "end", event="turn_end", turn=1)
    camp.save_state(before)
    camp.save_state(after)
    camp.write_log(1, records)
    (root / "orders").mkdir()
    (root / "reports").mkdir()
    return Campaign.open(root)


@pytest.mark.parametrize("who", ["athens", "sparta", "moderator"])
def test_golden_text_report(tmp_path, who):
    camp = tiny_campaign(tmp_path / "golden")
    report.write_reports(camp, 1, [who], formats=("txt",))
    got = (camp.reports_dir(1, who) / "report.txt").read_text(encoding="utf-8")
    path = GOLDEN / f"report_{who}.txt"
    if os.environ.get("PBEM_REGEN_GOLDEN") == "1":
        GOLDEN.mkdir(exist_ok=True)
        path.write_text(got, encoding="utf-8")
    assert path.is_file(), f"{path} is missing: run PBEM_REGEN_GOLDEN=1 pytest {__file__}"
    assert got == path.read_text(encoding="utf-8"), f"report differs from {path} (see the module docstring)"


# -- templates and the command's entry point -------------------------------------------------------------

def test_campaign_templates_override_the_packaged_ones(tmp_path):
    camp = tiny_campaign(tmp_path / "t")
    (camp.root / "templates").mkdir()
    (camp.root / "templates" / "report.txt.j2").write_text(
        "{{ campaign }} turn {{ turn }}: {{ player.name if player else 'moderator' }} has "
        "{{ treasury.end if treasury is defined else '-' }} gold\n")
    report.write_reports(camp, 1, ["athens"], formats=("txt", "html"))
    folder = camp.reports_dir(1, "athens")
    assert (folder / "report.txt").read_text() == "golden turn 1: Athenians has 15 gold\n"
    assert "<!DOCTYPE html>" in (folder / "report.html").read_text()  # the packaged HTML template still


def test_packaged_templates_load_from_the_package_resources():
    env = report.environment(None)
    for name in ("report.txt.j2", "report.html.j2", "report.css"):
        assert env.get_template(name) is not None


def test_main_writes_every_report_and_summarises(tmp_path):
    camp = tiny_campaign(tmp_path / "m")
    summary = report.main(camp.root)
    assert "turn 1" in summary and "moderator" in summary and "athens" in summary
    for who in ("athens", "sparta", "moderator"):
        kit = [] if who == "moderator" else ["kit"]  # each player also gets a checking kit (pbem.playerkit)
        assert sorted(p.name for p in camp.reports_dir(1, who).iterdir()) == kit + [
            "map.png", "map.svg", "report.html", "report.pdf", "report.txt"]
    out = report.main(camp.root, 1, "Sparta")
    assert "sparta" in out and "athens" not in out


def test_main_refuses_user_mistakes_with_pbem_errors(tmp_path):
    camp = tiny_campaign(tmp_path / "e")
    with pytest.raises(UsageError, match="not a player"):
        report.main(camp.root, 1, "atlantis")
    with pytest.raises(CampaignError, match="turn 2 has not been adjudicated"):
        report.main(camp.root, 2, None)
    with pytest.raises(UsageError, match="start at 1"):
        report.main(camp.root, -1, None)
    with pytest.raises(CampaignError):
        report.main(tmp_path / "nowhere", None, None)
    with pytest.raises(PbemError, match="unknown report format"):
        report.write_reports(camp, 1, ["athens"], formats=("docx",))


def test_main_before_any_turn_is_adjudicated(tmp_path):
    camp = create(tmp_path / "new", ["athens", "sparta"], seed="7").campaign
    with pytest.raises(CampaignError, match="no turn has been adjudicated"):
        report.main(camp.root)



# -- rendering in parallel ----------------------------------------------------------------------------------

def all_files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_reports_are_the_same_bytes_whatever_the_number_of_workers(tmp_path, monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")  # the PDFs' creation date
    camp = tiny_campaign(tmp_path / "w")
    got = {}
    for n in (1, 2, 3):
        shutil.rmtree(camp.reports_dir(1), ignore_errors=True)
        written = report.write_reports(camp, 1, workers=n)
        assert [w.player for w in written] == ["athens", "sparta", "moderator"]  # turn order, then the moderator
        got[n] = all_files(camp.reports_dir(1))
    assert len(got[1]) > 15 and got[1] == got[2] == got[3]


def test_worker_count_follows_the_argument_then_the_environment():
    assert report.worker_count(13, 2) == 2
    assert report.worker_count(1, 4) == 1  # a single report: no pool
    assert report.worker_count(3, 8) == 3


def test_pbem_workers_1_renders_in_this_process(tmp_path, monkeypatch):
    monkeypatch.setenv("PBEM_WORKERS", "1")
    assert report.worker_count(13) == 1
    camp = tiny_campaign(tmp_path / "s")
    seen = []
    real = report.render_all
    monkeypatch.setattr(report, "render_all", lambda *a, **k: seen.append(os.getpid()) or real(*a, **k))
    report.write_reports(camp, 1, formats=("txt",))
    assert seen == [os.getpid()] * 3
    monkeypatch.setenv("PBEM_WORKERS", "many")
    with pytest.raises(UsageError, match="PBEM_WORKERS"):
        report.write_reports(camp, 1, formats=("txt",))


def test_a_worker_exception_is_raised_in_the_parent(tmp_path, monkeypatch):
    camp = tiny_campaign(tmp_path / "x")
    real = report.render_all

    def failing(env, ctx, *a, **k):
        if ctx["viewer"] == "athens":
            raise RuntimeError("the Athenian map caught fire")
        return real(env, ctx, *a, **k)

    monkeypatch.setattr(report, "render_all", failing)  # the forked workers inherit the patch
    with pytest.raises(RuntimeError, match="caught fire"):
        report.write_reports(camp, 1, formats=("txt",), workers=2)


def test_a_worker_that_dies_is_an_error_not_a_hang(tmp_path, monkeypatch):
    from concurrent.futures.process import BrokenProcessPool
    camp = tiny_campaign(tmp_path / "d")
    monkeypatch.setattr(report, "render_all", lambda *a, **k: os._exit(3))
    with pytest.raises(BrokenProcessPool):
        report.write_reports(camp, 1, formats=("txt",), workers=2)


def test_pdf_map_page_is_the_png_when_there_is_one_else_vectors(tmp_path):
    camp = tiny_campaign(tmp_path / "p")
    report.write_reports(camp, 1, ["athens"], formats=("png", "pdf"))
    folder = camp.reports_dir(1, "athens")
    raster = (folder / "report.pdf").read_bytes()
    report.write_reports(camp, 1, ["athens"], formats=("pdf",))
    vector = (folder / "report.pdf").read_bytes()
    assert b"/Subtype /Image" in raster and b"/Subtype /Image" not in vector
    for pdf in (raster, vector):
        assert pdf.count(b"/Type /Page ") + pdf.count(b"/Type /Page\n") >= 2
        assert "TREASURY" in pdf_text(pdf)
    sizes = [re.findall(rb"/MediaBox \[ ?0 0 ([\d.]+) ([\d.]+) ?\]", pdf)[0] for pdf in (raster, vector)]
    assert sizes[0] == sizes[1]  # the map page has the map's size either way


# -- wording the events: one formatter a kind ----------------------------------------------------------------

# Event kinds left on purpose to describe's fall-back (the kind's name, then its keys): turn-frame records
# the report does not list as events.  Any other kind of pbem.events.Ev needs its entry in report.DESCRIBE.
WORDED_BY_NAME = {"player_turn", "turn_end"}


def test_every_event_kind_has_a_formatter_or_is_left_to_the_fall_back_on_purpose():
    from pbem.events import Ev
    kinds = {e.value for e in Ev}
    missing = kinds - set(report.DESCRIBE) - WORDED_BY_NAME
    assert not missing, f"event kinds without a formatter in report.DESCRIBE: {sorted(missing)}"
    assert not WORDED_BY_NAME & set(report.DESCRIBE), "a kind worded by name has a formatter: drop it from the list"
    assert set(report.DESCRIBE) <= kinds, f"formatters for no event kind: {sorted(set(report.DESCRIBE) - kinds)}"


def test_describe_words_the_kind_and_lists_the_keys_no_formatter_took():
    nm = report.Namer(TINY, T, {"athens": {"name": "Athenians"}, "sparta": {"name": "Spartans"}})
    frame = {"seq": 7, "turn": 1, "player": "athens", "phase": "draw"}
    assert report.describe({**frame, "event": "player_turn", "gold": 3}, nm, None) == "Player turn [gold: 3]"
    assert (report.describe({**frame, "event": "draw", "count": 1, "cards": ["spy"], "odd": "x"}, nm, "athens")
            == "Drew 1 card: Spy [odd: x]")
    assert report.describe({**frame, "event": "eliminated"}, nm, "athens") == "You are out of the game"
    assert report.describe({**frame, "event": "eliminated"}, nm, "sparta") == "Athenians are out of the game"


def test_cards_in_force_are_listed_in_every_report(tmp_path):
    """docs/rules.md (Lasting effects, Truce): each report lists the lasting effects its reader knows of."""
    camp = tiny_campaign(tmp_path / "golden")
    report.write_reports(camp, 1, ["sparta", "moderator"], formats=("txt", "html"))
    for who, truce in (("sparta", "Truce (played by you): no one may attack until the end of your player-turn "
                                  "in game turn 2"),
                       ("moderator", "Truce (played by the Spartans): no one may attack until the end of the "
                                     "Spartans' player-turn in game turn 2")):
        html = (camp.reports_dir(1, who) / "report.html").read_text(encoding="utf-8")
        section = html.split("<h2>Cards in force</h2>")[1].split("<h2>")[0]
        items = [html_module.unescape(i) for i in re.findall(r"<li>(.*?)</li>", section)]
        assert items[0] == truce and items[1].startswith("Atrocities (played by "), items
        assert items[1].endswith(": 1 diplomacy roll fewer for " + ("you at your" if who == "sparta" else
                                                                     "the Spartans at their") + " next Diplomacy phase")
        # the city of Athens, not the Athenians: a home city's id is its player's; Political Rivalry is over
        assert items[2].startswith("Raids (played by ") and ": no income from Athens until " in items[2], items
        assert len(items) == 3


def test_standings_show_every_players_city_count_and_hand_size(played):
    """docs/players.md: everyone's city count and hand size are public; STANDINGS shows both, text and HTML."""
    state = played.load_state()
    text = (played.reports_dir(1, "athens") / "report.txt").read_text()
    html = (played.reports_dir(1, "athens") / "report.html").read_text()
    section = text.split("STANDINGS (cities held; cards in hand)")[1].split("Turn order:")[0]
    for pid in state.turn_order:
        p = state.players[pid]
        n = len(p.hand)
        cities = len(state.controlled_cities(pid))
        name = report.Namer(played.game_map, tables(), {q: {"name": state.players[q].name}
                                                        for q in state.turn_order}, {}).player(pid)
        assert re.search(rf"\d\. {name}\s+{cities}\s+{n} cards?\b", section), (pid, section)
        assert re.search(rf"<td>{name}</td>\s*<td class=\"num\">{cities}</td><td class=\"num\">{n}</td>", html), pid


def test_html_report_shows_order_file_keys_as_code_not_backticks(played):
    """Found by a player-eyes review: the HTML showed `cards` with its backticks."""
    html = (played.reports_dir(1, "athens") / "report.html").read_text()
    body = re.sub(r"<svg.*?</svg>", " ", html, flags=re.S)
    assert "`" not in body
    assert "<code>standing:</code>" in body
    assert report.code_html("a `b` & <c>") == "a <code>b</code> &amp; &lt;c&gt;"


def test_the_pdf_wraps_a_line_too_long_for_its_page_and_counts_the_map_page():
    """Found by a late-game review: the 12-player 'Turn order' line (136 characters) was cut off at the page's
    edge, and the footers said 'page N of 9' in a 10-page PDF (the map page was not counted)."""
    words = [f"word{i:03d}" for i in range(30)]
    text = "SHORT LINE\n  " + " ".join(words) + "\n"
    assert len(text.split("\n")[1]) > report.CHARS_PER_LINE
    plain = pdf_text(report.pdf_report(None, text, "t"))
    assert all(w in plain for w in words), plain
    assert "page 1 of 1" in plain
    svg = '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"></svg>'
    assert "page 2 of 2" in pdf_text(report.pdf_report(svg, text, "t"))


def test_the_turn_order_line_is_wrapped_like_the_rest_of_the_text_report(tmp_path):
    """Twelve players' names make a 136-character 'Turn order' line: wrapped at the report's width."""
    from datetime import datetime, timezone
    from pbem.cycle import run_turn, set_seat
    players = ["athens", "sparta", "thebes", "corinth", "troy", "crete", "macedonia", "ionia", "doria", "thrace",
               "archea", "amazonia"]
    camp = create(tmp_path / "c", players, seed="3", name="wide").campaign
    for p in players:
        set_seat(camp, p, "bot")
    run_turn(camp, datetime(2026, 11, 22, tzinfo=timezone.utc))
    text = (camp.reports_dir(1, "athens") / "report.txt").read_text()
    assert max(len(line) for line in text.splitlines()) <= report.WIDTH, max(text.splitlines(), key=len)
    assert "Amazonians" in text.split("Turn order:")[1]


def test_the_treasury_lists_upkeep_where_it_was_paid_before_a_plunder_of_the_battles():
    """A new player's review: TREASURY listed Plunder before Upkeep, though the Upkeep phase comes first."""
    from pbem.gamedata import load_map
    nm = report.Namer(load_map(), tables(), {"crete": {"name": "Cretans"}})
    records = [{"event": "income", "player": "crete", "phase": "revenue", "city": "crete", "amount": 7},
               {"event": "upkeep_paid", "player": "crete", "phase": "upkeep", "gold": 1},
               {"event": "upkeep_paid", "player": "crete", "phase": "upkeep", "gold": 1},
               {"event": "plunder", "player": "crete", "by": "crete", "phase": "land_battle", "city": "athens",
                "gold": 9}]
    t = report.treasury({"me": {"gold": 23}}, None, records, nm, "crete")
    assert [(x["label"], x["amount"]) for x in t["lines"]] == [
        ("Income: Crete", 7), ("Upkeep: 2 units", -2), ("Plunder of Athens", 9)]


def test_a_ctrl_c_while_the_reports_pool_starts_stops_it_cleanly(tmp_path, monkeypatch):
    """A chaos soak's Ctrl-C sweep: an interrupt while the pool forked its workers and took the reports left them
    waiting, and pbem hung for good holding the campaign's lock (or printed a threading traceback); one while this
    process rendered the shared map was swallowed by cairo's callback ("reports could not be written (11)", exit
    2).  Both are held until that step is done: the interrupt then stops the pool and no worker is left."""
    import multiprocessing
    import os
    import signal
    from concurrent.futures import ProcessPoolExecutor
    if "fork" not in multiprocessing.get_all_start_methods():
        pytest.skip("the reports pool forks")
    camp = tiny_campaign(tmp_path / "c")
    warmed = []
    real_warm = report._warm

    def warm_interrupted(job):
        os.kill(os.getpid(), signal.SIGINT)  # while the shared layers are rendered here
        real_warm(job)
        warmed.append(True)
    monkeypatch.setattr(report, "_warm", warm_interrupted)
    with pytest.raises(KeyboardInterrupt):
        report.write_reports(camp, 1, formats=("txt", "png"), workers=2)
    assert warmed == [True]
    monkeypatch.setattr(report, "_warm", real_warm)

    class Interrupted(ProcessPoolExecutor):
        def submit(self, *a, **k):  # while the workers start and the reports are handed out
            os.kill(os.getpid(), signal.SIGINT)
            return super().submit(*a, **k)
    monkeypatch.setattr(report, "ProcessPoolExecutor", Interrupted)
    with pytest.raises(KeyboardInterrupt):
        report.write_reports(camp, 1, formats=("txt",), workers=2)
    assert not multiprocessing.active_children()
