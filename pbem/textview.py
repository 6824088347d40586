"""Plain-text rendering of a view (from ``visibility.view``) for `pbem show` and text reports."""
from __future__ import annotations

from collections import Counter, defaultdict
from typing import Any

from .cards import TARGET_WORDS
from .gamedata import GameMap, Tables

MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
          "November", "December"]
START_YEAR_BC, START_MONTH = 431, 2  # game turn 1 is March 431 BC, the spring the war began


def game_date(turn: int) -> str:
    m = START_MONTH + (turn - 1)
    return f"{MONTHS[m % 12]} {START_YEAR_BC - m // 12} BC"


# -- when a card is played and where it goes in the order file (docs/rules.md's card table, the reports' HAND)



def card_timing(card: Any) -> str:
    """When ``card`` (a ``gamedata`` card row) is played and where it goes in the order file, from its
    ``timing`` and ``target``: "your Diplomacy phase (`cards`, target: a minor city another player controls)",
    "battle, either side (the attack's `cards`, or standing `defence_cards`)".  The "when" column of
    docs/rules.md's card table and each card of a report's HAND."""
    t = card.timing
    trigger, phase, role = t["trigger"], t["phase"], t["role"]
    if trigger == "revolt":
        return "reaction, other players' turns: a revolt in your city (standing `executions`)"
    if trigger == "attack":
        return "reaction, other players' turns: an attack on you is declared (standing `reactions`)"
    if trigger == "battle_lost":
        return "right after a battle the target leader's side lost (your attack's `cards`, or standing `reactions`)"
    if trigger == "city_captured":
        return "your Land Battle phase, when you capture a city (the attack's `cards`, or `cards`)"
    if phase == "move":
        return "your move phases (the move's `cards`, or `cards` naming the stack)"
    if phase == "battle":
        return {"attack": "battle, attacking, your turn (the attack's `cards`)",
                "defense": "battle, defending, other players' turns (standing `defence_cards`)",
                "any": "battle, either side (the attack's `cards`, or standing `defence_cards`)"}[role]
    when = "your Diplomacy phase" if phase == "diplomacy" else "your turn, any phase (played at the start of " \
                                                             "your Diplomacy phase)"
    target = TARGET_WORDS.get(card.target, "")  # the words the adjudicator's refusals use too
    return f"{when} (`cards`{', target: ' + target if target else ''})"


def _counts(counts: dict[str, int]) -> str:
    order = ["army", "rowers", "fleet", "transport", "baggage", "leader", "pirate", "barbarian"]
    parts = []
    for t in order:
        n = counts.get(t, 0)
        if n:
            parts.append(f"{n} {t if n == 1 else plural(t)}")
    return ", ".join(parts)


def plural(t: str) -> str:
    return {"army": "armies", "rowers": "rowers", "baggage": "baggage", "fleet": "fleets",
            "transport": "transports", "leader": "leaders"}.get(t, t + "s")


def city_line(cid: str, c: dict[str, Any], game_map: GameMap, tables: Tables, players: dict) -> str:
    city = game_map.cities[cid]
    owner = players[c["controller"]]["name"] if c["controller"] else "neutral"
    marks = []
    if c["home_of"]:
        marks.append("home city")
    if c["hostile"]:
        marks.append("hostile")
    if c["razed"]:
        marks.append(f"razed x{c['razed']}")
    trait = f", trait {tables.traits[c['trait']].name}" if c.get("trait") else ""
    extra = f" [{', '.join(marks)}]" if marks else ""
    return f"  {city.name:<14} {city.hex}  {owner:<12} income {c['income']}{trait}{extra}"


def render_units(units: list[dict[str, Any]], game_map: GameMap, tables: Tables) -> list[str]:
    """Units by hex; units out of play (an exiled leader) last, in a group of their own, as the reports list
    them: they are in no hex meanwhile."""
    by_hex: dict[str, list[dict]] = defaultdict(list)
    for u in units:
        by_hex["away" if u.get("away_until") else u["hex"]].append(u)
    lines = []
    for h in sorted(by_hex, key=lambda h: (h == "away", h)):
        if h == "away":
            lines.append("  Away (out of play):")
        else:
            place = game_map.city_at[h].name if h in game_map.city_at else game_map.terrain[h].name
            lines.append(f"  {h} {place}:")
        for u in by_hex[h]:
            bits = [u["id"], u["type"]]
            if u.get("name"):
                skills = ", ".join(tables.skills[s].name for s in u.get("skills", []))
                bits.append(f"{u['name']} ({skills})" if skills else u["name"])
            if u.get("carried_by"):
                bits.append(f"aboard {u['carried_by']}")
            if u.get("starvation"):
                bits.append(f"starvation x{u['starvation']}")
            if u.get("away_until"):
                bits.append(f"out of play until turn {u['away_until']}")
            lines.append("    " + " ".join(bits))
    return lines


