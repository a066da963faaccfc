"""Card faces and backs drawn from scratch (OpenCV only), in several deck styles.

Every face is drawn on a canonical ``CARD_HEIGHT x CARD_WIDTH`` canvas (63 x 88 mm proportions)
and returned as BGRA: the alpha channel is the card's exact silhouette with rounded corners.
Images are cached per ``(rank, suit, style)`` and returned read-only, so rendering a game's worth
of cards costs a few milliseconds once.

>>> style = DECK_STYLES[0]
>>> face = render_card("T", "H", style)
>>> face.shape, face.dtype
((350, 250, 4), dtype('uint8'))
>>> len(index_regions("T", style)) >= 2        # the rank index sits in (at least) two corners
True
>>> render_card("BJ", None, style).shape == render_back(style).shape
True
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from functools import lru_cache

import cv2
import numpy as np
from numpy.typing import NDArray

__all__ = [
    "CARD_HEIGHT",
    "CARD_WIDTH",
    "DECK_STYLES",
    "RANKS",
    "SUITS",
    "DeckStyle",
    "index_regions",
    "random_deck_style",
    "render_back",
    "render_card",
]

CARD_WIDTH = 250
"""Width in pixels of a rendered card."""
CARD_HEIGHT = 350
"""Height in pixels of a rendered card (63 x 88 mm proportions)."""

RANKS: tuple[str, ...] = (
    "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A", "2", "SJ", "BJ",
)
"""Face ranks in the notation of :mod:`vision.classes` (jokers take no suit)."""
SUITS: tuple[str, ...] = ("S", "H", "D", "C")
"""Suits: spades, hearts, diamonds, clubs."""

BGR = tuple[int, int, int]

_RANK_TEXT = {"T": "10"}
_HERSHEY = (cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_COMPLEX,
            cv2.FONT_HERSHEY_TRIPLEX, cv2.FONT_HERSHEY_PLAIN, cv2.FONT_HERSHEY_COMPLEX_SMALL)
# pip centres in a unit pip area, per count; pips in the lower half are drawn upside down
_PIPS: dict[int, tuple[tuple[float, float], ...]] = {
    1: ((0.5, 0.5),),
    2: ((0.5, 0.0), (0.5, 1.0)),
    3: ((0.5, 0.0), (0.5, 0.5), (0.5, 1.0)),
    4: ((0.0, 0.0), (1.0, 0.0), (0.0, 1.0), (1.0, 1.0)),
    5: ((0.0, 0.0), (1.0, 0.0), (0.5, 0.5), (0.0, 1.0), (1.0, 1.0)),
    6: ((0.0, 0.0), (1.0, 0.0), (0.0, 0.5), (1.0, 0.5), (0.0, 1.0), (1.0, 1.0)),
    7: ((0.0, 0.0), (1.0, 0.0), (0.5, 0.25), (0.0, 0.5), (1.0, 0.5), (0.0, 1.0), (1.0, 1.0)),
    8: ((0.0, 0.0), (1.0, 0.0), (0.5, 0.25), (0.0, 0.5), (1.0, 0.5), (0.5, 0.75), (0.0, 1.0),
        (1.0, 1.0)),
    9: ((0.0, 0.0), (1.0, 0.0), (0.0, 1 / 3), (1.0, 1 / 3), (0.5, 0.5), (0.0, 2 / 3), (1.0, 2 / 3),
        (0.0, 1.0), (1.0, 1.0)),
    10: ((0.0, 0.0), (1.0, 0.0), (0.5, 1 / 6), (0.0, 1 / 3), (1.0, 1 / 3), (0.0, 2 / 3),
         (1.0, 2 / 3), (0.5, 5 / 6), (0.0, 1.0), (1.0, 1.0)),
}
_PIP_COUNT = {"2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9, "T": 10, "A": 1}
# strokes of the few Chinese characters on jokers, in a unit box (polylines)
_HANZI: dict[str, tuple[tuple[tuple[float, float], ...], ...]] = {
    "大": (((0.08, 0.36), (0.92, 0.36)),
           ((0.5, 0.04), (0.5, 0.36), (0.42, 0.62), (0.26, 0.82), (0.06, 0.96)),
           ((0.52, 0.46), (0.7, 0.74), (0.94, 0.96))),
    "小": (((0.5, 0.04), (0.5, 0.92), (0.38, 0.84)),
           ((0.28, 0.34), (0.18, 0.56), (0.06, 0.72)),
           ((0.72, 0.34), (0.84, 0.52), (0.94, 0.68))),
    "王": (((0.12, 0.1), (0.88, 0.1)), ((0.2, 0.5), (0.8, 0.5)), ((0.06, 0.92), (0.94, 0.92)),
           ((0.5, 0.1), (0.5, 0.92))),
}


@dataclass(frozen=True, slots=True)
class DeckStyle:
    """How one deck looks. Hashable: rendered faces are cached per style."""

    name: str
    """Short label, e.g. ``"classic"`` or ``"random-17"``."""
    font: int = cv2.FONT_HERSHEY_DUPLEX
    """Hershey font of the corner indices (``cv2.FONT_HERSHEY_*``)."""
    italic: bool = False
    """Slanted index glyphs."""
    index_height: float = 0.11
    """Height of the corner rank glyph as a fraction of the card height."""
    index_weight: float = 0.11
    """Stroke width of the rank glyph as a fraction of its height."""
    index_width: float = 0.62
    """Width of a one-character rank glyph as a fraction of its height ("10" gets up to twice)."""
    index_margin: float = 0.045
    """Gap between the card edge and the index, as a fraction of the card width."""
    four_corner_index: bool = False
    """Indices in all four corners (common on Chinese decks) instead of two."""
    paper: BGR = (250, 250, 250)
    """Card stock colour."""
    suit_colours: tuple[BGR, BGR, BGR, BGR] = ((25, 20, 20), (30, 30, 200), (30, 30, 200),
                                               (25, 20, 20))
    """Ink per suit, in :data:`SUITS` order (a four-colour deck makes them all differ)."""
    border: int = 0
    """Frame around the face: 0 none, 1 a thin line, 2 a double line."""
    border_colour: BGR = (150, 110, 60)
    """Colour of the frame lines."""
    corner_radius: float = 0.06
    """Radius of the rounded card corners as a fraction of the card width."""
    court: str = "picture"
    """J, Q, K faces: ``"picture"`` (framed figure) or ``"letter"`` (one large letter)."""
    joker: str = "western"
    """Joker faces: ``"western"`` (vertical JOKER, jester) or ``"chinese"`` (大王 / 小王)."""
    joker_index: str = "word"
    """Joker corner index: ``"word"`` (vertical JOKER) or ``"hanzi"`` (vertical 大王 / 小王)."""
    back_colour: BGR = (140, 40, 40)
    """Main colour of the card back."""
    back_pattern: str = "lattice"
    """Card back pattern: ``"lattice"``, ``"stripes"`` or ``"dots"``."""
    seed: int = 0
    """Seed of the decorative details (court pictures), so a style always looks the same."""


DECK_STYLES: tuple[DeckStyle, ...] = (
    DeckStyle("classic"),
    DeckStyle("bridge", font=cv2.FONT_HERSHEY_SIMPLEX, index_height=0.1, index_width=0.55,
              border=1, back_colour=(40, 40, 160), seed=1),
    DeckStyle("chinese-club", font=cv2.FONT_HERSHEY_TRIPLEX, index_height=0.14, index_weight=0.13,
              four_corner_index=True, paper=(235, 245, 250), joker="chinese", joker_index="hanzi",
              back_colour=(60, 120, 40), back_pattern="stripes", seed=2),
    DeckStyle("big-index", font=cv2.FONT_HERSHEY_COMPLEX, index_height=0.16, index_weight=0.12,
              index_width=0.7, court="letter", joker="chinese", border=2,
              border_colour=(40, 40, 160), back_colour=(120, 60, 20), back_pattern="dots", seed=3),
    DeckStyle("four-colour", font=cv2.FONT_HERSHEY_DUPLEX, italic=True, index_height=0.12,
              suit_colours=((20, 20, 20), (40, 30, 210), (200, 90, 20), (40, 140, 30)),
              joker_index="hanzi", back_colour=(30, 30, 30), seed=4),
)
"""Named deck styles; :func:`random_deck_style` draws many more."""


def random_deck_style(rng: np.random.Generator, name: str | None = None) -> DeckStyle:
    """Draw a random deck style (font, index size, ink, paper, frame, court, joker, back).

    Args:
        rng: source of randomness; the same generator state gives the same style.
        name: label of the style; ``"random-<n>"`` by default.
    """
    def colour(low: int, high: int) -> BGR:
        b, g, r = (int(v) for v in rng.integers(low, high, 3))
        return (b, g, r)

    red = (int(rng.integers(10, 70)), int(rng.integers(10, 50)), int(rng.integers(150, 235)))
    black = (int(rng.integers(5, 60)),) * 3
    black = (black[0] + int(rng.integers(0, 25)), black[1], black[2])
    if rng.random() < 0.15:  # four-colour deck
        colours = (black, red, (int(rng.integers(160, 230)), int(rng.integers(60, 120)), 20),
                   (30, int(rng.integers(110, 160)), 30))
    else:
        colours = (black, red, red, black)
    paper_level = int(rng.integers(225, 256))
    paper = (paper_level - int(rng.integers(0, 18)), paper_level - int(rng.integers(0, 8)),
             paper_level)
    seed = int(rng.integers(0, 2**31))
    return DeckStyle(
        name=name or f"random-{seed}",
        font=int(rng.choice(_HERSHEY)),
        italic=bool(rng.random() < 0.2),
        index_height=float(rng.uniform(0.085, 0.165)),
        index_weight=float(rng.uniform(0.07, 0.15)),
        index_width=float(rng.uniform(0.5, 0.78)),
        index_margin=float(rng.uniform(0.03, 0.07)),
        four_corner_index=bool(rng.random() < 0.3),
        paper=paper,
        suit_colours=colours,
        border=int(rng.choice((0, 0, 1, 2))),
        border_colour=colour(20, 200),
        corner_radius=float(rng.uniform(0.03, 0.1)),
        court=str(rng.choice(("picture", "picture", "letter"))),
        joker=str(rng.choice(("western", "chinese"))),
        joker_index=str(rng.choice(("word", "hanzi"))),
        back_colour=colour(20, 200),
        back_pattern=str(rng.choice(("lattice", "stripes", "dots"))),
        seed=seed,
    )


def index_regions(rank: str, style: DeckStyle) -> list[tuple[float, float, float, float]]:
    """Corner index rectangles ``(x0, y0, x1, y1)`` in card pixels: where the rank is read.

    Each is the rank glyph's own box (for a joker: its whole vertical word, whose first letter
    alone would pass for a jack). A card counts as readable when one of them is (nearly) fully
    visible; the suit pip under the glyph may be hidden. Backs have none.
    """
    return _corner_boxes(_rank_box(rank, style), style)


def render_card(rank: str, suit: str | None, style: DeckStyle) -> NDArray[np.uint8]:
    """The face of one card as a read-only BGRA image of ``CARD_HEIGHT x CARD_WIDTH``.

    Args:
        rank: one of :data:`RANKS` (``"T"`` is the ten, ``"SJ"``/``"BJ"`` the jokers).
        suit: one of :data:`SUITS`; ignored (may be ``None``) for jokers.
        style: the deck's look.

    Raises:
        ValueError: for an unknown rank or a missing/unknown suit.
    """
    if rank not in RANKS:
        raise ValueError(f"unknown rank {rank!r}; expected one of {RANKS}")
    if rank in ("SJ", "BJ"):
        suit = None
    elif suit not in SUITS:
        raise ValueError(f"unknown suit {suit!r} for rank {rank!r}; expected one of {SUITS}")
    return _render_face(rank, suit, style)


def render_back(style: DeckStyle) -> NDArray[np.uint8]:
    """The back of a card of this deck as a read-only BGRA image."""
    return _render_back(style)


# ---------------------------------------------------------------- drawing


def _index_box(rank: str, style: DeckStyle) -> tuple[float, float, float, float]:
    glyph_h = style.index_height * CARD_HEIGHT
    x0 = style.index_margin * CARD_WIDTH
    y0 = style.index_margin * CARD_WIDTH * 1.2
    if rank in ("SJ", "BJ"):  # a vertical word runs further down
        letters = 5 if style.joker_index == "word" else 2
        step = glyph_h * (0.78 if style.joker_index == "word" else 1.05)
        width = glyph_h * (0.62 if style.joker_index == "word" else 0.9)
        return x0, y0, x0 + width, y0 + letters * step
    width = glyph_h * style.index_width * (1.6 if rank == "T" else 1.0)
    return x0, y0, x0 + max(width, glyph_h * 0.75), y0 + glyph_h * 1.95  # glyph + suit pip


@lru_cache(maxsize=256)
def _glyph(text: str, font: int, weight: float, italic: bool) -> NDArray[np.float32]:
    """Tight-cropped coverage mask (0..1) of a Hershey text at a large size."""
    scale, height = 4.0, 120
    thickness = max(1, round(weight * 110))
    canvas = np.zeros((height * 2, height * (len(text) + 1) * 2), np.uint8)
    font_face = font | (cv2.FONT_ITALIC if italic else 0)
    cv2.putText(canvas, text, (20, int(height * 1.5)), font_face, scale, 255, thickness,
                cv2.LINE_AA)
    return _crop(canvas)


@lru_cache(maxsize=64)
def _suit_shape(suit: str) -> NDArray[np.float32]:
    """Tight-cropped coverage mask (0..1) of a suit symbol."""
    size = 200
    canvas = np.zeros((size, size), np.uint8)
    t = np.linspace(0, 2 * math.pi, 200)
    heart = np.stack([16 * np.sin(t) ** 3,
                      -(13 * np.cos(t) - 5 * np.cos(2 * t) - 2 * np.cos(3 * t) - np.cos(4 * t))], 1)
    heart = (heart - heart.min(0)) / (heart.max(0) - heart.min(0))
    if suit == "H":
        cv2.fillPoly(canvas, [(heart * [180, 170] + [10, 15]).astype(np.int32)], 255, cv2.LINE_AA)
    elif suit == "D":
        pts = np.array([[100, 5], [175, 100], [100, 195], [25, 100]], np.int32)
        cv2.fillPoly(canvas, [pts], 255, cv2.LINE_AA)
    elif suit == "S":
        spade = heart.copy()
        spade[:, 1] = 1 - spade[:, 1]
        cv2.fillPoly(canvas, [(spade * [180, 140] + [10, 5]).astype(np.int32)], 255, cv2.LINE_AA)
        cv2.fillPoly(canvas, [np.array([[100, 110], [135, 195], [65, 195]], np.int32)], 255,
                     cv2.LINE_AA)
    elif suit == "C":
        for cx, cy in ((100, 52), (52, 112), (148, 112)):
            cv2.circle(canvas, (cx, cy), 44, 255, -1, cv2.LINE_AA)
        cv2.fillPoly(canvas, [np.array([[100, 90], [135, 195], [65, 195]], np.int32)], 255,
                     cv2.LINE_AA)
    else:
        raise ValueError(f"unknown suit {suit!r}")
    return _crop(canvas)


def _hanzi(char: str) -> NDArray[np.float32]:
    size, thickness = 200, 26
    canvas = np.zeros((size, size), np.uint8)
    for stroke in _HANZI[char]:
        pts = (np.array(stroke) * (size - 40) + 20).astype(np.int32)
        cv2.polylines(canvas, [pts], False, 255, thickness, cv2.LINE_AA)
    return _crop(canvas)


def _crop(canvas: NDArray[np.uint8]) -> NDArray[np.float32]:
    ys, xs = np.nonzero(canvas)
    mask = canvas[ys.min():ys.max() + 1, xs.min():xs.max() + 1].astype(np.float32) / 255.0
    mask.flags.writeable = False
    return mask


def _blit(image: NDArray[np.uint8], mask: NDArray[np.float32],
          box: tuple[float, float, float, float], colour: BGR, *, keep_aspect: bool = False,
          flip: bool = False) -> None:
    """Paint ``colour`` through ``mask`` resized into ``box`` (x0, y0, x1, y1) of ``image``."""
    x0, y0, x1, y1 = box
    w, h = max(1, round(x1 - x0)), max(1, round(y1 - y0))
    if keep_aspect:  # fit inside the box, centred
        scale = min(w / mask.shape[1], h / mask.shape[0])
        nw, nh = max(1, round(mask.shape[1] * scale)), max(1, round(mask.shape[0] * scale))
        x0, y0, w, h = x0 + (w - nw) / 2, y0 + (h - nh) / 2, nw, nh
    resized = cv2.resize(mask, (w, h), interpolation=cv2.INTER_AREA)
    if flip:
        resized = resized[::-1, ::-1]
    xi, yi = round(x0), round(y0)
    ih, iw = image.shape[:2]
    cx0, cy0, cx1, cy1 = max(xi, 0), max(yi, 0), min(xi + w, iw), min(yi + h, ih)
    if cx0 >= cx1 or cy0 >= cy1:
        return
    alpha = resized[cy0 - yi:cy1 - yi, cx0 - xi:cx1 - xi, None]
    region = image[cy0:cy1, cx0:cx1, :3].astype(np.float32)
    ink = np.array(colour, np.float32)
    image[cy0:cy1, cx0:cx1, :3] = (region * (1 - alpha) + ink * alpha).astype(np.uint8)


def _blank(style: DeckStyle) -> NDArray[np.uint8]:
    """A fresh copy of the style's card stock."""
    return _stock(style).copy()


