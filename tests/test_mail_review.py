"""Order files as real mail programs and editors make them (a mail review): each gets one clear line naming the
file and the line, `pbem check` says what `pbem submit` will say, and nothing keeps a player's live secret.

Files are built here as bytes: a UTF-16 file from Notepad, a form feed from a PDF, a no-break space from a web
mail, curly quotes and long dashes from autocorrect, a signature, quoted-printable text ...
"""
from datetime import datetime, timezone

import pytest

from pbem import yamlio
from pbem.campaign import create
from pbem.checker import check_text, main
from pbem.intake import ingest, submit_bytes

NOW = datetime(2026, 11, 22, 12, 0, tzinfo=timezone.utc)


@pytest.fixture
def camp(tmp_path):
    return create(tmp_path / "camp", ["athens", "sparta", "troy"], seed="5", name="test").campaign


def header(camp, player="athens", secret=None, turn=1) -> str:
    secret = camp.player_secrets()[player] if secret is None else secret
    return f"campaign: test\nturn: {turn}\nplayer: {player}\nsecret: {secret}\n"


def one_line(text: str) -> bool:
    return "\n" not in text.rstrip("\n")


# -- 1. the drop folder keeps no live secret, whatever the encoding --------------------------------------

@pytest.mark.parametrize("encoding, bom", [
    ("utf-16-le", b"\xff\xfe"), ("utf-16-le", b""), ("utf-16-be", b"\xfe\xff"), ("utf-16-be", b""),
    ("utf-32-le", b"\xff\xfe\x00\x00"), ("utf-32-be", b""),
])
def test_a_refused_file_not_in_utf8_is_kept_without_its_secret(camp, tmp_path, encoding, bom):
    secret = camp.player_secrets()["athens"]
    drop = tmp_path / "drop"
    drop.mkdir()
    (drop / "athens.yaml").write_bytes(bom + (header(camp) + "diplomacy: [megara]\n").encode(encoding))
    [answer] = ingest(camp, drop, NOW)
    assert not answer.accepted
    kept = answer.kept.read_bytes()
    for enc in ("utf-8", "utf-16-le", "utf-16-be", "utf-32-le", "utf-32-be"):
        assert secret.encode(enc) not in kept, enc
    assert "withheld".encode(encoding) in kept  # the rest of the file is kept as it came


# -- 3. a turn below 1 is refused as such, not as "too late" ---------------------------------------------

@pytest.mark.parametrize("turn", [0, -5])
def test_a_turn_below_one_is_refused_in_the_checkers_words(camp, turn):
    a = submit_bytes(camp, header(camp, turn=turn).encode(), "a.yaml", NOW)
    assert not a.accepted
    assert f"game turn is {turn}; it must be at least 1" in a.message, a.message
    assert "too late" not in a.text() and "report of turn" not in a.text()
    assert "too late" not in (camp.root / "audit.log").read_text()


# -- 2. `pbem check` reads the header as the moderator will ----------------------------------------------

def _template_with_secret_line_uncommented(camp):
    from pbem.playerkit import filled_template
    text = filled_template("test", 1, "athens")
    return text.replace("# secret: WRITE-YOUR-SECRET-HERE", "secret: WRITE-YOUR-SECRET-HERE", 1)


@pytest.mark.parametrize("make, said", [
    (lambda c, s: f"{{campaign: test, turn: 1, player: athens, secret: {s}}}\n", "not a plain line"),
    (lambda c, s: "".join("  " + line + "\n" for line in header(c).splitlines()), "not a plain line"),
    (lambda c, s: f"campaign: test\nturn: 1\nplayer: athens\n? secret\n: {s}\n", "an explicit key"),
    (lambda c, s: f"campaign: test\nturn: 1\nplayer: !!str athens\nsecret: {s}\n", "`player:`"),
    (lambda c, s: _template_with_secret_line_uncommented(c), "still the template's WRITE-YOUR-SECRET-HERE"),
    (lambda c, s: header(c, secret=f"\u201c{s}\u201d"), "curly quotes"),
    (lambda c, s: header(c, secret=s.replace("-", "\u2013")), "– is a long dash: write -"),
    (lambda c, s: header(c, secret=s.replace("-", "\u2014")), "— is a long dash: write -"),
    (lambda c, s: header(c, secret=s.upper().replace("0", "A")), "in capitals"),
])
def test_check_refuses_the_headers_intake_refuses(camp, make, said):
    """docs/players.md: the checker reads the file "as the moderator will"; each of these it called OK."""
    text = make(camp, camp.player_secrets()["athens"])
    for report in (check_text(text, "a.yaml"), check_text(text, "a.yaml", camp)):
        assert report.errors, report.to_text()
        assert any(said in f.text() for f in report.errors), report.to_text()
        assert all(one_line(f.text()) for f in report.findings)
    assert not submit_bytes(camp, text.encode(), "a.yaml", NOW).accepted


