"""What a hostile order file costs the checker (a cheater's review): a 215 KB file naming 30,000 unknown unit ids
took 17 s to check, each id fuzzy-matched three times for a "did you mean", and intake checks under the
campaign's lock, so a deadline's `run-turn` was refused meanwhile.  The guesses stop after ``GUESSES``; the later
unknown ids get the list of the player's units instead."""
from pbem.campaign import create_demo
from pbem.checker import GUESSES, check_text


def test_did_you_mean_guesses_for_unknown_units_stop_after_a_hundred(tmp_path):
    camp = create_demo(tmp_path / "demo")
    moves = "".join(  # not Athens' ids: near misses of them, 50 to a move (a list holds at most 100)
        f"  - units: [{', '.join(f'ATH-A{n}' for n in range(k, k + 50))}]\n    path: ['1314']\n"
        for k in range(100, 100 + GUESSES + 50, 50))
    text = f"campaign: demo\nturn: 1\nplayer: athens\nsecret: x\nfirst_move:\n{moves}"
    report = check_text(text, "o.yaml", camp)
    unknown = [f for f in report.findings if f.message.endswith("is not one of your units")]
    assert len(unknown) == GUESSES + 50
    guessed = [f for f in unknown if (f.hint or "").startswith("did you mean")]
    listed = [f for f in unknown if (f.hint or "").startswith("your units: ")]
    assert len(guessed) == GUESSES and len(listed) == 50, (len(guessed), len(listed))
    assert unknown[0].hint.startswith("did you mean ATH-A") and unknown[-1] in listed
