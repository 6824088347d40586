"""Order files: YAML -> JSON Schema -> typed ``Orders`` (R-TURN-1, R-STAND-1).

An order file is read with the safe loader (``pbem.yamlio``: no anchors, tags, duplicate keys ...), checked
against ``schemas/orders.schema.json`` (every error, not just the first, each with the line and column it
stands on and a hint), and turned into ``pbem.ordertypes.Orders``.  Entries that break the schema are left
out of the ``Orders`` built for the rule checks (``pbem.checker``), so one typo does not hide the other
findings; the original position of every kept entry is remembered, so later findings still name the right
line.

``load_orders`` is the strict entry point for code that needs the orders or an ``OrderSyntaxError``.
"""
from __future__ import annotations

import copy
import dataclasses
import difflib
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterable

import jsonschema

from . import yamlio
from .errors import OrderSyntaxError
from .gamedata import json_path, schema
from .ordertypes import Orders, normal_case

SCHEMA_NAME = "orders.schema.json"
HEADER_KEYS = ("campaign", "turn", "player", "secret")
LIST_SECTIONS = ("discard", "upkeep", "recruit", "diplomacy", "cards", "first_move", "sea_battle", "land_battle",
                 "second_move")
STANDING_LISTS = ("defence_cards", "reactions", "discard", "upkeep")

Path_ = tuple  # a JSON path: keys and list indexes


class KeyText(str):
    """A mapping key that is not text (``1313:``, read by YAML as a number), as it stands in a problem's path:
    ``standing.retreat.1313``, like the path of a value under a key in quotes (``standing.retreat.1212[0]``).
    ``key`` is the key itself, to find its place in the file."""

    key: Any

    def __new__(cls, key: Any, text: str) -> "KeyText":
        obj = super().__new__(cls, text)
        obj.key = key
        return obj


def real_path(path: Iterable) -> Path_:
    """A problem's path with its ``KeyText`` parts back to the keys of the data."""
    return tuple(p.key if isinstance(p, KeyText) else p for p in path)


@dataclass(frozen=True)
class Problem:
    """One thing in the file the schema does not accept.  ``at_key``: the mark is the key's, not the value's."""

    path: Path_
    message: str
    hint: str | None = None
    at_key: bool = False
    missing: str | None = None  # a required key that is missing


@dataclass
class Parsed:
    """What an order file says: the located data, the schema problems, and the orders built from the rest.

    ``orders`` is None when nothing usable is left (no mapping at the top, or an unusable header).  ``kept``
    maps a list section's path to the original indexes of the entries that were kept, in order.
    """

    located: yamlio.Located
    problems: list[Problem]
    orders: Orders | None = None
    kept: dict[Path_, list[int]] = field(default_factory=dict)
    bad_header: set[str] = field(default_factory=set)

    @property
    def data(self) -> Any:
        return self.located.data

    def where(self, path: Iterable, at_key: bool = False) -> tuple[int, int] | None:
        path = real_path(path)
        if at_key and path:
            mark = self.located.marks.get(("@key",) + path)
            if mark:
                return mark
        return self.located.where(path)

    def indexed(self, *section: str | int) -> list[tuple[int, Any]]:
        """(original index, entry) of the kept entries of a list section, e.g. ``indexed("standing", "discard")``."""
        obj: Any = self.orders
        for part in section:
            obj = getattr(obj, part) if obj is not None else None
        if not obj:
            return []
        idx = self.kept.get(tuple(section), list(range(len(obj))))
        return list(zip(idx, obj))


# -- the schema ----------------------------------------------------------------------------------------

def orders_schema() -> dict[str, Any]:
    return schema(SCHEMA_NAME)


# JSON Schema's "integer" takes 1.0 (a number with no fraction); an order file's whole numbers are written as
# such (turn: 3, baggage: 2): 1.0 is refused, as true is
_WHOLE = jsonschema.Draft202012Validator.TYPE_CHECKER.redefine(
    "integer", lambda checker, v: isinstance(v, int) and not isinstance(v, bool))
_OrdersValidator = jsonschema.validators.extend(jsonschema.Draft202012Validator, type_checker=_WHOLE)


@lru_cache(maxsize=None)
def _validator() -> jsonschema.Draft202012Validator:
    return _OrdersValidator(orders_schema())


def _defs() -> dict[str, Any]:
    return orders_schema()["$defs"]