def render(view: dict[str, Any], game_map: GameMap, tables: Tables, kit: tuple[str, int] | None = None) -> str:
    """The view as text.  ``kit``: (the player, the game turn) of a player's kit (``playerkit``), whose state
    holds only what that player may know: headed as theirs, the others' treasuries and hands shown hidden
    (the kit has them as zeros)."""
    out: list[str] = []
    players = view["players"]
    status = "finished" if view["finished"] else f"game turn {view['turn']} of {view['last_turn']}"
    title = f"{view['campaign']}: {status}"
    if not view["finished"]:
        title += f" ({game_date(view['turn'])})"
    out.append(title)
    out.append("=" * len(title))
    if kit:
        who = f"{players[kit[0]]['name'] if kit[0] in players else kit[0]} (kit of turn {kit[1]})"
    else:
        who = players[view["viewer"]]["name"] if view["viewer"] else "the moderator (everything)"
    out.append(f"Seen by: {who}")
    out.append("")
    out.append("Turn order and cities held:")
    for i, pid in enumerate(view["turn_order"], start=1):
        p = players[pid]
        gone = f", out since turn {p['eliminated_turn']}" if p["eliminated_turn"] else ""
        out.append(f"  {i:>2}. {p['name']:<12} ({game_map.cities[p['home']].name}) {p['cities']} {'city' if p['cities'] == 1 else 'cities'}{gone}")
    if view.get("winner"):
        out.append(f"  Winner: {players[view['winner']]['name']}")
    out.append("")
    me = view.get("me")
    if me:
        out.append(f"Treasury: {me['gold']} gold")
        out.append("Hand: " + (", ".join(tables.cards[c].name for c in me["hand"]) or "(empty)"))
        out.append("Home city traits: " + ", ".join(tables.traits[t].name for t in me["traits"]))
        out.append("")
    if kit and view.get("gold"):  # a kit seen whole: only its player's own treasury and hand are in it
        if not me and kit[0] in view["gold"]:
            out.append(f"Treasury: {view['gold'][kit[0]]} gold")
            out.append("Hand: " + (", ".join(tables.cards[c].name for c in view["hands"][kit[0]]) or "(empty)"))
            out.append("Home city traits: " + ", ".join(tables.traits[t].name for t in _player_traits(view, kit[0])))
            out.append("")
        view = {**view, "gold": {}}
    if kit:
        out.append("Other players' treasuries, hands and traits: hidden (not in your kit)")
        out.append("")
    if view.get("gold"):
        out.append("Treasuries and hands (moderator only):")
        for pid in view["turn_order"]:
            hand = ", ".join(tables.cards[c].name for c in view["hands"][pid])
            traits = ", ".join(tables.traits[t].name for t in _player_traits(view, pid))
            out.append(f"  {players[pid]['name']:<12} {view['gold'][pid]:>3} gold; hand: {hand}")
            out.append(f"  {'':<12} traits: {traits}")
        out.append("")
    out.append("Cities:")
    for cid in sorted(view["cities"], key=lambda c: game_map.cities[c].name):
        out.append(city_line(cid, view["cities"][cid], game_map, tables, players))
    out.append("")
    out.append("Your units:" if me else "Units:")
    out += render_units(view["units"], game_map, tables) or ["  (none)"]
    if view.get("others"):
        out.append("")
        out.append("Other units in sight:")
        for e in view["others"]:
            owner = players[e["owner"]]["name"] if e["owner"] else "neutral"
            leaders = f"; leaders {', '.join(e['leaders'])}" if e["leaders"] else ""
            out.append(f"  {e['hex']} {owner}: {_counts(e['counts'])}{leaders}")
    out.append("")
    discard = view.get("discard_size", len(view.get("discard", [])))
    out.append(f"Deck: {view['deck_size']} cards; discard pile: {discard} cards")
    return "\n".join(out) + "\n"


def _player_traits(view: dict[str, Any], pid: str) -> list[str]:
    return view.get("traits", {}).get(pid, [])


def unit_summary(units: list[dict[str, Any]]) -> str:
    return _counts(Counter(u["type"] for u in units))


def show(camp: Any, player: str | None = None, turn: int | None = None) -> str:
    """`pbem show`: the campaign's state at the start of ``turn`` (default: now) as text, everything or as
    ``player`` sees it.  A player's kit (``campaign.yaml`` has ``kit_of``) is shown as its player sees it,
    headed "Seen by: PLAYER (kit of turn N)"; another ``player`` is refused (the kit holds only what its
    player may know)."""
    from .errors import UsageError
    from .gamedata import tables
    from .visibility import view
    state = camp.load_state(turn)
    game_map = camp.game_map
    pid = None
    if player is not None:
        found = game_map.find_city(player)
        pid = found.id if found else player.strip().lower()
        if pid not in state.players:
            raise UsageError(f"--player {player!r}: not a player of this campaign ({', '.join(state.turn_order)})")
    kit_of = camp.config.get("kit_of")
    if kit_of:
        if pid is not None and pid != kit_of:
            raise UsageError(f"--player {player!r}: this folder is the kit of {kit_of}; it holds only what "
                             f"{kit_of} may see")
        return render(view(state, game_map, kit_of), game_map, tables(), kit=(kit_of, state.turn))
    return render(view(state, game_map, pid), game_map, tables())
