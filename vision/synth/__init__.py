"""Synthetic card data: card faces, table scenes with exact visible-region labels, YOLO datasets.

Public API (stable; used by the training data writer and by the scripted-game video renderer):

Cards (:mod:`vision.synth.cards`)
    ``render_card(rank, suit, style) -> BGRA``, ``render_back(style) -> BGRA`` (cached, read-only,
    ``CARD_HEIGHT x CARD_WIDTH`` = 350 x 250, alpha = silhouette); ``DeckStyle``, ``DECK_STYLES``
    (named decks), ``random_deck_style(rng)``; ``index_regions(rank, style)`` (corner index
    rectangles in card pixels); ``RANKS``, ``SUITS``.
Scenes (:mod:`vision.synth.scene`)
    ``make_table_texture(width, height, rng, kind=None, angle=0) -> BGR`` (``angle`` turns a
    cloth's checks and the grout of tiles);
    ``card_quad(centre, height, angle) -> (4, 2)`` corners; ``fan_quads(count, centre, height,
    angle, spacing=, arc=, drop=)`` -> quads of a fanned play, bottom card first;
    ``place_card(canvas, rank, suit, style, quad, face_up=True) -> Layer`` (renders + pastes in
    place) and the lower-level ``paste_card(canvas, bgra, quad, class_id=, regions=)``;
    ``draw_hand(canvas, rng, wrist, direction, size) -> Layer`` (an occluder);
    ``apply_camera(image, rng, strength) -> BGR`` (new image);
    ``generate_scene(seed, SceneConfig(), styles=None) -> Scene`` (a training tile with labels,
    and the play each labelled card belongs to, ``NO_PLAY`` for piles and gathered stacks).
Labels (:mod:`vision.synth.labels`)
    ``visible_cards(layers, (height, width)) -> list[VisibleCard]`` from a stack of layers, bottom
    first: each card's visible box, visible fraction and whether it is readable (labelled);
    ``yolo_lines(cards, (height, width))``; ``hidden_lines`` for the cards in view but not
    readable.
Datasets (:mod:`vision.synth.dataset`)
    ``write_dataset(out, seed=, count=, config=, workers=) -> DatasetSummary``.

A video frame with its truth, e.g. 1280 x 720 with a fanned play of five tens::

    rng = np.random.default_rng(seed)
    canvas = make_table_texture(1280, 720, rng)        # once per video; copy it per frame
    style = DECK_STYLES[0]
    frame = canvas.copy()
    layers = [place_card(frame, "T", suit, style, quad)
              for suit, quad in zip("SHHDC", fan_quads(5, (640, 360), 150, angle=20))]
    truth = [c for c in visible_cards(layers, frame.shape[:2]) if c.readable]
    image = apply_camera(frame, rng, strength=0.5)

Cards are best at least ~100 px tall in the image the detector sees (its corner index then
spans ~12-20 px); the detector is trained on cards 56-250 px tall.
"""

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
from vision.synth.dataset import DatasetSummary, write_dataset
from vision.synth.labels import (
    NO_PLAY,
    Layer,
    VisibleCard,
    hidden_lines,
    visible_cards,
    yolo_lines,
)
from vision.synth.scene import (
    TEXTURE_KINDS,
    Scene,
    SceneConfig,
    apply_camera,
    card_quad,
    draw_hand,
    fan_quads,
    generate_scene,
    make_table_texture,
    paste_card,
    place_card,
)

__all__ = [
    "CARD_HEIGHT",
    "CARD_WIDTH",
    "DECK_STYLES",
    "NO_PLAY",
    "RANKS",
    "SUITS",
    "TEXTURE_KINDS",
    "DatasetSummary",
    "DeckStyle",
    "Layer",
    "Scene",
    "SceneConfig",
    "VisibleCard",
    "apply_camera",
    "card_quad",
    "draw_hand",
    "fan_quads",
    "generate_scene",
    "hidden_lines",
    "index_regions",
    "make_table_texture",
    "paste_card",
    "place_card",
    "random_deck_style",
    "render_back",
    "render_card",
    "visible_cards",
    "write_dataset",
    "yolo_lines",
]
