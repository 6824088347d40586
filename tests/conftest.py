"""Test-wide settings.  Property tests run derandomized by default so CI is repeatable; set
PBEM_HYPOTHESIS=random to explore new examples locally."""
import os

from hypothesis import settings

settings.register_profile("repeatable", derandomize=True, database=None)
settings.register_profile("random", derandomize=False)
settings.load_profile("random" if os.environ.get("PBEM_HYPOTHESIS") == "random" else "repeatable")


import pytest  # noqa: E402


@pytest.fixture(autouse=True)
def _no_lock_wait(monkeypatch):
    """A command waits up to 30 s for another at work on the same campaign (``storage.LOCK_WAIT``); the tests that
    hold a lock to see a second command refused need not wait (tests/test_storage.py times the wait itself)."""
    from pbem import storage
    monkeypatch.setattr(storage, "LOCK_WAIT", 0.0)
