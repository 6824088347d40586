"""The computer player: legal orders from the fogged view only, seeded; whole bot campaigns as soak tests."""
import hashlib
import statistics

import pytest

from pbem import yamlio
from pbem.bot import write_orders
from pbem.campaign import create
from pbem.checker import check_text
from pbem.gamedata import load_map, tables
from pbem.adjudicator import adjudicate
from pbem.dice import Dice, turn_seed
from pbem.invariants import violations
from pbem.model import Effect, Unit, UnitType
from pbem.selfplay import bot_turn_orders, new_game, play, state_hash
from pbem.turn import run
from pbem.visibility import view

from agree_boards import findings

AEGEAN = load_map()
T = tables()
ALL = ["athens", "sparta", "thebes", "corinth", "troy", "crete", "macedonia", "ionia", "doria", "thrace",
       "archea", "amazonia"]


def check_all_phases(ctx):
    bad = violations(ctx.state, ctx.game_map, ctx.tables)
    assert not bad, f"turn {ctx.state.turn} {ctx.player} {ctx.phase}: " + "; ".join(bad)


def test_bot_orders_pass_the_checker_turn_after_turn(tmp_path):
    camp = create(tmp_path / "c", ALL[:6], seed="2026", name="demo").campaign
    secrets = camp.player_secrets()
    for _ in range(4):
        state = camp.load_state()
        for pid in state.turn_order:
            data = write_orders(view(state, camp.game_map, pid), camp.game_map, T, "demo", state.turn, secrets[pid])
            text = yamlio.dump(data)
            report = check_text(text, f"{pid}.yaml", camp)
            assert not report.errors, report.to_text()
            (camp.orders_dir(state.turn)).mkdir(parents=True, exist_ok=True)
            (camp.orders_dir(state.turn) / f"{pid}.yaml").write_text(text)
        run(camp)


def test_bot_orders_pass_the_checker_in_the_mid_and_late_game(tmp_path):
    """Every order file of a 6-player campaign up to turn 20 (marches, attacks, battle cards, revolts) is
    accepted by the checker without an error."""
    camp = create(tmp_path / "c", ALL[:6], seed="2026", name="demo").campaign
    secrets = camp.player_secrets()
    kinds = set()
    for _ in range(20):
        state = camp.load_state()
        for pid in state.turn_order:
            if state.players[pid].eliminated_turn is not None:
                continue
            data = write_orders(view(state, camp.game_map, pid), camp.game_map, T, "demo", state.turn, secrets[pid])
            kinds.update(k for k in ("recruit", "diplomacy", "cards", "first_move", "land_battle", "second_move")
                         if data.get(k))
            text = yamlio.dump(data)
            report = check_text(text, f"{pid}.yaml", camp)
            assert not report.errors, f"turn {state.turn}:\n" + report.to_text()
            (camp.orders_dir(state.turn)).mkdir(parents=True, exist_ok=True)
            (camp.orders_dir(state.turn) / f"{pid}.yaml").write_text(text)
        run(camp)
    assert kinds == {"recruit", "diplomacy", "cards", "first_move", "land_battle", "second_move"}


def play_logged(players, seed, turns=36):
    """A bot game like ``selfplay.play``, keeping per turn the orders given and the turn's event log."""
    state = new_game(players, seed=seed, last_turn=turns)
    secret = hashlib.sha256(f"pbem/seed/{seed}".encode()).digest()
    turns_played = []
    while not state.finished:
        orders, hashes = bot_turn_orders(state, AEGEAN, T)
        turn = state.turn
        log = adjudicate(state, AEGEAN, T, orders, Dice(turn_seed(secret, turn, hashes)))
        gold = {p: state.players[p].gold for p in state.turn_order if state.players[p].eliminated_turn is None}
        turns_played.append((turn, orders, log.records, gold))
    return state, turns_played


