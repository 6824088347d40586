"""The demo campaign of the examples (examples/demo-campaign.yaml): the same one `pbem demo` starts from."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from pbem import yamlio
from pbem.campaign import create

DEMO_SPEC = Path(__file__).resolve().parent.parent / "examples" / "demo-campaign.yaml"


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
