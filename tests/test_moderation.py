"""The moderator's corrections: rollback, adjust, archive; each audited, nothing lost."""
import tarfile
from datetime import datetime, timezone

import pytest

from pbem.campaign import create
from pbem.cycle import run_turn, set_seat
from pbem.errors import UsageError
from pbem.moderation import adjust, archive, rollback

NOW = datetime(2026, 1, 1, tzinfo=timezone.utc)


@pytest.fixture
def camp(tmp_path):
    c = create(tmp_path / "c", ["athens", "sparta"], seed="4", name="mod", options=["last_turn=3"]).campaign
    for p in ("athens", "sparta"):
        set_seat(c, p, "bot")
    return c


def test_rollback_then_replay_gives_the_same_turn(camp):
    run_turn(camp, NOW, force=True, reports=False)
    run_turn(camp, NOW, force=True, reports=False)
    turn3 = camp.snapshot_path(3).read_text()
    dest = rollback(camp, 2, "misfiled order")
    assert camp.snapshots() == [1, 2]
    assert (dest / "state" / "turn-003.json").read_text() == turn3  # moved aside, not lost
    assert not camp.log_path(2).exists() and (dest / "log" / "turn-002.jsonl").exists()
    run_turn(camp, NOW, force=True, reports=False)
    assert camp.snapshot_path(3).read_text() == turn3  # same orders, same dice
    assert "rollback to turn 2" in (camp.root / "audit.log").read_text()
    with pytest.raises(UsageError, match="already the current turn"):
        rollback(camp, 3, "x")
    with pytest.raises(UsageError, match="say why"):
        rollback(camp, 1, " ")


def test_adjust_keeps_the_previous_file_and_refuses_a_broken_state(camp):
    before = camp.snapshot_path(1).read_text()
    done = adjust(camp, "lost in the post", gold={"athens": 5}, control={"megara": "athens"})
    assert camp.load_state().players["athens"].gold == 15 and camp.load_state().cities["megara"].controller == "athens"
    assert (camp.root / "state" / "turn-001.fix-1.json").read_text() == before
    assert "athens gold +5" in done[0]
    with pytest.raises(UsageError, match="athens has -985 gold"):
        adjust(camp, "typo", gold={"athens": -1000})
    assert camp.load_state().players["athens"].gold == 15
    with pytest.raises(UsageError, match="a treasury holds at most 100000"):
        adjust(camp, "typo", gold={"athens": 10 ** 30})
    assert camp.load_state().players["athens"].gold == 15
    with pytest.raises(UsageError, match="no such unit"):
        adjust(camp, "x", remove=["ATH-A99"])
    assert "adjust turn 1" in (camp.root / "audit.log").read_text()
    assert camp.snapshots() == [1]  # the fix file is not a snapshot


def test_archive_leaves_out_secrets_and_reveals_the_seed_only_at_the_end(camp, tmp_path):
    with pytest.raises(UsageError, match="not over"):
        archive(camp, tmp_path / "a.tar.gz", reveal_seed=True)
    for _ in range(3):
        run_turn(camp, NOW, force=True, reports=False)
    assert camp.load_state().finished
    out = archive(camp, tmp_path / "a.tar.gz", reveal_seed=True)
    names = tarfile.open(out).getnames()
    assert "c/campaign.yaml" in names and "c/revealed-seed.txt" in names
    assert not any("/secret" in n for n in names)
    assert (camp.root / "revealed-seed.txt").read_text().strip() == camp.secret_seed().hex()


def _hexes(game_map, test):
    return sorted(h for h in game_map.terrain if test(h))


@pytest.mark.parametrize("what", ["army on water", "leader on water", "fleet inland", "army on mountains",
                                  "fleet on mountains", "army onto enemy", "rowers off their ship"])
