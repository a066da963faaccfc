"""Self-play fuzzer: random legal bots under every preset; the invariants hold after every event."""

from collections import Counter

import pytest

from rules import PRESETS, Match, Rank, dumps, federation, load_ruleset, parse_cards, replay
from rules.selfplay import random_match

SPECS = [*PRESETS, "qingdao+joker_multi_cover+gouji_low_ranks", "qingdao+play_out_to_last",
         "irvine+no_play_out_to_last", "online+dian_base_2"]


def check_match(events, spec):
    """Replay event by event and check every invariant; returns the match."""
    rs = load_ruleset(spec)
    match = Match(rs)
    played: Counter = Counter()
    start_total = None
    for line, event in enumerate(events, start=1):
        before = match.round
        was_over = before is not None and before.over
        result = match.apply(event, line=line)
        assert result.applied, (line, event, result.error)
        r = match.round
        if r is not before:                       # a new round: cards are conserved by tribute
            played = Counter()
            start_total = sum(r.counts)
            assert start_total == sum(rs.deck)
        if event["type"] == "play":
            played.update(parse_cards(event["cards"]))
        assert all(c >= 0 for c in r.counts)      # counts never negative
        assert all(played[rank] <= rs.deck[rank] for rank in Rank)   # no more than the deck
        assert sum(played.values()) + sum(r.counts) == start_total
        assert set(r.to_act) <= {s for s in range(6) if r.active[s]}
        if r.over and (r is not before or not was_over):   # the round just ended
            check_finished_round(match, rs)
    assert sum(match.scores) == 0
    return match


def check_finished_round(match, rs):
    r = match.round
    result = r.result
    state = match.to_json()
    if result.termination == "void":
        return
    assert sorted(result.ranking) == list(range(6))                     # exactly six places
    assert sorted(state["places"].values()) == [1, 2, 3, 4, 5, 6]
    assert sum(result.scores) == 0                                      # scores sum to zero
    place = {s: result.place_of(s) for s in range(6)}
    for row in state["tribute"]:                                        # rows agree with places
        giver, receiver = row["from"], row["to"]
        assert giver != receiver and row["cards"] > 0
        assert row["returned"] == (row["kind"] in rs.tribute_returned)
        if row["kind"] == "luo":
            assert (place[giver], place[receiver], row["cards"]) in (
                (6, 1, rs.luo_cards[0]), (5, 2, rs.luo_cards[1]))
            assert not result.chuan
        if row["kind"] in ("dian", "chuan"):
            assert receiver == (giver + 3) % 6
        if row["kind"] == "chuan":
            assert result.chuan and federation(giver) != federation(result.ranking[0])
        if row["kind"] == "men":
            assert rs.men_tribute
    if result.chuan and rs.chuan_tribute == "none":
        assert state["tribute"] == []


@pytest.mark.parametrize("spec", SPECS)
@pytest.mark.parametrize("extras", [False, True])
def test_random_rounds_keep_every_invariant(spec, extras):
    for seed in range(3):
        events = random_match(seed, spec, rounds=2, extras=extras)
        match = check_match(events, spec)
        assert len(match.history) == 2


@pytest.mark.slow
@pytest.mark.parametrize("spec", SPECS)
def test_many_random_matches_keep_every_invariant(spec):
    for seed in range(60):
        check_match(random_match(1000 + seed, spec, rounds=6, extras=seed % 2 == 1), spec)


def test_random_match_is_deterministic_and_replays_to_the_same_state():
    events = random_match(11, "biesan", rounds=2, extras=True)
    assert events == random_match(11, "biesan", rounds=2, extras=True)
    live = check_match(events, "biesan")
    assert replay(dumps(events)).to_json() == live.to_json()
    assert replay(events).errors == []


def test_random_match_default_log_is_what_a_camera_sees():
    events = random_match(5, "qingdao", rounds=1)
    assert {e["type"] for e in events} == {"round", "play"}
