"""Safe YAML reading: hostile or broken input is refused with file:line and no crash."""
import pytest

from pbem.yamlio import MAX_BYTES, YamlError, decode, parse, read_text


@pytest.mark.parametrize("text, message", [
    ("a: &x [1, 2]\nb: *x\n", "anchors and aliases"),
    ("a: 1\na: 2\n", "duplicate key 'a'"),
    ("a: !!python/object/apply:os.system ['echo hi']\n", "is not allowed"),
    ("a: !custom 3\n", "is not allowed"),
    ("<<: {a: 1}\n", "merge keys"),
    ("a: [1, 2\n", "YAML syntax error"),
    ("a: 1\n---\nb: 2\n", "more than one YAML document"),
    ("[" * 60 + "]" * 60, "nested too deeply"),
    ("a: .nan\n", "NaN"),
    ("? [1, 2]\n: x\n", "a key must be a plain word"),
])
def test_hostile_or_broken_yaml_is_refused_with_a_line(text, message):
    with pytest.raises(YamlError, match=message) as info:
        parse(text, "orders.yaml")
    assert str(info.value).startswith("orders.yaml")


def test_billion_laughs_is_refused_before_expansion():
    bomb = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{chr(98 + i)}: &{chr(98 + i)} [*{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}]\n"
        for i in range(8))
    with pytest.raises(YamlError, match="anchors and aliases"):
        parse(bomb, "bomb.yaml")


def test_non_utf8_and_nul_and_size():
    with pytest.raises(YamlError, match="not UTF-8") as info:
        decode(b"a: 1\nb: \xff\xfe\n", "f.yaml")
    assert info.value.line == 2
    with pytest.raises(YamlError, match="NUL"):
        decode(b"a: \x00", "f.yaml")
    with pytest.raises(YamlError, match="limit"):
        decode(b"a" * (MAX_BYTES + 1), "f.yaml")


def test_files_that_are_missing_or_folders(tmp_path):
    with pytest.raises(YamlError, match="no such file"):
        read_text(tmp_path / "nope.yaml")
    with pytest.raises(YamlError, match="folder"):
        read_text(tmp_path)


def test_values_and_their_lines():
    doc = parse("player: athens\nrecruit:\n  - city: athens\n    unit: army\n", "o.yaml")
    assert doc.data == {"player": "athens", "recruit": [{"city": "athens", "unit": "army"}]}
    assert doc.where(("recruit", 0, "unit")) == (4, 11)
    assert doc.where(("recruit", 0, "nothing", 3)) == (3, 5)  # nearest known ancestor
    assert parse("d: 2026-12-01\n", "c.yaml").data == {"d": "2026-12-01"}
    assert parse("", "e.yaml").data is None


def test_deep_brackets_are_refused_at_once_with_their_place():
    """The scan before parsing refuses them (its own words and place); the parser took 20 s for 20,000."""
    valid = "campaign: demo\nturn: 1\nplayer: athens\n"
    for n in (20_000, 60_000):
        text = valid + "standing: " + "[" * n + "]" * n + "\n"
        with pytest.raises(YamlError, match="brackets nested too deeply") as info:
            parse(text, "orders.yaml")
        assert (info.value.line, info.value.column) == (4, 11 + 32)  # the 33rd bracket (the first is at column 11)
        assert str(info.value).startswith("orders.yaml:4:43: ")
    with pytest.raises(YamlError, match="nested too deeply") as info:
        parse("a:\n  b: {c: " + "{d: " * 40 + "1" + "}" * 41 + "\n", "o.yaml")
    assert info.value.line == 2


def test_brackets_in_quotes_and_comments_do_not_count_as_nesting():
    deep = "[" * 40
    text = (f"a: '{deep}'\nb: \"{deep} \\\" {deep}\"\n# {deep}\nc: x  # {deep}\n"
            f"d: it's [1, [2]]\ne: [\"{deep}\", '{deep}''s']\n")
    assert parse(text, "o.yaml").data == {"a": deep, "b": f"{deep} \" {deep}", "c": "x", "d": "it's [1, [2]]",
                                          "e": [deep, deep + "'s"]}
    assert parse("a: " + "[" * 32 + "]" * 32 + "\n", "o.yaml").data is not None  # the limit itself is fine


def test_the_scan_passes_the_largest_file_allowed_of_shallow_brackets():
    from pbem.yamlio import check_nesting
    text = ("moves: [{units: [ATH-A1, 'it''s'], path: [\"0101\", \"0102\"]}]  # [[[ a comment\n" * 4000)[:MAX_BYTES]
    check_nesting(text, "o.yaml")  # raises on a refusal


