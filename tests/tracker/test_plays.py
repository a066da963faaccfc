"""Play segmentation on hand-made detection sequences (10 frames per second, window 0.5 s)."""

from __future__ import annotations

import collections
import copy
import functools

import numpy as np
import pytest

import rules
from tests.tracker.tracker_builders import cards, fan, hold
from tracker.closer import ViewsOnDemand
from tracker.plays import PlaySegmenter
from tracker.prior import MatchPrior, TableVerdict
from vision.classes import class_id
from vision.detections import Detections


class FakePrior:
    """The rules' answers, scripted: who may act, and an objection per (seat, cards); with
    ``only``, every play but those (seat, cards) is refused."""

    def __init__(self, to_act=range(6), objections=None, only=None):
        self.to_act, self.objections, self.only = set(to_act), objections or {}, only

    def opening(self, seat):
        return None

    def may_act(self, seat):
        return seat in self.to_act

    def objection(self, seat, cards):
        if self.only is not None and (seat, cards) not in self.only:
            return "rules: no"
        return self.objections.get((seat, cards))

    def leads(self, seat):
        return False

    def in_turn(self, answered):
        return TableVerdict("qingdao", answered)

    def cards_left(self, seat):
        return None

    def checkpoint(self):
        return None   # whole tricks are judged with a real match (test_prior.py)

    def objection_from(self, checkpoint, plays):
        raise AssertionError("no checkpoint was given")

    def after(self, events):
        return self


@pytest.fixture
def segmenter(zones):
    return PlaySegmenter(zones, window=0.5)


def plays(events):
    return [(e["seat"], e["cards"]) for e in events if e["type"] == "play"]


def test_a_play_is_committed_once_after_it_stays_still_for_the_window(segmenter):
    three_fives = cards(*fan("555", 600, 560))
    assert hold(segmenter, three_fives, 0.0, 0.5) == []        # 5 frames: 0.0 .. 0.4 s
    events = hold(segmenter, three_fives, 0.5, 2.0)
    assert plays(events) == [(0, "555")]
    assert events[0]["t"] == 0.5 and events[0]["review"] is False and events[0]["conf"] == 0.9


@pytest.mark.parametrize("window", [0.0, -0.5])
def test_a_window_of_no_time_is_refused(zones, window):
    # Cards seen for no time at all would count at once: every flicker a play.
    with pytest.raises(ValueError, match=f"window must be above 0 seconds, got {window}"):
        PlaySegmenter(zones, window=window)


def test_the_zones_may_change_size_only_between_two_tricks(segmenter):
    assert not segmenter.holds_trick
    segmenter.resized((1.5, 1.5))      # before the first play
    assert plays(hold(segmenter, cards(*fan("555", 600, 560)), 0.0, 1.0)) == [(0, "555")]
    assert segmenter.holds_trick
    with pytest.raises(ValueError, match="only between two tricks"):
        segmenter.resized((2.0, 2.0))


def test_a_card_seen_for_one_frame_is_noise(segmenter):
    assert hold(segmenter, cards(("K", 640, 120)), 0.0, 0.1) == []
    assert hold(segmenter, cards(), 0.1, 2.0) == []


def test_a_hand_over_the_table_postpones_the_play(segmenter):
    pair = cards(*fan("QQ", 880, 500))
    assert hold(segmenter, pair, 0.0, 1.0, moving=True) == []
    assert plays(hold(segmenter, pair, 1.0, 1.0)) == [(1, "QQ")]


def test_cards_carried_in_by_a_moving_hand_count_only_where_they_come_to_rest(segmenter):
    events = []
    for step in range(8):  # the fan slides in from the bottom edge, 20 px a frame
        events += segmenter.update(cards(*fan("77", 620, 700 - 20 * step)), step / 10)
    events += hold(segmenter, cards(*fan("77", 620, 560)), 0.8, 1.0)
    assert plays(events) == [(0, "77")]


def test_plays_of_a_trick_follow_each_other_and_earlier_cards_stay_known(segmenter):
    lead = fan("888", 600, 560)                    # seat 0
    answer = fan("999", 860, 480)                  # seat 1
    events = hold(segmenter, cards(*lead), 0.0, 1.0)
    events += hold(segmenter, cards(*lead, *answer), 1.0, 1.0)
    assert plays(events) == [(0, "888"), (1, "999")]


def test_covered_cards_of_earlier_plays_are_not_removals_nor_new_plays(segmenter):
    first = fan("TTTTT", 580, 560)                 # seat 0 leads five tens
    events = hold(segmenter, cards(*first), 0.0, 1.0)
    # Everybody passes; seat 0 wins and, without a gather, lays 5 jacks half over the tens:
    # two tens are hidden, the other three show strips inside their old boxes.
    jacks = fan("JJJJJ", 610, 590)
    strips = [("T", 580, 560), ("T", 594, 560), ("T", 608, 545)]
    events += hold(segmenter, cards(*strips, *jacks), 1.0, 1.0)
    assert plays(events) == [(0, "TTTTT"), (0, "JJJJJ")]
    # The hidden tens coming back into view later are still no play.
    events = hold(segmenter, cards(*first, *jacks), 2.0, 1.0)
    assert plays(events) == []


def test_a_play_across_two_zones_goes_to_the_nearer_seat(segmenter, layout):
    # Seats 0 and 1 meet on the line from the centre (640, 360) to (813, 660).
    # Four cards across the border, three of them on seat 0's side.
    across = [("6", 690, 560), ("6", 704, 560), ("6", 718, 560), ("6", 780, 560)]
    assert [layout.seat_at((x, y)) for _, x, y in across] == [0, 0, 0, 1]
    assert plays(hold(segmenter, cards(*across), 0.0, 1.0)) == [(0, "6666")]


def test_the_rules_choose_between_two_zones_a_play_straddles(zones):
    segmenter = PlaySegmenter(zones, window=0.5, prior=FakePrior(to_act=[1]))
    across = [("6", 690, 560), ("6", 704, 560), ("6", 718, 560), ("6", 780, 560)]
    events = hold(segmenter, cards(*across), 0.0, 1.0)
    assert plays(events) == [(1, "6666")] and not events[0]["review"]


def test_the_seat_the_rules_take_a_straddling_play_from_comes_first(zones):
    # Seat 0 is to act, but the rules refuse it the play; seat 1 plays its last cards, which
    # the rules take from it out of turn.
    prior = FakePrior(to_act=[0], objections={(0, "6666"): "rules: 6666 does not beat 7"})
    segmenter = PlaySegmenter(zones, window=0.5, prior=prior)
    across = [("6", 690, 560), ("6", 704, 560), ("6", 718, 560), ("6", 780, 560)]
    events = hold(segmenter, cards(*across), 0.0, 1.0)
    assert plays(events) == [(1, "6666")] and not events[0]["review"]


def test_an_unsure_card_reaching_into_a_zone_does_not_let_the_rules_give_it_the_play(zones,
                                                                                      layout):
    # Seat 0 just played; seat 1 answers KKKK, and a card of seat 0's play, read anew as an
    # unsure 2, joins it from across the border. The rules would take 2KKKK from seat 0 alone
    # (a lead of its own after everyone passed), but only that card lies in seat 0's zone.
    prior = FakePrior(to_act=[1], objections={(1, "2KKKK"): "rules: 5 cards against 4"})
    segmenter = PlaySegmenter(zones, window=0.5, prior=prior)
    answer = [*fan("KKKK", 760, 440), ("2", 700, 500, 0.3)]
    assert [layout.seat_at((x, y)) for _, x, y, *_ in answer] == [1, 1, 1, 1, 0]
    events = hold(segmenter, cards(*answer), 0.0, 1.0)
    assert plays(events) == [(1, "KKKK")] and events[0]["review"]


def test_the_rules_flag_a_play_but_never_change_its_cards(zones):
    prior = FakePrior(objections={(3, "KKK"): "the led play had 2 cards"})
    segmenter = PlaySegmenter(zones, window=0.5, prior=prior)
    events = hold(segmenter, cards(*fan("KKK", 620, 120)), 0.0, 1.0)
    assert plays(events) == [(3, "KKK")]
    assert events[0]["review"] is True and "2 cards" in events[0]["reason"]


def test_an_unsure_card_holds_the_play_for_review(segmenter):
    events = hold(segmenter, cards(("A", 620, 560, 0.95), ("A", 634, 560, 0.25)), 0.0, 1.0)
    assert plays(events) == [(0, "AA")]
    assert events[0]["review"] is True and events[0]["conf"] == pytest.approx(0.25)


UNSURE_ACES = [("A", 620, 560, 0.95), ("A", 634, 560, 0.25)]
"""Seat 0 plays two aces, the second read unsurely."""


@pytest.mark.parametrize(("views", "conf"), [
    (([*UNSURE_ACES[:1], ("A", 634, 560, 0.8)], [*UNSURE_ACES[:1], ("A", 635, 561, 0.7)]), 0.7),
    (([*UNSURE_ACES[:1], ("A", 634, 560, 0.8)], [*UNSURE_ACES[:1], ("K", 634, 560, 0.7)]), 0.25),
    (([*UNSURE_ACES[:1], ("A", 634, 560, 0.8)],
      [*UNSURE_ACES[:1], ("A", 634, 560, 0.6), ("K", 635, 560, 0.7)]), 0.25),
    (([*UNSURE_ACES[:1], ("A", 634, 560, 0.8)], [*UNSURE_ACES[:1], ("A", 634, 560, 0.35)]), 0.25),
    (([*UNSURE_ACES[:1], ("A", 634, 560, 0.8)], UNSURE_ACES[:1]), 0.25),
    (([*UNSURE_ACES[:1], ("A", 634, 560, 0.8), ("A", 648, 560, 0.8)],), 0.25),
    ((), 0.25),
    (([*UNSURE_ACES[:1], ("A", 634, 560, 0.8)], [*UNSURE_ACES[:1], ("K", 634, 560, 0.7)],
      [*UNSURE_ACES[:1], ("A", 634, 560, 0.6)]), 0.6),
    ((UNSURE_ACES[:1], [*UNSURE_ACES[:1], ("K", 634, 560, 0.7)],
      [*UNSURE_ACES[:1], ("A", 634, 560, 0.9)]), 0.25),
], ids=["every-view-reads-it-surely", "a-view-reads-another-rank", "a-surer-box-of-another-rank",
        "a-view-is-unsure-too", "a-view-misses-it", "a-view-counts-one-more", "no-view",
        "two-of-three-read-it-surely", "two-of-three-do-not"])
def test_an_unsure_card_most_closer_views_read_surely_leaves_the_play_unheld(zones, views,
                                                                              conf):
    closer = CloserLook(zones, *views)
    events = hold(PlaySegmenter(zones, window=0.5), cards(*UNSURE_ACES), 0.0, 1.0,
                  closer=closer)
    assert plays(events) == [(0, "AA")] and closer.asked == [0]
    assert events[0]["conf"] == pytest.approx(conf)
    assert events[0]["review"] is (conf < 0.3)


def test_a_play_held_for_another_reason_is_not_read_closer_for_its_unsure_card(zones):
    prior = FakePrior(only=set())   # refused, however read
    closer = CloserLook(zones, [*UNSURE_ACES[:1], ("A", 634, 560, 0.8)])
    events = hold(PlaySegmenter(zones, window=0.5, prior=prior), cards(*UNSURE_ACES), 0.0, 1.0,
                  closer=closer)
    # The views are read for the rules (a count that might mend the play), not to let it in.
    assert plays(events) == [(0, "AA")]
    assert events[0]["reason"] == "unsure card (conf 0.25); rules: no"


@pytest.mark.parametrize("confidence", [0.05, 0.15])
def test_detections_below_min_conf_never_count_on_their_own(segmenter, confidence):
    assert hold(segmenter, cards(("A", 620, 560, confidence)), 0.0, 1.0) == []
    # Nor do they join a play the rules did not refuse.
    events = hold(segmenter, cards(("A", 620, 560, confidence), ("A", 634, 560)), 1.0, 1.0)
    assert plays(events) == [(0, "A")]


def test_two_plays_landing_together_are_ordered_after_the_last_seat_and_held(segmenter):
    events = hold(segmenter, cards(*fan("33", 620, 120)), 0.0, 1.0)          # seat 3
    events += hold(segmenter, cards(*fan("33", 620, 120), *fan("44", 380, 560),
                                    *fan("44", 380, 160)), 1.0, 1.0)         # seats 5, 4
    assert plays(events) == [(3, "33"), (4, "44"), (5, "44")]
    assert [e["review"] for e in events] == [False, True, True]


def test_an_emptied_table_is_a_gathered_trick(segmenter):
    events = hold(segmenter, cards(*fan("555", 600, 560)), 0.0, 1.0)
    events += hold(segmenter, cards(*fan("555", 600, 560)), 1.0, 0.3, moving=True)  # a hand
    events += hold(segmenter, cards(), 1.3, 0.4)           # swept away, not yet still long
    assert [e["type"] for e in events] == ["play"]
    events += hold(segmenter, cards(), 1.7, 1.0)
    assert [e["type"] for e in events] == ["play", "collect"]
    assert events[-1]["t"] == pytest.approx(1.8)


def test_cards_turned_face_down_are_a_gathered_trick(segmenter):
    events = hold(segmenter, cards(*fan("555", 600, 560), *fan("666", 860, 480)), 0.0, 1.0)
    backs = cards(*[("back", x, y) for _, x, y in fan("555", 600, 560)])
    events += hold(segmenter, backs, 1.0, 1.0)
    assert [e["type"] for e in events] == ["play", "play", "collect"]


def test_the_next_lead_after_a_gather_is_a_new_play_even_of_the_same_ranks(segmenter):
    pair = cards(*fan("99", 620, 560))
    events = hold(segmenter, pair, 0.0, 1.0) + hold(segmenter, cards(), 1.0, 1.0)
    events += hold(segmenter, pair, 2.0, 1.0)
    assert [e["type"] for e in events] == ["play", "collect", "play"]


def test_a_gather_missed_while_the_next_lead_lands_is_still_reported_first(segmenter):
    events = hold(segmenter, cards(*fan("99", 620, 560)), 0.0, 1.0)
    events += hold(segmenter, cards(*fan("JJ", 880, 200)), 1.0, 1.0)
    assert [(e["type"], e.get("seat")) for e in events] == [
        ("play", 0), ("collect", None), ("play", 2)]