# -- 4. a missing key is named once; a key with a capital is named as such ---------------------------------

def test_each_missing_header_key_is_named_once():
    r = check_text("secret: x\n", "none.yaml")
    assert [f.message for f in r.errors] == [f"the file needs the key {k}" for k in ("campaign", "player", "turn")]


def test_a_header_key_with_a_capital_is_named_once_in_lower_case(camp):
    s = camp.player_secrets()["athens"]
    text = f"Campaign: test\nTurn: 1\nplayer: athens\nSecret: {s}\n"
    for report in (check_text(text, "a.yaml"), check_text(text, "a.yaml", camp)):
        assert [(f.line, f.message) for f in report.errors] == [
            (1, "`Campaign:` must be written in lower case, `campaign:`"),
            (2, "`Turn:` must be written in lower case, `turn:`"),
            (4, "`Secret:` must be written in lower case, `secret:`: the moderator finds no secret in the file "
                "otherwise, and refuses it")], report.to_text()
    assert "no secret" in submit_bytes(camp, text.encode(), "a.yaml", NOW).message


# -- 5. a control character is named in one line, with its line and column ---------------------------------

@pytest.mark.parametrize("ch, name", [
    ("\x0c", "a form-feed character (U+000C)"), ("\x1b", "an escape character (U+001B)"),
    ("\x7f", "a delete character (U+007F)"), ("\x07", "a bell character (U+0007)"),
    ("\x9b", "a control character (U+009B)"), ("\ufffe", "a non-character (U+FFFE)"),
])
@pytest.mark.parametrize("where", ["value", "comment"])
def test_a_control_character_is_named_with_its_place_in_one_line(camp, tmp_path, ch, name, where):
    line5 = f"diplomacy: [meg{ch}ara]\n" if where == "value" else f"# a note {ch} here\n"
    col = 16 if where == "value" else 10
    text = header(camp) + line5
    report = check_text(text, "ff.yaml")
    [f] = report.findings
    assert f.text() == f"ff.yaml:5:{col}: error: {name} at line 5, column {col}: delete it (it is invisible in most " \
                       f"editors; an order file holds plain text only)"
    (tmp_path / "ff.yaml").write_text(text, encoding="utf-8")
    out, code = main(tmp_path / "ff.yaml")
    assert code == 2 and name in out and "position" not in out
    a = submit_bytes(camp, text.encode(), "ff.yaml", NOW)
    assert not a.accepted and f"ff.yaml:5:{col}: {name}" in a.message
    assert "\n" not in a.message and "\\n" not in a.message
    assert "\\n" not in (camp.root / "audit.log").read_text()


def test_no_yaml_error_message_runs_over_lines():
    with pytest.raises(yamlio.YamlError) as exc:
        raise yamlio.YamlError("a.yaml", "found this\n  in \"<unicode string>\", line 3\r\nand that")
    assert str(exc.value) == 'a.yaml: found this in "<unicode string>", line 3 and that'


# -- 6. a no-break space where a space is needed is named ------------------------------------------------

