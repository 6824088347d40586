"""Where the packaged folders are: ``schemas/`` and ``templates/`` live at the top of the source tree and are
installed as ``pbem.schemas`` and ``pbem.templates``.  From a source checkout (tests run from the repository
root import ``pbem`` from there) they are found beside the package instead."""
from __future__ import annotations

from importlib import resources
from importlib.abc import Traversable
from pathlib import Path


def folder(name: str, installed: str | None = None) -> Traversable:
    """``folder("schemas")`` -> the installed ``pbem.schemas`` or the source tree's ``schemas/``; ``installed``:
    the package's name where it is not the folder's (``folder("orders", "orderfiles")``).  A ``pbem``
    imported from a source tree (it has ``pyproject.toml`` beside the package) reads that tree's folder, whatever
    is installed: an editable install maps ``pbem.schemas`` to the tree it was made from, which is not this one
    when the code runs from another checkout (a git worktree) with the same virtual environment."""
    tree = Path(__file__).resolve().parent.parent
    if (tree / "pyproject.toml").is_file() and (tree / name).is_dir():
        return tree / name
    try:
        return resources.files(f"pbem.{installed or name}")
    except ModuleNotFoundError:
        here = Path(__file__).resolve().parent.parent / name
        if here.is_dir():
            return here
        raise
