"""Tiny ONNX stand-ins for the trained detector, so pre/post-processing is tested without weights."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

ModelWriter = Callable[..., Path]


def write_constant_model(path: Path, output: np.ndarray, *,
                         input_shape: tuple[int | str, ...] = (1, 3, 640, 640),
                         output_shape: tuple[int | str, ...] | None = None,
                         metadata: dict[str, str] | None = None) -> Path:
    """Write an ONNX "detector" whose output is always ``output``, whatever the image.

    ``output_shape`` declares the output with named (dynamic) axes, as dynamic exports do.
    The output still depends on the input graph-wise (``output + 0 * mean(images)``) so the
    runtime keeps and checks the ``images`` input like a real export's.
    """
    from onnx import TensorProto, checker, helper, numpy_helper

    table = numpy_helper.from_array(np.asarray(output, np.float32), "table")
    zero = numpy_helper.from_array(np.zeros((), np.float32), "zero")
    graph = helper.make_graph(
        [helper.make_node("ReduceMean", ["images"], ["mean"], keepdims=0),
         helper.make_node("Mul", ["mean", "zero"], ["nothing"]),
         helper.make_node("Add", ["table", "nothing"], ["output0"])],
        "constant_detector",
        [helper.make_tensor_value_info("images", TensorProto.FLOAT, list(input_shape))],
        [helper.make_tensor_value_info("output0", TensorProto.FLOAT,
                                       list(output_shape or output.shape))],
        initializer=[table, zero],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    if metadata:
        helper.set_model_props(model, metadata)
    checker.check_model(model)
    path.write_bytes(model.SerializeToString())
    return path


@pytest.fixture
def constant_model(tmp_path: Path) -> ModelWriter:
    """``constant_model(output, input_shape=..., metadata=...) -> Path`` of a fresh model file."""
    pytest.importorskip("onnx")
    count = iter(range(1_000_000))

    def write(output: np.ndarray, **kwargs: object) -> Path:
        return write_constant_model(tmp_path / f"model{next(count)}.onnx", output, **kwargs)

    return write



def write_colour_classifier(path: Path, weights: np.ndarray) -> Path:
    """Write an ONNX "rank classifier" whose logits are the crop's mean RGB times ``weights``.

    With ``weights`` of shape ``(3, 16)`` a red crop and a blue one read as whatever classes
    the weights favour, so a test can tell which part of an image each box was read from.
    """
    from onnx import TensorProto, checker, helper, numpy_helper

    graph = helper.make_graph(
        [helper.make_node("ReduceMean", ["crops"], ["mean"], axes=[2, 3], keepdims=0),
         helper.make_node("MatMul", ["mean", "weights"], ["logits"])],
        "colour_classifier",
        [helper.make_tensor_value_info("crops", TensorProto.FLOAT, ["n", 3, 96, 64])],
        [helper.make_tensor_value_info("logits", TensorProto.FLOAT, ["n", weights.shape[1]])],
        initializer=[numpy_helper.from_array(np.asarray(weights, np.float32), "weights")],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    checker.check_model(model)
    path.write_bytes(model.SerializeToString())
    return path


@pytest.fixture
def colour_classifier(tmp_path: Path) -> Callable[[np.ndarray], Path]:
    """``colour_classifier(weights) -> Path`` of a fresh classifier (:func:`write_colour_classifier`)."""
    pytest.importorskip("onnx")
    count = iter(range(1_000_000))

    def write(weights: np.ndarray) -> Path:
        return write_colour_classifier(tmp_path / f"classifier{next(count)}.onnx", weights)

    return write