@lru_cache(maxsize=64)
def _stock(style: DeckStyle) -> NDArray[np.uint8]:
    """Card stock with rounded-corner alpha, a faint edge and the style's frame."""
    image = np.zeros((CARD_HEIGHT, CARD_WIDTH, 4), np.uint8)
    image[..., :3] = style.paper
    scale = 4  # draw the silhouette large, then shrink: smooth anti-aliased corners
    big = np.zeros((CARD_HEIGHT * scale, CARD_WIDTH * scale), np.uint8)
    r = int(style.corner_radius * CARD_WIDTH * scale)
    w, h = CARD_WIDTH * scale, CARD_HEIGHT * scale
    cv2.rectangle(big, (r, 0), (w - 1 - r, h - 1), 255, -1)
    cv2.rectangle(big, (0, r), (w - 1, h - 1 - r), 255, -1)
    for cx, cy in ((r, r), (w - 1 - r, r), (r, h - 1 - r), (w - 1 - r, h - 1 - r)):
        cv2.circle(big, (cx, cy), r, 255, -1)
    alpha = cv2.resize(big, (CARD_WIDTH, CARD_HEIGHT), interpolation=cv2.INTER_AREA)
    image[..., 3] = alpha
    # the card's cut edge reads slightly darker than its face
    edge = cv2.erode(alpha, np.ones((5, 5), np.uint8)) < 200
    image[edge, :3] = (image[edge, :3] * 0.8).astype(np.uint8)
    if style.border:
        inset = int(0.035 * CARD_WIDTH)
        for k in range(style.border):
            d = inset + k * 6
            cv2.rectangle(image, (d, d), (CARD_WIDTH - 1 - d, CARD_HEIGHT - 1 - d),
                          (*style.border_colour, 255), 2 if k == 0 else 1, cv2.LINE_AA)
    return image