@pytest.mark.parametrize("body, line, col", [
    ("first_move:\n\u00a0\u00a0- units: [ATH-A1]\n    path: [\"1212\"]\n", 6, 1),  # indentation
    ("diplomacy:\u00a0[megara]\n", 5, 11),  # after a key's colon
])
def test_a_no_break_space_for_a_space_is_named(camp, body, line, col):
    text = header(camp) + body
    [f] = check_text(text, "a.yaml").findings
    assert (f.line, f.column) == (line, col)
    assert f"a no-break space (U+00A0) at line {line}, column {col}: retype it as a plain space" in f.message
    a = submit_bytes(camp, text.encode(), "a.yaml", NOW)
    assert not a.accepted and a.message.startswith(f"cannot be read: a.yaml:{line}:{col}: ")
    assert f"a no-break space (U+00A0) at line {line}, column {col}" in a.message


def test_a_no_break_space_after_a_dash_is_named(camp):
    """`-\u00a0megara` is YAML for the text '-\u00a0megara', not a list item: the no-break space is named."""
    [f] = check_text(header(camp) + "diplomacy:\n  -\u00a0megara\n", "a.yaml").findings
    assert f.line == 6 and "a no-break space (U+00A0): retype it as a plain space" in f.text()


def test_a_no_break_space_after_the_secrets_colon_is_named_by_submit_too(camp):
    text = header(camp).replace("secret: ", "secret:\u00a0")
    a = submit_bytes(camp, text.encode(), "a.yaml", NOW)
    assert "a.yaml:4:8: a no-break space (U+00A0)" in a.message and "needs a space" not in a.message
    assert check_text(text, "a.yaml").findings[0].message.startswith("a no-break space (U+00A0) at line 4, column 8")


# -- 7. curly quotes, long dashes, a space inside quotes are named ------------------------------------------

@pytest.mark.parametrize("body, said", [
    ("first_move:\n  - units: [ATH-A1]\n    path: [\u201c1212\u201d]\n", 'curly quotes (“ ”): use straight quotes "'),
    ("first_move:\n  - units: [ATH-A1]\n    path: [\u20181212\u2019]\n", "curly quotes (‘ ’): use straight quotes '"),
    ("upkeep: [ATH\u2013A1]\n", "– is a long dash: write -"),
    ("upkeep: [ATH\u2014A1]\n", "— is a long dash: write -"),
    ("diplomacy: [\u201cmegara\u201d]\n", "curly quotes"),
    ("first_move:\n  - units: [ATH-A1]\n    path: [\" 1212\"]\n", 'a space inside the quotes: write "1212"'),
    ("standing:\n  retreat:\n    \u201c1212\u201d: [\"1313\"]\n", "curly quotes"),
    ("first_move:\n  \u2013 units: [ATH-A1]\n    path: [\"1212\"]\n", "– is a long dash, not the - that starts a list"),
])
def test_look_alike_characters_are_named(camp, body, said):
    text = header(camp) + body
    for report in (check_text(text, "a.yaml"), check_text(text, "a.yaml", camp)):
        assert report.errors and all(said in f.text() for f in report.errors), report.to_text()


# -- 8. a tab YAML does not read as white space is named where it is (those it does are taken as spaces:
# tests/test_mail_review2.py) ---------------------------------------------------------------------------------

@pytest.mark.parametrize("body, where, said", [
    ("diplomacy:\n  -\tmegara\n", (6, 4), "a tab character after `-` (not indentation): write a space instead"),
    ("diplomacy: [meg\tara]\n", (5, 16), "a tab character after `diplomacy: [meg` (not indentation)"),
    ("first_move:\n\t- units: [ATH-A1]\n", (6, 1), "a tab character: indent with spaces only, never tabs"),
])
def test_a_tab_is_named_where_it_is(camp, body, where, said):
    [f] = check_text(header(camp) + body, "a.yaml").findings
    assert (f.line, f.column) == where and said in f.message, f.text()


# -- 9. mail around the orders is named as such -------------------------------------------------------------

def _body(camp):
    return header(camp) + "diplomacy: [megara, chalcis]\n"


