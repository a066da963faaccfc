"""``gouji synth``, ``gouji train`` and ``gouji train-ranks``: generated card data and training."""

from __future__ import annotations

import argparse
import importlib.util
import shlex
import sys
from pathlib import Path
from typing import Any

from assistant.commands import positive_int

__all__ = ["register"]


def register(subparsers: Any) -> None:
    synth = subparsers.add_parser(
        "synth", help="write a synthetic card dataset (YOLO format)",
        description="Generate table-scene tiles with exact visible-region card labels and write "
                    "them as a YOLO dataset: DIR/images, DIR/labels, DIR/data.yaml, with "
                    "DIR/plays (the play of each labelled card) and DIR/hidden (the cards in "
                    "view too hidden to be labelled) for gouji eval. The same seed and count "
                    "always give the same files.")
    synth.add_argument("--seed", type=int, required=True, help="dataset seed")
    synth.add_argument("--count", type=_non_negative_int, required=True, help="number of images")
    synth.add_argument("--out", type=Path, required=True, metavar="DIR", help="output directory")
    synth.add_argument("--size", type=positive_int, default=320, metavar="PX",
                       help="tile size in pixels (default 320)")
    synth.add_argument("--workers", type=positive_int, default=1, metavar="N",
                       help="generating processes (default 1; the output does not depend on it)")
    synth.set_defaults(func=run_synth)

    train = subparsers.add_parser(
        "train", help="train the card detector (needs the [train] extra)",
        description="Train the YOLO card detector on generated tiles (optionally with the real "
                    "photos mixed in), from scratch, from the shipped weights or resuming a run; "
                    "exports the best checkpoint to models/gouji-cards.onnx with a model card.")
    data = train.add_argument_group("data")
    data.add_argument("--data", type=Path, metavar="YAML",
                      help="an Ultralytics data.yaml (default: generate the sets below)")
    _training_set_options(data)
    data.add_argument("--val-seed", type=int, default=2, help="held-out set seed (default 2)")
    data.add_argument("--val-count", type=positive_int, default=400,
                      help="held-out tiles (default 400)")
    model = train.add_argument_group("model")
    model.add_argument("--model", choices=("yolo26", "yolov8", "yolo11"), default="yolo26",
                       help="architecture family of a run from scratch (default yolo26)")
    model.add_argument("--width", type=float, default=0.125, help="width multiple (default 0.125)")
    model.add_argument("--depth", type=float, default=0.5, help="depth multiple (default 0.5)")
    model.add_argument("--one-class", action="store_true",
                       help="train a one-class card detector for the rank classifier to read")
    model.add_argument("--weights", type=Path, metavar="PT",
                       help="fine-tune from this checkpoint, e.g. models/gouji-cards.pt")
    model.add_argument("--grow", action="store_true",
                       help="train the deeper architecture of --depth, started from --weights "
                            "so that it first computes what they compute")
    model.add_argument("--one-to-one-features", action="store_true",
                       help="let YOLO26's one-to-one head (no NMS) train the backbone's features "
                            "too, not only its own layers")
    model.add_argument("--resume", type=Path, metavar="LAST_PT",
                       help="continue an interrupted run from its runs/NAME/weights/last.pt")
    run = train.add_argument_group("run")
    run.add_argument("--epochs", type=positive_int, default=20, help="epochs (default 20)")
    run.add_argument("--hours", type=float, metavar="H",
                     help="train for H hours instead of --epochs (the schedule fits the time)")
    run.add_argument("--imgsz", type=positive_int, default=320,
                     help="side the 320 x 320 tiles are read at; larger enlarges the cards "
                          "(default 320: camera scale)")
    run.add_argument("--batch", type=positive_int, default=16, help="batch size (default 16)")
    run.add_argument("--lr0", type=float, default=0.002,
                     help="initial learning rate (default 0.002)")
    run.add_argument("--device", default="cpu", help="cpu or a CUDA device id (default cpu)")
    run.add_argument("--workers", type=int, default=2, help="data loader workers (default 2)")
    run.add_argument("--threads", type=positive_int, metavar="N",
                     help="torch threads on a CPU (default: all cores but one)")
    run.add_argument("--name", default="cards", help="run name under runs/ (default cards)")
    run.add_argument("--export-every", type=int, default=1, metavar="N",
                     help="export the best checkpoint to models/ every N epochs (default 1)")
    run.add_argument("--export-to", type=Path, metavar="ONNX",
                     help="where exports go (default models/gouji-cards.onnx; the .pt and the "
                          "model card go beside it)")
    run.add_argument("--export-only", type=Path, metavar="PT",
                     help="only export this checkpoint to models/ (with validation figures)")
    run.add_argument("--end-to-end", action="store_true",
                     help="export YOLO26's one-to-one head, which needs no NMS, instead of the "
                          "raw head")
    train.set_defaults(func=run_train)

    ranks = subparsers.add_parser(
        "train-ranks", help="train the cascade's rank classifier (needs the [train] extra)",
        description="Train the classifier that reads the rank of each card a one-class detector "
                    "finds, on crops of the generated tiles' labelled boxes (optionally with the "
                    "real photos' training split), and export it to models/gouji-ranks.onnx. "
                    "Prints the accuracy on held-out crops after every epoch.")
    _training_set_options(ranks)
    ranks.add_argument("--weights", type=Path, metavar="PT",
                       help="fine-tune from this checkpoint, e.g. models/gouji-ranks.pt")
    ranks.add_argument("--epochs", type=positive_int, default=6, help="epochs (default 6)")
    ranks.add_argument("--batch", type=positive_int, default=128, help="batch size (default 128)")
    ranks.add_argument("--lr", type=float, default=0.003, help="peak learning rate (default 0.003)")
    ranks.add_argument("--threads", type=positive_int, default=1,
                       help="torch threads (default 1)")
    ranks.add_argument("--device", default="cpu",
                       help="torch device to train on: cpu, cuda or cuda:N (default cpu)")
    ranks.add_argument("--workers", type=positive_int, default=1, metavar="N",
                       help="processes cutting the crops and writing missing sets (default 1; "
                            "the crops do not depend on it)")
    ranks.add_argument("--name", default="ranks", help="run name under runs/ (default ranks)")
    ranks.add_argument("--export-to", type=Path, metavar="ONNX",
                       help="where the ONNX model goes (default models/gouji-ranks.onnx)")
    ranks.set_defaults(func=run_train_ranks)


