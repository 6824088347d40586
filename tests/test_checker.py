"""The order checker (pbem check): examples pass, every broken file says what and where, hostile and random
input never crashes it, and a whole turn is checked fast."""
from __future__ import annotations

import copy
import json
import re

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbem import yamlio
from pbem.campaign import create
from pbem.checker import Report, check_file, check_text, main
from pbem.gamedata import load_map
from pbem.model import GameState
from demo_campaign import create_demo, edited
from pbem.storage import Campaign

REPO = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((REPO / "examples" / "orders").glob("*.yaml"))
BROKEN = sorted((Path(__file__).parent / "orders_broken").glob("*.yaml"))
ATHENS = "campaign: demo\nturn: 1\nplayer: athens\nsecret: b6bf-5bc2-a03d-344d\n"
EXPECT = re.compile(r"^# expect: (\d+|-) (.+)$")


@pytest.fixture(scope="module")
def demo(tmp_path_factory) -> Campaign:
    return create_demo(tmp_path_factory.mktemp("campaigns") / "demo")


def findings(report: Report) -> list[tuple[str, int | None, str]]:
    return [(f.severity, f.line, f.message) for f in report.findings]


UNFED = "at your next Upkeep each without Baggage makes an upkeep roll"


def but_unfed(found: list[tuple]) -> list[tuple]:
    """Findings but the supply heads-up for Armies and Rowers the orders move or carry where upkeep will not pay
    them (by the first move too: tests/test_chk3_review.py), for tests about something else."""
    return [f for f in found if UNFED not in f[-1]]


# -- the examples --------------------------------------------------------------------------------------

EXAMPLE_EXPECT = re.compile(r"^# expect: (.+)$")


def example_head(path: Path) -> list[str]:
    """The comment lines at the top of an example, up to its first line of YAML."""
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.startswith("#"):
            break
        out.append(line)
    return out


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_every_example_passes_pbem_check(path, demo):
    """Each example gives what its `# expect:` line says (the summary line of `pbem check`)."""
    [expect] = [m.group(1) for line in example_head(path) if (m := EXAMPLE_EXPECT.match(line))]
    text, code = main(path, demo.root, "text")
    assert code == (1 if " error" in expect and not expect.startswith("0 errors") else 0), text
    assert text.endswith(f"{path}: {expect}\n"), text


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_every_example_names_its_campaign_and_how_to_make_it(path):
    """The top of each example says which campaign it fits and the commands that make it and check the file,
    as examples/demo-campaign.yaml describes the campaign."""
    from demo_campaign import demo_spec
    spec = demo_spec()
    head = " ".join(example_head(path))
    make = (f"pbem new {spec['name']} --players {','.join(spec['players'])} --seed {spec['seed']} "
            f"--name {spec['name']}")
    assert "examples/demo-campaign.yaml" in head and f"{len(spec['players'])} factions" in head, head
    assert make in head, head
    assert f"pbem check examples/orders/{path.name} --campaign {spec['name']}" in head, head
    turn = yamlio.load(path).data["turn"]
    assert f"Fits turn {turn} of the demo campaign" in head


def test_the_command_an_example_names_makes_the_campaign_it_fits(tmp_path, monkeypatch):
    """Run the `pbem new` line of an example's head as it is written, then `pbem check` the examples against
    the campaign it made."""
    import shlex
    from typer.testing import CliRunner
    from pbem.cli import app
    [line] = [x for x in example_head(EXAMPLES[0]) if "pbem new " in x]
    args = shlex.split(line.split("pbem ", 1)[1])
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    for path in EXAMPLES:
        [expect] = [m.group(1) for x in example_head(path) if (m := EXAMPLE_EXPECT.match(x))]
        text, _ = main(path, tmp_path / args[1], "text")
        assert text.endswith(f"{path}: {expect}\n"), text


def test_there_are_complete_turns_for_two_factions():
    turns = [p for p in EXAMPLES if p.name.endswith("-turn-1.yaml")]
    players = {yamlio.load(p).data["player"] for p in turns}
    assert len(players) >= 2
    for p in turns:
        data = yamlio.load(p).data
        assert {"recruit", "diplomacy", "cards", "first_move", "land_battle", "second_move", "standing"} <= set(data)


def test_demo_campaign_file_makes_the_campaign_the_examples_expect(demo):
    assert demo.config["name"] == "demo"
    assert set(demo.config["players"]) == {"athens", "sparta", "thebes", "corinth", "troy", "crete"}
    # the player secrets are random even with --seed (a cheater's review: derived from the seed they could be
    # worked out); the examples' secret lines have a secret's form, for the reader to copy
    secrets = demo.player_secrets()
    for path in EXAMPLES:
        data = yamlio.load(path).data
        assert re.fullmatch(r"[0-9a-f]{4}(-[0-9a-f]{4}){3}", data["secret"]), path.name
        assert data["secret"] != secrets[data["player"]], path.name


# -- the corpus of broken files -------------------------------------------------------------------------

def test_the_broken_corpus_is_big_and_says_what_it_expects():
    assert len(BROKEN) >= 40
    for path in BROKEN:
        assert EXPECT.match(path.read_text(encoding="utf-8").splitlines()[0]), path.name


@pytest.mark.parametrize("path", BROKEN, ids=lambda p: p.stem)
def test_broken_file_yields_its_message_at_its_line(path, demo):
    m = EXPECT.match(path.read_text(encoding="utf-8").splitlines()[0])
    line = None if m.group(1) == "-" else int(m.group(1))
    fragment = m.group(2)
    report = check_file(path, demo)
    assert report.exit_code in (1, 2)
    hits = [f for f in report.findings if f.line == line and f.severity == "error"
            and (fragment in f.message or fragment in (f.hint or ""))]
    assert hits, f"expected line {line}: {fragment!r}; got:\n" + report.to_text()


# -- output and exit codes ------------------------------------------------------------------------------

