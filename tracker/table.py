"""The table as the camera sees it: play area, six seat zones, optional top-down homography.

A :class:`TableLayout` is read from and written to ``table.json``::

    {"version": 1,
     "image_size": [1280, 720],
     "play_area": [[x, y], ...],
     "seats": [{"seat": 0, "name": "东", "polygon": [[x, y], ...]}, ... six of them],
     "homography": [[h00, h01, h02], [h10, h11, h12], [h20, h21, h22]]}

All points are image pixels. Seats are numbered 0–5 in play order (counter-clockwise seen from
above, seat 0 nearest the bottom edge of the image by default). ``homography`` (optional) maps
image pixels to a top-down view of the table plane; with it the default layout is a regular
hexagon on the table, not in the oblique image.

>>> layout = TableLayout.default([(340, 60), (940, 60), (940, 660), (340, 660)], (1280, 720))
>>> [seat.index for seat in layout.seats]
[0, 1, 2, 3, 4, 5]
>>> layout.seat_at((640, 600)), layout.seat_at((900, 500)), layout.seat_at((640, 100))
(0, 1, 3)
>>> TableLayout.from_json(layout.to_json()) == layout
True
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

__all__ = ["SEAT_COUNT", "Point", "Seat", "TableLayout", "TableLayoutError", "load_view",
           "save_view", "view_path"]

SEAT_COUNT = 6
"""Seats at a 够级 table."""

Point = tuple[float, float]
"""An ``(x, y)`` position in image pixels."""


class TableLayoutError(ValueError):
    """A table file or layout is malformed; the message says which field and why."""


@dataclass(frozen=True, slots=True)
class Seat:
    """One seat's zone: where that player lays plays."""

    index: int
    """Seat number 0–5 in play order."""
    polygon: tuple[Point, ...]
    """The zone in image pixels (at least 3 points, simple polygon)."""
    name: str | None = None
    """The player's name, if the operator gave one."""

    @property
    def area(self) -> float:
        """The zone's area in image pixels."""
        return float(cv2.contourArea(np.asarray(self.polygon, np.float32)))


