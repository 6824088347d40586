"""Seeded, logged dice (R-TURN-6).  Every die of the game goes through one ``Dice`` object.

The generator is SHA-256 in counter mode: block *i* is ``sha256(seed || i)``, read 8 bytes at a time, and a
die of *n* sides takes the first 64-bit word below the largest multiple of *n* (no modulo bias).  It is
specified in these few lines so that anyone holding the revealed campaign seed can re-derive every roll
with any language, and it does not depend on Python's ``random`` module.

Rules code never imports ``random``: it is handed a ``Dice`` (or a ``ScriptedDice`` in tests).
"""
from __future__ import annotations

import hashlib
import hmac
import struct
from typing import Any, Iterable, MutableSequence, Sequence, TypeVar

T = TypeVar("T")
_WORD = 1 << 64
_LIMIT = {n: _WORD - (_WORD % n) for n in (3, 6, 10, 100)}  # the usual dice's "largest multiple of n"
_NAME = {n: f"1D{n}" for n in (3, 6, 10, 100)}


def setup_seed(secret: bytes) -> bytes:
    """Set-up uses the campaign's secret seed alone."""
    return hashlib.sha256(b"pbem/setup/" + secret).digest()


def turn_key(secret: bytes, turn: int) -> bytes:
    """The key of one game turn, HMAC-SHA256(secret seed, "pbem/turn-key/T").  Publishing it lets anyone
    check that turn's dice without learning the secret seed or any other turn's dice."""
    return hmac.new(secret, f"pbem/turn-key/{turn}".encode(), hashlib.sha256).digest()


def key_commitment(key: bytes) -> str:
    """The public SHA-256 of one turn's key: published at set-up (``turn-keys.txt``), it binds the moderator to
    the key before any order is in, and shows nothing of the key itself."""
    return hashlib.sha256(key).hexdigest()


def key_commitments(secret: bytes, last_turn: int) -> str:
    """The text of ``turn-keys.txt``: a comment line, then one line ``T SHA256`` per game turn 1..last_turn, the
    ``key_commitment`` of ``turn_key(secret, T)``.  Its own SHA-256 is the turn-key fingerprint."""
    lines = ["# pbem turn keys: line T holds the SHA-256 of game turn T's key (`pbem turn-key`), fixed by the seed\n"]
    lines += [f"{t} {key_commitment(turn_key(secret, t))}\n" for t in range(1, last_turn + 1)]
    return "".join(lines)


def seed_from_key(key: bytes, turn: int, order_hashes: Sequence[str], start: str | None = None) -> bytes:
    """HMAC-SHA256(turn key, "pbem/turn/T/" + the order hashes joined by "/"); with ``start`` (the SHA-256 hex of
    the turn's start snapshot, campaigns made since 0.6.0), HMAC-SHA256(turn key, "pbem/turn/T/start/START/" + the
    order hashes joined by "/")."""
    text = f"pbem/turn/{turn}/" + (f"start/{start}/" if start is not None else "") + "/".join(order_hashes)
    return hmac.new(key, text.encode(), hashlib.sha256).digest()


def turn_seed(secret: bytes, turn: int, order_hashes: Sequence[str], start: str | None = None) -> bytes:
    """R-TURN-6: secret seed, game turn and the hashes of the accepted order files, in turn order.

    ``order_hashes`` holds one entry per player in turn order: the SHA-256 hex of the accepted file, or
    ``"-"`` for a player without one (NMR).  Nobody can know the dice before the last file is in.
    ``start``: the SHA-256 hex of the position the turn starts from (its start snapshot as stored), so that a
    turn run again from another position (an earlier turn rolled back and run to another result) never deals
    the dice its players saw for the same files, while the same position and files replay the same dice
    (``state_sha256``; a decision recorded in docs/rules.md under R-TURN-6).
    """
    return seed_from_key(turn_key(secret, turn), turn, order_hashes, start)


def state_sha256(snapshot: bytes | str) -> str:
    """The SHA-256 hex of a start snapshot as stored (``GameState.to_json`` in UTF-8): ``turn_seed``'s ``start``."""
    return hashlib.sha256(snapshot.encode() if isinstance(snapshot, str) else snapshot).hexdigest()


def seed_fingerprint(secret: bytes) -> str:
    """The public SHA-256 of the secret seed, published at set-up."""
    return hashlib.sha256(secret).hexdigest()


