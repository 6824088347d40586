"""The order checker after a new player's ten turns as Crete, each finding reproduced on the demo campaign: Baggage
this turn's Upkeep uses up named by a move (R-PH-UPK, R-TURN-4), units that make an upkeep roll at this turn's
Upkeep with no word, and findings that hold only if an attack wins or loses (R-BAT-4) said as errors."""
from __future__ import annotations

import pytest

from pbem.checker import check_text
from pbem.model import Unit, UnitType
from pbem.ordertypes import Orders
from pbem.storage import Campaign
from demo_campaign import create_demo, edited, said, first
from scenario import run_phase, events

CRETE = "campaign: demo\nturn: 1\nplayer: crete\nsecret: x\n"


@pytest.fixture(scope="module")
def demo(tmp_path_factory) -> Campaign:
    return create_demo(tmp_path_factory.mktemp("campaigns") / "demo")


def crete_orders(**sections) -> Orders:
    return Orders.from_dict({"campaign": "demo", "turn": 1, "player": "crete", **sections})


def put(s, utype: UnitType, h: str, carried_by: str | None = None) -> str:
    u = s.add_unit(Unit(s.new_unit_id("CRE", utype), utype, "crete", h, carried_by=carried_by))
    return u.id


def failed(ctx) -> list[tuple[str, int, str]]:
    return [(e["section"], e["index"], e["reason"]) for e in events(ctx, "order_failed")]


# -- 1. Baggage this turn's Upkeep uses up, named by a move ------------------------------------------------------

def in_razed_knossos(s) -> None:
    """Crete first; Knossos (1618) Crete's and razed, so it feeds no one; CRE-A1 there with Baggage CRE-B1."""
    first(s, "crete")
    s.cities["knossos"].controller = "crete"
    s.cities["knossos"].razed = 3
    s.place(s.units["CRE-A1"], "1618")
    assert put(s, UnitType.BAGGAGE, "1618") == "CRE-B1"


MOVE = 'first_move:\n  - units: [CRE-A1, CRE-B1]\n    path: ["1519", "1418", "1319"]\n'


def eaten_warnings(r) -> list[tuple[str, str, str]]:
    return [f for f in said(r) if "used up at this turn's Upkeep" in f[2]]


def test_baggage_the_upkeep_uses_up_named_by_a_move_is_warned(demo, tmp_path):
    """The review: CRE-A1 stood in razed Knossos with CRE-B1; `pbem check` said OK, and the move failed whole:
    "CRE-B1 was used up to feed CRE-A1 in your Upkeep" (the Upkeep comes before the moves)."""
    camp = edited(demo, tmp_path, in_razed_knossos)
    r = check_text(CRETE + MOVE, "o.yaml", camp)
    assert not r.errors, said(r)
    assert eaten_warnings(r) == [
        ("warning", "first_move[0]", "CRE-B1 is used up at this turn's Upkeep, before your moves (CRE-B1 feeds "
                                     "CRE-A1, which is not paid in 1618: no friendly city in or next to its hex "
                                     "(Knossos is razed)): this order names it, so it fails whole, the units with it "
                                     "included")], said(r)
    # the game: the Upkeep feeds CRE-A1 with CRE-B1, and the move fails whole
    state = camp.load_state()
    ctx = run_phase("upkeep", state, "crete", game_map=camp.game_map, check=False)
    assert [(e["unit"], e["baggage"]) for e in events(ctx, "baggage_used")] == [("CRE-A1", "CRE-B1")]
    o = crete_orders(first_move=[{"units": ["CRE-A1", "CRE-B1"], "path": ["1519", "1418", "1319"]}])
    ctx = run_phase("first_move", state, "crete", orders=o, game_map=camp.game_map, check=False)
    [(section, index, reason)] = failed(ctx)
    assert (section, index) == ("first_move", 0) and "CRE-B1" in reason, reason
    assert state.units["CRE-A1"].hex == "1618"


