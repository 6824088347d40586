"""Syntax errors in order files as a player's review found them (player review, findings 2-4): a key glued to its
value, a # in a list, stray text such as an email's greeting, each named at its own line in plain words."""
from __future__ import annotations

import pytest

from pbem import yamlio
from pbem.checker import check_text
from pbem.intake import HeaderError, scan_header
from pbem.orders import orders_schema, parse_text

HEAD = "campaign: demo\nturn: 1\nplayer: athens\nsecret: b6bf-5bc2-a03d-344d\n"


def syntax_error(text: str) -> yamlio.YamlError:
    with pytest.raises(yamlio.YamlError) as info:
        yamlio.parse(text, "o.yaml")
    return info.value


# -- 2. a key glued to its value: named as such, for any key, as `pbem submit` names the secret ---------

@pytest.mark.parametrize("text, line, column, key, fixed", [
    (HEAD.replace("secret: ", "secret:"), 4, 8, "secret", "secret: b6bf-5bc2-a03d-344d"),
    (HEAD.replace("turn: 1", "turn:1"), 2, 6, "turn", "turn: 1"),
    (HEAD.replace("campaign: ", "campaign:"), 1, 10, "campaign", "campaign: demo"),
    (HEAD + "first_move:\n  - units:[ATH-A1]\n    path: [\"1212\"]\n", 6, 11, "units", "units: [ATH-A1]"),
    (HEAD + "first_move:\n  - units: [ATH-A1]\n    path:[\"1212\"]\n", 7, 10, "path", 'path: ["1212"]'),
    (HEAD + "standing:\n  executions:false\n  captured_leaders: ransom\n", 6, 14, "executions", "executions: false"),
])
def test_a_key_without_a_space_after_its_colon_is_named(text, line, column, key, fixed):
    err = syntax_error(text)
    assert err.detail == f"YAML syntax error: `{key}:` needs a space after the colon (hint: write `{fixed}`)"
    assert (err.line, err.column) == (line, column)


def test_the_checker_and_submit_give_the_same_cause_for_a_glued_secret():
    text = "campaign: demo\nturn: 1\nplayer: athens\nsecret:6d8e-3492-5466-4d8c\n"
    with pytest.raises(HeaderError) as info:
        scan_header(text)
    said = str(info.value)
    assert said == "`secret:` needs a space after the colon"
    [finding] = check_text(text, "o.yaml").findings
    assert said in finding.message and "needs a colon after the key" not in finding.message
    assert (finding.line, finding.column) == (4, 8)


# -- 3. a # in a list starts a comment: named at the #, with the hex in quotes ---------------------------

@pytest.mark.parametrize("line, column", [
    ("    path: [#1313]", 12),
    ('    path: ["1212", #1313]', 20),
    ("    path: [ #1313 ]", 13),
])
def test_a_hash_in_a_list_is_named_where_it_stands(line, column):
    text = HEAD + "first_move:\n  - units: [ATH-A1]\n" + line + "\nsecond_move: []\n"
    err = syntax_error(text)
    assert err.detail == ('YAML syntax error: # starts a comment, so #1313 and the rest of the line are left out: '
                          'a hex id must be in quotes (hint: write "1313")')
    assert (err.line, err.column) == (7, column)


def test_a_hash_in_a_mapping_is_named_too():
    err = syntax_error(HEAD + "land_battle: [{units: [ATH-A1], target: #1313}]\n")
    assert "# starts a comment" in err.detail and (err.line, err.column) == (5, 41)


def test_a_comment_inside_a_list_that_goes_on_is_not_blamed():
    """A real comment (`# ...` with a space) in a list written over two lines is fine YAML: no finding."""
    parsed = parse_text(HEAD + 'first_move:\n  - units: [ATH-A1]\n    path: ["1212",  # first\n      "1112"]\n',
                        "o.yaml")
    assert parsed.problems == [] and parsed.orders.first_move[0].path == ("1212", "1112")


# -- 4. stray text (an email's greeting or signature): named at its line ---------------------------------

STRAY = ("line {n} is not an order: an order file holds only `key: value` lines, list items and comments (hint: "
         "delete the line, or start it with # to keep it as a comment)")


@pytest.mark.parametrize("text, n", [
    ("Hi Mod, here are my orders!\n\n" + HEAD, 1),
    ("Hi Mod\n" + HEAD, 1),
    (HEAD + "\nThanks,\nBob\n", 6),
    (HEAD + "diplomacy: [megara]\nCheers\n", 6),
])
def test_a_line_of_plain_text_is_named_at_its_line(text, n):
    err = syntax_error(text)
    assert err.detail == "YAML syntax error: " + STRAY.format(n=n)
    assert (err.line, err.column) == (n, 1)


def test_the_checker_names_the_greeting_not_the_header():
    [finding] = check_text("Hi Mod, here are my orders!\n\n" + HEAD, "emailbody.txt").findings
    assert finding.line == 1 and "line 1 is not an order" in finding.message


def test_a_key_that_lost_its_colon_is_still_named_so():
    err = syntax_error("campaign: demo\nturn 3\nplayer: athens\n")
    assert "a line needs a colon after the key, like `turn: 3`" in err.detail and err.line == 2


def test_the_order_keys_yamlio_knows_are_the_schemas():
    assert set(yamlio.ORDER_KEYS) == set(orders_schema()["properties"])


@pytest.mark.parametrize("line, said", [
    ('secret: "\\x36d8e-3492-5466-4d8c"', "`secret:` has its value in quotes with escapes (a backslash), which pbem does "
                                         "not read before it knows the sender: write it plainly, like "
                                         "`secret: 1a2b-3c4d-5e6f-7a8b`"),
    ('player: "ath\\u0065ns"', "`player:` has its value in quotes with escapes (a backslash), which pbem does not "
                               "read before it knows the sender: write it plainly, like `player: athens`"),
    ("secret: [6d8e-3492]", "`secret:` is not written as a plain line: write it like `secret: 1a2b-3c4d-5e6f-7a8b`"),
])
def test_a_header_value_pbem_cannot_read_says_why_and_how_to_write_it(line, said):
    """A moderator's soak test: a secret written with YAML escapes (valid YAML) was answered "`secret:` is not
    written as a plain line", which it is: the answer names the escapes and shows the plain way."""
    with pytest.raises(HeaderError) as info:
        scan_header(f"campaign: demo\nturn: 1\n{line}\n")
    assert str(info.value) == said
