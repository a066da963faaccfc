"""The rules as a prior: who may act, and the rules' objection to a play they would refuse."""

from __future__ import annotations

import pytest

import rules
from tracker.prior import MatchPrior


@pytest.fixture
def match():
    m = rules.Match(ruleset="qingdao")
    m.apply({"type": "round", "ruleset": "qingdao", "first": 0})
    m.apply({"type": "play", "seat": 0, "cards": "555"})
    return m


class StateView:
    """What the live assistant hands over: only the state."""

    def __init__(self, match):
        self.match = match

    def to_json(self):
        return self.match.to_json()


def test_before_a_round_anyone_may_lead_and_nothing_is_refused():
    prior = MatchPrior(rules.Match())
    assert all(prior.may_act(s) for s in range(6)) and prior.objection(4, "KK") is None


@pytest.mark.parametrize("view", [lambda m: m, StateView], ids=["match", "state view"])
def test_a_play_of_mixed_ranks_is_refused_even_as_the_first_lead(view):
    objection = MatchPrior(view(rules.Match())).objection(5, "87")
    assert objection is not None and "mixed ranks" in objection


@pytest.mark.parametrize(("ruleset", "refused"), [("biesan", True), ("qingdao", False)])
def test_threes_with_twos_are_refused_only_under_biesan(ruleset, refused):
    # 憋三: 3s leave a hand only all together in the final play, so never with 贴钱 twos.
    prior = MatchPrior(rules.Match(ruleset=ruleset))
    assert (prior.objection(0, "2333") is not None) == refused


@pytest.mark.parametrize("view", [lambda m: m, StateView], ids=["match", "state view"])
@pytest.mark.parametrize(("seat", "cards", "refused"), [
    (1, "666", False),  # any later seat may answer three fives with three sixes
    (1, "66", True),    # the answer must have the led count
])
def test_objections(match, view, seat, cards, refused):
    objection = MatchPrior(view(match)).objection(seat, cards)
    assert (objection is not None) == refused
    if refused:
        assert objection.startswith("rules: ")


def test_only_seats_to_act_may_act(match):
    prior = MatchPrior(match)
    assert [s for s in range(6) if prior.may_act(s)] == [1, 2, 3, 4, 5]


def test_the_full_rules_also_refuse_a_play_that_does_not_beat(match):
    assert "does not beat" in MatchPrior(match).objection(2, "444")