def _keys_at(sch: dict[str, Any]) -> list[str]:
    return list(sch.get("properties", {}))


def _all_keys() -> dict[str, str]:
    """Every key the format knows -> where it belongs ("top level", "standing", "a move" ...)."""
    out: dict[str, str] = {}
    for k in _keys_at(orders_schema()):
        out.setdefault(k, "the top level")
    d = _defs()
    for name, where in (("standing", "standing:"), ("move", "a first_move/second_move entry"),
                        ("attack", "a sea_battle/land_battle entry"), ("recruit", "a recruit entry")):
        for k in _keys_at(d[name]):
            out.setdefault(k, where)
    for k in _keys_at(d["card_use"]["else"]):
        out.setdefault(k, "a card entry")
    for k in _keys_at(d["defence_card"]["else"]):
        out.setdefault(k, "a defence_cards entry")
    return out


def did_you_mean(word: Any, choices: Iterable[str], cutoff: float = 0.6) -> str | None:
    if not isinstance(word, str):
        return None
    choices = list(choices)
    low = {c.lower(): c for c in choices}
    if word.lower() in low and low[word.lower()] != word:
        return low[word.lower()]
    guess = difflib.get_close_matches(word, choices, n=1, cutoff=cutoff) or \
        difflib.get_close_matches(word.lower(), list(low), n=1, cutoff=cutoff)
    if not guess:
        return None
    return low.get(guess[0], guess[0])


def short_list(items: Iterable[str], limit: int = 12) -> str:
    items = list(items)
    if len(items) <= limit:
        return ", ".join(items)
    return ", ".join(items[:limit]) + f", ... ({len(items)} in all)"


_ESCAPES = {"\n": "\\n", "\r": "\\r"}
_BREAKING = re.compile("[\n\r\x0b\x0c\x1c-\x1e\x85\u2028\u2029]")  # what ends a line (str.splitlines)
_LINE_BREAK = re.compile("[\n\r\x85\u2028\u2029]")  # what YAML takes for a line end


def escaped(text: str) -> str:
    """``text`` with the characters that end a line written as escapes (\\n, \\u2028): a value shown in
    a finding keeps the finding on one line (a mail review: a secret written as a block, `secret: |`, showed its
    line break raw)."""
    return _BREAKING.sub(lambda m: _ESCAPES.get(m.group()) or m.group().encode("unicode_escape").decode("ascii"), text)


def show(value: Any) -> str:
    """A value as the player wrote it, shortly."""
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        text = value if len(value) <= 40 else value[:37] + "..."
        return f"'{escaped(text)}'"
    if isinstance(value, dict):
        return "a mapping {" + short_list(map(str, value), 4) + "}"
    if isinstance(value, list):
        return f"a list of {len(value)}"
    return str(value)


_TYPE_WORDS = {"string": "text", "integer": "a whole number", "boolean": "true or false", "array": "a list",
               "object": "a mapping (key: value)", "null": "nothing", "number": "a number"}


