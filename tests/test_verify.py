"""Archived turns replay exactly (R-TURN-6), with the secret seed or with one turn's published key."""
import json
from datetime import datetime, timezone

import pytest

from pbem.campaign import create
from pbem.cycle import run_turn, set_seat
from pbem.dice import seed_from_key, turn_key, turn_seed
from pbem.errors import UsageError
from pbem.verify import published_key, verify


@pytest.fixture
def played(tmp_path):
    camp = create(tmp_path / "c", ["athens", "sparta", "troy"], seed="17", name="v").campaign
    for p in ("athens", "sparta", "troy"):
        set_seat(camp, p, "bot")
    for _ in range(3):
        run_turn(camp, datetime(2026, 1, 1, tzinfo=timezone.utc), force=True, reports=False)
    return camp


def test_R_TURN_6_every_turn_replays_exactly(played):
    verdicts = verify(played)
    assert [v.turn for v in verdicts] == [0, 1, 2, 3] and all(v.ok for v in verdicts)  # 0: the set-up


def test_R_TURN_6_one_turns_key_verifies_that_turn_only(played):
    key = published_key(played, 2)
    assert verify(played, 2, key)[0].ok
    assert not verify(played, 3, key)[0].ok  # another turn's key does not fit
    with pytest.raises(UsageError, match="would tell its dice in advance"):
        published_key(played, 4)


def test_R_TURN_6_a_tampered_snapshot_is_caught(played):
    path = played.snapshot_path(3)
    data = json.loads(path.read_text())
    data["players"]["athens"]["gold"] += 1
    path.write_text(json.dumps(data, sort_keys=True, indent=1) + "\n")
    verdicts = {v.turn: v for v in verify(played)}
    assert verdicts[1].ok and not verdicts[2].ok and "differs" in verdicts[2].detail


def test_R_TURN_6_the_turn_seed_is_keyed_per_turn():
    secret = b"k" * 32
    assert turn_seed(secret, 5, ["a", "-"]) == seed_from_key(turn_key(secret, 5), 5, ["a", "-"])
    assert turn_key(secret, 5) != turn_key(secret, 6)
    assert turn_key(secret, 5) not in (secret,) and len(turn_key(secret, 5)) == 32


def test_a_moderators_adjustment_is_not_taken_for_a_mismatch(played):
    from pbem.moderation import adjust
    adjust(played, "lost in the post", gold={"athens": 1})
    verdicts = {v.turn: v for v in verify(played)}
    assert all(v.ok for v in verdicts.values())
    assert "adjusted" in verdicts[3].detail


def test_turn_keys_of_no_turn_and_malformed_keys_are_refused(played):
    with pytest.raises(UsageError, match="has not been adjudicated"):
        published_key(played, 0)
    for bad in ("", "zz", "00" * 31):
        with pytest.raises(UsageError, match="write the turn key"):
            verify(played, 1, bad)


@pytest.fixture
def with_humans(tmp_path):
    """Athens sends its orders through intake (audit.log records the hash), Sparta and Troy are bots."""
    from pbem import yamlio
    from pbem.intake import submit_bytes
    camp = create(tmp_path / "h", ["athens", "sparta", "troy"], seed="17", name="v").campaign
    for p in ("sparta", "troy"):
        set_seat(camp, p, "bot")
    now = datetime(2026, 1, 1, tzinfo=timezone.utc)
    for turn in (1, 2):
        data = {"campaign": "v", "turn": turn, "player": "athens", "secret": camp.player_secrets()["athens"]}
        assert submit_bytes(camp, yamlio.dump(data).encode(), "athens.yaml", now).accepted
        run_turn(camp, now, reports=False)
    return camp


def test_verify_names_a_missing_order_file(with_humans):
    (with_humans.orders_dir(1) / "athens.yaml").unlink()
    v = verify(with_humans, 1)[0]
    assert not v.ok and "orders/turn-001/athens.yaml: missing" in v.detail and "audit.log" in v.detail, v.detail


def test_verify_names_an_order_file_changed_since_it_was_accepted(with_humans):
    path = with_humans.orders_dir(2) / "athens.yaml"
    path.write_bytes(path.read_bytes() + b"diplomacy: [megara]\n")
    v = verify(with_humans, 2)[0]
    assert not v.ok and "orders/turn-002/athens.yaml" in v.detail
    assert "differs from the one audit.log recorded when it was accepted" in v.detail, v.detail
    bot = with_humans.orders_dir(1) / "sparta.yaml"  # a computer player's: no intake, the adjudication's hash
    bot.write_bytes(bot.read_bytes() + b"# changed\n")
    v = verify(with_humans, 1)[0]
    assert not v.ok and "sparta.yaml" in v.detail and "is not the file turn 1 was adjudicated with" in v.detail


def test_verify_names_a_missing_log(with_humans):
    with_humans.log_path(1).unlink()
    v = verify(with_humans, 1)[0]
    assert not v.ok and "log/turn-001.jsonl: missing" in v.detail, v.detail


def test_verify_says_a_key_does_not_fit_its_turn(with_humans):
    from typer.testing import CliRunner
    from pbem.cli import app
    v = verify(with_humans, 2, published_key(with_humans, 1))[0]
    assert not v.ok and "the key does not fit turn 2" in v.detail, v.detail
    r = CliRunner().invoke(app, ["verify", str(with_humans.root), "--turn", "2", "--key",
                                 published_key(with_humans, 1)])
    assert r.exit_code == 1 and "turn 2: MISMATCH: the key does not fit turn 2" in r.output, r.output


