"""Training the rank classifier: its crops, a short run, and the exported model read back."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from vision.classifier import CROP_HEIGHT, CROP_WIDTH, RankClassifier, index_crops
from vision.evaluate import load_yolo_folder
from vision.synth import write_dataset

torch = pytest.importorskip("torch")
pytest.importorskip("onnx")

from vision.rank_training import (
    CropSet,
    RankTrainConfig,
    build_network,
    crop_set,
    load_weights,
    train_ranks,
)


@pytest.fixture(scope="module")
def tiles(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("tiles")
    write_dataset(folder, seed=5, count=4)
    return folder


def test_exact_crops_are_the_index_crops_of_the_labelled_boxes(tiles: Path):
    crops = crop_set([tiles], seed=0, jitter=0.0)
    items = load_yolo_folder(tiles)
    assert len(crops) == sum(len(item.class_id) for item in items)
    assert crops.labels.tolist() == np.concatenate([item.class_id for item in items]).tolist()
    import cv2

    first = items[0]
    image = cv2.imread(str(first.path))
    expected = index_crops(image, first.truth(image.shape).xyxy)
    assert np.array_equal(crops.crops[:len(expected)], expected)


def test_disturbed_crops_differ_but_keep_their_labels(tiles: Path):
    exact, moved = crop_set([tiles], seed=0, jitter=0.0), crop_set([tiles], seed=0, repeat=2)
    assert len(moved) == 2 * len(exact)
    assert not np.array_equal(moved.crops[:len(exact)], exact.crops)


def test_a_short_run_exports_a_classifier_with_its_card(tiles: Path, tmp_path: Path):
    crops = crop_set([tiles], seed=0)
    out = train_ranks(RankTrainConfig(train=crops, val={"held": crops}, epochs=1, batch=32,
                                      out=tmp_path / "run", export_to=tmp_path / "ranks.onnx",
                                      command="gouji train-ranks --epochs 1"))
    ranks, probabilities = RankClassifier(out).classify(crops.crops[:3])
    assert ranks.shape == (3,) and ((probabilities > 0) & (probabilities <= 1)).all()
    card = out.with_suffix(".md").read_text()
    assert "gouji train-ranks --epochs 1" in card and '"held_accuracy"' in card
    assert (tmp_path / "run" / "last.pt").is_file() and out.with_suffix(".pt").is_file()


def test_each_epoch_can_train_on_freshly_cut_crops(tiles: Path, tmp_path: Path):
    drawn: list[int] = []

    def epoch_crops(epoch: int) -> CropSet:
        drawn.append(epoch)
        return crop_set([tiles], seed=epoch, limit=1)

    train_ranks(RankTrainConfig(train=epoch_crops, epochs=3, batch=32, out=tmp_path / "run",
                                export_to=tmp_path / "ranks.onnx"))
    assert drawn == [0, 1, 2]
    assert not np.array_equal(epoch_crops(0).crops, epoch_crops(1).crops)


def test_fine_tuning_starts_from_the_saved_weights(tiles: Path, tmp_path: Path):
    crops = crop_set([tiles], seed=0, limit=1)
    first = train_ranks(RankTrainConfig(train=crops, epochs=1, out=tmp_path / "a",
                                        export_to=tmp_path / "a.onnx"))
    again = train_ranks(RankTrainConfig(train=crops, epochs=1, lr=1e-9, out=tmp_path / "b",
                                        weights=first.with_suffix(".pt"),
                                        export_to=tmp_path / "b.onnx"))
    batch = crops.crops[:2]
    assert np.allclose(RankClassifier(first).classify(batch)[1],
                       RankClassifier(again).classify(batch)[1], atol=1e-3)


def _without_refinements(model: torch.nn.Sequential) -> dict[str, torch.Tensor]:
    """``model``'s weights as the network before the refinement blocks numbered them."""
    plain = [i for i, layer in enumerate(model) if not hasattr(layer, "body")]
    return {f"{plain.index(int(key.split('.')[0]))}.{key.split('.', 1)[1]}": value
            for key, value in model.state_dict().items() if int(key.split(".")[0]) in plain}


def test_a_checkpoint_without_refinement_blocks_grows_into_one_that_reads_the_same():
    torch.manual_seed(0)
    trained = build_network()
    for layer in trained:  # stand-in for training: refinements that change the reading
        if hasattr(layer, "body"):
            torch.nn.init.normal_(layer.body[-1].weight)
    earlier = build_network()
    load_weights(earlier, _without_refinements(trained))
    assert all(not layer.body[-1].weight.any() for layer in earlier
               if hasattr(layer, "body"))
    crops = torch.rand(4, 3, CROP_HEIGHT, CROP_WIDTH)
    unrefined = torch.nn.Sequential(*(layer for layer in trained
                                      if not hasattr(layer, "body"))).eval()
    assert torch.allclose(earlier.eval()(crops), unrefined(crops), atol=1e-5)


def test_a_checkpoint_of_another_network_is_refused():
    for state in ({"0.weight": torch.zeros(3)}, {"0.weight": torch.zeros(16, 3, 3, 3)},
                  {"99.weight": torch.zeros(3)}):
        with pytest.raises(ValueError, match="not a rank classifier checkpoint"):
            load_weights(build_network(), state)


def test_crop_sets_concatenate():
    part = CropSet(np.zeros((2, CROP_HEIGHT, CROP_WIDTH, 3), np.uint8), np.array([1, 2]))
    assert CropSet.concatenate([part, part]).labels.tolist() == [1, 2, 1, 2]


def test_no_labelled_boxes_is_an_error(tmp_path: Path):
    import cv2

    (tmp_path / "images").mkdir()
    cv2.imwrite(str(tmp_path / "images" / "empty.jpg"), np.zeros((32, 32, 3), np.uint8))
    with pytest.raises(ValueError, match="no labelled boxes"):
        crop_set([tmp_path], seed=0)
