"""From detections over time to game events: seat zones, play segmentation, trick gathered.

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
