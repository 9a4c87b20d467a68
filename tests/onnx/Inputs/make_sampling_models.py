"""Writes ONNX models of GridSample (bilinear and nearest, each padding mode,
align_corners 0 and 1, points beyond the image), LpPool and GlobalLpPool,
Hardmax, EyeLike, ReverseSequence, Compress and a BatchNormalization whose
channel count is known only at run time into DIR, each with NAME.inputs.npz
and NAME.expected.npz: the expected outputs computed here with numpy from
the ONNX specification's definitions, not by any compiler (GridSample's also
checked here against torch's grid_sample, which ONNX's follows).

usage: make_sampling_models.py DIR"""
import math
import sys

import numpy as np
from onnx import TensorProto as T

from onnx_cases import graph, info, node, write_case, write_model

f32 = np.float32


def model(out, name, op, inputs, outputs, arrays, expected, **attrs):
    """A one-node model: `inputs` and `outputs` are (name, type, shape)."""
    write_model(out, name, graph(
        name, [node(op, [i[0] for i in inputs], [o[0] for o in outputs],
                    name=name, **attrs)],
        [info(*i) for i in inputs], [info(*o) for o in outputs]))
    write_case(out, name, arrays, expected)


def grid_sample(x, grid, mode, padding, align):
    """GridSample by its definition, one output element at a time."""
    n, c, h, w = x.shape
    _, ho, wo, _ = grid.shape

    def unnormalized(g, size):
        return (g + 1) / 2 * (size - 1) if align else ((g + 1) * size - 1) / 2

    def reflected(v, lo, hi):
        span = hi - lo
        if span <= 0:
            return 0.0
        d = abs(v - lo)
        extra = math.fmod(d, span)
        return extra + lo if math.floor(d / span) % 2 == 0 else hi - extra

    def padded(v, size):
        if padding == "border":
            return min(max(v, 0.0), size - 1.0)
        if padding == "reflection":
            v = (reflected(v, 0.0, size - 1.0) if align else
                 reflected(v, -0.5, size - 0.5))
            return min(max(v, 0.0), size - 1.0)
        return v

    y = np.zeros((n, c, ho, wo))
    for b in range(n):
        for i in range(ho):
            for j in range(wo):
                px = padded(unnormalized(float(grid[b, i, j, 0]), w), w)
                py = padded(unnormalized(float(grid[b, i, j, 1]), h), h)

                def pixel(row, col):
                    if 0 <= row < h and 0 <= col < w:
                        return x[b, :, row, col].astype(np.float64)
                    return np.zeros(c)
                if mode == "nearest":
                    y[b, :, i, j] = pixel(int(np.rint(py)), int(np.rint(px)))
                    continue
                x0, y0 = math.floor(px), math.floor(py)
                wx, wy = px - x0, py - y0
                y[b, :, i, j] = (pixel(y0, x0) * (1 - wx) * (1 - wy) +
                                 pixel(y0, x0 + 1) * wx * (1 - wy) +
                                 pixel(y0 + 1, x0) * (1 - wx) * wy +
                                 pixel(y0 + 1, x0 + 1) * wx * wy)
    return y.astype(f32)


def lp_pool(x, kernel, strides, pads, p):
    """(sum of |x|^p over each window of the zero-padded image)^(1/p)."""
    n, c, h, w = x.shape
    t, l, bt, r = pads
    xp = np.zeros((n, c, h + t + bt, w + l + r))
    xp[:, :, t:t + h, l:l + w] = np.abs(x.astype(np.float64)) ** p
    ho = (h + t + bt - kernel[0]) // strides[0] + 1
    wo = (w + l + r - kernel[1]) // strides[1] + 1
    y = np.empty((n, c, ho, wo))
    for i in range(ho):
        for j in range(wo):
            win = xp[:, :, i * strides[0]:i * strides[0] + kernel[0],
                     j * strides[1]:j * strides[1] + kernel[1]]
            y[:, :, i, j] = win.sum(axis=(2, 3)) ** (1.0 / p)
    return y.astype(f32)


