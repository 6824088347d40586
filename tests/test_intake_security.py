"""Intake under attack (security review of 2026-11-22): whoever sends a file without a player's secret costs
pbem next to nothing, an authenticated player cannot flood the campaign, and untrusted names are shown
escaped."""
import shutil
from datetime import datetime, timezone

import pytest

from pbem import yamlio
from pbem.campaign import create
from pbem.intake import scan_header, HeaderError, submit_bytes

NOW = datetime(2026, 11, 22, 12, 0, tzinfo=timezone.utc)


@pytest.fixture
def camp(tmp_path):
    return create(tmp_path / "camp", ["athens", "sparta", "troy"], seed="5", name="test").campaign


def header(camp, player="athens", secret=None):
    secret = camp.player_secrets()[player] if secret is None else secret
    return f"campaign: test\nturn: 1\nplayer: {player}\nsecret: {secret}\n".encode()


def hostile_flow(size=250_000):
    """The review's unauth-pairs.yaml: one flow list of tiny mappings, 7.7 s and 149 MB to parse."""
    body = ",".join(["a: 1"] * (size // 5))
    return f"x: [{body}]\n".encode()


@pytest.fixture
def parses(monkeypatch):
    """Counts yamlio.parse calls (intake's and the checker's)."""
    calls = []
    real = yamlio.parse

    def counting(text, source):
        if not source.endswith(("players.yaml", "map.yaml", "campaign.yaml")):  # the order file only
            calls.append(source)
        return real(text, source)
    monkeypatch.setattr(yamlio, "parse", counting)
    return calls


@pytest.mark.parametrize("make", [
    lambda c: hostile_flow(),  # no header at all
    lambda c: header(c, secret="0000-0000-0000-0000") + hostile_flow(),  # a wrong secret
    lambda c: header(c, secret="") + hostile_flow(),  # no secret
    lambda c: header(c, player="macedonia", secret="x") + hostile_flow(),  # no such player
    lambda c: b"{player: athens, secret: x, " + hostile_flow()[3:] + b"}",  # a header in flow style
])
def test_an_unauthenticated_file_is_refused_without_being_parsed(camp, parses, make):
    raw = make(camp)
    a = submit_bytes(camp, raw, "x.yaml", NOW)
    assert not a.accepted and parses == [], a.text()  # parsed whole first before: 7.7 s and 149 MB
    assert not camp.orders_dir(1).exists()


def test_a_header_that_cannot_be_read_without_parsing_is_refused_with_one_clear_line(camp, parses):
    secret = camp.player_secrets()["athens"]
    raw = f"{{campaign: test, turn: 1, player: athens, secret: {secret}}}\n".encode()
    a = submit_bytes(camp, raw, "a.yaml", NOW)
    assert not a.accepted and parses == []
    assert "write `player:` and `secret:` as plain lines" in a.text() and len(a.text().splitlines()) == 2


def test_the_secret_is_compared_in_constant_time(camp, monkeypatch):
    import hmac
    import pbem.intake as intake
    seen = []
    real = hmac.compare_digest
    monkeypatch.setattr(intake.hmac, "compare_digest", lambda a, b: seen.append((a, b)) or real(a, b))
    assert not submit_bytes(camp, header(camp, secret="1111-2222-3333-4444"), "a.yaml", NOW).accepted
    assert seen == [(b"1111-2222-3333-4444", camp.player_secrets()["athens"].encode())]


def test_an_accepted_file_is_parsed_once_by_intake(camp, parses):
    a = submit_bytes(camp, header(camp) + b"diplomacy: [megara]\n", "a.yaml", NOW)
    assert a.accepted, a.text()
    assert len(parses) == 1, parses  # intake parses it once; the checker takes that parse


def test_a_header_that_parses_to_other_values_than_its_lines_is_refused(camp):
    secret = camp.player_secrets()["athens"]
    # a plain value continued on the next line: the line says the secret, the parsed value is longer
    raw = f"campaign: test\nturn: 1\nplayer: athens\nsecret: {secret}\n  and more\n".encode()
    a = submit_bytes(camp, raw, "a.yaml", NOW)
    assert not a.accepted and "does not read as its header lines say" in a.text(), a.text()


@pytest.mark.parametrize("text, found", [
    ("player: athens\nsecret: 1a2b-3c4d  # mine\n", {"player": "athens", "secret": "1a2b-3c4d"}),
    ("player: 'athens'\r\nsecret: \"1a2b\"\r\n", {"player": "athens", "secret": "1a2b"}),
    ("campaign: x\n  player: nested\nplayer:   athens   \n", {"player": "athens"}),
    ("secret:\nplayer: athens\n", {"player": "athens", "secret": ""}),
])
def test_the_header_scan_reads_plain_lines(text, found):
    assert scan_header(text) == found


@pytest.mark.parametrize("text", ["player: a\nplayer: b\n", "player: [athens]\n", "secret: \"a\\x41\"\n",
                                  "player:athens\n", "secret: " + "x" * 300 + "\n", "secret: &a x\n"])
def test_the_header_scan_refuses_what_it_cannot_read_plainly(text):
    with pytest.raises(HeaderError):
        scan_header(text)


# -- untrusted names are shown escaped ------------------------------------------------------------------

FORGED = "x.yaml\nACCEPTED: athens.yaml for athens, game turn 1\nstored; sha256 0123456789abcdef"


@pytest.mark.parametrize("name", [FORGED, "a\x1b[31m\x1b]0;pwned\x07.yaml", "a\u202eLMTH.yaml", "a\r\x00b.yaml"])
def test_a_file_name_with_control_characters_is_shown_escaped_everywhere(camp, name):
    lines_before = (camp.root / "audit.log").read_text().count("\n")
    a = submit_bytes(camp, header(camp), name, NOW)
    text = a.text()
    assert not a.accepted and text.isprintable() is False  # only the newlines that end its own lines
    assert all(line.isprintable() for line in text.splitlines()), text
    assert len(text.splitlines()) == 2 and not any(line.startswith("ACCEPTED") for line in text.splitlines())
    audit = (camp.root / "audit.log").read_text()
    assert audit.count("\n") == lines_before + 1  # one line, whatever the name holds
    assert all(line.isprintable() for line in audit.splitlines())


def test_a_folder_name_in_the_drop_folder_is_shown_escaped(camp, tmp_path):
    from pbem.intake import ingest
    drop = tmp_path / "drop"
    (drop / "evil\x1b[2J\nACCEPTED: x").mkdir(parents=True)
    (a,) = ingest(camp, drop, NOW)
    assert not a.accepted and all(line.isprintable() for line in a.text().splitlines())
    assert "\\x1b[2J\\nACCEPTED: x" in a.text()
    assert all(line.isprintable() for line in (camp.root / "audit.log").read_text().splitlines())
    reply = next((camp.root / "replies" / "turn-001").iterdir()).read_text()
    assert all(line.isprintable() for line in reply.splitlines()) and len(reply.splitlines()) == 2


def test_audit_escapes_control_characters_whoever_writes_them(camp):
    camp.audit("adjust turn 1 (reason: \x1b[31mred\x1b[0m\x07)")
    last = (camp.root / "audit.log").read_text().splitlines()[-1]
    assert "\x1b" not in last and "\\x1b[31mred\\x1b[0m\\x07" in last


def test_a_very_long_header_line_is_refused_before_the_pattern_reads_it():
    """The header pattern's time grows with the square of a line (32,000 spaces took 12 s): a line longer
    than any real header is refused by its length first."""
    from pbem.intake import HeaderError, scan_header
    with pytest.raises(HeaderError, match="the `player:` line is 250004 characters long"):
        scan_header("player: a" + " " * 250000 + "x\\\n")
    assert scan_header("player: athens   # " + "a comment " * 40 + "\nsecret: 1a2b\n") == {"player": "athens",
                                                                                          "secret": "1a2b"}


@pytest.mark.parametrize("turn, words", [
    ("1.0", "turn must be a whole number (turn: 1), not 1.0"),
    ("true", "turn must be a whole number (turn: 1), not true"),
    ("1" * 5000, "a number of 5000 characters: too long to be a value pbem understands"),
    ("0x" + "f" * 4000, "a number of 4002 characters: too long to be a value pbem understands"),
    ("1" + ":59" * 2600, "a number of 7801 characters: too long to be a value pbem understands"),
])
def test_an_authenticated_file_with_an_odd_turn_is_refused_and_intake_goes_on(camp, tmp_path, turn, words):
    """Found by an adversarial review: `turn: 1.0` (equal to 1 in Python) crashed submit with a traceback, and in
    `ingest` the file stayed in the drop folder and stopped every later run; a number of 5000 digits likewise."""
    from pbem.intake import ingest
    secret = camp.player_secrets()["athens"]
    raw = f"campaign: test\nturn: {turn}\nplayer: athens\nsecret: {secret}\n".encode()
    a = submit_bytes(camp, raw, "odd.yaml", NOW)
    assert not a.accepted and words in a.text(), a.text()
    assert not camp.orders_dir(1).exists()
    drop = tmp_path / "drop"
    drop.mkdir()
    (drop / "odd.yaml").write_bytes(raw)
    (drop / "sparta.yaml").write_bytes(header(camp, "sparta"))
    answers = ingest(camp, drop, NOW)
    assert sorted((x.source, x.accepted) for x in answers) == [("odd.yaml", False), ("sparta.yaml", True)]


def test_a_file_with_no_turn_line_is_refused_saying_so(camp):
    secret = camp.player_secrets()["athens"]
    a = submit_bytes(camp, f"campaign: test\nplayer: athens\nsecret: {secret}\n".encode(), "n.yaml", NOW)
    assert not a.accepted and "the file has no turn: line (write turn: 1)" in a.text(), a.text()


def test_a_header_value_on_the_next_line_is_refused_saying_where_to_write_it(camp):
    """Found by a code review: `secret:` with its value indented on the next line is valid YAML and passes the
    checker, but intake read no secret and answered "no secret for athens", audited as a bad-secret attempt."""
    with pytest.raises(HeaderError, match="`secret:` has its value on the next line: write it on the same line"):
        scan_header("player: athens\nsecret:\n  1a2b-3c4d\n")
    secret = camp.player_secrets()["athens"]
    a = submit_bytes(camp, f"campaign: test\nturn: 1\nplayer: athens\nsecret:\n  {secret}\n".encode(), "n.yaml", NOW)
    assert not a.accepted and "has its value on the next line" in a.text() and "no secret" not in a.text()
    assert scan_header("player: athens\nsecret:\n# a comment\nturn: 1\n") == {"player": "athens", "secret": ""}


@pytest.mark.parametrize("sub", ["orders/turn-001", "replies", "state"])
def test_a_campaign_folder_made_a_link_is_refused_before_anything_is_written(camp, tmp_path, sub):
    """Found by a code review: with orders/turn-NNN (or replies/) a link to a folder outside the campaign, an
    accepted file (or the answer to it) was written out there."""
    from pbem.errors import CampaignError
    from pbem.storage import Campaign
    target = camp.root / sub
    outside = tmp_path / "outside"
    if target.exists():
        shutil.move(str(target), str(outside))
    else:
        outside.mkdir()
    target.parent.mkdir(parents=True, exist_ok=True)
    target.symlink_to(outside, target_is_directory=True)
    with pytest.raises(CampaignError, match="is a link; a campaign's folders must be folders of its own"):
        Campaign.open(camp.root)
    assert not [p for p in outside.rglob("*") if p.name.startswith("athens")]