def test_an_empty_table_gathers_nothing(segmenter):
    assert hold(segmenter, cards(), 0.0, 2.0) == []


def test_reset_forgets_the_trick(segmenter):
    pair = cards(*fan("99", 620, 560))
    hold(segmenter, pair, 0.0, 1.0)
    segmenter.reset()
    assert plays(hold(segmenter, pair, 0.0, 1.0)) == [(0, "99")]


def test_a_remembered_card_read_as_another_rank_later_is_no_new_play(segmenter):
    events = hold(segmenter, cards(*fan("999", 600, 560)), 0.0, 1.0)
    # The zone is detected again (a neighbour's hand passed) and one 9 now reads as an 8.
    reread = cards(("9", 600, 560), ("8", 614, 560), ("9", 628, 560), *fan("TTT", 860, 480))
    events += hold(segmenter, reread, 1.0, 1.0)
    assert plays(events) == [(0, "999"), (1, "TTT")]


def test_the_rules_set_aside_an_unsure_card_of_a_play_they_refuse(zones):
    # A second, unsure box on the last king reads as a fourth card: three kings answer three.
    prior = FakePrior(objections={(3, "KKKK"): "rules: 4 cards against 3"})
    segmenter = PlaySegmenter(zones, window=0.5, prior=prior)
    seen = cards(("K", 600, 120, 0.9), ("K", 614, 120, 0.9), ("K", 628, 120, 0.8),
                 ("K", 636, 120, 0.3))
    events = hold(segmenter, seen, 0.0, 1.0)
    assert plays(events) == [(3, "KKK")]
    assert events[0]["review"] is True and events[0]["conf"] == pytest.approx(0.8)
    assert "4 cards against 3" in events[0]["reason"]
    assert "set aside unsure K (conf 0.300)" in events[0]["reason"]


def test_the_least_sure_card_that_makes_the_play_acceptable_is_set_aside(zones):
    # The least sure card (the K) goes first; setting aside the unsure 9 would not do.
    prior = FakePrior(objections={(3, "K99"): "rules: mixed ranks", (3, "K9"): "rules: mixed"})
    segmenter = PlaySegmenter(zones, window=0.5, prior=prior)
    seen = cards(("9", 600, 120, 0.45), ("9", 614, 120, 0.9), ("K", 628, 120, 0.4))
    events = hold(segmenter, seen, 0.0, 1.0)
    assert plays(events) == [(3, "99")] and "set aside unsure K" in events[0]["reason"]


@pytest.mark.parametrize("conf", [0.35, 0.45])
def test_a_card_read_from_0_3_holds_no_play_yet_is_set_aside_when_the_rules_refuse_it(zones,
                                                                                       conf):
    # Below review_conf (0.3) a card holds its play; up to repair_conf (0.5) it is still
    # unsure enough to set aside when the rules refuse the play with it.
    seen = cards(("K", 600, 120, 0.9), ("K", 614, 120, 0.9), ("K", 628, 120, conf))
    events = hold(PlaySegmenter(zones, window=0.5, prior=FakePrior()), seen, 0.0, 1.0)
    assert plays(events) == [(3, "KKK")] and events[0]["review"] is False
    assert events[0]["conf"] == conf
    prior = FakePrior(objections={(3, "KKK"): "rules: 3 cards against 2"})
    events = hold(PlaySegmenter(zones, window=0.5, prior=prior), seen, 0.0, 1.0)
    assert plays(events) == [(3, "KK")] and events[0]["review"] is True
    assert events[0]["reason"] == (f"rules: 3 cards against 2; set aside unsure K "
                                   f"(conf {conf:.3f})")


@pytest.mark.parametrize("confidence", [0.9, 0.3])
def test_no_card_is_set_aside_when_sure_or_when_nothing_left_would_do(zones, confidence):
    # Sure cards are never set aside; unsure ones only when the rules take what is left.
    prior = FakePrior(objections={(3, play): "rules: no" for play in ("QQQ", "QQ", "Q")})
    segmenter = PlaySegmenter(zones, window=0.5, prior=prior)
    seen = cards(("Q", 600, 120, confidence), ("Q", 614, 120, 0.9), ("Q", 628, 120, confidence))
    events = hold(segmenter, seen, 0.0, 1.0)
    assert plays(events) == [(3, "QQQ")] and events[0]["reason"].endswith("rules: no")


def test_the_rules_take_in_a_faint_card_beside_a_play_they_refuse(zones):
    # The narrow strip of a fan's bottom king is read faintly (0.15, below min_conf 0.2):
    # one king does not answer a pair, two do. The faint queen further along would not do.
    prior = FakePrior(only={(3, "KK")})
    segmenter = PlaySegmenter(zones, window=0.5, prior=prior)
    seen = cards(("Q", 586, 120, 0.18), ("K", 600, 120, 0.15), ("K", 614, 120, 0.9))
    events = hold(segmenter, seen, 0.0, 1.0)
    assert plays(events) == [(3, "KK")]
    assert events[0]["review"] is True and events[0]["conf"] == pytest.approx(0.15)
    assert "took in faint K (conf 0.150)" in events[0]["reason"]
    # The king taken in is remembered with the play: it is no new card later.
    assert hold(segmenter, seen, 1.0, 1.0) == []


@pytest.mark.parametrize(("faint", "why"), [
    (("K", 614, 300, 0.15), "far from the play"),
    (("K", 900, 480, 0.15), "in another seat's zone"),
    (("K", 600, 120, 0.05), "below faint_conf"),
])
def test_faint_cards_that_are_no_card_of_the_play_are_not_taken_in(zones, faint, why):
    prior = FakePrior(only={(3, "KK")})
    segmenter = PlaySegmenter(zones, window=0.5, prior=prior)
    events = hold(segmenter, cards(faint, ("K", 614, 120, 0.9)), 0.0, 1.0)
    assert plays(events) == [(3, "K")], why
    assert events[0]["reason"] == "rules: no"


def test_a_faint_card_of_the_plays_rank_beside_it_holds_the_play_for_review(zones):
    # One sure five led, the strip of a second five beside it read faintly: the rules take a
    # lead of one card, so only the faint five can tell the operator to look.
    segmenter = PlaySegmenter(zones, window=0.5, prior=FakePrior())
    events = hold(segmenter, cards(("5", 600, 120, 0.14), ("5", 614, 120, 0.84)), 0.0, 1.0)
    assert plays(events) == [(3, "5")]
    assert events[0]["review"] is True and events[0]["reason"] == "faint 5 (conf 0.140) beside it"


class CloserLook:
    """Scripted closer views of the table (``views``: the cards each counts), each giving the
    cards in the zone asked about, each read once as the pipeline reads it (the segmenter asks
    ahead of its commit too), noting the seats whose zone was read and how many views were."""

    def __init__(self, zones, *views, second_choice=None, flagged=False):
        self.zones, self.views, self.asked = zones, views, []
        self.read_of: collections.Counter[int] = collections.Counter()
        """Views read of each seat's zone."""
        self.second_choice = second_choice
        """A rank each view's cards carry as their second choice at 0.01, as the detector's do."""
        self.flagged = flagged
        """Whether each view's cards carry the pipeline's flags (none a second reading)."""
        self._seen: dict[int, list] = {}

    def __call__(self, seat):
        if seat not in self._seen:
            self.asked.append(seat)
        return ViewsOnDemand(functools.partial(self.read_view, seat), len(self.views),
                             self._seen.setdefault(seat, []))

    @property
    def read(self):
        """Views read, of every zone."""
        return sum(self.read_of.values())

    def read_view(self, seat, index):
        self.read_of[seat] += 1
        found = cards(*self.views[index])
        if self.second_choice is not None:
            found = second_choices(found, [self.second_choice] * len(found), [0.01] * len(found))
        if self.flagged:
            found = flagged(found)
        owner = self.zones.trigger(found)
        return found[owner == seat].with_data(seat=owner[owner == seat])


@pytest.mark.parametrize(("look_ahead", "read_at"), [(0.5, 0.3), (None, 0.5)])
def test_the_closer_views_a_commit_needs_are_asked_while_the_picture_stands(zones, look_ahead,
                                                                             read_at):
    # Half-way through the window the commit is rehearsed: the zone's views are read then, so
    # the commit, when the window ends, finds them read (the caller keeps them).
    closer = CloserLook(zones, [*UNSURE_ACES[:1], ("A", 634, 560, 0.8)])
    segmenter = PlaySegmenter(zones, window=0.5, look_ahead=look_ahead)
    frames = [(i / 10, segmenter.update(cards(*UNSURE_ACES), i / 10, closer=closer),
               list(closer.asked)) for i in range(10)]
    asked_at = next(t for t, _, asked in frames if asked)
    committed_at, (event,) = next((t, events) for t, events, _ in frames if events)
    assert (asked_at, committed_at) == (read_at, 0.5)
    assert (event["cards"], event["review"]) == ("AA", False)
    assert closer.asked == [0] and closer.read == 1
    assert len(segmenter.remembered) == 2   # the rehearsal's commit was thrown away


def test_only_a_picture_with_new_cards_is_rehearsed(zones, monkeypatch):
    # A rehearsal copies the segmenter; a picture that only shows the trick's cards again (a
    # hand passed over the table and laid nothing) asks for no view, and is not copied.
    copies = []
    deepcopy = copy.deepcopy
    monkeypatch.setattr(copy, "deepcopy", lambda *args: copies.append(1) or deepcopy(*args))
    segmenter, closer = PlaySegmenter(zones, window=0.5), CloserLook(zones)
    aces = cards(*UNSURE_ACES)
    assert plays(hold(segmenter, aces, 0.0, 1.0, closer=closer)) == [(0, "AA")]
    assert len(copies) == 1
    assert hold(segmenter, aces, 1.0, 0.3, moving=True, closer=closer) == []
    assert hold(segmenter, aces, 1.3, 1.0, closer=closer) == []
    assert len(copies) == 1
    kings = cards(*UNSURE_ACES, *fan("KK", 880, 500))
    assert plays(hold(segmenter, kings, 2.3, 1.0, closer=closer)) == [(1, "KK")]
    assert len(copies) == 2


LED_FIVES = [("5", 600, 120, 0.14), ("5", 614, 120, 0.84), ("5", 628, 120, 0.9)]
"""Seat 3 leads two fives, the strip of a third beside them read faintly."""


@pytest.mark.parametrize(("views", "read", "committed", "reason"), [
    ((fan("555", 600, 120), fan("555", 600, 121)), 2, "555",
     ("unsure card (conf 0.14); took in 5 (conf 0.140), counted when its zone was read "
      "closer")),
    ((fan("5555", 600, 120), fan("5555", 600, 121)), 2, "5555",
     ("unsure card (conf 0.14); took in 55 (conf 0.140, 0.900), counted when its zone was read "
      "closer")),
    ((fan("555", 600, 120), fan("55", 614, 120)), 2, "55", "faint 5 (conf 0.140) beside it"),
    ((fan("55", 614, 120), fan("555", 600, 120)), 1, "55", "faint 5 (conf 0.140) beside it"),
    ((), 0, "55", "faint 5 (conf 0.140) beside it"),
    ((fan("555", 600, 120), fan("55", 614, 120), fan("555", 600, 122)), 3, "555",
     ("unsure card (conf 0.14); took in 5 (conf 0.140), counted when its zone was read "
      "closer")),
    ((fan("55", 614, 120), fan("555", 600, 120), fan("55", 614, 122)), 3, "55",
     "faint 5 (conf 0.140) beside it"),
    ((fan("555", 600, 120), fan("555", 600, 121), fan("55", 614, 122)), 2, "555",
     ("unsure card (conf 0.14); took in 5 (conf 0.140), counted when its zone was read "
      "closer")),
    ((fan("55", 614, 120), fan("55", 614, 121), fan("555", 600, 122)), 2, "55",
     "faint 5 (conf 0.140) beside it"),
], ids=["every-view-counts-it", "every-view-counts-one-more-not-found", "the-last-view-does-not",
        "the-first-view-does-not", "no-view", "the-third-of-three-breaks-a-tie-for-it",
        "the-third-of-three-breaks-a-tie-against-it", "the-first-two-of-three-count-it",
        "the-first-two-of-three-do-not"])
def test_a_faint_card_most_closer_views_count_is_taken_into_the_play(zones, views, read,
                                                                      committed, reason):
    segmenter = PlaySegmenter(zones, window=0.5, prior=FakePrior())
    closer = CloserLook(zones, *views)
    events = hold(segmenter, cards(*LED_FIVES), 0.0, 1.0, closer=closer)
    assert plays(events) == [(3, committed)] and closer.asked == [3]
    assert closer.read == read   # views are read until most of them agree
    assert events[0]["review"] is True and events[0]["reason"] == reason
    # A card taken in is remembered with the play: it is no new card later.
    assert hold(segmenter, cards(*LED_FIVES), 1.0, 1.0, closer=closer) == []


@pytest.mark.parametrize(("seen", "prior", "why"), [
    (LED_FIVES[1:], FakePrior(), "no faint card beside it"),
    ([("Q", 600, 120, 0.14), *LED_FIVES[1:]], FakePrior(), "the faint card is of another rank"),
    (LED_FIVES, FakePrior(only={(3, "55")}), "the rules refuse the play with it"),
])
def test_a_zone_is_read_closer_only_for_a_faint_card_the_play_may_lack(zones, seen, prior, why):
    closer = CloserLook(zones, fan("555", 600, 120), fan("555", 600, 120))
    events = hold(PlaySegmenter(zones, window=0.5, prior=prior), cards(*seen), 0.0, 1.0,
                  closer=closer)
    assert plays(events) == [(3, "55")] and closer.asked == [], why


OUT_OF_TURN = {(3, fives): "rules: seat 0 leads this trick" for fives in ("5", "55", "555")}
"""The rules, a play behind the table, hold seat 0 to lead: every play of seat 3 is refused."""


TOOK_IN_THE_FIVE = ("unsure card (conf 0.14); took in 5 (conf 0.140), counted when its zone "
                    "was read closer; rules: seat 0 leads this trick")


