"""A scripted legal game rendered as the overhead camera would film it, with its truth.

:func:`render_game` takes the events of a complete legal game (by default
:func:`rules.selfplay.random_match`) and films it at 1280×720: for every play a hand reaches in
from the player's side carrying the cards fanned, lays them in the player's zone, on top of and
a little further in than the player's earlier plays of the trick, and withdraws; when a trick
ends the cards are turned face down or swept away onto a face-down pile beside the play area.
It writes

- ``game.mp4`` — the video;
- ``table.json`` — the table file for :class:`tracker.table.TableLayout` (play area and the
  image → table-plane homography; the seat zones are the default regular hexagon, seat 0
  facing the bottom of the table plane, the others counter-clockwise);
- ``truth.jsonl`` — the event log ``gouji process`` should reproduce: the script's events, each
  play with the ``t`` at which its cards lie still, plus a ``collect`` when a trick is gathered;
- ``boxes.jsonl`` (optional) — the exact visible box of every readable card for each run of
  identical frames, for checking the tracker without a detector.

The seed picks everything else: table top, deck style, light, camera tilt (up to 30° off
vertical) and turn, hands, and the game itself. Only frames that change are drawn; held
frames are written again as they are, so a full game renders in a minute or two on two cores.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.detections import Detections
from vision.synth import (
    DECK_STYLES,
    SUITS,
    DeckStyle,
    Layer,
    draw_hand,
    fan_quads,
    make_table_texture,
    place_card,
    random_deck_style,
    visible_cards,
)

__all__ = ["DEAL_SECONDS", "FRAME_SIZE", "RENDER_VERSION", "RenderedGame", "TruthDetector",
           "render_game", "script_tokens", "truth_detections"]

FRAME_SIZE = (1280, 720)
"""``(width, height)`` of the rendered video."""

RENDER_VERSION = 1
"""Changes whenever a seed films differently, so caches of rendered games know they are stale
(the pause between rounds left it alone: every cached game, the demo's, is of one round)."""

DEAL_SECONDS = (70.0, 100.0)
"""Range of the seconds the table lies empty between two rounds: four decks gathered, shuffled
and dealt, and the tribute paid."""

_PLAY_SIDE = 600.0     # play area side on the table plane, in table-plane pixels
_CANVAS_SIDE = 1500    # table-top texture side, table-plane pixels (reaches past the image)
_CARD_HEIGHTS = (90.0, 112.0)  # range of card heights on the table plane, per game


@dataclass(frozen=True, slots=True)
class RenderedGame:
    """What :func:`render_game` wrote."""

    video: Path
    """``game.mp4``."""
    table: Path
    """``table.json``."""
    truth: Path
    """``truth.jsonl``."""
    frames: int
    """Frames in the video."""
    seconds: float
    """Length of the video in seconds."""
    plays: int
    """Plays filmed."""
    view: NDArray[np.uint8] = field(repr=False, compare=False)
    """The first frame, the table empty: the picture its zones were drawn on
    (:func:`tracker.table.save_view` keeps it beside the table file)."""


@dataclass(slots=True)
class _Card:
    rank: str
    suit: str | None
    quad: NDArray[np.float64]  # table-plane corners
    face_up: bool = True


@dataclass(slots=True)
class _Table:
    """What lies on the table now, in paint order."""

    cards: list[_Card] = field(default_factory=list)
    pile: list[_Card] = field(default_factory=list)  # gathered tricks, face down, off the area
    plays_in_trick: dict[int, int] = field(default_factory=dict)


def script_tokens(cards: str) -> list[str]:
    """Card tokens of a play in the notation, e.g. ``"BJ 2TT5"`` → ``['BJ', '2', 'T', 'T', '5']``.

    >>> script_tokens("BJ SJ 22TT5"), script_tokens("10 10")
    (['BJ', 'SJ', '2', '2', 'T', 'T', '5'], ['T', 'T'])
    """
    from rules import parse_cards

    return [rank.token for rank in parse_cards(cards)]


class _Camera:
    """A pinhole camera over the table: tilt up to 30° off vertical, any turn, some zoom."""

    def __init__(self, rng: np.random.Generator) -> None:
        tilt = math.radians(rng.uniform(0.0, 30.0))
        yaw = math.radians(rng.uniform(-25.0, 25.0))
        bearing = rng.uniform(0.0, 2 * math.pi)  # which way the camera leans
        distance = _PLAY_SIDE * rng.uniform(1.6, 2.4)
        c = _CANVAS_SIDE / 2
        rz = np.array([[math.cos(yaw), -math.sin(yaw), 0], [math.sin(yaw), math.cos(yaw), 0],
                       [0, 0, 1]])
        lean = np.array([math.cos(bearing), math.sin(bearing), 0.0])
        rotation = _axis_rotation(lean, tilt) @ rz
        extrinsic = np.column_stack([rotation[:, 0], rotation[:, 1], [0, 0, distance]])
        to_centre = np.array([[1, 0, -c], [0, 1, -c], [0, 0, 1]], np.float64)
        raw = extrinsic @ to_centre  # table plane -> camera rays (focal length 1)
        half = _PLAY_SIDE / 2
        corners = np.array([[c - half, c - half], [c + half, c - half],
                            [c + half, c + half], [c - half, c + half]], np.float64)
        projected = cv2.perspectiveTransform(corners[None], raw)[0]
        # Fit the play area into the frame: its height fills ~85-92% of the frame height.
        w, h = FRAME_SIZE
        span = projected.max(0) - projected.min(0)
        scale = min(h * rng.uniform(0.85, 0.92) / span[1], w * 0.9 / span[0])
        middle = (projected.max(0) + projected.min(0)) / 2
        shift = np.array([w / 2, h / 2]) + rng.uniform(-0.04, 0.04, 2) * [w, h]
        fit = np.array([[scale, 0, shift[0] - scale * middle[0]],
                        [0, scale, shift[1] - scale * middle[1]], [0, 0, 1]])
        self.to_image: NDArray[np.float64] = np.asarray(fit @ raw, np.float64)
        """Table plane → image pixels."""
        self.to_table: NDArray[np.float64] = np.asarray(np.linalg.inv(self.to_image), np.float64)
        """Image pixels → table plane."""
        self.play_area = cv2.perspectiveTransform(corners[None], self.to_image)[0]
        """Play area corners in the image."""

    def project(self, points: NDArray[np.float64]) -> NDArray[np.float64]:
        projected = cv2.perspectiveTransform(np.asarray(points, np.float64).reshape(1, -1, 2),
                                             self.to_image)[0]
        return np.asarray(projected, np.float64)


def _axis_rotation(axis: NDArray[np.float64], angle: float) -> NDArray[np.float64]:
    """Rodrigues' rotation about a unit axis."""
    x, y, z = axis / np.linalg.norm(axis)
    k = np.array([[0, -z, y], [z, 0, -x], [-y, x, 0]])
    rotation: NDArray[np.float64] = np.eye(3) + math.sin(angle) * k + (1 - math.cos(angle)) * (k @ k)
    return rotation


class _Light:
    """Fixed light of one game: white balance, brightness, a gradient and maybe a soft shadow."""

    def __init__(self, rng: np.random.Generator) -> None:
        w, h = FRAME_SIZE
        gains = rng.uniform(0.88, 1.12, 3) * rng.uniform(0.75, 1.15)
        angle = rng.uniform(0, 2 * math.pi)
        xs = (np.arange(w, dtype=np.float32) - w / 2) * math.cos(angle) / w
        ys = (np.arange(h, dtype=np.float32) - h / 2) * math.sin(angle) / w
        field_ = 1 + rng.uniform(0.0, 0.45) * (ys[:, None] + xs[None, :])
        if rng.random() < 0.4:
            blob = np.zeros((h, w), np.float32)
            centre = (int(rng.uniform(0, w)), int(rng.uniform(0, h)))
            cv2.ellipse(blob, centre, (int(rng.uniform(0.1, 0.3) * w), int(rng.uniform(0.1, 0.3) * h)),
                        rng.uniform(0, 180), 0, 360, 1.0, -1)
            field_ *= 1 - rng.uniform(0.15, 0.35) * cv2.GaussianBlur(blob, (151, 151), 0)
        self.gain = (field_[..., None] * gains[None, None, :]).astype(np.float32)
        self.blur = float(rng.choice([0.0, 0.0, 0.6, 0.9]))

    def __call__(self, image: NDArray[np.uint8]) -> NDArray[np.uint8]:
        lit = cv2.multiply(image, self.gain, dtype=cv2.CV_8U)
        if self.blur:
            lit = cv2.GaussianBlur(lit, (0, 0), self.blur)
        return np.asarray(lit, np.uint8)


class _Film:
    """Frames to the video file (and the truth boxes), counting time."""

    def __init__(self, path: Path, fps: float, boxes: Path | None) -> None:
        self.fps = fps
        self.writer = cv2.VideoWriter(str(path), cv2.VideoWriter.fourcc(*"mp4v"), fps, FRAME_SIZE)
        if not self.writer.isOpened():
            raise RuntimeError(f"cannot write video {path} (no mp4v encoder in OpenCV)")
        self.frames = 0
        self.first: NDArray[np.uint8] | None = None
        self.boxes = boxes.open("w", encoding="utf-8") if boxes is not None else None

    @property
    def t(self) -> float:
        """Time of the next frame."""
        return self.frames / self.fps

    def write(self, image: NDArray[np.uint8], repeat: int = 1,
              layers: Sequence[Layer] | None = None) -> None:
        if self.boxes is not None and layers is not None:
            seen = [c for c in visible_cards(layers, image.shape[:2]) if c.readable]
            self.boxes.write(json.dumps({
                "frame": self.frames, "count": repeat,
                "boxes": [[round(v, 1) for v in c.box] + [c.class_id] for c in seen]}) + "\n")
        if self.first is None:
            self.first = image.copy()
        for _ in range(repeat):
            self.writer.write(image)
        self.frames += repeat

    def hold(self, image: NDArray[np.uint8], seconds: float,
             layers: Sequence[Layer] | None = None) -> None:
        self.write(image, max(1, round(seconds * self.fps)), layers)

    def close(self) -> None:
        self.writer.release()
        if self.boxes is not None:
            self.boxes.close()


class _Director:
    """Stages the script: where each seat lays its plays, hands, gathering."""

    def __init__(self, rng: np.random.Generator, out: Path, fps: float, boxes: bool) -> None:
        self.rng = rng
        self.camera = _Camera(rng)
        self.light = _Light(rng)
        self.card_height = float(rng.uniform(*_CARD_HEIGHTS))
        """Card height on the table plane, in the same pixels as the 600-pixel play area."""
        self.style: DeckStyle = (DECK_STYLES[int(rng.integers(len(DECK_STYLES)))]
                                 if rng.random() < 0.5 else random_deck_style(rng))
        texture = make_table_texture(_CANVAS_SIDE, _CANVAS_SIDE, rng)
        self.background = np.asarray(cv2.warpPerspective(
            texture, self.camera.to_image, FRAME_SIZE, flags=cv2.INTER_LINEAR,
            borderMode=cv2.BORDER_REFLECT), np.uint8)
        self.table = _Table()
        self.hand_seeds = [int(s) for s in rng.integers(0, 2**31, 6)]
        self.film = _Film(out / "game.mp4", fps, out / "boxes.jsonl" if boxes else None)
        self.centre = np.array([_CANVAS_SIDE / 2, _CANVAS_SIDE / 2])
        self.pile_spot = self.centre + np.array([_PLAY_SIDE * 0.62, _PLAY_SIDE * 0.35])
        self._base: NDArray[np.uint8] | None = None
        self._base_layers: list[Layer] = []

    # -- geometry on the table plane ----------------------------------------------------

    @staticmethod
    def facing(seat: int) -> NDArray[np.float64]:
        """Unit vector from the centre towards ``seat``'s player (seat 0 down, then
        counter-clockwise seen from above, as :meth:`TableLayout.default` numbers them)."""
        angle = math.radians(90.0 - 60.0 * seat)
        return np.array([math.cos(angle), math.sin(angle)])

    def landing(self, seat: int) -> tuple[NDArray[np.float64], float]:
        """Centre and turn (degrees clockwise) of the next play of ``seat``: its pile grows
        towards the middle and a little sideways, so earlier plays stay partly in view."""
        k = self.table.plays_in_trick.get(seat, 0)
        out = self.facing(seat)
        side = np.array([-out[1], out[0]])
        depth = _PLAY_SIDE * (0.34 - 0.085 * min(k, 2))
        sideways = self.card_height * (0.45 * ((k % 3) - 1) + self.rng.uniform(-0.08, 0.08))
        centre = self.centre + out * depth + side * sideways
        # Cards upright for their player: the card's top points at the table centre.
        turn = math.degrees(math.atan2(out[0], -out[1])) + 180.0 + self.rng.uniform(-12, 12)
        return centre, turn

    def fan(self, count: int, centre: NDArray[np.float64], turn: float) -> list[NDArray[np.float64]]:
        spacing = 0.3 if count <= 6 else 0.24
        return fan_quads(count, (float(centre[0]), float(centre[1])), self.card_height, turn,
                         spacing=spacing, arc=float(self.rng.normal(0, 1.5)))

    # -- drawing ------------------------------------------------------------------------

    def _paste(self, image: NDArray[np.uint8], card: _Card) -> Layer:
        return place_card(image, card.rank, card.suit, self.style, self.camera.project(card.quad),
                          face_up=card.face_up, shadow=0.25)

    def base(self) -> tuple[NDArray[np.uint8], list[Layer]]:
        """The table with everything lying on it (unlit), redrawn only after it changed."""
        if self._base is None:
            image = self.background.copy()
            self._base_layers = [self._paste(image, card)
                                 for card in [*self.table.pile, *self.table.cards]]
            self._base = image
            return image, self._base_layers
        return self._base, self._base_layers

    def _lay(self, card: _Card) -> None:
        """Put a card down for good (drawn onto the cached table at once)."""
        self.table.cards.append(card)
        if self._base is not None:
            self._base_layers.append(self._paste(self._base, card))

    def _frame(self, carried: Sequence[_Card], hand: tuple[NDArray[np.float64], float] | None,
               seat: int) -> tuple[NDArray[np.uint8], list[Layer]]:
        image, layers = self.base()
        image, layers = image.copy(), list(layers)
        layers += [self._paste(image, card) for card in carried]
        if hand is not None:
            wrist, size = hand  # table plane; the hand reaches towards the centre
            at, tip = self.camera.project(np.stack([wrist, wrist - self.facing(seat) * size]))
            direction = math.degrees(math.atan2(tip[0] - at[0], -(tip[1] - at[1])))
            scale = float(np.hypot(*(tip - at)))
            layers.append(draw_hand(image, np.random.default_rng(self.hand_seeds[seat]),
                                    (float(at[0]), float(at[1])), direction, scale))
        return self.light(image), layers

    # -- scenes -------------------------------------------------------------------------

    def play(self, seat: int, tokens: Sequence[str]) -> float:
        """Film one play; returns the time its cards lie still."""
        rng, film = self.rng, self.film
        centre, turn = self.landing(seat)
        quads = self.fan(len(tokens), centre, turn)
        cards = [_Card(rank, None if rank in ("SJ", "BJ") else str(rng.choice(SUITS)), quad)
                 for rank, quad in zip(tokens, quads)]
        out = self.facing(seat)
        start = _PLAY_SIDE * rng.uniform(0.75, 0.95)  # the hand starts outside the play area
        steps_in = max(4, round(film.fps * rng.uniform(0.45, 0.65)))
        steps_out = max(3, round(film.fps * rng.uniform(0.3, 0.45)))
        for step in range(steps_in):
            ease = 1 - (1 - (step + 1) / steps_in) ** 2
            offset = out * (start - 0.34 * _PLAY_SIDE) * (1 - ease)
            carried = [_Card(c.rank, c.suit, c.quad + offset) for c in cards]
            grip = centre + offset + out * self.card_height * 0.55
            image, layers = self._frame(carried, (grip, self.card_height * 0.8), seat)
            film.write(image, layers=layers)
        for card in cards:
            self._lay(card)
        for step in range(steps_out):
            grip = centre + out * (self.card_height * 0.55 + (start - 0.2 * _PLAY_SIDE)
                                   * (step + 1) / steps_out)
            image, layers = self._frame([], (grip, self.card_height * 0.8), seat)
            film.write(image, layers=layers)
        still = film.t
        image, layers = self._frame([], None, seat)
        film.hold(image, rng.uniform(0.9, 1.4), layers)
        self.table.plays_in_trick[seat] = self.table.plays_in_trick.get(seat, 0) + 1
        return round(still, 3)

    def pause(self, seconds: float) -> None:
        image, layers = self._frame([], None, 0)
        self.film.hold(image, seconds, layers)

    def gather(self, winner: int) -> float:
        """Film the trick being gathered; returns the time the table is still again."""
        rng, film = self.rng, self.film
        if not self.table.cards:
            return film.t
        if rng.random() < 0.5:  # turned face down where they lie first
            for card in self.table.cards:
                card.face_up = False
            self._base = None
            image, layers = self._frame([], None, winner)
            film.hold(image, rng.uniform(0.5, 0.8), layers)
        out = self.facing(winner)
        steps = max(4, round(film.fps * 0.5))
        for step in range(steps):
            grip = self.centre + out * _PLAY_SIDE * (0.1 + 0.6 * step / steps)
            image, layers = self._frame([], (grip, self.card_height * 0.9), winner)
            film.write(image, layers=layers)
            if step == steps // 2:  # the cards leave with the hand
                # A few of them show on the pile: drawing all would cost time for nothing.
                for card in self.table.cards[-3:]:
                    jitter = rng.normal(0, 4, 2) + len(self.table.pile) * np.array([0.0, -0.6])
                    spot = self.pile_spot + jitter
                    quad = card.quad - card.quad.mean(0) + spot
                    self.table.pile.append(_Card(card.rank, card.suit, quad, face_up=False))
                self.table.cards.clear()
                self.table.plays_in_trick.clear()
                self._base = None
        still = film.t
        image, layers = self._frame([], None, winner)
        film.hold(image, rng.uniform(0.9, 1.3), layers)
        return round(still, 3)


def _table_json(camera: _Camera) -> dict[str, Any]:
    return {"version": 1, "image_size": list(FRAME_SIZE),
            "play_area": [[round(float(x), 2), round(float(y), 2)] for x, y in camera.play_area],
            "homography": [[float(v) for v in row] for row in camera.to_table]}


def _scripted_game(seed: int, ruleset: str, rounds: int) -> list[dict[str, Any]]:
    from rules.selfplay import random_match

    return list(random_match(seed, ruleset, rounds))


def render_game(seed: int, out: str | Path, *, fps: float = 25.0, ruleset: str = "qingdao",
                rounds: int = 1, events: Iterable[dict[str, Any]] | None = None,
                boxes: bool = False, max_plays: int | None = None) -> RenderedGame:
    """Film a scripted legal game.

    Args:
        seed: picks the game (when ``events`` is not given) and its look.
        out: folder to write ``game.mp4``, ``table.json``, ``truth.jsonl`` (created).
        fps: frames per second of the video (20–30 is typical of webcams).
        ruleset: ruleset of the scripted game.
        rounds: rounds of the scripted game; between two rounds the table lies empty for
            :data:`DEAL_SECONDS` (the cards gathered, shuffled and dealt).
        events: the script (event dicts); default ``rules.selfplay.random_match(seed, ruleset,
            rounds)``.
        boxes: also write ``boxes.jsonl`` with the exact visible card boxes.
        max_plays: film only the first this many plays (a short clip; the truth stops there).
    """
    import rules

    script = list(events) if events is not None else _scripted_game(seed, ruleset, rounds)
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng([seed, 7])
    director = _Director(rng, out, fps, boxes)
    (out / "table.json").write_text(json.dumps(_table_json(director.camera), indent=1) + "\n",
                                    encoding="utf-8")
    match = rules.Match(ruleset=ruleset)
    truth: list[dict[str, Any]] = []
    plays = 0
    director.pause(1.0)
    try:
        for line, event in enumerate(script, 1):
            kind = event.get("type")
            if kind == "collect":
                continue  # the film gathers tricks itself, when the rules say they ended
            if kind == "play" and max_plays is not None and plays >= max_plays:
                break
            if kind == "round" and plays:
                director.pause(float(rng.uniform(*DEAL_SECONDS)))
            match.apply({k: v for k, v in event.items() if k != "t"}, line=line)
            state = match.to_json()
            trick = state.get("trick") or {}
            if kind == "play":
                seat = int(event["seat"])
                if len(trick.get("plays") or ()) == 1 and director.table.cards:
                    # The others passed without saying so: this play leads a new trick.
                    truth.append({"type": "collect", "t": director.gather(seat)})
                event = {**event, "t": director.play(seat, script_tokens(str(event["cards"])))}
                plays += 1
            elif kind == "pass":
                director.pause(rng.uniform(0.1, 0.4))
            truth.append(event)
            if director.table.cards and (state.get("round_over") or (
                    kind != "play" and trick.get("answer") == "lead")):
                last = next(e for e in reversed(truth) if e.get("type") == "play")
                truth.append({"type": "collect", "t": director.gather(int(last["seat"]))})
        director.pause(1.0)
    finally:
        director.film.close()
    assert director.film.first is not None   # the empty table filmed first, a second long
    with (out / "truth.jsonl").open("w", encoding="utf-8") as handle:
        for event in truth:
            handle.write(json.dumps(event, ensure_ascii=False) + "\n")
    return RenderedGame(video=out / "game.mp4", table=out / "table.json",
                        truth=out / "truth.jsonl", frames=director.film.frames,
                        seconds=round(director.film.frames / fps, 2), plays=plays,
                        view=director.film.first)


def truth_detections(folder: str | Path) -> list[Detections]:
    """The exact visible boxes of every frame of a game rendered with ``boxes=True``.

    A perfect detector's answer per frame (confidence 1), for checking the tracker alone.
    """
    path = Path(folder) / "boxes.jsonl"
    if not path.is_file():
        raise FileNotFoundError(f"no {path}: render the game with boxes=True (--boxes)")
    per_frame: list[Detections] = []
    for line in path.read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        rows = np.array(record["boxes"], np.float32).reshape(-1, 5)
        found = Detections(xyxy=rows[:, :4].copy(), confidence=np.ones(len(rows), np.float32),
                           class_id=rows[:, 4].astype(np.int_))
        per_frame += [found] * int(record["count"])
    return per_frame


class TruthDetector:
    """A perfect detector for a game rendered with ``boxes=True``: it answers the exact boxes of
    the frame being processed, so the tracker and the pipeline can be checked without a model.

    It answers for whole frames (use ``Pipeline(..., per_zone=False)``), and learns which frame
    is being processed from the frames passing through :meth:`follow`.

    Args:
        folder: the rendered game's folder.
    """

    def __init__(self, folder: str | Path) -> None:
        self.per_frame = truth_detections(folder)
        self.index = 0
        """Index of the frame being processed."""

    def __call__(self, image: NDArray[np.uint8]) -> Detections:
        return self.per_frame[min(self.index, len(self.per_frame) - 1)]

    def follow(self, frames: Iterable[Any]) -> Iterator[Any]:
        """Pass the frames on, noting each one's index."""
        for frame in frames:
            self.index = frame.index
            yield frame
