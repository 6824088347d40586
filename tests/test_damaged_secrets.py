"""A secret seed that is not the campaign's rolls no die; campaign.yaml's players and options and
secret/players.yaml are checked when read (docs/moderator.md "The campaign folder")."""
import pytest

from damaged_campaign import camp, files, invoke, turn2  # noqa: F401 (fixtures)
from pbem.errors import CampaignError


def test_a_seed_that_is_not_the_campaigns_rolls_no_dice(camp):
    (camp.secret_dir / "seed").write_text("ab" * 32 + "\n")
    before = files(camp.root)
    for args in (["run-turn", camp.root, "--force", "--no-reports"], ["adjudicate", camp.root, "--force"],
                 ["adjudicate", camp.root, "--dry-run"], ["turn-key", camp.root, "1"]):
        r = invoke(*args)
        assert r.exit_code == 2 and "secret/seed: not this campaign's seed" in r.output, (args, r.output)
        assert r.output.count("\n") == 1
    assert files(camp.root) == before


@pytest.mark.parametrize("players", [["troy", "sparta", "thebes", "athenz"], ["troy", "sparta", "thebes"],
                                     ["troy", "sparta", "thebes", "athens", "crete"]])
def test_campaign_yaml_players_must_be_the_campaigns(camp, players):
    config = dict(camp.config)
    config["players"] = players
    config.pop("seats", None)
    camp.write_config(config)
    before = files(camp.root)
    for args in (["status", camp.root], ["run-turn", camp.root, "--force", "--no-reports"]):
        r = invoke(*args)
        assert r.exit_code == 2 and "campaign.yaml: players: " in r.output and "not this campaign's players" in \
            r.output and r.output.count("\n") == 1, r.output
    assert files(camp.root) == before


@pytest.mark.parametrize("option", ["pirates_barbarians", "blocks"])
def test_an_expansion_typed_into_campaign_yaml_is_refused_as_pbem_new_refuses_it(camp, option):
    text = camp.config_path.read_text()
    assert f"{option}: false" in text
    camp.config_path.write_text(text.replace(f"{option}: false", f"{option}: true"))
    r = invoke("status", camp.root)
    assert r.exit_code == 2 and f"options.{option}:" in r.output and "not playable yet" in r.output, r.output
    assert "campaign.yaml:" in r.output


@pytest.mark.parametrize("how, message", [("same", "the same secret as"), ("empty", "empty"),
                                          ("withheld", "'withheld'")])
def test_player_secrets_that_would_allow_a_spoof_are_refused(camp, how, message):
    secrets = camp.player_secrets()
    secrets["athens"] = {"same": secrets["sparta"], "empty": "", "withheld": "withheld"}[how]
    camp.write_secrets(camp.secret_seed(), secrets)
    with pytest.raises(CampaignError, match=message):
        camp.player_secrets()
    (camp.root / "o.yaml").write_text(f"campaign: dmg\nturn: 2\nplayer: sparta\nsecret: {secrets['sparta']}\n")
    r = invoke("submit", camp.root, camp.root / "o.yaml")
    assert r.exit_code == 2 and "secret/players.yaml: secrets." in r.output and message in r.output, r.output
    assert r.output.count("\n") == 1 and not camp.orders_dir(2).exists()
