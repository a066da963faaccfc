"""The synthetic card generator: faces, exact visible-region labels, determinism, YOLO files."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from assistant.cli import main
from vision.classes import BACK_CLASS_ID, CLASS_NAMES, class_id
from vision.evaluate import load_yolo_folder
from vision.synth import (
    CARD_HEIGHT,
    CARD_WIDTH,
    DECK_STYLES,
    NO_PLAY,
    RANKS,
    TEXTURE_KINDS,
    Layer,
    SceneConfig,
    card_quad,
    dataset,
    fan_quads,
    generate_scene,
    index_regions,
    make_table_texture,
    place_card,
    render_back,
    render_card,
    visible_cards,
    write_dataset,
    yolo_lines,
)

STYLE = DECK_STYLES[0]


def _table(width: int = 480, height: int = 360) -> np.ndarray:
    return make_table_texture(width, height, np.random.default_rng(0), "felt")


@pytest.mark.parametrize("style", DECK_STYLES, ids=lambda s: s.name)
def test_every_class_renders_distinctly_in_every_named_style(style):
    faces = [render_card(rank, "H", style) for rank in RANKS] + [render_back(style)]
    for face in faces:
        assert face.shape == (CARD_HEIGHT, CARD_WIDTH, 4)
        assert face[CARD_HEIGHT // 2, CARD_WIDTH // 2, 3] == 255   # opaque middle
        assert face[0, 0, 3] < 128                                  # rounded-off corner
    # each class looks different from every other one
    flat = [f[..., :3].astype(np.int16) for f in faces]
    for i in range(len(flat)):
        for j in range(i + 1, len(flat)):
            assert np.abs(flat[i] - flat[j]).mean() > 1.0, (i, j)


def _chroma(image: np.ndarray) -> float:
    """Mean colourfulness: spread between the largest and smallest channel."""
    pixels = image[..., :3].astype(np.int16)
    return float((pixels.max(axis=2) - pixels.min(axis=2)).mean())


def test_big_joker_is_coloured_small_joker_is_monochrome():
    for style in DECK_STYLES:
        big, small = render_card("BJ", None, style), render_card("SJ", None, style)
        assert _chroma(big) > 2 * _chroma(small), style.name


def test_render_card_rejects_bad_rank_and_suit():
    with pytest.raises(ValueError, match="unknown rank '1'"):
        render_card("1", "H", STYLE)
    with pytest.raises(ValueError, match="unknown suit 'X'"):
        render_card("5", "X", STYLE)


@pytest.mark.parametrize("kind", TEXTURE_KINDS)
def test_table_textures(kind):
    texture = make_table_texture(64, 48, np.random.default_rng(1), kind)
    assert texture.shape == (48, 64, 3) and texture.dtype == np.uint8


def test_a_tables_pattern_turns_with_its_angle():
    def lines_along_the_axes(texture):     # whole rows or columns of one colour: grout lines
        flat = texture.astype(int)
        rows = (np.abs(np.diff(flat, axis=1)).max(axis=(1, 2)) == 0).sum()
        columns = (np.abs(np.diff(flat, axis=0)).max(axis=(0, 2)) == 0).sum()
        return rows + columns

    def tiles(**angle):
        return make_table_texture(400, 400, np.random.default_rng(3), "tile", **angle)

    assert np.array_equal(tiles(angle=0.0), tiles())       # upright by default, as before
    assert lines_along_the_axes(tiles()) >= 4               # two lines of 2 px each way at least
    assert lines_along_the_axes(tiles(angle=35.0)) == 0
    cloth = [make_table_texture(400, 400, np.random.default_rng(3), "cloth", angle=angle)
             for angle in (0.0, 35.0)]
    assert not np.array_equal(*cloth)


@pytest.mark.parametrize("name", CLASS_NAMES)
def test_a_lone_card_is_labelled_with_its_class_and_whole_box(name):
    canvas = _table()
    quad = card_quad((240, 180), 140)   # 100 x 140 pixels, upright
    face_up = name != "back"
    layer = place_card(canvas, "A" if name == "back" else name, "S", STYLE, quad, face_up=face_up)
    [card] = visible_cards([layer], canvas.shape[:2])
    assert card.readable and card.class_id == (BACK_CLASS_ID if name == "back" else class_id(name))
    np.testing.assert_allclose(card.box, (190, 110, 290, 250), atol=1.5)
    assert card.visible == pytest.approx(1.0, abs=0.03)


def test_a_turned_card_keeps_its_own_size_in_its_rotated_rectangle():
    # 100 x 140 turned 30 degrees: its upright box grows to about 152 x 166, while the
    # rectangle at its angle stays the card's own size, which a fan's neighbours overlap less
    canvas = _table()
    quad = card_quad((240, 180), 140, angle=30)
    [card] = visible_cards([place_card(canvas, "Q", "C", STYLE, quad)], canvas.shape[:2])
    cx, cy, w, h, angle = card.rotated
    assert (cx, cy) == pytest.approx((240, 180), abs=1.5)
    assert sorted((w, h)) == pytest.approx((100, 140), abs=2.5)
    assert angle % 90 == pytest.approx(30, abs=1.5) or angle % 90 == pytest.approx(60, abs=1.5)
    x1, y1, x2, y2 = card.box
    assert (x2 - x1) * (y2 - y1) > 1.7 * w * h


def test_a_fully_covered_card_gets_no_box():
    canvas = _table()
    quad = card_quad((240, 180), 140, angle=10)
    under = place_card(canvas, "5", "H", STYLE, quad)
    over = place_card(canvas, "K", "S", STYLE, quad)
    under_card, over_card = visible_cards([under, over], canvas.shape[:2])
    assert not under_card.readable and under_card.visible < 0.02
    assert over_card.readable and over_card.class_id == class_id("K")


def test_fanned_under_card_box_is_its_visible_strip_with_the_corner_index():
    canvas = _table()
    # two upright cards 100 x 140, the top one shifted 30 px to the right
    quads = fan_quads(2, (240, 180), 140, spacing=0.3)
    layers = [place_card(canvas, "T", suit, STYLE, q) for suit, q in zip("HD", quads)]
    under, top = visible_cards(layers, canvas.shape[:2])
    assert under.readable and top.readable
    x1, y1, x2, y2 = under.box
    left = quads[0][0, 0]
    assert x1 == pytest.approx(left, abs=1.5)
    top_left = quads[1][0, 0]
    # it ends where the top card begins, plus what that card's rounded corners leave uncovered
    assert top_left - 1 <= x2 <= top_left + STYLE.corner_radius * 100 + 1
    assert (y1, y2) == pytest.approx((110, 250), abs=1.5)
    index_x1 = left + max(r[2] for r in index_regions("T", STYLE)[:1]) * 100 / CARD_WIDTH
    assert x2 >= index_x1                                      # the strip holds the index
    np.testing.assert_allclose(top.box, (*quads[1][0], *quads[1][2]), atol=1.5)


def test_a_tight_fan_hides_the_index_so_the_card_is_not_labelled():
    canvas = _table()
    quads = fan_quads(2, (240, 180), 140, spacing=0.04)       # 4 px strip: no index to read
    layers = [place_card(canvas, "7", suit, STYLE, q) for suit, q in zip("SC", quads)]
    under, top = visible_cards(layers, canvas.shape[:2])
    assert under.visible > 0 and not under.readable and top.readable


def test_an_occluder_over_both_indices_makes_a_card_unreadable():
    canvas = _table()
    layer = place_card(canvas, "Q", "D", STYLE, card_quad((240, 180), 140))
    cover = np.ones((360, 480), bool)
    cover[140:220, 200:280] = False                            # only the middle stays visible
    hand = Layer(origin=(0, 0), mask=cover)
    [card] = visible_cards([layer, hand], canvas.shape[:2])
    assert not card.readable and 0 < card.visible < 0.6
    assert card.box == (200.0, 140.0, 280.0, 220.0)


def test_cards_cut_by_the_image_border_keep_only_their_inside_part():
    canvas = _table()
    layer = place_card(canvas, "2", "C", STYLE, card_quad((470, 180), 140))   # half outside
    [card] = visible_cards([layer], canvas.shape[:2])
    assert card.box[2] == 480 and card.visible == pytest.approx(0.6, abs=0.05)
    assert card.readable                                       # its top-left index is inside


def test_scenes_are_deterministic_and_labels_are_consistent():
    a, b, c = generate_scene(11), generate_scene(11), generate_scene(12)
    assert np.array_equal(a.image, b.image) and np.array_equal(a.boxes, b.boxes)
    assert not np.array_equal(a.image, c.image)
    readable = [card for card in a.cards if card.readable]
    assert len(readable) == len(a.boxes) == len(a.class_ids)
    assert ((a.boxes[:, 2] > a.boxes[:, 0]) & (a.boxes[:, 3] > a.boxes[:, 1])).all()


def test_a_gathered_stack_shows_as_one_back_and_belongs_to_no_play():
    stacks = 0
    for seed in range(12):
        scene = generate_scene(seed, SceneConfig(gathered=1.0, pile=0.0, hand=0.0, clutter=0.0,
                                                 face_down=0.0))
        stack = scene.plays == NO_PLAY
        assert (scene.class_ids[stack] == BACK_CLASS_ID).all()   # only its top card or two
        assert stack.sum() <= 2 and (scene.class_ids[~stack] != BACK_CLASS_ID).all()
        assert set(scene.plays[~stack]) <= {0, 1, 2}            # up to three plays laid
        stacks += int(stack.any())
    assert stacks >= 4      # in 4 scenes of 10 the top card is mostly off the tile or covered


def test_yolo_dataset_is_well_formed_and_reproducible(tmp_path: Path, monkeypatch):
    monkeypatch.setattr(dataset, "CHUNK", 2)  # two chunks: styles per chunk, two processes
    first = write_dataset(tmp_path / "a", seed=5, count=4)
    write_dataset(tmp_path / "b", seed=5, count=4, workers=2)
    images = sorted((tmp_path / "a" / "images").iterdir())
    assert [p.name for p in images] == [f"{i:06d}.jpg" for i in range(4)]
    total = 0
    for image in images:
        label = tmp_path / "a" / "labels" / f"{image.stem}.txt"
        assert label.read_bytes() == (tmp_path / "b" / "labels" / label.name).read_bytes()
        assert image.read_bytes() == (tmp_path / "b" / "images" / image.name).read_bytes()
        for line in label.read_text().splitlines():
            fields = line.split()
            assert len(fields) == 5 and 0 <= int(fields[0]) < len(CLASS_NAMES)
            assert all(0.0 <= float(v) <= 1.0 for v in fields[1:])
            total += 1
    assert total == first.boxes == sum(first.per_class) > 0
    plays = [load_yolo_folder(tmp_path / name) for name in "ab"]
    assert [item.play.tolist() for item in plays[0]] == [item.play.tolist() for item in plays[1]]
    assert sum(len(item.play) for item in plays[0]) == total
    scene = dataset.dataset_scene(5, 3)                       # what the files of scene 3 came from
    assert (tmp_path / "a" / "labels" / "000003.txt").read_text().splitlines() == \
        yolo_lines(scene.cards, scene.image.shape[:2])
    assert plays[0][3].play.tolist() == scene.plays.tolist()
    hidden = [item.hidden for item in plays[0]]
    assert all(h is not None for h in hidden)
    assert sum(len(h.class_id) for h in hidden) > 0      # cards under fans, hands, the border
    data = (tmp_path / "a" / "data.yaml").read_text()
    assert "train: images" in data and "  15: 'back'" in data


def test_gouji_synth_writes_a_dataset(tmp_path: Path, capsys):
    assert main(["synth", "--seed", "3", "--count", "2", "--out", str(tmp_path / "ds")]) == 0
    assert len(list((tmp_path / "ds" / "labels").glob("*.txt"))) == 2
    assert "wrote 2 images" in capsys.readouterr().out
