"""A match of rounds: scores add up, tribute moves cards between rounds, games of five rounds."""

import pytest

from rules import Match

# One quick round: 0, 1, 3, 5 go out; 4 (8 cards) is 二落 and 2 (10 cards) 大落.
QUICK = [
    {"type": "play", "seat": 0, "cards": "5"}, {"type": "play", "seat": 1, "cards": "6"},
    {"type": "play", "seat": 3, "cards": "7"}, {"type": "play", "seat": 5, "cards": "8"},
]


def play_quick_round(m: Match, first: int | None = 0) -> None:
    start = {"type": "round", "counts": [1, 1, 10, 1, 8, 1]}
    if first is not None:
        start["first"] = first
    assert m.apply(start).applied
    for event in QUICK:
        assert m.apply(event).applied, m.errors
    if not m.round.over:     # play_out_to_last: 2 takes 接风 and goes out, 4 is left
        m.apply({"type": "collect"})
        assert m.apply({"type": "play", "seat": 2, "cards": "TTTTTTTTTT"}).applied
    assert m.round.over


def test_scores_accumulate_over_rounds():
    m = Match("qingdao")
    play_quick_round(m)
    play_quick_round(m)
    state = m.to_json()
    assert state["scores"] == {"0": -2, "1": 2} and state["round_scores"] == {"0": -1, "1": 1}
    assert [h["round"] for h in state["history"]] == [1, 2]


def test_unreturned_tribute_changes_the_next_rounds_counts():
    m = Match("qingdao")
    play_quick_round(m)
    # 点贡: nobody opened, 对头s swap one each (net 0); 落贡 is returned: counts stay 36.
    m.apply({"type": "round", "first": 0})
    assert m.to_json()["counts"] == {str(s): 36 for s in range(6)}


def test_dian_tribute_moves_cards_into_the_next_deal():
    m = Match("qingdao")
    m.apply({"type": "round", "first": 0, "counts": [6, 1, 1, 10, 1, 10]})
    for event in ({"type": "play", "seat": 0, "cards": "TTTTT"}, {"type": "pass", "seat": 3},
                  {"type": "play", "seat": 0, "cards": "5"}, {"type": "play", "seat": 1, "cards": "6"},
                  {"type": "play", "seat": 2, "cards": "7"}, {"type": "play", "seat": 4, "cards": "8"}):
        assert m.apply(event).applied
    m.apply({"type": "round", "first": 0})
    counts = m.to_json()["counts"]
    assert (counts["0"], counts["3"]) == (37, 35)      # 0 opened, 3 did not: 3 gives 0 one


def test_a_game_is_five_rounds_the_next_game_starts_without_tribute():
    m = Match("qingdao")
    for _ in range(5):
        play_quick_round(m)
    state = m.to_json()
    assert state["game_round"] == 5 and state["tribute"] == []
    play_quick_round(m)
    assert m.to_json()["game_round"] == 1 and m.to_json()["tribute"]


def test_a_round_event_during_a_round_is_refused():
    m = Match()
    m.apply({"type": "round", "first": 0})
    assert m.apply({"type": "round", "first": 1}).error.reason == "round 1 is still in progress"


@pytest.mark.parametrize(
    ("ruleset", "to_act"),
    [
        ("qingdao", [0, 1, 2, 3, 4, 5]),   # the first play decides (上班 seen at the table)
        ("online", [1]),                   # seed 002: the first leader rotates
        ("irvine+no_threes_last", [4]),    # seed 004: last round's 大落 leads
    ],
)
def test_first_leader_of_a_later_round(ruleset, to_act):
    m = Match(ruleset)
    play_quick_round(m, first=0)
    m.apply({"type": "round"})
    assert m.to_json()["to_act"] == to_act


def test_irvine_plays_on_until_one_is_left():
    m = Match("irvine+no_threes_last")
    m.apply({"type": "round", "first": 0, "counts": [1, 1, 10, 1, 8, 1]})
    for event in QUICK:
        m.apply(event)
    assert not m.round.over
    assert not m.apply({"type": "play", "seat": 4, "cards": "88888888"}).applied  # 2 has 接风
    m.apply({"type": "collect"})
    assert m.to_json()["to_act"] == [2]
    assert m.apply({"type": "play", "seat": 2, "cards": "TTTTTTTTTT"}).applied
    assert m.round.over and m.to_json()["places"] == {"0": 1, "1": 2, "3": 3, "5": 4, "2": 5,
                                                      "4": 6}


def test_collect_ends_the_trick_and_is_harmless_otherwise():
    m = Match()
    assert m.apply({"type": "collect"}).applied
    m.apply({"type": "round", "first": 0})
    m.apply({"type": "play", "seat": 0, "cards": "55"})
    m.apply({"type": "collect"})
    assert m.to_json()["to_act"] == [0] and m.to_json()["trick"]["answer"] == "lead"