def main(out):
    rng = np.random.default_rng(31)
    img = rng.standard_normal((2, 3, 4, 5)).astype(f32)
    # Points spread beyond [-1, 1] on both sides, so that every padding
    # mode has work to do (reflection more than one span away).
    grid = rng.uniform(-2.6, 2.6, (2, 3, 6, 2)).astype(f32)
    try:
        import torch
    except ImportError:
        torch = None
    for mode in ("bilinear", "nearest"):
        for padding in ("zeros", "border", "reflection"):
            for align in (0, 1):
                want = grid_sample(img, grid, mode, padding, align)
                if torch is not None:
                    theirs = torch.nn.functional.grid_sample(
                        torch.from_numpy(img), torch.from_numpy(grid),
                        mode=mode, padding_mode=padding,
                        align_corners=bool(align)).numpy()
                    assert np.allclose(want, theirs, atol=1e-5), (
                        mode, padding, align)
                name = "grid_sample_%s_%s_%d" % (mode, padding, align)
                model(out, name, "GridSample",
                      [("x", T.FLOAT, ["n", 3, 4, 5]),
                       ("grid", T.FLOAT, ["n", 3, 6, 2])],
                      [("y", T.FLOAT, ["n", 3, 3, 6])], [img, grid], [want],
                      mode=mode, padding_mode=padding, align_corners=align)

    pool_in = rng.standard_normal((2, 3, 5, 6)).astype(f32)
    model(out, "lp_pool_2", "LpPool", [("x", T.FLOAT, ["n", 3, 5, 6])],
          [("y", T.FLOAT, ["n", 3, 3, 3])], [pool_in],
          [lp_pool(pool_in, (2, 2), (2, 2), (1, 0, 0, 0), 2)],
          kernel_shape=[2, 2], strides=[2, 2], pads=[1, 0, 0, 0], p=2)
    model(out, "lp_pool_3", "LpPool", [("x", T.FLOAT, [2, 3, 5, 6])],
          [("y", T.FLOAT, [2, 3, 3, 4])], [pool_in],
          [lp_pool(pool_in, (3, 3), (1, 1), (0, 0, 0, 0), 3)],
          kernel_shape=[3, 3], p=3)
    d = np.abs(pool_in.astype(np.float64))
    for p in (1, 2, 3):
        model(out, "global_lp_pool_%d" % p, "GlobalLpPool",
              [("x", T.FLOAT, ["n", 3, 5, 6])], [("y", T.FLOAT, ["n", 3, 1, 1])],
              [pool_in],
              [((d ** p).sum(axis=(2, 3), keepdims=True) ** (1.0 / p)).astype(
                  f32)], p=p)

    # Ties: the first of equal largest values is the one.
    logits = rng.integers(-2, 3, (2, 3, 4)).astype(f32)
    for axis in (-1, 1):
        first = np.argmax(logits, axis=axis)
        onehot = (np.arange(logits.shape[axis]).reshape(
            [-1 if d == axis % 3 else 1 for d in range(3)]) ==
            np.expand_dims(first, axis)).astype(f32)
        model(out, "hardmax_%d" % (axis % 3), "Hardmax",
              [("x", T.FLOAT, ["n", 3, 4])], [("y", T.FLOAT, ["n", 3, 4])],
              [logits], [onehot], axis=axis)

    shape = rng.standard_normal((3, 5)).astype(f32)
    model(out, "eye_like", "EyeLike", [("x", T.FLOAT, ["r", 5])],
          [("y", T.INT32, ["r", 5])], [shape],
          [np.eye(3, 5, 1, dtype=np.int32)], k=1, dtype=T.INT32)
    model(out, "eye_like_low", "EyeLike", [("x", T.FLOAT, [3, 5])],
          [("y", T.FLOAT, [3, 5])], [shape], [np.eye(3, 5, -2, dtype=f32)],
          k=-2)

    seq = rng.standard_normal((4, 3, 2)).astype(f32)  # time, batch, feature
    lens = np.array([4, 1, 2], np.int64)
    rev = seq.copy()
    for b, n in enumerate(lens):
        rev[:n, b] = seq[:n, b][::-1]
    model(out, "reverse_sequence", "ReverseSequence",
          [("x", T.FLOAT, ["t", 3, 2]), ("lens", T.INT64, [3])],
          [("y", T.FLOAT, ["t", 3, 2])], [seq, lens], [rev])
    rev_bt = np.ascontiguousarray(seq.transpose(1, 0, 2))
    want_bt = np.ascontiguousarray(rev.transpose(1, 0, 2))
    model(out, "reverse_sequence_batch_first", "ReverseSequence",
          [("x", T.FLOAT, [3, 4, 2]), ("lens", T.INT64, [3])],
          [("y", T.FLOAT, [3, 4, 2])], [rev_bt, lens], [want_bt],
          batch_axis=0, time_axis=1)

    data = rng.standard_normal((3, 4)).astype(f32)
    keep = np.array([True, False, True, True])
    model(out, "compress_axis", "Compress",
          [("x", T.FLOAT, ["n", 4]), ("c", T.BOOL, [4])],
          [("y", T.FLOAT, ["n", "k"])], [data, keep],
          [np.compress(keep, data, axis=1)], axis=1)
    # No axis: the input flattened; a condition shorter than it.
    short = np.array([False, True, True, False, True])
    model(out, "compress_flat", "Compress",
          [("x", T.FLOAT, [3, 4]), ("c", T.BOOL, [5])],
          [("y", T.FLOAT, ["k"])], [data, short], [np.compress(short, data)])

    # BatchNormalization with the channel count a dim named at run time.
    bn = rng.standard_normal((2, 3, 2, 2)).astype(f32)
    scale, bias, mean = (rng.standard_normal(3).astype(f32) for _ in range(3))
    var = rng.uniform(0.5, 2.0, 3).astype(f32)
    col = (lambda v: v.astype(np.float64).reshape(1, 3, 1, 1))
    want = ((bn - col(mean)) / np.sqrt(col(var) + 1e-5) * col(scale) +
            col(bias)).astype(f32)
    model(out, "batch_norm_dynamic_channels", "BatchNormalization",
          [("x", T.FLOAT, [2, "c", 2, 2]), ("scale", T.FLOAT, ["c"]),
           ("bias", T.FLOAT, ["c"]), ("mean", T.FLOAT, ["c"]),
           ("var", T.FLOAT, ["c"])],
          [("y", T.FLOAT, [2, "c", 2, 2])],
          [bn, scale, bias, mean, var], [want])


if __name__ == "__main__":
    main(sys.argv[1])
