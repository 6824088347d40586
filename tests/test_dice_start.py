"""R-TURN-6 and the start position: a turn's dice are seeded by its key, its order files and the SHA-256 of the
snapshot it starts from (``dice.turn_seed``'s ``start``; a decision in docs/rules.md).  A cheater's review found
that a turn reached again from ANOTHER position, after a rollback changed an earlier turn, dealt exactly the dice
its players had seen, as long as the files were the same bytes: a player could keep the seen dice by sending the
same file, or re-roll everyone's by changing a comment.  The same position and files still replay the same dice,
and a campaign made before 0.6.0 keeps the dice it was run with."""
import json
from datetime import datetime, timezone

import pytest

from cyc_common import order_text, pbem, three_players, two_turns_run_and_rolled_back_to_turn_1
from pbem.adjudicator import adjudicate
from pbem.cycle import set_deadline
from pbem.dice import Dice, state_sha256, turn_seed
from pbem.gamedata import tables
from pbem.storage import Campaign
from pbem.turn import accepted_orders
from pbem.verify import verify


@pytest.fixture
def camp(tmp_path):
    return three_players(tmp_path)


def dice(records):
    """The dice a log rolled, in order (a record's ``roll`` dict; a battle record's ``roll`` is a total)."""
    return [r["roll"] for r in records if isinstance(r.get("roll"), dict)]


def rolls(path):
    return dice(json.loads(line) for line in path.read_text().splitlines())


def send(camp, tmp_path, turn, name=""):
    for p in ("athens", "sparta", "troy"):
        f = tmp_path / f"{p}{turn}{name}.yaml"
        f.write_bytes(order_text(camp, p, turn))
        r = pbem("submit", camp.root, f)
        assert r.exit_code == 0, r.output


def test_R_TURN_6_a_turn_reached_from_another_position_deals_dice_nobody_saw(camp, tmp_path):
    set_deadline(camp, "+30d", datetime.now(timezone.utc))
    for turn in (1, 2):
        send(camp, tmp_path, turn)
        assert pbem("run-turn", camp.root, "--no-reports").exit_code == 0
    seen = rolls(camp.log_path(2))
    assert pbem("rollback", camp.root, "1", "--reason", "troy's income was missed").exit_code == 0
    r = pbem("adjust", camp.root, "--gold", "troy=+1", "--reason", "troy's income was missed")
    assert r.exit_code == 0, r.output
    r = pbem("run-turn", camp.root, "--force", "--no-reports")  # turn 1 from the mended position
    assert r.exit_code == 0 and "held" not in r.output, r.output  # turn 2 is a new turn, open to the players
    send(camp, tmp_path, 2, "again")  # byte for byte the files of the seen run
    r = pbem("run-turn", camp.root, "--no-reports")
    assert r.exit_code == 0, r.output
    again = rolls(camp.log_path(2))
    assert len(seen) >= 3 and [x["result"] for x in again] != [x["result"] for x in seen]
    verdicts = verify(Campaign.open(camp.root))
    assert all(v.ok for v in verdicts), [(v.turn, v.detail, v.flags) for v in verdicts]


def test_R_TURN_6_the_same_position_and_files_replay_the_same_dice(camp, tmp_path):
    """A turn held after a rollback, run again from the very position its seen run started from with the files
    that run played, deals the dice its players saw: a rollback alone re-rolls nothing."""
    seen_files = two_turns_run_and_rolled_back_to_turn_1(camp, tmp_path)
    seen = rolls(camp.root / "archive" / "rollback-1" / "log" / "turn-002.jsonl")
    for f in sorted(seen_files.glob("*.yaml")):
        assert pbem("submit", camp.root, f, "--fix").exit_code == 0
    r = pbem("run-turn", camp.root, "--force", "--no-reports")
    assert r.exit_code == 0, r.output
    assert rolls(camp.log_path(2)) == seen


def test_R_TURN_6_a_campaign_made_before_0_6_0_keeps_the_dice_it_was_run_with(camp, tmp_path):
    """campaign.yaml without ``dice_from_start`` (as pbem 0.5.0 wrote it): its turns are seeded by the key and the
    files alone, so its archived turns still replay (`verify`), and run-turn deals those dice."""
    config = dict(camp.config)
    del config["dice_from_start"]
    camp.write_config(config)
    camp = Campaign.open(camp.root)
    assert camp.dice_start(1) is None
    set_deadline(camp, "+30d", datetime.now(timezone.utc))
    send(camp, tmp_path, 1)
    before = camp.load_state(1)
    orders, hashes = accepted_orders(camp, before)
    assert pbem("run-turn", camp.root, "--no-reports").exit_code == 0
    old = adjudicate(before.copy(), camp.game_map, tables(), orders, Dice(turn_seed(camp.secret_seed(), 1, hashes)))
    new = adjudicate(before.copy(), camp.game_map, tables(), orders, Dice(turn_seed(
        camp.secret_seed(), 1, hashes, state_sha256(camp.snapshot_path(1).read_bytes()))))
    assert rolls(camp.log_path(1)) == dice(old.records)
    assert dice(new.records) != dice(old.records)
    verdicts = verify(Campaign.open(camp.root))
    assert all(v.ok for v in verdicts), [(v.turn, v.detail, v.flags) for v in verdicts]


def test_R_TURN_6_a_new_campaign_seeds_its_dice_with_the_start_position(camp):
    assert camp.config["dice_from_start"] is True
    assert camp.dice_start(1) == state_sha256(camp.snapshot_path(1).read_bytes())
    s = b"s" * 32
    assert turn_seed(s, 3, ["aa", "-"], "0" * 64) != turn_seed(s, 3, ["aa", "-"], "1" * 64)
    assert turn_seed(s, 3, ["aa", "-"], "0" * 64) != turn_seed(s, 3, ["aa", "-"])


def test_R_TURN_6_an_adjustment_of_a_held_turn_keeps_the_dice_its_players_saw(camp, tmp_path):
    """A cheater's review: `pbem adjust` on a turn held after a rollback re-dealt the dice of a turn its players had
    seen, with no warning and no flag.  The dice are seeded by the position as first written (the run of the turn
    before wrote it), as the hold is: the moderator's fix changes the position, not the dice."""
    seen_files = two_turns_run_and_rolled_back_to_turn_1(camp, tmp_path)
    seen = rolls(camp.root / "archive" / "rollback-1" / "log" / "turn-002.jsonl")
    r = pbem("adjust", camp.root, "--gold", "troy=+1", "--reason", "troy's income was missed")
    assert r.exit_code == 0, r.output
    for f in sorted(seen_files.glob("*.yaml")):
        assert pbem("submit", camp.root, f, "--fix").exit_code == 0
    r = pbem("run-turn", camp.root, "--force", "--no-reports")
    assert r.exit_code == 0, r.output
    assert rolls(camp.log_path(2)) == seen
    verdicts = verify(Campaign.open(camp.root))
    assert all(v.ok for v in verdicts), [(v.turn, v.detail, v.flags) for v in verdicts]
