"""Detector speed: median milliseconds per 640x640 frame on CPU with ONNX Runtime.

Usage::

    python bench/bench_detector.py [--model PATH] [--threads 2] [--runs 50] [--size 640]

Times the whole call a frame pays at run time (letterbox, inference, decoding, NMS and, for a
cascade, reading the rank of every card found) on a generated table scene, after a few warm-up
runs, and the ONNX Runtime session alone. Prints the medians, the 90th percentiles and the model
files' sizes.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from vision.detector import Detector


def scene(size: int, seed: int = 7) -> NDArray[np.uint8]:
    """A generated table scene with cards, or noise when the generator is not available."""
    try:
        from vision.synth import SceneConfig, generate_scene
    except ImportError:
        return np.random.default_rng(seed).integers(0, 256, (size, size, 3), dtype=np.uint8)
    return generate_scene(seed, SceneConfig(width=size, height=size)).image


def time_ms(call: Callable[[], object], runs: int, warmup: int = 5
            ) -> tuple[list[float], list[float]]:
    """Wall-clock and process CPU milliseconds of ``runs`` calls, after ``warmup`` untimed ones.

    CPU time counts every thread's work; unlike wall time it hardly grows when other processes
    share the cores, so it shows the cost of a frame on a busy machine too.
    """
    for _ in range(warmup):
        call()
    wall, cpu = [], []
    for _ in range(runs):
        start, start_cpu = time.perf_counter(), time.process_time()
        call()
        wall.append((time.perf_counter() - start) * 1000)
        cpu.append((time.process_time() - start_cpu) * 1000)
    return wall, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", type=Path, help="ONNX model (default: the shipped one)")
    parser.add_argument("--classifier", type=Path,
                        help="rank classifier of a one-class model (default: the shipped one)")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--runs", type=int, default=50)
    parser.add_argument("--size", type=int, default=640, help="frame side in pixels")
    args = parser.parse_args()

    detector = Detector(args.model, classifier=args.classifier, threads=args.threads)
    frame = scene(args.size)
    # The session alone, on the exact input the detector builds, to show what the Python around
    # it costs.
    blob, _ = detector.preprocess(frame)
    session_ms, _ = time_ms(lambda: detector.infer(blob), args.runs)
    call_ms, call_cpu_ms = time_ms(lambda: detector(frame), args.runs)
    found = detector(frame)

    def p90(values: list[float]) -> float:
        return statistics.quantiles(values, n=10)[-1]

    size_mb = detector.model_path.stat().st_size / 1e6
    print(f"model {detector.model_path} ({size_mb:.2f} MB), input {detector.input_size}, "
          f"layout {detector.layout}, {args.threads} threads")
    if detector.classifier is not None:
        classifier_mb = detector.classifier.model_path.stat().st_size / 1e6
        print(f"rank classifier {detector.classifier.model_path} ({classifier_mb:.2f} MB; "
              f"{size_mb + classifier_mb:.2f} MB in all), reading every box found")
    print(f"frame {args.size}x{args.size}: {len(found)} cards found; machine load average "
          f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs (other work inflates wall times)")
    print(f"detector call: median {statistics.median(call_ms):.2f} ms, p90 {p90(call_ms):.2f} ms "
          f"over {args.runs} runs; CPU time (all threads) median "
          f"{statistics.median(call_cpu_ms):.2f} ms")
    print(f"session only:  median {statistics.median(session_ms):.2f} ms, "
          f"p90 {p90(session_ms):.2f} ms")


if __name__ == "__main__":
    main()
