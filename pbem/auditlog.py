"""The audit.log lines more than one module reads back, as patterns: `verify` replays a campaign's history from
them, and `run-turn` (``pbem.cycle.recorded_files``) asks which order file each player's was when it was stored.
One spelling here, so the two cannot drift apart from the lines intake, the turn and rollback write."""
from __future__ import annotations

import re

# each is matched at the start of an audit line, after its time stamp, so no file name can forge one
ADJUDICATED = re.compile(r"^\S+ adjudicated turn (\d+); orders ([^\s;]+)(?: \(computer players ([^\s;)]+)\))?"
                         r"(?:; start sha256 ([0-9a-f]{64}))?")
ACCEPTED = re.compile(r"^\S+ intake accepted .* for (\S+) turn (\d+) \(sha256 ([0-9a-f]{12,64})\)( as a moderator's fix)?"
                      r"(?:, forced after (.*))?$")
# `pbem rollback`: (time stamp, turn, first and last turn whose run was undone (older lines: none), archive folder,
# reason)
ROLLBACK = re.compile(r"^(\S+) rollback to turn (\d+) \((?:undone: the run of turns? (\d+)(?:\.\.(\d+))?; )?later turns "
                      r"moved to ([^\s;)]+)(?:; adjustments lost: .*?)?\): (.*)$")
