"""Writes ONNX models of ConvTranspose (groups, output_shape, auto_pad
SAME_*) and of cubic Resize into DIR, each with NAME.inputs.npz and
NAME.expected.npz beside it: the expected outputs computed here with numpy
from the definitions (each input element spreads its weights over the
output; each output element weighs its 4 neighbours along each resized dim
by the cubic convolution kernel), not by any compiler.

usage: make_spatial_models.py DIR"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper


def conv_transpose(x, w, b, strides, pads, out_pad, dil, group):
    """y[n, g*M+m, i*s + a*d, j*s + c*d] += x[n, g*C+k, i, j] * w[g*C+k, m, a, c],
    on the whole output, then cropped by the pads."""
    n, channels, h, wd = x.shape
    per = channels // group
    m, kh, kw = w.shape[1:]
    full = [(h - 1) * strides[0] + (kh - 1) * dil[0] + 1 + out_pad[0],
            (wd - 1) * strides[1] + (kw - 1) * dil[1] + 1 + out_pad[1]]
    y = np.zeros((n, group * m, full[0], full[1]), np.float64)
    for g in range(group):
        xs = x[:, g * per:(g + 1) * per].astype(np.float64)
        for a in range(kh):
            for c in range(kw):
                part = np.einsum("nkij,km->nmij", xs,
                                 w[g * per:(g + 1) * per, :, a, c])
                r0, c0 = a * dil[0], c * dil[1]
                y[:, g * m:(g + 1) * m,
                  r0:r0 + (h - 1) * strides[0] + 1:strides[0],
                  c0:c0 + (wd - 1) * strides[1] + 1:strides[1]] += part
    if b is not None:
        y += b.reshape(1, -1, 1, 1)
    y = y[:, :, pads[0]:full[0] - pads[2], pads[1]:full[1] - pads[3]]
    return y.astype(np.float32)


def pads_for(shape, x, kernel, strides, out_pad, dil, upper):
    """The pads ONNX's equations give an output_shape."""
    pads = [0, 0, 0, 0]
    for d in range(2):
        total = (strides[d] * (x.shape[2 + d] - 1) + out_pad[d] +
                 (kernel[d] - 1) * dil[d] + 1 - shape[d])
        start = total // 2 if upper else total - total // 2
        pads[d], pads[2 + d] = start, total - start
    return pads


def cubic_weights(t, a):
    """The kernel's weights of the neighbours at -1, 0, 1, 2 from floor."""
    def k(d):
        d = abs(d)
        if d <= 1:
            return ((a + 2) * d - (a + 3)) * d * d + 1
        if d < 2:
            return ((a * d - 5 * a) * d + 8 * a) * d - 4 * a
        return 0.0
    return [k(t + 1), k(t), k(1 - t), k(2 - t)]


def resize_cubic_1d(x, axis, size, a, exclude_outside, transform):
    """x resized along one axis, each output from its 4 neighbours (edge
    values beyond the ends)."""
    n = x.shape[axis]
    scale = size / n
    out = np.zeros(x.shape[:axis] + (size,) + x.shape[axis + 1:])
    for o in range(size):
        if transform == "align_corners":
            c = 0.0 if size == 1 else o * (n - 1) / (size - 1)
        else:
            c = (o + 0.5) / scale - 0.5
        f = int(np.floor(c))
        w = cubic_weights(c - f, a)
        idx = [f - 1 + i for i in range(4)]
        if exclude_outside:
            w = [wi if 0 <= i < n else 0.0 for wi, i in zip(w, idx)]
            total = sum(w)
            w = [wi / total for wi in w]
        acc = 0
        for wi, i in zip(w, idx):
            acc = acc + wi * np.take(x, min(max(i, 0), n - 1), axis=axis)
        index = [slice(None)] * x.ndim
        index[axis] = o
        out[tuple(index)] = acc
    return out


def save_resize(out, name, attrs, x, sizes, expected):
    node = helper.make_node("Resize", ["x", "", "", "sizes"], ["y"],
                            name=name, mode="cubic", **attrs)
    graph = helper.make_graph(
        [node], name,
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, x.shape)],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, sizes)],
        initializer=[helper.make_tensor("sizes", TensorProto.INT64, [4],
                                        sizes)])
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    onnx.checker.check_model(m)
    onnx.save(m, os.path.join(out, name + ".onnx"))
    np.savez(os.path.join(out, name + ".inputs.npz"), Input0=x)
    np.savez(os.path.join(out, name + ".expected.npz"),
             Output0=expected.astype(np.float32))


