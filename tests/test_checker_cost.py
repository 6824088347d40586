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


def test_the_diplomacy_check_keeps_its_ways_few_whatever_the_file(tmp_path):
    """A cheater's review: the check of R-PH-DIP step 3 follows the ways the targets before may have gone (rolls
    used, cities a second try may find won); 18 cities each named twice, with 16 rolls, made 2^18 of them: 16 s and
    48 MB for one file, checked under the campaign's lock.  Beyond ``WAYS`` only the rolls used are kept (a target
    then counts as possibly rolled for).  Measured by memory, not time: a few hundred KB; without the cap 48 MB."""
    import tracemalloc
    from demo_campaign import ATHENS, edited, first

    def many_rolls(s) -> None:
        first(s, "athens")
        s.cities["athens"].razed = 2  # no experience roll: the rolls are known
        s.units["ATH-L3"].skills.extend(["intrigue"] * 14)  # 16 diplomacy rolls, with the free one and Benevolent
    camp = edited(create_demo(tmp_path / "demo"), tmp_path / "edited", many_rolls)
    state = camp.load_state()
    neutral = [c for c, v in sorted(state.cities.items()) if v.controller is None and v.home_of is None][:18]
    text = ATHENS + "diplomacy: [" + ", ".join(neutral * 2) + "]\n"
    check_text(text, "o.yaml", camp)  # once before measuring: what is read and cached the first time
    tracemalloc.start()
    try:
        report = check_text(text, "o.yaml", camp)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 5_000_000, peak
    # the answer is still the file's (the same as without the cap): 16 rolls, so the 17th and 18th cities are never
    # rolled for, at their first tries and their second
    errors = [f.path for f in report.errors if f.path.startswith("diplomacy")]
    assert errors == ["diplomacy[16]", "diplomacy[17]", "diplomacy[34]", "diplomacy[35]"], report.to_text()
