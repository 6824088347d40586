"""The data tables: leader skills (R-SET-3), city traits (R-SET-4) and cards (R-SET-6).

Each table is schema-checked, its rows counted, and each row's machine-readable timing, target and effects
checked against what its seed text says, so a transcription slip (a wrong die, sign, value, side or target)
fails here. The seed text is vendored in tests/fixtures/seeds (PBEM_SEED_DIR overrides it), so
names, rolls and texts are also compared with it verbatim.
"""

from __future__ import annotations

import copy
import json
import os
import re
from pathlib import Path

import pytest
import yaml
from jsonschema import Draft202012Validator

ROOT = Path(__file__).resolve().parents[1]
TABLES = ROOT / "pbem" / "data" / "tables"
SCHEMA_PATH = ROOT / "schemas" / "tables.schema.json"
LEADER_NAMES = ROOT / "pbem" / "data" / "names" / "leaders.yaml"
SEED_DIR = Path(os.environ.get("PBEM_SEED_DIR", Path(__file__).parent / "fixtures" / "seeds"))
SEED_RULES = SEED_DIR / "base-game-rules.txt"

DICE_RE = re.compile(r"\b\d+D\d+\b")
BATTLE_ROLLS = {"battle", "attack", "defense", "casualty"}


def load(name: str) -> dict:
    with open(TABLES / f"{name}.yaml", encoding="utf-8") as f:
        return yaml.safe_load(f)


@pytest.fixture(scope="module")
def schema() -> dict:
    with open(SCHEMA_PATH, encoding="utf-8") as f:
        return json.load(f)


@pytest.fixture(scope="module")
def validator(schema) -> Draft202012Validator:
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


@pytest.fixture(scope="module")
def skills() -> list[dict]:
    return load("skills")["skills"]


@pytest.fixture(scope="module")
def traits() -> list[dict]:
    return load("traits")["traits"]


@pytest.fixture(scope="module")
def cards() -> list[dict]:
    return load("cards")["cards"]


def all_rows(skills, traits, cards):
    """(file, row) for every skill, trait and card."""
    return [("skills", r) for r in skills] + [("traits", r) for r in traits] + [("cards", r) for r in cards]


def effect_dice(effect: dict) -> set[str]:
    return {v for v in effect.values() if isinstance(v, str) and DICE_RE.fullmatch(v)}


def slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", name.lower().replace("&", " and ")).strip("_")


# --- schema and row counts ------------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["skills", "traits", "cards"])
def test_table_validates_against_schema(validator, name):
    errors = [f"{list(e.absolute_path)}: {e.message}" for e in validator.iter_errors(load(name))]
    assert errors == []


def test_row_counts(skills, traits, cards):
    assert (len(skills), len(traits), len(cards)) == (25, 35, 88)


@pytest.mark.parametrize("name", ["skills", "traits", "cards"])
def test_ids_and_names_unique_and_ids_are_slugs_of_names(name):
    rows = load(name)[name]
    ids = [r["id"] for r in rows]
    names = [r["name"] for r in rows]
    assert len(set(ids)) == len(ids)
    assert len(set(names)) == len(names)
    assert [slug(n) for n in names] == ids


def test_every_row_has_an_effect(skills, traits, cards):
    assert [r["id"] for _, r in all_rows(skills, traits, cards) if not r.get("effects")] == []


# --- the schema itself can fail -------------------------------------------------------------------------

def test_schema_rejects_an_unknown_effect_kind(validator):
    data = copy.deepcopy(load("cards"))
    data["cards"][0]["effects"][0]["kind"] = "teleport"
    assert not validator.is_valid(data)


def test_schema_rejects_a_missing_or_extra_effect_field(validator):
    data = copy.deepcopy(load("cards"))
    del data["cards"][0]["effects"][0]["dice"]
    assert not validator.is_valid(data)
    data = copy.deepcopy(load("skills"))
    data["skills"][0]["effects"][0]["colour"] = "red"
    assert not validator.is_valid(data)


def test_schema_rejects_bad_dice_roll_and_target(validator):
    bad_dice = copy.deepcopy(load("cards"))
    bad_dice["cards"][0]["effects"][0]["dice"] = "D10"
    bad_roll = copy.deepcopy(load("traits"))
    bad_roll["traits"][0]["roll"] = 17
    bad_target = copy.deepcopy(load("cards"))
    bad_target["cards"][0]["target"] = "moon"
    assert not any(validator.is_valid(d) for d in (bad_dice, bad_roll, bad_target))


def test_schema_rejects_mixed_files(validator):
    mixed = {"skills": load("skills")["skills"], "cards": load("cards")["cards"]}
    no_missing = {"traits": load("traits")["traits"]}
    assert not validator.is_valid(mixed)
    assert not validator.is_valid(no_missing)
    assert not validator.is_valid({})