def _type_of(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    return "object"


# where a token ends (the spaces before are stripped): `\s*$` and `\s*:`, tried at each space of a long run, took
# time quadratic in it (a code review)
_RAW_END = re.compile(r"[,\]}#]|\s#|$")
_RAW_KEY_END = re.compile(r":(\s|$)|[,\]}#]|\s#|$")


@lru_cache(maxsize=2)
def _text_lines(text: str) -> list[str]:
    """``text``'s lines, split once per text: split for each value named, a file of thousands of `on` items took
    minutes (a code review).  Not to be changed by the caller."""
    return text.splitlines()


def raw_token(located: yamlio.Located, text: str | None, path: Path_, at_key: bool = False) -> str | None:
    """The text a plain scalar was written as (so 0712, read by YAML as the octal number 458, shows as 0712);
    ``at_key``: of the key at the end of ``path``."""
    if text is None:
        return None
    mark = located.marks.get((("@key",) if at_key else ()) + tuple(path))
    if not mark:
        return None
    lines = _text_lines(text)
    if not 1 <= mark[0] <= len(lines):
        return None
    line = lines[mark[0] - 1]
    m = (_RAW_KEY_END if at_key else _RAW_END).search(line, mark[1] - 1)  # the line not copied from the mark on
    token = line[mark[1] - 1: m.start()] if m else line[mark[1] - 1:]
    return token.strip() or None


# What each kind of id looks like, for the hints.
_KIND_HINTS = {
    "hex id": "write 4 digits in quotes, column then row: \"0712\"",
    "unit id": "unit ids look like ATH-A1 (Army), ATH-R1 (Rowers), ATH-F1 (Fleet), ATH-T1 (Transport), "
               "ATH-B1 (Baggage), ATH-L1 (Leader)",
    "unit id or hex id": "write a unit id like ATH-A1, or a hex id in quotes like \"1313\" for all your units "
                         "there",
    "city id": "city ids are the city's name in lower case, e.g. megara",
    "player id": "a player is the id of their home city, in lower case, e.g. athens",
    "card target": "a hex id (\"0712\"), a unit or leader id (SPA-L1), a city id (megara) or a player id (sparta)",
}


def _fix_case(kind: str, value: str, game_map: Any = None) -> str | None:
    m = re.fullmatch(r"([A-Za-z]{2,4})[-_ ]?([A-Za-z][0-9]+)", value.strip())
    if kind in ("unit id", "unit id or hex id") and m:  # ath_a1, ATH A1, ATHA1: ATH-A1
        return f"{m.group(1)}-{m.group(2)}".upper()
    if kind in ("city id", "player id", "card target"):
        return _city_id_near(value, game_map)
    return None


def _city_id_near(value: str, game_map: Any = None) -> str | None:
    """The city id of ``game_map`` (default: the Aegean map) a value not written as an id means: `Megara` megara,
    `chal cis` chalcis, `megara city` megara, `Nax0s` naxos; None if none is near.  A player's id is their home
    city's (a mail review: `chal cis` got "did you mean chal_cis?", which is no city)."""
    if game_map is None:
        from .gamedata import load_map
        game_map = load_map()
    ids = list(game_map.cities)
    words = [w for w in re.split(r"[\s_\-]+", value.strip().lower()) if w]
    if not words:
        return None
    for guess in ("_".join(words), "".join(words), *words):
        if guess in ids:
            return guess
    return did_you_mean("".join(words), ids)


def _title(err: jsonschema.ValidationError) -> str | None:
    sch = err.schema if isinstance(err.schema, dict) else {}
    return sch.get("title")


def schema_problems(located: yamlio.Located, text: str | None = None, game_map: Any = None) -> list[Problem]:
    """Every schema error of the document, in words a player understands.  ``game_map``: the campaign's map,
    for hints that name a city's hex (default: the Aegean map)."""
    data = located.data
    if data is None:
        return [Problem((), "the file is empty: an order file needs at least campaign, turn and player",
                        "copy orders-template.yaml from the kit/ folder of your report and fill it in")]
    if not isinstance(data, dict):
        return [Problem((), f"an order file is a mapping of keys (campaign: ..., turn: ...), not {show(data)}",
                        "copy orders-template.yaml from the kit/ folder of your report and fill it in")]
    out: list[Problem] = []
    seen: set[Problem] = set()  # a set: `p not in out` took time quadratic in the problems (a code review: 22,200
    # unknown keys in a 170 KB file, two minutes)
    for err in _validator().iter_errors(data):
        # each missing key is one error of its own, and each makes _explain name them all: say each once
        for p in _explain(err, located, text, game_map):
            if p not in seen:
                seen.add(p)
                out.append(p)
    out.sort(key=lambda p: (located.where(real_path(p.path)) or (0, 0), p.message))
    return out


def _explain(err: jsonschema.ValidationError, located: yamlio.Located, text: str | None,
             game_map: Any = None) -> list[Problem]:
    path = tuple(err.absolute_path)
    v, inst = err.validator, err.instance
    sch = err.schema if isinstance(err.schema, dict) else {}
    title = _title(err)
    if v == "additionalProperties" and isinstance(inst, dict):
        allowed = list(sch.get("properties", {}))
        pats = sch.get("patternProperties", {})
        extra = [k for k in inst if k not in allowed and not any(re.search(p, str(k)) for p in pats)]
        out = []
        known = _all_keys()
        for k in extra:
            if isinstance(k, str) and k.lower() in allowed and k.lower() not in inst:  # `Turn:`, a phone's capital
                low = k.lower()
                why = (": the moderator finds no secret in the file otherwise, and refuses it" if low == "secret"
                       else "")
                out.append(Problem(path + (k,), f"`{k}:` must be written in lower case, `{low}:`{why}",
                                   None, at_key=True))
                continue
            guess = did_you_mean(str(k), allowed)
            if guess:
                hint = f"did you mean {guess}?"
            elif str(k) in known:
                hint = f"{k} belongs in {known[str(k)]}; keys here: {short_list(allowed)}"
            else:
                hint = f"keys here: {short_list(allowed)}"
            where = "at the top level" if not path else "here"
            mark = located.marks.get(("@key", k))
            if not path and isinstance(k, str) and " " in k.strip() and not guess and mark:
                hint = (f"line {mark[0]} is not an order: an order file holds only `key: value` lines, list items "
                        f"and comments; delete the line, or start it with # to keep it as a comment")
            name = show(str(k)) if isinstance(k, str) else raw_token(located, text, path + (k,), at_key=True) or k
            step = k if isinstance(k, str) else KeyText(k, str(name))  # `~:`: the path shows ~, not None
            out.append(Problem(path + (step,), f"unknown key {name} {where}",
                               hint, at_key=True))
        return out
    if v == "required":
        missing = [k for k in err.validator_value if k not in inst] if isinstance(inst, dict) else []
        # a key written with a capital (`Campaign:`) is named once, as such, by additionalProperties
        missing = [k for k in missing if not any(isinstance(c, str) and c.lower() == k for c in inst)]
        what = "needs" if path else "the file needs"
        return [Problem(path, f"{what} the key {k}", _required_hint(k, sch), missing=k) for k in missing]
    if v == "minProperties" and title == "recruitment":
        return [Problem(path, "a recruit entry needs unit: and/or baggage:",
                        "e.g. {city: athens, unit: army} or {city: athens, baggage: 2}")]
    if v in ("maxItems", "maxProperties") and isinstance(inst, (list, dict)):  # not the whole list in the message
        return [Problem(path, f"has {len(inst)} entries; at most {err.validator_value} are taken",
                        "no real turn needs more; split long lists or leave some out")]
    if v == "propertyNames" or (err.relative_schema_path and "propertyNames" in err.relative_schema_path):
        return [_key_problem(inst, path, located, text, game_map)]
    read_as = _read_as(inst, located, text, path) if v in ("type", "enum") else None
    if read_as:  # `captured_leaders: on`: YAML 1.1 reads on, yes, off, no as true or false, ~ as nothing
        if v == "type" and "enum" in sch:
            return []  # said once, by the enum's error, with the choices
        return [Problem(path, read_as, f"one of: {short_list(map(str, err.validator_value))}" if v == "enum"
                        else None)]
    if v == "type":
        return [_type_problem(err, path, located, text)]
    if v == "enum":
        choices = [str(c) for c in err.validator_value]
        guess = did_you_mean(inst, choices)
        kind = title or "value"
        if kind == "card":
            hint = f"did you mean {guess}?" if guess else "card ids are the card's name in lower case with _ " \
                                                           "(e.g. forced_march); see pbem/data/tables/cards.yaml"
            return [Problem(path, f"{show(inst)} is not a card", hint)]
        hint = f"did you mean {guess}?" if guess else f"one of: {short_list(choices)}"
        return [Problem(path, f"{show(inst)} is not a {kind}", hint)]
    if v in ("pattern", "enum") and isinstance(inst, str) and _typed_wrong(inst):
        kind = title or "value"
        return [Problem(path, f"{show(inst)} is not a {kind}", _typed_wrong(inst, path[-1] if path else None))]
    if v == "pattern":
        kind = title or "value"
        fixed = _fix_case(kind, inst, game_map) if isinstance(inst, str) else None
        hint = f"did you mean {fixed}?" if fixed and fixed != inst else \
            _city_hex_hint(inst, path, game_map) if kind in ("hex id", "unit id or hex id") else None
        return [Problem(path, f"{show(inst)} is not a {kind}", hint or _KIND_HINTS.get(kind))]
    if v in ("minimum", "maximum"):
        bound = "at least" if v == "minimum" else "at most"
        return [Problem(path, f"{_the(title)}{inst}; it must be {bound} {err.validator_value}",
                        sch.get("description"))]
    if v == "minItems":  # only where an empty list means nothing: the units of a move or attack, a path
        return [Problem(path, "is an empty list", "give at least one entry, or remove the key")]
    if v in ("minLength", "maxLength"):
        return [Problem(path, "is empty" if v == "minLength" else "is too long", sch.get("description"))]
    return [Problem(path, err.message, sch.get("description"))]


def _read_as(inst: Any, located: yamlio.Located, text: str | None, path: Path_) -> str | None:
    """`on is read as true: write it in quotes`, for a word YAML reads as true, false or nothing (on, yes, off,
    no, ~, Null), as hex ids read as numbers are named; None for a value written as it reads."""
    if not (isinstance(inst, bool) or inst is None):
        return None
    raw = raw_token(located, text, path)
    if not raw or raw.lower() in ("true", "false", "null") or raw.startswith(("'", '"', "#")):
        return None
    return f"{raw} is read as {show(inst)}: write \"{raw}\" in quotes if you mean the word"


def _typed_wrong(value: str, key: Any = None) -> str | None:
    """What is wrong in a value that only looks right: curly quotes, a long dash, a no-break space (a mail
    program's or word processor's autocorrect), a space inside the quotes (``" 1212"``), or a line break: the
    value written as a block (``secret: |`` and the value on the line below), or over several lines.  ``key``:
    the key the value is written after, to say where it goes."""
    odd = yamlio.lookalike_words(value)
    if odd:
        return odd
    if _LINE_BREAK.search(value) and value.strip():
        where = f"on the `{key}:` line itself" if isinstance(key, str) else "on one line"
        return f"the value is written as a block (after | or >) or over several lines: write it {where}"
    if value != value.strip() and value.strip():
        return f"a space inside the quotes: write \"{value.strip()}\""
    return None


def _key_problem(key: Any, path: Path_, located: yamlio.Located, text: str | None, game_map: Any) -> Problem:
    """A key of ``standing.retreat`` that is not a hex id: in the words a value gets (``1313 is a number``)."""
    if isinstance(key, (int, float)) and not isinstance(key, bool):
        raw = raw_token(located, text, path + (key,), at_key=True) or str(key)
        shown = KeyText(key, raw)
        if raw != str(key):
            return Problem(path + (shown,), f"{raw} is read as the number {key}: hex ids must be in quotes",
                           f"write \"{raw}\"", at_key=True)
        return Problem(path + (shown,), f"{raw} is a number: hex ids must be in quotes", f"write \"{raw}\"",
                       at_key=True)
    step = key if isinstance(key, str) else KeyText(key, show(key))
    return Problem(path + (step,), f"{show(key)} is not a hex id",
                   (_typed_wrong(key) if isinstance(key, str) else None) or _city_hex_hint(key, (), game_map)
                   or _KIND_HINTS["hex id"], at_key=True)


def _city_hex_hint(value: Any, path: Path_, game_map: Any) -> str | None:
    """A city named where a hex id is wanted (``target: megara``): its hex, in the words to write."""
    if not isinstance(value, str):
        return None
    if game_map is None:
        from .gamedata import load_map
        game_map = load_map()
    city = game_map.find_city(value.replace("_", " ")) or game_map.find_city(value)
    if city is None:
        return None
    key = path[-1] if path else None
    if key in ("target", "hex"):
        write = f"write {key}: \"{city.hex}\""
    elif len(path) >= 2 and path[-2] == "path":
        write = f"write \"{city.hex}\" in the path"
    elif len(path) >= 2 and path[-2] == "units":
        write = f"write \"{city.hex}\" for all your units there"
    else:
        write = f"write \"{city.hex}\""
    return f"{city.name} is hex \"{city.hex}\": {write}"


def _the(title: str | None) -> str:
    return f"{title} is " if title else "is "


def _required_hint(key: str, sch: dict[str, Any]) -> str | None:
    prop = sch.get("properties", {}).get(key, {})
    if "$ref" in prop:
        prop = {**_defs().get(prop["$ref"].rsplit("/", 1)[-1], {}), **prop}
    return prop.get("description")


_GLUED = re.compile(r"([A-Za-z_][A-Za-z0-9_]*):([^\s:/].*)")  # `units:[ATH-A1]`, a key glued to its value


_COMMENT_VALUE = re.compile(r"[^:]*:\s+#([0-9]+)")


def _comment_value(located: yamlio.Located, text: str | None, path: Path_) -> str | None:
    """The digits of ``key: #1313``, where the # made the rest of the line a comment and the key empty."""
    if text is None or not path:
        return None
    mark = located.marks.get(("@key",) + tuple(path))
    lines = _text_lines(text)
    if not mark or not 1 <= mark[0] <= len(lines):
        return None
    m = _COMMENT_VALUE.match(lines[mark[0] - 1], mark[1] - 1)
    return m.group(1) if m else None


def _type_problem(err: jsonschema.ValidationError, path: Path_, located: yamlio.Located,
                  text: str | None) -> Problem:
    inst = err.instance
    want = err.validator_value if isinstance(err.validator_value, list) else [err.validator_value]
    words = " or ".join(_TYPE_WORDS.get(w, w) for w in want)
    title = _title(err)
    got = _type_of(inst)
    if inst is None:
        comment = _comment_value(located, text, path)
        if comment:
            return Problem(path, f"has no value: # starts a comment, so #{comment} is left out",
                           f"a hex id must be in quotes: write \"{comment}\"")
        if "array" in want:
            return Problem(path, "is empty (nothing after the colon)", "remove the line, or write [] for an empty list")
        return Problem(path, "has no value", f"write {words}")
    glued = _GLUED.fullmatch(inst) if isinstance(inst, str) and "object" in want else None
    if glued:
        return Problem(path, f"`{glued.group(1)}:` needs a space after the colon",
                       f"write {glued.group(1)}: {glued.group(2)}")
    if "string" in want and got in ("integer", "number") and title in ("hex id", "unit id or hex id",
                                                                         "card target"):
        raw = raw_token(located, text, path) or str(inst)
        if raw != str(inst):
            return Problem(path, f"{raw} is read as the number {inst}: hex ids must be in quotes",
                           f"write \"{raw}\"")
        return Problem(path, f"{raw} is a number: hex ids must be in quotes", f"write \"{raw}\"")
    if "array" in want and isinstance(inst, str) and yamlio.lookalike_words(inst):  # `-\u00a0megara`, not a list
        return Problem(path, f"must be a list, not {show(inst)}", yamlio.lookalike_words(inst))
    if "array" in want and got in ("string", "integer"):
        if isinstance(inst, str):  # "1313, 1312" or ATH-A1, ATH-A2: each item, hex ids in quotes
            items = [x.strip() for x in inst.split(",") if x.strip()] or [inst]
        else:
            items = [raw_token(located, text, path) or str(inst)]
        shown = ", ".join(f'"{x}"' if x.isdigit() else x for x in items)
        return Problem(path, f"must be a list, not {show(inst)}", f"write [{shown}]")
    return Problem(path, f"{title + ' ' if title else ''}must be {words}, not {show(inst)}", None)


# -- from the checked data to Orders --------------------------------------------------------------------

def _drop_target(p: Problem, data: dict) -> tuple[Path_ | None, str | None]:
    """(path to leave out, bad header key) for one problem."""
    path = p.path
    if not path:
        if p.missing in HEADER_KEYS:
            return None, p.missing
        return None, "*"  # the top level itself is wrong: nothing is usable
    top = path[0]
    if top in HEADER_KEYS:
        return (None, top) if len(path) == 1 or top != "secret" else ((top,), None)
    if top in LIST_SECTIONS:
        if len(path) >= 2 and isinstance(path[1], int):
            return path[:2], None
        return (top,), None
    if top == "standing":
        if len(path) == 1:
            return (top,), None
        key = path[1]
        if key in STANDING_LISTS and len(path) >= 3 and isinstance(path[2], int):
            return path[:3], None
        if key == "retreat" and len(path) >= 3:
            return real_path(path[:3]), None
        return path[:2], None
    return real_path((top,)), None  # an unknown top-level key


def _without(data: Any, drops: set[Path_]) -> Any:
    def walk(node: Any, here: Path_) -> Any:
        if isinstance(node, dict):
            return {k: walk(v, here + (k,)) for k, v in node.items() if here + (k,) not in drops}
        if isinstance(node, list):
            return [walk(v, here + (i,)) for i, v in enumerate(node) if here + (i,) not in drops]
        return node
    return walk(data, ())


def build(located: yamlio.Located, text: str | None = None, game_map: Any = None) -> Parsed:
    """Schema-check a parsed order file and build ``Orders`` from the entries that pass.

    The ids are first read in the case the game writes them (``pbem.ordertypes.normal_case``: Chalcis is
    chalcis, ath-a1 is ATH-A1), as ``Orders.from_dict`` reads them for the adjudicator; the ``Parsed`` holds
    that data.  ``game_map``: the campaign's map, for hints (default: the Aegean map)."""
    located = dataclasses.replace(located, data=normal_case(located.data))
    problems = schema_problems(located, text, game_map)
    parsed = Parsed(located, problems)
    data = located.data
    if not isinstance(data, dict):
        return parsed
    drops: set[Path_] = set()
    for p in problems:
        target, header = _drop_target(p, data)
        if header:
            parsed.bad_header.add(header)
        if target is not None:
            drops.add(target)
    if parsed.bad_header & {"*", "player"}:
        return parsed
    clean = _without(copy.deepcopy(data), drops)
    for key in ("campaign", "turn"):
        if key in parsed.bad_header or key not in clean:
            parsed.bad_header.add(key)
            clean[key] = {"campaign": "?", "turn": 1}[key]
    if any(True for _ in _validator().iter_errors(clean)):
        return parsed  # cannot happen if _drop_target is right; the problems above say what is wrong
    for section in LIST_SECTIONS:
        if isinstance(data.get(section), list) and (section,) not in drops:
            parsed.kept[(section,)] = [i for i in range(len(data[section])) if (section, i) not in drops]
    st = data.get("standing")
    if isinstance(st, dict) and ("standing",) not in drops:
        for key in STANDING_LISTS:
            if isinstance(st.get(key), list) and ("standing", key) not in drops:
                parsed.kept[("standing", key)] = [i for i in range(len(st[key]))
                                                  if ("standing", key, i) not in drops]
    try:
        orders = Orders.from_dict(clean)
    except (KeyError, TypeError, ValueError, AttributeError) as exc:  # the schema should make this impossible
        parsed.problems.append(Problem((), f"the orders cannot be read ({type(exc).__name__}: {exc})",
                                       "please report this file to the moderator"))
        return parsed
    # Keep the file positions of moves, attacks and recruits (reports name them by index).
    fixes = {}
    for section in ("recruit", "first_move", "sea_battle", "land_battle", "second_move"):
        items = getattr(orders, section)
        idx = parsed.kept.get((section,), list(range(len(items))))
        fixes[section] = tuple(dataclasses.replace(it, index=i) for it, i in zip(items, idx))
    parsed.orders = dataclasses.replace(orders, **fixes)
    return parsed


def parse_text(text: str, source: str, game_map: Any = None) -> Parsed:
    """Parse and schema-check order text.  Raises ``yamlio.YamlError`` if it is not YAML we accept."""
    return build(yamlio.parse(text, source), text, game_map)


def parse_file(path: Path | str, source: str | None = None) -> Parsed:
    source = source or str(path)
    text = yamlio.read_text(path, source)
    return parse_text(text, source)


def load_orders(path: Path | str, source: str | None = None) -> Orders:
    """The orders of a file that must be valid: raises ``OrderSyntaxError`` naming the first problems."""
    source = source or str(path)
    try:
        parsed = parse_file(path, source)
    except yamlio.YamlError as exc:
        raise OrderSyntaxError(str(exc)) from None
    if parsed.problems or parsed.orders is None:
        lines = []
        for p in parsed.problems[:3]:
            mark = parsed.where(p.path, p.at_key)
            where = f"{source}:{mark[0]}:{mark[1]}" if mark else source
            lines.append(f"{where}: {json_path(p.path)}: {p.message}")
        more = f" (and {len(parsed.problems) - 3} more)" if len(parsed.problems) > 3 else ""
        raise OrderSyntaxError("; ".join(lines) + more if lines else f"{source}: no usable orders")
    return parsed.orders


# -- stacks named by hex -------------------------------------------------------------------------------

HEX_RE = re.compile(r"^[0-9]{4}([0-9]{2})?$")


def is_hex_id(text: str) -> bool:
    return bool(HEX_RE.match(text))


def expand_units(state, player: str, ids: Iterable[str]) -> list[str]:
    """The unit ids a ``units`` list of a move means, as the adjudicator reads it (``pbem.battle.expand_units``
    with ``pbem.phases.move.not_aboard_ship``): a hex id stands for every unit of ``player`` in that hex that is
    not aboard a ship (ships take their cargo along; Baggage an Army carries is named too).  Unit ids are kept
    as written, even unknown ones (the caller reports them); order kept, no repeats."""
    from .battle import expand_units as units_named
    from .phases.move import not_aboard_ship
    out: list[str] = []
    for x in ids:
        if is_hex_id(x):
            found, _ = units_named(state, player, [x], lambda u: not_aboard_ship(state, u))
            out += [u.id for u in found if u.id not in out]
        elif x not in out:
            out.append(x)
    return out
