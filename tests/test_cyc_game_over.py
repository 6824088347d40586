"""A soak test: once the game was over, `seat` printed a new secret and `adjust` changed the final snapshot, exit
code 0, though no more orders are taken and the victory would not be judged again.  Both are refused now, with
one line, exit code 2, nothing changed; `rollback` is the way to mend the last turn."""
from cyc_common import pbem, tree


def test_seat_and_adjust_are_refused_once_the_game_is_over(tmp_path):
    root = tmp_path / "c"
    r = pbem("new", root, "--players", "athens,sparta", "--seed", "3", "--option", "last_turn=1")
    assert r.exit_code == 0, r.output
    r = pbem("run-turn", root, "--force", "--no-reports")
    assert r.exit_code == 0 and "The game is over" in r.output, r.output
    before = tree(root)
    for args in (("seat", root, "athens", "bot", "--reason", "gone"),
                 ("adjust", root, "--reason", "typo", "--gold", "athens=+1")):
        r = pbem(*args)
        assert r.exit_code == 2, (args[0], r.output)
        assert "the game is over (after turn 1)" in r.output and "nothing was changed" in r.output, r.output
        assert len(r.output.strip().splitlines()) == 1, r.output
    assert "pbem rollback" in r.output  # adjust says how to mend the last turn
    assert tree(root) == before
    r = pbem("rollback", root, "1", "--reason", "mend the last turn")
    assert r.exit_code == 0, r.output
    r = pbem("adjust", root, "--reason", "typo", "--gold", "athens=+1")
    assert r.exit_code == 0, r.output