def test_adjust_refuses_a_unit_where_it_may_not_stand(camp, what):
    m, state = camp.game_map, camp.load_state()
    mine = {u.type.value: u for u in reversed(list(state.units.values())) if u.owner == "athens"}
    water = _hexes(m, m.is_water)[0]
    inland = _hexes(m, lambda h: m.is_land(h) and m.passable(h) and not m.ship_may_enter(h))[0]
    mountain = _hexes(m, lambda h: not m.passable(h))[0]
    enemy = next(u.hex for u in state.units.values() if u.owner == "sparta")
    unit, hex_id, words = {
        "army on water": (mine["army"], water, "must be on land"),
        "leader on water": (mine["leader"], water, "must be on land"),
        "fleet inland": (mine["fleet"], inland, "may only be on Water"),
        "army on mountains": (mine["army"], mountain, "impassable"),
        "fleet on mountains": (mine["fleet"], mountain, "impassable"),
        "army onto enemy": (mine["army"], enemy, "holds units of sparta"),
        "rowers off their ship": (mine["rowers"], water, "must be on land"),
    }[what]
    before = camp.snapshot_path(1).read_bytes()
    with pytest.raises(UsageError, match=f"--move {unit.id}={hex_id}: refused, .*{words}"):
        adjust(camp, "fix", move={unit.id: hex_id})
    assert camp.snapshot_path(1).read_bytes() == before
    assert not list(camp.root.glob("state/*.fix-*.json"))


def test_adjust_moves_a_fleet_with_its_rowers_to_sea_and_an_army_where_the_enemy_was_removed(camp):
    m, state = camp.game_map, camp.load_state()
    fleet = next(u for u in state.units.values() if u.owner == "athens" and u.type.value == "fleet")
    water = next(h for h in sorted(m.terrain) if m.is_water(h) and not state.units_at(h))
    enemy = next(u for u in state.units.values() if u.owner == "sparta" and u.type.value == "army")
    alone = [u.id for u in state.units_at(enemy.hex)]
    army = next(u for u in state.units.values() if u.owner == "athens" and u.type.value == "army")
    adjust(camp, "fix", move={fleet.id: water, army.id: enemy.hex}, remove=alone)
    after = camp.load_state()
    assert after.units[fleet.id].hex == water
    assert all(c.hex == water for c in after.units.values() if c.carried_by == fleet.id)
    assert after.units[army.id].hex == enemy.hex


def _tree(root):
    return sorted((str(p.relative_to(root)), p.read_bytes() if p.is_file() else b"")
                  for p in root.rglob("*") if p.name != ".lock")


@pytest.mark.parametrize("fail_at", [1, 2, 3])
def test_a_rollback_that_fails_half_way_leaves_the_campaign_as_it_was(camp, monkeypatch, fail_at):
    run_turn(camp, NOW, force=True, reports=False)
    run_turn(camp, NOW, force=True, reports=False)
    before = _tree(camp.root)
    import pbem.moderation as moderation
    real_move = moderation.shutil.move
    calls = {"n": 0}

    def flaky_move(src, dst):
        calls["n"] += 1
        if calls["n"] == fail_at:
            raise OSError(28, "No space left on device")
        return real_move(src, dst)

    monkeypatch.setattr(moderation.shutil, "move", flaky_move)
    with pytest.raises(OSError):
        rollback(camp, 1, "misfiled order")
    monkeypatch.setattr(moderation.shutil, "move", real_move)
    assert _tree(camp.root) == before
    assert camp.snapshots() == [1, 2, 3]


def test_a_rollback_whose_audit_line_cannot_be_written_is_undone(camp, monkeypatch):
    run_turn(camp, NOW, force=True, reports=False)
    before = _tree(camp.root)

    def no_audit(line):
        raise OSError(30, "Read-only file system")

    monkeypatch.setattr(camp, "audit", no_audit)
    with pytest.raises(OSError):
        rollback(camp, 1, "misfiled order")
    assert _tree(camp.root) == before
