"""From detections over time to game events: seat zones, play segmentation, trick gathered.

- :mod:`tracker.table`: the table file (play area, seat zones, homography, calibrated view);
- :mod:`tracker.zones`: which seat a box belongs to, each zone seen from its player's chair;
- :mod:`tracker.plays`: :class:`PlaySegmenter`, stable pictures to ``play`` and ``collect``
  events, with :mod:`tracker.matching` (a card seen again), :mod:`tracker.gather` (a trick
  gathered), :mod:`tracker.readings` (other readings of a play's cards),
  :mod:`tracker.closer` (what a zone's closer views count) and :mod:`tracker.history` (the
  round as seen, and the readings of its plays the rules would take);
- :mod:`tracker.prior`: the rules engine as a prior for vision;
- :mod:`tracker.score`: an event log against the true one.

>>> from tracker import TableLayout, SeatZones, PlaySegmenter
>>> layout = TableLayout.default([(340, 60), (940, 60), (940, 660), (340, 660)], (1280, 720))
>>> segmenter = PlaySegmenter(SeatZones(layout), window=0.5)
"""

from tracker.gather import GatherRule
from tracker.matching import match_boxes
from tracker.plays import PlaySegmenter
from tracker.prior import MatchPrior, Prior
from tracker.readings import format_play
from tracker.score import PlayDifference, PlayScore, game_outcome, score_plays
from tracker.table import SEAT_COUNT, Point, Seat, TableLayout, TableLayoutError
from tracker.zones import SeatZones, ZoneCrop

__all__ = [
    "SEAT_COUNT",
    "GatherRule",
    "MatchPrior",
    "PlayDifference",
    "PlayScore",
    "PlaySegmenter",
    "Point",
    "Prior",
    "Seat",
    "SeatZones",
    "TableLayout",
    "TableLayoutError",
    "ZoneCrop",
    "format_play",
    "game_outcome",
    "match_boxes",
    "score_plays",
]
