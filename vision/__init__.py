"""Seeing the cards: capture, the ONNX detector, the synthetic data generator, training."""

from vision.classes import CLASS_NAMES
from vision.detections import Detections

__all__ = ["CLASS_NAMES", "Detections"]