@dataclass(frozen=True, slots=True)
class TableLayout:
    """Geometry of one camera's view of the table."""

    image_size: tuple[int, int]
    """``(width, height)`` of the frames this layout was drawn on."""
    play_area: tuple[Point, ...]
    """The region where cards are played, image pixels."""
    seats: tuple[Seat, ...]
    """The six seat zones, ``seats[i].index == i``."""
    homography: tuple[tuple[float, float, float], ...] | None = None
    """3×3 matrix from image pixels to a top-down view of the table, or ``None`` when the camera
    looks straight down (the image is then its own top-down view)."""
    _inverse: NDArray[np.float64] | None = field(default=None, init=False, repr=False,
                                                  compare=False)

    def __post_init__(self) -> None:
        w, h = self.image_size
        if w <= 0 or h <= 0:
            raise TableLayoutError(f"image_size must be positive, got {self.image_size}")
        _check_polygon("play_area", self.play_area)
        if len(self.seats) != SEAT_COUNT:
            raise TableLayoutError(f"a table has {SEAT_COUNT} seats, got {len(self.seats)}")
        for position, seat in enumerate(self.seats):
            if seat.index != position:
                raise TableLayoutError(
                    f"seats must be listed in order 0-5; position {position} holds seat "
                    f"{seat.index}")
            _check_polygon(f"seat {seat.index} polygon", seat.polygon)
        if self.homography is not None:
            matrix = np.asarray(self.homography, np.float64)
            if matrix.shape != (3, 3) or not np.isfinite(matrix).all():
                raise TableLayoutError(f"homography must be a finite 3x3 matrix, got shape "
                                       f"{matrix.shape}")
            if abs(np.linalg.det(matrix)) < 1e-12:
                raise TableLayoutError("homography is singular (not invertible)")
            object.__setattr__(self, "_inverse", np.linalg.inv(matrix))

    # -- geometry --------------------------------------------------------------------------

    def to_top(self, points: NDArray[Any] | Sequence[Point]) -> NDArray[np.float64]:
        """Map image points ``(n, 2)`` to the top-down view (identity without a homography)."""
        pts = np.asarray(points, np.float64).reshape(-1, 2)
        if self.homography is None:
            return pts
        return _apply(np.asarray(self.homography, np.float64), pts)

    def to_image(self, points: NDArray[Any] | Sequence[Point]) -> NDArray[np.float64]:
        """Map top-down points ``(n, 2)`` back to image pixels."""
        pts = np.asarray(points, np.float64).reshape(-1, 2)
        if self._inverse is None:
            return pts
        return _apply(self._inverse, pts)

    @property
    def centre(self) -> Point:
        """The middle of the play area, image pixels (centroid taken on the table plane)."""
        top = self.to_top(self.play_area).astype(np.float32)
        moments = cv2.moments(top)
        if moments["m00"] == 0:
            cx, cy = top.mean(axis=0)
        else:
            cx, cy = moments["m10"] / moments["m00"], moments["m01"] / moments["m00"]
        x, y = self.to_image([(cx, cy)])[0]
        return float(x), float(y)

    def seat_anchor(self, seat: int) -> Point:
        """Where the player of ``seat`` sits, image pixels: the point of the zone farthest
        from the table centre, projected onto the zone's direction (used for "nearer seat")."""
        centre = self.to_top([self.centre])[0]
        zone = self.to_top(self.seats[seat].polygon)
        direction = self.seat_direction(seat)
        reach = float(((zone - centre) @ direction).max())
        x, y = self.to_image([centre + direction * reach])[0]
        return float(x), float(y)

    def seat_direction(self, seat: int) -> NDArray[np.float64]:
        """Unit vector on the table plane from the centre towards ``seat``'s player."""
        centre = self.to_top([self.centre])[0]
        zone = self.to_top(self.seats[seat].polygon).astype(np.float32)
        moments = cv2.moments(zone)
        mid = (np.array([moments["m10"], moments["m01"]]) / moments["m00"]
               if moments["m00"] else zone.mean(axis=0))
        vector = mid - centre
        norm = float(np.hypot(*vector))
        return vector / norm if norm else np.array([0.0, 1.0])

    def seat_at(self, point: Point) -> int:
        """The seat whose zone holds ``point``; between overlapping zones, or outside all zones,
        the seat whose player is nearest on the table plane; −1 outside the play area and all
        zones."""
        inside = [s.index for s in self.seats if _contains(s.polygon, point)]
        if len(inside) == 1:
            return inside[0]
        if not inside:
            if not _contains(self.play_area, point):
                return -1
            inside = list(range(SEAT_COUNT))
        return self.nearest_seat(point, inside)

    def nearest_seat(self, point: Point, candidates: Sequence[int] = range(SEAT_COUNT)) -> int:
        """Of ``candidates``, the seat whose player is nearest to ``point`` on the table plane."""
        top = self.to_top([point])[0]
        anchors = self.to_top([self.seat_anchor(s) for s in candidates])
        return int(list(candidates)[int(np.argmin(np.hypot(*(anchors - top).T)))])

    # -- construction ----------------------------------------------------------------------

    @classmethod
    def default(cls, play_area: Sequence[Point], image_size: tuple[int, int], *,
                homography: NDArray[Any] | Sequence[Sequence[float]] | None = None,
                names: Sequence[str | None] | None = None) -> TableLayout:
        """Six seats as the sectors of a regular hexagon centred on the play area.

        Seat 0 faces the bottom of the top-down view; seats follow counter-clockwise as seen
        from above (in an image with y down: bottom, lower right, upper right, top, upper left,
        lower left). Each zone is the play area clipped to its 60° sector.

        Args:
            play_area: corners of the play area in image pixels (a convex polygon).
            image_size: ``(width, height)`` of the frames.
            homography: image → top-down matrix for an oblique camera; the hexagon is regular on
                the table plane.
            names: optional player names, seat order.
        """
        matrix = None if homography is None else tuple(
            tuple(float(v) for v in row) for row in np.asarray(homography, np.float64))
        area = tuple((float(x), float(y)) for x, y in play_area)
        _check_polygon("play_area", area)
        bare = cls(image_size=image_size, play_area=area,
                   seats=tuple(Seat(i, area) for i in range(SEAT_COUNT)),
                   homography=matrix)  # type: ignore[arg-type]
        top_area = bare.to_top(area).astype(np.float32)
        if not cv2.isContourConvex(top_area.reshape(-1, 1, 2)):
            top_area = np.asarray(cv2.convexHull(top_area), np.float32).reshape(-1, 2)
        centre = bare.to_top([bare.centre])[0]
        radius = 2.0 * float(np.hypot(*(top_area - centre).T).max())
        seats = []
        for index in range(SEAT_COUNT):
            facing = math.radians(90.0 - 60.0 * index)  # image y points down: 90° is "down"
            corners = [centre + radius * np.array([math.cos(a), math.sin(a)])
                       for a in (facing - math.radians(30), facing + math.radians(30))]
            sector = np.array([centre, *corners], np.float32)
            _, clipped = cv2.intersectConvexConvex(_ccw(top_area), _ccw(sector))
            if clipped is None or len(clipped) < 3:
                raise TableLayoutError("play area does not surround its own centre")
            polygon = tuple((round(float(x), 2), round(float(y), 2))
                            for x, y in bare.to_image(clipped.reshape(-1, 2)))
            name = names[index] if names is not None and index < len(names) else None
            seats.append(Seat(index, polygon, name))
        return cls(image_size=image_size, play_area=area, seats=tuple(seats),
                   homography=matrix)  # type: ignore[arg-type]

    @classmethod
    def from_corners(cls, corners: Sequence[Point], image_size: tuple[int, int], *,
                     aspect: float = 1.0, names: Sequence[str | None] | None = None
                     ) -> TableLayout:
        """The default layout over a rectangular play area clicked in an oblique view.

        The operator clicks the four corners of a rectangle lying on the table (a mat, the
        table top) in order around it; they fix the homography to the top-down view, in which
        the hexagon is then regular.

        Args:
            corners: the rectangle's corners in image pixels, clockwise as seen from above;
                seat 0 sits at the edge from ``corners[2]`` to ``corners[3]`` (for a camera
                in front of seat 0: top-left, top-right, bottom-right, bottom-left).
            image_size: ``(width, height)`` of the frames.
            aspect: the rectangle's width / height.
            names: optional player names.

        >>> layout = TableLayout.from_corners([(440, 100), (840, 100), (940, 660), (340, 660)],
        ...                                   (1280, 720))
        >>> layout.seat_at((640, 620)), layout.seat_at((640, 140))
        (0, 3)
        """
        if len(corners) != 4:
            raise TableLayoutError(f"a rectangle needs 4 corners, got {len(corners)}")
        if aspect <= 0:
            raise TableLayoutError(f"aspect must be positive, got {aspect}")
        side = 1000.0
        top = np.array([(0, 0), (side * aspect, 0), (side * aspect, side), (0, side)],
                       np.float32)
        image = np.asarray(corners, np.float32)
        _check_polygon("corners", [tuple(p) for p in image.tolist()])
        homography = cv2.getPerspectiveTransform(image, top)
        return cls.default([tuple(p) for p in image.tolist()], image_size,
                           homography=homography, names=names)

    def with_names(self, names: Sequence[str | None]) -> TableLayout:
        """The same layout with player names (seat order)."""
        if len(names) != SEAT_COUNT:
            raise TableLayoutError(f"need {SEAT_COUNT} names, got {len(names)}")
        seats = tuple(Seat(s.index, s.polygon, n) for s, n in zip(self.seats, names))
        return TableLayout(self.image_size, self.play_area, seats, self.homography)

    def resized(self, image_size: tuple[int, int]) -> TableLayout:
        """The same layout on the camera's pictures filmed at ``image_size`` (each axis scaled
        on its own): the zones cover the same cloth, the top-down view is unchanged.

        >>> layout = TableLayout.default([(340, 60), (940, 60), (940, 660), (340, 660)],
        ...                              (1280, 720))
        >>> big = layout.resized((1920, 1080))
        >>> big.play_area[0], big.seat_at((960, 900))
        ((510.0, 90.0), 0)
        """
        width, height = image_size
        if width <= 0 or height <= 0:
            raise TableLayoutError(f"image_size must be positive, got {image_size}")
        return self.transformed(np.diag([width / self.image_size[0],
                                         height / self.image_size[1], 1.0]), image_size)

    def transformed(self, matrix: NDArray[Any] | Sequence[Sequence[float]],
                    image_size: tuple[int, int]) -> TableLayout:
        """The same layout on pictures of ``image_size`` whose pixels are this layout's moved
        by ``matrix`` (3×3, a scale and shift or any homography): the zones cover the same
        cloth, the top-down view is unchanged.

        >>> layout = TableLayout.default([(340, 60), (940, 60), (940, 660), (340, 660)],
        ...                              (1280, 720))
        >>> far = layout.transformed([[0.5, 0, 320], [0, 0.5, 180], [0, 0, 1]], (1280, 720))
        >>> far.play_area[0], far.seat_at((640, 500)), far.seat_at((640, 100))
        ((490.0, 210.0), 0, -1)
        """
        move = np.asarray(matrix, np.float64)
        if move.shape != (3, 3) or not np.isfinite(move).all() or abs(np.linalg.det(move)) < 1e-12:
            raise TableLayoutError(f"a layout is moved by an invertible 3x3 matrix, got {move}")

        def moved(points: tuple[Point, ...]) -> tuple[Point, ...]:
            return tuple((float(x), float(y)) for x, y in _apply(move, np.asarray(points)))

        # A point of the new pictures is one of the old ones moved: undo that before mapping.
        homography = None if self.homography is None else tuple(
            tuple(row) for row in (np.asarray(self.homography, np.float64)
                                   @ np.linalg.inv(move)).tolist())
        seats = tuple(Seat(s.index, moved(s.polygon), s.name) for s in self.seats)
        return TableLayout(image_size, moved(self.play_area), seats, homography)

    # -- JSON ------------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """The ``table.json`` document."""
        return {
            "version": 1,
            "image_size": list(self.image_size),
            "play_area": [list(p) for p in self.play_area],
            "seats": [{"seat": s.index, "name": s.name, "polygon": [list(p) for p in s.polygon]}
                      for s in self.seats],
            "homography": None if self.homography is None else [list(r) for r in self.homography],
        }

    @classmethod
    def from_json(cls, document: Any) -> TableLayout:
        """Build a layout from a parsed ``table.json``, with errors naming the bad field."""
        if not isinstance(document, dict):
            raise TableLayoutError(f"table file must hold a JSON object, got "
                                   f"{type(document).__name__}")
        version = document.get("version", 1)
        if version != 1:
            raise TableLayoutError(f"unsupported table file version {version!r} (expected 1)")
        for key in ("image_size", "play_area"):
            if key not in document:
                raise TableLayoutError(f"table file lacks {key!r}")
        size = document["image_size"]
        if (not isinstance(size, list) or len(size) != 2
                or not all(isinstance(v, int) for v in size)):
            raise TableLayoutError(f"image_size must be [width, height] integers, got {size!r}")
        play_area = _points("play_area", document["play_area"])
        seats_doc = document.get("seats")
        homography = document.get("homography")
        if homography is not None:
            if (not isinstance(homography, list) or len(homography) != 3
                    or any(not isinstance(r, list) or len(r) != 3 for r in homography)):
                raise TableLayoutError("homography must be a 3x3 list of numbers")
            homography = tuple(tuple(float(v) for v in row) for row in homography)
        if seats_doc is None:  # only a play area drawn: the default hexagon
            return cls.default(play_area, (size[0], size[1]), homography=homography)
        if not isinstance(seats_doc, list):
            raise TableLayoutError("seats must be a list of six seat objects")
        seats = []
        for position, item in enumerate(seats_doc):
            if not isinstance(item, dict) or "polygon" not in item:
                raise TableLayoutError(f"seats[{position}] must be an object with a 'polygon'")
            index = item.get("seat", position)
            name = item.get("name")
            if name is not None and not isinstance(name, str):
                raise TableLayoutError(f"seats[{position}].name must be a string or null")
            seats.append(Seat(index, _points(f"seats[{position}].polygon", item["polygon"]),
                              name))
        seats.sort(key=lambda s: s.index if isinstance(s.index, int) else -1)
        return cls((size[0], size[1]), play_area, tuple(seats), homography)

    @classmethod
    def load(cls, path: str | Path) -> TableLayout:
        """Read ``table.json``; a missing file raises FileNotFoundError, a bad one
        :class:`TableLayoutError` naming the file."""
        path = Path(path)
        if not path.is_file():
            raise FileNotFoundError(f"no such table file: {path}")
        try:
            document = json.loads(path.read_text(encoding="utf-8"))
        except json.JSONDecodeError as exc:
            raise TableLayoutError(f"{path}: not valid JSON ({exc})") from None
        except UnicodeDecodeError:
            raise TableLayoutError(f"{path}: not a table file (not UTF-8 text)") from None
        try:
            return cls.from_json(document)
        except TableLayoutError as exc:
            raise TableLayoutError(f"{path}: {exc}") from None

    def save(self, path: str | Path) -> None:
        """Write ``table.json``."""
        Path(path).write_text(json.dumps(self.to_json(), ensure_ascii=False, indent=1) + "\n",
                              encoding="utf-8")


