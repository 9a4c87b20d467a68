"""Writes ONNX models of the quantization ops (QuantizeLinear,
DequantizeLinear, DynamicQuantizeLinear, MatMulInteger, ConvInteger,
QLinearMatMul, QLinearConv) and of the unary ops beside them into DIR, each
with NAME.inputs.npz and NAME.expected.npz: the expected outputs computed here
with numpy from the ONNX specification's formulas, not by any compiler.

The uint8 values are made and read inside each graph (a QuantizeLinear of a
float input, an initializer) and leave it through a Cast to int32, which
tests the quantization ops' reading of uint8 apart from the boundary's
(unsigned-ops.test has uint8 inputs and outputs).

usage: make_quant_models.py DIR"""
import sys

import numpy as np
from onnx import TensorProto as T

from onnx_cases import graph, info, node, write_case, write_model

f32 = np.float32


def save(out, name, nodes, inputs, outputs, inits, values, expected):
    write_model(out, name, graph(name, nodes, inputs, outputs, inits))
    write_case(out, name, values, expected)


def quantize(x, scale, zp, lo, hi):
    """saturate(round_half_even(x / scale) + zero_point), in f32."""
    q = np.rint(x.astype(f32) / scale.astype(f32)) + zp.astype(f32)
    return np.clip(q, lo, hi)


