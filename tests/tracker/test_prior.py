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
    assert prior.opening(4) == {"type": "round", "ruleset": "qingdao", "first": 4,
                                "source": "inferred"}


def test_a_round_is_opened_once_and_again_when_it_is_over():
    match = rules.Match(ruleset="qingdao")
    prior = MatchPrior(match, ruleset="biesan")
    assert prior.opening(2)["ruleset"] == "biesan"
    match.apply({"type": "round", "first": 0, "counts": [1, 1, 1, 1, 1, 36]})
    assert prior.opening(0) is None
    for seat, card in enumerate("34567"):
        match.apply({"type": "play", "seat": seat, "cards": card})
    assert match.round.result is not None and prior.opening(5)["first"] == 5


def test_the_cards_a_seat_has_left_are_known_in_a_round_only(match):
    prior = MatchPrior(match)
    assert (prior.cards_left(0), prior.cards_left(1)) == (33, 36)
    assert MatchPrior(rules.Match()).cards_left(0) is None


@pytest.mark.parametrize(("answered", "cards", "refused"), [
    (None, "2KKKK", None),
    (None, "87", "rules: mixed ranks"),
    ("555", "666", None),
    ("555", "66", "rules: 66 does not beat 555"),
    ("555", "444", "rules: 444 does not beat 555"),
    ("BJ 22", "SJ 22", "rules: SJ 22 does not beat BJ 22"),
])
def test_a_play_in_turn_as_the_table_shows_it_leads_freely_and_answers_by_beating(
        match, answered, cards, refused):
    # Whatever the match holds on the table (seat 0's 555), the play is judged as leading
    # (nothing ``answered``) or answering the cards the table shows.
    objection = MatchPrior(match).in_turn(answered).objection(4, cards)
    assert objection is None if refused is None else objection.startswith(refused)


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


def test_a_new_trick_is_led_before_a_round_after_a_gather_or_by_the_last_player(match):
    assert MatchPrior(rules.Match(ruleset="qingdao")).leads(3)
    prior = MatchPrior(match)              # seat 0 led 555
    assert not prior.leads(1)
    assert prior.leads(0)                  # only if every other seat passed
    match.apply({"type": "collect"})
    assert prior.leads(0)


def test_a_checkpoint_judges_other_versions_of_the_plays_after_it(match):
    prior = MatchPrior(match)
    before = prior.checkpoint()
    match.apply({"type": "play", "seat": 1, "cards": "666"})
    # From the checkpoint (555 led), 666 then 777 are taken; 66 or 444 are not.
    assert prior.objection_from(before, [(1, "666"), (2, "777")]) is None
    assert "2 cards against 3" in prior.objection_from(before, [(1, "66")])
    assert "does not beat" in prior.objection_from(before, [(1, "666"), (2, "444")])
    # A gather (None) ends the trick: 555's seat leads the next one, not an answer.
    assert prior.objection_from(before, [(1, "666"), (2, "777"), None, (2, "44")]) is None
    assert "leads this trick" in prior.objection_from(before, [(1, "666"), None, (2, "777")])
    # Judging changes neither the checkpoint nor the match.
    assert prior.objection_from(before, [(1, "777")]) is None
    assert match.to_json()["trick"]["last_cards"] == "666"


def test_a_checkpoint_advanced_by_plays_leaves_out_those_the_rules_refuse(match):
    prior = MatchPrior(match)
    before = prior.checkpoint()
    after = prior.advanced(before, [(1, "66"), (1, "666"), (2, "777")])  # 66: 2 against 3
    assert after.to_json()["trick"]["plays"] == [
        {"seat": 0, "cards": "555", "gouji": False, "burn": False},
        {"seat": 1, "cards": "666", "gouji": False, "burn": False},
        {"seat": 2, "cards": "777", "gouji": False, "burn": False}]
    assert prior.objection_from(after, [(3, "888")]) is None
    assert before.to_json()["trick"]["last_cards"] == "555"     # the checkpoint is unchanged


def test_a_checkpoint_tells_whether_plays_end_the_round():
    # Seats 0, 2 and 4 hold one card each: once all three are out, only federation 1 is left
    # and the round is over. A refused play ends nothing.
    match = rules.Match(ruleset="qingdao")
    match.apply({"type": "round", "first": 0, "counts": [1, 36, 1, 36, 1, 36]})
    prior = MatchPrior(match)
    before = prior.checkpoint()
    assert prior.round_over_after(before, [(0, "5"), (2, "7"), (4, "A")])
    assert not prior.round_over_after(before, [(0, "5"), (2, "7")])
    assert not prior.round_over_after(before, [(0, "5"), (2, "7"), (4, "6")])  # not beating 7
    assert not match.to_json()["round_over"]


def test_a_new_deal_is_judged_by_a_round_of_its_own_while_the_match_holds_the_old_one():
    # Seat 4 still holds a card in round 1 by the match's count, but the table has dealt
    # anew: the match refuses seat 4's KK, the new deal's rules take it and judge what follows.
    match = rules.Match(ruleset="qingdao")
    match.apply({"type": "round", "first": 4, "counts": [0, 36, 0, 36, 1, 36]})
    prior = MatchPrior(match)
    assert prior.round_number() == 1 and prior.objection(4, "KK") is not None
    opening, deal = prior.new_deal(4)
    assert opening == {"type": "round", "ruleset": "qingdao", "first": 4, "source": "inferred"}
    deal.take([{**opening, "seq": 7}, {"type": "play", "seat": 4, "cards": "KK", "seq": 8}])
    assert deal.round_number() == 1 and deal.cards_left(4) == 34
    assert deal.objection(5, "AAA") == "rules: AAA does not beat KK: 3 cards against 2"
    deal.take([{"type": "play", "seat": 4, "cards": "K", "fixes": 8, "seq": 9}])  # corrected
    assert deal.cards_left(4) == 35
    assert match.to_json()["counts"]["4"] == 1                 # the match is not touched


def test_a_state_only_view_gives_no_checkpoint(match):
    assert MatchPrior(StateView(match)).checkpoint() is None


def test_a_state_view_that_offers_copies_of_its_match_gives_checkpoints(match):
    class CopyingView(StateView):
        """What the live dashboard hands over: the state, and copies of its match."""

        def copy(self):
            return self.match.copy()

    prior = MatchPrior(CopyingView(match))
    before = prior.checkpoint()
    assert isinstance(before, rules.Match) and before is not match
    assert prior.objection_from(before, [(1, "666")]) is None
    assert "2 cards against 3" in prior.objection_from(before, [(1, "66")])


def test_the_prior_after_events_judges_the_next_play_after_them(match):
    prior = MatchPrior(match)
    made = [{"type": "play", "seat": 1, "cards": "666", "seq": 3},
            {"type": "play", "seat": 0, "cards": "5555", "seq": 4, "fixes": 1}]   # left out
    after = prior.after(made)
    assert "does not beat" in after.objection(2, "666") and after.objection(2, "777") is None
    assert not after.may_act(1) and after.cards_left(1) == 33 and after.cards_left(0) == 33
    assert match.to_json()["trick"]["last_cards"] == "555"           # the match is unchanged
    state_only = MatchPrior(StateView(match))
    assert state_only.after(made) is state_only                       # it cannot tell