@pytest.mark.parametrize("make, line, said", [
    (lambda b: b.replace("diplomacy: [megara, ", "diplomacy: [megara, =\n"), 5,
     "this looks like email text (quoted-printable: line 5 ends in '='"),
    (lambda b: b.replace("chalcis]", "chalcis]=20"), 5, "this looks like email text (quoted-printable '=20' on line 5)"),
    (lambda b: b.replace("megara", "m=C3=A9gara"), 5, "(quoted-printable '=C3' on line 5)"),
    (lambda b: "".join("> " + line + "\n" for line in b.splitlines()), 1, "line 1 starts with '>'"),
    (lambda b: "From: p@example.com\nTo: mod@example.com\nSubject: orders\n\n" + b, 1,
     "this is a saved email (its `From:` line, line 1)"),
    (lambda b: "<html><body><pre>" + b + "</pre></body></html>\n", 1, "this is HTML (`<html>` on line 1)"),
    (lambda b: b + "\n-- \nPericles of Athens\nStrategos\n", 7, "a signature from line 7 on (the '-- ' line): delete it"),
    (lambda b: b + "\nSent from my iPhone\n", 7, "a mail program's signature on line 7 ('Sent from my iPhone')"),
])
def test_mail_around_the_orders_is_named_in_one_line(camp, tmp_path, make, line, said):
    text = make(_body(camp))
    report = check_text(text, "a.txt")
    [f] = report.findings
    assert said in f.message and one_line(f.text()), f.text()
    assert line is None or f.line == line
    (tmp_path / "a.txt").write_text(text, encoding="utf-8")
    out, code = main(tmp_path / "a.txt")
    assert code == 2, out
    answer = submit_bytes(camp, text.encode(), "a.txt", NOW)  # intake says it in the same words (an HTML file
    assert not answer.accepted and said in answer.text(), answer.text()  # was "for campaign None")


def test_a_comment_with_an_equals_sign_is_no_mail(camp):
    assert not check_text(_body(camp) + "# turn = 3, a = b\n", "a.yaml").findings


# -- 10. a file that is not UTF-8 text is named for what it is -----------------------------------------------