def test_bots_play_a_real_game_to_the_end():
    """The issue's computer player in a 12-player game: after the land grab it keeps ordering (diplomacy at
    enemy cities, recruits, marches), fights other players, takes their cities and spends its gold."""
    state, turns = play_logged(ALL, seed=12)
    assert state.finished
    per_player = []
    pvp = taken = hoarding = seats = 0
    for turn, orders, records, gold in turns:
        n = sum(len(o.recruit) + len(o.diplomacy) + len(o.cards) + len(o.first_move) + len(o.land_battle)
                + len(o.second_move) for o in orders.values())
        if turn >= 10:
            per_player.append(n / len(orders))
            hoarding += sum(1 for g in gold.values() if g > 100)
            seats += len(gold)
        pvp += sum(1 for r in records if r.get("event") == "battle" and r.get("attacker") and r.get("defender"))
        taken += sum(1 for r in records if r.get("event") == "city_taken" and r.get("from"))
    assert statistics.mean(per_player) >= 3, per_player
    assert min(per_player) >= 2, per_player
    assert pvp >= 15, "land battles between players"
    assert taken >= 8, "cities taken from other players"
    assert hoarding <= seats // 4, "players sitting on more than 100 gold"
    assert statistics.median(turns[-1][3].values()) < 100
    # the sea: Armies carried by Transport and put ashore, Fleets attacking ships, few ships lost at sea
    landed = sum(1 for _, _, records, _ in turns for r in records
                 if r.get("event") == "moved" and any("-A" in u for u in r.get("unloaded", ())))
    sea_attacks = sum(len(o.sea_battle) for _, orders, _, _ in turns for o in orders.values())
    # the bots' own voyages (navigation at the end of the Second Move), not the Storms they play on others' ships
    sunk = sum(1 for _, _, records, _ in turns for r in records
               if r.get("event") == "sunk" and r.get("phase") == "second_move")
    # The bound is the fewest landings of seven seeds (12-18), not this game's own count: the bot that no longer
    # counts a blocked city's income (Raids) recruits what it can pay and plays other games: 8 to 16 Armies put
    # ashore a game (this seed 10), 0 to 2 sea attacks (this seed 2).  Before, 6 to 26; this seed 18 with 0.6.0's
    # dice, and the bound then was 15, this game's count less a little, which the next change of the bot broke
    assert landed >= 8, "landings"
    assert sea_attacks >= 1, "sea battles"
    assert sunk < 5, "ships sunk by navigation rolls"


def test_a_bot_with_a_full_home_city_marches_out_and_recruits_elsewhere():
    state = new_game(ALL[:4], seed=3)
    me = "athens"
    home = AEGEAN.cities[me].hex
    assert sum(1 for u in state.units_at(home) if u.type.counts_for_stacking and not u.carried_by) == 4  # full
    state.players[me].gold = 40
    state.cities["megara"].controller = me
    data = write_orders(view(state, AEGEAN, me), AEGEAN, T, "x", state.turn, "s")
    assert any(r["city"] == "megara" and r.get("unit") == "army" for r in data["recruit"])  # (and Baggage)
    assert all(r["city"] != me or "unit" not in r for r in data["recruit"])  # no room at home
    armies = {u.id for u in state.units_at(home) if u.type is UnitType.ARMY}
    moved = {uid for m in data.get("first_move", []) for uid in m["units"]}
    assert armies & moved, data


def test_a_bot_with_no_neutral_city_left_rolls_diplomacy_at_enemy_minor_cities():
    state = new_game(ALL[:4], seed=3)
    me = "athens"
    others = [p for p in state.turn_order if p != me]
    for i, (cid, c) in enumerate(sorted(state.cities.items())):
        if c.home_of is None:
            c.controller = others[i % len(others)]
    # a weakly held one and a well held one: the bot prefers the city without defenders in sight
    held = state.cities["megara"]
    for _ in range(3):
        state.add_unit(Unit(state.new_unit_id(state.players[held.controller].abbr, UnitType.ARMY),
                            UnitType.ARMY, held.controller, AEGEAN.cities["megara"].hex))
    data = write_orders(view(state, AEGEAN, me), AEGEAN, T, "x", state.turn, "s")
    assert data["diplomacy"]
    for cid in data["diplomacy"]:
        c = state.cities[cid]
        assert c.home_of is None and c.controller not in (None, me)
    assert data["diplomacy"][0] != "megara"


def test_bot_reads_only_the_fog():
    """Hidden facts (other treasuries, hands, units out of sight) do not change what the bot orders."""
    state = new_game(ALL[:4], seed=3)
    me = state.turn_order[0]
    before = write_orders(view(state, AEGEAN, me), AEGEAN, T, "selfplay", 1, "s")
    other = state.turn_order[1]
    state.players[other].gold = 999
    state.players[other].hand, state.deck = state.deck[:7], state.players[other].hand + state.deck[7:]
    assert write_orders(view(state, AEGEAN, me), AEGEAN, T, "selfplay", 1, "s") == before


def test_bot_is_seeded():
    a = write_orders(view(new_game(ALL[:3], 9), AEGEAN, "athens"), AEGEAN, T, "selfplay", 1, "s")
    b = write_orders(view(new_game(ALL[:3], 9), AEGEAN, "athens"), AEGEAN, T, "selfplay", 1, "s")
    assert a == b


