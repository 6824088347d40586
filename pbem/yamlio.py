"""Safe YAML reading for every file a user hands us (orders, maps, campaign files).

Only plain data is accepted: no anchors or aliases (no "billion laughs"), no tags that build objects, no
duplicate keys, bounded size and nesting, UTF-8 only.  The loader also returns where every value stands in
the file, so a schema error on ``moves[2].path[1]`` can be reported as ``orders.yaml:14:9``.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from .errors import PbemError

MAX_BYTES = 256 * 1024
MAX_DEPTH = 32
MAX_NODES = 50_000

PathKey = tuple  # a JSON path as a tuple of keys and indexes


# a line break with the spaces around it; a run of spaces is tried from its start only (`(?<![ \t])`, possessive):
# `[ \t]*` tried at each space of a long run took time quadratic in it (a code review)
_ONE_LINE = re.compile("(?<![ \t])[ \t]*+(?:\r\n|[\r\n\x85\u2028\u2029])[ \t]*+")


class YamlError(PbemError):
    """The file is not YAML we accept.  ``line`` and ``column`` are 1-based, when known."""

    def __init__(self, source: str, message: str, line: int | None = None, column: int | None = None):
        message = _ONE_LINE.sub(" ", message).strip()  # PyYAML's messages run over lines: a reply has one per finding
        self.source, self.detail, self.line, self.column = source, message, line, column
        where = source if line is None else f"{source}:{line}:{column or 1}"
        super().__init__(f"{where}: {message}")


@dataclass
class Located:
    """The data of a YAML document and the (line, column) of each path in it."""

    data: Any
    marks: dict[PathKey, tuple[int, int]]
    source: str

    def where(self, path: PathKey) -> tuple[int, int] | None:
        """The mark of ``path``, or of its nearest ancestor that has one."""
        path = tuple(path)
        while True:
            if path in self.marks:
                return self.marks[path]
            if not path:
                return None
            path = path[:-1]


_ALLOWED_TAGS = {
    "tag:yaml.org,2002:str", "tag:yaml.org,2002:int", "tag:yaml.org,2002:float", "tag:yaml.org,2002:bool",
    "tag:yaml.org,2002:null", "tag:yaml.org,2002:map", "tag:yaml.org,2002:seq",
}


def read_text(path: Path | str, source: str | None = None, max_bytes: int = MAX_BYTES) -> str:
    path = Path(path)
    source = source or str(path)
    try:
        import stat as _stat
        st = path.stat()
        if _stat.S_ISDIR(st.st_mode):
            raise IsADirectoryError
        if not _stat.S_ISREG(st.st_mode):
            raise YamlError(source, "is not a regular file (a device, pipe or socket); give a text file")
        if st.st_size > max_bytes:
            raise YamlError(source, f"file is {st.st_size} bytes; the limit is {max_bytes} bytes")
        with open(path, "rb") as fh:
            raw = fh.read(max_bytes + 1)
    except FileNotFoundError:
        raise YamlError(source, "no such file") from None
    except IsADirectoryError:
        raise YamlError(source, "is a folder, not a file") from None
    except OSError as exc:
        raise YamlError(source, f"cannot be read ({exc.strerror})") from None
    return decode(raw, source, max_bytes)


def decode(raw: bytes, source: str, max_bytes: int = MAX_BYTES) -> str:
    if len(raw) > max_bytes:
        raise YamlError(source, f"file is {len(raw)} bytes; the limit is {max_bytes} bytes")
    if raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]
    kind = _not_text(raw)
    if kind:
        raise YamlError(source, kind)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        start = raw.rfind(b"\n", 0, exc.start) + 1
        line = raw[: exc.start].count(b"\n") + 1
        column = len(raw[start:exc.start].decode("utf-8", "replace")) + 1
        byte = raw[exc.start]
        latin = bytes([byte]).decode("cp1252", "replace")
        seen = f", {latin} in Windows-1252 (Latin-1)" if latin.isprintable() and latin != "\ufffd" else ""
        raise YamlError(source, f"not UTF-8 text (the byte 0x{byte:02x}{seen}, at line {line}, column {column}): save "
                                f"the file as UTF-8", line, column) from None
    if "\x00" in text:
        raise YamlError(source, "contains a NUL character; this is not a text file")
    check_plain_text(text, source)
    return text


# characters that editors, word processors and mail programs put in place of plain ones (autocorrect's "smart"
# quotes and dashes, a web mail's no-break spaces), each with what to write instead: named in messages, since
# they look like the plain ones (a mail review: '“1212”' is not a hex id, 'ATH–A1' is not a unit id)
_LOOKALIKES = [
    ("\u201c\u201d\u201e\u201f\u2033\u00ab\u00bb", 'curly quotes (“ ”): use straight quotes " (your editor or mail '
                                             'program changed them: turn off "smart quotes")'),
    ("\u2018\u2019\u201a\u201b\u2032", "curly quotes (‘ ’): use straight quotes ' (your editor or mail program "
                                   'changed them: turn off "smart quotes")'),
    ("\u2010\u2011\u2012\u2013\u2014\u2015\u2212", "{ch} is a long dash: write - (autocorrect changed it)"),
    ("\u00a0\u2007\u202f", "a no-break space (U+{code:04X}): retype it as a plain space"),
    ("\u200b\u200c\u200d\u2060\ufeff", "an invisible character (U+{code:04X}): delete it"),
    ("\uff1a", "a full-width colon ：: write :"),
]


def lookalike_words(value: str) -> str | None:
    """Plain words for the look-alike characters in ``value`` (curly quotes, long dashes, no-break spaces ...),
    each kind once, or None if it has none."""
    out: list[str] = []
    for chars, words in _LOOKALIKES:
        ch = next((c for c in value if c in chars), None)
        if ch is not None:
            out.append(words.format(ch=ch, code=ord(ch)))
    return "; ".join(out) or None


# what PyYAML refuses to read anywhere in a file, a comment too (yaml.reader.Reader.NON_PRINTABLE)
_NON_PRINTABLE = re.compile("[^\x09\x0A\x0D\x20-\x7E\x85\xA0-\uD7FF\uE000-\uFFFD\U00010000-\U0010ffff]")
_CONTROL_NAMES = {"\x0c": "a form-feed character", "\x0b": "a vertical tab", "\x1b": "an escape character",
                  "\x7f": "a delete character", "\x07": "a bell character", "\x08": "a backspace character",
                  "\x00": "a NUL character", "\ufffe": "a non-character", "\uffff": "a non-character"}
_BREAKS = re.compile("\r\n|[\n\r\x85\u2028\u2029]")  # the line ends PyYAML counts lines by


def line_column(text: str, pos: int) -> tuple[int, int]:
    """The (line, column), 1-based, of ``text[pos]``, lines counted as PyYAML counts them."""
    line, start = 1, 0
    for m in _BREAKS.finditer(text, 0, pos):
        line, start = line + 1, m.end()
    return line, pos - start + 1


def check_characters(text: str, source: str) -> None:
    """Refuse a character YAML does not allow in a file (a form feed from a PDF, an escape, a C1 control, U+FFFE),
    at the first one, in one line naming it and where it is (a mail review: PyYAML's own message ran over two
    lines, named a position and no line)."""
    m = _NON_PRINTABLE.search(text)
    if m is None:
        return
    ch = m.group()
    name = _CONTROL_NAMES.get(ch) or ("a broken character" if "\ud800" <= ch <= "\udfff" else "a control character")
    line, col = line_column(text, m.start())
    raise YamlError(source, f"{name} (U+{ord(ch):04X}) at line {line}, column {col}: delete it (it is invisible in "
                            f"most editors; an order file holds plain text only)", line, col)


# a no-break space (U+00A0, from a web mail or a word processor) where YAML needs a plain space: in a line's
# indentation, or after a key's colon or a list's dash; YAML takes it as a letter, so PyYAML's message misleads
# ("indented more than the line above", "needs a space after the colon").  Glued to a key's colon it is never
# YAML a person meant (the key and its value are read as one word), so it is refused at once; elsewhere (a line
# starting with one may be the rest of a long value) it is named when the file does not parse.
# Each is matched to the text before a line's first no-break space, only on lines holding one, with possessive
# quantifiers: the patterns searched the whole text, `^[ \t]*...[ \t]*` taking time quadratic in a long line of spaces
# whenever a U+00A0 stood anywhere (a code review: 80,000 spaces, 26 s).
_NBSP_SPACE = re.compile(r"[ \t]*+(?:-[ \t]++)*+(?:-|[A-Za-z_][A-Za-z0-9_]*+[ \t]*+:[ \t]*+)?")
_NBSP_GLUED = re.compile(r"[ \t]*+(?:-[ \t]++)*+[A-Za-z_][A-Za-z0-9_]*+:")
NBSP_WORDS = ("retype it as a plain space (a mail program or word processor put it in, and YAML does not read it as "
              "a space)")


def _nbsp_found(text: str, before: re.Pattern, last_line: int | None = None) -> tuple[str, tuple[int, int]] | None:
    """The first no-break space that stands where a space is needed: the first on its line, after what ``before``
    matches (the line's indentation, a list's dash, a key's colon ...), at or above ``last_line``."""
    if "\u00a0" not in text:
        return None
    for r, line in enumerate(_BREAKS.split(text)):
        if last_line is not None and r >= last_line:
            return None
        i = line.find("\u00a0")
        if i >= 0 and before.fullmatch(line, 0, i):
            return f"a no-break space (U+00A0) at line {r + 1}, column {i + 1}: {NBSP_WORDS}", (r + 1, i + 1)
    return None


def check_plain_text(text: str, source: str) -> None:
    """The characters of a file YAML does not take, or takes otherwise than it looks: a control character, a
    no-break space glued to a key's colon.  Run by ``decode`` (so intake says it before it reads the header) and by
    ``parse``."""
    check_characters(text, source)
    found = _nbsp_found(text, _NBSP_GLUED)
    if found:
        raise YamlError(source, found[0], *found[1])


_MAGIC = ((b"PK\x03\x04", "a Word (.docx) file or another zip archive"), (b"%PDF", "a PDF file"),
          (b"{\\rtf", "an RTF (WordPad) file"), (b"\xd0\xcf\x11\xe0", "a Word (.doc) file"))


def _wide_text(head: bytes) -> str | None:
    """"UTF-32" or "UTF-16" when the first bytes of a file are text in that encoding (with or without a BOM)."""
    if head.startswith((b"\xff\xfe\x00\x00", b"\x00\x00\xfe\xff")) or \
            len(head) >= 8 and (head[1:4] == b"\x00\x00\x00" and head[0] or head[:3] == b"\x00\x00\x00" and head[3]):
        return "UTF-32"
    pairs = len(head) // 2
    if head.startswith((b"\xff\xfe", b"\xfe\xff")) or pairs >= 4 and (
            head[1::2].count(0) >= pairs * 3 // 4 or head[0::2].count(0) >= pairs * 3 // 4):
        return "UTF-16"
    return None


def _not_text(raw: bytes) -> str | None:
    """What a file that is not UTF-8 text is, when its first bytes tell: UTF-16 or UTF-32 (with or without a
    BOM), a Word, PDF, RTF or zip file renamed .yaml (a mail review: `bad byte 0xff` told a player nothing)."""
    wide = _wide_text(raw[:400])
    if wide == "UTF-32":
        return "this is UTF-32 text, not UTF-8: save the file as UTF-8"
    if wide == "UTF-16":
        return "this is UTF-16 text (Notepad's 'Unicode'), not UTF-8: save the file as UTF-8"
    for magic, what in _MAGIC:
        if raw.startswith(magic):
            return (f"this is {what}, not a text file: save the orders as plain text (UTF-8), e.g. with a text "
                    f"editor, or paste them into one")
    return None


_CONTROL_BYTES = set(range(0x20)) - {0x09, 0x0A, 0x0C, 0x0D}


def opaque_kind(raw: bytes) -> str | None:
    """What a file is in which text cannot be found as written (a player's secret, compressed or cut up): a zip
    (a .docx), a PDF, RTF or Word .doc file, or bytes that are no text at all ("not text"); None for text in
    UTF-8, UTF-16, UTF-32 or an 8-bit encoding (Latin-1, Windows-1252), where it can."""
    for magic, what in _MAGIC:
        if raw.startswith(magic):
            return what
    if _wide_text(raw[:400]):
        return None
    try:
        raw.decode("utf-8")
        return None
    except UnicodeDecodeError:
        pass
    return "not text" if _CONTROL_BYTES.intersection(raw) else None


_SCAN = re.compile(r"""[\[\]{}'"#\n\\]""")
_QUOTE_AFTER = set(" \t[{,:-?")  # a quote opens a quoted value only at the start of a value


def check_nesting(text: str, source: str, limit: int = MAX_DEPTH) -> None:
    """Refuse brackets and braces nested deeper than ``limit``, at the first one too deep, before parsing.

    PyYAML takes time quadratic in the depth of flow collections (20,000 ``[`` take 20 s), so this cheap scan
    runs first.  Brackets inside quoted values and comments do not count; the scan is conservative: where it
    cannot tell, it counts (a file it refuses is one the parser would refuse as too deep or as broken).
    """
    depth = 0
    quote = ""  # the quote character of the quoted value we are in, if any
    line_start = 0
    line = 1
    skip_to = -1
    for m in _SCAN.finditer(text):
        i, ch = m.start(), m.group()
        if i < skip_to:
            continue
        if ch == "\n":
            line += 1
            line_start = i + 1
            continue
        if quote:
            if ch == "\\" and quote == '"':
                skip_to = i + 2  # an escaped character
            elif ch == quote:
                quote = ""
            continue
        if ch == "\\":
            continue
        before = text[i - 1] if i > line_start else " "
        if ch == "#":
            if before in " \t":
                end = text.find("\n", i)
                skip_to = len(text) if end < 0 else end
            continue
        if ch in "'\"":
            if before in _QUOTE_AFTER:
                quote = ch
            continue
        if ch in "[{":
            depth += 1
            if depth > limit:
                raise YamlError(source, f"brackets nested too deeply (the limit is {limit} levels of [ and {{)",
                                line, i - line_start + 1)
        elif depth:
            depth -= 1


def _content_lines(text: str) -> list[str]:
    return text.split("\n")


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _key_column(line: str) -> int:
    """Where a line's key starts (0-based): after its indentation and any "- " list dashes."""
    i = _indent(line)
    while line.startswith("- ", i) or line[i:].rstrip() == "-":
        i += 2
        while i < len(line) and line[i] == " ":
            i += 1
    return i


def _first_word(line: str, dash: bool = False) -> str:
    """A line's key (``dash``: with the list's dash before it), to name the line in a hint."""
    body = line.strip() if dash else line[_key_column(line):].strip()
    key, colon, _ = body.partition(":")
    return f"{key}:" if colon and " " not in key.lstrip("- ") else body[:20]


def _lines_above(lines: list[str], row: int) -> list[int]:
    """The rows above ``row`` (0-based) that hold something (not blank, not only a comment), nearest first."""
    return [r for r in range(min(row, len(lines)) - 1, -1, -1)
            if lines[r].strip() and not lines[r].lstrip().startswith("#")]


def _indent_message(lines: list[str], row: int) -> str | None:
    """Plain words for a line indented wrong, with the lines above it to line it up with."""
    if row >= len(lines) or not lines[row].strip():
        return None
    here = _indent(lines[row])
    above = _lines_above(lines, row)
    if not above:
        return None
    prev = lines[above[0]]
    col = _key_column(prev)
    if here > col:
        return (f"this line is indented more than the line above it (hint: line it up with "
                f"`{_first_word(prev)}`, or put it in a new section)")
    if here == col:
        return None
    # indented less than the line above: line it up with that line, or with a line further up
    outer = next((r for r in above if _indent(lines[r]) <= here), None)
    hint = f"line it up with `{_first_word(prev)}` ({col} spaces)"
    if outer is not None and _indent(lines[outer]) == here and _key_column(lines[outer]) > here:
        # under a list item's dash: the line belongs to that item, or starts a new one with "- "
        hint += ", or start a new list item with `- `"
    elif outer is not None:
        hint += f" or with `{_first_word(lines[outer], dash=True)}` ({_indent(lines[outer])} spaces)"
    return f"this line is indented by {here} spaces, which matches no line above it (hint: {hint})"


# The top-level keys of an order file (schemas/orders.schema.json; a test keeps the two the same): a line that
# starts with one of them but has no colon is a key that lost its colon, any other line of bare words is stray text
ORDER_KEYS = ("campaign", "turn", "player", "secret", "discard", "upkeep", "recruit", "diplomacy", "cards",
              "first_move", "sea_battle", "land_battle", "second_move", "standing")

# a key glued to its value, `secret:6d8e-...` (a URL's `http://` is not one)
_GLUED_KEY = re.compile(r"^(?P<lead>[ \t]*(?:-[ \t]+)*)(?P<key>[A-Za-z_][A-Za-z0-9_]*):(?P<value>[^\s:/#].*)$")
# what a line of YAML starts with, other than a key (a list item, a comment, a flow collection, a quoted key ...)
_YAML_START = re.compile(r"""^(-(\s|$)|#|[\[\]{}"'&*!|>%?@`]|---|\.\.\.)""")
_KEY_COLON = re.compile(r":(\s|$)")


def _bracket_walk(lines: list[str]) -> tuple[list[int], list[tuple[str, int, int]]]:
    """The [ and { of the file, quoted text and comments not counted: how many are open at the start of each
    line, and those the file leaves open, (the bracket, its row, its column), 0-based, the innermost last."""
    depths: list[int] = []
    stack: list[tuple[str, int, int]] = []
    for r, line in enumerate(lines):
        depths.append(len(stack))
        quote = ""
        for i, ch in enumerate(line):
            if quote:
                if ch == quote:
                    quote = ""
            elif ch in "'\"" and (i == 0 or line[i - 1] in _QUOTE_AFTER):
                quote = ch
            elif ch == "#" and (i == 0 or line[i - 1] in " \t"):
                break
            elif ch in "[{":
                stack.append((ch, r, i))
            elif ch in "]}" and stack:
                stack.pop()
    return depths, stack


def _flow_depths(lines: list[str]) -> list[int]:
    """The depth of [ and { open at the start of each line (quoted text and comments not counted)."""
    return _bracket_walk(lines)[0]


def _last_unclosed(lines: list[str]) -> tuple[str, int, int] | None:
    """The [ or { the file leaves open, the innermost: (the bracket, its row, its column), 0-based; quoted text
    and comments not counted, as in ``_flow_depths``."""
    left = _bracket_walk(lines)[1]
    return left[-1] if left else None


def _glued_key(lines: list[str], last: int) -> tuple[str, tuple[int, int]] | None:
    """A `key:value` line without the space after the colon, the nearest at or above row ``last``."""
    for r in range(min(last, len(lines) - 1), -1, -1):
        m = _GLUED_KEY.match(lines[r])
        if m:
            key, value = m.group("key"), m.group("value").rstrip()
            value = value if len(value) <= 40 else value[:37] + "..."  # a line of 200 KB is not shown whole
            return (f"`{key}:` needs a space after the colon (hint: write `{key}: {value}`)",
                    (r + 1, m.end("key") + 2))
    return None


def _stray_line(lines: list[str], last: int) -> tuple[str, tuple[int, int]] | None:
    """A line of plain text at the left margin, not a `key: value` line, at or above row ``last``: an email's
    greeting or signature pasted with the orders ("Hi Mod, here are my orders!"), or a key without its colon."""
    depths = _flow_depths(lines)
    for r in range(min(last + 1, len(lines))):
        line = lines[r]
        if not line.strip() or line[0] in " \t" or depths[r] or _YAML_START.match(line) or _KEY_COLON.search(line):
            continue
        word, _, rest = line.strip().partition(" ")
        if word in ORDER_KEYS or "_" in word:
            return f"a line needs a colon after the key, like `{word}: {rest.strip() or '...'}`", (r + 1, 1)
        return (f"line {r + 1} is not an order: an order file holds only `key: value` lines, list items and comments "
                f"(hint: delete the line, or start it with # to keep it as a comment)"), (r + 1, 1)
    return None


_HASH_IN_FLOW = re.compile(r"(?<=[\[{,\s])#(?P<rest>[0-9][^\s,\]}]*)")


def _hash_in_flow(lines: list[str], last: int) -> tuple[str, tuple[int, int]] | None:
    """A `#` inside [ ] or { } just before a value, `path: [#1313]`: YAML reads it as the start of a comment, so
    the rest of the line (the ] or } too) is left out."""
    depths = _flow_depths(lines)
    for r in range(min(last + 1, len(lines))):
        line = lines[r]
        depth, quotes, start = depths[r], [0, 0], 0  # counted on from the last #: counting the whole text before
        for m in _HASH_IN_FLOW.finditer(line):  # each # took time quadratic in a line of ` #1 #1 ...` (a code review)
            before = line[start: m.start()]
            start = m.start()
            depth += before.count("[") + before.count("{") - before.count("]") - before.count("}")
            quotes[0] += before.count('"')
            quotes[1] += before.count("'")
            if depth <= 0:
                continue  # not inside [ ] or { }
            if quotes[0] % 2 or quotes[1] % 2:
                continue  # inside a quoted value
            value = m.group("rest")
            return (f"# starts a comment, so #{value} and the rest of the line are left out: a hex id must be in "
                    f"quotes (hint: write \"{value}\")"), (r + 1, m.start() + 1)
    return None


_LONG_DASH_ITEM = re.compile("^[ \t]*(?P<dash>[\u2010-\u2015\u2212])[ \t]")
_WIDE_COLON_KEY = re.compile("^[ \t]*(?:-[ \t]+)*[A-Za-z_][A-Za-z0-9_]*[ \t]*(?P<colon>\uff1a)")


def _lookalike_line(lines: list[str], last: int) -> tuple[str, tuple[int, int]] | None:
    """A list item started with a long dash (`– units: ...`, autocorrect's), or a key with a full-width colon, at
    or above row ``last``: YAML reads neither, and what PyYAML says of the lines after misleads."""
    for r in range(min(last + 1, len(lines))):
        m = _LONG_DASH_ITEM.match(lines[r])
        if m:
            return (f"{m.group('dash')} is a long dash, not the - that starts a list item: write - (autocorrect "
                    f"changed it)"), (r + 1, m.start("dash") + 1)
        m = _WIDE_COLON_KEY.match(lines[r])
        if m:
            return "a full-width colon ：: write : (a plain colon)", (r + 1, m.start("colon") + 1)
    return None


def _tab_words(lines: list[str], mark: Any) -> str:
    """A tab PyYAML stopped at, in words for where it is: indentation, the end of a line, or between words (after
    `diplomacy:`, say), which YAML allows in some places and PyYAML in none (a mail review)."""
    line = lines[mark.line] if mark is not None and mark.line < len(lines) else ""
    col = mark.column if mark is not None else 0
    before, after = line[:col], line[col:]
    if not before.strip():
        return "a tab character: indent with spaces only, never tabs"
    if not after.strip():
        return "a tab character at the end of the line: delete it"
    shown = before.strip()
    shown = shown if len(shown) <= 30 else "..." + shown[-27:]
    return f"a tab character after `{shown}` (not indentation): write a space instead"


# a block scalar's indicator at the end of a line's content: `note: |`, `- >-`
_BLOCK_START = re.compile(r"(?:^|[ \t])[|>][-+0-9]*[ \t]*$")


def soften_tabs(text: str) -> str:
    """``text`` with each tab that YAML reads as plain white space, and PyYAML refuses, made a space: on a line of
    white space only (an editor's auto-indent), in the white space before a comment (`diplomacy: [chalcis]\\t# x`,
    a comment line indented with a tab), at the end of a line, before and after a key's colon, between the items
    of a [ ] or { } (`[chalcis,\\taegina]`).  One tab becomes one space, so lines and columns stay as they are.  A tab
    in a line's indentation, after a list's dash, inside a value (quoted, a block, or plain words) is left: YAML
    does not read the first two as white space, and the value is the player's (a mail review: each of these was
    refused as `a tab character`)."""
    if "\t" not in text:
        return text
    out: list[str] = []
    depth = 0  # [ and { open
    quote = ""  # the quote of a quoted value that runs on over lines
    block: int | None = None  # the indentation of the line a block scalar (| or >) belongs to, while in one
    for line in text.split("\n"):
        body = line[:-1] if line.endswith("\r") else line
        lead = len(body) - len(body.lstrip(" "))
        if block is not None:
            if lead > block:
                out.append(line)  # a line of the block scalar's text
                continue
            if body.strip(" \t"):
                block = None  # the block scalar ended above
        if not body.strip(" \t"):
            out.append(line if quote else line.replace("\t", " "))
            continue
        chars = list(body)
        i, n, plain, end = (0 if quote else lead), len(body), False, len(body)
        while i < n:
            c = body[i]
            if quote:
                j = i
                while j < n:
                    if quote == '"' and body[j] == "\\":
                        j += 2
                        continue
                    if body[j] == quote:
                        if quote == "'" and body[j + 1: j + 2] == "'":
                            j += 2
                            continue
                        break
                    j += 1
                if j >= n:
                    i = n  # the quoted value goes on over the next line
                    break
                quote, i, plain = "", j + 1, True
                continue
            if c in " \t":
                j = i
                while j < n and body[j] in " \t":
                    j += 1
                if "\t" in body[i:j]:
                    nxt = body[j] if j < n else ""
                    prev = body[i - 1] if i else ""
                    colon = nxt == ":" and body[j + 1: j + 2] in ("", " ", "\t")  # before a key's colon
                    if (nxt in ("", "#") or prev == ":" or colon or depth and (prev in "[{," or nxt in "]},")) and \
                            not (i == lead and nxt != "#"):  # never a line's indentation
                        chars[i:j] = [" "] * (j - i)
                i = j
                continue
            nxt = body[i + 1] if i + 1 < n else ""
            if c == "#" and (i == 0 or body[i - 1] in " \t" or not plain):
                end = i  # a comment: the rest of the line
                break
            if c in "'\"" and not plain:
                quote = c
                i += 1
                continue
            if c in "[{" and (depth or not plain) or c in "]}," and depth:
                depth += 1 if c in "[{" else -1 if c in "]}" else 0
                plain = False
            elif c == ":" and (nxt in ("", " ", "\t") or depth and nxt in ",[]{}"):
                plain = False
            elif c in "-?" and not plain and nxt in ("", " ", "\t"):
                plain = False
            else:
                plain = True
            i += 1
        out.append("".join(chars) + line[len(body):])
        if not quote and not depth and _BLOCK_START.search(body[:end]):
            block = lead
    return "\n".join(out)


# what a mail program leaves in text saved or pasted from a mail (a mail review): each is named in one line
_MAIL_HEADER = re.compile(r"^(From|To|Cc|Bcc|Subject|Date|Reply-To|Message-I[Dd]|MIME-Version|Content-Type|"
                          r"Content-Transfer-Encoding|Received|Return-Path|Delivered-To|X-[A-Za-z0-9-]+):( |$)")
# (a tag's attributes bounded: `[^>]*>` took time quadratic in a line of `<p <p <p ...` with no `>`, and this runs
# before the sender is authenticated; a code review)
_HTML = re.compile(r"<(!DOCTYPE|html|head|body|pre|div|p|br|span|table)(?=[\s/>])[^>\n]{0,200}>", re.I)
_QP_CODE = re.compile(r"=(3D|20|09|[89A-F][0-9A-F](?==[89A-F][0-9A-F]))")
# a comment as PyYAML reads one: a # after white space, or glued to the end of a [ ] or { }, a quoted value or a
# list's comma (a mail review: `diplomacy: [chalcis]# cost=20` was called quoted-printable mail text)
_COMMENT = re.compile(r"(^|[ \t\]}\"',])#.*$")
# the header values in which anything may be written, `=` and `<` too: the campaign's name (any text) and the
# secret (the moderator may write their own); mail is not looked for in them (a code review: in a campaign named
# "Aegean =2026" every file was refused as quoted-printable mail text, by submit and by check)
_FREE_VALUE = re.compile(r"[ \t]*(campaign|secret)[ \t]*:")
_SENT_FROM = re.compile(r"^(Sent from my |Get Outlook for |Envoyé de mon |Von meinem )")
SEND_PLAIN = "send the order file as an attachment, or paste it as plain text"


def _free_rows(lines: list[str]) -> set[int]:
    """The rows (0-based) of the header's free values, `campaign:` and `secret:`, with the indented lines such a
    value continues on."""
    rows: set[int] = set()
    inside = False
    for r, line in enumerate(lines):
        if _FREE_VALUE.match(line):
            inside = True
        elif line[:1] not in ("", " ", "\t", "\r", "#"):
            inside = False  # the next key at the left margin: the value ended above
        if inside:
            rows.add(r)
    return rows


def mail_text(text: str) -> tuple[str, tuple[int, int]] | None:
    """What shows that ``text`` is not an order file as written but mail around one: mail headers saved with the
    body, an HTML part, quoted-printable encoding (``=3D``, a line broken with ``=``), '> ' quoting, a signature
    (a ``-- `` line, "Sent from my iPhone").  (message, (line, column)), or None.  A signature is refused, not left
    out: what follows the ``-- `` line could be orders, and the moderator's copy must read as the player's."""
    lines = text.split("\n")
    content = [(r, line) for r, line in enumerate(lines) if line.strip()]
    if not content:
        return None
    first_r, first = content[0]
    free = _free_rows(lines)
    coded = [(r, line) for r, line in content if r not in free]  # where '=' and '<' can be no value's
    headers = [(r, line) for r, line in content if _MAIL_HEADER.match(line)]
    if headers and (_MAIL_HEADER.match(first) and len(headers) >= 2 or len(headers) >= 3):
        r, line = headers[0]
        return (f"this is a saved email (its `{line.split(':')[0]}:` line, line {r + 1}): {SEND_PLAIN}, without the "
                f"mail's header lines"), (r + 1, 1)
    for r, line in coded[:3]:
        # a line that starts with a tag, or the first line outside its comment (`turn: 1  # <b>new</b>`, a
        # comment line `# <p> ...`, is no HTML)
        m = _HTML.search(line) if line.lstrip().startswith("<") else \
            _HTML.search(_COMMENT.sub("", line)) if r == first_r else None
        if m:
            return (f"this is HTML (`{m.group()[:20]}` on line {r + 1}), not an order file: save the orders as plain "
                    f"text (a .yaml or .txt file), or {SEND_PLAIN}"), (r + 1, m.start() + 1)
    for r, line in content:
        if line.startswith(">"):
            return (f"line {r + 1} starts with '>', as the lines of a quoted email do: remove the '> ' at the start of "
                    f"each line, or {SEND_PLAIN}"), (r + 1, 1)
    for r, line in coded:
        body = _COMMENT.sub("", line.rstrip("\r"))
        m = _QP_CODE.search(body)
        if m:
            return (f"this looks like email text (quoted-printable '{m.group()}' on line {r + 1}): {SEND_PLAIN}"), \
                (r + 1, m.start() + 1)
        if body.rstrip().endswith("=") and len(body.rstrip()) > 1:
            return (f"this looks like email text (quoted-printable: line {r + 1} ends in '=', the rest of it is on the "
                    f"next line): {SEND_PLAIN}"), (r + 1, len(body.rstrip()))
    for r, line in content:
        if line.rstrip("\r") in ("-- ", "--"):
            return (f"a signature from line {r + 1} on (the '-- ' line): delete it and the lines after it"), (r + 1, 1)
        if _SENT_FROM.match(line):
            return (f"a mail program's signature on line {r + 1} ({line.strip()[:30]!r}): delete it"), (r + 1, 1)
    return None


_SEPARATORS = re.compile("[\x85\u2028\u2029]")
_SEPARATOR_NAMES = {"\x85": "a next-line character (NEL, U+0085)", "\u2028": "a line separator character (U+2028)",
                    "\u2029": "a paragraph separator character (U+2029)"}
_EDITOR_BREAKS = re.compile("\r\n|[\r\n]")  # the line ends editors show


def _separator_found(text: str, last: int) -> tuple[str, tuple[int, int]] | None:
    """A line separator (U+2028, U+2029, NEL) inside a line of a file whose lines end otherwise (with \\n), at or
    above row ``last`` (0-based, as PyYAML counts rows): YAML takes it for a line end, which an editor does not
    show, so what PyYAML says of the "line" after it misleads (a mail review: `# one<U+2028>two` in a comment on
    line 5 was "line 6 needs a colon").  Its line and column are the editor's.  A file whose lines all end with
    one is read as it is."""
    m = _SEPARATORS.search(text)
    if m is None or not _EDITOR_BREAKS.search(text.rstrip()) or line_column(text, m.start())[0] > last + 1:
        return None
    line, start = 1, 0
    for b in _EDITOR_BREAKS.finditer(text, 0, m.start()):
        line, start = line + 1, b.end()
    col = m.start() - start + 1
    where = f"in line {line} (a comment)" if _COMMENT.search(text[start:m.start()]) else \
        f"at line {line}, column {col}"
    return (f"{_SEPARATOR_NAMES[m.group()]} {where}: delete it (YAML takes it for a line end, which editors do not "
            f"show)"), (line, col)


def separator_in_a_line(text: str) -> tuple[str, tuple[int, int]] | None:
    """``_separator_found`` for a file that parsed: a line separator inside a line makes what follows it a line
    of its own to YAML, which the editor shows as part of the line (a comment's text read as an order)."""
    return _separator_found(text, len(text))


def plain_syntax_error(exc: yaml.MarkedYAMLError, text: str) -> tuple[str, tuple[int, int] | None]:
    """A PyYAML syntax error in plain words with a hint, and its (line, column), 1-based.

    The common mistakes of hand-written order files get their own words; anything else keeps PyYAML's.  The
    mistakes that PyYAML notices only lines later (a # in a list, a key glued to its value, stray text) are
    looked for first, at or above the line PyYAML stopped at, and named where they are.
    """
    problem = (exc.problem or "").strip()
    context = (exc.context or "").strip()
    pm, cm = exc.problem_mark, exc.context_mark
    lines = _content_lines(text)
    where = (pm.line + 1, pm.column + 1) if pm is not None else (cm.line + 1, cm.column + 1) if cm else None
    got = problem.rpartition("but got ")[2]
    separator = _separator_found(text, where[0] - 1 if where else len(lines))
    if separator:
        return separator
    if _tab_refused(exc):
        return _tab_words(lines, pm), where
    last = where[0] - 1 if where else len(lines) - 1
    nbsp = _nbsp_found(text, _NBSP_SPACE, last + 1)
    if nbsp:
        return nbsp
    mail = mail_text(text)
    if mail:
        return mail
    quote_open = problem.startswith("found unexpected end of stream") and "quoted" in context
    found = None if quote_open else \
        _lookalike_line(lines, last) or _hash_in_flow(lines, last) or _glued_key(lines, last) or \
        _stray_line(lines, last)
    if found:
        return found
    if problem.startswith("expected <block end>") and pm is not None:
        msg = _indent_message(lines, pm.line)
        if msg:
            return msg, (pm.line + 1, _indent(lines[pm.line]) + 1)
        return ("this line does not fit the lines above it: check its indentation and the dash (-) and "
                "colon it needs"), where
    if problem == "mapping values are not allowed here" and pm is not None:
        msg = _indent_message(lines, pm.line)
        if msg and _indent(lines[pm.line]) > _key_column(lines[_lines_above(lines, pm.line)[0]]):
            return msg, (pm.line + 1, _indent(lines[pm.line]) + 1)
        return "a value containing \": \" must be in quotes, like note: \"Athens: first\"", where
    if problem.startswith("expected ',' or ']'") or problem.startswith("expected ',' or '}'"):
        closer = "]" if "']'" in problem.split(",")[1] else "}"
        opener = "[" if closer == "]" else "{"
        kind = "a list" if closer == "]" else "a {...} mapping"
        opened = f" on line {cm.line + 1}" if cm is not None else ""
        if got in ("'?'", "':'") and pm is not None and (cm is None or cm.line == pm.line):
            return ("a value containing ? or : must be in quotes, like \"THE-?1\" (hint: or did you mean "
                    f"{kind} opened with {opener}?)"), where
        if got in ("']'", "'}'") and got != f"'{closer}'":
            return f"{kind} opened with {opener}{opened} is closed with {got[1]} instead of {closer}", where
        return (f"{kind} opened with {opener}{opened} is not closed with {closer} (hint: add {closer} at the end "
                f"of that line)"), where
    if problem == "could not find expected ':'":
        line = (cm.line + 1, cm.column + 1) if cm is not None else where
        return "a line needs a colon after the key, like `turn: 3`", line
    if problem.startswith("found unexpected end of stream") and "quoted" in context:
        opened = lines[cm.line][cm.column:cm.column + 1] if cm is not None and cm.line < len(lines) else ""
        q = opened if opened in ("'", '"') else "'" if "single" in context else '"'
        return f"a quote {q} opened here is not closed", (cm.line + 1, cm.column + 1) if cm else where
    if problem.startswith("expected <block mapping start>") or problem.startswith("expected <block sequence"):
        return "this line does not fit the lines above it: check its indentation", where
    if problem == "expected the node content, but found '<stream end>'":
        # the file ends inside [ ] or { } (a code review: it was "a value is missing before '<stream end>' (hint:
        # remove the extra comma ...)", PyYAML's words and the wrong hint)
        open_ = _last_unclosed(lines)
        if open_ is not None:
            opener, r, c = open_
            kind, closer = ("a list", "]") if opener == "[" else ("a {...} mapping", "}")
            return (f"{kind} opened with {opener} on line {r + 1} is not closed with {closer} (hint: add {closer} at "
                    f"the end of that line)"), (r + 1, c + 1)
    if problem.startswith("expected the node content, but found"):
        return (f"a value is missing before {problem.rpartition('found ')[2]} (hint: remove the extra comma, "
                f"or write the value)"), where
    if problem.startswith("expected '<document start>'"):
        return ("more text after a complete value (hint: a value in quotes ends at its closing quote: put the whole "
                "value in the quotes, or add the missing colon)"), where
    if problem.startswith("found character") and "cannot start any token" in problem:
        ch = problem.split("'")[1] if "'" in problem else "?"
        return f"a value cannot start with {ch}: put the value in quotes, like \"{ch}...\"", where
    return problem or context or "not YAML", where


class _PlainLoader(yaml.SafeLoader):
    """PyYAML's safe composer, refusing an anchor or an alias at the first one, before anything is expanded."""

    source = "?"
    nodes = 0

    def compose_node(self, parent: Any, index: Any) -> Any:
        event = self.peek_event()
        self.nodes += 1
        if self.nodes > MAX_NODES:  # stop composing at once, not after the whole file
            m = event.start_mark
            raise YamlError(self.source, f"too many values (the limit is {MAX_NODES})", m.line + 1, m.column + 1)
        if isinstance(event, yaml.AliasEvent) or getattr(event, "anchor", None):
            m = event.start_mark
            raise YamlError(self.source, "anchors and aliases (& and *) are not allowed in pbem files",
                            m.line + 1, m.column + 1)
        return super().compose_node(parent, index)


def _tab_refused(exc: yaml.MarkedYAMLError) -> bool:
    """Whether PyYAML stopped at a tab."""
    problem = exc.problem or ""
    return "'\\t'" in problem or "\\t" in problem and "cannot start any token" in problem


def _syntax_error(exc: yaml.MarkedYAMLError, text: str, source: str) -> YamlError:
    msg, mark = plain_syntax_error(exc, text)
    if mark is not None:
        return YamlError(source, f"YAML syntax error: {msg}", mark[0], mark[1])
    return YamlError(source, f"YAML syntax error: {msg}")


def _compose(text: str, source: str) -> yaml.Node | None:
    """The document's node tree (None for an empty one); raises ``yaml.MarkedYAMLError`` for a syntax error."""
    loader = None
    try:
        loader = _PlainLoader(text)
        loader.source = source
        node = loader.get_node() if loader.check_node() else None
        if loader.check_node():
            loader.get_event()  # the second document's start: name the place its content starts, as before
            m = loader.peek_event().start_mark
            raise YamlError(source, "more than one YAML document (a second '---'); send one document per file",
                            m.line + 1, m.column + 1)
        return node
    except (YamlError, yaml.MarkedYAMLError):
        raise
    except yaml.YAMLError as exc:
        raise YamlError(source, f"YAML error: {exc}") from None
    except RecursionError:
        raise YamlError(source, f"nested too deeply (the limit is {MAX_DEPTH} levels)") from None
    finally:
        if loader is not None:
            loader.dispose()


def parse(text: str, source: str) -> Located:
    """Parse one YAML document of plain data, refusing anything hostile.  Raises ``YamlError``.

    The text is scanned once (anchors and a second document are refused as the composer meets them): a file
    of 256 KB costs one pass of PyYAML, not two.  A file PyYAML refuses at a tab YAML reads as white space (a
    line of white space only, a tab before a comment or between the items of a list: ``soften_tabs``) is read
    again with those tabs as spaces; the text kept is the player's, as sent."""
    check_plain_text(text, source)
    check_nesting(text, source)
    try:
        node = _compose(text, source)
    except yaml.MarkedYAMLError as exc:
        soft = soften_tabs(text) if _tab_refused(exc) else text
        if soft == text:
            raise _syntax_error(exc, text, source) from None
        try:
            node = _compose(soft, source)
        except yaml.MarkedYAMLError as again:
            raise _syntax_error(again, soft, source) from None
    marks: dict[PathKey, tuple[int, int]] = {}
    if node is None:
        return Located(None, marks, source)
    counter = [0]
    data = _build(node, (), 0, marks, source, counter)
    return Located(data, marks, source)


def _build(node: yaml.Node, path: PathKey, depth: int, marks: dict, source: str, counter: list) -> Any:
    counter[0] += 1
    line, col = node.start_mark.line + 1, node.start_mark.column + 1
    if counter[0] > MAX_NODES:
        raise YamlError(source, f"too many values (the limit is {MAX_NODES})", line, col)
    if depth > MAX_DEPTH:
        raise YamlError(source, f"nested too deeply (the limit is {MAX_DEPTH} levels)", line, col)
    if node.tag not in _ALLOWED_TAGS and node.tag != "tag:yaml.org,2002:timestamp":
        raise YamlError(source, f"the tag {node.tag!r} is not allowed; write plain values", line, col)
    marks[path] = (line, col)
    if isinstance(node, yaml.MappingNode):
        out: dict[Any, Any] = {}
        for key_node, value_node in node.value:
            if not isinstance(key_node, yaml.ScalarNode):
                m = key_node.start_mark
                raise YamlError(source, "a key must be a plain word, not a list or mapping",
                                m.line + 1, m.column + 1)
            if key_node.tag == "tag:yaml.org,2002:merge" or key_node.value == "<<" and key_node.tag != \
                    "tag:yaml.org,2002:str":
                m = key_node.start_mark
                raise YamlError(source, "merge keys (<<) are not allowed", m.line + 1, m.column + 1)
            key = _scalar(key_node, source)
            if key in out:
                m = key_node.start_mark
                first = marks.get(("@key",) + path + (key,))
                where = f"on line {first[0]}" if first else "above"
                raise YamlError(source, f"duplicate key {key!r}: it is already given {where} (hint: keep one of the "
                                        f"two; to use a commented-out example, remove the other {key}: line)",
                                m.line + 1, m.column + 1)
            out[key] = _build(value_node, path + (key,), depth + 1, marks, source, counter)
            marks[path + (key,)] = (value_node.start_mark.line + 1, value_node.start_mark.column + 1)
            marks[("@key",) + path + (key,)] = (key_node.start_mark.line + 1, key_node.start_mark.column + 1)
        return out
    if isinstance(node, yaml.SequenceNode):
        return [_build(v, path + (i,), depth + 1, marks, source, counter) for i, v in enumerate(node.value)]
    return _scalar(node, source)


_constructor = yaml.SafeLoader("")
_NULLS = ("", "~", "null", "Null", "NULL")
_TAG_WANTS = {"bool": "true or false", "int": "a whole number", "float": "a number", "null": "empty (null)"}


def _bad_value(node: yaml.ScalarNode) -> str:
    """A value its explicit tag cannot make (`!!bool abc`, `!!int 1.5`), in words."""
    kind = node.tag.rpartition(":")[2]
    value = node.value if len(node.value) <= 40 else node.value[:37] + "..."
    return (f"bad value: !!{kind} {value!r} is not {_TAG_WANTS.get(kind, 'a value of that tag')} (hint: write the "
            f"value plainly, without the !!{kind} tag)")


def _scalar(node: yaml.ScalarNode, source: str) -> Any:
    if node.tag == "tag:yaml.org,2002:timestamp":
        return node.value  # dates stay text, e.g. deadlines "2026-12-01"
    if node.tag not in _ALLOWED_TAGS:
        m = node.start_mark
        raise YamlError(source, f"the tag {node.tag!r} is not allowed; write plain values", m.line + 1,
                        m.column + 1)
    m = node.start_mark
    if node.tag == "tag:yaml.org,2002:null" and node.value not in _NULLS:  # PyYAML makes anything null
        raise YamlError(source, _bad_value(node), m.line + 1, m.column + 1)
    if node.tag in ("tag:yaml.org,2002:int", "tag:yaml.org,2002:float") and not node.value.isascii():
        raise YamlError(source, _bad_value(node), m.line + 1, m.column + 1)  # `!!int ١٢`: int() reads any digits
    try:
        value = _constructor.construct_object(node, deep=True)
    except yaml.YAMLError as exc:
        raise YamlError(source, f"bad value: {exc}", m.line + 1, m.column + 1) from None
    except ValueError as exc:
        if "limit" in str(exc):  # Python's limit on the digits of a whole number (4300): no value of pbem's is near
            raise YamlError(source, f"a number of {len(node.value)} characters: too long to be a value pbem "
                                    f"understands", m.line + 1, m.column + 1) from None
        raise YamlError(source, _bad_value(node), m.line + 1, m.column + 1) from None
    except Exception:  # PyYAML's constructors raise what they meet: `!!bool abc` a KeyError, `!!int +` an IndexError
        raise YamlError(source, _bad_value(node), m.line + 1, m.column + 1) from None
    if isinstance(value, float) and value != value:  # NaN
        m = node.start_mark
        raise YamlError(source, "NaN is not a value pbem understands", m.line + 1, m.column + 1)
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 63:
        # a hex, octal or base-60 number PyYAML reads whatever its size, which Python then cannot print
        m = node.start_mark
        raise YamlError(source, f"a number of {len(node.value)} characters: too long to be a value pbem understands",
                        m.line + 1, m.column + 1)
    return value


def load(path: Path | str, source: str | None = None, max_bytes: int = MAX_BYTES) -> Located:
    source = source or str(path)
    return parse(read_text(path, source, max_bytes), source)


def load_data(path: Path | str, source: str | None = None, max_bytes: int = 4 * 1024 * 1024) -> Any:
    """Just the data (for our own trusted-but-checked data files)."""
    return load(path, source, max_bytes).data


class _PlainDumper(yaml.SafeDumper):
    """Never writes anchors and aliases (which pbem refuses to read)."""

    def ignore_aliases(self, data: Any) -> bool:
        return True


def dump(data: Any) -> str:
    """YAML text for files we write for people (config, templates): block style, keys in given order."""
    return yaml.dump(data, Dumper=_PlainDumper, sort_keys=False, allow_unicode=True, default_flow_style=False,
                     width=100)