def test_effect_vocabulary_is_documented_in_cards_yaml(schema):
    """The closed set of effect kinds in the schema is the set documented at the top of cards.yaml."""
    header = (TABLES / "cards.yaml").read_text(encoding="utf-8").split("\ncards:")[0]
    documented = set(re.findall(r"^# - (\w+)\s", header, flags=re.M))
    assert documented == set(schema["$defs"]["effect_kind"]["enum"])
    assert all(f"effect_{k}" in schema["$defs"] for k in documented)


def test_every_effect_kind_used_is_in_the_vocabulary(schema, skills, traits, cards):
    vocabulary = set(schema["$defs"]["effect_kind"]["enum"])
    used = {e["kind"] for _, r in all_rows(skills, traits, cards) for e in r["effects"]}
    assert used <= vocabulary
    assert len(vocabulary) <= 30, "the effect vocabulary is meant to stay small"


# --- rolls ----------------------------------------------------------------------------------------------

def test_skill_ranges_cover_1d100_exactly_once(skills):
    covered = [n for s in skills for n in range(s["roll"][0], s["roll"][1] + 1)]
    assert all(s["roll"][0] <= s["roll"][1] for s in skills)
    assert sorted(covered) == list(range(1, 101))


def test_trait_rolls_are_d66_minus_64():
    data = load("traits")
    d66 = {10 * t + u for t in range(1, 7) for u in range(1, 7)}
    assert data["missing"] == [64]
    rolls = [t["roll"] for t in data["traits"]]
    assert len(rolls) == len(set(rolls))
    assert set(rolls) == d66 - {64}


# --- each row's data says what its text says ------------------------------------------------------------

def test_dice_in_text_are_exactly_the_dice_in_effects(skills, traits, cards):
    wrong = {}
    for _, r in all_rows(skills, traits, cards):
        in_text = set(DICE_RE.findall(r["text"]))
        in_effects = set().union(*(effect_dice(e) for e in r["effects"]))
        if in_text != in_effects:
            wrong[r["id"]] = (in_text, in_effects)
    assert wrong == {}


def test_negative_dice_and_losses_have_sign_minus_one(skills, traits, cards):
    wrong = []
    for _, r in all_rows(skills, traits, cards):
        negative = bool(re.search(r"[–-]\d+D\d+|\bloses\b", r["text"]))
        for e in r["effects"]:
            if "sign" in e and (e["sign"] == -1) != negative:
                wrong.append(r["id"])
    assert wrong == []


def test_roll_modifier_value_is_in_text(skills, traits, cards):
    wrong = []
    for _, r in all_rows(skills, traits, cards):
        for e in r["effects"]:
            if e["kind"] != "roll_modifier":
                continue
            sign = r"\+" if e["value"] > 0 else "[–-]"
            if not re.search(rf"{sign}\s?{abs(e['value'])}\b", r["text"]):
                wrong.append(r["id"])
    assert wrong == []


# Words the text of a row must contain for each effect kind it has (case-insensitive).
KIND_WORDS = {
    "battle_total": r"total",
    "roll_modifier": r"roll|force|\+\d",
    "diplomacy_rolls": r"diplomacy roll",
    "gold": r"gold",
    "income": r"income",
    "movement": r"move",
    "hand_size": r"hand size",
    "victory_cities": r"victory",
    "control_city": r"gain control",
    "revolt": r"revolts",
    "negate_revolt": r"negate a revolt",
    "income_block": r"no income",
    "cannot_attack": r"not attack",
    "cannot_move_or_attack": r"cannot move or attack",
    "draw_cards": r"\bdraw\b",
    "look_at_hand": r"hand",
    "leader_removed": r"leader|kill",
    "leader_gained": r"gain one new leader",
    "razed_counters": r"razed",
    "upkeep_roll": r"upkeep roll",
    "navigation_roll": r"navigation roll",
    "starvation_counter": r"starvation counter",
    "remove_baggage": r"baggage",
    "truce": r"no one may attack",
    "extra_recruit": r"recruit",
}


def test_each_effect_kind_is_named_in_the_text(schema, skills, traits, cards):
    assert set(KIND_WORDS) == set(schema["$defs"]["effect_kind"]["enum"])
    wrong = [(r["id"], e["kind"]) for _, r in all_rows(skills, traits, cards) for e in r["effects"]
             if not re.search(KIND_WORDS[e["kind"]], r["text"], flags=re.I)]
    assert wrong == []


