"""The player's kit: check orders at home against exactly what you may see, nothing more."""
from pbem import yamlio
from pbem.bot import write_orders
from pbem.campaign import create
from pbem.checker import main as check_main
from pbem.cycle import run_turn, set_seat
from pbem.gamedata import tables
from pbem.playerkit import write_kit
from pbem.storage import Campaign
from pbem.visibility import redact, sight, view
from datetime import datetime, timezone


def played(tmp_path, turns=2):
    camp = create(tmp_path / "c", ["athens", "sparta", "thebes", "corinth"], seed="21", name="kit").campaign
    for p in camp.load_state().turn_order:
        set_seat(camp, p, "bot")
    for _ in range(turns):
        run_turn(camp, datetime(2026, 1, 1, tzinfo=timezone.utc), force=True, reports=False)
    return camp


def test_the_kit_is_a_campaign_folder_without_secrets_or_hidden_facts(tmp_path):
    camp = played(tmp_path)
    state = camp.load_state()
    kit = write_kit(camp, "athens")
    text = "".join(p.read_text() for p in kit.rglob("*") if p.is_file())
    for secret in camp.player_secrets().values():
        assert secret not in text
    assert camp.secret_seed().hex() not in text
    seen = sight(state, camp.game_map, "athens")
    for uid, u in state.units.items():
        if u.owner != "athens":
            assert f'"{uid}"' not in text, uid  # no enemy unit id, seen or not
    kit_state = Campaign.open(kit).load_state()
    for pid, p in kit_state.players.items():
        if pid != "athens":
            assert p.gold == 0 and p.hand == [] and p.traits == []
    # the piles keep their public sizes, not their cards
    assert set(kit_state.deck) <= {"?"} and set(kit_state.discard) <= {"?"}
    assert (len(kit_state.deck), len(kit_state.discard)) == (len(state.deck), len(state.discard))
    others = [u for u in kit_state.units.values() if u.owner != "athens"]
    assert all(u.hex in seen and not u.skills for u in others)
    mine = {u.id for u in state.units.values() if u.owner == "athens"}
    assert mine == {u.id for u in kit_state.units.values() if u.owner == "athens"}
    assert not any(k.startswith("SPA-") for k in kit_state.next_id)


def test_orders_check_the_same_against_the_kit_as_against_the_campaign(tmp_path):
    camp = played(tmp_path, 3)
    state = camp.load_state()
    for pid in state.turn_order:
        kit = write_kit(camp, pid)
        data = write_orders(view(state, camp.game_map, pid), camp.game_map, tables(), "kit", state.turn,
                            camp.player_secrets()[pid])
        path = tmp_path / f"{pid}.yaml"
        path.write_text(yamlio.dump(data))
        at_home, code_home = check_main(path, kit)
        at_moderator, code_mod = check_main(path, camp.root)
        assert code_home == code_mod == 0, at_home + at_moderator


def test_redaction_keeps_the_view_the_same():
    """What the player sees of the redacted state is what they see of the real one (up to enemy ids)."""
    from pbem.selfplay import new_game, play
    from pbem.gamedata import load_map
    m = load_map()
    state = new_game(["athens", "sparta", "thebes", "corinth"], 5)
    play(state, m, 3, 5)
    for pid in state.turn_order:
        real = view(state, m, pid)
        red = view(redact(state, m, pid), m, pid)
        assert real["units"] == red["units"]
        assert real["others"] == red["others"]
        assert real["cities"] == red["cities"]


def test_the_kit_holds_the_order_template_filled_in_for_the_player(tmp_path):
    from pbem.playerkit import TEMPLATE_NAME, SCHEMA_NAME
    camp = played(tmp_path, 2)
    state = camp.load_state()
    kit = write_kit(camp, "sparta")
    text = (kit / TEMPLATE_NAME).read_text()
    data = yamlio.parse(text, TEMPLATE_NAME).data
    assert (data["campaign"], data["turn"], data["player"]) == ("kit", state.turn, "sparta")
    assert "secret" not in data and "# secret: " in text  # left for the player to fill in, with a comment
    assert camp.player_secrets()["sparta"] not in text
    assert text.startswith(f"# yaml-language-server: $schema={SCHEMA_NAME}\n")
    assert (kit / SCHEMA_NAME).is_file() and "--campaign kit" in text
    # the template as it stands checks clean against the kit but for the missing secret
    out, code = check_main(kit / TEMPLATE_NAME, kit)
    # (warnings about the position may come too: units the game left out of supply, which no order moves)
    findings = [line for line in out.splitlines() if ": error: " in line]
    assert len(findings) == 1 and "no secret" in findings[0], out
    assert all("which no order of this file moves" in line for line in out.splitlines() if ": warning: " in line), out
    # with the secret written in, it is a valid order file
    filled = tmp_path / "mine.yaml"
    filled.write_text(text.replace("# secret: WRITE-YOUR-SECRET-HERE", f"secret: {camp.player_secrets()['sparta']}"))
    out, code = check_main(filled, kit)
    assert code == 0, out


def test_every_kit_holds_the_turn_keys_committed_at_the_start(tmp_path):
    # the players receive turn-keys.txt with the set-up reports, so each can check published turn keys later
    camp = played(tmp_path, 1)
    committed = (camp.root / "turn-keys.txt").read_text()
    for turn in (1, 2):
        assert (write_kit(camp, "athens", turn) / "turn-keys.txt").read_text() == committed


def test_the_kits_template_gives_the_players_own_unit_id_prefix(tmp_path):
    """A new player's review: Crete's kit showed ATH- ids only.  Its rule of thumb gives the player's own ids, and
    a line says the examples are Athens'."""
    from pbem.playerkit import TEMPLATE_NAME
    camp = played(tmp_path, 1)
    text = (write_kit(camp, "sparta") / TEMPLATE_NAME).read_text()
    assert "Unit ids are in capitals: SPA-A1 (Army)" in text and "SPA-B1 (Baggage), SPA-L1 (Leader)" in text
    assert "The examples below are written for Athens (ATH- ids, hexes and cities near Athens): yours start with\n" \
           "# SPA-;" in text
    athens = (write_kit(camp, "athens") / TEMPLATE_NAME).read_text()
    assert "Unit ids are in capitals: ATH-A1 (Army)" in athens and "The examples below" not in athens