@pytest.mark.parametrize(("table", "committed", "reason"), [
    ("", "555", TOOK_IN_THE_FIVE),
    ("444", "555", TOOK_IN_THE_FIVE),
    ("KKK", "55", "rules: seat 0 leads this trick"),
], ids=["a-lead-on-the-bare-table", "an-answer-it-makes-beat", "an-answer-beating-nothing"])
def test_a_play_refused_out_of_turn_is_read_as_the_table_shows_it(zones, table, committed,
                                                                   reason):
    # Rules a play behind the table hold seat 0 to lead. Seat 3's play is read as one in
    # turn: a lead's count is free, an answer must beat the play lying there. Its zone is
    # read closer for the faint five beside it when the play would be taken with it.
    segmenter = PlaySegmenter(zones, window=0.5, prior=FakePrior(to_act={0},
                                                                 objections=OUT_OF_TURN))
    on_the_table = fan(table, 600, 560)
    assert plays(hold(segmenter, cards(*on_the_table), 0.0, 1.0)) == [(0, table)] * bool(table)
    closer = CloserLook(zones, fan("555", 600, 120), fan("555", 600, 121))
    play = hold(segmenter, cards(*on_the_table, *LED_FIVES), 1.0, 1.0, closer=closer)[-1]
    assert (play["seat"], play["cards"]) == (3, committed)
    assert play["review"] is True and play["reason"] == reason


def test_an_answer_out_of_turn_to_a_lead_out_of_turn_must_beat_it(zones):
    # After a gather, seat 3 leads KKK out of turn (the rules, a play behind, hold seat 0 to
    # lead), and seat 4 lays 55 with a faint five beside it. On the table 55 answers KKK:
    # with the five or without, it beats nothing, so nothing is taken in.
    segmenter = PlaySegmenter(zones, window=0.5, prior=FakePrior(
        to_act={0}, objections={**OUT_OF_TURN, (3, "KKK"): "rules: seat 0 leads this trick",
                                **{(4, fives): "rules: seat 0 leads this trick"
                                   for fives in ("55", "555")}}))
    assert plays(hold(segmenter, cards(("Q", 600, 560)), 0.0, 1.0)) == [(0, "Q")]
    assert [e["type"] for e in hold(segmenter, cards(), 1.0, 1.0)] == ["collect"]
    kings = cards(*fan("KKK", 600, 120))
    assert plays(hold(segmenter, kings, 2.0, 1.0)) == [(3, "KKK")]
    closer = CloserLook(zones, fan("555", 420, 210), fan("555", 420, 211))
    fives = cards(("5", 420, 210, 0.14), ("5", 434, 210, 0.84), ("5", 448, 210, 0.9))
    play = hold(segmenter, Detections.merge([kings, fives]), 3.0, 1.0, closer=closer)[-1]
    assert (play["seat"], play["cards"]) == (4, "55")
    assert play["reason"] == "rules: seat 0 leads this trick"


@pytest.mark.parametrize(("views", "committed", "reason"), [
    ((), "5", None),
    ((fan("55", 600, 120), fan("55", 600, 121)), "55",
     ("unsure card (conf 0.14); took in 5 (conf 0.140), counted when its zone was read "
      "closer")),
], ids=["no-view-counts-it", "every-view-counts-it"])
def test_a_cards_second_box_from_its_own_corner_does_not_hold_the_play(zones, views, committed,
                                                                         reason):
    # The sure five found again, faintly, from its own corner: no doubt on the count. Its zone
    # is still read closer, which may count a card the detector missed beside it.
    seen = cards(("5", 600, 120, 0.14), ("5", 614, 120, 0.84)).with_data(
        found_twice=np.array([True, False]))
    closer = CloserLook(zones, *views)
    events = hold(PlaySegmenter(zones, window=0.5, prior=FakePrior()), seen, 0.0, 1.0,
                  closer=closer)
    assert plays(events) == [(3, committed)] and closer.asked == [3]
    assert events[0]["review"] is (reason is not None) and events[0].get("reason") == reason


@pytest.mark.parametrize(("faint", "prior", "why"), [
    (("Q", 600, 120, 0.14), FakePrior(), "of another rank"),
    (("5", 614, 300, 0.14), FakePrior(), "far from the play"),
    (("5", 600, 120, 0.14), FakePrior(only={(3, "5")}), "the rules refuse the play with it"),
])
def test_other_faint_cards_do_not_hold_a_play(zones, faint, prior, why):
    segmenter = PlaySegmenter(zones, window=0.5, prior=prior)
    events = hold(segmenter, cards(faint, ("5", 614, 120, 0.84)), 0.0, 1.0)
    assert plays(events) == [(3, "5")] and events[0]["review"] is False, why


def test_faint_cards_of_a_remembered_play_are_not_taken_in_again(zones):
    # Seat 3's pair was made with a faint king. Later in the trick seat 3 lays one more king
    # beside it, which the rules refuse: the remembered faint king is no card of this play.
    prior = FakePrior(only={(3, "KK")})
    segmenter = PlaySegmenter(zones, window=0.5, prior=prior)
    pair = cards(("K", 600, 120, 0.15), ("K", 614, 120, 0.9))
    events = hold(segmenter, pair, 0.0, 1.0)
    events += hold(segmenter, Detections.merge([pair, cards(("K", 650, 130, 0.9))]), 1.0, 1.0)
    assert plays(events) == [(3, "KK"), (3, "K")]


def test_a_faint_card_found_twice_is_taken_in_once(zones):
    # Two faint boxes on one strip: they make a pair, never a triple.
    seen = cards(("K", 600, 120, 0.15), ("K", 601, 121, 0.12), ("K", 614, 120, 0.9))
    for wanted, committed in (("KK", "KK"), ("KKK", "K")):
        segmenter = PlaySegmenter(zones, window=0.5, prior=FakePrior(only={(3, wanted)}))
        assert plays(hold(segmenter, seen, 0.0, 1.0)) == [(3, committed)]


def test_a_second_reading_counts_only_as_a_faint_card(zones):
    # Read at 0.3 but marked a second reading (inside a surer box of its rank): it does not
    # count on its own, yet the rules may take it in when the play needs one more card.
    seen = cards(("K", 612, 120, 0.3), ("K", 614, 120, 0.9))
    seen.data["second_reading"] = np.array([True, False])
    for prior, committed in ((None, "K"), (FakePrior(only={(3, "KK")}), "KK")):
        segmenter = PlaySegmenter(zones, window=0.5, prior=prior)
        assert segmenter.counts(seen).tolist() == [False, True]
        assert plays(hold(segmenter, seen, 0.0, 1.0)) == [(3, committed)]


def second_choices(seen, runner_up, runner_up_confidence):
    """``seen`` with the classifier's second choice of each card, as the detector gives it."""
    seen.data["runner_up"] = np.array([class_id(rank) for rank in runner_up])
    seen.data["runner_up_confidence"] = np.array(runner_up_confidence, np.float32)
    return seen


@pytest.mark.parametrize("ace", [0.3, 0.06])
def test_the_rules_read_an_unsure_card_as_the_classifiers_second_choice(zones, ace):
    # An ace misread as a king (0.35; ace the classifier's next guess, even at 0.06) beside a
    # sure ace: neither setting the king aside nor a faint card makes a pair the rules take.
    prior = FakePrior(only={(3, "AA")})
    segmenter = PlaySegmenter(zones, window=0.5, prior=prior)
    seen = second_choices(cards(("A", 600, 120, 0.9), ("K", 614, 120, 0.35)),
                          ["K", "A"], [0.05, ace])
    events = hold(segmenter, seen, 0.0, 1.0)
    assert plays(events) == [(3, "AA")]
    assert events[0]["review"] is True and events[0]["conf"] == pytest.approx(ace)
    assert f"read unsure K (conf 0.350) as A (conf {ace:.3f})" in events[0]["reason"]
    # The card is remembered as read: it is no new card later.
    assert hold(segmenter, seen, 1.0, 1.0) == []


@pytest.mark.parametrize(("second", "led"), [(("6", 0.22), "66666"), (("5", 0.22), "6666")])
def test_a_lead_keeps_a_misread_card_its_second_choice_makes_one_rank(zones, second, led):
    # 66666 led, one 6 read as an 8 (0.45): a lead has no count for the rules to weigh, and
    # the 8 set aside leaves a lead of four. Its second choice, a 6, keeps the card; a second
    # choice of another rank does not make one play, and the 8 is set aside.
    segmenter, match = refereed(zones)
    seen = second_choices(cards(*fan("66", 600, 560), ("8", 628, 560, 0.45),
                                *fan("66", 642, 560)), ["K", "K", second[0], "K", "K"],
                          [0.01, 0.01, second[1], 0.01, 0.01])
    events = follow(segmenter, match, seen, 0.0)
    assert plays(events) == [(0, led)] and events[0]["review"]


@pytest.mark.parametrize(("read", "second", "held", "why"), [
    (("2", 0.44), ("T", 0.026), True, "2TTT led, a T read as a 2: the rules take either"),
    (("2", 0.44), ("T", 0.02), False, "its second choice is under 0.05 times its score"),
    (("2", 0.75), ("T", 0.1), False, "read surely enough"),
    (("2", 0.44), ("J", 0.1), False, "the rules refuse 2JTT: mixed ranks"),
])
def test_a_card_the_rules_would_take_as_its_second_choice_holds_the_play(zones, read, second,
                                                                         held, why):
    # The rules check a play's ranks against each other, not its 2s and jokers, which join
    # any rank: a T read as a 2 makes a play they take all the same.
    segmenter, match = refereed(zones)
    seen = cards(("2", 600, 560, 0.9), (read[0], 614, 560, read[1]), ("T", 628, 560, 0.9),
                 ("T", 642, 560, 0.9))
    seen = second_choices(seen, ["J", second[0], "3", "3"], [0.01, second[1], 0.01, 0.01])
    events = follow(segmenter, match, seen, 0.0)
    assert plays(events) == [(0, "22TT")], why
    assert events[0]["review"] is held, why
    if held:
        assert events[0]["reason"] == (f"2 (conf {read[1]:.3f}) may be T (conf "
                                       f"{second[1]:.3f}): the rules take either")


def test_a_lone_card_read_nearly_as_surely_as_another_rank_holds_the_play(zones):
    segmenter, match = refereed(zones)
    seen = second_choices(cards(("Q", 600, 560, 0.61)), ["J"], [0.245])
    events = follow(segmenter, match, seen, 0.0)
    assert plays(events) == [(0, "Q")] and events[0]["review"]
    assert events[0]["reason"] == "Q (conf 0.610) may be J (conf 0.245): the rules take either"


@pytest.mark.parametrize(("second", "played", "why"), [
    (("A", 0.12), "AAA", "the strip's second choice makes the play"),
    (("A", 0.05), "AA", "its second choice is below faint_conf"),
    (("K", 0.12), "AA", "the rules refuse its second choice too"),
    (("back", 0.3), "AA", "a card back is no rank"),
])
def test_a_faint_card_may_be_taken_in_as_the_classifiers_second_choice(
        zones, second, played, why):
    # A tight fan's strip, found faintly (0.17) and read as a 4, the ace its second choice.
    segmenter = PlaySegmenter(zones, window=0.5, prior=FakePrior(only={(3, "AAA")}))
    seen = second_choices(cards(*fan("AA", 600, 120), ("4", 628, 120, 0.17)),
                          ["K", "K", second[0]], [0.01, 0.01, second[1]])
    events = hold(segmenter, seen, 0.0, 1.0)
    assert plays(events) == [(3, played)], why
    if played == "AAA":
        assert events[0]["reason"] == ("unsure card (conf 0.12); rules: no; took in faint 4 "
                                       "(conf 0.170) as A (conf 0.120)")


@pytest.mark.parametrize(("king", "runner_up", "options", "why"), [
    (0.6, ("A", 0.3), {}, "the king is read surely"),
    (0.35, ("A", 0.015), {}, "the ace scores under a twentieth of the king"),
    (0.35, ("Q", 0.3), {}, "the rules refuse the second choice too"),
    (0.35, ("back", 0.3), {}, "a card back is no rank"),
    (0.35, ("A", 0.3), {"second_choice": False}, "second choices are off"),
])
def test_no_card_is_read_again_unless_unsure_and_its_second_choice_makes_the_play(
        zones, king, runner_up, options, why):
    # A lone king the rules refuse, where an ace would do.
    segmenter = PlaySegmenter(zones, window=0.5, prior=FakePrior(only={(3, "A")}), **options)
    seen = second_choices(cards(("K", 614, 120, king)), [runner_up[0]], [runner_up[1]])
    events = hold(segmenter, seen, 0.0, 1.0)
    assert plays(events) == [(3, "K")], why
    assert events[0]["reason"].endswith("rules: no")


@pytest.mark.parametrize(("read", "runner_up", "taken", "played", "conf"), [
    ([("6", 0.88), ("8", 0.31), ("8", 0.3)], ["8", "6", "9"], {"666"}, "666", 0.0),
    ([("6", 0.88), ("8", 0.31), ("8", 0.3)], ["8", "6", "6"], {"666"}, "666", 0.1),
    ([("8", 0.64), ("6", 0.87), ("6", 0.72), ("6", 0.39)], ["6", "8", "8", "8"], {"6666"},
     "6666", 0.1),
    ([("6", 0.88), ("8", 0.31), ("8", 0.3)], ["8", "6", "9"], {"888"}, "886", 0.3),
    ([("A", 0.88), ("8", 0.31)], ["K", "6"], {"AA"}, "AA", 0.0),
])
def test_a_play_of_mixed_ranks_is_read_as_its_surest_cards_rank(zones, read, runner_up, taken,
                                                                  played, conf):
    # A tight fan's strips read as another rank (a 6's strip as an 8, even at 0.64), its top
    # card read surely: no card set aside or read as its second choice makes a play the rules
    # take, but the play read all of its surest card's rank does. Each card read so is scored
    # as the classifier scored that rank (its second choice at 0.1, else 0).
    seen = second_choices(cards(*[(rank, 600 + 14 * i, 120, score)
                                  for i, (rank, score) in enumerate(read)]),
                          runner_up, [0.1] * len(read))
    segmenter = PlaySegmenter(zones, window=0.5, prior=FakePrior(only={(3, p) for p in taken}))
    events = hold(segmenter, seen, 0.0, 1.0)
    assert plays(events) == [(3, played)]
    assert events[0]["review"] is True and events[0]["conf"] == pytest.approx(conf)
    if played in taken:
        assert events[0]["reason"].endswith("the rank of its surest card")
    else:
        assert events[0]["reason"].endswith("rules: no")


# -- the trick as evidence: corrections of earlier plays -------------------------------------


def refereed(zones, **options):
    """A segmenter with the full rules as its prior, and the match it keeps current."""
    match = rules.Match(ruleset="qingdao")
    match.apply({"type": "round", "ruleset": "qingdao", "first": 0})
    return PlaySegmenter(zones, window=0.5, prior=MatchPrior(match), **options), match


