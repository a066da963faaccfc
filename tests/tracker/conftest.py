"""Fixtures shared by the tracker tests: the square test table and its seat zones."""

from __future__ import annotations

import pytest

from tests.tracker.tracker_builders import square_layout
from tracker.zones import SeatZones


@pytest.fixture
def layout():
    return square_layout()


@pytest.fixture
def zones(layout):
    return SeatZones(layout)