def _rank_box(rank: str, style: DeckStyle) -> tuple[float, float, float, float]:
    """Box of the top-left rank glyph (a joker's whole word column), in card pixels."""
    x0, y0, x1, y1 = _index_box(rank, style)
    if rank in ("SJ", "BJ"):
        return x0, y0, x1, y1
    glyph_h = style.index_height * CARD_HEIGHT
    glyph = _glyph(_RANK_TEXT.get(rank, rank), style.font, style.index_weight, style.italic)
    width = min(glyph.shape[1] / glyph.shape[0] * glyph_h, x1 - x0)
    cx = (x0 + x1) / 2
    return cx - width / 2, y0, cx + width / 2, y0 + glyph_h


def _draw_index(image: NDArray[np.uint8], rank: str, suit: str, style: DeckStyle,
                colour: BGR) -> None:
    glyph_h = style.index_height * CARD_HEIGHT
    glyph = _glyph(_RANK_TEXT.get(rank, rank), style.font, style.index_weight, style.italic)
    rank_box = _rank_box(rank, style)
    y0 = rank_box[1]
    cx = (rank_box[0] + rank_box[2]) / 2
    pip_h = glyph_h * 0.75
    pip_top = y0 + glyph_h * 1.15
    pip_box = (cx - pip_h * 0.45, pip_top, cx + pip_h * 0.45, pip_top + pip_h)
    for mask, box, keep_aspect in [(glyph, b, False) for b in _corner_boxes(rank_box, style)] + [
            (_suit_shape(suit), b, True) for b in _corner_boxes(pip_box, style)]:
        _blit(image, mask, box, colour, keep_aspect=keep_aspect, flip=box[1] > CARD_HEIGHT / 2)