def test_text_format_is_like_a_compiler(demo, tmp_path):
    f = tmp_path / "orders.yaml"
    f.write_text(ATHENS + 'first_move:\n  - units: [ATH-A1]\n    path: ["1212", "0713"]\n')
    text, code = main(f, demo.root, "text")
    assert code == 1
    assert f"{f}:7:20: error: first_move[0].path[1]: 0713 is not next to 1212 (hint: neighbours of 1212 are " \
           f"1211, 1312, 1313, 1213, 1113, 1112)\n" in text
    assert text.endswith(f"{f}: 1 error, 0 warnings\n") or "errors" in text.splitlines()[-1]


def test_json_format(demo, tmp_path):
    f = tmp_path / "orders.yaml"
    f.write_text(ATHENS + "cards: [intrigu]\n")
    text, code = main(f, demo.root, "json")
    data = json.loads(text)
    assert code == 1 and data["exit_code"] == 1 and data["errors"] == 1
    (finding,) = data["findings"]
    assert finding == {"severity": "error", "file": str(f), "line": 5, "column": 9, "path": "cards[0]",
                       "message": "'intrigu' is not a card", "hint": "did you mean intrigue?"}


def test_warnings_alone_exit_0_but_are_printed(demo, tmp_path):
    f = tmp_path / "orders.yaml"
    f.write_text(ATHENS + "discard: [storms, storms]\n")
    text, code = main(f, demo.root, "text")
    assert code == 0
    assert "warning: discard[1]: storms is listed twice" in text


def test_unusable_input_exits_2(demo, tmp_path):
    f = tmp_path / "orders.yaml"
    f.write_text(ATHENS)
    text, code = main(tmp_path / "missing.yaml", demo.root, "text")
    assert code == 2 and "no such file" in text
    text, code = main(tmp_path, demo.root, "text")
    assert code == 2 and "is a folder" in text
    text, code = main(f, tmp_path, "text")
    assert code == 2 and "not a campaign folder" in text
    text, code = main(f, tmp_path / "nowhere", "text")
    assert code == 2 and "no such campaign folder" in text
    text, code = main(f, demo.root, "xml")
    assert code == 2 and "--format" in text
    text, code = main(f, demo.root, "json")
    assert code == 0 and json.loads(text)["findings"] == []


def test_without_a_campaign_only_the_file_is_checked(tmp_path):
    f = tmp_path / "orders.yaml"
    f.write_text(ATHENS.replace("demo", "elsewhere") + 'first_move:\n  - {units: [ATH-A9], path: ["9999"]}\n')
    # the output says only the format was checked: "OK, no findings" read as if the orders were fine (review)
    assert main(f, None, "text") == (f"{f}: OK: the file's format is right (not checked against a campaign: add "
                                     f"--campaign KIT_FOLDER to check the orders against the game)\n", 0)


def test_a_file_with_every_kind_of_problem_reports_them_all(demo, tmp_path):
    f = tmp_path / "orders.yaml"
    f.write_text("campaign: demo\nturn: 2\nplayer: athens\nsecret: x\n"
                 "recruit:\n  - {city: athens, unit: fleet}\n"
                 "first_move:\n  - units: [ATH-A1]\n    path: [1212]\n"
                 "  - units: [ATH-A2]\n    path: [\"1112\"]\n"
                 "cards: [forced_march]\n")
    report = check_file(f, demo)
    got = {(f.line, f.path) for f in report.errors}
    assert got == {(2, "turn"), (6, "recruit[0].unit"), (9, "first_move[0].path[0]"),
                   (11, "first_move[1].path[0]"), (12, "cards[0]")}


# -- rules that need another state than turn 1 of the demo ------------------------------------------------

def test_gold_warning_when_income_could_cover_it_error_when_not(demo, tmp_path):
    def poor(state: GameState):
        state.players["athens"].gold = 0
        for uid in ("ATH-F1", "ATH-F2"):
            state.place(state.units[uid], "1314")
            for c in state.cargo(uid):
                state.place(c, "1314")
    camp = edited(demo, tmp_path, poor)
    # the ships set out to sea to make room stay there: a navigation roll each (R-PH-SECOND, a player's review)
    at_sea = ("warning", 1, "ATH-F1, ATH-F2 end the turn at sea in 1314: each makes a navigation roll (5-6 sinks it)")
    ok = check_text(ATHENS + "recruit:\n  - {city: athens, baggage: 2}\n", "o.yaml", camp)
    assert findings(ok) == [at_sea]
    warn = check_text(ATHENS + "recruit:\n  - {city: athens, unit: fleet, baggage: 2}\n", "o.yaml", camp)
    # (and the new Fleet has no Rowers to man it: tests/test_chk3_review.py)
    assert [(s, ln) for s, ln, _ in findings(warn)] == [("warning", 1), ("warning", 6), ("warning", 6)]
    assert "this costs 6 gold; you have 0, about 7 income and 4 upkeep" in warn.findings[1].message
    assert "the Fleet recruited here, will have no Rowers aboard" in warn.findings[2].message
    assert warn.exit_code == 0
    err = check_text(ATHENS + "recruit:\n  - {city: athens, unit: fleet, baggage: 6}\n"
                     "  - {city: megara, baggage: 1}\n", "o.yaml",
                     edited(demo, tmp_path / "b", lambda s: (poor(s), setattr(s.cities["megara"], "controller",
                                                                              "athens"))))
    gold = [f for f in err.errors if "gold" in f.message]
    assert gold and "you have 0 and at most 8 income" in gold[0].message


def _ships_out(state: GameState, player: str, h: str) -> None:
    for u in [u for u in state.units_of(player) if u.type.is_ship]:
        state.place(u, h)
        for c in state.cargo(u.id):
            state.place(c, h)


