"""Writes ONNX models of the reductions (ReduceL1, ReduceLogSum,
ReduceLogSumExp, ReduceMean over a dynamic dim), the normalizations
(LpNormalization, MeanVarianceNormalization, LRN) and the block moves
(DepthToSpace, SpaceToDepth), Size and Det, into DIR, each with NAME.inputs.npz
and NAME.expected.npz: the expected outputs computed here with numpy from the
ONNX specification's definitions, not by any compiler.

usage: make_more_models.py DIR"""
import sys

import numpy as np
from onnx import TensorProto as T

from onnx_cases import graph, info, node, write_case, write_model

f32 = np.float32


def unary(out, name, op, x, x_shape, y_shape, expected, y_type=T.FLOAT,
          **attrs):
    write_model(out, name, graph(name, [node(op, ["x"], ["y"], **attrs)],
                                 [info("x", T.FLOAT, x_shape)],
                                 [info("y", y_type, y_shape)]))
    write_case(out, name, [x], [expected])


def lrn(x, size, alpha, beta, bias):
    """LRN by its definition: channels c - floor((size-1)/2) to
    c + ceil((size-1)/2), clipped to the tensor."""
    c = x.shape[1]
    sq = x.astype(np.float64) ** 2
    y = np.empty_like(sq)
    for i in range(c):
        lo = max(0, i - (size - 1) // 2)
        hi = min(c - 1, i + size // 2)
        s = sq[:, lo:hi + 1].sum(axis=1)
        y[:, i] = x[:, i] / (bias + alpha / size * s) ** beta
    return y.astype(f32)


def depth_to_space(x, b, mode):
    n, c, h, w = x.shape
    if mode == "DCR":
        t = x.reshape(n, b, b, c // (b * b), h, w).transpose(0, 3, 4, 1, 5, 2)
    else:
        t = x.reshape(n, c // (b * b), b, b, h, w).transpose(0, 1, 4, 2, 5, 3)
    return t.reshape(n, c // (b * b), h * b, w * b)


def space_to_depth(x, b):
    n, c, h, w = x.shape
    t = x.reshape(n, c, h // b, b, w // b, b).transpose(0, 3, 5, 1, 2, 4)
    return t.reshape(n, c * b * b, h // b, w // b)


def main(out):
    rng = np.random.default_rng(23)
    x = rng.standard_normal((2, 3, 4)).astype(f32)
    d = x.astype(np.float64)
    unary(out, "reduce_l1", "ReduceL1", x, ["n", 3, 4], ["n", 1, 4],
          np.abs(d).sum(axis=1, keepdims=True).astype(f32), axes=[1])
    p = np.abs(x) + f32(0.5)
    unary(out, "reduce_log_sum", "ReduceLogSum", p, [2, 3, 4], [2, 3],
          np.log(p.astype(np.float64).sum(axis=2)).astype(f32), axes=[2],
          keepdims=0)
    # Values whose exp overflows f32: the result is still finite.
    big = (x * 40).astype(f32)
    unary(out, "reduce_log_sum_exp", "ReduceLogSumExp", big, [2, 3, 4],
          [1, 1, 1],
          np.log(np.exp(big.astype(np.float64)).sum(keepdims=True)).astype(
              f32))
    # A mean over a dim of a size known only at run time.
    m = rng.standard_normal((2, 5)).astype(f32)
    unary(out, "reduce_mean_dynamic", "ReduceMean", m, [2, "k"], [2],
          m.astype(np.float64).mean(axis=1).astype(f32), axes=[1],
          keepdims=0)

    unary(out, "lp_norm_l1", "LpNormalization", x, ["n", 3, 4], ["n", 3, 4],
          (d / np.abs(d).sum(axis=1, keepdims=True)).astype(f32), axis=1, p=1)
    unary(out, "lp_norm_l2", "LpNormalization", x, [2, 3, 4], [2, 3, 4],
          (d / np.sqrt((d * d).sum(axis=-1, keepdims=True))).astype(f32))
    v = (rng.standard_normal((2, 3, 4, 5)) * 2 + 1).astype(f32)
    dv = v.astype(np.float64)
    mean = dv.mean(axis=(0, 2, 3), keepdims=True)
    var = (dv * dv).mean(axis=(0, 2, 3), keepdims=True) - mean * mean
    unary(out, "mvn", "MeanVarianceNormalization", v, [2, 3, 4, 5],
          [2, 3, 4, 5], ((dv - mean) / (np.sqrt(var) + 1e-9)).astype(f32))
    img = rng.standard_normal((2, 5, 3, 3)).astype(f32)
    unary(out, "lrn_odd", "LRN", img, ["n", 5, 3, 3], ["n", 5, 3, 3],
          lrn(img, 3, 1e-2, 0.75, 2.0), size=3, alpha=1e-2, beta=0.75,
          bias=2.0)
    unary(out, "lrn_even", "LRN", img, [2, 5, 3, 3], [2, 5, 3, 3],
          lrn(img, 4, 0.5, 0.5, 1.0), size=4, alpha=0.5, beta=0.5)

    deep = rng.standard_normal((2, 8, 2, 3)).astype(f32)
    for mode in ("DCR", "CRD"):
        unary(out, "depth_to_space_" + mode.lower(), "DepthToSpace", deep,
              ["n", 8, 2, 3], ["n", 2, 4, 6], depth_to_space(deep, 2, mode),
              blocksize=2, mode=mode)
    wide = rng.standard_normal((2, 2, 4, 6)).astype(f32)
    unary(out, "space_to_depth", "SpaceToDepth", wide, ["n", 2, 4, 6],
          ["n", 8, 2, 3], space_to_depth(wide, 2), blocksize=2)
    unary(out, "size", "Size", x, ["n", 3, 4], [], np.array(24, np.int64),
          y_type=T.INT64)

    # Det of a batch (one matrix singular: a row the sum of two others) and
    # of one matrix that needs its rows swapped (a zero first pivot).
    mats = rng.standard_normal((3, 4, 4)).astype(f32)
    mats[1, 3] = mats[1, 0] + mats[1, 2]
    unary(out, "det", "Det", mats, ["n", 4, 4], ["n"],
          np.linalg.det(mats.astype(np.float64)).astype(f32))
    swap = np.array([[0, 2, 1], [3, 1, 0], [1, 1, 5]], f32)
    unary(out, "det_swap", "Det", swap, [3, 3], [],
          np.array(np.linalg.det(swap.astype(np.float64)), f32))


if __name__ == "__main__":
    main(sys.argv[1])