def follow(segmenter, match, detections, start, *, closer=None):
    """Hold ``detections`` for a second, applying each event to ``match`` as a caller does."""
    events = hold(segmenter, detections, start, 1.0, closer=closer)
    for event in events:
        match.apply(event)
    return events


def test_the_first_play_of_a_round_opens_it_once(zones):
    match = rules.Match(ruleset="qingdao")
    segmenter = PlaySegmenter(zones, window=0.5, prior=MatchPrior(match))
    # Two plays land together before any round: one round, opened by the first of them.
    events = follow(segmenter, match, cards(*fan("66", 380, 560), *fan("55", 380, 160)), 0.0)
    assert [(e["type"], e.get("first"), e.get("seat"), e.get("cards")) for e in events] == [
        ("round", 4, None, None), ("play", None, 4, "55"), ("play", None, 5, "66")]
    assert events[0]["source"] == "inferred" and [e["seq"] for e in events] == [1, 2, 3]
    assert match.to_json()["round"] == 1


def test_the_answers_of_a_lead_read_with_a_card_too_many_correct_it(zones):
    segmenter, match = refereed(zones)
    lead = [*fan("555", 600, 560), ("5", 642, 560, 0.25)]       # the 4th: a strip read twice
    events = follow(segmenter, match, cards(*lead), 0.0)
    assert plays(events) == [(0, "5555")] and events[0]["review"]
    answer = fan("666", 860, 480)
    events = follow(segmenter, match, cards(*lead, *answer), 1.0)
    correction, play = events
    assert correction["fixes"] == 1 and (correction["seat"], correction["cards"]) == (0, "555")
    assert correction["review"] and correction["t"] == 0.5
    assert correction["reason"] == ("revised when seat 1 played 666: set aside unsure 5 "
                                    "(conf 0.250)")
    # Taken only because the lead was corrected: held too, so that both are looked at.
    assert (play["seat"], play["cards"], play["review"]) == (1, "666", True)
    assert play["reason"] == ("rules: 666 does not beat 5555: 3 cards against 4; taken with "
                              "seat 0's play 1 corrected to 555")
    assert [play["seq"] for play in events] == [2, 3]
    assert [p["cards"] for p in match.to_json()["trick"]["plays"]] == ["555", "666"]
    assert match.errors == [] and match.to_json()["counts"]["0"] == 33


def test_a_faint_card_of_the_lead_read_anew_with_the_answer_is_the_leads(zones):
    # Seat 0 leads 6666, its last 6 found only faintly (0.15): 666, held. The 8888 answering it
    # lands by that 6, read at 0.25 now, its last 8 read at 0.45: 88886, which the rules
    # refuse. The 6 lies where the lead's faint card lay: it is that card read anew, not a
    # card of the answer, and the lead takes it in. Set aside with the 8 instead, it made the
    # answer 888, which beats 666 as read, more cheaply than the lead's faint 6 and the
    # answer's own 6 set aside together.
    segmenter, match = refereed(zones)
    lead = [*fan("666", 650, 480), ("6", 692, 480, 0.15)]
    events = follow(segmenter, match, cards(*lead), 0.0)
    assert plays(events) == [(0, "666")] and events[0]["review"]
    lead[-1] = ("6", 692, 480, 0.25)
    answer = [*fan("888", 730, 480), ("8", 772, 480, 0.45)]
    events = follow(segmenter, match, cards(*lead, *answer), 1.0)
    assert [(e["seat"], e["cards"], e.get("fixes")) for e in events] == [(0, "6666", 1),
                                                                          (1, "8888", None)]
    assert events[0]["reason"] == "revised when seat 1 played 8888: took in faint 6 (conf 0.150)"
    assert match.errors == [] and match.to_json()["counts"]["1"] == 32


@pytest.mark.parametrize(("views", "lead", "reason"), [
    ((fan("8", 600, 560),), "8",
     "read 9 (conf 0.770) as 8 (conf 0.900), as its zone read closer does"),
    ((fan("9", 600, 560), [("8", 600, 560, 0.39)]), "8",
     "read 9 (conf 0.770) as 8 (conf 0.390), as its zone read closer does"),
    ((fan("9", 600, 560), fan("9", 600, 560)), "9", None),
    ((fan("8", 700, 560),), "9", None),
], ids=["the-first-view", "the-second-view", "no-view-reads-it-otherwise", "not-on-the-card"])
def test_a_refused_answer_has_the_play_it_answers_read_closer(zones, views, lead, reason):
    # An 8 led, read surely as a 9 (0.77, a ten its second choice): nothing to weigh until the
    # answer, a 9 the rules refuse; the lead's zone read closer tells what it is.
    segmenter, match = refereed(zones)
    led = second_choices(cards(("9", 600, 560, 0.77)), ["T"], [0.07])
    assert plays(follow(segmenter, match, led, 0.0)) == [(0, "9")]
    closer = CloserLook(zones, *views)
    events = hold(segmenter, Detections.merge([led, second_choices(cards(("9", 860, 480)), ["8"],
                                                                   [0.01])]), 1.0, 1.0,
                  closer=closer)
    assert 0 in closer.asked and closer.read_of[0] == len(views)   # until one view tells
    if reason is None:
        assert plays(events) == [(1, "9")]
        assert events[0]["reason"] == "rules: 9 does not beat 9"
        return
    correction, answer = events
    assert correction["fixes"] == 1 and (correction["seat"], correction["cards"]) == (0, lead)
    assert correction["reason"] == f"revised when seat 1 played 9: {reason}"
    assert (answer["seat"], answer["cards"], answer["review"]) == (1, "9", True)
    assert answer["reason"] == ("rules: 9 does not beat 9; taken with seat 0's play 1 corrected "
                                "to 8")


@pytest.mark.parametrize(("views", "answer", "reason"), [
    ((fan("666", 860, 480), fan("666", 860, 480)), "666",
     "; took in 6 (conf 0.900), counted when its zone was read closer"),
    ((fan("666", 860, 480), fan("66", 860, 480)), "66", ""),
    ((fan("6666", 860, 480), fan("6666", 860, 480)), "66", ""),
], ids=["every-view-counts-it", "one-view-does-not", "the-rules-refuse-what-they-count"])
def test_a_refused_answer_short_of_a_card_takes_in_what_its_zone_read_closer_counts(
        zones, views, answer, reason):
    # 666 answers 555, the turned fan's strips overlapping so that the detector found two and
    # no faint third: its zone read closer tells, if every view counts the third six.
    segmenter, match = refereed(zones)
    lead = fan("555", 600, 560)
    follow(segmenter, match, cards(*lead), 0.0)
    seen = cards(*lead, *fan("66", 860, 480))
    closer = CloserLook(zones, *views)
    events = hold(segmenter, seen, 1.0, 1.0, closer=closer)
    assert closer.asked[0] == 1
    *lead_held, answered = events
    assert plays([answered]) == [(1, answer)] and answered["review"]
    assert answered["reason"] == "rules: 66 does not beat 555: 2 cards against 3" + reason
    # Still refused for its count, the answer casts doubt on the lead's: held as it stands.
    assert [(e["fixes"], e["cards"], e["review"], e["reason"]) for e in lead_held] == (
        [] if answer == "666" else
        [(1, "555", True, "seat 1 answered it with 2 cards, refused: either count may be off")])
    # The card taken in is the play's: no new card later.
    assert hold(segmenter, seen, 2.0, 1.0, closer=closer) == []


def test_a_refused_answer_casts_doubt_on_each_play_of_the_trick_read_with_the_count_it_lacks(
        zones):
    # 55 led, read 5 (no trace of the second five), then 66 answering it read 6: each count was
    # read against the play before it, so both went in unheld. 77 from the next seat, refused
    # for its count, holds both as they stand, the lead first.
    segmenter, match = refereed(zones)
    lead, answer = [("5", 600, 560)], [("6", 860, 480)]
    assert plays(follow(segmenter, match, cards(*lead), 0.0)) == [(0, "5")]
    assert plays(follow(segmenter, match, cards(*lead, *answer), 1.0)) == [(1, "6")]
    events = hold(segmenter, cards(*lead, *answer, *fan("77", 860, 220)), 2.0, 1.0)
    assert [(e["seat"], e["cards"], e["review"], e.get("fixes"), e["reason"]) for e in events] == [
        (0, "5", True, 1, ("seat 2 answered seat 1's play of this trick with 2 cards, refused: "
                           "either count may be off")),
        (1, "6", True, 2, "seat 2 answered it with 2 cards, refused: either count may be off"),
        (2, "77", True, None, "rules: 77 does not beat 6: 2 cards against 1")]


@pytest.mark.parametrize(("short", "faint_fives", "faint_sixes"), [
    (1, "5 (conf 0.150)", "6 (conf 0.120)"),
    (2, "5 (conf 0.150); took in faint 5 (conf 0.150)",
     "6 (conf 0.120); took in faint 6 (conf 0.120)"),
], ids=["a-card-short", "two-cards-short"])
def test_a_trick_read_short_throughout_is_mended_when_an_answer_the_rules_refuse_shows_it(
        zones, short, faint_fives, faint_sixes):
    # 55 led, read 5 beside a faint 5, then 66 answering it read 6 beside a faint 6 (or 555
    # and 666, each read with one card, two faint beside it): each count was read against the
    # play before it. The next seat's answer, refused for its count, is taken once both take
    # in their faint cards; neither mended alone would do.
    segmenter, match = refereed(zones)
    lead = [("5", 600, 560), *(("5", 600 + 14 * k, 560, 0.15) for k in range(1, short + 1))]
    answer = [("6", 860, 480), *(("6", 860 + 14 * k, 480, 0.12) for k in range(1, short + 1))]
    sevens = "7" * (short + 1)
    assert plays(follow(segmenter, match, cards(*lead), 0.0)) == [(0, "5")]
    assert plays(follow(segmenter, match, cards(*lead, *answer), 1.0)) == [(1, "6")]
    events = follow(segmenter, match, cards(*lead, *answer, *fan(sevens, 860, 220)), 2.0)
    fives, sixes = "5" * (short + 1), "6" * (short + 1)
    assert [(e["seat"], e["cards"], e.get("fixes"), e["reason"]) for e in events] == [
        (0, fives, 1, f"revised when seat 2 played {sevens}: took in faint {faint_fives}"),
        (1, sixes, 2, f"revised when seat 2 played {sevens}: took in faint {faint_sixes}"),
        (2, sevens, None, (f"rules: {sevens} does not beat 6: {short + 1} cards against 1; "
                           f"taken with seat 0's play 1 corrected to {fives}, seat 1's play 2 "
                           f"corrected to {sixes}"))]
    assert match.errors == [] and [match.to_json()["counts"][s] for s in "012"] == [35 - short] * 3


def answered_with_closer_views(zones, led, answer, views):
    """``led`` laid by seat 0 at 0 s under the full rules, then ``answer`` beside it at 1 s
    with the zones read closer from ``views``: the answer's events, the closer look and the
    trick's plays as the rules hold them."""
    segmenter, match = refereed(zones)
    follow(segmenter, match, cards(*led), 0.0)
    closer = CloserLook(zones, *views)
    events = follow(segmenter, match, cards(*led, *answer), 1.0, closer=closer)
    return events, closer, [p["cards"] for p in match.to_json()["trick"]["plays"]]


@pytest.mark.parametrize(("views", "lead", "answer"), [
    ((fan("666", 860, 480), fan("666", 860, 480)), "555", "666"),
    ((fan("666", 860, 480), fan("66", 860, 480)), "55", "66"),
], ids=["every-view-counts-it", "one-view-does-not"])
def test_a_faint_card_the_closer_views_count_mends_the_refused_play_not_another(
        zones, views, lead, answer):
    # 555 led, its third five unsure; 66 answers with a faint third six. Setting the unsure
    # five aside is the cheaper guess, unless the answer's zone read closer counts the six.
    events, closer, trick = answered_with_closer_views(
        zones, [*fan("55", 600, 560), ("5", 628, 560, 0.25)],
        [*fan("66", 860, 480), ("6", 888, 480, 0.15)], views)
    assert closer.asked[0] == 1
    assert trick == [lead, answer]
    if answer == "666":
        assert events[0]["reason"].endswith("rules: 66 does not beat 555: 2 cards against 3; "
                                            "took in faint 6 (conf 0.150), counted when its "
                                            "zone was read closer")


@pytest.mark.parametrize(("fourth", "lead"), [(0.55, "555"), (0.7, "5555")])
def test_an_answer_corrects_a_lead_read_fairly_surely_with_a_card_too_many(zones, fourth, lead):
    # A fourth five read at 0.55 does not hold the lead (review_conf 0.4), yet three cards
    # answering it outweigh it (below mend_conf 0.6); one read at 0.7 stands, and the answer
    # is only flagged.
    segmenter, match = refereed(zones)
    laid = [*fan("555", 600, 560), ("5", 642, 560, fourth)]
    events = follow(segmenter, match, cards(*laid), 0.0)
    assert plays(events) == [(0, "5555")] and not events[0]["review"]
    events = follow(segmenter, match, cards(*laid, *fan("666", 860, 480)), 1.0)
    assert plays(events)[-1] == (1, "666") and events[-1]["review"]
    assert match.to_json()["trick"]["plays"][0]["cards"] == lead


@pytest.mark.parametrize(("views", "lead", "answer"), [
    ((fan("6666", 860, 480), fan("6666", 860, 480)), "5555", "6666"),
    ((fan("6666", 860, 480), fan("666", 860, 480)), "555", "666"),
], ids=["most-views-count-it", "no-majority"])
def test_a_refused_answer_its_zone_read_closer_completes_leaves_the_lead_as_read(
        zones, views, lead, answer):
    # 5555 led, its fourth five read fairly surely (0.55: an answer of three mends it, as
    # above); 6666 answers, a tight fan read 666. Its own zone read closer is evidence, weighed
    # before any other play's reading: when most views count the fourth six, the answer takes
    # it in and the lead stands.
    events, closer, trick = answered_with_closer_views(
        zones, [*fan("555", 600, 560), ("5", 642, 560, 0.55)], fan("666", 860, 480), views)
    assert closer.asked[0] == 1
    assert plays(events)[-1] == (1, answer) and events[-1]["review"]
    assert trick == [lead, answer]
    if lead == "5555":
        assert events[-1]["reason"] == ("rules: 666 does not beat 5555: 3 cards against 4; "
                                        "took in 6 (conf 0.900), counted when its zone was "
                                        "read closer")