def test_verify_refuses_a_revealed_seed_that_is_not_the_campaigns(with_humans):
    from pbem.errors import CampaignError
    (with_humans.root / "revealed-seed.txt").write_text("ab" * 32 + "\n")
    with pytest.raises(CampaignError, match="revealed-seed.txt: not this campaign's seed"):
        verify(with_humans)


# -- set-up and the seed's fingerprint (security review: verify never checked set-up) --------------------

@pytest.mark.parametrize("change, where", [
    (lambda d: d["players"]["athens"].update(gold=d["players"]["athens"]["gold"] + 40), "players.athens.gold"),
    (lambda d: d["players"]["athens"]["traits"].__setitem__(0, "silver_mines"), "players.athens.traits[0]"),
    (lambda d: d["players"]["athens"]["hand"].__setitem__(0, "assassination"), "players.athens.hand[0]"),
])
def test_a_set_up_changed_after_pbem_new_is_caught(tmp_path, change, where):
    camp = create(tmp_path / "c", ["athens", "sparta"], seed="7", name="s").campaign
    path = camp.snapshot_path(1)
    data = json.loads(path.read_text())
    if data["players"]["athens"]["traits"][0] == "silver_mines" and "traits" in where:
        data["players"]["athens"]["traits"][0] = "olive_groves"
    change(data)
    path.write_text(json.dumps(data, sort_keys=True, indent=1) + "\n")
    for p in ("athens", "sparta"):
        set_seat(camp, p, "bot")
    run_turn(camp, datetime(2026, 1, 1, tzinfo=timezone.utc), force=True, reports=False)
    verdicts = {v.turn: v for v in verify(camp)}
    assert verdicts[1].ok  # the turns replay: only set-up can tell
    assert not verdicts[0].ok and where in verdicts[0].detail, verdicts[0].detail


def test_a_set_up_log_changed_after_pbem_new_is_caught(played):
    log = played.log_path(None)
    lines = log.read_text().splitlines(keepends=True)
    log.write_text("".join(lines[:3] + lines[4:]))
    v = verify(played)[0]
    assert v.turn == 0 and not v.ok and "setup.jsonl at line 4" in v.detail, v.detail


def test_set_up_as_pbem_new_made_it_verifies_whatever_the_order_of_the_players(tmp_path):
    camp = create(tmp_path / "c", ["troy", "athens", "sparta"], seed="3", name="o").campaign
    v = verify(camp)[0]
    assert v.turn == 0 and v.ok, v.detail


def test_an_adjusted_first_turn_is_not_taken_for_a_changed_set_up(tmp_path):
    from pbem.moderation import adjust
    camp = create(tmp_path / "c", ["athens", "sparta"], seed="7", name="s").campaign
    adjust(camp, "a gift", gold={"athens": 5})
    v = verify(camp)[0]
    assert v.ok and "adjusted" in v.detail, v.detail


def test_the_seed_is_checked_against_the_fingerprint_the_players_noted(played):
    from typer.testing import CliRunner
    from pbem.cli import app
    from pbem.dice import seed_fingerprint
    from pbem.errors import CampaignError
    noted = seed_fingerprint(played.secret_seed())
    v = verify(played, fingerprint=noted)[0]
    assert v.turn == -1 and v.ok
    other = "ab" * 32
    with pytest.raises(CampaignError, match="not the fingerprint given"):
        verify(played, fingerprint=other)
    # campaign.yaml's own seed_sha256 changed to fit another seed does not help: the noted fingerprint decides
    r = CliRunner().invoke(app, ["verify", str(played.root), "--fingerprint", f"sha256 {other}"])
    assert r.exit_code == 2 and "not the fingerprint given" in r.output
    r = CliRunner().invoke(app, ["verify", str(played.root), "--fingerprint", noted])
    assert r.exit_code == 0 and r.output.startswith("seed: OK") and "set-up: OK" in r.output, r.output
    with pytest.raises(UsageError, match="--fingerprint"):
        verify(played, 1, published_key(played, 1), fingerprint=noted)
    with pytest.raises(UsageError, match="64 hex digits"):
        verify(played, fingerprint="abc")


def test_verify_notes_first_when_the_campaign_was_created_with_another_pbem(played):
    """A turn replays byte for byte only with the pbem that ran it (docs/moderator.md): a code review found a
    campaign begun with 0.1.0 all MISMATCH under today's pbem with nothing saying why."""
    from typer.testing import CliRunner
    from pbem import __version__
    from pbem.cli import app
    r = CliRunner().invoke(app, ["verify", str(played.root)])
    assert r.exit_code == 0 and "note: this campaign was created with pbem" not in r.output, r.output
    path = played.root / "campaign.yaml"
    path.write_text(path.read_text().replace(f"pbem_version: {__version__}", "pbem_version: 0.0.9"))
    r = CliRunner().invoke(app, ["verify", str(played.root)])
    assert r.output.splitlines()[0] == (f"note: this campaign was created with pbem 0.0.9, this is pbem {__version__}: "
                                        "a turn played with another version may replay differently (a MISMATCH); "
                                        "verify with the version that ran it (docs/moderator.md, 'Upgrading')")


def test_a_fingerprint_off_by_its_last_digit_is_shown_whole(played):
    """A moderator's review: a typo at the end of a fingerprint gave "the seed's sha256 is 5f5472837f55a81a...,
    not the fingerprint given (5f5472837f55a81a...)": the two looked the same.  Both are shown whole."""
    from pbem.dice import seed_fingerprint
    from pbem.errors import CampaignError
    noted = seed_fingerprint(played.secret_seed())
    typo = noted[:-1] + ("0" if noted[-1] != "0" else "1")
    with pytest.raises(CampaignError) as err:
        verify(played, fingerprint=typo)
    assert f"the seed's sha256 is {noted}, not the fingerprint given ({typo})" in str(err.value)
