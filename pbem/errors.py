"""The library's exceptions.  Only the CLI turns them into exit codes (2 for unusable input)."""
from __future__ import annotations


class PbemError(Exception):
    """A user-facing problem: its message is one line naming the file, field or value at fault."""

    exit_code = 2


class UsageError(PbemError):
    """A command was given arguments it cannot use (unknown player, bad seed, ...)."""


class DataError(PbemError):
    """A data file (map, table, campaign config, state snapshot) is broken."""


class MapError(DataError):
    """A map file is broken: the message names the file and the bad entry."""


class CampaignError(PbemError):
    """The campaign folder is missing, locked or inconsistent."""


class OrderSyntaxError(PbemError):
    """Invalid: an order file that cannot be understood (YAML or schema error)."""


class IllegalOrder(PbemError):
    """Illegal: an order that is understood but not allowed by the rules or the current state."""