@pytest.mark.parametrize(("views", "lead", "answer"), [
    ((fan("7777", 600, 560), fan("7777", 600, 560)), "7777", "JJJJ"),
    ((fan("7777", 600, 560), [*fan("7777", 600, 560), ("7", 656, 560, 0.5)]), "77777", "JJJJJ"),
], ids=["most-views-count-four", "no-majority"])
def test_the_answered_lead_read_closer_to_a_card_fewer_is_mended_not_the_answer(
        zones, views, lead, answer):
    # 7777 led, read 77777 with a box on no card at 0.36; JJJJ answers with a faint J beside
    # it. Taking that J in is the cheaper guess, unless the lead's zone read closer counts
    # four 7s: then the lead is mended on that evidence and the answer stands as read.
    events, _, trick = answered_with_closer_views(
        zones, [*fan("7777", 600, 560), ("7", 656, 560, 0.36)],
        [*fan("JJJJ", 860, 480), ("J", 916, 480, 0.15)],
        [[*view, *fan("JJJJ", 860, 480)] for view in views])
    assert trick == [lead, answer]
    if lead == "7777":
        correction, play = events
        assert correction["fixes"] == 1 and correction["reason"] == (
            "revised when seat 1 played JJJJ: set aside unsure 7 (conf 0.360), counted when its "
            "zone was read closer")
        assert play["reason"] == ("rules: JJJJ does not beat 77777: 4 cards against 5; taken "
                                  "with seat 0's play 1 corrected to 7777")


@pytest.mark.parametrize(("answer_views", "lead", "answer"), [
    ((fan("4444", 860, 480), fan("4444", 860, 480)), "3333", "4444"),
    ((fan("4444", 860, 480), fan("444", 860, 480)), "33333", "44444"),
], ids=["both-zones-counted", "no-majority-for-the-answer"])
def test_a_refused_answer_and_the_lead_it_answers_are_mended_on_both_zones_counts(
        zones, answer_views, lead, answer):
    # 3333 led, read 33333 with a box on no card at 0.26; 4444 answers, read 444 with two
    # faint 4s beside it. Neither count the closer views give makes a play the rules take
    # alone (444 against 3333, 4444 against 33333); both together do, and are taken before
    # the cheaper guess of both faint 4s.
    events, _, trick = answered_with_closer_views(
        zones, [*fan("3333", 600, 560), ("3", 656, 560, 0.26)],
        [*fan("444", 860, 480), ("4", 902, 480, 0.15), ("4", 916, 480, 0.12)],
        [[*fan("3333", 600, 560), *view] for view in answer_views])
    assert trick == [lead, answer]
    if lead == "3333":
        correction, play = events
        assert correction["fixes"] == 1 and correction["reason"] == (
            "revised when seat 1 played 444: set aside unsure 3 (conf 0.260), counted when its "
            "zone was read closer")
        assert play["cards"] == "4444" and play["reason"] == (
            "unsure card (conf 0.15); rules: 444 does not beat 33333: 3 cards against 5; taken "
            "with seat 0's play 1 corrected to 3333; took in 4 (conf 0.150), counted when its "
            "zone was read closer")


def test_the_answered_lead_read_closer_to_a_card_more_takes_it_in(zones):
    # 6666 led, a tight fan read 666 (the fourth six not found at all); AAAA answers. The
    # lead's zone read closer counts the fourth six: the lead takes it in, the answer stands.
    events, _, trick = answered_with_closer_views(
        zones, fan("666", 600, 560), fan("AAAA", 860, 480),
        [[*fan("6666", 600, 560), *fan("AAAA", 860, 480)]] * 3)
    assert trick == ["6666", "AAAA"]
    assert events[0]["reason"] == ("revised when seat 1 played AAAA: took in 6 (conf 0.900), "
                                   "counted when its zone was read closer")


@pytest.mark.parametrize(("views", "answer"), [
    ((fan("BJ SJ 9 9", 860, 480), fan("BJ SJ 9 9", 860, 480)), "BJ SJ 99"),
    ((fan("BJ SJ 9 9", 860, 480), fan("SJ SJ 9 9", 860, 480)), "SJ SJ 99"),
], ids=["most-views-read-the-big-joker", "no-majority"])
def test_a_refused_answer_takes_the_count_of_each_rank_its_zone_read_closer_gives(
        zones, views, answer):
    # BJ SJ 99 answers SJ 777, its big joker read as a small one at 0.3 (the big one its
    # second choice at only 0.01): SJ SJ 99 does not beat the lead. Most closer views of its
    # zone counting one joker of each kind mend it; the lead stands, read surely.
    lead = fan("SJ 7 7 7", 600, 560)
    segmenter, match = refereed(zones)
    follow(segmenter, match, second_choices(cards(*lead), ["2", "8", "8", "8"], [0.01] * 4), 0.0)
    closer = CloserLook(zones, *views, second_choice="2")
    seen = second_choices(cards(*lead, ("SJ", 860, 480, 0.3), *fan("SJ 9 9", 874, 480)),
                          ["2", "8", "8", "8", "BJ", "2", "8", "8"], [0.01] * 8)
    events = follow(segmenter, match, seen, 1.0, closer=closer)
    assert plays(events) == [(1, answer)] and events[0]["review"]
    if answer == "BJ SJ 99":
        assert events[0]["reason"] == (
            "rules: SJ SJ 99 does not beat SJ 777; set aside unsure SJ (conf 0.300) and took in "
            "BJ (conf 0.900), counted when its zone was read closer")
        assert [p["cards"] for p in match.to_json()["trick"]["plays"]] == ["SJ 777", answer]


@pytest.mark.parametrize(("fourth", "views", "answer"), [
    (0.55, (fan("JJJ", 860, 480), fan("JJJ", 860, 480)), "JJJ"),
    (0.55, (fan("JJJJ", 860, 480), fan("JJJJ", 860, 480)), "JJJJ"),
    (0.65, (fan("JJJ", 860, 480), fan("JJJ", 860, 480)), "JJJJ"),
], ids=["most-views-count-three", "most-views-count-four", "read-surely"])
def test_a_refused_answer_sets_aside_a_fairly_sure_card_most_closer_views_do_not_count(
        zones, fourth, views, answer):
    # 999 led; JJJ answers it, a second box of one strip read as a fourth J at `fourth`:
    # JJJJ is refused, 4 cards against 3. A card read below mend_conf (0.6), though above
    # repair_conf (0.5), is set aside when most views of the zone count three jacks.
    events, closer, trick = answered_with_closer_views(
        zones, fan("999", 600, 560), [*fan("JJJ", 860, 480), ("J", 902, 480, fourth)], views)
    assert closer.read_of[1]   # the answer's own zone read closer
    assert plays(events)[-1] == (1, answer) and events[-1]["review"]
    assert trick == (["999", "JJJ"] if answer == "JJJ" else ["999"])
    if answer == "JJJ":
        assert events[-1]["reason"] == (
            f"rules: JJJJ does not beat 999: 4 cards against 3; set aside unsure J (conf "
            f"{fourth:.3f}), counted when its zone was read closer")


def test_a_play_its_closer_views_mended_is_weighed_as_they_count_it_in_later_tricks(zones):
    # 555 led; JJJ answers, read JJJJ with a fourth J at 0.55, refused, and set aside as its
    # zone's closer views count three (evidence). The trick is gathered; seat 1 leads 8888,
    # read 88888 with a fifth 8 at 0.21; 9999 answers with a faint 9 beside it, refused. The
    # lead's zone read closer counts four 8s: the lead is mended on that, with the trick before
    # replayed as its views counted it (as read, JJJJ would not beat 555, and the cheaper guess
    # of the faint 9 would be taken).
    segmenter, match = refereed(zones)
    lead = fan("555", 600, 560)
    follow(segmenter, match, cards(*lead), 0.0)
    answer = [*fan("JJJ", 860, 480), ("J", 902, 480, 0.55)]
    events = follow(segmenter, match, cards(*lead, *answer), 1.0,
                    closer=CloserLook(zones, [*lead, *fan("JJJ", 860, 480)],
                                      [*lead, *fan("JJJ", 860, 480)]))
    assert plays(events) == [(1, "JJJ")] and events[0]["reason"].endswith(
        "counted when its zone was read closer")
    follow(segmenter, match, cards(), 2.0)                                  # gathered
    eights = [*fan("8888", 860, 480), ("8", 916, 480, 0.21)]
    assert plays(follow(segmenter, match, cards(*eights), 3.0)) == [(1, "88888")]
    nines = [*fan("9999", 860, 220), ("9", 916, 220, 0.15)]
    views = [*fan("8888", 860, 480), *fan("9999", 860, 220)]
    events = follow(segmenter, match, cards(*eights, *nines), 4.0,
                    closer=CloserLook(zones, views, views))
    assert [(e["seat"], e["cards"], e.get("fixes")) for e in events] == [
        (1, "8888", 4), (2, "9999", None)]
    assert events[0]["reason"] == ("revised when seat 2 played 9999: set aside unsure 8 (conf "
                                   "0.210), counted when its zone was read closer")
    assert [p["cards"] for p in match.to_json()["trick"]["plays"]] == ["8888", "9999"]


@pytest.mark.parametrize(("views", "lead"), [
    ((fan("44444", 600, 560), fan("44444", 600, 560)), "44444"),
    ((fan("44444", 600, 560), fan("4444", 600, 560), fan("4444", 600, 560)), "4444"),
    ((fan("444", 600, 560), fan("444", 600, 560)), "4444"),
], ids=["most-views-count-five", "no-majority", "most-views-count-three"])
def test_a_play_the_rules_take_with_a_fairly_unsure_card_takes_in_what_its_zone_counts(
        zones, views, lead):
    # 44444 led as a tight fan, read 4444 with a 4 at 0.45: a play the rules take, and 0.45
    # holds nothing. The zone is read closer for that card (below recount_conf 0.7): when most
    # views count a fifth 4, it is taken in and the lead held for the operator to see why.
    # Views counting fewer set nothing aside: a strip no view finds is as likely.
    segmenter, match = refereed(zones)
    closer = CloserLook(zones, *views)
    events = follow(segmenter, match, cards(*fan("444", 600, 560), ("4", 642, 560, 0.45)), 0.0,
                    closer=closer)
    assert closer.asked == [0]
    assert plays(events) == [(0, lead)]
    assert events[0]["review"] is (lead == "44444")
    if lead == "44444":
        assert events[0]["reason"] == "took in 4 (conf 0.900), counted when its zone was read closer"
    assert match.to_json()["trick"]["plays"][0]["cards"] == lead


@pytest.mark.parametrize(("surest", "lead"), [(0.695, "33333"), (0.7, "3333")])
def test_a_lead_read_fairly_surely_is_recounted_closer_below_recount_conf(zones, surest, lead):
    # A seat's last five 3s led as a tight fan, read 3333, the least sure at 0.695, the fifth
    # found by no box: the rules take a lead of any count, and nothing later shows the miss.
    segmenter, match = refereed(zones)
    closer = CloserLook(zones, *[fan("33333", 600, 560)] * 2)
    events = follow(segmenter, match, cards(*fan("333", 600, 560), ("3", 642, 560, surest)),
                    0.0, closer=closer)
    assert plays(events) == [(0, lead)] and closer.asked == [0] * (lead == "33333")
    assert events[0]["review"] is (lead == "33333")


def test_an_answer_to_a_lead_whose_count_closer_views_made_is_held_for_review(zones):
    # 44444 led as a tight fan, read 4444 and a 4 at 0.45: the lead's zone read closer counts
    # five, and the lead takes the fifth in. That count was hard to read: 66666 answering it,
    # read surely, would go unremarked missing a six as the lead nearly did, so it is held as
    # well. The play after is not.
    segmenter, match = refereed(zones)
    closer = CloserLook(zones, fan("44444", 600, 560), fan("44444", 600, 560))
    lead = [*fan("444", 600, 560), ("4", 642, 560, 0.45)]
    answer, after = fan("66666", 860, 480), fan("88888", 860, 240)
    events = [follow(segmenter, match, cards(*picture), start, closer=closer)
              for start, picture in enumerate([lead, lead + answer, lead + answer + after])]
    assert [plays(e) for e in events] == [[(0, "44444")], [(1, "66666")], [(2, "88888")]]
    assert events[1][0]["review"] and events[1][0]["reason"] == (
        "answers seat 0's 5 cards, a count in doubt")
    assert events[2][0]["review"] is False


@pytest.mark.parametrize(("last_six", "answer_seen_closer", "held"), [
    (0.9, fan("66666", 860, 480), False),
    (0.9, fan("666666", 860, 480), True),
    (0.35, fan("66666", 860, 480), False),
    (0.35, [*fan("6666", 860, 480), ("6", 916, 480, 0.35)], True),
], ids=["views-count-five", "views-count-six", "unsure-six-read-surely", "unsure-six-unsure"])
def test_an_answer_its_own_zone_read_closer_bears_out_is_not_held(zones, last_six,
                                                                  answer_seen_closer, held):
    # As above, the lead's fifth 4 counted closer. The answer's own zone, read closer, counts
    # its five sixes and no more, each read surely: evidence for its count, and for the
    # lead's, that the rules take together. A view counting a sixth six, or reading its
    # unsure six no surer, leaves it in doubt, and held.
    segmenter, match = refereed(zones)
    closer = CloserLook(zones, *[fan("44444", 600, 560) + answer_seen_closer] * 2)
    lead = [*fan("444", 600, 560), ("4", 642, 560, 0.45)]
    answer = [*fan("6666", 860, 480), ("6", 916, 480, last_six)]
    events = [follow(segmenter, match, cards(*picture), start, closer=closer)
              for start, picture in enumerate([lead, lead + answer])]
    assert [plays(e) for e in events] == [[(0, "44444")], [(1, "66666")]]
    assert closer.asked == [0, 1]
    assert events[1][0]["review"] is held
    assert events[1][0].get("reason") == ("answers seat 0's 5 cards, a count in doubt" if held
                                          else None)