# The other way round: a phrase of the text, and the effect kinds of which the row must have one.
PHRASE_KINDS = [
    (r"\btotal\b", {"battle_total"}),
    (r"\broll", {"roll_modifier", "diplomacy_rolls", "upkeep_roll", "navigation_roll"}),
    (r"diplomacy roll", {"diplomacy_rolls"}),
    (r"\bgold\b", {"gold"}),
    (r"\bincome\b", {"income", "income_block"}),
    (r"\bmove", {"movement", "cannot_move_or_attack"}),
    (r"new leader", {"leader_gained"}),
    (r"discard(ed)? one leader|leader .*discarded|\bkill\b|removed from game", {"leader_removed"}),
    (r"gain control", {"control_city"}),
    (r"revolt", {"revolt", "negate_revolt"}),
    (r"razed", {"razed_counters"}),
    (r"baggage", {"remove_baggage"}),
    (r"recruit", {"extra_recruit"}),
    (r"hand size", {"hand_size"}),
    (r"victory", {"victory_cities"}),
    (r"\bdraw\b", {"draw_cards"}),
    (r"look at", {"look_at_hand"}),
    (r"starvation counter", {"starvation_counter"}),
    (r"may not attack|cannot move or attack", {"cannot_attack", "cannot_move_or_attack", "truce"}),
]


def test_each_phrase_of_the_text_has_its_effect(skills, traits, cards):
    wrong = []
    for _, r in all_rows(skills, traits, cards):
        kinds = {e["kind"] for e in r["effects"]}
        wrong += [(r["id"], phrase) for phrase, need in PHRASE_KINDS
                  if re.search(phrase, r["text"], flags=re.I) and not kinds & need]
    assert wrong == []


def test_side_opponent_iff_text_names_the_opponent(skills, traits, cards):
    wrong = []
    for _, r in all_rows(skills, traits, cards):
        for e in r["effects"]:
            if "side" in e and (e["side"] == "opponent") != bool(re.search(r"opponent", r["text"], re.I)):
                wrong.append(r["id"])
    assert wrong == []


def test_battle_total_fields_follow_the_text(skills, cards):
    wrong = []
    for r in skills + cards:
        text = r["text"].lower()
        for e in r["effects"]:
            if e["kind"] != "battle_total":
                continue
            total = re.search(r"(battle|attack|defense) total", text).group(1)
            battle = re.search(r"(land|sea) battle", text)
            vs = "ships" if "fleets/transports" in text else "city" if re.search(r"city|siege", text) else "any"
            if (e["total"], e["battle"], e["vs"]) != (total, battle.group(1) if battle else "any", vs):
                wrong.append(r["id"])
    assert wrong == []


def test_unit_class_follows_the_text(skills, traits, cards):
    wrong = []
    for _, r in all_rows(skills, traits, cards):
        text = r["text"]
        for e in r["effects"]:
            units = e.get("units")
            ok = {
                None: True,
                "army": "Arm" in text,
                "land": "Army Stack" in text,  # the marching stack: Armies and Rowers (Forced March, Marathon)
                "fleet": "Fleet" in text and "Transport" not in text,
                "ships": "Fleet" in text or "ship" in text,
                "all": "Arm" not in text and "Fleet" not in text,
            }[units]
            if not ok:
                wrong.append(r["id"])
    assert wrong == []


def test_scope_by_source(skills, traits, cards):
    """Skills act on their leader's stack, traits on all units, cards on the battle or the target stack."""
    wrong = []
    for source, r in all_rows(skills, traits, cards):
        for e in r["effects"]:
            if "scope" not in e:
                continue
            if source == "skills":
                ok = e["scope"] == "stack" and re.search(r"stack", r["text"], re.I)
            elif source == "traits":
                ok = e["scope"] == "all"
            elif e["scope"] == "battle":
                ok = e["kind"] == "battle_total" or "in battle" in r["text"]
            else:
                ok = e["scope"] == "stack" and r["target"] == "stack"
            if not ok:
                wrong.append((r["id"], e["kind"]))
    assert wrong == []


def test_permanent_effects_only_on_skills_and_traits(skills, traits, cards):
    for _, r in all_rows(skills, traits, cards):
        for e in r["effects"]:
            if e.get("duration") == "permanent":
                assert r in skills or r in traits, r["id"]
    for c in cards:
        for e in c["effects"]:
            assert e.get("duration") != "permanent", c["id"]
            assert e.get("trigger") != "acquired", c["id"]


# --- card timing and target -----------------------------------------------------------------------------

def is_battle_effect(e: dict) -> bool:
    return e["kind"] == "battle_total" or (e["kind"] == "roll_modifier" and e["roll"] in BATTLE_ROLLS)


def test_battle_cards_are_played_in_battle_with_the_right_role(cards):
    wrong = []
    for c in cards:
        t = c["timing"]
        battle = any(is_battle_effect(e) for e in c["effects"])
        text = c["text"].lower()
        if battle:
            role = "attack" if "attack total" in text else "defense" if re.search(r"defense (total|roll)", text) \
                else "any"
            ok = t["phase"] == "battle" and t["role"] == role and c["target"] == "none"
        else:
            ok = t["role"] is None
        if not ok:
            wrong.append(c["id"])
    assert wrong == []