def test_the_baggage_warned_is_the_one_the_upkeep_priority_gives_and_paid_stacks_keep_theirs(demo, tmp_path):
    """Which Army a Baggage feeds is the Upkeep phase's own choice (the file's upkeep list first, then by id);
    Baggage of a stack that is paid (in or next to a friendly city) is not used up, and nothing is said of it."""
    def two_armies(s) -> None:
        in_razed_knossos(s)
        s.place(s.units["CRE-A2"], "1618")  # two Armies, one Baggage: one is fed, the other rolls
        assert put(s, UnitType.ARMY, "1419") == "CRE-A3"  # in Crete itself: paid, its Baggage kept
        assert put(s, UnitType.BAGGAGE, "1419") == "CRE-B2"
    camp = edited(demo, tmp_path, two_armies)
    moves = ('first_move:\n  - units: [CRE-A1, CRE-B1]\n    path: ["1519"]\n'
             '  - units: [CRE-A3, CRE-B2]\n    path: ["1418"]\n')
    r = check_text(CRETE + moves, "o.yaml", camp)
    assert [f[:2] for f in eaten_warnings(r)] == [("warning", "first_move[0]")], said(r)
    assert "CRE-B1 feeds CRE-A1," in eaten_warnings(r)[0][2], said(r)
    # the upkeep list puts CRE-A2 first: it gets CRE-B1, and CRE-A1 rolls (warned as before at its order)
    r = check_text(CRETE + "upkeep: [CRE-A2]\n" + moves, "o.yaml", camp)
    assert [f[:2] for f in eaten_warnings(r)] == [("warning", "first_move[0]")], said(r)
    assert "CRE-B1 feeds CRE-A2," in eaten_warnings(r)[0][2], said(r)
    assert any(f[1] == "first_move[0]" and f[2].startswith("CRE-A1 stands out of supply") for f in said(r)), said(r)
    assert not r.errors, said(r)
    # the game: the same choice
    state = camp.load_state()
    ctx = run_phase("upkeep", state, "crete", dice=[1], game_map=camp.game_map, check=False,
                    orders=crete_orders(upkeep=["CRE-A2"]))
    assert [(e["unit"], e["baggage"]) for e in events(ctx, "baggage_used")] == [("CRE-A2", "CRE-B1")]
    assert [e["unit"] for e in events(ctx, "starvation")] == ["CRE-A1"]
    o = crete_orders(first_move=[{"units": ["CRE-A1", "CRE-B1"], "path": ["1519"]},
                                 {"units": ["CRE-A3", "CRE-B2"], "path": ["1418"]}])
    ctx = run_phase("first_move", state, "crete", orders=o, game_map=camp.game_map, check=False)
    assert [(s, i) for s, i, _ in failed(ctx)] == [("first_move", 0)]
    assert state.units["CRE-B2"].hex == "1418" and state.units["CRE-A1"].hex == "1618"


# -- 2. units that make an upkeep roll at this turn's Upkeep ---------------------------------------------------------

def on_the_beach(s) -> None:
    """Crete first; CRE-A1 alone on the Sandy Coast 2315 (by Samos, far from Crete), no Baggage there; a Transport
    at sea in 2214 with Baggage CRE-B1 aboard."""
    first(s, "crete")
    s.place(s.units["CRE-A1"], "2315")
    t = put(s, UnitType.TRANSPORT, "2214")
    assert put(s, UnitType.BAGGAGE, "2214", carried_by=t) == "CRE-B1"


def rolls_now(r) -> list[tuple[str, str, str]]:
    return [f for f in said(r) if "at this turn's Upkeep" in f[2] and "upkeep roll" in f[2]]


def test_a_unit_that_rolls_at_this_upkeep_is_said_though_the_second_move_brings_baggage(demo, tmp_path):
    """The review: CRE-A7 stood on beach 2315 without Baggage; the Second Move brought Baggage there (the
    end-of-turn supply warning was satisfied) but at the Upkeep, before the moves, it rolled and took a
    starvation counter, with no word."""
    camp = edited(demo, tmp_path, on_the_beach)
    state = camp.load_state()
    [t] = [u for u in state.units.values() if u.type is UnitType.TRANSPORT and u.owner == "crete"]
    body = f'second_move:\n  - units: [{t.id}]\n    path: ["2315"]\n    unload: [CRE-B1]\n'
    r = check_text(CRETE + body, "o.yaml", camp)
    assert not r.errors, said(r)
    assert not [f for f in said(r) if "next Upkeep" in f[2]], said(r)  # the end-of-turn warning: satisfied
    assert rolls_now(r) == [
        ("note", "", "CRE-A1 in 2315 makes an upkeep roll at this turn's Upkeep, before your moves (no friendly city "
                     "in or next to its hex; no Baggage there for it): CRE-A1: a 6 disbands it; 1-5 adds a "
                     "starvation counter")], said(r)
    [f] = [f for f in r.findings if f.severity == "note"]
    assert "Baggage your moves bring comes too late" in f.hint
    # the game: CRE-A1 rolls at the Upkeep, before the Baggage comes
    ctx = run_phase("upkeep", state, "crete", dice=[3], game_map=camp.game_map, check=False)
    assert [(e["unit"], e["counters"]) for e in events(ctx, "starvation")] == [("CRE-A1", 1)]
    # once per hex, not per unit; nothing said twice: the end-of-turn warning names units left there
    def two(s) -> None:
        on_the_beach(s)
        s.place(s.units["CRE-A2"], "2315")
        assert put(s, UnitType.BAGGAGE, "2214", carried_by=s.units["CRE-B1"].carried_by) == "CRE-B2"
    camp = edited(demo, tmp_path / "two", two)
    body = body.replace("[CRE-B1]", "[CRE-B1, CRE-B2]")
    r = check_text(CRETE + body, "o.yaml", camp)
    assert not r.errors and not [f for f in said(r) if "next Upkeep" in f[2]], said(r)
    [(sev, path, msg)] = rolls_now(r)
    assert msg.startswith("CRE-A1, CRE-A2 in 2315 each make an upkeep roll"), msg
    r = check_text(CRETE, "o.yaml", camp)  # no Baggage comes: the end-of-turn warning says them, no note
    assert not rolls_now(r) and [f for f in said(r) if "next Upkeep" in f[2]], said(r)
    # an order naming the unit with others: its own warning says it, no note
    r = check_text(CRETE + body + '  - units: [CRE-A1, CRE-A2]\n    path: ["2315"]\n', "o.yaml", camp)
    assert [f[:2] for f in said(r) if "at this turn's Upkeep" in f[2]] == [("warning", "second_move[1]")], said(r)