def _training_set_options(parser: Any) -> None:
    """The generated sets (and real photos) a training run reads: shared by both trainings."""
    parser.add_argument("--seed", type=int, nargs="+", default=[1], metavar="SEED",
                        help="training set seeds, one set of --count tiles each (default 1)")
    parser.add_argument("--count", type=positive_int, default=12000,
                        help="tiles per training set (default 12000)")
    parser.add_argument("--real", action="store_true",
                        help="also train on the training split of the real photos")
    parser.add_argument("--real-dir", type=Path, metavar="DIR",
                        help="the real photos (default: $GOUJI_REAL_CARDS or "
                             "../shared/data/real-cards-edje next to the repository)")
    parser.add_argument("--datasets", type=Path, default=Path("datasets"), metavar="DIR",
                        help="where generated sets are written and reused (default datasets/)")


def _non_negative_int(text: str) -> int:
    value = int(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected a non-negative integer, got {text!r}")
    return value


def run_synth(args: argparse.Namespace) -> int:
    from vision.synth import SceneConfig, write_dataset

    summary = write_dataset(args.out, seed=args.seed, count=args.count, workers=args.workers,
                            config=SceneConfig(width=args.size, height=args.size))
    print(f"wrote {summary.images} images, {summary.boxes} labelled cards to {summary.path}")
    return 0


def _require_train_extra(*modules: str) -> None:
    """Fail at once, not after the minutes spent generating tiles, where the ``[train]`` extra
    that holds ``modules`` is not installed."""
    missing = [name for name in modules if importlib.util.find_spec(name) is None]
    if missing:
        raise ValueError(f"needs the [train] extra, and {', '.join(missing)} "
                         f"{'is' if len(missing) == 1 else 'are'} not installed: "
                         f"pip install -e \".[train]\"")


def run_train(args: argparse.Namespace) -> int:
    from vision import train as training

    if args.end_to_end and not args.export_only:
        raise ValueError("--end-to-end chooses the head of an --export-only export")
    if args.grow and args.weights is None:
        raise ValueError("--grow starts the deeper model from --weights: give them")
    _require_train_extra("torch", "ultralytics")
    command = "gouji " + shlex.join(sys.argv[1:]) if sys.argv[1:] else "gouji train"
    real_dir = _real_dir(args)
    # Ultralytics validates the raw head: an end-to-end export's figures are `gouji eval`'s
    validate = not args.end_to_end
    real_val = None
    if (args.real or args.export_only) and validate:
        real_val = training.prepare_real(args.datasets / "real-cards-edje", real_dir)[1]
    if args.export_only:
        out = training.export(args.export_only, args.export_to or training.DEFAULT_ONNX,
                              command=command, synth_val=_synth_val(args) if validate else None,
                              real_val=real_val, end_to_end=args.end_to_end)
        print(f"exported {args.export_only} to {out}")
        return 0
    data = args.data or training.prepare_data(
        args.datasets, seeds=args.seed, count=args.count, val_seed=args.val_seed,
        val_count=args.val_count, real=args.real, real_dir=real_dir,
        workers=max(1, args.workers))
    config = training.TrainConfig(
        data=data, model=training.ModelSpec(args.model, args.width, args.depth),
        weights=args.weights, resume=args.resume, epochs=args.epochs, hours=args.hours,
        imgsz=args.imgsz,
        batch=args.batch, lr0=args.lr0, workers=args.workers, device=args.device, name=args.name,
        export_every=args.export_every, real_val=real_val, threads=args.threads,
        one_class=args.one_class, grow=args.grow, one_to_one_features=args.one_to_one_features,
        **({"export_to": args.export_to} if args.export_to else {}))
    best = training.train(config, command=command)
    print(f"best checkpoint: {best}")
    return 0


def _real_dir(args: argparse.Namespace) -> Path:
    """``--real-dir``, else where ``gouji eval`` finds the photos too
    (:func:`vision.train.real_photos`)."""
    from vision.train import real_photos

    return args.real_dir or real_photos()


def _synth_val(args: argparse.Namespace) -> Path:
    from vision.train import synthetic_set

    return synthetic_set(args.datasets, seed=args.val_seed, count=args.val_count) / "data.yaml"


def run_train_ranks(args: argparse.Namespace) -> int:
    _require_train_extra("torch")
    from vision import rank_training
    from vision import train as training
    from vision.classifier import DEFAULT_CLASSIFIER
    from vision.evaluate import heldout_synthetic_set

    workers = args.workers
    folders = [training.synthetic_set(args.datasets, seed=seed, count=args.count,
                                      workers=workers) for seed in args.seed]
    val = {"synthetic": rank_training.crop_set([heldout_synthetic_set(workers=workers)], seed=2,
                                               workers=workers)}
    real_dir = _real_dir(args)
    real_train: list[Path] = []
    if args.real or real_dir.is_dir():  # the held-out photos are scored whenever they are there
        train_images, real_val = training.prepare_real(args.datasets / "real-cards-edje", real_dir)
        val["real"] = rank_training.crop_set([real_val.parent / "val"], seed=3, workers=workers)
        if args.real:
            real_train = [train_images.parent]

    def epoch_crops(epoch: int) -> rank_training.CropSet:
        """Each epoch cuts the boxes with new disturbances (epoch 0: seeds 0 and 1)."""
        parts = [rank_training.crop_set(folders, seed=10 * epoch, workers=workers)]
        if real_train:
            parts.append(rank_training.crop_set(real_train, seed=10 * epoch + 1, repeat=3,
                                                workers=workers))
        return rank_training.CropSet.concatenate(parts)

    print("held out: " + ", ".join(f"{len(v)} {k} crops" for k, v in val.items()), flush=True)
    out = rank_training.train_ranks(rank_training.RankTrainConfig(
        train=epoch_crops, val=val, epochs=args.epochs, batch=args.batch, lr=args.lr,
        threads=args.threads, device=args.device, weights=args.weights,
        out=Path("runs") / args.name,
        export_to=args.export_to or DEFAULT_CLASSIFIER,
        command="gouji " + shlex.join(sys.argv[1:])))
    print(f"exported {out}")
    return 0
