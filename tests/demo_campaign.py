"""The demo campaign of the examples (examples/demo-campaign.yaml): the same one `pbem demo` starts from."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from pbem import yamlio
from pbem.campaign import create

DEMO_SPEC = Path(__file__).resolve().parent.parent / "examples" / "demo-campaign.yaml"
# order file headers for turn 1 of the demo (Athens' secret as examples/orders/ give it; others' read "x")
ATHENS = "campaign: demo\nturn: 1\nplayer: athens\nsecret: b6bf-5bc2-a03d-344d\n"
SPARTA = "campaign: demo\nturn: 1\nplayer: sparta\nsecret: x\n"
CORINTH = "campaign: demo\nturn: 1\nplayer: corinth\nsecret: x\n"


def demo_spec(path: Path | str = DEMO_SPEC) -> dict[str, Any]:
    data = yamlio.load_data(path)
    assert isinstance(data, dict) and isinstance(data.get("players"), list), f"{path}: needs players and seed"
    return data


def create_demo(root: Path | str, spec_path: Path | str = DEMO_SPEC):
    """Create the demo campaign described by ``examples/demo-campaign.yaml`` in ``root`` (a new folder)."""
    spec = demo_spec(spec_path)
    return create(root, [str(p) for p in spec["players"]], seed=str(spec["seed"]), name=spec.get("name")).campaign


def edited(demo, tmp_path: Path, change):
    """A copy of the demo campaign whose state ``change(state)`` altered (the copy's Campaign)."""
    import shutil
    from pbem.storage import Campaign
    root = tmp_path / "demo"
    shutil.copytree(demo.root, root)
    camp = Campaign.open(root)
    state = camp.load_state()
    change(state)
    camp.save_state(state)
    return Campaign.open(root)


def said(report) -> list[tuple[str, str, str]]:
    """A checker report's findings as (severity, field, message)."""
    return [(f.severity, f.path, f.message) for f in report.findings]


def first(state, player: str) -> None:
    """Make ``player`` first in turn order (nothing moves before them: the checker's findings are errors)."""
    state.turn_order = [player] + [p for p in state.turn_order if p != player]


def athens_human_sparta_bot(tmp_path: Path, now, current_file: bool = True, **body):
    """A 2-player campaign ("mod", seed 4, 5 turns) run to turn 3: athens human, with a file each turn (``body``
    its orders; with ``current_file``, turn 3's too), sparta the computer player.  Returns (campaign,
    athens(turn, **body) -> the bytes of an athens file)."""
    from pbem.cycle import run_turn, set_seat
    from pbem.intake import submit_bytes
    c = create(tmp_path / "c", ["athens", "sparta"], seed="4", name="mod", options=["last_turn=5"]).campaign
    set_seat(c, "sparta", "bot")

    def athens(turn, **more):
        data = {"campaign": "mod", "turn": turn, "player": "athens", "secret": c.player_secrets()["athens"], **more}
        return yamlio.dump(data).encode()
    for turn in (1, 2):
        assert submit_bytes(c, athens(turn, **body), "a.yaml", now).accepted
        run_turn(c, now, reports=False)
    if current_file:
        assert submit_bytes(c, athens(3), "a.yaml", now).accepted
    return c, athens