def test_a_card_laid_late_and_seen_with_the_answer_joins_its_play(zones):
    # 888 was committed as 88, its last 8 not yet seen; that 8 shows with the KKK answering
    # it. It is no play of its own (seat 0 is not to act): the lead is corrected to 888 and
    # the answer taken, both held.
    segmenter, match = refereed(zones)
    lead = fan("888", 600, 560)
    assert plays(follow(segmenter, match, cards(*lead[:2]), 0.0)) == [(0, "88")]
    events = follow(segmenter, match, cards(*lead, *fan("KKK", 860, 480)), 1.0)
    assert plays(events) == [(0, "888"), (1, "KKK")]
    correction, answer = events
    assert correction["fixes"] == 1 and correction["review"]
    assert correction["reason"] == ("revised when seat 1 played KKK: took in 8 (conf 0.900), "
                                    "laid late")
    assert answer["review"] and answer["reason"].endswith(
        "taken with seat 0's play 1 corrected to 888")
    assert [p["cards"] for p in match.to_json()["trick"]["plays"]] == ["888", "KKK"]
    # The late 8 is remembered with its play: nothing new when the picture stays.
    assert follow(segmenter, match, cards(*lead, *fan("KKK", 860, 480)), 2.0) == []


def test_a_card_taken_in_faintly_is_no_new_play_when_it_shows_clearly_later(zones):
    # The lead's third 8 is found only as a second reading (faint, however sure); it shows
    # with the KKK answering, now counting: the rules take the faint one into the lead (the
    # cheaper reading), and the card seen now is that card, not a play.
    segmenter, match = refereed(zones)
    lead = fan("888", 600, 560)
    first = cards(*lead[:2], ("8", 628, 560, 0.6))
    first = first.with_data(second_reading=np.array([False, False, True]))
    assert plays(follow(segmenter, match, first, 0.0)) == [(0, "88")]
    second = cards(*lead[:2], ("8", 629, 561, 0.45), *fan("KKK", 860, 480))
    events = follow(segmenter, match, second.with_data(second_reading=np.zeros(6, bool)), 1.0)
    assert plays(events) == [(0, "888"), (1, "KKK")]
    assert "took in faint 8 (conf 0.600)" in events[0]["reason"]
    assert [p["cards"] for p in match.to_json()["trick"]["plays"]] == ["888", "KKK"]


def test_an_unsure_card_is_read_as_the_faint_card_of_another_rank_found_on_it_in_any_zone(zones):
    # Seat 1 answers 55 with 66, one 6 read as a 5 at 0.4 and, in the other view, as a 6 at
    # 0.15 (faint), that box's middle just in seat 0's zone. 56 is no play; 6 alone and 566
    # are refused too; 66 is taken.
    segmenter, match = refereed(zones)
    follow(segmenter, match, cards(*fan("55", 600, 560)), 0.0)
    answer = cards(*fan("55", 600, 560), ("6", 800, 520), ("5", 754, 540, 0.4),
                   ("6", 744, 540, 0.15))
    assert segmenter.zones.seat_of_points(np.array([[754, 540], [744, 540]])).tolist() == [1, 0]
    events = follow(segmenter, match, answer, 1.0)
    assert plays(events) == [(1, "66")]
    assert events[0]["reason"].endswith("read unsure 5 (conf 0.400) as faint 6 (conf 0.150) "
                                        "found on it")
    assert match.errors == []


def test_a_remembered_card_found_whole_and_as_a_piece_of_itself_is_no_new_card(segmenter):
    # Seat 2 led 55; its 77 lands over them. The first 5 is found twice: its whole box (moved
    # by a pixel or two) and a piece inside it. The whole box is that 5, and so is the piece.
    assert plays(hold(segmenter, cards(*fan("55", 860, 220)), 0.0, 1.0)) == [(2, "55")]
    piece = Detections(xyxy=np.array([[862, 222, 878, 246]], np.float32),
                       confidence=np.array([0.8], np.float32), class_id=np.array([class_id("5")]))
    seen = Detections.merge([cards(("5", 861, 221), *fan("77", 876, 236)), piece])
    assert plays(hold(segmenter, seen, 1.0, 1.0)) == [(2, "77")]


@pytest.mark.parametrize(("over", "read"), [
    ([612, 518, 685, 604], "8888"),     # 2.6 times the top card's area: over several cards
    ([612, 520, 672, 600], "88888"),    # 2.0 times: a card turned beneath it, say
], ids=["a-box-over-the-fan", "a-card-turned-beneath"])
def test_a_new_box_holding_a_card_of_its_rank_far_larger_than_it_is_no_card(segmenter, over,
                                                                           read):
    # 8888 laid as a fan, the detector finding each card and one box more, read 8 as surely,
    # holding the top card and the table beyond it: no fifth 8, now or in a later picture.
    box = Detections(xyxy=np.array([over], np.float32), confidence=np.array([0.9], np.float32),
                     class_id=np.array([class_id("8")]))
    seen = Detections.merge([cards(*fan("8888", 600, 560)), box])
    assert plays(hold(segmenter, seen, 0.0, 1.0)) == [(0, read)]
    assert hold(segmenter, seen, 1.0, 1.0) == []


def last_queens_to_lead(zones, queens=2, seat_2_keeps=0):
    """Seat 0 goes out, seat 2 too unless it keeps ``seat_2_keeps`` cards, seat 4 wins the
    trick with an A (gathered by 5.0 s) and holds its last ``queens`` queens: the segmenter
    and the match it keeps current."""
    match = rules.Match(ruleset="qingdao")
    match.apply({"type": "round", "first": 0,
                 "counts": [1, 36, 1 + seat_2_keeps, 36, queens + 1, 36]})
    segmenter = PlaySegmenter(zones, window=0.5, prior=MatchPrior(match))
    laid = []
    for seat, card, place in ((0, "5", (600, 560)), (2, "7", (860, 220)), (4, "A", (420, 220))):
        laid.append((card, *place))
        assert plays(follow(segmenter, match, cards(*laid), len(laid))) == [(seat, card)]
    follow(segmenter, match, cards(), 4.0)                                  # gathered
    return segmenter, match


@pytest.mark.parametrize("faint_queen", [True, False])
def test_a_last_lead_read_short_is_corrected_when_the_stream_ends(zones, faint_queen):
    # Seat 4 leads its last two queens, read as one with a faint Q beside it. A lead of one is
    # taken: nothing asks for the second queen until the video ends, when the round filmed
    # should be over, and is with QQ. Without a faint queen no reading ends the round (a clip
    # cut short): nothing changes.
    segmenter, match = last_queens_to_lead(zones)
    lead = [("Q", 420, 220), *([("Q", 434, 220, 0.15)] if faint_queen else [])]
    assert plays(follow(segmenter, match, cards(*lead), 5.0)) == [(4, "Q")]
    assert match.to_json()["counts"]["4"] == 1
    events = segmenter.finish()
    for event in events:
        match.apply(event)
    if not faint_queen:
        assert events == [] and not match.to_json()["round_over"]
        return
    assert [(e["seat"], e["cards"], e["fixes"], e["review"]) for e in events] == [
        (4, "QQ", 5, True)]
    assert events[0]["reason"] == ("revised when the stream ended with seat 4 holding 1 "
                                   "card(s): took in faint Q (conf 0.150)")
    state = match.to_json()
    assert state["round_over"] and state["finish_order"] == [0, 2, 4]


def test_a_last_lead_read_two_cards_short_is_corrected_when_the_stream_ends(zones):
    # Seat 4 leads its last three queens, a tight fan read as one queen with two faint ones
    # beside it: the seat is left holding two cards, and both faint queens end the round.
    segmenter, match = last_queens_to_lead(zones, queens=3)
    lead = [("Q", 420, 220), ("Q", 434, 220, 0.15), ("Q", 448, 220, 0.12)]
    assert plays(follow(segmenter, match, cards(*lead), 5.0)) == [(4, "Q")]
    events = segmenter.finish()
    assert [(e["seat"], e["cards"], e["fixes"]) for e in events] == [(4, "QQQ", 5)]
    assert events[0]["reason"] == (
        "revised when the stream ended with seat 4 holding 2 card(s): took in faint Q "
        "(conf 0.150); took in faint Q (conf 0.120)")
    match.apply(events[0])
    assert match.to_json()["round_over"] and match.to_json()["finish_order"] == [0, 2, 4]


def test_a_last_lead_refused_for_a_card_too_many_is_corrected_when_the_stream_ends(zones):
    # Seat 4 leads its last two queens, read as three: a box over both, read fairly surely
    # (0.55), is not set aside as the play is committed. The rules refuse a play of three
    # from a seat holding two, so it laid none of its cards; read without that box, it lays
    # the seat's last two and ends the round.
    segmenter, match = last_queens_to_lead(zones)
    lead = [("Q", 420, 220), ("Q", 427, 220, 0.55), ("Q", 434, 220)]
    events = follow(segmenter, match, cards(*lead), 5.0)
    assert plays(events) == [(4, "QQQ")]
    assert events[0]["reason"] == "rules: seat 4 has only 2 cards, not 3"
    events = segmenter.finish()
    assert [(e["seat"], e["cards"], e["fixes"]) for e in events] == [(4, "QQ", 5)]
    assert events[0]["reason"] == ("revised when the stream ended with seat 4 holding 2 "
                                   "card(s): set aside unsure Q (conf 0.550)")
    match.apply(events[0])
    assert match.to_json()["round_over"] and match.to_json()["finish_order"] == [0, 2, 4]


def test_a_lead_and_its_answer_read_a_card_short_are_corrected_together_when_the_stream_ends(
        zones):
    # Seat 4 goes out leading its last two queens, seat 2 answering with its last two kings;
    # each pair is read as one card with a faint one beside it. The rules take Q and K, and
    # neither alone read as a pair lets them take both plays: together they end the round.
    segmenter, match = last_queens_to_lead(zones, seat_2_keeps=2)
    lead = [("Q", 420, 220), ("Q", 434, 220, 0.15)]
    assert plays(follow(segmenter, match, cards(*lead), 5.0)) == [(4, "Q")]
    answer = [("K", 860, 220), ("K", 874, 220, 0.12)]
    assert plays(follow(segmenter, match, cards(*lead, *answer), 6.0)) == [(2, "K")]
    events = segmenter.finish()
    assert [(e["seat"], e["cards"], e["fixes"]) for e in events] == [(4, "QQ", 5), (2, "KK", 6)]
    assert events[1]["reason"] == (
        "revised when the stream ended with seat 2 holding 1 card(s) and seat 4 holding 1 "
        "card(s): took in faint K (conf 0.120)")
    for event in events:
        match.apply(event)
    assert match.to_json()["round_over"] and match.to_json()["finish_order"] == [0, 4, 2]


def test_a_seat_gone_out_a_card_short_is_mended_when_the_table_plays_on_without_it(zones):
    # Seat 4 leads its JJ, read as one J beside a faint J, then 66 (answered by seat 5's 99),
    # then answers seat 5's 4 with its last card, a 7, and is out: seat 5 leads next. The
    # rules, holding seat 4 to a card, refuse that lead; the J lies beyond the recent plays,
    # and only seat 4 being out explains the refusal: the J was JJ.
    match = rules.Match(ruleset="qingdao")
    match.apply({"type": "round", "first": 4, "counts": [36, 36, 36, 36, 5, 36]})
    segmenter = PlaySegmenter(zones, window=0.5, prior=MatchPrior(match))
    tricks = [[[("J", 420, 220), ("J", 434, 220, 0.15)]],
              [fan("66", 420, 220), [*fan("66", 420, 220), *fan("99", 380, 480)]],
              [[("4", 380, 480)], [("4", 380, 480), ("7", 420, 220)]]]
    t = 0.0
    for trick in tricks:
        for laid in trick:
            follow(segmenter, match, cards(*laid), t)
            t += 1.0
        assert [e["type"] for e in follow(segmenter, match, cards(), t)] == ["collect"]
        t += 1.0
    assert match.to_json()["counts"]["4"] == 1
    events = follow(segmenter, match, cards(("8", 380, 480)), t)
    assert [(e["seat"], e["cards"], e.get("fixes")) for e in events] == [(4, "JJ", 1),
                                                                          (5, "8", None)]
    assert events[0]["reason"] == "revised when seat 5 played 8: took in faint J (conf 0.150)"
    assert events[1]["reason"] == ("rules: seat 4 leads this trick; taken with seat 4's play 1 "
                                   "corrected to JJ")
    assert match.errors == [] and match.to_json()["finish_order"] == [4]


def test_a_seat_gone_out_a_card_short_with_no_card_to_mend_it_has_its_last_play_held(zones):
    # Seat 4 leads its last three cards, 555, found as two 5s and nothing beside them; the
    # trick is gathered and seat 5 leads next. The rules, holding seat 4 to a card and to
    # lead, refuse that lead, and no reading of seat 4's play holds the missing 5: it stands
    # as read, held for review with the reason, and so is the refused lead.
    match = rules.Match(ruleset="qingdao")
    match.apply({"type": "round", "first": 4, "counts": [36, 36, 36, 36, 3, 36]})
    segmenter = PlaySegmenter(zones, window=0.5, prior=MatchPrior(match))
    assert plays(follow(segmenter, match, cards(*fan("55", 420, 220)), 0.0)) == [(4, "55")]
    assert [e["type"] for e in follow(segmenter, match, cards(), 1.0)] == ["collect"]
    events = follow(segmenter, match, cards(("8", 380, 480)), 2.0)
    assert [(e["seat"], e["cards"], e.get("fixes")) for e in events] == [(4, "55", 1),
                                                                          (5, "8", None)]
    assert events[0]["review"] and events[0]["reason"] == (
        "seat 5 led while the rules hold seat 4 to lead with 1 card(s) left: this play, seat "
        "4's last, or one before it was read short")
    assert events[1]["reason"] == "rules: seat 4 leads this trick"


def test_a_live_round_left_open_is_judged_once_the_table_sees_no_play_for_a_minute(zones):
    # A live stream does not end: the round the last lead left open (seat 4's QQ read as Q,
    # a faint Q beside it) is judged once a minute has passed without a play, while the
    # table is gathered and the next deal is made, and the next play opens a new round.
    segmenter, match = last_queens_to_lead(zones)
    lead = [("Q", 420, 220), ("Q", 434, 220, 0.15)]
    assert plays(follow(segmenter, match, cards(*lead), 5.0)) == [(4, "Q")]   # at 5.5 s
    waiting = hold(segmenter, cards(*lead), 6.0, 4.0) + hold(segmenter, cards(), 10.0, 55.4)
    assert [e["type"] for e in waiting] == ["collect"]
    for event in waiting:
        match.apply(event)
    assert not match.to_json()["round_over"]
    events = hold(segmenter, cards(), 65.4, 30.0)                             # 65.5 s on
    assert [(e["seat"], e["cards"], e["fixes"], e["t"]) for e in events] == [(4, "QQ", 5, 5.5)]
    assert events[0]["reason"] == ("revised when the table saw no play for 60 s with seat 4 "
                                   "holding 1 card(s): took in faint Q (conf 0.150)")
    match.apply(events[0])
    assert match.to_json()["round_over"] and match.to_json()["finish_order"] == [0, 2, 4]
    events = follow(segmenter, match, cards(*fan("66", 600, 560)), 95.4)
    assert [(e["type"], e.get("first"), e.get("cards")) for e in events] == [
        ("round", 0, None), ("play", None, "66")]
    assert segmenter.finish() == []


