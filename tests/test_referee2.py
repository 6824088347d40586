"""A rules referee's findings on cards, skills and traits, with the lead's decisions (docs/rules.md):

- R-SET-4: a home city's new trait is re-rolled only if the home city itself has it, not for a trait its
  player holds through a controlled minor city;
- Starvation (docs/rules.md, Decision (fog, card targets)): a player who besieges the city themselves may play
  it with the city itself in sight; a siege only an unseen enemy makes still needs every hex around in sight;
- Hesitation (R-PH-LAND reactions): named for one stack of a combined attack, it cancels the attack but bars
  only that stack;
- R-PH-DRAW: two Statecraft leaders give a hand limit of 9 (each leader's +1 adds).
"""
from __future__ import annotations

from effect_scenarios import hold_trait
from pbem import board
from pbem.effects import held_traits
from pbem.visibility import sight
from scenario import TINY, add, events, give, make_state, orders, run_phase

FOG = "its target is not in your sight (a card's target must be in your sight when it is played)"


# -- R-SET-4: the experience roll's new trait ----------------------------------------------------------------

def test_R_SET_4_experience_trait_not_rerolled_for_a_minor_citys_trait():
    """R-SET-4: "re-roll a trait the city already has".  Athens (the home city) does not have Delos' trait
    Cavalry: the player holds it only while they hold Delos.  An experience roll of D66 34 (Cavalry) gives the
    home city Cavalry for good, and it stays when Delos is lost."""
    s = make_state()
    hold_trait(s, "athens", "cavalry", via="minor")  # Delos (Athenian) has Cavalry
    s.players["athens"].traits = ["slavery"]
    # experience 1D10 = 10; 1D6 = 4 (a trait); D66 = 3,4 (34 Cavalry); a re-roll would read 1,1 (11 Stoicism)
    ctx = run_phase("recruit", s, "athens", dice=[10, 4, 3, 4, 1, 1], check=False)
    [new] = events(ctx, "new_trait")
    assert new["trait"] == "cavalry"
    assert s.players["athens"].traits == ["slavery", "cavalry"]
    assert held_traits(s, "athens") == ["slavery", "cavalry"]  # held twice: counts once
    s.cities["delos"].controller = None  # Delos lost: the home city keeps its own Cavalry
    assert held_traits(s, "athens") == ["slavery", "cavalry"]


def test_R_SET_4_experience_trait_the_home_city_has_is_rerolled():
    """R-SET-4: a trait the home city itself has is rolled again (D66 14 Slavery, held; then 34 Cavalry)."""
    s = make_state()
    s.players["athens"].traits = ["slavery"]
    ctx = run_phase("recruit", s, "athens", dice=[10, 4, 1, 4, 3, 4], check=False)
    [new] = events(ctx, "new_trait")
    assert new["trait"] == "cavalry" and s.players["athens"].traits == ["slavery", "cavalry"]