# -- 3. findings that hold only if an attack wins or loses (R-BAT-4) ----------------------------------------------

def before_knossos(s) -> None:
    """Crete first; CRE-A1 and CRE-A2 in 1519, next to Knossos (1618, neutral)."""
    first(s, "crete")
    for uid in ("CRE-A1", "CRE-A2"):
        s.place(s.units[uid], "1519")


ATTACK = "land_battle:\n  - units: [CRE-A1, CRE-A2]\n    target: \"1618\"\n"


def test_a_second_move_that_holds_only_if_the_attack_wins_is_a_warning_not_an_error(demo, tmp_path):
    """The review: after an attack on Knossos from 1519, `second_move: [CRE-A1] path: ["1519"]` got the error
    "1519 is where the units already are", and `units: ["1618"]` "you have no units in 1618": errors refuse the
    whole file, though both orders hold if the attack wins (CRE-A1 then moves into Knossos by itself, R-BAT-4)."""
    camp = edited(demo, tmp_path, before_knossos)
    back = 'second_move:\n  - units: [CRE-A1]\n    path: ["1519"]\n'
    r = check_text(CRETE + ATTACK + back, "o.yaml", camp)
    assert not r.errors, said(r)
    [f] = [f for f in r.findings if f.path == "second_move[0].path[0]"]
    assert (f.severity, f.message) == ("warning", "unless your attack at land_battle[0] takes the city: 1519 is where "
                                                  "the units already are; the path lists the hexes entered"), said(r)
    assert f.hint.startswith("if it takes it, CRE-A1 moves into Knossos by itself (R-BAT-4), and this holds"), f.hint
    r = check_text(CRETE + ATTACK + 'second_move:\n  - units: ["1618"]\n    path: ["1519"]\n', "o.yaml", camp)
    assert not r.errors, said(r)
    assert [f[:2] for f in said(r) if f[1].startswith("second_move")] == [("warning", "second_move[0].units[0]")]
    # without the attack, both are errors still
    r = check_text(CRETE + back, "o.yaml", camp)
    assert [f[:2] for f in said(r) if f[0] == "error"] == [("error", "second_move[0].path[0]")], said(r)
    # a move that holds only if the attack fails: a warning that says so
    r = check_text(CRETE + ATTACK + 'second_move:\n  - units: [CRE-A1]\n    path: ["1418"]\n', "o.yaml", camp)
    assert not r.errors, said(r)
    [f] = [f for f in r.findings if f.path.startswith("second_move")]
    assert f.severity == "warning" and f.message.startswith(
        "if your attack at land_battle[0] takes the city, CRE-A1 moves into Knossos by itself (R-BAT-4), and then: "
        "1418 is not next to 1618"), said(r)
    # the game: the attack wins, CRE-A1 moves in, and the move back to 1519 is carried out
    state = camp.load_state()
    o = crete_orders(land_battle=[{"units": ["CRE-A1", "CRE-A2"], "target": "1618"}],
                     second_move=[{"units": ["CRE-A1"], "path": ["1519"]}])
    ctx = run_phase("land_battle", state, "crete", dice=[10, 10, 1, 1], orders=o, game_map=camp.game_map, check=False)
    assert state.cities["knossos"].controller == "crete" and state.units["CRE-A1"].hex == "1618", [
        (r.get("event"), r.get("reason"), r.get("what"), r.get("roll")) for r in ctx.log.records]
    ctx = run_phase("second_move", state, "crete", orders=o, game_map=camp.game_map, check=False)
    assert not failed(ctx) and state.units["CRE-A1"].hex == "1519"