def test_a_round_the_rules_hold_open_is_left_so_when_no_reading_ends_it(zones):
    # A minute without a play and no faint card to end the round: nothing is guessed.
    segmenter, match = refereed(zones)
    follow(segmenter, match, cards(*fan("55", 600, 560)), 0.0)
    assert hold(segmenter, cards(), 1.0, 120.0) == [
        {"type": "collect", "t": 1.5, "source": "vision", "conf": 1.0, "seq": 2}]


@pytest.mark.parametrize("after_a_minute", [True, False])
def test_a_round_left_open_by_an_uncorrected_play_is_not_imposed_on_the_next_deal(
        zones, after_a_minute):
    # Seat 4's last two queens are read as one, with no trace of the other: the round stays
    # open, seat 4 holding a queen. A minute later seat 4 leads KK (one K unsure) in the next
    # deal. The rules, still in the old round, refuse it (seat 4 has 1 card) and would have it
    # read as K, ending the old round on a card that was never its own. It opens a new round
    # instead (held), judged by rules of its own (AAA answering KK loses its unsure A), until
    # the old round is corrected. After only 20 s the pause may be a turn of the old round: the
    # rules are heard.
    segmenter, match = last_queens_to_lead(zones)
    follow(segmenter, match, cards(("Q", 420, 220)), 5.0)
    gap = 65.0 if after_a_minute else 20.0
    events = hold(segmenter, cards(), 6.0, gap)
    assert [e["type"] for e in events] == ["collect"]
    match.apply(events[0])
    kings = [("K", 420, 220), ("K", 434, 220, 0.25)]
    events = follow(segmenter, match, cards(*kings), 6.0 + gap)
    if not after_a_minute:
        assert plays(events) == [(4, "K")] and match.to_json()["round_over"]
        return
    assert [(e["type"], e.get("first"), e.get("cards")) for e in events] == [
        ("round", 4, None), ("play", None, "KK")]
    assert events[1]["reason"] == ("unsure card (conf 0.25); rules: round 1 is still in play, "
                                   "though the table dealt anew: this play opens a new round")
    aces = [*fan("AA", 380, 560), ("A", 408, 560, 0.3)]
    events = follow(segmenter, match, cards(*kings, *aces), 8.0 + gap)
    assert plays(events) == [(5, "AA")] and events[0]["reason"] == (
        "rules: AAA does not beat KK: 3 cards against 2; set aside unsure A (conf 0.300)")
    match.apply({"type": "play", "seat": 4, "cards": "QQ", "fixes": 5})  # the operator
    state = match.to_json()
    assert state["round"] == 2 and state["counts"]["5"] == 34
    events = follow(segmenter, match, cards(*kings, *aces, *fan("22", 600, 560)), 10.0 + gap)
    assert plays(events) == [(0, "22")] and "reason" not in events[0]


@pytest.mark.parametrize("after", [10.0, 70.0])
def test_a_play_soon_after_the_round_ended_shows_a_play_read_with_a_card_too_many(zones, after):
    # Seat 4 leads one queen of its last two, read as QQ (a second box at 0.3): for the rules
    # seat 4 went out and the round is over. Ten seconds later seat 5 answers with a king: the
    # table is still playing that round, so the lead is corrected to Q and the king answers it.
    # After 70 s the table may have dealt anew: the king opens the next round.
    segmenter, match = last_queens_to_lead(zones)
    lead = [("Q", 420, 220), ("Q", 434, 220, 0.3)]
    assert plays(follow(segmenter, match, cards(*lead), 5.0)) == [(4, "QQ")]
    assert match.to_json()["round_over"]
    events = hold(segmenter, cards(*lead), 6.0, after - 1.0)
    events += follow(segmenter, match, cards(*lead, ("K", 380, 560)), 5.0 + after)
    if after > 60:
        assert [(e["type"], e.get("cards")) for e in events] == [("round", None), ("play", "K")]
        return
    assert [(e["seat"], e["cards"], e.get("fixes")) for e in events] == [
        (4, "Q", 5), (5, "K", None)]
    assert events[0]["reason"] == ("revised when seat 5 played K 10 s after the round's last "
                                   "play: set aside unsure Q (conf 0.300)")
    assert events[1]["review"] is True and events[1]["reason"] == (
        "the round was over: taken with seat 4's play 5 corrected to Q")
    state = match.to_json()
    assert not state["round_over"] and state["counts"]["4"] == 1 and state["counts"]["5"] == 35


def test_a_long_turn_with_the_trick_still_on_the_table_is_no_new_deal(zones):
    # Seat 4 leads a queen, its last card but one, and seat 5 thinks for over a minute. The
    # round stays open (no reading ends it), and seat 5's KK (one K unsure) is refused as read:
    # with the queen still lying there, that is a turn of the round, not a new deal.
    segmenter, match = last_queens_to_lead(zones)
    queen = [("Q", 420, 220)]
    follow(segmenter, match, cards(*queen), 5.0)
    assert hold(segmenter, cards(*queen), 6.0, 65.0) == []
    kings = [("K", 380, 560), ("K", 394, 560, 0.3)]
    events = follow(segmenter, match, cards(*queen, *kings), 71.0)
    assert plays(events) == [(5, "K")] and match.to_json()["round"] == 1
    assert events[0]["reason"] == ("rules: KK does not beat Q: 2 cards against 1; "
                                   "set aside unsure K (conf 0.300)")


def test_a_play_landing_with_the_lead_it_answers_is_judged_after_it(zones):
    # After a gathered trick seat 0 leads 55 and seat 1 answers 666 (a 6 unsure) in one
    # picture: judged after the lead, the answer has a card too many, set aside.
    segmenter, match = refereed(zones)
    follow(segmenter, match, cards(*fan("44", 600, 560)), 0.0)
    follow(segmenter, match, cards(), 1.0)                                  # gathered
    events = follow(segmenter, match, cards(*fan("55", 600, 560), *fan("66", 860, 480),
                                            ("6", 888, 480, 0.3)), 2.0)
    assert plays(events) == [(0, "55"), (1, "66")]
    assert events[1]["reason"] == ("several plays landed at once; rules: 666 does not beat "
                                   "55: 3 cards against 2; set aside unsure 6 (conf 0.300)")
    assert [p["cards"] for p in match.to_json()["trick"]["plays"]] == ["55", "66"]


def test_a_lead_read_a_card_long_and_its_answer_read_a_card_short_are_mended_together(zones):
    # 555 led, an unsure strip read as a fourth five; SJ 77 answers it, its second seven faint.
    # Neither mended alone is taken (SJ 7 against 555, SJ 77 against 5555): both together are.
    segmenter, match = refereed(zones)
    lead = [*fan("555", 600, 560), ("5", 642, 560, 0.45)]
    assert plays(follow(segmenter, match, cards(*lead), 0.0)) == [(0, "5555")]
    answer = [*fan("SJ 7", 860, 480), ("7", 888, 480, 0.15)]
    correction, play = follow(segmenter, match, cards(*lead, *answer), 1.0)
    assert (correction["fixes"], correction["cards"], correction["review"]) == (1, "555", True)
    assert correction["reason"] == ("revised when seat 1 played SJ 7: set aside unsure 5 "
                                    "(conf 0.450)")
    assert (play["seat"], play["cards"], play["review"]) == (1, "SJ 77", True)
    assert play["reason"] == ("unsure card (conf 0.15); rules: SJ 7 does not beat 5555: 2 cards "
                              "against 4; taken with seat 0's play 1 corrected to 555; took in "
                              "faint 7 (conf 0.150)")
    assert [p["cards"] for p in match.to_json()["trick"]["plays"]] == ["555", "SJ 77"]
    assert match.errors == []


def test_without_revisions_the_answer_is_only_flagged(zones):
    segmenter, match = refereed(zones, max_revisions=0)
    lead = [*fan("555", 600, 560), ("5", 642, 560, 0.25)]
    follow(segmenter, match, cards(*lead), 0.0)
    events = follow(segmenter, match, cards(*lead, *fan("666", 860, 480)), 1.0)
    assert plays(events) == [(1, "666")] and "fixes" not in events[0]
    assert "3 cards against 4" in events[0]["reason"]


def test_an_answer_is_mended_itself_when_that_is_cheaper_than_changing_the_lead(zones):
    segmenter, match = refereed(zones)
    lead = [*fan("555", 600, 560), ("5", 642, 560, 0.15)]       # faint: maybe a 4th five
    follow(segmenter, match, cards(*lead), 0.0)
    answer = [*fan("666", 860, 480), ("6", 902, 480, 0.3)]      # an unsure 4th six
    events = follow(segmenter, match, cards(*lead, *answer), 1.0)
    assert plays(events) == [(1, "666")] and "fixes" not in events[0]
    assert "set aside unsure 6 (conf 0.300)" in events[0]["reason"]


def with_second_box(picture, at, *, found_twice):
    """The cards of ``picture``, card ``at`` a second reading of another (found twice from
    its own corner or not: ``data["found_twice"]``)."""
    second = np.arange(len(picture)) == at
    return cards(*picture).with_data(second_reading=second, found_twice=second & found_twice)


def flagged(found):
    """``found`` flagged as the pipeline flags boxes, none of them a second reading."""
    none = np.zeros(len(found), bool)
    return found.with_data(second_reading=none, found_twice=none)


@pytest.mark.parametrize(("found_twice", "held"), [(False, True), (True, False)])
def test_an_answer_to_a_lead_whose_count_is_in_doubt_is_held_for_review(zones, found_twice,
                                                                         held):
    # 3333 led with a faint 3 beside it; 7777 answers, read surely. The rules take both, but
    # a fifth 7 missed as the fifth 3 was would go unremarked: the answer is held too, unless
    # the faint 3 is a sure 3's second box from its own corner. The play after is not.
    segmenter, match = refereed(zones)
    lead = [*fan("3333", 600, 560), ("3", 656, 560, 0.2)]
    answer, after = fan("7777", 860, 480), fan("8888", 860, 240)
    seen = [lead, lead + answer, lead + answer + after]
    events = [follow(segmenter, match, with_second_box(picture, 4, found_twice=found_twice),
                     start) for start, picture in enumerate(seen)]
    assert plays(events[1]) == [(1, "7777")] and events[1][0]["review"] is held
    assert events[1][0].get("reason") == ("answers seat 0's 4 cards, a count in doubt" if held
                                          else None)
    assert plays(events[2]) == [(2, "8888")] and events[2][0]["review"] is False


@pytest.mark.parametrize(("found_twice", "lead", "answer"), [(True, "88", "TT"),
                                                            (False, "888", "TTT")])
def test_a_cards_second_box_is_dearer_to_take_in_than_an_unsure_card_to_set_aside(
        zones, found_twice, lead, answer):
    # 88 led, a faint 8 beside it; TT answers, read TTT with one T unsure. Either the faint 8
    # joins the lead or the unsure T leaves the answer. A faint 8 sharing the corner of a sure
    # 8 is that card's second box: the answer is mended. Any other faint 8 may be a card.
    segmenter, match = refereed(zones)
    lead_seen = [*fan("88", 600, 560), ("8", 601, 561, 0.22)]
    answer_seen = [*fan("TT", 860, 480), ("T", 888, 480, 0.38)]
    for start, seen in ((0.0, lead_seen), (1.0, lead_seen + answer_seen)):
        # the faint 8: a second reading of a sure one
        follow(segmenter, match, with_second_box(seen, 2, found_twice=found_twice), start)
    assert [p["cards"] for p in match.to_json()["trick"]["plays"]] == [lead, answer]


@pytest.mark.parametrize(("lead_seen", "lead", "answer"), [
    ([*fan("44444", 600, 560), ("A", 670, 560, 0.25), ("4", 684, 560, 0.15)], "4444444",
     "6666666"),
    ([*fan("44444", 600, 560), ("A", 670, 560, 0.25)], "44444", "66666"),
], ids=["a-faint-four-beside-it", "no-seventh-four"])
def test_an_answer_corrects_a_lead_read_two_cards_short(zones, lead_seen, lead, answer):
    # Seven 4s laid as a tight fan, read as five, an A (a strip misread) and a faint 4: the A
    # is set aside. Seven 6s answer them, two read unsurely. Setting those two aside would
    # make the answer fit the lead; the lead read with both of its strips mended is cheaper.
    # With no trace of a seventh 4, the answer is mended.
    segmenter, match = refereed(zones)
    events = follow(segmenter, match, cards(*lead_seen), 0.0)
    assert plays(events) == [(0, "44444")] and events[0]["review"]
    answer_seen = [*fan("66666", 820, 480), ("6", 890, 480, 0.3), ("6", 904, 480, 0.35)]
    events = follow(segmenter, match, cards(*lead_seen, *answer_seen), 1.0)
    assert plays(events)[-1] == (1, answer)
    if lead != "44444":
        assert events[0]["fixes"] == 1 and events[0]["reason"] == (
            "revised when seat 1 played 6666666: took in faint 4 (conf 0.150); read A (conf "
            "0.250) as 4, the rank of its surest card")
    assert [p["cards"] for p in match.to_json()["trick"]["plays"]] == [lead, answer]
    assert match.errors == []


