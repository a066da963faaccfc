"""Table scenes as an overhead camera sees them, built from the pieces other code also uses.

The pieces (each fast enough to build video frames with):

* :func:`make_table_texture` — felt, wood, cloth, tiles, carpet or a plain table top;
* :func:`card_quad` / :func:`fan_quads` — where a card or a fanned play lies (4 corners each);
* :func:`place_card` / :func:`paste_card` — paste a card through its quad (perspective), returning
  the :class:`~vision.synth.labels.Layer` with its exact mask;
* :func:`draw_hand` — a hand reaching over the table (an occluder layer);
* :func:`apply_camera` — light, white balance, shadows, glare, blur, noise, JPEG.

:func:`generate_scene` composes them into a training tile: a seat zone warped so its player sits
at the bottom, cards roughly upright, at native camera scale (see DESIGN.md, "Vision").

>>> scene = generate_scene(7)
>>> scene.image.shape, len(scene.boxes) == len(scene.class_ids)
((320, 320, 3), True)
>>> bool((generate_scene(7).image == scene.image).all())   # same seed, same scene
True
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.classes import BACK_CLASS_ID, class_id
from vision.synth.cards import (
    CARD_HEIGHT,
    CARD_WIDTH,
    DECK_STYLES,
    RANKS,
    SUITS,
    DeckStyle,
    index_regions,
    random_deck_style,
    render_back,
    render_card,
)
from vision.synth.labels import NO_PLAY, Layer, VisibleCard, visible_cards

__all__ = [
    "TEXTURE_KINDS",
    "Scene",
    "SceneConfig",
    "apply_camera",
    "card_quad",
    "draw_hand",
    "fan_quads",
    "generate_scene",
    "make_table_texture",
    "paste_card",
    "place_card",
]

TEXTURE_KINDS: tuple[str, ...] = ("felt", "wood", "cloth", "tile", "carpet", "plain")
"""Kinds of table top :func:`make_table_texture` draws."""

Quad = NDArray[np.float64]
"""Four canvas points ``(4, 2)``: the card's top-left, top-right, bottom-right, bottom-left."""

_ASPECT = CARD_HEIGHT / CARD_WIDTH
_SOURCE_CORNERS = np.array([[0, 0], [CARD_WIDTH, 0], [CARD_WIDTH, CARD_HEIGHT], [0, CARD_HEIGHT]],
                           np.float32)


# ---------------------------------------------------------------- table tops


def _value_noise(height: int, width: int, rng: np.random.Generator,
                 cells: float) -> NDArray[np.float32]:
    """Smooth noise in [0, 1] with about ``cells`` blobs across the longer side."""
    gh = max(2, int(cells * height / max(height, width)) + 2)
    gw = max(2, int(cells * width / max(height, width)) + 2)
    grid = rng.random((gh, gw)).astype(np.float32)
    return cv2.resize(grid, (width, height), interpolation=cv2.INTER_CUBIC).clip(0, 1)


def _turned_axes(shape: tuple[int, int], turn: float
                 ) -> tuple[NDArray[np.float32], NDArray[np.float32]]:
    """Each pixel's coordinates along axes turned by ``turn`` radians: a pattern's own axes."""
    yy, xx = np.mgrid[0:shape[0], 0:shape[1]].astype(np.float32)
    return xx * math.cos(turn) + yy * math.sin(turn), yy * math.cos(turn) - xx * math.sin(turn)


