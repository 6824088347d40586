"""A --seed campaign's player secrets are random (a cheater's review): the number behind --seed can be found from
the seed fingerprint every kit shows (try numbers until one's SHA-256 fits), and secrets derived from it let any
player send orders for another faction.  Its dice stay those of the number (tests and demos replay)."""
from pbem.campaign import create
from pbem.selfplay import state_hash


def test_two_campaigns_made_with_the_same_seed_share_dice_not_secrets(tmp_path):
    a = create(tmp_path / "a", ["athens", "sparta", "troy"], seed="20261123", name="x")
    b = create(tmp_path / "b", ["athens", "sparta", "troy"], seed="20261123", name="x")
    assert a.guessable and b.guessable
    assert a.campaign.config["seed_sha256"] == b.campaign.config["seed_sha256"]
    assert state_hash(a.campaign.load_state()) == state_hash(b.campaign.load_state())  # the set-up's dice
    for p in ("athens", "sparta", "troy"):
        assert a.secrets[p] != b.secrets[p]
        assert a.campaign.player_secrets()[p] == a.secrets[p]
