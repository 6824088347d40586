"""A lasting effect aimed at a hex (Hesitation on the stack standing there) is known to the stack's owner the way
it is known to the card's player: listed in force in the view and the kit while it lasts, its start and its end
told (a review: the Athenians were told Hesitation held their stack, never that it stopped).  A player with no
unit there learns nothing of it past the public card (visibility.effect_known, one answer for state and log)."""
from __future__ import annotations

from pbem import report
from pbem.dice import ScriptedDice
from pbem.visibility import events_for, redact, view
from scenario import TABLES, TINY, add, give, make_state, orders, run_turn

EFFECT_KINDS = ("effect_starts", "effect_ends")


def hesitation_game():
    """Sparta, Troy, Athens in that order: Athens' Army in 0402 attacks Sparta's in 0503 and Sparta's standing
    Hesitation stops it.  The effect lasts through Athens' player-turn, the last of game turn 1, so it is still
    in the state at the end of the turn and ends as Sparta's player-turn of game turn 2 starts.  Troy (0903)
    sees nothing of 0402 or 0503."""
    s = make_state(players=("sparta", "troy", "athens"))
    a1 = add(s, "athens", "army", "0402")
    add(s, "athens", "army", "0302")
    add(s, "sparta", "army", "0503")
    add(s, "sparta", "army", "0505")
    add(s, "troy", "army", "0903")
    give(s, "sparta", "hesitation")
    s.players["sparta"].standing = {"reactions": ["hesitation"]}
    dice = ScriptedDice([1] * 40)  # upkeep rolls, whatever else is asked
    turns = []
    for t in (1, 2):
        before = s.copy()
        o = {p: orders(p, turn=t) for p in s.turn_order}
        if t == 1:
            o["athens"] = orders("athens", turn=1, land_battle=[{"units": [a1.id], "target": "0503"}])
        log = run_turn(s, o, dice)
        turns.append((before, s.copy(), log.records))
    return turns


def told(turn, player):
    before, after, records = turn
    return [r for r in events_for(records, player, TINY, [before, after]) if r.get("event") in EFFECT_KINDS]


def report_text(turn, player):
    before, after, records = turn
    ctx = report.build_context("t", before.turn, TINY, TABLES, after, before, records, player)
    files = report.render_all(report.environment(), ctx, TINY, ("txt", "svg"))
    return " ".join(files["report.txt"].decode().split()), files["map.svg"].decode()  # the text unwrapped


def test_the_owner_of_a_stack_held_by_hesitation_knows_it_while_it_lasts_and_is_told_its_end():
    t1, t2 = hesitation_game()
    after1 = t1[1]
    assert [(e.kind, e.target) for e in after1.effects] == [("cannot_attack", "0402")]
    # in force at the end of turn 1 (through Athens' player-turn): Athens' view and kit list it, as Sparta's do
    for p in ("athens", "sparta"):
        assert [(e["kind"], e["target"]) for e in view(after1, TINY, p)["effects"]] == [("cannot_attack", "0402")]
        assert [(e.kind, e.target) for e in redact(after1, TINY, p).effects] == [("cannot_attack", "0402")]
    # its start in turn 1 and its end in turn 2 (Sparta's Draw phase) told to both
    for p in ("athens", "sparta"):
        assert [(r["event"], r["target"]) for r in told(t1, p)] == [("effect_starts", "0402")]
        assert [(r["event"], r["target"], r["why"]) for r in told(t2, p)] == [("effect_ends", "0402", "expired")]
    text, _ = report_text(t2, "athens")
    assert "No longer in force (expired): Hesitation (played by the Spartans): the stack in 0402" in text


def test_a_player_with_no_unit_there_and_no_sight_learns_nothing_of_the_effect():
    t1, t2 = hesitation_game()
    after1 = t1[1]
    assert "0402" not in view(after1, TINY, "troy")["visible_hexes"]
    assert view(after1, TINY, "troy")["effects"] == [] and redact(after1, TINY, "troy").effects == []
    kit = redact(after1, TINY, "troy").to_json()
    assert "cannot_attack" not in kit and "0402" not in kit
    assert told(t1, "troy") == [] and told(t2, "troy") == []
    for turn in (t1, t2):
        text, svg = report_text(turn, "troy")
        for words in ("0402", "may not attack", "No longer in force", "cannot_attack"):
            assert words not in text, words
        assert "may not attack" not in svg and "cannot_attack" not in svg
    # the card itself was played openly: Troy's report says so, and nothing more
    assert "Spartans played Hesitation in a battle out of your sight" in report_text(t1, "troy")[0]


def test_a_truce_is_told_to_everyone_from_start_to_end_as_the_state_lists_it_to_everyone():
    """Truce binds everyone (PUBLIC_EFFECTS): every view listed it in force, yet only its player read its start and
    its end.  One answer now (``effect_known``): every player reads both."""
    s = make_state(players=("athens", "sparta", "troy"))
    add(s, "athens", "army", "0302"), add(s, "sparta", "army", "0505"), add(s, "troy", "army", "0903")
    give(s, "athens", "truce")
    dice = ScriptedDice([1] * 40)
    seen = {p: [] for p in s.turn_order}
    for t in (1, 2):
        before = s.copy()
        o = {p: orders(p, turn=t) for p in s.turn_order}
        if t == 1:
            o["athens"] = orders("athens", turn=1, cards=[{"card": "truce"}])
        log = run_turn(s, o, dice)
        for p in s.turn_order:
            seen[p] += [(r["event"], r["effect"]) for r in told((before, s, log.records), p)]
            if t == 1:
                assert [e["kind"] for e in view(s, TINY, p)["effects"]] == ["truce"]
    for p in s.turn_order:
        assert seen[p] == [("effect_starts", "truce"), ("effect_ends", "truce")], p