@pytest.mark.parametrize("make, said", [
    (lambda t: b"\xff\xfe" + t.encode("utf-16-le"), "this is UTF-16 text (Notepad's 'Unicode'), not UTF-8: save"),
    (lambda t: t.encode("utf-16-be"), "this is UTF-16 text"),
    (lambda t: t.encode("utf-32-be"), "this is UTF-32 text"),
    (lambda t: b"\xff\xfe\x00\x00" + t.encode("utf-32-le"), "this is UTF-32 text"),
    (lambda t: b"PK\x03\x04\x14\x00\x06\x00" + bytes(range(256)), "this is a Word (.docx) file"),
    (lambda t: b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n" + bytes(range(256)), "this is a PDF file, not a text file"),
])
def test_a_file_not_in_utf8_is_named_for_what_it_is(camp, make, said):
    raw = make(header(camp))
    a = submit_bytes(camp, raw, "a.yaml", NOW)
    assert not a.accepted and said in a.message and "bad byte" not in a.message, a.message
    with pytest.raises(yamlio.YamlError, match=said.replace("(", r"\(").replace(")", r"\)").replace(".", r"\.")):
        yamlio.decode(raw, "a.yaml")


def test_a_latin1_byte_is_named_at_its_column():
    raw = "campaign: test\nturn: 1\nplayer: athens\n# Périclès\n".encode("latin-1")
    with pytest.raises(yamlio.YamlError) as exc:
        yamlio.decode(raw, "a.yaml")
    assert (exc.value.line, exc.value.column) == (4, 4)
    assert "the byte 0xe9, é in Windows-1252 (Latin-1), at line 4, column 4" in str(exc.value)


# -- 11. nits: words as typed, raw parser messages, exit codes ------------------------------------------------

@pytest.mark.parametrize("body, said", [
    ("standing:\n  captured_leaders: on\n", 'on is read as true: write "on" in quotes if you mean the word'),
    ("~: 3\n", "unknown key ~ at the top level"),
    ("diplomacy: [megara,, chalcis]\n", "a value is missing before ','"),
    ("diplomacy: 'megara\n", "a quote ' opened here is not closed"),
])
def test_what_was_typed_is_shown_and_no_raw_parser_words(camp, body, said):
    report = check_text(header(camp) + body, "a.yaml")
    [f] = report.errors
    assert said in f.text() and "expected" not in f.text() and "None" not in f.text(), f.text()


@pytest.mark.parametrize("text", ["", "- a\n- b\n", "hello\n"])
def test_a_file_that_is_no_mapping_exits_with_2(tmp_path, text):
    (tmp_path / "a.yaml").write_text(text, encoding="utf-8")
    out, code = main(tmp_path / "a.yaml")
    assert code == 2 and out.endswith("a.yaml: not checked\n"), out


def test_text_after_a_quoted_value_is_said_in_words():
    with pytest.raises(yamlio.YamlError) as exc:
        yamlio.parse('"athens" orders\n', "a.yaml")
    assert "more text after a complete value" in str(exc.value) and "document start" not in str(exc.value)


@pytest.mark.parametrize("key", ["player", "secret"])
def test_an_invisible_character_before_a_header_key_is_named_by_submit_and_check(camp, key):
    """A mail review: a no-break space before `player:` made submit answer "this is not an order file", before
    `secret:` "no secret for athens" (the key, as YAML reads it, starts with the space).  Both now name it."""
    text = header(camp).replace(f"{key}:", f"\u00a0{key}:") + "diplomacy: [megara]\n"
    line = 3 if key == "player" else 4
    said = f"`{key}:` on line {line} has an invisible character before it (U+00A0 no-break space): delete it"
    answer = submit_bytes(camp, text.encode(), "a.yaml", NOW)
    assert not answer.accepted and said in answer.text(), answer.text()
    assert any(said in f.message for f in check_text(text, "a.yaml").findings)


# -- 12. a file as a player writes it is never taken for mail (a code review) ---------------------------------

@pytest.mark.parametrize("name", ["Aegean =2026", "Cup 2026 =", "League =3D=20 =C3=A9", "<p> league <br>",
                                  "Spring league >= 3 players"])
@pytest.mark.parametrize("quoted", [False, True])
def test_a_campaign_name_with_an_equals_sign_or_a_tag_is_no_mail(tmp_path, name, quoted):
    """The campaign's name is any text: one with `=20`, a trailing `=` or `<p>` in it was refused as quoted-
    printable or HTML mail text, every file of every player, by submit and check alike."""
    camp = create(tmp_path / "camp", ["athens", "sparta", "troy"], seed="5", name=name).campaign
    written = f'"{name}"' if quoted else name
    text = (f"campaign: {written}\nturn: 1\nplayer: athens\nsecret: {camp.player_secrets()['athens']}\n"
            f"diplomacy: [megara]\n")
    for report in (check_text(text, "a.yaml"), check_text(text, "a.yaml", camp)):
        assert not report.errors, report.to_text()
    answer = submit_bytes(camp, text.encode(), "a.yaml", NOW)
    assert answer.accepted, answer.text()


@pytest.mark.parametrize("comment", [
    "# turn = 3, a = b", "# a =20 space and =3D", "# this line ends in =", "diplomacy: [megara]  # ends in =",
    "# > quoted by me", "#> quoted", "# <b>new</b> this turn", "# <p> my orders <br>", "# --", "# -- ",
    "# From: Pericles", "# Sent from my iPhone", "# <html>",
])
@pytest.mark.parametrize("where", ["top", "end"])
def test_a_comment_is_never_taken_for_mail(camp, comment, where):
    body = header(camp) + ("" if comment.startswith("diplomacy") else "diplomacy: [megara]\n")
    text = f"{comment}\n{body}" if where == "top" else f"{body}{comment}\n"
    assert yamlio.mail_text(text) is None
    assert not check_text(text, "a.yaml", camp).errors
    answer = submit_bytes(camp, text.encode(), "a.yaml", NOW)
    assert answer.accepted, answer.text()


def test_a_first_line_with_a_comment_after_its_value_is_no_html(camp):
    text = "turn: 1  # <b>new</b> <p>\n" + header(camp).replace("turn: 1\n", "")
    assert yamlio.mail_text(text) is None
    assert submit_bytes(camp, text.encode(), "a.yaml", NOW).accepted


# -- 13. a large hostile file is answered at once (a code review: each of these took minutes) -------------------
# No timing is asserted: each file is of a size whose answer took minutes before (time quadratic in its size), so
# the suite itself would hang; each now takes well under a second.

BIG = 250_000  # characters: an order file may have 256 KB


def test_a_long_line_of_spaces_and_a_no_break_space_elsewhere(camp):
    """`_NBSP_SPACE` searched the whole text with `^[ \t]*...[ \t]*`: 80,000 spaces took 26 s."""
    text = header(camp) + "diplomacy: [\n" + " " * BIG + "megara\n\u00a0\n"
    [f] = check_text(text, "a.yaml").findings
    assert "a no-break space (U+00A0) at line 7, column 1: retype it as a plain space" in f.message, f.text()


def test_no_break_spaces_are_still_found_after_a_dash_and_a_colon():
    for body, where in (("a:\n  -\u00a0b\n c: [\n", (2, 4)), ("a:\n  - key :\u00a0b\n c: [\n", (2, 10)),
                        ("a:\n - - \u00a0b\n c: [\n", (2, 6))):
        with pytest.raises(yamlio.YamlError) as exc:
            yamlio.parse(body, "a.yaml")
        assert (exc.value.line, exc.value.column) == where and "no-break space" in str(exc.value), str(exc.value)


def test_html_without_a_closing_angle_bracket_is_answered_at_once(camp):
    """`_HTML`'s `[^>]*>` on a line of `<p <p <p ...` with no `>` took 12 s, before the sender is authenticated."""
    raw = ("<p " * (BIG // 3)).encode()
    a = submit_bytes(camp, raw, "a.yaml", NOW)
    assert not a.accepted and "this is not an order file" in a.message, a.message
    assert yamlio.mail_text("<p " * (BIG // 3)) is None
    assert "this is HTML (`<p <p" in yamlio.mail_text("<p " * (BIG // 3) + ">")[0]


def test_a_long_run_of_spaces_in_a_message_is_kept_on_one_line():
    """`_ONE_LINE` tried `[ \t]*` at each space of a run: quadratic in a message quoting a long line."""
    exc = yamlio.YamlError("a.yaml", "a" + " " * BIG + "b\n  c")
    assert str(exc) == "a.yaml: a" + " " * BIG + "b c"


def test_a_key_glued_to_a_long_value_is_named_with_the_value_cut_short(camp):
    text = header(camp) + "diplomacy:megara" + " " * BIG + "x\n  b: [\n"
    [f] = check_text(text, "a.yaml").findings
    assert "`diplomacy:` needs a space after the colon (hint: write `diplomacy: megara" in f.message, f.text()
    assert len(f.text()) < 300


def test_a_long_line_of_hashes_outside_brackets(camp):
    """`_hash_in_flow` counted the brackets of the whole line before each #: ` #1` 80,000 times took 12 s."""
    text = header(camp) + "diplomacy: x" + " #1" * (BIG // 3) + "\n  b: [\n"
    [f] = check_text(text, "a.yaml").findings
    assert "this line is indented more than the line above it" in f.message, f.text()
    with pytest.raises(yamlio.YamlError, match=r'a hex id must be in quotes \(hint: write "1313"\)'):
        yamlio.parse(header(camp) + "a: x" + " #1" * 1000 + "\nb: ['a #1', \"b #2\", #1313]\nc: [\n", "a.yaml")


def test_many_unknown_keys_are_each_named_once_without_comparing_them_all(monkeypatch):
    """schema_problems dropped a repeated problem with `p not in out`, which compares each problem with all the
    ones before: 22,200 unknown keys took two minutes.  Counted here as comparisons, not time."""
    from pbem.orders import Problem, schema_problems
    keys = 3000
    text = "campaign: test\nturn: 1\nplayer: athens\nsecret: x\nstanding:\n" + \
        "".join(f"  k{j}: 1\n" for j in range(keys))
    compared = [0]
    eq = Problem.__eq__

    def counted(self, other):
        compared[0] += 1
        return eq(self, other)

    monkeypatch.setattr(Problem, "__eq__", counted)
    problems = schema_problems(yamlio.parse(text, "a.yaml"), text)
    assert len(problems) == keys and len({p.path for p in problems}) == keys
    assert compared[0] < keys  # it was keys * (keys - 1) / 2
    missing = schema_problems(yamlio.parse("secret: x\nturn: 1\n", "a.yaml"))
    assert [p.message for p in missing] == ["the file needs the key campaign", "the file needs the key player"]


def test_a_word_read_as_true_before_a_long_run_of_spaces_is_shown_as_typed(camp):
    """raw_token's `\\s*$` was tried at each space of the run: time quadratic in it."""
    text = header(camp) + "diplomacy: [on" + " " * BIG + "]\n"
    [f] = check_text(text, "a.yaml").findings
    assert 'diplomacy[0]: on is read as true: write "on" in quotes if you mean the word' in f.text(), f.text()


def test_each_value_of_a_long_file_is_shown_as_typed_without_splitting_the_file_each_time():
    """raw_token split the whole text into lines for each value it showed: 49,000 `- on` items took minutes.
    Counted here as splits of the text, not time."""
    from pbem.orders import raw_token

    class Text(str):
        splits = 0

        def splitlines(self, *args, **kwargs):
            Text.splits += 1
            return super().splitlines(*args, **kwargs)

    items = 2000
    text = Text("campaign: test\ndiplomacy:\n" + "- on\n" * items + "standing: {captured_leaders: yes}\n")
    located = yamlio.parse(text, "a.yaml")
    shown = [raw_token(located, text, ("diplomacy", i)) for i in range(items)]
    assert shown == ["on"] * items
    assert raw_token(located, text, ("standing", "captured_leaders")) == "yes"
    assert raw_token(located, text, ("standing", "captured_leaders"), at_key=True) == "captured_leaders"
    assert Text.splits <= 1


# -- 14. the drop folder keeps no live secret: quoted-printable, compressed and binary files (a code review) -------

def _ingest_one(camp, tmp_path, name, raw):
    drop = tmp_path / "drop"
    drop.mkdir(exist_ok=True)
    (drop / name).write_bytes(raw)
    [answer] = ingest(camp, drop, NOW)
    assert not answer.accepted
    return answer


@pytest.mark.parametrize("split", [
    lambda s: s[:9] + "=\n" + s[9:],  # a soft line break, as a mail program wraps a long line
    lambda s: s[:9] + "=\r\n" + s[9:],
    lambda s: s[:3] + "=  \r\n" + s[3:12] + "=\n" + s[12:],
    lambda s: s.replace("-", "=2D"),
    lambda s: s[:1] + "=\n" + s[1:].replace("-", "=2d", 1),
])
def test_a_quoted_printable_file_is_kept_without_its_secret(camp, tmp_path, split):
    import quopri
    secret = camp.player_secrets()["sparta"]
    raw = header(camp, "sparta").replace(secret, split(secret)).encode() + b"diplomacy: [megara]=20\n"
    answer = _ingest_one(camp, tmp_path, "sparta.txt", raw)
    kept = answer.kept.read_bytes()
    assert secret.encode() not in quopri.decodestring(kept) and secret.encode() not in kept
    assert b"secret: withheld\n" in kept and kept.endswith(b"diplomacy: [megara]=20\n")  # the rest as it came


def _docx(text: str) -> bytes:
    import io
    import zipfile
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("word/document.xml", f"<w:document><w:t>{text}</w:t></w:document>")
    return buf.getvalue()


@pytest.mark.parametrize("name, make, kind", [
    ("athens.docx", _docx, "a Word (.docx) file or another zip archive"),
    ("athens.yaml", _docx, "a Word (.docx) file or another zip archive"),  # renamed
    ("athens.pdf", lambda t: b"%PDF-1.7\n" + __import__("zlib").compress(t.encode()), "a PDF file"),
    ("athens.rtf", lambda t: b"{\\rtf1\\ansi " + t.replace("-", "\\'2d").encode() + b"}", "an RTF (WordPad) file"),
    ("athens.doc", lambda t: b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + t.encode("utf-16-le"), "a Word (.doc) file"),
    ("athens.gz", lambda t: __import__("gzip").compress(t.encode()), "not text"),
])
def test_a_file_whose_secret_cannot_be_found_is_not_kept(camp, tmp_path, name, make, kind):
    """A .docx (a zip), a PDF, an RTF file, a .doc or any binary: the secret in it is compressed or cut up, so
    `withhold` cannot find it; a line saying what the file was is kept in its place."""
    raw = make(header(camp))
    answer = _ingest_one(camp, tmp_path, name, raw)
    kept = answer.kept.read_bytes()
    import hashlib
    assert kept == (f"pbem kept no copy of this file: it is {kind}, in which a secret cannot be withheld; sha256 "
                    f"{hashlib.sha256(raw).hexdigest()}, {len(raw)} bytes\n").encode()
    assert answer.kept.name.endswith(name + ".txt") and not (tmp_path / "drop" / name).exists()
    assert f"kept as {answer.kept} (pbem kept no copy of the file itself: it is {kind}, in which a secret cannot be " \
           f"withheld)" in answer.text()
    assert "pbem kept no copy" not in answer.text(for_player=True)


def test_a_text_file_in_latin1_is_kept_with_its_secret_withheld(camp, tmp_path):
    raw = (header(camp) + "# Périclès\n").encode("latin-1")
    answer = _ingest_one(camp, tmp_path, "athens.yaml", raw)
    assert answer.kept.read_bytes() == raw.replace(camp.player_secrets()["athens"].encode(), b"withheld")
    assert "pbem kept no copy" not in answer.text()


def test_a_docx_in_a_folder_in_the_drop_folder_is_not_kept(camp, tmp_path):
    drop = tmp_path / "drop"
    (drop / "orders").mkdir(parents=True)
    (drop / "orders" / "athens.docx").write_bytes(_docx(header(camp)))
    [answer] = ingest(camp, drop, NOW)
    kept = (answer.kept / "athens.docx").read_bytes()
    assert kept.startswith(b"pbem kept no copy of this file: it is a Word (.docx) file")


# -- 15. a [ or { left open at the end of the file is named with its line (a code review) ----------------------

@pytest.mark.parametrize("body, where, said", [
    ("diplomacy: [\n", (5, 12), "a list opened with [ on line 5 is not closed with ] (hint: add ] at the end of "
                                "that line)"),
    ("diplomacy: [megara,\n", (5, 12), "a list opened with [ on line 5 is not closed with ]"),
    ("standing: {captured_leaders: ransom,\n", (5, 11), "a {...} mapping opened with { on line 5 is not closed with }"),
    ("first_move:\n  - {units: [ATH-A1], path: [\n", (6, 29), "a list opened with [ on line 6 is not closed with ]"),
    ("diplomacy: ['[megara', \"{\"]  # [ {\nupkeep: [\n", (6, 9), "a list opened with [ on line 6 is not closed"),
])
def test_a_bracket_left_open_at_the_end_is_named(camp, body, where, said):
    report = check_text(header(camp) + body, "a.yaml")
    [f] = report.findings
    assert (f.line, f.column) == where and said in f.message, f.text()
    assert "stream end" not in f.message and "comma" not in f.message


def test_mail_is_refused_in_the_same_words_before_and_after_the_sender_is_known(camp):
    """Two refusals, one message (a code review: the two lines were written twice, and could drift apart)."""
    quoted = "".join("> " + line + "\n" for line in _body(camp).splitlines())
    with_player = "x: 1\n" + _body(camp) + "> quoted\n"
    before = submit_bytes(camp, quoted.encode(), "a.txt", NOW)  # no `player:` line to be read: not authenticated
    after = submit_bytes(camp, with_player.encode(), "a.txt", NOW)
    assert before.message == "cannot be read: a.txt:1:1: line 1 starts with '>', as the lines of a quoted email do: " \
                             "remove the '> ' at the start of each line, or " + yamlio.SEND_PLAIN
    assert after.message == before.message.replace(":1:1: line 1 ", ":7:1: line 7 ") and after.player == "athens"