def make_table_texture(width: int, height: int, rng: np.random.Generator,
                       kind: str | None = None, *, angle: float = 0.0) -> NDArray[np.uint8]:
    """A table top of ``height x width`` BGR pixels.

    Args:
        width: pixels across.
        height: pixels down.
        rng: source of randomness (colours, grain, pattern).
        kind: one of :data:`TEXTURE_KINDS`; random when ``None``.
        angle: turn of a cloth's checks and of a tiled top's grout lines, in degrees (a seat
            zone sees the table's pattern at its own angle).

    Raises:
        ValueError: for an unknown kind.
    """
    kind = kind or str(rng.choice(TEXTURE_KINDS, p=(0.3, 0.25, 0.15, 0.1, 0.1, 0.1)))
    shape = (height, width)
    base = rng.integers(0, 256, 3).astype(np.float32)
    if kind == "felt":
        hue = rng.choice([np.array([40, 110, 30]), np.array([110, 60, 20]), np.array([40, 40, 120]),
                          np.array([70, 70, 70]), np.array([30, 30, 30]), base * 0.6])
        shade = 0.85 + 0.3 * _value_noise(*shape, rng, 6)
        image = hue[None, None, :] * shade[..., None]
        image += rng.standard_normal((*shape, 1), np.float32) * 5.0
    elif kind == "wood":
        u, _ = _turned_axes(shape, rng.uniform(0, math.pi))
        warp = _value_noise(*shape, rng, 5) * rng.uniform(20, 80)
        grain = 0.5 + 0.5 * np.sin((u + warp) * rng.uniform(0.05, 0.25))
        fine = _value_noise(*shape, rng, max(width, height) / 4)
        dark = np.array([20, 45, 80]) * rng.uniform(0.6, 1.3)
        light = np.array([90, 150, 200]) * rng.uniform(0.8, 1.15)
        t = (0.7 * grain + 0.3 * fine)[..., None]
        image = dark + (light - dark) * t
    elif kind == "cloth":
        colours = rng.integers(30, 240, (3, 3)).astype(np.float32)
        period = rng.integers(12, 60)
        across, down = _turned_axes(shape, math.radians(angle))
        bands_x = ((across // period) % 3).astype(int)
        bands_y = ((down // (period * rng.uniform(0.6, 1.6)).astype(int)) % 3).astype(int)
        image = 0.5 * colours[bands_x] + 0.5 * colours[bands_y]
        weave = ((across + down) % 4 < 2)[..., None] * rng.uniform(5, 20)
        image = image + weave
    elif kind == "tile":
        colour = rng.integers(150, 240, 3).astype(np.float32)
        image = colour[None, None, :] * (0.9 + 0.15 * _value_noise(*shape, rng, 30))[..., None]
        step = int(rng.integers(60, 200))
        grout = colour * rng.uniform(0.5, 0.8)
        across, down = _turned_axes(shape, math.radians(angle))
        image[((across % step) < 2) | ((down % step) < 2)] = grout
    elif kind == "carpet":
        a, b = rng.integers(30, 220, (2, 3)).astype(np.float32)
        t = 0.6 * _value_noise(*shape, rng, max(width, height) / 3) + 0.4 * rng.random(shape)
        image = a + (b - a) * t[..., None].astype(np.float32)
    elif kind == "plain":
        level = rng.choice([rng.uniform(200, 250), rng.uniform(40, 200)])
        tint = rng.uniform(0.85, 1.0, 3)
        image = np.ones((*shape, 3), np.float32) * level * tint
        image *= (0.92 + 0.1 * _value_noise(*shape, rng, 3))[..., None]
    else:
        raise ValueError(f"unknown texture kind {kind!r}; expected one of {TEXTURE_KINDS}")
    return np.asarray(np.clip(image, 0, 255), np.uint8)


# ---------------------------------------------------------------- card geometry


def card_quad(centre: tuple[float, float], height: float, angle: float = 0.0) -> Quad:
    """Corners of a card ``height`` pixels tall centred at ``centre``, turned ``angle``° clockwise.

    >>> card_quad((100, 100), 140).round(1).tolist()
    [[50.0, 30.0], [150.0, 30.0], [150.0, 170.0], [50.0, 170.0]]
    """
    w, h = height / _ASPECT / 2, height / 2
    a = math.radians(angle)
    rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
    local = np.array([[-w, -h], [w, -h], [w, h], [-w, h]])
    return np.asarray(local @ rot.T + np.asarray(centre, np.float64), np.float64)


def fan_quads(count: int, centre: tuple[float, float], height: float, angle: float = 0.0, *,
              spacing: float = 0.3, arc: float = 0.0, drop: float = 0.0) -> list[Quad]:
    """Quads of a fanned play, bottom card first.

    Args:
        count: number of cards.
        centre: canvas point the fan is centred on.
        height: card height in pixels.
        angle: clockwise turn of the whole fan in degrees (0: upright, spreading to the right).
        spacing: step between cards as a fraction of the card width (negative spreads leftwards;
            ``>= 1`` lays the cards side by side).
        arc: extra turn per card in degrees (a hand-held fan).
        drop: vertical step between cards as a fraction of the card height.
    """
    width = height / _ASPECT
    a = math.radians(angle)
    rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
    middle = (count - 1) / 2
    quads = []
    for i in range(count):
        offset = np.array([(i - middle) * spacing * width, (i - middle) * drop * height]) @ rot.T
        quads.append(card_quad((centre[0] + offset[0], centre[1] + offset[1]), height,
                               angle + (i - middle) * arc))
    return quads


def paste_card(canvas: NDArray[np.uint8], card_bgra: NDArray[np.uint8], quad: Quad, *,
               class_id: int, regions: Sequence[tuple[float, float, float, float]] = (),
               shadow: float = 0.0) -> Layer:
    """Paste a BGRA card image onto ``canvas`` (in place) so its corners land on ``quad``.

    Only the quad's bounding box is warped, so a card costs well under a millisecond.

    Args:
        canvas: BGR image to draw on.
        card_bgra: card image from :func:`~vision.synth.cards.render_card` (alpha = silhouette).
        quad: canvas corners for the card's top-left, top-right, bottom-right, bottom-left.
        class_id: detector class of the card (recorded in the returned layer).
        regions: corner index rectangles in card pixels (for readability).
        shadow: strength (0..1) of a soft drop shadow cast before the card is pasted.

    Returns:
        The card's :class:`Layer`: its exact mask (alpha >= 0.5), area and homography.
    """
    quad = np.asarray(quad, np.float64)
    ch, cw = canvas.shape[:2]
    homography = cv2.getPerspectiveTransform(
        np.array([[0, 0], [card_bgra.shape[1], 0], [card_bgra.shape[1], card_bgra.shape[0]],
                  [0, card_bgra.shape[0]]], np.float32), quad.astype(np.float32)).astype(np.float64)
    area = abs(float(cv2.contourArea(quad.astype(np.float32))))
    x0 = max(math.floor(quad[:, 0].min()), 0)
    y0 = max(math.floor(quad[:, 1].min()), 0)
    x1 = min(math.ceil(quad[:, 0].max()) + 1, cw)
    y1 = min(math.ceil(quad[:, 1].max()) + 1, ch)
    if x0 >= x1 or y0 >= y1:
        return Layer((0, 0), np.zeros((0, 0), bool), class_id, area, homography, tuple(regions))
    # shrink the source first when the card lands small: a plain bilinear warp would alias
    side = math.sqrt(area * _ASPECT)
    source = card_bgra
    if side < 0.6 * card_bgra.shape[0]:
        size = (max(4, round(card_bgra.shape[1] * side / card_bgra.shape[0] * 1.4)),
                max(4, round(side * 1.4)))
        source = np.asarray(cv2.resize(card_bgra, size, interpolation=cv2.INTER_AREA), np.uint8)
    local = cv2.getPerspectiveTransform(
        np.array([[0, 0], [source.shape[1], 0], [source.shape[1], source.shape[0]],
                  [0, source.shape[0]]], np.float32), (quad - [x0, y0]).astype(np.float32))
    warped = cv2.warpPerspective(source, local, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR,
                                 borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0, 0))
    alpha = warped[..., 3:].astype(np.float32) / 255.0
    region = canvas[y0:y1, x0:x1]
    if shadow > 0:
        _cast_shadow(canvas, quad, shadow)
    region[:] = (region * (1 - alpha) + warped[..., :3] * alpha).astype(np.uint8)
    mask = alpha[..., 0] >= 0.5
    return Layer((x0, y0), mask, class_id, area, homography, tuple(regions))


def _cast_shadow(canvas: NDArray[np.uint8], quad: Quad, strength: float) -> None:
    side = math.sqrt(abs(cv2.contourArea(quad.astype(np.float32))))
    offset = np.array([0.03, 0.05]) * side
    blur = max(1, int(side * 0.04)) * 2 + 1
    pad = blur + int(offset.max()) + 2
    ch, cw = canvas.shape[:2]
    shifted = quad + offset
    x0 = max(int(shifted[:, 0].min()) - pad, 0)
    y0 = max(int(shifted[:, 1].min()) - pad, 0)
    x1 = min(int(shifted[:, 0].max()) + pad, cw)
    y1 = min(int(shifted[:, 1].max()) + pad, ch)
    if x0 >= x1 or y0 >= y1:
        return
    mask = np.zeros((y1 - y0, x1 - x0), np.float32)
    cv2.fillPoly(mask, [np.round(shifted - [x0, y0]).astype(np.int32)], 1.0, cv2.LINE_AA)
    mask = cv2.GaussianBlur(mask, (blur, blur), 0)
    region = canvas[y0:y1, x0:x1]
    region[:] = (region * (1 - strength * mask[..., None])).astype(np.uint8)


def place_card(canvas: NDArray[np.uint8], rank: str, suit: str | None, style: DeckStyle,
               quad: Quad, *, face_up: bool = True, shadow: float = 0.25) -> Layer:
    """Render a card of ``style`` and paste it through ``quad``; face down it shows the back.

    Returns the card's :class:`Layer` (class = rank, or ``back`` when face down).
    """
    if face_up:
        return paste_card(canvas, render_card(rank, suit, style), quad, class_id=class_id(rank),
                          regions=index_regions(rank, style), shadow=shadow)
    return paste_card(canvas, render_back(style), quad, class_id=BACK_CLASS_ID, shadow=shadow)


# ---------------------------------------------------------------- hands and camera


def draw_hand(canvas: NDArray[np.uint8], rng: np.random.Generator, wrist: tuple[float, float],
              direction: float, size: float) -> Layer:
    """Draw a hand reaching from ``wrist`` towards ``direction`` (degrees, 0 = up the image).

    Args:
        canvas: BGR image to draw on (in place).
        rng: source of skin tone, finger spread and pose.
        wrist: canvas point where the forearm enters.
        direction: clockwise angle of the reach; 0 points up (away from a player at the bottom).
        size: palm length in pixels (about a card height).

    Returns:
        An occluder :class:`Layer` covering the hand and forearm.
    """
    ch, cw = canvas.shape[:2]
    a = math.radians(direction)
    fwd = np.array([math.sin(a), -math.cos(a)])
    side = np.array([-fwd[1], fwd[0]])
    base = np.asarray(wrist, np.float64)
    palm = base + fwd * size * 0.55
    mask = np.zeros((ch, cw), np.uint8)
    arm_end = base - fwd * size * 2.5
    cv2.line(mask, tuple(np.round(base).astype(int)), tuple(np.round(arm_end).astype(int)), 255,
             max(2, int(size * 0.5)), cv2.LINE_AA)
    cv2.ellipse(mask, tuple(np.round(palm).astype(int)), (int(size * 0.32), int(size * 0.42)),
                math.degrees(a), 0, 360, 255, -1, cv2.LINE_AA)
    curl = rng.uniform(0.5, 1.0)
    for k, length in enumerate((0.55, 0.62, 0.58, 0.45)):
        root = palm + fwd * size * 0.3 + side * size * (k - 1.5) * 0.17
        spread = math.radians((k - 1.5) * rng.uniform(2, 10))
        tip_dir = fwd * math.cos(spread) + side * math.sin(spread)
        tip = root + tip_dir * size * length * curl
        cv2.line(mask, tuple(np.round(root).astype(int)), tuple(np.round(tip).astype(int)), 255,
                 max(2, int(size * 0.13)), cv2.LINE_AA)
    thumb_side = rng.choice([-1, 1])
    thumb_root = palm + side * thumb_side * size * 0.25
    thumb_tip = thumb_root + (side * thumb_side * 0.6 + fwd * 0.5) * size * 0.5
    cv2.line(mask, tuple(np.round(thumb_root).astype(int)), tuple(np.round(thumb_tip).astype(int)),
             255, max(2, int(size * 0.15)), cv2.LINE_AA)
    ys, xs = np.nonzero(mask >= 128)
    if len(ys) == 0:
        return Layer((0, 0), np.zeros((0, 0), bool))
    x0, y0, x1, y1 = xs.min(), ys.min(), xs.max() + 1, ys.max() + 1
    alpha = mask[y0:y1, x0:x1, None].astype(np.float32) / 255.0
    skin = np.array(rng.choice([[140, 170, 225], [110, 145, 200], [80, 110, 160], [60, 80, 120],
                                [150, 185, 235]]), np.float32) * rng.uniform(0.85, 1.1)
    shade = 0.8 + 0.35 * _value_noise(y1 - y0, x1 - x0, rng, 3)[..., None]
    region = canvas[y0:y1, x0:x1].astype(np.float32)
    painted = region * (1 - alpha) + skin * shade * alpha
    canvas[y0:y1, x0:x1] = np.clip(painted, 0, 255).astype(np.uint8)
    covered = alpha[..., 0] >= 0.5
    return Layer((int(x0), int(y0)), covered, area=float(np.count_nonzero(covered)))


def apply_camera(image: NDArray[np.uint8], rng: np.random.Generator, strength: float = 1.0
                 ) -> NDArray[np.uint8]:
    """A new image as a webcam would deliver it.

    Light level and white balance, an uneven light ramp, soft shadows, glare, blur (focus or
    motion), sensor noise and JPEG compression, each drawn from ``rng``.

    Args:
        image: the composed BGR scene.
        rng: source of randomness.
        strength: 0 returns a copy; 1 gives the training distribution.
    """
    if strength <= 0:
        return image.copy()
    h, w = image.shape[:2]
    out = image.astype(np.float32)
    gains = 1 + strength * rng.uniform(-0.15, 0.15, 3)
    out *= gains * (1 + strength * rng.uniform(-0.35, 0.2))
    # uneven light: a gradient across the table plus soft shadows of heads and arms
    a = rng.uniform(0, 2 * math.pi)
    xs = (np.arange(w, dtype=np.float32) - w / 2) * math.cos(a) / max(h, w)
    ys = (np.arange(h, dtype=np.float32) - h / 2) * math.sin(a) / max(h, w)
    ramp = ys[:, None] + xs[None, :]
    light = 1 + strength * rng.uniform(0, 0.5) * ramp
    if rng.random() < 0.4 * strength:
        blob = np.zeros((h, w), np.float32)
        centre = (int(rng.uniform(0, w)), int(rng.uniform(0, h)))
        axes = (int(rng.uniform(0.15, 0.5) * w), int(rng.uniform(0.15, 0.5) * h))
        cv2.ellipse(blob, centre, axes, rng.uniform(0, 180), 0, 360, 1.0, -1)
        k = int(min(h, w) * 0.15) * 2 + 1
        light *= 1 - rng.uniform(0.2, 0.5) * cv2.GaussianBlur(blob, (k, k), 0)
    out *= light[..., None]
    if rng.random() < 0.35 * strength:  # glare on glossy cards
        glare = np.zeros((h, w), np.float32)
        centre = (int(rng.uniform(0, w)), int(rng.uniform(0, h)))
        r = int(rng.uniform(0.05, 0.25) * min(h, w))
        axes = (r, int(r * rng.uniform(0.4, 1)))
        cv2.ellipse(glare, centre, axes, rng.uniform(0, 180), 0, 360, 1.0, -1)
        k = r // 2 * 2 + 1
        out += rng.uniform(40, 130) * cv2.GaussianBlur(glare, (k, k), 0)[..., None]
    gamma = math.exp(strength * rng.uniform(-0.25, 0.25))
    out = 255.0 * (np.clip(out, 0, 255) / 255.0) ** gamma
    blur = rng.random()
    if blur < 0.35 * strength:
        sigma = rng.uniform(0.4, 1.3)
        out = np.asarray(cv2.GaussianBlur(out, (0, 0), sigma), np.float32)
    elif blur < 0.5 * strength:  # motion blur of a hand-held or vibrating camera
        length = int(rng.integers(3, 8))
        kernel = np.zeros((length, length), np.float32)
        kernel[length // 2, :] = 1 / length
        rot = cv2.getRotationMatrix2D((length / 2 - 0.5, length / 2 - 0.5), rng.uniform(0, 180), 1)
        kernel = np.asarray(cv2.warpAffine(kernel, rot, (length, length)), np.float32)
        out = np.asarray(cv2.filter2D(out, -1, kernel / max(kernel.sum(), 1e-6)), np.float32)
    out += rng.standard_normal(out.shape, np.float32) * (strength * rng.uniform(0, 7))
    result = np.clip(out, 0, 255).astype(np.uint8)
    if rng.random() < 0.7 * strength:
        quality = int(rng.integers(35, 95))
        ok, buf = cv2.imencode(".jpg", result, [cv2.IMWRITE_JPEG_QUALITY, quality])
        if ok:
            result = np.asarray(cv2.imdecode(buf, cv2.IMREAD_COLOR), np.uint8)
    return result


# ---------------------------------------------------------------- training scenes


@dataclass(frozen=True, slots=True)
class SceneConfig:
    """Distribution of generated training scenes."""

    width: int = 320
    """Tile width in pixels."""
    height: int = 320
    """Tile height in pixels."""
    card_height: tuple[float, float] = (56.0, 250.0)
    """Range of card heights in pixels (drawn log-uniformly per scene)."""
    upright: float = 0.85
    """Share of plays turned at most ±45° from upright (the seat-zone canonical view); the rest
    lie at any angle."""
    max_cards: int = 12
    """Most cards in one play."""
    pile: float = 0.4
    """Chance of a pile of earlier plays under the new ones."""
    gathered: float = 0.15
    """Chance of a gathered trick: a squared stack of face-down cards, which is one card back
    to the camera (only its top card shows enough to be labelled)."""
    hand: float = 0.35
    """Chance of a hand reaching over the cards."""
    clutter: float = 0.25
    """Chance of unrelated objects (paper, phone, chips) on the table."""
    face_down: float = 0.05
    """Chance of any one card lying face down."""
    camera: float = 1.0
    """Strength of :func:`apply_camera`."""


@dataclass(frozen=True, slots=True)
class Scene:
    """One generated image with its labels."""

    image: NDArray[np.uint8]
    """BGR image."""
    boxes: NDArray[np.float32]
    """``(n, 4)`` visible-region boxes ``x1, y1, x2, y2`` of the readable cards."""
    class_ids: NDArray[np.int_]
    """``(n,)`` class ids of those cards."""
    cards: tuple[VisibleCard, ...] = field(default=())
    """Every card in the scene, readable or not, bottom first."""
    plays: NDArray[np.int_] = field(default_factory=lambda: np.zeros(0, np.int_))
    """``(n,)`` which play of the scene each labelled card belongs to (0, 1, ... in the order
    they were laid), or :data:`~vision.synth.labels.NO_PLAY` for a card of a pile or a
    gathered stack."""


def _play_ranks(rng: np.random.Generator, count: int) -> list[str]:
    """Ranks of one play: mostly n of a kind (with 2s and jokers attached), sometimes a mix."""
    if rng.random() < 0.6:
        base = str(rng.choice(RANKS[:13]))
        ranks = [base] * count
        if count > 1 and rng.random() < 0.35:
            extra = int(rng.integers(1, count))
            ranks[:extra] = [str(rng.choice(("2", "SJ", "BJ"))) for _ in range(extra)]
        return ranks
    return [str(rng.choice(RANKS)) for _ in range(count)]


def _put_cards(canvas: NDArray[np.uint8], rng: np.random.Generator, quads: Sequence[Quad],
               ranks: Sequence[str], styles: Sequence[DeckStyle], face_down: float) -> list[Layer]:
    layers = []
    for quad, rank in zip(quads, ranks):
        style = styles[int(rng.integers(0, len(styles)))]
        suit = str(rng.choice(SUITS))
        shadow = float(rng.uniform(0.1, 0.45))
        layers.append(place_card(canvas, rank, suit, style, quad, face_up=rng.random() >= face_down,
                                 shadow=shadow))
    return layers


def _clutter(canvas: NDArray[np.uint8], rng: np.random.Generator, scale: float) -> None:
    h, w = canvas.shape[:2]
    for _ in range(int(rng.integers(1, 4))):
        centre = (float(rng.uniform(0, w)), float(rng.uniform(0, h)))
        kind = rng.integers(0, 3)
        if kind == 0:  # a sheet of paper with lines of writing: card-like but no index
            quad = card_quad(centre, scale * rng.uniform(1.2, 2.5), rng.uniform(0, 360))
            sheet = np.full((CARD_HEIGHT, CARD_WIDTH, 4), 255, np.uint8)
            sheet[..., :3] = rng.integers(200, 256)
            for y in range(40, CARD_HEIGHT - 30, 22):
                end = int(rng.integers(80, CARD_WIDTH - 25))
                cv2.line(sheet, (25, y), (end, y), (60, 60, 60, 255), 3)
            paste_card(canvas, sheet, quad, class_id=-1, shadow=0.2)
        elif kind == 1:  # a phone
            quad = card_quad(centre, scale * rng.uniform(1.3, 1.8), rng.uniform(0, 360))
            cv2.fillPoly(canvas, [np.round(quad).astype(np.int32)], rng.integers(0, 60, 3).tolist(),
                         cv2.LINE_AA)
        else:  # chips or coins
            for _ in range(int(rng.integers(2, 8))):
                x = int(centre[0] + rng.normal(0, scale * 0.4))
                y = int(centre[1] + rng.normal(0, scale * 0.4))
                radius = int(scale * rng.uniform(0.12, 0.25))
                colour = rng.integers(0, 256, 3).tolist()
                cv2.circle(canvas, (x, y), radius, colour, -1, cv2.LINE_AA)


def generate_scene(seed: int | np.random.Generator, config: SceneConfig | None = None,
                   styles: Sequence[DeckStyle] | None = None) -> Scene:
    """One training tile: a seat zone seen from above with the player at the bottom.

    Args:
        seed: an integer seed or a generator; the same seed gives the same scene.
        config: the distribution to draw from (default :class:`SceneConfig`).
        styles: deck styles to draw cards from (one or two per scene); by default two random
            styles plus the named ones.
    """
    rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
    config = config or SceneConfig()
    if styles is None:
        styles = [*DECK_STYLES, random_deck_style(rng), random_deck_style(rng)]
    picked = [styles[int(rng.integers(0, len(styles)))]]
    if rng.random() < 0.2:  # four decks in play need not share one design
        picked.append(styles[int(rng.integers(0, len(styles)))])
    w, h = config.width, config.height
    canvas = make_table_texture(w, h, rng, angle=float(rng.uniform(0, 180)))
    low, high = config.card_height
    card_h = float(math.exp(rng.uniform(math.log(low), math.log(high))))
    if rng.random() < config.clutter:
        _clutter(canvas, rng, card_h)
    # a mild overhead perspective shared by everything on the table
    corners = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    jitter = rng.uniform(-0.06, 0.06, (4, 2)) * [w, h]
    perspective = cv2.getPerspectiveTransform(corners, (corners + jitter).astype(np.float32))

    def project(quads: list[Quad]) -> list[Quad]:
        return [cv2.perspectiveTransform(q[None], perspective)[0] for q in quads]

    layers: list[Layer] = []
    if rng.random() < config.pile:
        count = int(rng.integers(3, 16))
        centre = (rng.uniform(0, w), rng.uniform(0, h * 0.7))
        quads = []
        for _ in range(count):  # a loose heap at any angle
            x = centre[0] + rng.normal(0, card_h * 0.5)
            y = centre[1] + rng.normal(0, card_h * 0.4)
            quads.append(card_quad((x, y), card_h * rng.uniform(0.9, 1.1), rng.uniform(0, 360)))
        ranks = [str(rng.choice(RANKS)) for _ in range(count)]
        layers += _put_cards(canvas, rng, project(quads), ranks, picked, config.face_down * 3)
    if rng.random() < config.gathered:  # squared by hand: each card a little off the one below
        count = int(rng.integers(4, 30))
        x, y = rng.uniform(0, (w, h))
        angle = float(rng.uniform(0, 360))
        shifts, turns = rng.normal(0, card_h * 0.03, (count, 2)), rng.normal(0, 3, count)
        quads = [card_quad((x + dx, y + dy), card_h, angle + turn)
                 for (dx, dy), turn in zip(shifts, turns)]
        back = render_back(picked[0])
        layers += [paste_card(canvas, back, quad, class_id=BACK_CLASS_ID, shadow=0.15)
                   for quad in project(quads)]
    play_of_layer = [NO_PLAY] * len(layers)  # the cards laid from here on are plays
    for play in range(int(rng.choice([1, 1, 1, 2, 2, 3]))):
        count = int(rng.integers(1, config.max_cards + 1))
        if rng.random() < config.upright:
            angle = float(rng.uniform(-45, 45)) + (180.0 if rng.random() < 0.15 else 0.0)
        else:
            angle = float(rng.uniform(0, 360))
        layout = rng.random()
        if layout < 0.55:
            spacing = float(rng.uniform(0.2, 0.35))
        elif layout < 0.85:
            spacing = float(rng.uniform(0.35, 0.7))
        else:
            spacing = float(rng.uniform(1.0, 1.15))
        if rng.random() < 0.25:
            spacing = -spacing
        arc = float(rng.normal(0, 4)) if rng.random() < 0.4 else 0.0
        drop = float(rng.normal(0, 0.04))
        height = card_h * float(rng.uniform(0.9, 1.1))
        centre = (float(rng.uniform(0.1, 0.9) * w), float(rng.uniform(0.15, 0.9) * h))
        quads = fan_quads(count, centre, height, angle, spacing=spacing, arc=arc, drop=drop)
        # laid by hand, not by a machine
        quads = [q + rng.normal(0, height * 0.01, (1, 2)) for q in quads]
        if rng.random() < 0.2:
            quads = quads[::-1]  # the fan laid from the other end: earlier cards on top
        layers += _put_cards(canvas, rng, project(quads), _play_ranks(rng, count), picked,
                             config.face_down)
        play_of_layer += [play] * count
    if rng.random() < config.hand:
        for _ in range(int(rng.integers(1, 3))):
            edge_x = float(rng.uniform(0, w))
            wrist = (edge_x, float(h + rng.uniform(-0.2, 0.3) * card_h))
            direction = float(rng.normal(0, 30))
            if rng.random() < 0.3:  # someone else's hand, from any side
                wrist = (float(rng.uniform(0, w)), float(rng.uniform(0, h)))
                direction = float(rng.uniform(0, 360))
            layers.append(draw_hand(canvas, rng, wrist, direction, card_h * rng.uniform(0.6, 1.0)))
    cards = visible_cards(layers, (h, w))
    image = apply_camera(canvas, rng, config.camera)
    readable = [c for c in cards if c.readable]
    boxes = np.array([c.box for c in readable], np.float32).reshape(-1, 4)
    class_ids = np.array([c.class_id for c in readable], np.int_)
    plays = np.array([play_of_layer[c.layer] for c in readable], np.int_)  # hands come last
    return Scene(image=image, boxes=boxes, class_ids=class_ids, cards=tuple(cards), plays=plays)