def test_a_second_answer_corrects_the_lead_and_undoes_the_first_answers_mending(zones):
    segmenter, match = refereed(zones)
    lead = [*fan("88", 600, 560), ("8", 628, 560, 0.19)]        # the 3rd eight read faintly
    follow(segmenter, match, cards(*lead), 0.0)
    first = [*fan("99", 860, 480), ("9", 888, 480, 0.25)]
    events = follow(segmenter, match, cards(*lead, *first), 1.0)
    assert plays(events) == [(1, "99")]                         # the cheaper guess, for now
    second = fan("TTT", 860, 240)
    events = follow(segmenter, match, cards(*lead, *first, *second), 2.0)
    assert [(e["seat"], e["cards"], e.get("fixes")) for e in events] == [
        (0, "888", 1), (1, "999", 2), (2, "TTT", None)]
    assert events[0]["reason"].endswith("took in faint 8 (conf 0.190)")
    assert events[1]["reason"].endswith(": as read")
    assert [p["cards"] for p in match.to_json()["trick"]["plays"]] == ["888", "999", "TTT"]
    assert match.errors == []
    assert rules.replay(match.log).to_json()["counts"] == match.to_json()["counts"]


def test_a_seats_count_corrects_its_play_of_the_trick_before(zones):
    match = rules.Match(ruleset="qingdao")
    match.apply({"type": "round", "first": 0, "counts": [5, 36, 36, 36, 36, 36]})
    segmenter = PlaySegmenter(zones, window=0.5, prior=MatchPrior(match))
    lead = [*fan("555", 600, 560), ("5", 642, 560, 0.3)]        # truly 555: 2 cards left
    follow(segmenter, match, cards(*lead), 0.0)
    # Everybody passes; seat 0 leads again, its last two cards, laid apart from the fives.
    nines = fan("99", 700, 600)
    events = follow(segmenter, match, cards(*lead, *nines), 1.0)
    assert [(e["seat"], e["cards"], e.get("fixes")) for e in events] == [
        (0, "555", 1), (0, "99", None)]
    assert events[0]["reason"] == ("revised when seat 0 played 99: set aside unsure 5 "
                                   "(conf 0.300)")
    assert match.to_json()["finish_order"] == [0]


def test_a_gathered_trick_ends_where_it_was_seen_gathered_in_a_correction(zones):
    match = rules.Match(ruleset="qingdao")
    match.apply({"type": "round", "first": 0, "counts": [4, 36, 36, 36, 36, 36]})
    segmenter = PlaySegmenter(zones, window=0.5, prior=MatchPrior(match))
    # Seat 0 leads its last four nines, read 999 (one unsure) with a faint 9 beside them.
    lead = [*fan("99", 600, 560), ("9", 628, 560, 0.25), ("9", 642, 560, 0.15)]
    follow(segmenter, match, cards(*lead), 0.0)
    assert plays(follow(segmenter, match, cards(), 1.0)) == []          # gathered
    events = follow(segmenter, match, cards(*fan("KK", 860, 480)), 2.0)
    # 99 (the unsure 9 set aside, cheaper) would make KK an answer, but the trick was seen
    # gathered before it: only 9999, seat 0's last cards, lets seat 1 lead.
    assert [(e["seat"], e["cards"], e.get("fixes")) for e in events] == [
        (0, "9999", 1), (1, "KK", None)]
    assert match.to_json()["finish_order"] == [0] and match.errors == []


def twos_or_queens(items):
    """Detections of ``items``, each unsure 2 with a queen as its second choice."""
    unsure = [rank == "2" and len(rest) > 2 for rank, *rest in items]
    return second_choices(cards(*items), ["Q" if u else "3" for u in unsure],
                          [0.13 if u else 0.01 for u in unsure])


@pytest.mark.parametrize("max_revisions", [32, 0])
def test_a_rank_the_deck_has_no_more_of_corrects_an_earlier_trick(zones, max_revisions):
    segmenter, match = refereed(zones, max_revisions=max_revisions)
    # Trick 1: 22QQ, a queen read as a 2 (0.34; the queen its second choice); then 8 and 6 2s,
    # each trick gathered: the last six would make 17, so the first trick had a 2 too many.
    leads = [[*fan("22", 560, 560), ("2", 588, 560, 0.34), ("Q", 602, 560)],
             fan("22222222", 540, 560), fan("222222", 560, 560)]
    events = []
    for i, lead in enumerate(leads):
        events += follow(segmenter, match, twos_or_queens(lead), 2 * i)
        events += follow(segmenter, match, cards(), 2 * i + 1)
    assert plays(events)[:2] == [(0, "222Q"), (0, "22222222")]
    corrections = [e for e in events if "fixes" in e]
    play = events[-2]                                       # the last play, then its gather
    if not max_revisions:
        assert corrections == [] and match.errors
        assert "more 2 than the deck holds (16)" in play["reason"]
        return
    assert corrections == [events[-3]]
    assert (corrections[0]["cards"], corrections[0]["fixes"]) == ("22QQ", 1)
    assert corrections[0]["reason"] == ("revised when seat 0 played 222222: read unsure 2 "
                                        "(conf 0.340) as Q (conf 0.130)")
    assert (play["cards"], play["review"]) == ("222222", True)
    assert play["reason"].endswith("taken with seat 0's play 1 corrected to 22QQ")
    assert match.errors == [] and match.to_json()["counts"]["0"] == 36 - 18


def test_a_seats_last_cards_correct_its_play_of_an_earlier_trick(zones):
    match = rules.Match(ruleset="qingdao")
    match.apply({"type": "round", "first": 0, "counts": [8, 36, 36, 36, 36, 36]})
    segmenter = PlaySegmenter(zones, window=0.5, prior=MatchPrior(match))
    # Seat 0 leads 5555 read with an unsure fifth five, then 9 and T, each trick gathered:
    # its last pair is two cards more than the rules think it holds.
    leads = [[*fan("5555", 600, 560), ("5", 656, 560, 0.3)], fan("9", 600, 560),
             fan("T", 600, 560)]
    for i, lead in enumerate(leads):
        follow(segmenter, match, cards(*lead), 2 * i)
        follow(segmenter, match, cards(), 2 * i + 1)
    events = follow(segmenter, match, cards(*fan("KK", 600, 560)), 6.0)
    assert [(e["seat"], e["cards"], e.get("fixes")) for e in events] == [
        (0, "5555", 1), (0, "KK", None)]
    assert events[0]["reason"] == ("revised when seat 0 played KK: set aside unsure 5 "
                                   "(conf 0.300)")
    assert match.errors == [] and match.to_json()["finish_order"] == [0]


@pytest.mark.parametrize(("confidence", "refused", "played"), [
    (0.32, True, []), (0.9, True, [(1, "SJ")]), (0.32, False, [(1, "SJ")])])
def test_an_unsure_card_the_rules_refuse_first_seen_as_a_trick_is_gathered_is_that_trick(
        zones, confidence, refused, played):
    prior = FakePrior(objections={(1, "SJ"): "rules: more SJ than the deck holds (4)"}
                      if refused else {})
    segmenter = PlaySegmenter(zones, window=0.5, prior=prior)
    hold(segmenter, cards(*fan("555", 600, 560)), 0.0, 1.0)
    # The fives are swept away; a card of the pile shows at seat 1, read as a small joker.
    pile = cards(("SJ", 860, 480, confidence))
    events = hold(segmenter, pile, 1.0, 1.0)
    assert events[0]["type"] == "collect" and plays(events) == played
    assert plays(hold(segmenter, pile, 2.0, 1.0)) == []


@pytest.mark.parametrize("seen_faintly", [True, False])
def test_a_faint_card_beside_a_play_read_surer_later_is_no_play(zones, seen_faintly):
    prior = FakePrior(objections={(0, "9"): "rules: 9 does not beat AA: 1 cards against 2"})
    segmenter = PlaySegmenter(zones, window=0.5, prior=prior)
    faint = [("9", 660, 560, 0.15)] if seen_faintly else []
    events = hold(segmenter, cards(*fan("99", 600, 560), *faint), 0.0, 1.0)
    assert plays(events) == [(0, "99")]
    assert ("faint 9" in events[0].get("reason", "")) is seen_faintly
    # AA lands at seat 1; in that picture the faint 9 reads 0.29, enough to count.
    picture = cards(*fan("99", 600, 560), ("9", 660, 560, 0.29), *fan("AA", 860, 480))
    events = hold(segmenter, picture, 1.0, 1.0)
    assert plays(events)[0] == (1, "AA")
    # Seen there before AA landed, it is the faint card again; a 9 first seen now is a play.
    assert ((0, "9") in plays(events)) is not seen_faintly
    assert plays(hold(segmenter, picture, 2.0, 1.0)) == []


def test_a_faint_card_read_surer_as_the_answer_lands_is_judged_after_the_answer(zones):
    # Seat 0 leads 44, a faint A beside it. In the picture where seat 1 answers 66 the A reads
    # 0.21, enough to count: to rules that have not seen the answer, seat 0 leading again,
    # every other seat passing; after it, a single refused against a pair.
    segmenter, match = refereed(zones)
    events = follow(segmenter, match, cards(*fan("44", 600, 560), ("A", 642, 560, 0.15)), 0.0)
    assert plays(events) == [(0, "44")]
    picture = cards(*fan("44", 600, 560), ("A", 642, 560, 0.21), *fan("66", 860, 480))
    assert plays(follow(segmenter, match, picture, 1.0)) == [(1, "66")]
    assert match.errors == []


def test_later_corrections_start_from_the_rules_state_with_an_earlier_correction(zones):
    segmenter, match = refereed(zones)
    leads = [[*fan("22", 560, 560), ("2", 588, 560, 0.34), ("Q", 602, 560)],
             fan("22222222", 540, 560), fan("222222", 560, 560)]
    for i, lead in enumerate(leads):
        follow(segmenter, match, twos_or_queens(lead), 2 * i)
        follow(segmenter, match, cards(), 2 * i + 1)            # 22QQ corrected by the last
    # A lead read with a card too many, corrected by its answer: judged by replaying from
    # before the 222222 trick, which must count the first trick's 2s as corrected (16 in all).
    lead = [*fan("555", 600, 560), ("5", 642, 560, 0.3)]
    follow(segmenter, match, cards(*lead), 6.0)
    events = follow(segmenter, match, cards(*lead, *fan("666", 860, 480)), 7.0)
    assert [(e["seat"], e["cards"], e.get("fixes")) for e in events] == [
        (0, "555", 8), (1, "666", None)]
    assert match.errors == []


def answered_beside_a_faint_second_box(zones, led, answer, views, *, found_twice=True,
                                       shift=7):
    """``led`` laid by seat 0 at 0 s under the full rules, its last card read at 0.41, then
    ``answer`` beside it at 1 s with a faint second box (0.17) of its last card, ``shift``
    pixels to its right, from that card's own corner or not (``found_twice``), the zones
    read closer from ``views`` (``led`` sure in each): the answer's events, and the trick's
    plays as the rules hold them."""
    segmenter, match = refereed(zones)
    lead = fan(led, 600, 560)
    laid = [*lead[:-1], (*lead[-1], 0.41)]
    follow(segmenter, match, flagged(cards(*laid)), 0.0)
    last = len(laid) + len(answer)
    seen = with_second_box([*laid, *answer, (answer[-1][0], answer[-1][1] + shift, 480, 0.17)],
                           last, found_twice=found_twice)
    closer = CloserLook(zones, *[[*lead, *view] for view in views], flagged=True)
    events = follow(segmenter, match, seen, 1.0, closer=closer)
    return events, [p["cards"] for p in match.to_json()["trick"]["plays"]]


def assert_took_in_closer(events, answer, refusal, rank):
    """``events`` are seat 1's ``answer``, refused for ``refusal`` and mended by taking in a
    sure card of ``rank`` that most closer views of its zone count."""
    assert plays(events) == [(1, answer)]
    assert events[0]["reason"] == (f"rules: {refusal}; took in {rank} (conf 0.900), counted "
                                   "when its zone was read closer")


@pytest.mark.parametrize(("views", "lead", "answer"), [
    ((fan("2266", 860, 480), fan("2266", 860, 480)), "5555", "2266"),
    ((fan("2266", 860, 480), fan("266", 860, 480), fan("266", 860, 480)), "555", "266"),
], ids=["most-views-count-it", "no-majority"])
def test_a_refused_answer_is_recounted_closer_past_a_faint_card_the_views_do_not_count(
        zones, views, lead, answer):
    # 5555 led, its fourth 5 read at 0.41; 2266 answers, read 266 (a 2's strip found by no
    # box) with a faint second box of the last 6. Taking that box in makes 2666, a play the
    # rules take, but a guess the closer views do not bear out: what most of them count is
    # evidence, weighed first; without it, the guesses are weighed as before.
    events, trick = answered_beside_a_faint_second_box(zones, "5555", fan("266", 860, 480),
                                                       views)
    assert trick == [lead, answer] and events[-1]["review"]
    if answer == "2266":
        assert_took_in_closer(events, answer, "266 does not beat 5555: 3 cards against 4", "2")


@pytest.mark.parametrize(("views", "found_twice", "shift", "lead", "answer"), [
    ((fan("K K K SJ", 860, 480), fan("K K K SJ", 860, 480)), True, 7, "QQQQ", "SJ KKK"),
    ((fan("K K K SJ", 860, 480), fan("KKK", 860, 480), fan("KKK", 860, 480)), True, 7, "QQQ",
     "KKK"),
    ((fan("K K K SJ", 860, 480), fan("K K K SJ", 860, 480)), False, 7, "QQQQ", "SJ KKK"),
    ((fan("K K K SJ", 860, 480), fan("K K K SJ", 860, 480)), False, -42, "QQQQ", "KKKK"),
], ids=["most-views-count-a-joker", "no-majority", "a-faint-K-where-they-count-it",
        "a-faint-K-apart"])
def test_a_refused_answer_takes_in_a_joker_its_zone_read_closer_counts(
        zones, views, found_twice, shift, lead, answer):
    # QQQQ led, its fourth Q read at 0.41; SJ KKK answers, the joker's bare strip at the fan's
    # end found by no box at the camera's scale, only a faint second box of the last K. A 2 or
    # a joker may join a play of any rank: when most closer views of the answer's zone count
    # the joker, that is evidence, weighed before setting aside the lead's unsure Q, and before
    # the faint K those views do not count. A faint K that is no second box of a K is the
    # joker read otherwise where the views count the joker; apart from it, it may be the
    # missing card: the views' joker is then not counted, and the guesses are weighed as
    # before (taking the faint K in is here the cheapest).
    events, trick = answered_beside_a_faint_second_box(zones, "QQQQ", fan("KKK", 860, 480),
                                                       views, found_twice=found_twice,
                                                       shift=shift)
    assert trick == [lead, answer] and events[-1]["review"]
    if answer == "SJ KKK":
        assert_took_in_closer(events, answer, "KKK does not beat QQQQ: 3 cards against 4", "SJ")