def conv2d(x, w, stride, pad, group):
    """NCHW by FCHW convolution in int64, one output element at a time."""
    n, c, h, wd = x.shape
    f, cg, kh, kw = w.shape
    xp = np.pad(x, ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    oh = (h + 2 * pad - kh) // stride + 1
    ow = (wd + 2 * pad - kw) // stride + 1
    y = np.zeros((n, f, oh, ow), np.int64)
    per = f // group
    for b in range(n):
        for o in range(f):
            g = o // per
            for i in range(oh):
                for j in range(ow):
                    win = xp[b, g * cg:(g + 1) * cg, i * stride:i * stride + kh,
                             j * stride:j * stride + kw]
                    y[b, o, i, j] = np.sum(win.astype(np.int64) *
                                           w[o].astype(np.int64))
    return y


def away_from_ties(v):
    """Whether no element of `v` lies within 1e-3 of a rounding tie (.5):
    there the f32 requantization of any two correct implementations may
    differ by one, so such draws are not used."""
    frac = np.abs(v - np.floor(v) - 0.5)
    return bool(np.all(frac > 1e-3))


def qdq(out, rng):
    # QuantizeLinear to uint8 (saturating at both ends), read back through
    # a Cast to int32.
    x = (rng.standard_normal((2, 3, 4)) * 8).astype(f32)
    s, zp = np.array(0.05, f32), np.array(128, np.uint8)
    save(out, "quantize_u8",
         [node("QuantizeLinear", ["x", "s", "zp"], ["q"]),
          node("Cast", ["q"], ["y"], to=T.INT32)],
         [info("x", T.FLOAT, [2, 3, 4])], [info("y", T.INT32, [2, 3, 4])],
         {"s": s, "zp": zp}, [x],
         [quantize(x, s, zp, 0, 255).astype(np.int32)])

    # Per channel (axis 1) to int8, the batch dynamic.
    x = (rng.standard_normal((2, 3, 4)) * 3).astype(f32)
    s = np.array([0.02, 0.05, 0.1], f32)
    zp = np.array([-5, 0, 7], np.int8)
    save(out, "quantize_axis_i8",
         [node("QuantizeLinear", ["x", "s", "zp"], ["y"], axis=1)],
         [info("x", T.FLOAT, ["n", 3, 4])], [info("y", T.INT8, ["n", 3, 4])],
         {"s": s, "zp": zp}, [x],
         [quantize(x, s.reshape(3, 1), zp.reshape(3, 1), -128,
                   127).astype(np.int8)])

    # A QDQ pair on uint8 (the activations' form), and int8 weights
    # dequantized per output column feeding a MatMul (the weights' form).
    x = (rng.standard_normal((5, 4)) * 2).astype(f32)
    s, zp = np.array(0.03, f32), np.array(90, np.uint8)
    w = rng.integers(-128, 128, (4, 3)).astype(np.int8)
    ws = np.array([0.01, 0.02, 0.005], f32)
    wzp = np.array([3, -2, 0], np.int8)
    q = quantize(x, s, zp, 0, 255)
    xd = ((q.astype(np.int32) - int(zp)).astype(f32) * s).astype(f32)
    wd = ((w.astype(np.int32) - wzp.astype(np.int32)).astype(f32) * ws)
    save(out, "qdq_matmul",
         [node("QuantizeLinear", ["x", "s", "zp"], ["q"]),
          node("DequantizeLinear", ["q", "s", "zp"], ["xd"]),
          node("DequantizeLinear", ["w", "ws", "wzp"], ["wd"], axis=1),
          node("MatMul", ["xd", "wd"], ["y"])],
         [info("x", T.FLOAT, [5, 4])],
         [info("xd", T.FLOAT, [5, 4]), info("y", T.FLOAT, [5, 3])],
         {"s": s, "zp": zp, "w": w, "ws": ws, "wzp": wzp}, [x],
         [xd, (xd.astype(np.float64) @ wd.astype(np.float64)).astype(f32)])

    # DynamicQuantizeLinear: uint8 over the range of x and 0.
    x = (rng.standard_normal((3, 5)) * 2 + 1).astype(f32)
    lo, hi = min(f32(0), x.min()), max(f32(0), x.max())
    scale = f32((hi - lo) / f32(255))
    zpv = np.clip(np.rint(f32(0) - lo / scale), 0, 255)
    y = np.clip(np.rint(x / scale) + zpv, 0, 255)
    save(out, "dynamic_quantize",
         [node("DynamicQuantizeLinear", ["x"], ["q", "s", "zp"]),
          node("Cast", ["q"], ["y"], to=T.INT32),
          node("Cast", ["zp"], ["z"], to=T.INT32)],
         [info("x", T.FLOAT, [3, 5])],
         [info("y", T.INT32, [3, 5]), info("s", T.FLOAT, []),
          info("z", T.INT32, [])], {}, [x],
         [y.astype(np.int32), np.array(scale, f32),
          np.array(zpv, np.int32)])


def integer_ops(out, rng):
    # MatMulInteger of int8 without zero points, a dynamic batch of rows.
    a = rng.integers(-128, 128, (2, 3, 8)).astype(np.int8)
    b = rng.integers(-128, 128, (8, 5)).astype(np.int8)
    save(out, "matmul_integer_i8",
         [node("MatMulInteger", ["a", "b"], ["y"])],
         [info("a", T.INT8, ["n", 3, 8])], [info("y", T.INT32, ["n", 3, 5])],
         {"b": b}, [a],
         [np.matmul(a.astype(np.int32), b.astype(np.int32))])

    # uint8 A (quantized here from floats) with a zero point per row, uint8
    # B with one per column.
    x = (rng.standard_normal((4, 6)) * 3).astype(f32)
    s, zp = np.array(0.05, f32), np.array(100, np.uint8)
    b = rng.integers(0, 256, (6, 3)).astype(np.uint8)
    azp = np.array([100, 90, 128, 0], np.uint8)
    bzp = np.array([128, 7, 255], np.uint8)
    q = quantize(x, s, zp, 0, 255).astype(np.int32)
    y = np.matmul(q - azp.astype(np.int32).reshape(4, 1),
                  b.astype(np.int32) - bzp.astype(np.int32))
    save(out, "matmul_integer_u8",
         [node("QuantizeLinear", ["x", "s", "zp"], ["q"]),
          node("MatMulInteger", ["q", "b", "azp", "bzp"], ["y"])],
         [info("x", T.FLOAT, [4, 6])], [info("y", T.INT32, [4, 3])],
         {"s": s, "zp": zp, "b": b, "azp": azp, "bzp": bzp}, [x],
         [y.astype(np.int32)])

    # ConvInteger: int8 image with a zero point, uint8 filters with one per
    # output channel, padded, strided; and grouped without zero points.
    x = rng.integers(-128, 128, (1, 2, 5, 5)).astype(np.int8)
    w = rng.integers(0, 256, (3, 2, 3, 3)).astype(np.uint8)
    xzp = np.array(3, np.int8)
    wzp = np.array([128, 0, 200], np.uint8)
    y = conv2d(x.astype(np.int64) - 3,
               w.astype(np.int64) - wzp.astype(np.int64).reshape(3, 1, 1, 1),
               2, 1, 1)
    save(out, "conv_integer",
         [node("ConvInteger", ["x", "w", "xzp", "wzp"], ["y"],
               pads=[1, 1, 1, 1], strides=[2, 2])],
         [info("x", T.INT8, [1, 2, 5, 5])], [info("y", T.INT32, [1, 3, 3, 3])],
         {"w": w, "xzp": xzp, "wzp": wzp}, [x], [y.astype(np.int32)])
    x = rng.integers(-128, 128, (2, 4, 4, 4)).astype(np.int8)
    w = rng.integers(-128, 128, (4, 2, 3, 3)).astype(np.int8)
    save(out, "conv_integer_group",
         [node("ConvInteger", ["x", "w"], ["y"], group=2)],
         [info("x", T.INT8, ["n", 4, 4, 4])],
         [info("y", T.INT32, ["n", 4, 2, 2])], {"w": w}, [x],
         [conv2d(x, w, 1, 0, 2).astype(np.int32)])


def qlinear(out, rng):
    # QLinearMatMul: int8, b's scale per column.
    for seed in range(100):
        r = np.random.default_rng(seed)
        a = r.integers(-128, 128, (3, 8)).astype(np.int8)
        b = r.integers(-128, 128, (8, 4)).astype(np.int8)
        a_s, a_zp = np.array(0.02, f32), np.array(-3, np.int8)
        b_s = np.array([0.01, 0.03, 0.002, 0.02], f32)
        b_zp = np.array(0, np.int8)
        y_s, y_zp = np.array(0.05, f32), np.array(5, np.int8)
        acc = np.matmul(a.astype(np.int32) + 3, b.astype(np.int32))
        scaled = acc.astype(f32) * ((a_s * b_s) / y_s)
        if away_from_ties(scaled):
            break
    y = np.clip(np.rint(scaled) + f32(5), -128, 127).astype(np.int8)
    save(out, "qlinear_matmul",
         [node("QLinearMatMul",
               ["a", "as", "azp", "b", "bs", "bzp", "ys", "yzp"], ["y"])],
         [info("a", T.INT8, [3, 8])], [info("y", T.INT8, [3, 4])],
         {"as": a_s, "azp": a_zp, "b": b, "bs": b_s, "bzp": b_zp, "ys": y_s,
          "yzp": y_zp}, [a], [y])

    # QLinearConv: uint8 image, int8 filters with a scale per output
    # channel, an int32 bias, padded; read back through a Cast.
    for seed in range(100):
        r = np.random.default_rng(seed)
        x = r.integers(0, 256, (1, 3, 6, 6)).astype(np.uint8)
        w = r.integers(-128, 128, (4, 3, 3, 3)).astype(np.int8)
        bias = r.integers(-2000, 2000, (4,)).astype(np.int32)
        x_s, x_zp = np.array(0.03, f32), np.array(120, np.uint8)
        w_s = np.array([0.01, 0.02, 0.004, 0.015], f32)
        w_zp = np.array(0, np.int8)
        y_s, y_zp = np.array(0.1, f32), np.array(128, np.uint8)
        acc = conv2d(x.astype(np.int64) - 120, w, 1, 1, 1) + \
            bias.reshape(1, 4, 1, 1)
        scaled = acc.astype(f32) * ((x_s * w_s) / y_s).reshape(1, 4, 1, 1)
        if away_from_ties(scaled):
            break
    y = np.clip(np.rint(scaled) + f32(128), 0, 255).astype(np.int32)
    save(out, "qlinear_conv",
         [node("QuantizeLinear", ["xf", "one", "zero"], ["x"]),
          node("QLinearConv",
               ["x", "xs", "xzp", "w", "ws", "wzp", "ys", "yzp", "bias"],
               ["q"], pads=[1, 1, 1, 1]),
          node("Cast", ["q"], ["y"], to=T.INT32)],
         [info("xf", T.FLOAT, [1, 3, 6, 6])], [info("y", T.INT32, [1, 4, 6, 6])],
         {"one": np.array(1, f32), "zero": np.array(0, np.uint8), "xs": x_s,
          "xzp": x_zp, "w": w, "ws": w_s, "wzp": w_zp, "ys": y_s, "yzp": y_zp,
          "bias": bias}, [x.astype(f32)], [y])


def unary(out, rng):
    """The unary ops of math functions and activations, one graph."""
    x = rng.uniform(-0.9, 0.9, (2, 6)).astype(f32)
    z = rng.uniform(1.0, 3.0, (2, 6)).astype(f32)
    d = x.astype(np.float64)
    ops = [("Tan", np.tan(d), {}), ("Asin", np.arcsin(d), {}),
           ("Acos", np.arccos(d), {}), ("Atan", np.arctan(d), {}),
           ("Sinh", np.sinh(d), {}), ("Cosh", np.cosh(d), {}),
           ("Asinh", np.arcsinh(d), {}), ("Atanh", np.arctanh(d), {}),
           ("Softsign", d / (1 + np.abs(d)), {}),
           ("Selu", 1.0507009873554805 * np.where(
               d > 0, d, 1.6732632423543772 * np.expm1(d)), {}),
           ("Celu", np.maximum(0, d) + np.minimum(0, 2 * np.expm1(d / 2)),
            {"alpha": 2.0}),
           ("ThresholdedRelu", np.where(d > 0.5, d, 0), {"alpha": 0.5}),
           ("Shrink", np.where(d < -0.3, d + 0.1, np.where(d > 0.3, d - 0.1,
                                                         0)),
            {"lambd": 0.3, "bias": 0.1})]
    nodes = [node(op, ["x"], ["y_" + op], **attrs) for op, _, attrs in ops]
    outputs = [info("y_" + op, T.FLOAT, [2, 6]) for op, _, _ in ops]
    expected = [v.astype(f32) for _, v, _ in ops]
    nodes.append(node("Acosh", ["z"], ["y_Acosh"]))
    outputs.append(info("y_Acosh", T.FLOAT, [2, 6]))
    expected.append(np.arccosh(z.astype(np.float64)).astype(f32))
    # IsNaN and IsInf (+inf only) of values with both infinities and NaN;
    # CastLike to int32 (truncating toward zero).
    special = np.array([1.0, np.nan, np.inf, -np.inf, -2.5, 0.0], f32)
    nodes += [node("IsNaN", ["s"], ["nan"]),
              node("IsInf", ["s"], ["inf"], detect_negative=0),
              node("CastLike", ["z", "like"], ["int"])]
    outputs += [info("nan", T.BOOL, [6]), info("inf", T.BOOL, [6]),
                info("int", T.INT32, [2, 6])]
    expected += [np.isnan(special), special == np.inf,
                 np.trunc(z).astype(np.int32)]
    save(out, "unary_more", nodes,
         [info("x", T.FLOAT, [2, 6]), info("z", T.FLOAT, [2, 6]),
          info("s", T.FLOAT, [6])], outputs,
         {"like": np.array([0], np.int32)}, [x, z, special], expected)


def main(out):
    rng = np.random.default_rng(11)
    qdq(out, rng)
    integer_ops(out, rng)
    qlinear(out, rng)
    unary(out, rng)


if __name__ == "__main__":
    main(sys.argv[1])