@pytest.mark.parametrize("text, line, column, words", [
    # a key indented more than the line above it (PyYAML: "mapping values are not allowed here")
    ("campaign: demo\nrecruit:\n  - city: athens\n      unit: army\n", 4, 7,
     "this line is indented more than the line above it (hint: line it up with `city:`"),
    # a line between two indentations (PyYAML: "expected <block end>, but found '<block mapping start>'")
    ("recruit:\n  - city: athens\n    unit: army\n   baggage: 2\n", 4, 4,
     "indented by 3 spaces, which matches no line above it (hint: line it up with `unit:` (4 spaces) or with "
     "`- city:` (2 spaces))"),
    # a key under a list item's dash (found by a player-eyes review: the hint offered the column it was at)
    ("land_battle:\n  - units: [ATH-A4]\n  target: \"1113\"\n", 3, 3,
     "indented by 2 spaces, which matches no line above it (hint: line it up with `units:` (4 spaces), or start a "
     "new list item with `- `)"),
    # (PyYAML: "expected <block end>, but found '<block sequence start>'")
    ("first_move:\n  - units: [A]\n    path: [\"1\"]\n   - units: [B]\n", 4, 4,
     "indented by 3 spaces, which matches no line above it (hint: line it up with `path:` (4 spaces) or with "
     "`- units:` (2 spaces))"),
    # an unclosed [ (PyYAML: "expected ',' or ']', but got ':'")
    ("units: [ATH-A1, ATH-A2\nturn: 1\n", 2, 5, "a list opened with [ on line 1 is not closed with ]"),
    ("recruit: [{city: athens, unit: army]\n", 1, 36, "a {...} mapping opened with { on line 1 is closed with ] "
                                                      "instead of }"),
    # a key without its colon (PyYAML: "could not find expected ':'")
    ("campaign: demo\nturn 3\nplayer: athens\n", 2, 1, "a line needs a colon after the key, like `turn: 3`"),
    # a ? in a value in a list (PyYAML: "expected ',' or ']', but got '?'")
    ("units: [THE-?1]\n", 1, 13, 'a value containing ? or : must be in quotes, like "THE-?1"'),
    ("note: a: b\n", 1, 8, 'a value containing ": " must be in quotes'),
    ("recruit:\n\t- city: athens\n", 2, 1, "a tab character: indent with spaces only"),
    ('path: ["0101]\n', 1, 8, 'a quote " opened here is not closed'),
])
def test_syntax_errors_in_plain_words_with_their_place(text, line, column, words):
    with pytest.raises(YamlError) as info:
        parse(text, "orders.yaml")
    err = info.value
    assert words in err.detail, err.detail
    assert (err.line, err.column) == (line, column)
    assert str(err).startswith(f"orders.yaml:{line}:{column}: YAML syntax error: ")
    for jargon in ("<block", "expected", "but got", "could not find", "token", "stream"):
        assert jargon not in err.detail, err.detail


def test_a_duplicate_key_names_the_line_of_the_first():
    """A player who uncomments a template example next to a live key must find the other line."""
    with pytest.raises(YamlError) as err:
        parse("campaign: demo\nrecruit: []\nturn: 1\nrecruit:\n  - {city: athens, unit: army}\n", "o.yaml")
    assert "duplicate key 'recruit': it is already given on line 2" in str(err.value)
    assert err.value.line == 4


@pytest.mark.parametrize("number", ["9" * 5000, "0x" + "f" * 4000, "1" + ":59" * 2600, "0" + "7" * 5000,
                                    "0b" + "1" * 64])
def test_a_number_too_long_for_python_is_a_clear_yaml_error(number):
    """Python refuses to read a decimal of more than 4300 digits (ValueError) and to print a hex, octal or base-60
    one PyYAML read (found by a code review): a YamlError with its place, for any whole number over 63 bits."""
    from pbem.yamlio import YamlError, parse
    with pytest.raises(YamlError) as e:
        parse("campaign: demo\nturn: " + number + "\n", "o.yaml")
    assert (e.value.line, e.value.column) == (2, 7)
    assert f"a number of {len(number)} characters" in str(e.value)
    assert parse("turn: " + "9" * 18 + "\n", "o.yaml").data == {"turn": int("9" * 18)}  # 63 bits still read
