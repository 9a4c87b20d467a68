"""Writes a small convolutional model and its numpy reference, for the
test that images stay channels last between convolutions.

usage: make_layout_model.py OUTDIR

conv.onnx: x (2x3x9x9) -> Conv (bias) -> Relu -> Conv -> Add (the Relu's
output: a residual) -> depthwise Conv -> Clip(0, 6) -> MaxPool 2x2 ->
AveragePool 3x3 (padded, pads not counted) -> Mul 0.5 -> GlobalAveragePool
-> Flatten: y (2x4); the Relu's output is also a graph output, `mid`, which
needs the NCHW form. inputs.npz / expected.npz hold x and numpy's y and mid.
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper
from numpy.lib.stride_tricks import sliding_window_view


def conv(x, w, b=None, pad=1, group=1):
    x = np.pad(x, ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    n, c = x.shape[:2]
    f, cg, kh, kw = w.shape
    win = sliding_window_view(x, (kh, kw), axis=(2, 3))  # n c h w kh kw
    fg = f // group
    parts = [np.einsum("nchwij,fcij->nfhw", win[:, g * cg:(g + 1) * cg],
                       w[g * fg:(g + 1) * fg]) for g in range(group)]
    y = np.concatenate(parts, axis=1)
    return y if b is None else y + b[None, :, None, None]


def main(out):
    os.makedirs(out, exist_ok=True)
    rng = np.random.default_rng(7)
    f32 = np.float32
    w1 = rng.standard_normal((4, 3, 3, 3)).astype(f32)
    b1 = rng.standard_normal(4).astype(f32)
    w2 = rng.standard_normal((4, 4, 3, 3)).astype(f32)
    wd = rng.standard_normal((4, 1, 3, 3)).astype(f32)
    bd = rng.standard_normal(4).astype(f32)
    x = rng.standard_normal((2, 3, 9, 9)).astype(f32)
    inits = [numpy_helper.from_array(v, n) for v, n in
             ((w1, "w1"), (b1, "b1"), (w2, "w2"), (wd, "wd"), (bd, "bd"),
              (np.array(0, f32), "lo"), (np.array(6, f32), "hi"),
              (np.array(0.5, f32), "half"))]
    node = helper.make_node
    nodes = [
        node("Conv", ["x", "w1", "b1"], ["c1"], name="conv1",
             pads=[1, 1, 1, 1]),
        node("Relu", ["c1"], ["mid"], name="act1"),
        node("Conv", ["mid", "w2"], ["c2"], name="conv2", pads=[1, 1, 1, 1]),
        node("Add", ["c2", "mid"], ["s"], name="residual"),
        node("Conv", ["s", "wd", "bd"], ["d"], name="depthwise",
             pads=[1, 1, 1, 1], group=4),
        node("Clip", ["d", "lo", "hi"], ["cl"], name="clip"),
        node("MaxPool", ["cl"], ["mp"], name="maxpool", kernel_shape=[2, 2],
             strides=[2, 2]),
        node("AveragePool", ["mp"], ["ap"], name="avgpool",
             kernel_shape=[3, 3], pads=[1, 1, 1, 1], count_include_pad=0),
        node("Mul", ["ap", "half"], ["m"], name="scale"),
        node("GlobalAveragePool", ["m"], ["g"], name="gap"),
        node("Flatten", ["g"], ["y"], name="flatten"),
    ]
    graph = helper.make_graph(
        nodes, "conv",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3, 9, 9])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 4]),
         helper.make_tensor_value_info("mid", TensorProto.FLOAT,
                                       [2, 4, 9, 9])],
        initializer=inits)
    m = helper.make_model(graph,
                          opset_imports=[helper.make_opsetid("", 17)])
    onnx.checker.check_model(m)
    onnx.save(m, os.path.join(out, "conv.onnx"))

    mid = np.maximum(conv(x, w1, b1), 0)
    s = conv(mid, w2) + mid
    cl = np.clip(conv(s, wd, bd, group=4), 0, 6)
    mp = sliding_window_view(cl[:, :, :8, :8], (2, 2), axis=(2, 3))[
        :, :, ::2, ::2].max(axis=(4, 5))
    padded = np.pad(mp, ((0, 0), (0, 0), (1, 1), (1, 1)))
    ones = np.pad(np.ones_like(mp), ((0, 0), (0, 0), (1, 1), (1, 1)))
    sums = sliding_window_view(padded, (3, 3), axis=(2, 3)).sum(axis=(4, 5))
    counts = sliding_window_view(ones, (3, 3), axis=(2, 3)).sum(axis=(4, 5))
    y = (sums / counts * 0.5).mean(axis=(2, 3))
    np.savez(os.path.join(out, "inputs.npz"), Input0=x)
    np.savez(os.path.join(out, "expected.npz"), Output0=y.astype(f32),
             Output1=mid.astype(f32))


if __name__ == "__main__":
    main(sys.argv[1])
