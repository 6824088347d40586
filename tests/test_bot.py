"""The computer player: legal orders from the fogged view only, seeded; whole bot campaigns as soak tests."""
import pytest

from pbem import yamlio
from pbem.bot import write_orders
from pbem.campaign import create
from pbem.checker import check_text
from pbem.gamedata import load_map, tables
from pbem.invariants import violations
from pbem.selfplay import new_game, play, state_hash
from pbem.turn import run
from pbem.visibility import view

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


def test_bot_reads_only_the_fog():
    """Hidden facts (other treasuries, hands, units out of sight) do not change what the bot orders."""
    state = new_game(ALL[:4], seed=3)
    me = state.turn_order[0]
    before = write_orders(view(state, AEGEAN, me), AEGEAN, T, "x", 1, "s")
    other = state.turn_order[1]
    state.players[other].gold = 999
    state.players[other].hand, state.deck = state.deck[:7], state.players[other].hand + state.deck[7:]
    assert write_orders(view(state, AEGEAN, me), AEGEAN, T, "x", 1, "s") == before


def test_bot_is_seeded():
    a = write_orders(view(new_game(ALL[:3], 9), AEGEAN, "athens"), AEGEAN, T, "x", 1, "s")
    b = write_orders(view(new_game(ALL[:3], 9), AEGEAN, "athens"), AEGEAN, T, "x", 1, "s")
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
