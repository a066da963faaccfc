"""The round as the segmenter saw it, and the other readings of its plays the rules would take."""

from __future__ import annotations

import numpy as np
import pytest

import rules
from tests.tracker.tracker_builders import cards, fan
from tracker.history import Mend, Replay, RoundRecord, Trick, TrickPlay
from tracker.matching import CardMatcher
from tracker.prior import MatchPrior
from tracker.readings import PlayReader, Reading, format_play
from vision.detections import Detections

READER = PlayReader(memory_iou=0.5, faint_conf=0.1, second_choice_ratio=0.05, max_set_aside=2,
                    max_take_in=2, second_choice=True)
MATCHER = CardMatcher(iou=0.5, cover=0.8, same_place=0.85)


def record(max_revisions: int = 32) -> RoundRecord:
    return RoundRecord(READER, MATCHER, repair_conf=0.5, mend_conf=0.6,
                       max_revisions=max_revisions)


def played(seq: int, seat: int, found: Detections) -> TrickPlay:
    return TrickPlay(seq, seat, float(seq), read=found, faint=Detections.empty(),
                     reading=Reading(found))


def test_a_replay_writes_the_tricks_out_once_and_varies_one_play_at_a_time():
    lead, answer = played(1, 0, cards(*fan("55", 600, 560))), played(2, 1, cards(("6", 860, 480)))
    later = played(3, 2, cards(*fan("KK", 860, 200)))
    tricks = [Trick(None, [lead, answer], gathered=True), Trick(None, [later])]
    replay = Replay(tricks)
    assert replay.items == [(0, "55"), (1, "6"), None, (2, "KK")]
    mended = Reading(cards(*fan("66", 860, 480)))
    assert replay.with_readings([(answer, mended)]) == [(0, "55"), (1, "66"), None, (2, "KK")]
    assert replay.with_readings([(later, mended)], from_trick=1) == [(2, "66")]
    assert replay.items[1] == (1, "6")   # written out once, never changed


def test_a_lead_read_a_card_long_is_read_as_its_answer_shows():
    # 555 led, its fourth card a strip read twice (0.3); the answer 666 is refused as read
    # against 5555, and taken against the lead read without that card.
    match = rules.Match(ruleset="qingdao")
    match.apply({"type": "round", "ruleset": "qingdao", "first": 0})
    prior, round_record = MatchPrior(match), record()
    lead = played(1, 0, cards(*fan("555", 600, 560), ("5", 642, 560, 0.3)))
    round_record.tricks.append(Trick(prior.checkpoint(), [lead]))
    match.apply({"type": "play", "seat": 0, "cards": "5555"})
    assert prior.objection(1, "666") is not None
    (play, reading), = round_record.revision(prior, 1, "666", later={}, than=np.inf)
    assert play is lead
    assert (format_play(reading.cards.class_id), reading.change) == (
        "555", "set aside unsure 5 (conf 0.300)")
    # An answer of four, the count read, is taken as it stands.
    assert prior.objection(1, "6666") is None


@pytest.mark.parametrize(("max_revisions", "taken", "expected"), [
    (32, {"6", "66"}, "66"),     # of the readings the rules take, the cheapest
    (32, set(), None),           # none taken
    (1, {"6", "66"}, None),      # the cheapest alone is weighed, and it is refused
])
def test_the_cheapest_reading_the_rules_take_is_found_within_max_revisions(max_revisions, taken,
                                                                           expected):
    play = played(1, 0, cards(("5", 600, 560)))
    candidates = [Mend.one(play, Reading(cards(*fan(text, 600, 560)), cost=cost))
                  for text, cost in (("666", 1.0), ("6", 3.0), ("66", 2.0))]
    found = record(max_revisions).cheapest(
        [Trick(None, [play])], Replay([Trick(None, [play])]), candidates,
        good=lambda checkpoint, items, mend: items[0] is not None and items[0][1] in taken)
    assert (format_play(found.changes[0][1].cards.class_id) if found else None) == expected


@pytest.mark.parametrize(("most", "expected"), [
    (None, ["55", "666"]),   # the single reading is cheaper, but the rules take only the pair
    (1, None),               # the cheapest alone is weighed, and it is refused
])
def test_a_mend_of_several_plays_is_weighed_by_its_total_cost(most, expected):
    lead, answer = played(1, 0, cards(("5", 600, 560))), played(2, 1, cards(*fan("66", 860, 480)))
    trick = Trick(None, [lead, answer])
    pair = Mend.together([Mend.one(answer, Reading(cards(*fan("666", 860, 480)), cost=1.5)),
                          Mend.one(lead, Reading(cards(*fan("55", 600, 560)), cost=1.0))])
    single = Mend.one(answer, Reading(cards(("6", 860, 480)), cost=2.0))
    assert ([play.seq for play, _ in pair.changes], pair.cost) == ([1, 2], 2.5)
    found = record().cheapest(
        [trick], Replay([trick]), [pair, single], most=most,
        good=lambda checkpoint, items, mend: items == [(0, "55"), (1, "666")])
    assert ([format_play(reading.cards.class_id) for _, reading in found.changes]
            if found else None) == expected