def test_one_unit_per_city_and_organization(demo, tmp_path):
    def empty_cities(s: GameState):
        _ships_out(s, "athens", "1314")
        _ships_out(s, "troy", "2408")
        for uid in ("TRO-A1", "TRO-A2"):
            s.place(s.units[uid], "2406")
    camp = edited(demo, tmp_path, empty_cities)
    r = check_text(ATHENS + "recruit:\n  - {city: athens, unit: transport}\n  - {city: athens, unit: army}\n",
                   "o.yaml", camp)
    # (the ships set out to sea to empty the cities stay there: a navigation roll each, R-PH-SECOND)
    assert findings(r) == [("warning", 1, "ATH-F1, ATH-F2 end the turn at sea in 1314: each makes a navigation roll "
                                          "(5-6 sinks it)"),
                           ("error", 7, "Athens already recruits a unit (recruit[0]): a city recruits one unit "
                                        "per turn")]
    # Troy's two Organization leaders let Troy, the friendly city nearest them, recruit 1 + 2 units
    troy = "campaign: demo\nturn: 1\nplayer: troy\nsecret: a195-6dd6-1ee7-8ea8\nrecruit:\n"
    three = "  - {city: troy, unit: army}\n  - {city: troy, unit: rowers}\n  - {city: troy, unit: transport}\n"
    assert findings(check_text(troy + three, "o.yaml", camp)) == []
    r = check_text(troy + three + "  - {city: troy, unit: army}\n", "o.yaml", camp)
    assert [(s, ln) for s, ln, _ in findings(r)] == [("error", 9)]
    assert r.findings[0].message == "Troy already recruits 3 units (recruit[0, 1, 2]): its limit is 3 this turn " \
                                    "(1, plus Organization)"


def test_state_dependent_findings_are_errors_only_for_the_first_player(demo, tmp_path):
    def spartans_on_the_farms(state: GameState):
        state.place(state.units["SPA-A1"], "1212")
        state.place(state.units["COR-A1"], "1212")
    camp = edited(demo, tmp_path, spartans_on_the_farms)
    # Athens plays third: the Spartans may have left before Athens moves -> warning
    r = check_text(ATHENS + 'first_move:\n  - units: [ATH-A1]\n    path: ["1212"]\n', "o.yaml", camp)
    assert but_unfed(findings(r)) == [("warning", 7, "1212 holds enemy Armies, Rowers or manned Fleets now: your "
                                                    "units may not enter it")]
    assert any("(Athens is under siege)" in m for _, _, m in findings(r))  # ATH-A1 next to besieged Athens: unfed
    # Corinth plays first: nobody moves before it -> error
    text = ("campaign: demo\nturn: 1\nplayer: corinth\nsecret: 86c4-d99c-694e-a99d\n"
            'first_move:\n  - units: [COR-A2]\n    path: ["1114", "1113", "1212"]\n')
    state = camp.load_state()
    assert state.turn_order[0] == "corinth"
    r = check_text(text, "o.yaml", camp)
    assert ("error", 7, "1212 holds enemy Armies, Rowers or manned Fleets now: your units may not enter it") \
        in findings(r)


def test_sequence_second_move_starts_where_the_first_move_ended(demo):
    text = ATHENS + ('first_move:\n  - units: [ATH-A1]\n    path: ["1212"]\n'
                     'second_move:\n  - units: [ATH-A1]\n    path: ["1213"]\n'
                     '  - units: [ATH-A2]\n    path: ["1213"]\n')
    assert findings(check_text(text, "o.yaml", demo)) == []
    text = ATHENS + 'second_move:\n  - units: [ATH-A1]\n    path: ["1213", "1113"]\n'
    assert findings(check_text(text, "o.yaml", demo)) == [  # 1113 is two hexes from Athens: out of supply
        ("warning", 7, "ATH-A1 ends the turn in 1113 with no friendly city in or next to it: at your next Upkeep "
                       "each without Baggage makes an upkeep roll (6 or more disbands it)")]
    text = ATHENS + 'first_move:\n  - units: [ATH-A1]\n    path: ["1212", "1213"]\n' \
                    'second_move:\n  - units: [ATH-A1]\n    path: ["1212"]\n'
    assert findings(check_text(text, "o.yaml", demo)) == []


def test_movement_bonuses_count(demo):
    # Athens has Seamanship: a Fleet has 11 points; 12 is too many
    path11 = '["1314", "1414", "1514", "1613", "1713", "1812", "1913", "2013"]'  # 8 points, ends on a beach
    ok = check_text(ATHENS + f"first_move:\n  - units: [ATH-F1]\n    path: {path11}\n", "o.yaml", demo)
    assert but_unfed(findings(ok)) == []  # (its Rowers on a far beach: the supply heads-up)
    # Thebes: 1 + 2 + 2 = 5 points needs Marathon (+2 for the Army stack)
    thebes = "campaign: demo\nturn: 1\nplayer: thebes\nsecret: 7387-6821-22a3-7d36\n"
    move = 'first_move:\n  - units: [THE-A1]\n    path: ["0911", "0811", "0711"]\n'
    r = check_text(thebes + move, "o.yaml", demo)
    assert [m for _, _, m in findings(r)] == [
        "out of movement points: reaching 0711 costs 5; the stack has 4 (Army 4)"]
    assert but_unfed(findings(check_text(thebes + move + "    cards: [marathon]\n", "o.yaml", demo))) == []
    # partial: true turns the shortage into a warning
    r = check_text(thebes + move + "    partial: true\n", "o.yaml", demo)
    assert [s for s, _, _ in but_unfed(findings(r))] == ["warning"]


def test_a_hex_id_names_the_stack_in_moves_and_attacks(demo):
    thebes = "campaign: demo\nturn: 1\nplayer: thebes\nsecret: 7387-6821-22a3-7d36\n"
    text = thebes + ('first_move:\n  - units: ["1010"]\n    path: ["1011"]\n'
                     'land_battle:\n  - units: ["1011"]\n    target: "1112"\n')
    assert findings(check_text(text, "o.yaml", demo)) == []  # the leaders in 1011 are not named as attackers
    text = thebes + 'land_battle:\n  - units: ["1011"]\n    target: "1112"\n'
    assert findings(check_text(text, "o.yaml", demo)) == [
        ("error", 6, "you have no units in 1011 that can fight a land battle")]


