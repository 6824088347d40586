"""Every turn's key is committed to when the campaign is created (turn-keys.txt, its SHA-256 the turn-key
fingerprint published with the seed's), so a referee checking the published turn keys as turns run catches a
turn run with another key (red-team review: `verify --turn T --key K` took any key that replayed, so a moderator
could run a turn with the best of many keys tried on a copy and publish that key)."""
import hashlib
import os
import shutil
from datetime import datetime, timezone

import pytest
from typer.testing import CliRunner

from pbem.campaign import create
from pbem.cli import app
from pbem.cycle import run_turn, set_seat
from pbem.dice import key_commitment, turn_key
from pbem.errors import CampaignError, UsageError
from pbem.moderation import rollback
from pbem.storage import Campaign
from pbem.verify import published_key, verify

NOW = datetime(2026, 1, 1, tzinfo=timezone.utc)


def fingerprint(camp):
    return hashlib.sha256((camp.root / "turn-keys.txt").read_bytes()).hexdigest()


@pytest.fixture
def played(tmp_path):
    created = create(tmp_path / "c", ["athens", "sparta", "troy"], seed="17", name="v",
                     options=["last_turn=6"])
    camp = created.campaign
    for p in ("athens", "sparta", "troy"):
        set_seat(camp, p, "bot")
    for _ in range(3):
        run_turn(camp, NOW, force=True, reports=False)
    camp.noted = created.keys_fingerprint  # what the players and the referee got at the start
    return camp


def test_pbem_new_commits_to_every_turns_key(played):
    lines = (played.root / "turn-keys.txt").read_text().splitlines()
    seed = played.secret_seed()
    assert lines[0].startswith("#") and lines[1:] == [f"{t} {key_commitment(turn_key(seed, t))}"
                                                      for t in range(1, 7)]  # turns 1..last_turn
    assert played.noted == fingerprint(played)
    new_line = (played.root / "audit.log").read_text().splitlines()[0]
    assert new_line.endswith(f"; seed sha256 {played.config['seed_sha256']}; turn keys sha256 {played.noted}")


def test_a_key_from_another_seed_is_refused_though_it_replays(played):
    """The red-team's steps: in a copy, another secret seed and its sha256 in campaign.yaml, run the turn, take
    that run's key, put the real seed back: the key replays exactly, but it is not the one committed to."""
    copy = Campaign(shutil.copytree(played.root, played.root.parent / "copy"))
    real_seed = (copy.secret_dir / "seed").read_text()
    real_config = (copy.root / "campaign.yaml").read_text()
    other = os.urandom(32)
    (copy.secret_dir / "seed").write_text(other.hex() + "\n")
    (copy.root / "campaign.yaml").write_text(real_config.replace(played.config["seed_sha256"],
                                                                 hashlib.sha256(other).hexdigest()))
    copy = Campaign.open(copy.root)
    run_turn(copy, NOW, force=True, reports=False)
    with pytest.raises(CampaignError, match="turn-keys.txt: turn 4's line is not the SHA-256 of this seed's key"):
        published_key(copy, 4)  # pbem will not publish it
    chosen = turn_key(other, 4).hex()
    (copy.secret_dir / "seed").write_text(real_seed)
    (copy.root / "campaign.yaml").write_text(real_config)
    copy = Campaign.open(copy.root)

    v = verify(copy, 4, chosen)[0]
    assert v.word == "MISMATCH" and v.detail == (
        f"the key does not fit turn 4: its sha256 is not the one turn-keys.txt (turn-key fingerprint sha256 "
        f"{played.noted}) holds for turn 4"), v.detail
    r = CliRunner().invoke(app, ["verify", str(copy.root), "--turn", "4", "--key", chosen])
    assert r.exit_code == 1 and r.output.startswith("turn 4: MISMATCH: the key does not fit turn 4: its sha256"), \
        r.output
    # the real key is refused too (the turn was not run with it), by the replay: the dice differ
    v = verify(copy, 4, turn_key(bytes.fromhex(real_seed.strip()), 4).hex())[0]
    assert not v.ok and "the key does not fit turn 4: with it the dice differ" in v.detail, v.detail

    # turn-keys.txt rewritten to fit the chosen key: audit.log's `new campaign` line names the file it wrote
    path = copy.root / "turn-keys.txt"
    real_keys = path.read_text()
    path.write_text(real_keys.replace(f"4 {key_commitment(turn_key(bytes.fromhex(real_seed.strip()), 4))}",
                                      f"4 {key_commitment(bytes.fromhex(chosen))}"))
    v = verify(copy, 4, chosen)[0]
    assert not v.ok and "turn-keys.txt: its sha256 is" in v.detail and "changed after the campaign was created" \
        in v.detail, v.detail
    # ... and with that line rewritten as well, the fingerprint noted at the start tells
    audit = copy.root / "audit.log"
    audit.write_text(audit.read_text().replace(played.noted, fingerprint(copy)))
    v = verify(copy, 4, chosen)[0]
    assert v.ok and played.noted not in v.detail and fingerprint(copy) in v.detail  # not the one noted
    with pytest.raises(CampaignError, match="not the turn keys the campaign was announced with"):
        verify(copy, 4, chosen, keys_fingerprint=played.noted)
    r = CliRunner().invoke(app, ["verify", str(copy.root), "--turn", "4", "--key", chosen,
                                 "--keys-fingerprint", played.noted])
    assert r.exit_code == 2 and "not the turn keys the campaign was announced with" in r.output, r.output
    # and so does the seed at the end: the set-up's check finds turn-keys.txt is not the seed's
    v = verify(copy)[0]
    assert v.turn == 0 and not v.ok and "turn-keys.txt:5: turn 4's line is not the SHA-256 of the seed's key" \
        in v.detail, v.detail