class Dice:
    """Dice(seed).d6("upkeep roll ATH-A1") -> 1..6, and the roll is appended to ``rolls``.

    Each roll is kept as the ``roll`` part of its log record, ``{"die", "result", "purpose", **context}``,
    built once when it is rolled: ``drain`` hands these dicts to the event log as they are.
    """

    def __init__(self, seed: bytes):
        self._seed = seed
        self._block = 0
        self._words: list[int] = []  # the current block's unread 64-bit words, the next one last
        self.rolls: list[dict[str, Any]] = []  # the rolls not drained yet, first to last
        self.context: dict[str, Any] = {}

    # -- the generator -------------------------------------------------------------------------------
    def _word(self) -> int:
        words = self._words
        if not words:  # block i: its 32 bytes read as four big-endian 64-bit words, first to last
            words.extend(reversed(struct.unpack(">4Q", hashlib.sha256(self._seed + self._block.to_bytes(8, "big"))
                                                .digest())))
            self._block += 1
        return words.pop()

    def _below(self, n: int) -> int:
        limit = _LIMIT.get(n) or _WORD - (_WORD % n)
        while True:
            w = self._word()
            if w < limit:
                return w % n

    def _draw(self, sides: int, purpose: str) -> int:
        return self._below(sides) + 1

    # -- dice of the rules ---------------------------------------------------------------------------
    def roll(self, sides: int, purpose: str, **context: Any) -> int:
        return self._logged(sides, purpose, context)

    def _logged(self, sides: int, purpose: str, context: dict[str, Any]) -> int:
        value = self._draw(sides, purpose)
        self.rolls.append({"die": _NAME.get(sides) or f"1D{sides}", "result": value, "purpose": purpose,
                           **self.context, **context})
        return value

    def d3(self, purpose: str, **context: Any) -> int:
        return self._logged(3, purpose, context)

    def d6(self, purpose: str, **context: Any) -> int:
        return self._logged(6, purpose, context)

    def d10(self, purpose: str, **context: Any) -> int:
        return self._logged(10, purpose, context)

    def d100(self, purpose: str, **context: Any) -> int:
        """1..100; the table's "00" is 100."""
        return self._logged(100, purpose, context)

    def d66(self, purpose: str, **context: Any) -> int:
        """Two six-sided dice read as tens and units: 11..66 (R-SET-4)."""
        tens = self._draw(6, purpose)
        units = self._draw(6, purpose)
        value = tens * 10 + units
        self.rolls.append({"die": "D66", "result": value, "purpose": purpose, **self.context, **context})
        return value

    def dice(self, count: int, sides: int, purpose: str, **context: Any) -> list[int]:
        """Roll ``count`` dice of ``sides`` (e.g. 3D6 for plunder), each logged."""
        return [self._logged(sides, purpose, context) for _ in range(count)]

    def roll_spec(self, spec: str, purpose: str, **context: Any) -> list[int]:
        """A table's dice field: roll_spec("2D6", ...) -> two 1D6 results, each logged."""
        count, _, sides = spec.upper().partition("D")
        return self.dice(int(count or 1), int(sides), purpose, **context)

    def shuffle(self, items: MutableSequence[T], purpose: str) -> None:
        """Fisher-Yates in place; logged as one entry (the draws are not dice anyone reads)."""
        for i in range(len(items) - 1, 0, -1):
            j = self._below(i + 1)
            items[i], items[j] = items[j], items[i]
        self.rolls.append({"die": "shuffle", "result": len(items), "purpose": purpose, **self.context})

    def choice(self, items: Sequence[T], purpose: str) -> T:
        if not items:
            raise ValueError("choice from nothing")
        index = self._below(len(items))
        self.rolls.append({"die": f"pick1of{len(items)}", "result": index + 1, "purpose": purpose, **self.context})
        return items[index]

    def token(self, label: str) -> bytes:
        """A derived 32-byte value (not a die): e.g. for a player's default secret."""
        return hashlib.sha256(self._seed + b"/token/" + label.encode()).digest()

    def drain(self) -> list[dict[str, Any]]:
        """The rolls not drained yet, as their records' ``roll`` dicts; they leave ``rolls``."""
        out = self.rolls[:]
        self.rolls.clear()
        return out


class DiceExhausted(AssertionError):
    """A scripted test ran out of dice: the scenario needs more values than it scripted."""


class ScriptedDice(Dice):
    """Dice that return scripted values in order (like boardgame.io's MockRandom), for scenario tests.

    ``ScriptedDice([6, 3, 10])`` answers the next three dice with 6, 3 and 10 whatever their purpose, and
    raises ``DiceExhausted`` when asked for more.  A value that does not fit the die raises too, so a test
    that scripts the wrong die fails loudly.  ``shuffle`` keeps the order unless ``shuffle_fallback`` is set.
    """

    def __init__(self, values: Iterable[int] = (), seed: bytes = b"scripted"):
        super().__init__(seed)
        self.values = list(values)
        self.used = 0

    def _draw(self, sides: int, purpose: str) -> int:
        if self.used >= len(self.values):
            raise DiceExhausted(f"no scripted die left for 1D{sides} ({purpose}); {self.used} used")
        value = self.values[self.used]
        self.used += 1
        if not 1 <= value <= sides:
            raise DiceExhausted(f"scripted value {value} does not fit 1D{sides} ({purpose})")
        return value

    def shuffle(self, items: MutableSequence[T], purpose: str) -> None:
        self.rolls.append({"die": "shuffle", "result": len(items), "purpose": purpose, **self.context})

    def choice(self, items: Sequence[T], purpose: str) -> T:
        return items[self._draw(len(items), purpose) - 1]

    @property
    def remaining(self) -> int:
        return len(self.values) - self.used
