"""Order files a real player might send (a second mail review): each is read as YAML reads it, `pbem check` says
what `pbem submit` will say, and each finding is one line.

Built as in tests/test_mail_review.py: a header (campaign, turn, player, secret) and a body, as text.
"""
import pytest

from pbem import yamlio
from pbem.checker import check_text, main
from pbem.intake import scan_header, submit_bytes
from test_mail_review import NOW, camp, header, one_line  # noqa: F401  (camp: the same fixture)


def same_verdict(camp, tmp_path, text: str, name: str = "a.yaml"):
    """`pbem check` (with and without the campaign) and `pbem submit`: (the check's report, submit's answer)."""
    report = check_text(text, name, camp)
    plain = check_text(text, name)
    (tmp_path / name).write_text(text, encoding="utf-8", newline="")
    out, code = main(tmp_path / name, camp.root)
    answer = submit_bytes(camp, text.encode("utf-8"), name, NOW)
    assert code == report.exit_code, out
    assert answer.accepted == (report.exit_code == 0) == (plain.exit_code == 0), (report.to_text(), answer.text())
    assert all(one_line(f.text()) for f in report.findings + plain.findings), report.to_text()
    return report, answer


# -- 1. a tab YAML reads as white space is taken as a space -------------------------------------------------

@pytest.mark.parametrize("body", [
    "\t\ndiplomacy: [chalcis]\n",  # an editor's auto-indent left on an empty line
    "\t# note\ndiplomacy: [chalcis]\n",  # a comment line indented with a tab
    "diplomacy:\n  - chalcis\n    \t\n  - aegina\n",  # a line of spaces and a tab inside a list
    "diplomacy: [chalcis]\t\t# aligned\n",  # tabs before a comment, to line comments up
    "diplomacy: [chalcis,\taegina]\n",  # between the items of a list
    "diplomacy:\t[chalcis]\n",  # after a key's colon
    "diplomacy: [chalcis]\t\n",  # at the end of a line
    "recruit: [{city:\tathens,\tbaggage: 2}]\n",
])
def test_a_tab_that_is_white_space_is_read_as_a_space(camp, tmp_path, body):
    text = header(camp) + body
    report, answer = same_verdict(camp, tmp_path, text)
    assert report.exit_code == 0 and not report.errors, report.to_text()
    assert answer.accepted, answer.text()
    assert yamlio.parse(text, "a.yaml").data == yamlio.parse(text.replace("\t", " "), "a.yaml").data
    secret = camp.player_secrets()["athens"]
    stored = (camp.orders_dir(1) / "athens.yaml").read_bytes()  # kept as sent, tabs and all
    assert stored == text.encode().replace(secret.encode(), b"withheld")


def test_tabs_before_the_header_comments_are_read_as_the_moderator_reads_them(camp, tmp_path):
    secret = camp.player_secrets()["athens"]
    text = f"campaign: test\t# name\nturn: 1\t# turn\nplayer: athens\t\t# me\nsecret: {secret}\t# mine\n" \
           f"diplomacy: [chalcis]\n"
    assert scan_header(text) == {"player": "athens", "secret": secret}
    data = yamlio.parse(text, "a.yaml").data
    assert (data["campaign"], data["turn"], data["player"], data["secret"]) == ("test", 1, "athens", secret)
    report, answer = same_verdict(camp, tmp_path, text)
    assert answer.accepted and not report.findings, (report.to_text(), answer.text())


@pytest.mark.parametrize("player_line, secret_line", [
    ("player: athens", "secret:\t{s}"), ("player: athens\t", "secret: '{s}'\t# c"),
    ("player\t: athens", "secret\t:\t{s}\t\t# c"), ('"player"\t: athens', "secret: {s} \t "),
])
def test_the_header_scan_and_the_yaml_read_tabs_alike(camp, tmp_path, player_line, secret_line):
    """intake authenticates from the header lines before the YAML is read, then checks the two agree."""
    secret = camp.player_secrets()["athens"]
    text = f"campaign: test\nturn: 1\n{player_line}\n{secret_line.format(s=secret)}\ndiplomacy: [chalcis]\n"
    data = yamlio.parse(text, "a.yaml").data
    assert scan_header(text) == {"player": data["player"], "secret": data["secret"]} == \
        {"player": "athens", "secret": secret}
    report, answer = same_verdict(camp, tmp_path, text)
    assert answer.accepted and not report.findings, (report.to_text(), answer.text())


@pytest.mark.parametrize("body, where, said", [
    ("recruit:\n\t- {city: athens, baggage: 2}\n", (6, 1), "a tab character: indent with spaces only, never tabs"),
    ("diplomacy:\n\t\t- chalcis\n", (6, 1), "a tab character: indent with spaces only, never tabs"),
    ("diplomacy: [\n\tchalcis]\n", (6, 1), "a tab character: indent with spaces only, never tabs"),
])
def test_a_tab_that_indents_is_still_refused_in_its_words(camp, tmp_path, body, where, said):
    report, answer = same_verdict(camp, tmp_path, header(camp) + body)
    [f] = report.findings
    assert (f.line, f.column) == where and said in f.message, f.text()
    assert not answer.accepted and f"a.yaml:{where[0]}:{where[1]}: YAML syntax error: {said}" in answer.message


def test_a_tab_inside_a_value_stays_in_the_value():
    text = "note: \"a\tb\"\t# c\nblock: |\n  x\t# y\n\t\nz: 1\t\n"
    assert yamlio.parse(text, "a.yaml").data == {"note": "a\tb", "block": "x\t# y\n", "z": 1}


# -- 2. a comment glued to a ] is a comment, not mail text ----------------------------------------------------