def save(out, name, attrs, x, w, b, expected, batch="n"):
    inputs = ["x", "w"] + (["b"] if b is not None else [])
    inits = [helper.make_tensor("w", TensorProto.FLOAT, w.shape,
                                w.flatten())]
    if b is not None:
        inits.append(helper.make_tensor("b", TensorProto.FLOAT, b.shape, b))
    node = helper.make_node("ConvTranspose", inputs, ["y"], name=name,
                            **attrs)
    graph = helper.make_graph(
        [node], name,
        [helper.make_tensor_value_info("x", TensorProto.FLOAT,
                                       [batch] + list(x.shape[1:]))],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT,
                                       [batch] + list(expected.shape[1:]))],
        initializer=inits)
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    onnx.checker.check_model(m)
    onnx.save(m, os.path.join(out, name + ".onnx"))
    np.savez(os.path.join(out, name + ".inputs.npz"), Input0=x)
    np.savez(os.path.join(out, name + ".expected.npz"), Output0=expected)


def main(out):
    rng = np.random.default_rng(11)
    f32 = np.float32

    # Two groups of two channels, three filters each; stride 2, uneven
    # pads and output_padding, a bias; the batch dynamic.
    x = rng.standard_normal((2, 4, 5, 4)).astype(f32)
    w = rng.standard_normal((4, 3, 3, 2)).astype(f32)
    b = rng.standard_normal(6).astype(f32)
    pads = [1, 0, 1, 1]
    save(out, "groups",
         dict(group=2, strides=[2, 2], pads=pads, output_padding=[1, 0]),
         x, w, b, conv_transpose(x, w, b, [2, 2], pads, [1, 0], [1, 1], 2))

    # One group per channel, two filters each (not depthwise: a multiplier
    # of two), dilation 2.
    x = rng.standard_normal((1, 3, 4, 4)).astype(f32)
    w = rng.standard_normal((3, 2, 2, 2)).astype(f32)
    save(out, "channel_groups", dict(group=3, dilations=[2, 2]), x, w, None,
         conv_transpose(x, w, None, [1, 1], [0, 0, 0, 0], [0, 0], [2, 2], 3),
         batch=1)

    # output_shape: the pads ONNX's equations give (odd totals put the
    # extra at the start), and auto_pad SAME_UPPER (the extra at the end).
    x = rng.standard_normal((1, 2, 4, 3)).astype(f32)
    w = rng.standard_normal((2, 2, 3, 3)).astype(f32)
    pads = pads_for([8, 6], x, [3, 3], [2, 2], [0, 0], [1, 1], upper=False)
    save(out, "output_shape", dict(strides=[2, 2], output_shape=[8, 6]),
         x, w, None,
         conv_transpose(x, w, None, [2, 2], pads, [0, 0], [1, 1], 1), batch=1)
    pads = pads_for([8, 6], x, [3, 3], [2, 2], [0, 0], [1, 1], upper=True)
    save(out, "same_upper", dict(strides=[2, 2], auto_pad="SAME_UPPER"),
         x, w, None,
         conv_transpose(x, w, None, [2, 2], pads, [0, 0], [1, 1], 1), batch=1)

    # Cubic Resize, up along H and down along W (half_pixel, PyTorch's
    # bicubic kernel a = -0.75), and up with align_corners, a = -0.5 and
    # the neighbours outside the input left out.
    x = rng.standard_normal((1, 2, 5, 6)).astype(f32)
    y = resize_cubic_1d(resize_cubic_1d(x.astype(np.float64), 2, 9, -0.75,
                                        False, "half_pixel"),
                        3, 4, -0.75, False, "half_pixel")
    save_resize(out, "resize_cubic", {}, x, [1, 2, 9, 4], y)
    y = resize_cubic_1d(resize_cubic_1d(x.astype(np.float64), 2, 8, -0.5,
                                        True, "align_corners"),
                        3, 11, -0.5, True, "align_corners")
    save_resize(out, "resize_cubic_exclude",
                dict(coordinate_transformation_mode="align_corners",
                     cubic_coeff_a=-0.5, exclude_outside=1),
                x, [1, 2, 8, 11], y)


if __name__ == "__main__":
    main(sys.argv[1])