def test_the_committed_key_verifies_and_names_the_fingerprint(played):
    r = CliRunner().invoke(app, ["verify", str(played.root), "--turn", "2", "--key", published_key(played, 2),
                                 "--keys-fingerprint", f"sha256 {played.noted}"])
    assert r.exit_code == 0, r.output
    assert r.output.splitlines()[0] == f"turn keys: OK: turn-keys.txt's sha256 is the turn-key fingerprint given " \
                                       f"({played.noted[:16]}...)"
    assert r.output.splitlines()[1].startswith("turn 2: OK: replayed exactly")
    assert f"the key is the one turn-keys.txt (turn-key fingerprint sha256 {played.noted}) holds for turn 2" \
        in r.output
    assert not verify(played, 3, published_key(played, 2))[0].ok
    with pytest.raises(UsageError, match="--keys-fingerprint"):
        verify(played, 2, published_key(played, 2), keys_fingerprint="abc")
    # the whole campaign, with the seed: the set-up's verdict says turn-keys.txt holds the seed's keys
    r = CliRunner().invoke(app, ["verify", str(played.root), "--keys-fingerprint", played.noted])
    assert r.exit_code == 0 and r.output.startswith("turn keys: OK"), r.output
    assert f"turn-keys.txt (turn-key fingerprint sha256 {played.noted}) holds the seed's keys of turns 1..6" \
        in r.output


def test_keys_stay_committed_after_a_rollback(played):
    key = published_key(played, 2)
    rollback(played, 2, "a lost file")
    run_turn(played, NOW, force=True, reports=False)
    v = verify(played, 2, key)[0]
    assert v.ok and played.noted in v.detail, v.detail
    assert fingerprint(played) == played.noted


def as_made_before_the_commitments(camp):
    """A campaign as a pbem before turn-keys.txt made it: no file, and audit.log's first line names no turn keys."""
    (camp.root / "turn-keys.txt").unlink()
    audit = camp.root / "audit.log"
    first, rest = audit.read_text().split("\n", 1)
    audit.write_text(first.split("; turn keys sha256 ")[0] + "\n" + rest)


def test_a_deleted_turn_keys_file_is_caught_by_the_audit_line(played):
    """A code review: deleting turn-keys.txt made `verify --key` only replay the key (the older campaigns' way),
    so a key of the moderator's choosing passed; audit.log's `new campaign` line still names the commitments."""
    (played.root / "turn-keys.txt").unlink()
    v = verify(played, 2, turn_key(played.secret_seed(), 2).hex())[0]
    assert v.word == "MISMATCH" and "turn-keys.txt: missing, but audit.log's `new campaign` line records turn " \
                                    "keys sha256" in v.detail, v.detail
    with pytest.raises(CampaignError, match="removed after the campaign was created"):
        published_key(played, 2)


def test_a_campaign_made_before_the_commitments_verifies_as_before_and_says_so(played):
    as_made_before_the_commitments(played)
    v = verify(played, 2, published_key(played, 2))[0]
    assert v.ok and v.notes[0].startswith("turn-keys.txt: missing: this campaign was created before pbem "
                                          "committed to every turn's key"), v.notes
    v = verify(played, 2, published_key(played, 1))[0]
    assert not v.ok and "the key does not fit turn 2: with it the dice differ" in v.detail, v.detail
    setup = verify(played)[0]
    assert setup.turn == 0 and setup.ok and "cannot be checked against the start" in setup.notes[0]
    r = CliRunner().invoke(app, ["verify", str(played.root), "--turn", "2", "--key", published_key(played, 2)])
    assert r.exit_code == 0 and "turn 2: OK (1 note)" in r.output and "turn-keys.txt: missing" in r.output, r.output
    with pytest.raises(CampaignError, match="turn-keys.txt: missing, so the turn keys cannot be checked"):
        verify(played, 2, published_key(played, 2), keys_fingerprint=played.noted)


@pytest.mark.parametrize("damage, words", [
    (lambda t: t.replace("\n2 ", "\n3 ", 1), "turn-keys.txt:3: damaged"),
    (lambda t: t + "hello\n", "turn-keys.txt:8: damaged"),
])
def test_a_damaged_turn_keys_file_is_named(played, damage, words):
    path = played.root / "turn-keys.txt"
    path.write_text(damage(path.read_text()))
    with pytest.raises(CampaignError, match="a key published now could not be checked"):
        published_key(played, 2)
    key = turn_key(played.secret_seed(), 2).hex()
    v = verify(played, 2, key)[0]
    assert v.word == "MISMATCH" and words in v.detail, v.detail


def test_no_key_is_published_for_a_turn_past_the_committed_ones(played):
    """A code review: `turn-key` printed a key for a turn turn-keys.txt has no line for, which `verify --key`
    then refuses; now it refuses too, nothing printed."""
    path = played.root / "turn-keys.txt"
    lines = path.read_text().splitlines(keepends=True)
    path.write_text("".join(lines[:3]))  # turns 1 and 2 only
    audit = played.root / "audit.log"
    first, rest = audit.read_text().split("\n", 1)  # as if pbem new had written this shorter file
    new_fp = hashlib.sha256(path.read_bytes()).hexdigest()
    audit.write_text(first.rsplit(" ", 1)[0] + " " + new_fp + "\n" + rest)
    assert published_key(played, 2)
    with pytest.raises(CampaignError, match="commits to the keys of turns 1..2 only"):
        published_key(played, 3)