def test_a_12_player_36_turn_bot_campaign_replays_to_the_same_end():
    hashes = []
    for _ in range(2):
        state = new_game(ALL, seed=12)
        play(state, AEGEAN, 36, seed=12, after_phase=check_all_phases)
        assert state.finished and state.standings
        hashes.append(state_hash(state))
    assert hashes[0] == hashes[1]


@pytest.mark.parametrize("seed", range(50))
def test_soak_50_seeded_short_campaigns(seed):
    n = 2 + seed % 11
    players = [ALL[(seed + i * 5) % 12] for i in range(12)]
    players = list(dict.fromkeys(players))[:n]
    state = new_game(players, seed=seed, last_turn=6)
    play(state, AEGEAN, 6, seed=seed, after_phase=check_all_phases)
    assert state.turn == 7 and state.finished


def test_a_bot_with_a_transport_carries_armies_to_an_island_city():
    """Athens holds two spare Armies and a Transport at home, and the only target in reach is Chalcis on
    Euboea (no land path): the bot loads an Army, sails, lands it on the beach next to the city."""
    state = new_game(ALL[:4], seed=3)
    me = "athens"
    home = AEGEAN.cities[me].hex
    for cid, c in state.cities.items():  # every other minor city is ours: only Chalcis is left, overseas
        if c.home_of is None and cid != "chalcis":
            c.controller = me
    for t in (UnitType.ARMY, UnitType.TRANSPORT):
        state.add_unit(Unit(state.new_unit_id("ATH", t), t, me, home))
    data = write_orders(view(state, AEGEAN, me), AEGEAN, T, "x", 2, "s")
    sea = [m for m in data.get("first_move", []) + data.get("second_move", [])
           if any(state.units[u].type is UnitType.TRANSPORT for u in m["units"])]
    assert sea, data
    loaded = {u for m in sea for u in m.get("load", ())}
    unloaded = {u for m in sea for u in m.get("unload", ())}
    assert loaded and loaded == unloaded
    assert all(state.units[u].type is UnitType.ARMY for u in loaded)
    landing = next(m["path"][-1] for m in sea if m.get("unload"))
    assert AEGEAN.ship_may_stop(landing) and landing not in AEGEAN.city_at


def _athens_next_to_spartan_megara():
    """Athens (second in turn order) has four Armies next to Megara, which Sparta holds: the bot attacks it."""
    state = new_game(ALL[:4], seed=3)
    assert state.turn_order == ["sparta", "athens", "corinth", "thebes"]
    state.cities["megara"].controller = "sparta"
    for _ in range(4):
        state.add_unit(Unit(state.new_unit_id("ATH", UnitType.ARMY), UnitType.ARMY, "athens", "1113"))
    return state


def test_the_bot_attacks_megara_when_no_card_is_in_force():
    state = _athens_next_to_spartan_megara()
    data = write_orders(view(state, AEGEAN, "athens"), AEGEAN, T, "selfplay", 1, "s")
    assert [a["target"] for a in data["land_battle"]] == ["1112"]


def test_under_a_truce_in_force_the_bot_orders_no_battle_and_keeps_its_attack_cards():
    """R-TURN-4, docs/rules.md (Truce): a Truce that lasts into the bot's player-turn binds it too.  The battle
    card it would have added to the attack (Right Flank Drift, any role) stays in hand as a defence card."""
    state = _athens_next_to_spartan_megara()
    before = write_orders(view(state, AEGEAN, "athens"), AEGEAN, T, "selfplay", 1, "s")
    assert before["land_battle"][0]["cards"] == [{"card": "right_flank_drift", "if_needed": True}]
    assert "defence_cards" not in before["standing"]
    state.effects.append(Effect("truce", "truce", "thebes", until_turn=1, until_player="corinth"))
    v = view(state, AEGEAN, "athens")
    assert [e["kind"] for e in v["effects"]] == ["truce"]  # public: the bot can know it
    data = write_orders(v, AEGEAN, T, "selfplay", 1, "s")
    assert not data.get("land_battle") and not data.get("sea_battle")
    assert data["first_move"] == before["first_move"]  # it still marches
    assert data["standing"]["defence_cards"] == [{"card": "right_flank_drift", "if_needed": True}]
    assert not check_bot_file(state, data)


def test_a_truce_that_ended_before_the_bots_player_turn_does_not_stop_it():
    """The Truce lasted through Sparta's player-turn, which comes before Athens's in the turn order."""
    state = _athens_next_to_spartan_megara()
    state.effects.append(Effect("truce", "truce", "thebes", until_turn=1, until_player="sparta"))
    data = write_orders(view(state, AEGEAN, "athens"), AEGEAN, T, "selfplay", 1, "s")
    assert [a["target"] for a in data["land_battle"]] == ["1112"]