def test_attack_cards_in_own_turn_defense_cards_in_others(cards):
    expected = {"attack": "own", "defense": "other", "any": "any"}
    wrong = [c["id"] for c in cards if c["timing"]["role"] and c["timing"]["turn"] != expected[c["timing"]["role"]]]
    assert wrong == []


def test_phase_follows_the_effect(cards):
    phase_of = {"diplomacy_rolls": "diplomacy", "control_city": "diplomacy", "revolt": "diplomacy",
                "negate_revolt": "diplomacy", "movement": "move"}
    wrong = [c["id"] for c in cards for e in c["effects"]
             if e["kind"] in phase_of and c["timing"]["phase"] != phase_of[e["kind"]]]
    assert wrong == []


def test_reactions(cards):
    """Only reactions have a trigger; a reaction to another player's action is played in their turn."""
    triggers = {c["id"]: c["timing"]["trigger"] for c in cards if c["timing"]["trigger"] != "none"}
    assert triggers == {"treasure": "city_captured", "hesitation": "attack", "failure": "battle_lost",
                        "executions": "revolt"}
    by_id = {c["id"]: c for c in cards}
    assert by_id["executions"]["timing"]["turn"] == "other"
    assert by_id["hesitation"]["timing"]["turn"] == "other"


# Phrases of the seed naming a target, and the target kind they mean.
TARGET_PHRASES = [
    (r"target besieged city", "besieged_city"),
    (r"target neutral city", "neutral_city"),
    (r"target enemy controlled minor city", "enemy_minor_city"),
    (r"target city", "city"),
    (r"target stack", "stack"),
    (r"target square", "hex"),
    (r"target leader", "leader"),
    (r"opposing city", "enemy_city"),
    (r"army stack|^stack ", "stack"),
    (r"units in city", "city"),
    (r"units in stack", "stack"),
    (r"discard one leader", "own_leader"),
    (r"opponent|no one may attack|negate a revolt", None),  # resolved below
]


def test_target_follows_the_text(cards):
    wrong = []
    for c in cards:
        text = c["text"].lower()
        expected = "none"
        for phrase, kind in TARGET_PHRASES:
            if re.search(phrase, text):
                expected = kind
                break
        if expected is None:
            if "negate a revolt" in text:
                expected = "city"  # the revolting city
            elif "opponent" in text and not any(is_battle_effect(e) for e in c["effects"]):
                expected = "player"
            else:
                expected = "none"
        if c["target"] != expected:
            wrong.append((c["id"], c["target"], expected))
    assert wrong == []


# --- leader names ---------------------------------------------------------------------------------------

def test_leader_names():
    with open(LEADER_NAMES, encoding="utf-8") as f:
        data = yaml.safe_load(f)
    assert set(data) == {"names"}
    names = data["names"]
    assert len(names) >= 150
    assert len(set(names)) == len(names)
    assert all(isinstance(n, str) and re.fullmatch(r"[A-Z][a-z]+( [A-Z][a-z]+)*", n) for n in names)


# --- verbatim against the seed, where it is available ---------------------------------------------------



def seed_section(start: str) -> list[str]:
    """The non-blank lines after the header line starting with `start`, up to the next blank line."""
    lines = SEED_RULES.read_text(encoding="utf-8").splitlines()
    i = next(n for n, line in enumerate(lines) if line.startswith(start))
    out = []
    for line in lines[i + 1:]:
        if not line.strip():
            break
        out.append(line)
    return out


def split_row(line: str) -> tuple[str, str]:
    """A seed table row: a name, then a tab or two or more spaces, then the text."""
    name, text = re.split(r"\t|\s{2,}", line.strip(), maxsplit=1)
    return name.strip(), text.strip()


def test_skills_match_the_seed(skills):
    seed = []
    for line in seed_section("1D100"):
        rng, rest = line.split("\t", 1)
        lo, hi = (int(x) or 100 for x in rng.split("-"))
        seed.append(([lo, hi], *split_row(rest)))
    assert [(s["roll"], s["name"], s["text"]) for s in skills] == seed


def test_traits_match_the_seed(traits):
    seed = []
    for line in seed_section("D6D6"):
        roll, rest = line.split("\t", 1)
        seed.append((int(roll), *split_row(rest)))
    assert [(t["roll"], t.get("seed_name", t["name"]), t["text"]) for t in traits] == seed


def test_cards_match_the_seed(cards):
    seed = [split_row(line) for line in seed_section("Card Name:")]
    assert [(c["name"], c["text"]) for c in cards] == seed
