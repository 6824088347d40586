"""Intake's answer to a player says nothing their own kit would not (R-VIS-1 and the fog of R-VIS-*; found by a
red-team review): intake used to check a file against the whole state, so a Starvation card aimed at a city out of
sight told whether it was besieged (no "not under siege" warning), and a card aimed at an enemy unit in sight
answered to its real id, which reports and kits hide.  Now intake checks against the state as the player's kit
holds it; the answer is the kit's, finding for finding, whatever the file asks."""
from datetime import datetime, timezone

from pbem import board, yamlio
from pbem.campaign import create
from pbem.checker import check_text
from pbem.cycle import run_turn, set_seat
from pbem.intake import submit_bytes
from pbem.model import Unit, UnitType
from pbem.playerkit import write_kit
from pbem.visibility import sight
from pbem.storage import Campaign

NOW = datetime(2026, 1, 1, tzinfo=timezone.utc)
ME = "athens"


def played(tmp_path):
    camp = create(tmp_path / "c", ["athens", "sparta", "thebes", "corinth"], seed="21", name="fog").campaign
    for p in camp.load_state().turn_order:
        set_seat(camp, p, "bot")
    for _ in range(3):
        run_turn(camp, NOW, force=True, reports=False)
    set_seat(camp, ME, "human")
    return camp


def besiege_one_out_of_sight(camp):
    """Put a Spartan Army next to a Theban or Corinthian city Athens cannot see: a siege only the whole state
    knows.  Returns the city's id."""
    state, gm = camp.load_state(), camp.game_map
    seen = sight(state, gm, ME)
    taken = {u.hex for u in state.units.values()}
    for cid, c in sorted(state.cities.items()):
        where = gm.cities[cid].hex
        if c.controller not in ("thebes", "corinth") or where in seen or board.under_siege(state, gm, cid):
            continue
        for h in gm.neighbours[where]:
            if h not in seen and h not in taken and gm.is_land(h) and gm.passable(h) and h not in gm.city_at:
                state.add_unit(Unit(state.new_unit_id("SPA", UnitType.ARMY), UnitType.ARMY, "sparta", h))
                camp.save_state(state)
                assert board.under_siege(state, gm, cid)
                return cid
    raise AssertionError("no Theban or Corinthian city out of Athens' sight to besiege")


def probes(camp, secret: str) -> list[str]:
    """Files that ask about everything: Starvation on every city, Short Supplies and Exiled on every enemy unit
    and leader id (the real ones and the kit's), diplomacy rolls; each list within the 50 entries a file takes."""
    state = camp.load_state()
    others = sorted(uid for uid, u in state.units.items() if u.owner not in (ME, None))
    kit_ids = [f"{p}-?{i}" for p in ("SPA", "THE", "COR") for i in range(1, 6)]
    asks = [{"card": "starvation", "target": c} for c in sorted(state.cities)]
    asks += [{"card": "short_supplies", "target": u} for u in others + kit_ids]
    asks += [{"card": "exiled", "target": u} for u in others if "-L" in u]
    head = {"campaign": state.campaign, "turn": state.turn, "player": ME, "secret": secret}
    return [yamlio.dump({**head, "cards": asks[i:i + 40], "diplomacy": sorted(state.cities)[:6]})
            for i in range(0, len(asks), 40)]


def lines(report):
    return [(f.severity, f.line, f.path, f.message, f.hint) for f in report.findings]


def test_intake_answers_a_player_exactly_as_their_kit_does(tmp_path):
    camp = played(tmp_path)
    besieged = besiege_one_out_of_sight(camp)
    secret = camp.player_secrets()[ME]
    kit = Campaign.open(write_kit(camp, ME))
    leaks = 0
    for n, text in enumerate(probes(camp, secret)):
        at_home = lines(check_text(text, "orders.yaml", kit))
        whole = lines(check_text(text, "orders.yaml", camp))
        leaks += whole != at_home  # without the fix, intake's answer was the whole state's
        assert lines(check_text(text, "orders.yaml", camp, as_player=ME)) == at_home
        if n == 0:  # the Starvation file: a city out of sight is only out of sight, besieged or not (a card's
            # target must be in sight when it is played, docs/rules.md): no word of any siege past the fog
            name = camp.game_map.cities[besieged].name
            assert any(m.startswith(f"{name} is out of your sight now") for _, _, _, m, _ in at_home)
            assert not any(besieged in m.lower() and "under siege" in m for _, _, _, m, _ in at_home + whole)
        # and through intake itself: the answer stored for the player holds the kit's findings, word for word
        answer = submit_bytes(camp, text.encode(), "athens.yaml", NOW, late_ok=True)
        assert answer.findings == [f.text() for f in check_text(text, "athens.yaml", kit).findings]
        said = answer.text()
        for uid, u in camp.load_state().units.items():
            if u.owner not in (ME, None) and uid not in text:
                assert uid not in said, uid  # no enemy unit's real id the file did not name, in sight or not
    # the ids: the probes ask what only the whole state knows (the sieges no longer differ: a city out of sight is
    # only out of sight to the checker, whatever the state it reads)
    assert leaks >= 1