@pytest.mark.parametrize("body", [
    "diplomacy: [chalcis]# 1 free roll, cost=20\n",
    "recruit: [{city: athens, baggage: 2}]#total =\n",
    "diplomacy: [chalcis, \"aegina\"]#=3D\n",
])
def test_a_comment_with_no_space_before_its_hash_is_no_mail_text(camp, tmp_path, body):
    report, answer = same_verdict(camp, tmp_path, header(camp) + body)
    assert answer.accepted and not report.errors, (report.to_text(), answer.text())
    assert "email" not in report.to_text() + answer.text()


def test_quoted_printable_outside_a_comment_is_still_mail_text(camp, tmp_path):
    report, answer = same_verdict(camp, tmp_path, header(camp) + "diplomacy: [chalcis]=20# a note\n")
    assert "this looks like email text (quoted-printable '=20' on line 5)" in report.errors[0].message
    assert not answer.accepted and "quoted-printable '=20' on line 5" in answer.text()


# -- 3. one finding, one line: a value with a line break is shown escaped ------------------------------------

def test_a_secret_written_as_a_block_is_named_in_one_line_each(camp, tmp_path):
    secret = camp.player_secrets()["athens"]
    text = f"campaign: test\nturn: 1\nplayer: athens\nsecret: |\n  {secret}\n"
    report, answer = same_verdict(camp, tmp_path, text)
    (tmp_path / "b.yaml").write_text(text, encoding="utf-8")
    out, code = main(tmp_path / "b.yaml")
    assert code == 1 and len(out.splitlines()) == 3, out  # two findings and the summary
    first, second = [f.text() for f in report.errors]
    assert "the header cannot be read" in first
    assert second.endswith(f"secret: '{secret}\\n' is not a secret (hint: the value is written as a block (after | "
                           f"or >) or over several lines: write it on the `secret:` line itself)"), second
    assert "space inside the quotes" not in out
    assert not answer.accepted


def test_a_value_with_a_line_break_is_shown_with_an_escape(camp, tmp_path):
    report, _ = same_verdict(camp, tmp_path, header(camp) + 'diplomacy: ["mega\\nra\\u2028"]\n')
    [f] = report.errors
    assert "'mega\\nra\\u2028' is not a city id" in f.text() and one_line(f.text()), f.text()


# -- 4. a line separator inside a line is named, not taken for a line end in silence --------------------------

@pytest.mark.parametrize("ch, name", [("\u2028", "a line separator character (U+2028)"),
                                      ("\u2029", "a paragraph separator character (U+2029)"),
                                      ("\x85", "a next-line character (NEL, U+0085)")])
def test_a_line_separator_in_a_comment_is_named_with_the_editors_line(camp, tmp_path, ch, name):
    text = header(camp) + f"# one{ch}two\ndiplomacy: [chalcis]\n"
    report, answer = same_verdict(camp, tmp_path, text)
    [f] = report.findings
    said = f"{name} in line 5 (a comment): delete it"
    assert (f.line, f.column) == (5, 6) and said in f.message, f.text()
    assert "needs a colon" not in f.text()
    assert not answer.accepted and f"a.yaml:5:6: YAML syntax error: {said}" in answer.message


def test_a_file_whose_lines_all_end_with_a_line_separator_is_read(camp, tmp_path):
    text = (header(camp) + "# a note\ndiplomacy: [chalcis]\n").replace("\n", "\u2028")
    report, answer = same_verdict(camp, tmp_path, text)
    assert answer.accepted and not report.findings, report.to_text()


# -- 5. "did you mean" offers a city that exists ----------------------------------------------------------------

def test_did_you_mean_offers_a_real_city_id_near_what_was_written(camp, tmp_path):
    report, answer = same_verdict(camp, tmp_path, header(camp) + "diplomacy: [aeg ina, chal cis, megara city]\n")
    assert [f.text() for f in report.errors] == [
        f"a.yaml:5:{col}: error: diplomacy[{i}]: '{wrote}' is not a city id (hint: did you mean {city}?)"
        for i, (col, wrote, city) in enumerate([(13, "aeg ina", "aegina"), (22, "chal cis", "chalcis"),
                                                (32, "megara city", "megara")])], report.to_text()
    assert not answer.accepted and "did you mean chalcis?" in answer.text(), answer.text()
    assert "_" not in report.to_text()


# -- 6. a finding names its key once ------------------------------------------------------------------------------

def test_an_empty_standing_is_named_once(camp, tmp_path):
    report, answer = same_verdict(camp, tmp_path, header(camp) + "standing:\n")
    [f] = report.warnings
    assert f.text() == ("a.yaml:5:10: warning: standing: is empty: it resets all your standing orders to the "
                        "defaults (hint: remove the line to keep the standing orders you have)"), f.text()
    assert answer.accepted


def test_a_line_separator_that_hides_an_order_in_a_comment_is_warned_of(camp):
    """The mail-leftovers engineer: `# note<U+2028>diplomacy: [megara]` in a file whose lines end with \\n parses,
    and the editor shows a comment where YAML reads an order.  The checker warns at the separator (the file is
    still taken: files stored before read as they did); a file whose lines all end with one gets no warning."""
    from pbem.checker import check_text
    text = header(camp) + "# note\u2028diplomacy: [megara]\n"
    [f] = [f for f in check_text(text, "a.yaml").findings if "U+2028" in f.message]
    assert (f.severity, f.line, f.column) == ("warning", 5, 7), f.text()
    assert f.message.startswith("a line separator character (U+2028) in line 5 (a comment): what follows it is read "
                                "as a new line of the file; delete it"), f.message
    whole = (header(camp) + "diplomacy: [megara]\n").replace("\n", "\u2028")
    assert not [f for f in check_text(whole, "a.yaml").findings if "U+2028" in f.message]