def view_path(table: str | Path) -> Path:
    """Where the picture a table file's zones were drawn on is kept: beside it, ``table.json``
    → ``table.view.jpg``. With it, a camera moved since is found and held to that view
    (:mod:`vision.stabilize`)."""
    path = Path(table)
    return path.with_name(f"{path.stem}.view.jpg")


def save_view(table: str | Path, image: NDArray[np.uint8]) -> Path:
    """Keep ``image``, the camera's view in the table file's pixels, as the picture the zones
    of ``table`` were drawn on; returns its path."""
    path = view_path(table)
    if not cv2.imwrite(str(path), image, [cv2.IMWRITE_JPEG_QUALITY, 95]):
        raise OSError(f"cannot write {path}")
    return path


def load_view(table: str | Path, image_size: tuple[int, int]) -> NDArray[np.uint8] | None:
    """The picture the zones of ``table`` were drawn on, or ``None`` where none was kept.

    Raises:
        TableLayoutError: the file is no picture, or not of ``image_size`` (the table's).
    """
    path = view_path(table)
    if not path.is_file():
        return None
    image = cv2.imread(str(path), cv2.IMREAD_COLOR)
    if image is None:
        raise TableLayoutError(f"{path}: not a picture (the table's calibrated view)")
    height, width = image.shape[:2]
    if (width, height) != tuple(image_size):
        raise TableLayoutError(f"{path}: {width}x{height}, but the table is drawn on "
                               f"{image_size[0]}x{image_size[1]} pictures")
    return np.asarray(image, np.uint8)


