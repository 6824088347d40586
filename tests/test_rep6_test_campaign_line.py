"""A campaign made with `pbem new --seed N` (campaign.yaml ``seed_guessable: true``) is for tests and demos:
anyone who knows N can work out its dice.  Every report of one, players' and the moderator's, text and HTML
(the PDF's text pages are the text report), says so in one line at its top, under its title; a campaign with a secret seed
does not."""
from __future__ import annotations

import html
import re

from pbem import report
from pbem.campaign import create

LINE = "Test campaign (--seed): anyone can work out its dice; do not play it for real."


def written(root, seed):
    camp = create(root, ["athens", "sparta"], seed=seed).campaign
    assert bool(camp.config.get("seed_guessable")) is (seed is not None)
    out = {}
    for w in report.write_reports(camp, 0, formats=("txt", "html"), workers=1):
        for path in w.files:
            out[(w.player, path.name)] = path.read_text(encoding="utf-8")
    return out


def test_every_report_of_a_seeded_campaign_says_at_its_top_that_its_dice_can_be_worked_out(tmp_path):
    files = written(tmp_path / "seeded", "11")
    assert {who for who, _ in files} == {"athens", "sparta", "moderator"}
    for (who, name), content in files.items():
        if name == "report.txt":
            assert content.splitlines()[1] == LINE, who  # under the title line
            assert len(LINE) <= report.WIDTH  # one line of the text report
        else:
            body = content.split("</h1>", 1)[1]
            first = html.unescape(re.sub(r"<[^>]+>", " ", body)).split()
            assert " ".join(first[:len(LINE.split())]) == LINE, who


def test_a_campaign_with_a_secret_seed_has_no_such_line(tmp_path):
    files = written(tmp_path / "secret", None)
    assert files and not any("anyone can work out its dice" in c for c in files.values())
