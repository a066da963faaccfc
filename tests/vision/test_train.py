"""Training helpers that need no training: real-photo split and remap, model yaml, model card."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from assistant.cli import build_parser, main
from assistant.commands.train import _real_dir
from vision.classes import CLASS_NAMES, class_id
from vision.train import (
    REAL_DIR,
    TILE_SIDE,
    ModelSpec,
    checkpoint_record,
    export,
    grow,
    grow_into,
    model_yaml,
    one_to_one_trains_features,
    prepare_data,
    prepare_real,
    read_results_csv,
    real_split,
    write_model_card,
)


@pytest.fixture
def real_dir(tmp_path: Path) -> Path:
    """A miniature copy of the real-photo layout: six photos, one card each, its own class ids."""
    root = tmp_path / "real"
    (root / "images").mkdir(parents=True)
    (root / "labels").mkdir()
    (root / "classes.txt").write_text("nine\nten\njack\nqueen\nking\nace\n")
    for k in range(6):
        cv2.imwrite(str(root / "images" / f"IMG_{k}.JPG"), np.full((8, 8, 3), k * 40, np.uint8))
        (root / "labels" / f"IMG_{k}.txt").write_text(f"{k} 0.5 0.5 0.25 0.5\n")
    return root


def test_real_split_holds_out_every_third_photo_and_never_overlaps(real_dir: Path):
    trained, held_out = real_split(real_dir)
    assert [p.name for p in held_out] == ["IMG_0.JPG", "IMG_3.JPG"]
    assert not set(trained) & set(held_out) and len(trained) + len(held_out) == 6
    assert real_split(real_dir) == (trained, held_out)


def test_prepare_real_remaps_classes_and_repeats_training_photos(real_dir: Path, tmp_path: Path):
    train_images, val_yaml = prepare_real(tmp_path / "out", real_dir, repeat=2)
    # nine..ace are ids 0..5 there, ranks 9..A here
    nine = (tmp_path / "out/val/labels/IMG_0.txt").read_text()
    assert nine == f"{class_id('9')} 0.5 0.5 0.25 0.5\n"
    assert (tmp_path / "out/val/labels/IMG_3.txt").read_text().split()[0] == str(class_id("Q"))
    assert sorted(p.name for p in train_images.iterdir()) == [
        f"IMG_{k}-{r}.jpg" for k in (1, 2, 4, 5) for r in (0, 1)]
    assert (tmp_path / "out/train/labels/IMG_5-1.txt").read_text().split()[0] == str(class_id("A"))
    assert "val:" in val_yaml.read_text() and "  15: 'back'" in val_yaml.read_text()


@pytest.mark.slow  # importing Ultralytics (and torch) alone takes tens of seconds on 2 cores
def test_model_yaml_has_our_classes_and_scale(tmp_path: Path):
    pytest.importorskip("ultralytics")
    import yaml

    cfg = yaml.safe_load(model_yaml(ModelSpec("yolov8", 0.125, 0.33), tmp_path).read_text())
    assert cfg["nc"] == len(CLASS_NAMES) and cfg["width_multiple"] == 0.125 and "scales" not in cfg
    with pytest.raises(ValueError, match="unknown model family"):
        model_yaml(ModelSpec("yolo99"), tmp_path)


def test_model_card_states_data_command_figures_and_head(tmp_path: Path):
    card = tmp_path / "README.md"
    write_model_card(card, onnx=tmp_path / "gouji-cards.onnx", weights=tmp_path / "best.pt",
                     imgsz=640, command="gouji train --real", figures={"synthetic_val_mAP50": 0.5})
    text = card.read_text()
    assert "gouji train --real" in text and '"synthetic_val_mAP50": 0.5' in text
    assert "(1, 20, N)" in text and "Exported 20" in text


def test_model_card_of_a_one_class_detector_names_its_classifier(tmp_path: Path):
    card = tmp_path / "gouji-cards.md"
    write_model_card(card, onnx=tmp_path / "gouji-cards.onnx", weights=tmp_path / "best.pt",
                     imgsz=640, command="gouji train --one-class", figures={}, one_class=True)
    text = card.read_text()
    assert "(1, 5, N)" in text and "gouji-ranks.onnx" in text and "`gouji eval`" in text


def test_model_card_of_an_end_to_end_export_names_its_head(tmp_path: Path):
    card = tmp_path / "gouji-cards.md"
    write_model_card(card, onnx=tmp_path / "gouji-cards.onnx", weights=tmp_path / "best.pt",
                     imgsz=640, command="gouji train --export-only best.pt --end-to-end",
                     figures={}, one_class=True, end_to_end=True)
    text = card.read_text()
    assert "one-to-one head: output `(1, N, 6)`" in text and "no NMS" in text
    assert "(1, 5, N)" not in text


def test_the_end_to_end_head_is_chosen_only_for_an_export(capsys: pytest.CaptureFixture[str]):
    assert build_parser().parse_args(["train", "--export-only", "best.pt", "--end-to-end"]
                                     ).end_to_end
    assert main(["train", "--end-to-end", "--hours", "0.1"]) == 2
    assert capsys.readouterr().err == ("gouji train: error: --end-to-end chooses the head of an "
                                       "--export-only export\n")


def test_exporting_a_checkpoint_leaves_the_model_beside_it_alone(tmp_path: Path):
    # Exporting models/gouji-cards.pt elsewhere must not take models/gouji-cards.onnx with it.
    ultralytics = pytest.importorskip("ultralytics")
    shipped = tmp_path / "models"
    shipped.mkdir()
    model = ultralytics.YOLO(str(model_yaml(ModelSpec("yolo26", 0.125, 0.33), tmp_path)))
    model.save(shipped / "gouji-cards.pt")
    (shipped / "gouji-cards.onnx").write_bytes(b"the shipped model")
    out = export(shipped / "gouji-cards.pt", tmp_path / "e2e" / "gouji-cards.onnx", imgsz=64,
                 end_to_end=True)
    assert (shipped / "gouji-cards.onnx").read_bytes() == b"the shipped model"
    assert out.is_file() and out.stat().st_size > 1000 and out.with_suffix(".md").is_file()


def test_the_one_to_one_heads_loss_reaches_the_backbone_only_when_asked(tmp_path: Path):
    ultralytics = pytest.importorskip("ultralytics")
    import torch

    net = ultralytics.YOLO(str(model_yaml(ModelSpec("yolo26", 0.125, 0.33), tmp_path))).model
    net.train()
    stem = net.model[0].conv.weight

    def stem_gradient_of_the_one_to_one_head() -> float:
        net.zero_grad()
        one2one = net(torch.rand(1, 3, 64, 64))["one2one"]
        (one2one["boxes"].sum() + one2one["scores"].sum()).backward()
        return 0.0 if stem.grad is None else float(stem.grad.abs().sum())

    assert stem_gradient_of_the_one_to_one_head() == 0.0  # Ultralytics detaches it
    with one_to_one_trains_features():
        assert stem_gradient_of_the_one_to_one_head() > 0.0
        net.eval()
        with torch.no_grad():  # inference is untouched
            assert net(torch.rand(1, 3, 64, 64))[0].shape[0] == 1
        net.train()
    assert stem_gradient_of_the_one_to_one_head() == 0.0


def test_a_grown_detector_computes_what_it_grew_from(tmp_path: Path):
    ultralytics = pytest.importorskip("ultralytics")
    import torch

    trained = ultralytics.YOLO(str(model_yaml(ModelSpec("yolo26", 0.125, 0.5), tmp_path,
                                              classes=1)))
    with torch.no_grad():  # as if trained: no layer left at its initial values
        for parameter in trained.model.parameters():
            parameter.add_(0.05 * torch.randn_like(parameter))
    trained.save(tmp_path / "trained.pt")
    path = grow(tmp_path / "trained.pt", ModelSpec("yolo26", 0.125, 1.0), tmp_path / "grown")
    grown = ultralytics.YOLO(str(path))
    def inner_blocks(model: ultralytics.YOLO) -> int:
        return sum(len(m.m) for m in model.model.modules()
                   if type(m).__name__ in ("C3k2", "C2PSA"))

    assert inner_blocks(grown) > inner_blocks(trained)
    assert grown.names == trained.names
    image = torch.rand(1, 3, 96, 96)
    with torch.no_grad():
        before = ultralytics.YOLO(str(tmp_path / "trained.pt")).model.float().eval()(image)[0]
        after = grown.model.float().eval()(image)[0]
    assert torch.allclose(before, after, atol=1e-3 * float(before.abs().max()))


def test_only_the_depth_of_a_detector_may_grow(tmp_path: Path):
    ultralytics = pytest.importorskip("ultralytics")

    narrow, wide = (ultralytics.YOLO(str(model_yaml(ModelSpec("yolo26", width, 0.5), tmp_path)))
                    for width in (0.125, 0.25))
    with pytest.raises(ValueError, match="only the depth may grow"):
        grow_into(narrow.model, wide.model)


@pytest.mark.parametrize(("argv", "missing"), [
    (["train", "--one-class", "--hours", "0.1"], "torch, ultralytics are"),
    (["train-ranks", "--epochs", "1"], "torch is"),
])
def test_training_without_the_train_extra_fails_before_any_tile_is_made(
        argv: list[str], missing: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("importlib.util.find_spec", lambda name, *args: None)
    assert main(argv) == 2
    assert capsys.readouterr().err == (f"gouji {argv[0]}: error: needs the [train] extra, and "
                                       f"{missing} not installed: pip install -e \".[train]\"\n")
    assert not Path("datasets").exists()


def test_growing_needs_the_weights_it_grows_from(capsys: pytest.CaptureFixture[str]):
    assert main(["train", "--grow", "--depth", "1.0", "--hours", "0.1"]) == 2
    assert "--grow starts the deeper model from --weights" in capsys.readouterr().err


def test_a_checkpoints_own_record_gives_its_epochs_figures_and_arguments():
    # A best.pt copied out of a run after epoch 6: its record, not the run's later epochs.
    checkpoint = {"train_results": {"epoch": [1, 2, 3, 4, 5, 6]},
                  "train_metrics": {"metrics/mAP50(B)": 0.95, "metrics/mAP50-95(B)": 0.74},
                  "train_args": {"epochs": 7, "batch": 16}}
    record = checkpoint_record(checkpoint)
    assert record["epochs"] == 6 and record["metrics"]["metrics/mAP50(B)"] == 0.95
    assert record["args"] == {"epochs": 7, "batch": 16}
    assert checkpoint_record({}) == {"epochs": None, "metrics": {}, "args": {}}


def test_the_tile_side_is_the_one_the_generator_and_the_commands_use():
    # vision.train keeps the side as a constant so as not to import the generator with it.
    from vision.synth import SceneConfig

    assert (SceneConfig().width, SceneConfig().height) == (TILE_SIDE, TILE_SIDE)
    assert build_parser().parse_args(["train"]).imgsz == TILE_SIDE
    assert build_parser().parse_args(["synth", "--seed", "1", "--count", "1",
                                      "--out", "x"]).size == TILE_SIDE


def test_model_card_tells_the_scale_its_cards_were_learnt_at(tmp_path: Path):
    card = tmp_path / "gouji-cards.md"
    write_model_card(card, onnx=tmp_path / "gouji-cards.onnx", weights=tmp_path / "best.pt",
                     imgsz=640, command="", figures={}, one_class=True)
    assert "learnt at native scale" in card.read_text() and "(at 320)" in card.read_text()
    write_model_card(card, onnx=tmp_path / "gouji-cards.onnx", weights=tmp_path / "best.pt",
                     imgsz=640, command="", figures={}, one_class=True, trained_at=480)
    text = card.read_text()
    assert "learnt enlarged 1.5 times" in text and "(at 480)" in text
    assert "native scale" not in text


def test_model_card_lists_the_training_arguments(tmp_path: Path):
    card = tmp_path / "gouji-cards.md"
    write_model_card(card, onnx=tmp_path / "gouji-cards.onnx", weights=tmp_path / "best.pt",
                     imgsz=640, command="", figures={}, train_args={"imgsz": 320, "batch": 16})
    assert '"imgsz": 320' in card.read_text() and '"batch": 16' in card.read_text()


def test_prepare_data_lists_every_training_set_and_the_held_out_one(real_dir: Path, tmp_path: Path):
    data = prepare_data(tmp_path, seeds=[1, 3], count=2, val_seed=2, val_count=2, real=True,
                        real_dir=real_dir, workers=1).read_text()
    for folder in ("synth-s1-n2/images", "synth-s3-n2/images", "real-cards-edje/train/images"):
        assert f"{tmp_path / folder}" in data
    assert f"val: {tmp_path / 'synth-s2-n2/images'}" in data
    with pytest.raises(ValueError, match="held-out seed 2 is also a training seed"):
        prepare_data(tmp_path, seeds=[2], count=2, val_seed=2, val_count=2)


def test_results_csv_reads_as_ultralytics_records_it(tmp_path: Path):
    # What Ultralytics appends after each epoch ("%.6g" numbers), read without polars.
    csv = tmp_path / "results.csv"
    csv.write_text("epoch,time,metrics/mAP50(B),lr/pg0\n1,26.2614,0.87418,0.002\n"
                   "2,51.9,0.9,1e-05\n")
    assert read_results_csv(csv) == {"epoch": [1, 2], "time": [26.2614, 51.9],
                                     "metrics/mAP50(B)": [0.87418, 0.9], "lr/pg0": [0.002, 1e-05]}
    assert checkpoint_record({"train_results": read_results_csv(csv)})["epochs"] == 2
    assert read_results_csv(tmp_path / "missing.csv") == {}
    csv.write_text("epoch,time\n1,2.5\n2\n")  # a row cut short
    assert read_results_csv(csv) == {}


def test_training_commands_take_a_device_workers_and_the_real_photos(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch):
    parse = build_parser().parse_args
    args = parse(["train-ranks", "--device", "cuda", "--workers", "3"])
    assert (args.device, args.workers) == ("cuda", 3)
    assert (parse(["train-ranks"]).device, parse(["train-ranks"]).workers) == ("cpu", 1)
    monkeypatch.delenv("GOUJI_REAL_CARDS", raising=False)
    assert _real_dir(args) == REAL_DIR
    monkeypatch.setenv("GOUJI_REAL_CARDS", str(tmp_path / "env"))
    assert _real_dir(args) == tmp_path / "env"
    assert _real_dir(parse(["train", "--real-dir", str(tmp_path / "opt")])) == tmp_path / "opt"
