"""The other readings of a play's cards that the rules may weigh, on hand-made cards."""

from __future__ import annotations

import numpy as np
import pytest

from tests.tracker.tracker_builders import cards, square_layout
from tracker.plays import PlaySegmenter
from tracker.readings import PlayReader, described, format_play, of_one_rank, read_as
from tracker.zones import SeatZones
from vision.classes import class_id
from vision.detections import Detections


def reader_with(**settings) -> PlayReader:
    """A :class:`PlayReader` with the segmenter's default settings but ``settings``."""
    return PlaySegmenter(SeatZones(square_layout()), **settings).reader


def with_second_choices(found: Detections, *choices: tuple[str, float]) -> Detections:
    """``found`` carrying a second choice ``(rank, conf)`` per card."""
    return found.with_data(
        runner_up=np.array([class_id(rank) for rank, _ in choices]),
        runner_up_confidence=np.array([conf for _, conf in choices], np.float32))


def changes(reader: PlayReader, found: Detections, nearby: Detections, **kwargs) -> list[str]:
    """Each reading as ``"cards: change"``, in the order they are tried."""
    return [f"{format_play(r.cards.class_id)}: {r.change}"
            for r in reader.readings(found, nearby, **kwargs)]


def test_unsure_cards_are_set_aside_least_sure_first_then_faint_ones_taken_in():
    found = cards(("5", 500, 500, 0.9), ("5", 514, 500, 0.3), ("5", 528, 500, 0.45))
    faint = cards(("5", 542, 500, 0.15))
    assert changes(reader_with(), found, faint, below=0.5) == [
        "55: set aside unsure 5 (conf 0.300)",
        "55: set aside unsure 5 (conf 0.450)",
        "5: set aside unsure 55 (conf 0.300, 0.450)",
        "5555: took in faint 5 (conf 0.150)",
    ]


def test_a_play_is_never_read_as_nothing_and_sure_cards_are_never_changed():
    found = cards(("K", 500, 500, 0.3))
    assert changes(reader_with(), found, Detections.empty(), below=0.5) == []
    sure = cards(("K", 500, 500, 0.9), ("K", 514, 500, 0.8))
    assert changes(reader_with(), sure, Detections.empty(), below=0.5) == []


QUEEN_AND_UNSURE_8 = with_second_choices(cards(("Q", 500, 500, 0.9), ("8", 514, 500, 0.4)),
                                         ("K", 0.05), ("6", 0.3))
FAINT_8_AND_9_ON_IT = with_second_choices(cards(("8", 528, 500, 0.2), ("9", 514, 500, 0.12)),
                                          ("3", 0.01), ("8", 0.11))


@pytest.mark.parametrize(("reader", "expected"), [
    # in the order tried: a card's second choice, set aside, taken in, read as a faint box on
    # it, a faint card's second choice, one rank
    (reader_with(), ["Q6: read unsure 8 (conf 0.400) as 6 (conf 0.300)",   # the K at 0.05: sure
                    "Q: set aside unsure 8 (conf 0.400)",
                    "Q88: took in faint 8 (conf 0.200)",
                    "Q98: took in faint 9 (conf 0.120)",
                    "Q988: took in faint 98 (conf 0.120, 0.200)",
                    "Q9: read unsure 8 (conf 0.400) as faint 9 (conf 0.120) found on it",
                    "Q88: took in faint 9 (conf 0.120) as 8 (conf 0.110)",
                    "QQ: read 8 (conf 0.400) as Q, the rank of its surest card"]),
    # no second choices, neither the card's nor the faint card's
    (reader_with(second_choice=False), ["Q: set aside unsure 8 (conf 0.400)",
                                       "Q88: took in faint 8 (conf 0.200)",
                                       "Q98: took in faint 9 (conf 0.120)",
                                       "Q988: took in faint 98 (conf 0.120, 0.200)",
                                       ("Q9: read unsure 8 (conf 0.400) as faint 9 (conf 0.120) "
                                        "found on it"),
                                       "QQ: read 8 (conf 0.400) as Q, the rank of its surest card"]),
    # nothing set aside or taken in, and so no faint card taken in as its second choice
    (reader_with(max_set_aside=0, max_take_in=0),
     ["Q6: read unsure 8 (conf 0.400) as 6 (conf 0.300)",
      "Q9: read unsure 8 (conf 0.400) as faint 9 (conf 0.120) found on it",
      "QQ: read 8 (conf 0.400) as Q, the rank of its surest card"]),
], ids=["all", "no second choice", "no set aside or take in"])
def test_the_settings_bound_what_may_change(reader, expected):
    assert changes(reader, QUEEN_AND_UNSURE_8, FAINT_8_AND_9_ON_IT, below=0.5) == expected


def test_only_cards_read_below_the_bound_change():
    assert changes(reader_with(max_take_in=0), QUEEN_AND_UNSURE_8, FAINT_8_AND_9_ON_IT,
                   below=0.3) == ["QQ: read 8 (conf 0.400) as Q, the rank of its surest card"]


def test_at_most_most_cards_change():
    found = cards(("5", 500, 500, 0.9), ("5", 514, 500, 0.3), ("5", 528, 500, 0.45))
    faint = cards(("5", 542, 500, 0.15), ("5", 556, 500, 0.12))
    assert changes(reader_with(), found, faint, below=0.5, most=1) == [
        "55: set aside unsure 5 (conf 0.300)",
        "55: set aside unsure 5 (conf 0.450)",
        "5555: took in faint 5 (conf 0.150)",
        "5555: took in faint 5 (conf 0.120)",
    ]


def test_a_mixed_play_is_read_as_the_rank_of_its_surest_card():
    found = cards(("6", 500, 500, 0.95), ("8", 514, 500, 0.64), ("6", 528, 500, 0.7))
    reading = of_one_rank(found, most=1)
    assert reading is not None and format_play(reading.cards.class_id) == "666"
    assert reading.change == "read 8 (conf 0.640) as 6, the rank of its surest card"
    assert reading.cost == pytest.approx(1.64)            # one card, read surely at 0.64
    assert of_one_rank(cards(("2", 0, 0), ("BJ", 20, 0)), most=1) is None   # no natural rank
    two_off = cards(("6", 500, 500, 0.95), ("8", 514, 500), ("9", 528, 500))
    assert of_one_rank(two_off, most=1) is None and of_one_rank(two_off, most=2) is not None


def test_reading_a_card_as_another_rank_keeps_its_first_reading_as_the_second():
    found = with_second_choices(cards(("8", 0, 0, 0.4), ("Q", 20, 0, 0.9)), ("6", 0.3), ("K", 0.05))
    read = read_as(found, [0], class_id("6"))
    assert format_play(read.class_id) == "Q6" and read.confidence[0] == pytest.approx(0.3)
    assert read.data["runner_up"][0] == class_id("8")
    assert read.data["runner_up_confidence"][0] == pytest.approx(0.4)
    assert described(read[np.array([0])]) == "6 (conf 0.300)"