def test_movement_card_in_cards_names_the_stack(demo):
    thebes = "campaign: demo\nturn: 1\nplayer: thebes\nsecret: 7387-6821-22a3-7d36\n"
    move = 'first_move:\n  - units: [THE-A1]\n    path: ["0911", "0811", "0711"]\n'
    for target in ("THE-A1", '"1010"'):
        r = check_text(thebes + f"cards:\n  - {{card: marathon, target: {target}}}\n" + move, "o.yaml", demo)
        assert but_unfed(findings(r)) == [], target
    r = check_text(thebes + "cards:\n  - {card: marathon, target: THE-A4}\n" + move, "o.yaml", demo)
    assert ("error", 6, "no move of yours takes THE-A4 along this turn, so Marathon is not played") in findings(r)
    assert any("out of movement points" in m for _, _, m in findings(r))


def test_leaders_alone_have_6_points(demo):
    text = ATHENS + 'first_move:\n  - units: [ATH-L1]\n    path: ["1312", "1212", "1213", "1113"]\n'
    assert findings(check_text(text, "o.yaml", demo)) == []


def test_recruits_can_be_moved_with_a_warning(demo):
    text = ATHENS + ('recruit:\n  - {city: athens, baggage: 2}\n'
                     'first_move:\n  - units: [ATH-A1, ATH-B1, ATH-B2]\n    path: ["1212"]\n')
    r = check_text(text, "o.yaml", demo)
    # one warning for the list (a new player's review: four Baggage recruited and loaded gave four alike)
    assert [s for s, _, _ in findings(r)] == ["warning"]
    assert r.findings[0].message == "ATH-B1, ATH-B2 do not exist yet: they are the ids the Baggage recruited in " \
                                    "Athens will get"
    assert r.findings[0].path == "first_move[0].units[1]"


def test_diplomacy_rolls_are_counted(demo):
    r = check_text(ATHENS + "diplomacy: [megara, chalcis, melos]\n", "o.yaml", demo)
    assert findings(r) == [("warning", 5, "you have 2 diplomacy rolls this turn as far as the checker knows (1 free "
                                          "+1 Benevolent (Astyochus' skill) = 2), used by the targets before this one: "
                                          "this target is rolled for only if you get more rolls (if your home city's "
                                          "experience roll (Recruit phase) brings a leader or a trait that adds one); "
                                          "targets beyond the rolls fail (R-PH-DIP)")]
    r = check_text(ATHENS + "cards: [intrigue]\ndiplomacy: [megara, chalcis, melos]\n", "o.yaml", demo)
    assert findings(r) == []


def test_political_rivalry_on_you_is_reported(demo, tmp_path):
    from pbem.model import Effect
    camp = edited(demo, tmp_path, lambda s: s.effects.append(Effect(
        "cannot_move_or_attack", "political_rivalry", "sparta", "athens", 0, 1, "athens")))
    r = check_text(ATHENS + 'first_move:\n  - units: [ATH-A1]\n    path: ["1212"]\n', "o.yaml", camp)
    assert findings(r) == [("warning", 6, "Political Rivalry was played on you: your units may not move or attack "
                                          "this turn")]


def test_no_secret_is_an_error_the_moderator_would_refuse_the_file(demo):
    r = check_text("campaign: demo\nturn: 1\nplayer: athens\n", "o.yaml", demo)
    assert findings(r) == [("error", 1, "no secret: the moderator accepts a file only with your secret in it")]
    assert r.exit_code == 1


def test_no_secret_is_an_error_without_a_campaign_too():
    """docs/players.md: a file without a secret line always gets the error (found by a player-eyes review:
    `pbem check` without --campaign said OK)."""
    r = check_text("campaign: demo\nturn: 1\nplayer: athens\n", "o.yaml")
    assert findings(r) == [("error", 1, "no secret: the moderator accepts a file only with your secret in it")]
    assert r.exit_code == 1
    assert not check_text("campaign: demo\nturn: 1\nplayer: athens\nsecret: x\n", "o.yaml").findings


def test_eliminated_player_and_finished_game(demo, tmp_path):
    def over(state: GameState):
        state.players["athens"].eliminated_turn = 1
        state.finished = True
        state.turn = 2
    camp = edited(demo, tmp_path, over)
    msgs = [m for _, _, m in findings(check_text(ATHENS, "o.yaml", camp))]
    assert "the game is over (after turn 1); no more orders are taken" in msgs
    assert "athens is out of the game (since turn 1)" in msgs


# -- hostile input: a message, exit 2 (or 1), never a traceback -------------------------------------------

HOSTILE = [
    (b"a: &x [1]\nb: *x\n", "anchors and aliases"),
    (b"a: !!python/object/apply:os.system ['echo hi']\n", "is not allowed"),
    (b"campaign: demo\ncampaign: demo\n", "duplicate key"),
    (b"a: " + b"[" * 50 + b"]" * 50 + b"\n", "nested too deeply"),
    (b"a: " + b"x" * (300 * 1024) + b"\n", "the limit is"),
    (b"campaign: demo\nturn: \xff\xfe\n", "not UTF-8"),
    (b"campaign: demo\x00\n", "NUL"),
    (b"a: 1\n---\nb: 2\n", "more than one YAML document"),
    (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "not UTF-8"),
    (b"a: [1, 2\n", "YAML syntax error"),
    (b"? [a, b]\n: c\n", "a key must be a plain word"),
    (b"<<: {campaign: demo}\n", "merge keys"),
    (b"a: .nan\n", "NaN"),
]


@pytest.mark.parametrize("raw, message", HOSTILE, ids=[m for _, m in HOSTILE])
def test_hostile_input_is_refused_with_a_message(raw, message, demo, tmp_path):
    f = tmp_path / "orders.yaml"
    f.write_bytes(raw)
    text, code = main(f, demo.root, "text")
    assert code == 2
    assert message in text
    assert "Traceback" not in text and text.startswith(str(f))


def test_billion_laughs_is_refused_quickly(demo, tmp_path):
    bomb = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{chr(98 + i)}: &{chr(98 + i)} [" + ", ".join([f"*{chr(97 + i)}"] * 9) + "]\n" for i in range(8))
    f = tmp_path / "orders.yaml"
    f.write_text(bomb)
    text, code = main(f, demo.root, "text")
    assert code == 2 and "anchors and aliases" in text  # refused at the first alias, before any expansion


