"""Writes ONNX models whose inputs and outputs are unsigned integers into
DIR, each with NAME.inputs.npz and NAME.expected.npz beside it: the expected
outputs computed here with numpy's unsigned arithmetic, not by any compiler.

- image_u8: a batch of uint8 images (NHWC, dynamic batch) made NCHW and
  normalized to float as a classifier's preprocessing does, clipped to
  [16, 235] as uint8, max-pooled 3 x 3 by 2 (padded) as uint8, and compared
  with 200 (Greater).
- arith_u16, arith_u32, arith_u64: Div, Mod, Max, Min, Less, GreaterOrEqual,
  Add, Sub, Mul (wrapping) and Cast to double, on values across the whole
  range, half of them above the signed type's largest.

usage: make_unsigned_models.py DIR"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper

MEAN = np.array([0.485, 0.456, 0.406], np.float32)
STD = np.array([0.229, 0.224, 0.225], np.float32)


def save(out, name, nodes, inputs, outputs, inits, values, expected):
    graph = helper.make_graph(nodes, name, inputs, outputs, initializer=inits)
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    onnx.checker.check_model(m)
    onnx.save(m, os.path.join(out, name + ".onnx"))
    np.savez(os.path.join(out, name + ".inputs.npz"),
             **{"Input%d" % i: v for i, v in enumerate(values)})
    np.savez(os.path.join(out, name + ".expected.npz"),
             **{"Output%d" % i: v for i, v in enumerate(expected)})


def max_pool_3x3_s2_p1(x):
    """NCHW max pool, padding never chosen (the lowest uint8 is 0)."""
    n, c, h, w = x.shape
    padded = np.zeros((n, c, h + 2, w + 2), x.dtype)
    padded[:, :, 1:-1, 1:-1] = x
    oh, ow = (h - 1) // 2 + 1, (w - 1) // 2 + 1
    y = np.zeros((n, c, oh, ow), x.dtype)
    for i in range(oh):
        for j in range(ow):
            y[:, :, i, j] = padded[:, :, 2 * i:2 * i + 3,
                                   2 * j:2 * j + 3].max(axis=(2, 3))
    return y


def image_u8(out, rng):
    const = helper.make_tensor
    inits = [
        const("scale", TensorProto.FLOAT, [], [255.0]),
        const("mean", TensorProto.FLOAT, [1, 3, 1, 1], MEAN),
        const("std", TensorProto.FLOAT, [1, 3, 1, 1], STD),
        const("low", TensorProto.UINT8, [], [16]),
        const("high", TensorProto.UINT8, [], [235]),
        const("bright", TensorProto.UINT8, [], [200]),
    ]
    nodes = [
        helper.make_node("Transpose", ["image"], ["nchw"], perm=[0, 3, 1, 2]),
        helper.make_node("Cast", ["nchw"], ["f"], to=TensorProto.FLOAT),
        helper.make_node("Div", ["f", "scale"], ["unit"]),
        helper.make_node("Sub", ["unit", "mean"], ["centred"]),
        helper.make_node("Div", ["centred", "std"], ["normalized"]),
        helper.make_node("Clip", ["nchw", "low", "high"], ["clipped"]),
        helper.make_node("MaxPool", ["nchw"], ["pooled"], kernel_shape=[3, 3],
                         strides=[2, 2], pads=[1, 1, 1, 1]),
        helper.make_node("Greater", ["nchw", "bright"], ["bright_mask"]),
    ]
    u8 = TensorProto.UINT8
    inputs = [helper.make_tensor_value_info("image", u8, ["n", 40, 30, 3])]
    outputs = [
        helper.make_tensor_value_info("normalized", TensorProto.FLOAT,
                                      ["n", 3, 40, 30]),
        helper.make_tensor_value_info("clipped", u8, ["n", 3, 40, 30]),
        helper.make_tensor_value_info("pooled", u8, ["n", 3, 20, 15]),
        helper.make_tensor_value_info("bright_mask", TensorProto.BOOL,
                                      ["n", 3, 40, 30]),
    ]
    image = rng.integers(0, 256, (2, 40, 30, 3), dtype=np.uint8)
    nchw = image.transpose(0, 3, 1, 2)
    normalized = ((nchw.astype(np.float32) / np.float32(255.0)
                   - MEAN.reshape(1, 3, 1, 1)) / STD.reshape(1, 3, 1, 1))
    expected = [normalized.astype(np.float32), np.clip(nchw, 16, 235),
                max_pool_3x3_s2_p1(nchw), nchw > 200]
    save(out, "image_u8", nodes, inputs, outputs, inits, [image], expected)


ARITH = [("Div", lambda a, b: a // b), ("Mod", lambda a, b: a % b),
         ("Max", np.maximum), ("Min", np.minimum), ("Less", np.less),
         ("GreaterOrEqual", np.greater_equal), ("Add", np.add),
         ("Sub", np.subtract), ("Mul", np.multiply)]


def arith(out, rng, bits):
    dtype = np.dtype("uint%d" % bits)
    onnx_type = {16: TensorProto.UINT16, 32: TensorProto.UINT32,
                 64: TensorProto.UINT64}[bits]
    top = np.iinfo(dtype).max
    # Half of each below the signed type's largest, half above it, and
    # the ends; no divisor 0.
    a = rng.integers(0, top, 48, dtype=dtype, endpoint=True)
    b = rng.integers(1, top, 48, dtype=dtype, endpoint=True)
    a[:24] >>= 1
    b[::3] >>= 1
    b[1::3] = rng.integers(1, 1000, 16, dtype=dtype)
    a[0], a[1], b[2] = top, 0, top
    a, b = a.reshape(6, 8), b.reshape(6, 8)
    nodes, outputs, expected = [], [], []
    with np.errstate(over="ignore"):
        for op, f in ARITH:
            nodes.append(helper.make_node(op, ["a", "b"], [op.lower()]))
            y = f(a, b)
            elem = TensorProto.BOOL if y.dtype == np.bool_ else onnx_type
            outputs.append(helper.make_tensor_value_info(op.lower(), elem,
                                                         [6, 8]))
            expected.append(y)
    nodes.append(helper.make_node("Cast", ["a"], ["as_double"],
                                  to=TensorProto.DOUBLE))
    outputs.append(helper.make_tensor_value_info("as_double",
                                                 TensorProto.DOUBLE, [6, 8]))
    expected.append(a.astype(np.float64))
    inputs = [helper.make_tensor_value_info(n, onnx_type, [6, 8])
              for n in ("a", "b")]
    save(out, "arith_u%d" % bits, nodes, inputs, outputs, [], [a, b],
         expected)


def main():
    out = sys.argv[1]
    rng = np.random.default_rng(7)
    image_u8(out, rng)
    for bits in (16, 32, 64):
        arith(out, rng, bits)


if __name__ == "__main__":
    main()