def _corner_boxes(box: tuple[float, float, float, float],
                  style: DeckStyle) -> list[tuple[float, float, float, float]]:
    x0, y0, x1, y1 = box
    boxes = [box, (CARD_WIDTH - x1, CARD_HEIGHT - y1, CARD_WIDTH - x0, CARD_HEIGHT - y0)]
    if style.four_corner_index:
        boxes += [(CARD_WIDTH - x1, y0, CARD_WIDTH - x0, y1),
                  (x0, CARD_HEIGHT - y1, x1, CARD_HEIGHT - y0)]
    return boxes


def _pip_area(style: DeckStyle) -> tuple[float, float, float, float]:
    _, _, ix1, _ = _index_box("8", style)
    x0 = max(ix1 + 0.03 * CARD_WIDTH, 0.24 * CARD_WIDTH)
    return x0, 0.17 * CARD_HEIGHT, CARD_WIDTH - x0, 0.83 * CARD_HEIGHT


def _draw_pips(image: NDArray[np.uint8], rank: str, suit: str, style: DeckStyle,
               colour: BGR) -> None:
    count = _PIP_COUNT[rank]
    ax0, ay0, ax1, ay1 = _pip_area(style)
    size = min((ax1 - ax0) * 0.42, (ay1 - ay0) * 0.2)
    if count == 1:
        size = (ax1 - ax0) * (0.75 if suit == "S" else 0.55)
    shape = _suit_shape(suit)
    inner = (ax0 + size / 2, ay0 + size / 2, ax1 - size / 2, ay1 - size / 2)
    for u, v in _PIPS[count]:
        cx = inner[0] + u * (inner[2] - inner[0])
        cy = inner[1] + v * (inner[3] - inner[1])
        _blit(image, shape, (cx - size / 2, cy - size / 2, cx + size / 2, cy + size / 2), colour,
              keep_aspect=True, flip=v > 0.5 and count > 1)


