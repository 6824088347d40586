"""What the moderator-flow tests of held turns and kept copies share (tests/test_cyc_*.py): a three-player
campaign, an order file with the player's secret, the CLI, and a turn held after a rollback."""
from datetime import datetime, timezone

from typer.testing import CliRunner

from pbem import yamlio
from pbem.campaign import create
from pbem.cli import app
from pbem.cycle import set_deadline
from pbem.intake import submit_bytes
from pbem.storage import Campaign

NOW = datetime(2026, 11, 22, 12, 0, tzinfo=timezone.utc)


def three_players(tmp_path):
    """The campaign each test starts from (its ``camp`` fixture)."""
    return create(tmp_path / "camp", ["athens", "sparta", "troy"], seed="5", name="test").campaign


def order_text(camp, player, turn=1, comment=b""):
    data = {"campaign": "test", "turn": turn, "player": player, "secret": camp.player_secrets()[player]}
    return yamlio.dump(data).encode() + comment


def pbem(*args):
    return CliRunner().invoke(app, [str(a) for a in args])


def audit(camp):
    return (camp.root / "audit.log").read_text()


def tree(root):
    """Every file of a campaign folder with its bytes (the lock file apart): what a refused command leaves."""
    return sorted((p.relative_to(root).as_posix(), p.read_bytes()) for p in root.rglob("*")
                  if p.is_file() and p.name != ".lock")


def held_turn_1(camp):
    """Turn 1 with athens and sparta in (troy sent nothing), run early and rolled back: held."""
    set_deadline(camp, "+30d", datetime.now(timezone.utc))
    for p in ("athens", "sparta"):
        assert submit_bytes(camp, order_text(camp, p), f"{p}.yaml", NOW).accepted
    r = pbem("run-turn", camp.root, "--force")
    assert r.exit_code == 0, r.output
    r = pbem("rollback", camp.root, "1", "--reason", "run before the deadline")
    assert r.exit_code == 0, r.output
    return Campaign.open(camp.root)


def two_turns_run_and_rolled_back_to_turn_1(camp, tmp_path, replaced=()):
    """Turns 1 and 2 run with every player's file (each of ``replaced`` sent twice for turn 2, its first kept as
    PLAYER.v1.yaml), rolled back to turn 1 and turn 1 run again with its files: turn 2 is reached again from
    the same position, held, its seen run's files in archive/rollback-1/orders/turn-002/."""
    set_deadline(camp, "+30d", datetime.now(timezone.utc))
    for turn in (1, 2):
        for p in ("athens", "sparta", "troy"):
            f = tmp_path / f"{p}{turn}.yaml"
            f.write_bytes(order_text(camp, p, turn))
            assert pbem("submit", camp.root, f).exit_code == 0
        for p in replaced if turn == 2 else ():
            f = tmp_path / f"{p}{turn}b.yaml"
            f.write_bytes(order_text(camp, p, turn, b"# second thoughts\n"))
            assert pbem("submit", camp.root, f).exit_code == 0
        assert pbem("run-turn", camp.root, "--no-reports").exit_code == 0
    assert pbem("rollback", camp.root, "1", "--reason", "test").exit_code == 0
    r = pbem("run-turn", camp.root, "--force", "--no-reports")  # turn 1 again with its files: turn 2 is reached
    assert r.exit_code == 0 and "Game turn 2 is held" in r.output, r.output
    return camp.root / "archive" / "rollback-1" / "orders" / "turn-002"
