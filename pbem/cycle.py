"""The turn cycle of a campaign: deadlines, who is in, and running a turn when it is due (R-TURN-5).

The clock is a parameter (``now``), never read here, so tests pin it.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from typing import Any

from .errors import UsageError
from .storage import Campaign


def parse_when(text: str, now: datetime) -> datetime:
    """'2026-12-01', '2026-12-01T18:00', '2026-12-01 18:00Z' or '+7d' / '+36h' -> an aware UTC datetime."""
    t = str(text).strip()
    if t.startswith("+") and t[-1:] in ("d", "h") and t[1:-1].isdigit():
        n = int(t[1:-1])
        return now + (timedelta(days=n) if t.endswith("d") else timedelta(hours=n))
    try:
        when = datetime.fromisoformat(t.replace("Z", "+00:00").replace(" ", "T"))
    except ValueError:
        raise UsageError(f"deadline {text!r}: write a date like 2026-12-01, 2026-12-01T18:00 (UTC) or +7d") from None
    if when.tzinfo is None:
        when = when.replace(tzinfo=timezone.utc)
        if len(t) == 10:  # a bare date: the end of that day
            when = when.replace(hour=23, minute=59)
    return when.astimezone(timezone.utc)


def fmt(when: datetime | None) -> str:
    return when.strftime("%Y-%m-%d %H:%M UTC") if when else "none set"


def deadline(camp: Campaign) -> datetime | None:
    raw = camp.config.get("deadline")
    if not raw:
        return None
    try:
        return parse_when(str(raw), datetime.now(timezone.utc))
    except UsageError:
        from .errors import CampaignError
        raise CampaignError(f"{camp.config_path}: deadline {raw!r} is not a date; fix it with `pbem deadline`") \
            from None


def set_deadline(camp: Campaign, text: str, now: datetime) -> datetime:
    when = parse_when(text, now)
    config = dict(camp.config)
    config["deadline"] = when.strftime("%Y-%m-%dT%H:%MZ")
    camp.write_config(config)
    camp.audit(f"deadline of turn {camp.current_turn} set to {fmt(when)}")
    return when


@dataclass
class Status:
    turn: int
    finished: bool
    deadline: datetime | None
    submitted: list[str]
    missing: list[str]
    nmr_streaks: dict[str, int]
    civil_disorder: list[str]
    seats: dict[str, str]

    def due(self, now: datetime) -> bool:
        """All players in, or the deadline passed."""
        return not self.finished and (not self.missing or (self.deadline is not None and now >= self.deadline))

    def render(self, now: datetime) -> str:
        lines = [f"Game turn {self.turn}" + (" (the game is over)" if self.finished else "")]
        if self.deadline:
            left = self.deadline - now
            if left.total_seconds() >= 0:
                lines.append(f"Deadline: {fmt(self.deadline)} ({left.days} days {left.seconds // 3600} hours left)")
            else:
                lines.append(f"Deadline: {fmt(self.deadline)} (passed)")
        else:
            lines.append("Deadline: none set (`pbem deadline DIR DATE`)")
        lines.append("Orders in: " + (", ".join(self.submitted) or "none"))
        lines.append("Waiting for: " + (", ".join(self.missing) or "nobody"))
        for p, n in self.nmr_streaks.items():
            if n:
                note = " -> civil disorder" if p in self.civil_disorder else ""
                lines.append(f"  {p}: {n} turn(s) without orders in a row{note}")
        bots = [p for p, s in self.seats.items() if s == "bot"]
        if bots:
            lines.append("Computer players: " + ", ".join(bots))
        lines.append("Due: " + ("yes, `pbem run-turn` will adjudicate" if self.due(now) else "not yet"))
        return "\n".join(lines) + "\n"


def status(camp: Campaign) -> Status:
    state = camp.load_state()
    folder = camp.orders_dir(state.turn)
    active = state.active_players()
    submitted = [p for p in active if (folder / f"{p}.yaml").is_file()]
    missing = [p for p in active if p not in submitted and state.players[p].seat != "bot"]
    after = int(camp.config.get("civil_disorder_after", 3))
    streaks = {p: state.players[p].nmr_streak for p in active}
    return Status(state.turn, state.finished, deadline(camp), submitted, missing, streaks,
                  [p for p, n in streaks.items() if n >= after], {p: state.players[p].seat for p in active})


def next_deadline(camp: Campaign, previous: datetime | None, now: datetime) -> str | None:
    days = camp.config.get("turn_days")
    if not days:
        return None
    base = max(previous, now) if previous else now
    return (base + timedelta(days=int(days))).strftime("%Y-%m-%dT%H:%MZ")


def config_with(camp: Campaign, **changes: Any) -> dict[str, Any]:
    config = dict(camp.config)
    config.update(changes)
    return config