def _apply(matrix: NDArray[np.float64], points: NDArray[np.float64]) -> NDArray[np.float64]:
    mapped = cv2.perspectiveTransform(points.reshape(-1, 1, 2), matrix)
    return np.asarray(mapped, np.float64).reshape(-1, 2)


def _ccw(polygon: NDArray[Any]) -> NDArray[np.float32]:
    """The polygon in a consistent winding, as ``intersectConvexConvex`` wants."""
    pts = np.asarray(polygon, np.float32).reshape(-1, 2)
    if cv2.contourArea(pts, oriented=True) < 0:
        pts = pts[::-1]
    return np.ascontiguousarray(pts)


def _contains(polygon: Sequence[Point], point: Point) -> bool:
    contour = np.asarray(polygon, np.float32).reshape(-1, 1, 2)
    return cv2.pointPolygonTest(contour, (float(point[0]), float(point[1])), False) >= 0


def _points(name: str, value: Any) -> tuple[Point, ...]:
    if not isinstance(value, list) or not all(
            isinstance(p, list) and len(p) == 2
            and all(isinstance(v, int | float) and not isinstance(v, bool) for v in p)
            for p in value):
        raise TableLayoutError(f"{name} must be a list of [x, y] number pairs")
    return tuple((float(x), float(y)) for x, y in value)


def _check_polygon(name: str, polygon: Sequence[Point]) -> None:
    if len(polygon) < 3:
        raise TableLayoutError(f"{name} needs at least 3 points, got {len(polygon)}")
    pts = np.asarray(polygon, np.float64)
    if pts.shape[1:] != (2,) or not np.isfinite(pts).all():
        raise TableLayoutError(f"{name} must hold finite [x, y] points")
    if abs(cv2.contourArea(pts.astype(np.float32))) < 1.0:
        raise TableLayoutError(f"{name} has no area (points are collinear or repeated)")
