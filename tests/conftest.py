"""Test-wide settings.  Property tests run derandomized by default so CI is repeatable; set
PBEM_HYPOTHESIS=random to explore new examples locally."""
import os

from hypothesis import settings

settings.register_profile("repeatable", derandomize=True, database=None)
settings.register_profile("random", derandomize=False)
settings.load_profile("random" if os.environ.get("PBEM_HYPOTHESIS") == "random" else "repeatable")