# -- random and mutated documents -------------------------------------------------------------------------

SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-10, 10_000), st.text(max_size=12),
                    st.sampled_from(["0712", "ATH-A1", "athens", "intrigue", "1313", "demo", ""]))
KEYS = st.one_of(st.sampled_from(["campaign", "turn", "player", "secret", "recruit", "first_move", "path", "units",
                                  "standing", "cards", "card", "target", "retreat", "load"]), st.text(max_size=8))
VALUES = st.recursive(SCALARS, lambda kids: st.one_of(st.lists(kids, max_size=4),
                                                      st.dictionaries(KEYS, kids, max_size=4)), max_leaves=20)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(doc=VALUES)
def test_random_documents_never_crash_the_checker(doc, demo):
    text = yamlio.dump(doc)
    report = check_text(text, "random.yaml", demo)
    assert report.exit_code in (1, 2)
    assert report.findings and all(f.message for f in report.findings)
    assert report.to_text()


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=st.text(max_size=200))
def test_random_text_never_crashes_the_checker(text, demo):
    report = check_text(text, "random.yaml", demo)
    assert report.exit_code in (1, 2)
    assert report.findings and all(f.message for f in report.findings)


def _paths(node, here=()):
    yield here
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _paths(v, here + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _paths(v, here + (i,))


def _get(node, path):
    for p in path:
        node = node[p]
    return node


IDS = st.sampled_from(["0712", "1212", "1313", "1314", "1112", "1014", "9999", "ATH-A1", "ATH-A2", "ATH-F1",
                       "ATH-R1", "ATH-L1", "ATH-B1", "SPA-A1", "THE-A1", "THE-L2", "megara", "athens", "sparta",
                       "melos", "intrigue", "marathon", "strong_garrison", "treasure", "executions", "hesitation",
                       "spy", "army", "fleet", "demo"])
EXAMPLE_DATA = [yamlio.load(p).data for p in EXAMPLES]


@st.composite
def mutated(draw):
    """(document, sure_to_break): an example with one random change."""
    doc = copy.deepcopy(draw(st.sampled_from(EXAMPLE_DATA)))
    paths = [p for p in _paths(doc) if p]
    path = draw(st.sampled_from(paths))
    parent, last = _get(doc, path[:-1]), path[-1]
    kind = draw(st.sampled_from(["delete", "replace", "swap", "swap", "add_key", "rename", "retype"]))
    if kind == "swap":  # a well-formed but possibly wrong id: exercises the rule checks
        for p in draw(st.lists(st.sampled_from(paths), min_size=1, max_size=4)):
            try:
                holder = _get(doc, p[:-1])
                if isinstance(holder[p[-1]], str):
                    holder[p[-1]] = draw(IDS)
            except (KeyError, IndexError, TypeError):
                pass
        return doc, False
    if kind == "delete":
        del parent[last]
        return doc, False
    if kind == "replace":
        parent[last] = draw(VALUES)
        return doc, False
    if kind == "add_key":
        target = parent if isinstance(parent, dict) else doc
        target["zz_" + draw(st.text("abcdefgh", min_size=1, max_size=6))] = draw(SCALARS)
        return doc, True
    if kind == "rename" and isinstance(parent, dict):
        parent["x" + str(last)] = parent.pop(last)
        return doc, True
    parent[last] = {"not": ["what", "is", "expected"]} if not isinstance(parent[last], dict) else [1, 2]
    return doc, True


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(case=mutated())
def test_mutated_examples_never_crash_and_broken_ones_are_caught(case, demo):
    doc, sure = case
    report = check_text(yamlio.dump(doc), "mutated.yaml", demo)
    assert report.exit_code in (0, 1, 2)
    assert all(f.message for f in report.findings)
    if sure:
        assert report.exit_code == 1, report.to_text()


# -- speed: a whole 12-player turn -----------------------------------------------------------------------

def test_a_complete_12_player_turn_of_order_files_checks_clean(tmp_path):
    game_map = load_map()
    players = [c.id for c in game_map.city_states()]
    camp = create(tmp_path / "big", players, seed="7", name="big").campaign
    state = camp.load_state()
    secrets = camp.player_secrets()
    files = []
    for pid in state.turn_order:
        mine = [u for u in state.units_of(pid) if u.type.value == "army"]
        home = game_map.cities[pid].hex
        step = next(n for n in game_map.neighbours[home]
                    if game_map.terrain[n].land and game_map.passable(n) and n not in game_map.city_at)
        hand = state.players[pid].hand
        neutral = sorted(c for c, x in state.cities.items() if x.controller is None)[:1]
        body = (f"campaign: big\nturn: 1\nplayer: {pid}\nsecret: {secrets[pid]}\n"
                f"discard: [{hand[0]}]\nupkeep: [{mine[0].id}]\n"
                f"recruit:\n  - {{city: {pid}, baggage: 2}}\n"
                f"diplomacy: [{neutral[0]}]\n"
                f"first_move:\n  - units: [{mine[0].id}, {mine[1].id}]\n    path: [\"{step}\"]\n"
                f"second_move:\n  - units: [{mine[0].id}]\n    path: [\"{home}\"]\n"
                f"standing:\n  defence_cards: [{{card: strong_garrison, hex: \"{home}\"}}]\n"
                f"  retreat: {{\"{step}\": \"{home}\"}}\n  captured_leaders: ransom\n")
        path = tmp_path / f"{pid}.yaml"
        path.write_text(body)
        files.append(path)
    fresh = Campaign.open(camp.root)
    reports = [check_file(p, fresh) for p in files]  # its speed is measured in bench/bench.py, not here
    assert len(reports) == 12
    assert all(r.exit_code == 0 for r in reports), "".join(r.to_text() for r in reports if r.exit_code)


# -- the player's kit: the checker says the same with only what the player may see -----------------------

@pytest.fixture(scope="module")
def kits(demo):
    from pbem.playerkit import write_kit
    return {p: Campaign.open(write_kit(demo, p)) for p in demo.config["players"]}


@pytest.mark.parametrize("path", EXAMPLES + BROKEN, ids=lambda p: p.stem)
def test_the_kit_gives_the_same_findings_as_the_full_state(path, demo, kits):
    """The checker uses nothing a player may not see: against the player's redacted kit it finds the same."""
    try:
        player = yamlio.load(path).data["player"]
    except (yamlio.YamlError, TypeError, KeyError):
        player = None
    if player not in kits:
        player = "athens"
    full = check_file(path, demo)
    kit = check_file(path, kits[player])

    def same(f):  # a kit says a turn ahead of it in its own words (the game may have moved on since)
        m = re.match(r"this kit is for game turn (\d+), your file for turn (\d+)$", f[2])
        return (f[0], f[1], f"turn {m[2]} has not begun; the campaign is at turn {m[1]}") if m else f
    assert [same(f) for f in findings(kit)] == findings(full)


# -- the checker follows the adjudicator on Baggage (found by tests/test_checker_agrees.py) ----------------

def test_baggage_moves_as_the_adjudicator_carries_it(demo, tmp_path):
    from pbem.model import Unit, UnitType

    def baggage(state: GameState):
        state.place(state.units["ATH-A1"], "1212")
        state.add_unit(Unit("ATH-B8", UnitType.BAGGAGE, "athens", "1212", carried_by="ATH-A1"))
        state.add_unit(Unit("ATH-B9", UnitType.BAGGAGE, "athens", "1212"))
        state.next_id["ATH-B"] = 9  # ids given by hand: the next new one is ATH-B10 (a snapshot must say so)
    camp = edited(demo, tmp_path, baggage)
    # Baggage an Army carries does not move alone (was accepted, then failed at adjudication)
    r = check_text(ATHENS + 'first_move:\n  - units: [ATH-B8]\n    path: ["1213"]\n', "o.yaml", camp)
    assert [s for s, _, _ in findings(r)] == ["error"]
    # loose Baggage in load of a land move is picked up by the Armies (was refused: "needs a Fleet")
    r = check_text(ATHENS + 'first_move:\n  - units: [ATH-A1]\n    load: [ATH-B9]\n    path: ["1213"]\n', "o.yaml",
                   camp)
    assert findings(r) == []
    # and Baggage listed with its Army may be set down at the end (was refused: "not carried by this move")
    r = check_text(ATHENS + 'first_move:\n  - units: [ATH-A1, ATH-B9]\n    path: ["1213"]\n    unload: [ATH-B9]\n',
                   "o.yaml", camp)
    assert findings(r) == []


def test_a_file_for_the_turn_after_the_last_is_refused_when_the_game_is_over(demo, tmp_path):
    def over(state: GameState):
        state.finished = True
        state.turn = 2
    camp = edited(demo, tmp_path, over)
    msgs = [m for _, _, m in findings(check_text(ATHENS.replace("turn: 1", "turn: 2"), "o.yaml", camp))]
    assert "the game is over (after turn 1); no more orders are taken" in msgs


# -- a kit knows whose it is and which turn it is for --------------------------------------------------------

def test_a_kit_refuses_to_check_another_players_orders(kits):
    r = check_text(ATHENS.replace("player: athens", "player: sparta"), "o.yaml", kits["athens"])
    assert findings(r) == [("error", 3, "this kit is the Athenians' own: it cannot check orders for sparta")]
    assert "write player: athens, or use sparta's kit" in r.to_text()


def test_an_old_kit_says_to_take_the_latest_one_not_to_write_an_old_turn(kits):
    r = check_text(ATHENS.replace("turn: 1", "turn: 2"), "o.yaml", kits["athens"])
    assert findings(r) == [("error", 2, "this kit is for game turn 1, your file for turn 2")]
    assert "the kit/ folder of your latest report" in r.to_text() and "write turn: 1" not in r.to_text()


def test_a_report_folder_given_as_campaign_points_at_its_kit(kits, tmp_path):
    f = tmp_path / "o.yaml"
    f.write_text(ATHENS)
    report_folder = kits["athens"].root.parent
    text, code = main(f, report_folder)
    assert code == 2 and f"is a report folder: check against its kit, --campaign {report_folder / 'kit'}" in text


def test_baggage_over_the_limit_says_each_skipped_entry_counts_for_nothing(demo):
    """Found by a player: three entries over the limit all said '12', which read as a wrong running total;
    each is skipped whole (R-TURN-4), so each would make it 12."""
    r = check_text(ATHENS + "recruit:\n" + "  - {city: athens, baggage: 6}\n" * 3, "o.yaml", demo)
    assert [m for _, _, m in findings(r)] == ["with this entry Athens would recruit 12 Baggage this turn; the limit "
                                              "is 6 per city (the entry is skipped)"] * 2


def test_a_battle_card_that_acts_on_no_unit_of_a_neutral_city_out_of_sight_is_caught(demo, tmp_path):
    """Found in a played game: an army marched next to neutral Corinth in its First Move and attacked it with
    Cavalry Pursuit (the loser's casualty rolls -1); the city had no units, so the adjudicator refused the whole
    attack, while the checker, not seeing the city at the start of the turn, said nothing."""
    from pbem.visibility import sight
    gm = demo.game_map
    state = demo.load_state()
    me = state.turn_order[0]
    abbr = state.players[me].abbr
    mine = {u.hex for u in state.units.values() if u.owner == me}
    # a neutral minor city, a land hex next to it, and a land hex two steps away from which a first move reaches it
    for cid, c in sorted(gm.cities.items()):
        if state.cities[cid].controller is not None:
            continue
        for near in gm.neighbours[c.hex]:
            for start in gm.neighbours[near]:
                if start == c.hex or gm.distance(start, c.hex) < 2 or not gm.terrain[start].land \
                        or not gm.terrain[near].land or not gm.terrain[start].passable or not gm.terrain[near].passable \
                        or gm.city_at.get(start) or gm.city_at.get(near) or start in mine:
                    continue
                break
            else:
                continue
            break
        else:
            continue
        break

    def placed(s: GameState):
        army = next(u for u in sorted(s.units.values(), key=lambda u: u.id)
                    if u.owner == me and u.type.value == "army")
        s.place(army, start)
        for u in list(s.units.values()):  # nothing of ours near the city but this army
            if u.owner == me and u.id != army.id and gm.distance(u.hex, c.hex) <= 3:
                s.remove_unit(u.id)
        s.players[me].hand = ["cavalry_pursuit"]
    camp = edited(demo, tmp_path, placed)
    s = camp.load_state()
    army = next(u.id for u in s.units.values() if u.owner == me and u.hex == start)
    if c.hex in sight(s, gm, me):  # the point is a city out of sight at the start of the turn
        pytest.fail(f"{c.hex} is in sight from {start}: pick another place")
    head = ATHENS.replace("athens", me).replace("ATH", abbr)
    text = (head + f"first_move:\n  - units: [{army}]\n    path: [\"{near}\"]\n"
            f"land_battle:\n  - units: [{army}]\n    target: \"{c.hex}\"\n"
            f"    cards: [{{card: cavalry_pursuit, if_needed: true}}]\n")
    r = check_text(text, "o.yaml", camp)
    assert [(sev, msg.split(" (")[0]) for sev, _, msg in but_unfed(findings(r))] == [
        ("error", "Cavalry Pursuit does nothing in this battle")], r.to_text()


def test_a_truce_in_force_is_reported_on_every_attack(demo, tmp_path):
    """R-TURN-4 and docs/rules.md (Truce): no one may attack while a Truce lasts; the attack is skipped, so
    the checker warns (well-formed, but it will not be made).  Everyone learns of a Truce (a public card)."""
    from pbem.model import Effect
    from pbem.visibility import redact
    thebes = "campaign: demo\nturn: 1\nplayer: thebes\nsecret: 7387-6821-22a3-7d36\n"
    text = thebes + ('first_move:\n  - units: ["1010"]\n    path: ["1011"]\n'
                     'land_battle:\n  - units: ["1011"]\n    target: "1112"\n')
    # played by Sparta in turn 1, so it lasts to the end of Sparta's player-turn of turn 2
    camp = edited(demo, tmp_path, lambda s: s.effects.append(
        Effect("truce", "truce", "sparta", None, 0, 2, "sparta")))
    assert findings(check_text(text, "o.yaml", camp)) == [
        ("warning", 9, "Truce (played by sparta) is in force in your player-turn: no one may attack, and this "
                       "attack will not be made")]
    kit_state = redact(camp.load_state(), camp.game_map, "thebes")  # what the player's own kit knows
    assert [(e.kind, e.player) for e in kit_state.effects] == [("truce", "sparta")]
    # over before this player-turn: nothing to say
    order = demo.load_state().turn_order
    assert order.index("thebes") > 0
    before = order[order.index("thebes") - 1]  # its Truce of last turn ends with its player-turn of this one
    camp2 = edited(demo, tmp_path / "2", lambda s: s.effects.append(
        Effect("truce", "truce", before, None, 0, 1, before)))
    assert findings(check_text(text, "o.yaml", camp2)) == []


def test_a_truce_in_your_own_cards_stops_your_own_attacks(demo, tmp_path):
    """docs/rules.md (Truce): "Truce stops the card player's own attacks too"; played in the own-turn cards,
    it is in force before the attacks of the same player-turn."""
    thebes = "campaign: demo\nturn: 1\nplayer: thebes\nsecret: 7387-6821-22a3-7d36\n"
    def truce_in_hand(s):  # swapped with the first card of the hand, wherever the one Truce was
        hand = s.players["thebes"].hand
        for pile in (s.deck, s.discard, *(p.hand for p in s.players.values())):
            if "truce" in pile:
                pile[pile.index("truce")] = hand[0]
                break
        hand[0] = "truce"
    camp = edited(demo, tmp_path, truce_in_hand)
    text = thebes + ('cards: [truce]\nfirst_move:\n  - units: ["1010"]\n    path: ["1011"]\n'
                     'land_battle:\n  - units: ["1011"]\n    target: "1112"\n')
    assert findings(check_text(text, "o.yaml", camp)) == [
        ("warning", 10, "your own Truce (at cards[0]) stops your attacks too: this attack will not be made if it is "
                        "played")]
    assert findings(check_text(text.replace("cards: [truce]\n", ""), "o.yaml", camp)) == []


def test_another_factions_unit_is_named_as_theirs_not_guessed_as_one_of_yours(demo):
    """A player never orders another faction's units; the hint says whose the unit is (found by a player-eyes
    review: SPA-A1 got 'did you mean ATH-A1?')."""
    r = check_text(ATHENS + 'first_move:\n  - units: [SPA-A1]\n    path: ["1212"]\n', "o.yaml", demo)
    [f] = [f for f in r.findings if "SPA-A1" in f.message]
    assert f.message == "SPA-A1 is not one of your units"
    assert f.hint == "SPA-A1 is a unit of the Spartans: you may order only your own units"


def test_an_unknown_unit_id_is_guessed_among_units_of_its_kind_first(demo):
    """ATH-A3 (Athens has Armies A1, A2 and Leaders L1-L3) is guessed as an Army, not the Leader ATH-L3, which
    may not fight (found by a player-eyes review)."""
    state = demo.load_state()
    assert "ATH-L3" in state.units and "ATH-A3" not in state.units and "ATH-A2" in state.units
    r = check_text(ATHENS + 'land_battle:\n  - units: [ATH-A3]\n    target: "1112"\n', "o.yaml", demo)
    [f] = [f for f in r.findings if "ATH-A3" in f.message]
    assert f.hint == "did you mean ATH-A2?", f.hint


def test_destroy_warns_that_the_city_you_take_is_razed(demo):
    """R-BAT-4: destroy razes the captured city to 6 counters; the checker says what that costs the player."""
    path = EXAMPLES[0].parent / "land_battle.yaml"
    r = check_text(path.read_text(encoding="utf-8"), "o.yaml", demo)
    assert [(f.severity, f.path, f.message) for f in r.findings] == [
        ("warning", "land_battle[0].destroy", "destroy razes Megara to 6 counters once you take it: while razed it "
                                              "pays you no income and feeds no upkeep (R-BAT-4)")]
    plunder_only = path.read_text(encoding="utf-8").replace("    destroy: true\n", "")
    assert not check_text(plunder_only, "o.yaml", demo).findings


def test_an_attack_from_where_a_skipped_move_would_have_taken_the_units_says_why_they_are_not_there(demo):
    """R-TURN-4: a move with an error is skipped; the attack that counted on it names that move (found by a
    player-eyes review: 'ATH-A1 is in 1313, not next to the target' after a move the player had written)."""
    state = demo.load_state()
    here = state.units["ATH-A1"].hex
    r = check_text(ATHENS + 'first_move:\n  - units: [ATH-A1, ATH-Z9]\n    path: ["1212"]\n'
                            'land_battle:\n  - units: [ATH-A1]\n    target: "1112"\n', "o.yaml", demo)
    [f] = [f for f in r.findings if f.path == "land_battle[0].units[0]"]
    # in the message, as the other knock-on findings say it (tests/test_newplayer_checker.py)
    assert f.message == (f"ATH-A1 is in {here}, not next to the target 1112, only because first_move[0] above has an "
                         f"error and is skipped, so ATH-A1 stays there: mend that error first")
    assert f.hint == "first_move[0]'s path ends in 1212, next to 1112"


def test_units_ending_the_turn_out_of_supply_are_warned_of_their_upkeep_roll(demo):
    """R-PH-UPK as a heads-up (found by a rules-savvy player review: Rowers aboard a Fleet one hex off home starved
    with no warning): a second move that leaves Armies or Rowers with no friendly city in or next to their hex."""
    away = check_text(ATHENS + 'second_move:\n  - units: [ATH-F1]\n    path: ["1314", "1315"]\n', "o.yaml", demo)
    assert ("warning", "second_move[0].path[1]",
            "ATH-R1 ends the turn in 1315 with no friendly city in or next to it: at your next Upkeep each without "
            "Baggage makes an upkeep roll (6 or more disbands it)") in [(f.severity, f.path, f.message)
                                                                        for f in away.findings]
    home = check_text(ATHENS + 'second_move:\n  - units: [ATH-F1]\n    path: ["1314"]\n', "o.yaml", demo)
    assert not [f for f in home.findings if "upkeep roll" in f.message]  # 1314 is next to Athens


def test_a_turn_of_1_0_or_true_is_not_a_whole_number(demo):
    """JSON Schema's integer takes 1.0; an order file's whole numbers do not (adversarial review)."""
    for value, shown in (("1.0", "1.0"), ("true", "True")):
        r = check_text(f"campaign: demo\nturn: {value}\nplayer: athens\nsecret: x\n", "o.yaml", demo)
        assert [(f.severity, f.line) for f in r.findings] == [("error", 2)], r.findings
        assert "whole number" in r.findings[0].message or "integer" in r.findings[0].message, r.findings[0]
    r = check_text(ATHENS + "recruit:\n  - {city: athens, baggage: 2.0}\n", "o.yaml", demo)
    assert [f.path for f in r.findings if f.severity == "error"] == ["recruit[0].baggage"], r.findings


def test_json_format_counts_notes(demo, tmp_path):
    """A city named again in diplomacy is a second try: a note, counted apart from errors and warnings."""
    f = tmp_path / "orders.yaml"
    f.write_text(ATHENS + "diplomacy: [megara, megara]\n")
    text, code = main(f, demo.root, "json")
    data = json.loads(text)
    assert code == 0 and data["errors"] == 0 and data["notes"] == 1, data
    assert [x["severity"] for x in data["findings"]] == ["note"]


def test_the_both_ways_check_puts_back_nested_bookkeeping_too():
    """``check_move_both_ways`` checks a Second Move as if an attack wins, then puts the checker's bookkeeping back
    as it was and checks it as if it fails.  A one-level copy shared nested lists (a code review: a dict of lists
    appended to in the first pass would have kept the 'won' outcome's entries); units and findings stay shared."""
    from pbem.checker import containers_copy
    unit = object()
    kept = {"moved": {"ATH-A1": [1, {2}]}, "seen": {"1314"}, "unit": unit, "pairs": [["a"]]}
    copy = containers_copy(kept)
    copy["moved"]["ATH-A1"].append(3)
    copy["moved"]["ATH-A1"][1].add(4)
    copy["seen"].add("1315")
    copy["pairs"][0].append("b")
    assert kept == {"moved": {"ATH-A1": [1, {2}]}, "seen": {"1314"}, "unit": unit, "pairs": [["a"]]}
    assert copy["unit"] is unit


def test_the_same_file_gets_the_same_words_whatever_the_hash_seed(tmp_path):
    """A review: a hint naming the unit a skipped move leaves behind was picked from a set, so `pbem check` and the
    stored reply named ATH-R1 and ATH-R2 for the same file (Python's string hashes change from run to run).  Four
    runs with different PYTHONHASHSEED now give the same text."""
    import os
    import subprocess
    import sys
    from pathlib import Path
    from demo_campaign import create_demo
    create_demo(tmp_path / "demo")
    code = ("import sys; sys.path.insert(0, sys.argv[2]); from demo_campaign import ATHENS; "
            "from pbem.storage import Campaign; from pbem.checker import check_text; "
            "body = 'first_move: [{units: [\"1313\"], path: [\"1314\"], partial: true}]\\n"
            "second_move: [{units: [ATH-F1, ATH-F2], path: [\"1313\"]}]\\n'; "
            "print('\\n'.join(f.text() for f in check_text(ATHENS + body, 'o.yaml', Campaign.open(sys.argv[1]))"
            ".findings))")
    outs = {subprocess.run([sys.executable, "-c", code, str(tmp_path / "demo"), str(Path(__file__).parent)],
                           capture_output=True, text=True, check=True,
                           env={**os.environ, "PYTHONHASHSEED": str(seed)}).stdout for seed in (1, 2, 3, 4)}
    assert len(outs) == 1, outs
    assert "which would move ATH-F1, has an error" in outs.pop()