def test_under_political_rivalry_the_bot_neither_moves_nor_attacks_but_still_rolls_diplomacy():
    """R-TURN-4: Political Rivalry played on Athens lasts through its next player-turn; no Baggage is bought
    for marches that will not happen."""
    state = _athens_next_to_spartan_megara()
    state.effects.append(Effect("cannot_move_or_attack", "political_rivalry", "sparta", target="athens",
                                until_turn=1, until_player="athens"))
    data = write_orders(view(state, AEGEAN, "athens"), AEGEAN, T, "selfplay", 1, "s")
    for section in ("first_move", "second_move", "land_battle", "sea_battle"):
        assert not data.get(section), section
    assert data["diplomacy"] and not data.get("recruit")
    assert not check_bot_file(state, data)


def check_bot_file(state, data):
    """The checker's findings on a bot's order file, against ``state``: errors, and warnings on battles."""
    found = findings(state, data)
    return [f for f in found if f.severity == "error" or "battle" in (f.path or "")]


def test_under_a_truce_the_bots_fleets_make_no_sortie():
    """A Spartan Transport with an Army aboard in sight at 1214 (an Athenian Army at 1213 sees it): the bot sails
    ATH-F1 to 1314 and attacks; under a Truce it neither attacks nor sails out for a battle it will not fight (code
    review).  (An empty Transport neither fights nor blocks: no sea attack takes it, and the bot orders none.)"""
    state = new_game(ALL[:4], seed=3)
    state.add_unit(Unit(state.new_unit_id("ATH", UnitType.ARMY), UnitType.ARMY, "athens", "1213"))
    t = state.add_unit(Unit(state.new_unit_id("SPA", UnitType.TRANSPORT), UnitType.TRANSPORT, "sparta", "1214"))
    state.add_unit(Unit(state.new_unit_id("SPA", UnitType.ARMY), UnitType.ARMY, "sparta", "1214", carried_by=t.id))
    data = write_orders(view(state, AEGEAN, "athens"), AEGEAN, T, "selfplay", 1, "s")
    assert data["sea_battle"] == [{"units": ["ATH-F1"], "target": "1214"}]
    assert {"units": ["ATH-F1"], "path": ["1314"]} in data["first_move"]
    state.effects.append(Effect("truce", "truce", "thebes", until_turn=1, until_player="corinth"))
    data = write_orders(view(state, AEGEAN, "athens"), AEGEAN, T, "selfplay", 1, "s")
    assert not data.get("sea_battle")
    assert not [m for m in data.get("first_move", []) + data.get("second_move", []) if "ATH-F1" in m["units"]]


def test_on_turn_one_each_bot_harasses_its_nearest_rival_not_the_first_in_turn_order():
    """Every player holds one city on turn 1: the bots' 'one less roll' and the like go to the nearest rival's
    home, not all to the first player in turn order (a rules-savvy review took three such cards on turn 1)."""
    from pbem.bot import Bot, bot_dice
    state = new_game(ALL, seed=3)
    picks = {}
    for p in state.turn_order:
        rival = Bot(view(state, AEGEAN, p), AEGEAN, T, bot_dice("x", 1, p)).leader_rival()
        home = AEGEAN.cities[p].hex
        nearest = min(AEGEAN.distance(home, AEGEAN.cities[q].hex) for q in state.turn_order if q != p)
        assert AEGEAN.distance(home, AEGEAN.cities[rival].hex) == nearest, (p, rival)
        picks[p] = rival
    assert len(set(picks.values())) >= 4, picks


def test_the_bot_does_not_roll_diplomacy_for_a_city_it_attacks_this_turn():
    """A moderator saw computer players roll for a city they attacked in the same file (the checker warns: a roll
    that wins or stirs up the city first makes the attack fail or fight rebels' leftovers).  Megara, attacked,
    is left out of the rolls (every other minor city is Athens' own, so Megara would be its only target)."""
    state = _athens_next_to_spartan_megara()
    for cid, c in state.cities.items():
        if c.home_of is None and cid != "megara":
            c.controller = "athens"
    data = write_orders(view(state, AEGEAN, "athens"), AEGEAN, T, "selfplay", 1, "s")
    assert [a["target"] for a in data["land_battle"]] == ["1112"]
    assert "megara" not in data.get("diplomacy", []), data.get("diplomacy")
    assert not [f for f in findings(state, data) if "this attack on it fails" in f.message or "revolt" in f.message
                and f.path.startswith("land_battle")]