def _draw_court(image: NDArray[np.uint8], rank: str, suit: str, style: DeckStyle,
                colour: BGR) -> None:
    ax0, ay0, ax1, ay1 = _pip_area(style)
    fx0, fx1 = int(ax0 - 0.03 * CARD_WIDTH), int(ax1 + 0.03 * CARD_WIDTH)
    fy0, fy1 = int(ay0), int(ay1)
    if style.court == "letter":
        glyph = _glyph(rank, style.font, style.index_weight, style.italic)
        _blit(image, glyph, (fx0 + 10, fy0 + 30, fx1 - 10, fy1 - 30), colour, keep_aspect=True)
        return
    rng = np.random.default_rng([style.seed, RANKS.index(rank), SUITS.index(suit)])
    palette = [colour, (40, 150, 220), (150, 70, 30), (30, 30, 30), (60, 60, 190), (50, 170, 210)]
    half = np.full((fy1 - fy0, fx1 - fx0, 3), style.paper, np.uint8)
    hh, hw = half.shape[:2]
    # top half: a figure (head, headgear, shoulders in coloured bands); the bottom half mirrors it
    skin = (150 + int(rng.integers(0, 40)), 190 + int(rng.integers(0, 30)), 235)
    head = (int(hw * rng.uniform(0.42, 0.58)), int(hh * 0.22))
    for k in range(int(rng.integers(3, 6))):
        c = palette[int(rng.integers(0, len(palette)))]
        y = int(hh * (0.3 + 0.06 * k))
        pts = np.array([[0, hh // 2], [0, y], [hw // 3, y - int(hh * 0.05)],
                        [hw, y + int(hh * 0.04)], [hw, hh // 2]], np.int32)
        cv2.fillPoly(half, [pts], c, cv2.LINE_AA)
    cv2.ellipse(half, head, (int(hw * 0.14), int(hh * 0.09)), 0, 0, 360, skin, -1, cv2.LINE_AA)
    hat = palette[int(rng.integers(0, len(palette)))]
    top = head[1] - int(hh * 0.09)
    if rank == "K":  # crown with points
        crown = [[head[0] - int(hw * 0.16), top + 4]] + [
            [head[0] + int(hw * 0.16 * (2 * i / 4 - 1)), top - (14 if i % 2 == 0 else 2)]
            for i in range(5)
        ] + [[head[0] + int(hw * 0.16), top + 4]]
        cv2.fillPoly(half, [np.array(crown, np.int32)], (30, 190, 230), cv2.LINE_AA)
    elif rank == "Q":
        cv2.ellipse(half, (head[0], top + 2), (int(hw * 0.17), 12), 0, 180, 360, hat, -1,
                    cv2.LINE_AA)
    else:
        cv2.rectangle(half, (head[0] - int(hw * 0.15), top - 10),
                      (head[0] + int(hw * 0.12), top + 4), hat, -1, cv2.LINE_AA)
    cv2.circle(half, (head[0] - 6, head[1] - 2), 2, (30, 30, 30), -1)
    cv2.circle(half, (head[0] + 6, head[1] - 2), 2, (30, 30, 30), -1)
    top_half = half[: hh // 2]
    half[hh - hh // 2:] = top_half[::-1, ::-1]
    image[fy0:fy1, fx0:fx1, :3] = half
    cv2.rectangle(image, (fx0, fy0), (fx1, fy1), (*colour, 255), 2, cv2.LINE_AA)
    shape = _suit_shape(suit)
    s = int(hw * 0.16)
    _blit(image, shape, (fx0 + 5, fy0 + 5, fx0 + 5 + s, fy0 + 5 + s), colour, keep_aspect=True)
    _blit(image, shape, (fx1 - 5 - s, fy1 - 5 - s, fx1 - 5, fy1 - 5), colour, keep_aspect=True,
          flip=True)


def _draw_joker(image: NDArray[np.uint8], rank: str, style: DeckStyle) -> None:
    big = rank == "BJ"
    ink: BGR = (30, 30, 200) if big else (25, 25, 25)
    x0, y0, x1, y1 = _index_box(rank, style)
    corner: list[NDArray[np.float32]]
    if style.joker_index == "word":
        corner = [_glyph(ch, style.font, style.index_weight, style.italic) for ch in "JOKER"]
    else:
        corner = [_hanzi("大" if big else "小"), _hanzi("王")]
    step = (y1 - y0) / len(corner)
    for k, mask in enumerate(corner):
        box = (x0, y0 + k * step, x1, y0 + (k + 0.88) * step)
        for b in _corner_boxes(box, style):
            _blit(image, mask, b, ink, keep_aspect=True, flip=b[1] > CARD_HEIGHT / 2)
    ax0, ay0, ax1, ay1 = _pip_area(style)
    if style.joker == "chinese":  # large 大王 / 小王 down the middle
        chars = [_hanzi("大" if big else "小"), _hanzi("王")]
        colours: list[BGR] = ([(30, 30, 210), (20, 120, 230)] if big
                              else [(20, 20, 20), (90, 90, 90)])
        h = (ay1 - ay0) / 2
        for k, (mask, c) in enumerate(zip(chars, colours)):
            _blit(image, mask, (ax0, ay0 + k * h + 8, ax1, ay0 + (k + 1) * h - 8), c,
                  keep_aspect=True)
        return
    # western: a jester's face under a three-pointed cap
    cx, cy = int((ax0 + ax1) / 2), int(ay0 + (ay1 - ay0) * 0.58)
    w = int((ax1 - ax0) * 0.45)
    cap: list[BGR] = ([(40, 40, 210), (40, 170, 40), (200, 120, 30)] if big
                      else [(20, 20, 20), (110, 110, 110), (60, 60, 60)])
    bell: BGR = (30, 200, 230) if big else (200, 200, 200)
    for k, c in enumerate(cap):
        tip = (cx + (k - 1) * w, cy - int(w * 1.6) + (abs(k - 1) * w // 3))
        brim = [[cx - w // 2 + k * w // 3, cy - w // 3],
                [cx - w // 2 + (k + 1) * w // 3, cy - w // 3]]
        cv2.fillPoly(image, [np.array([*brim, tip], np.int32)], (*c, 255), cv2.LINE_AA)
        cv2.circle(image, tip, 7, (*bell, 255), -1, cv2.LINE_AA)
    face_colour: BGR = (170, 205, 240) if big else (215, 215, 215)
    cv2.ellipse(image, (cx, cy + w // 4), (w // 2, int(w * 0.6)), 0, 0, 360, (*face_colour, 255),
                -1, cv2.LINE_AA)
    cv2.ellipse(image, (cx, cy + w // 2), (w // 4, w // 8), 0, 0, 180, (*ink, 255), 3, cv2.LINE_AA)
    for dx in (-w // 5, w // 5):
        cv2.circle(image, (cx + dx, cy + w // 8), 4, (20, 20, 20, 255), -1, cv2.LINE_AA)


@lru_cache(maxsize=512)  # about 180 MB: a few decks' worth of faces
def _render_face(rank: str, suit: str | None, style: DeckStyle) -> NDArray[np.uint8]:
    image = _blank(style)
    if suit is None:
        _draw_joker(image, rank, style)
    else:
        colour = style.suit_colours[SUITS.index(suit)]
        _draw_index(image, rank, suit, style, colour)
        if rank in ("J", "Q", "K"):
            _draw_court(image, rank, suit, style, colour)
        else:
            _draw_pips(image, rank, suit, style, colour)
    image.flags.writeable = False
    return image


@lru_cache(maxsize=256)
def _render_back(style: DeckStyle) -> NDArray[np.uint8]:
    image = _blank(replace(style, border=0))
    inset = int(0.07 * CARD_WIDTH)
    x0, y0, x1, y1 = inset, inset, CARD_WIDTH - inset, CARD_HEIGHT - inset
    cv2.rectangle(image, (x0, y0), (x1, y1), (*style.back_colour, 255), -1)
    light = tuple(min(255, int(c * 0.5 + 128)) for c in style.back_colour)
    region = image[y0:y1, x0:x1]
    h, w = region.shape[:2]
    if style.back_pattern == "lattice":
        for k in range(-h, w + h, 14):
            cv2.line(region, (k, 0), (k + h, h), (*light, 255), 2, cv2.LINE_AA)
            cv2.line(region, (k, h), (k + h, 0), (*light, 255), 2, cv2.LINE_AA)
    elif style.back_pattern == "stripes":
        for k in range(0, w + h, 10):
            cv2.line(region, (k, 0), (k - h, h), (*light, 255), 3, cv2.LINE_AA)
    else:
        for yy in range(8, h, 16):
            for xx in range(8 + (yy // 16 % 2) * 8, w, 16):
                cv2.circle(region, (xx, yy), 4, (*light, 255), -1, cv2.LINE_AA)
    cv2.ellipse(image, (CARD_WIDTH // 2, CARD_HEIGHT // 2), (w // 4, h // 6), 0, 0, 360,
                (*style.paper, 255), -1, cv2.LINE_AA)
    cv2.ellipse(image, (CARD_WIDTH // 2, CARD_HEIGHT // 2), (w // 4, h // 6), 0, 0, 360,
                (*style.back_colour, 255), 3, cv2.LINE_AA)
    image.flags.writeable = False
    return image
