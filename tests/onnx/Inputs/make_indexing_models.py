"""Writes ONNX models of GatherND, OneHot, ScatterElements, ScatterND,
TopK and NonZero into DIR, each with inputs.npz
and expected.npz beside it (NAME.inputs.npz, NAME.expected.npz): the
expected outputs computed here with numpy, element by element from the ONNX
specification's definitions, not by any compiler.

usage: make_indexing_models.py DIR"""
import itertools
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper


def save(out, name, node, inputs, outputs, inits, values, expected):
    graph = helper.make_graph([node], name, inputs, outputs,
                              initializer=inits)
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    onnx.checker.check_model(m)
    onnx.save(m, os.path.join(out, name + ".onnx"))
    np.savez(os.path.join(out, name + ".inputs.npz"),
             **{"Input%d" % i: v for i, v in enumerate(values)})
    if not isinstance(expected, tuple):
        expected = (expected,)
    np.savez(os.path.join(out, name + ".expected.npz"),
             **{"Output%d" % i: v for i, v in enumerate(expected)})


REDUCE = {"none": lambda a, b: b, "add": lambda a, b: a + b,
          "mul": lambda a, b: a * b, "max": max, "min": min}


def scatter_elements(data, indices, updates, axis, reduction):
    """ScatterElements by its definition: one index at a time, in order."""
    out = data.copy()
    for p in itertools.product(*[range(n) for n in indices.shape]):
        at = list(p)
        i = int(indices[p])
        at[axis] = i + data.shape[axis] if i < 0 else i
        out[tuple(at)] = REDUCE[reduction](out[tuple(at)], updates[p])
    return out


def scatter_nd(data, indices, updates, reduction):
    """ScatterND by its definition: one index tuple at a time, in order."""
    out = data.copy()
    for p in itertools.product(*[range(n) for n in indices.shape[:-1]]):
        at = tuple(int(v) + (data.shape[t] if v < 0 else 0)
                   for t, v in enumerate(indices[p]))
        for q in itertools.product(*[range(n) for n in out[at].shape]):
            out[at + q] = REDUCE[reduction](out[at + q], updates[p + q])
    return out


def top_k(x, k, axis, largest):
    """TopK from numpy's stable sort: equal values keep their order."""
    order = np.argsort(-x if largest else x, axis=axis, kind="stable")
    idx = np.take(order, np.arange(k), axis=axis)
    return np.take_along_axis(x, idx, axis=axis), idx.astype(np.int64)


def gather_nd(data, indices, batch):
    """GatherND by its definition: one index tuple at a time."""
    k = indices.shape[-1]
    lead = indices.shape[:-1]
    out = np.zeros(lead + data.shape[batch + k:], data.dtype)
    for i in itertools.product(*[range(n) for n in lead]):
        tuple_ = [int(v) + (data.shape[batch + t] if v < 0 else 0)
                  for t, v in enumerate(indices[i])]
        out[i] = data[tuple(i[:batch]) + tuple(tuple_)]
    return out


def one_hot(indices, depth, values, axis):
    rank = indices.ndim + 1
    axis = axis + rank if axis < 0 else axis
    shape = list(indices.shape)
    shape.insert(axis, depth)
    out = np.full(shape, values[0], values.dtype)
    for i in itertools.product(*[range(n) for n in indices.shape]):
        j = int(indices[i])
        j = j + depth if j < 0 else j
        if 0 <= j < depth:
            at = list(i)
            at.insert(axis, j)
            out[tuple(at)] = values[1]
    return out


def main(out):
    rng = np.random.default_rng(5)
    f32 = np.float32

    # Tuples of two into a 3-D data: each picks a row of 5 (negative ones
    # count from the end).
    data = rng.standard_normal((3, 4, 5)).astype(f32)
    idx = np.array([[0, 1], [2, -1], [-3, 0], [1, 3]], np.int64)
    save(out, "gather_nd",
         helper.make_node("GatherND", ["data", "idx"], ["y"]),
         [helper.make_tensor_value_info("data", TensorProto.FLOAT, [3, 4, 5]),
          helper.make_tensor_value_info("idx", TensorProto.INT64, [4, 2])],
         [helper.make_tensor_value_info("y", TensorProto.FLOAT, [4, 5])],
         [], [data, idx], gather_nd(data, idx, 0))

    # batch_dims 1, tuples of one, the data's batch dynamic.
    data = rng.standard_normal((2, 3, 4)).astype(f32)
    idx = np.array([[[2], [0], [1]], [[1], [-1], [0]]], np.int64)
    save(out, "gather_nd_batch",
         helper.make_node("GatherND", ["data", "idx"], ["y"], batch_dims=1),
         [helper.make_tensor_value_info("data", TensorProto.FLOAT,
                                        ["n", 3, 4]),
          helper.make_tensor_value_info("idx", TensorProto.INT64,
                                        ["n", 3, 1])],
         [helper.make_tensor_value_info("y", TensorProto.FLOAT,
                                        ["n", 3, 4])],
         [], [data, idx], gather_nd(data, idx, 1))

    # OneHot along the last axis and along axis 1; negative indices count
    # from depth, and one out of range is off everywhere.
    idx = np.array([[0, 4, -1], [2, 7, -5]], np.int64)
    values = np.array([-1.5, 2.0], f32)
    for name, axis in (("one_hot", -1), ("one_hot_axis1", 1)):
        shape = [2, 3]
        shape.insert(axis if axis >= 0 else 2, 5)
        save(out, name,
             helper.make_node("OneHot", ["idx", "depth", "values"], ["y"],
                              axis=axis),
             [helper.make_tensor_value_info("idx", TensorProto.INT64, [2, 3]),
              helper.make_tensor_value_info("values", TensorProto.FLOAT,
                                            [2])],
             [helper.make_tensor_value_info("y", TensorProto.FLOAT, shape)],
             [helper.make_tensor("depth", TensorProto.INT64, [], [5])],
             [idx, values], one_hot(idx, 5, values, axis))

    scatter_and_select(out, rng)


def info(name, dtype, shape):
    return helper.make_tensor_value_info(name, dtype, shape)


def scatter_and_select(out, rng):
    f32 = np.float32
    F, I64, I32 = TensorProto.FLOAT, TensorProto.INT64, TensorProto.INT32

    # ScatterElements along axis 0 (a negative index; no two equal), and
    # along axis 1 adding, where equal indices add up in order.
    data = rng.standard_normal((3, 4)).astype(f32)
    idx = np.array([[2, 0, -1, 1], [0, 2, 1, -3]], np.int64)
    upd = rng.standard_normal((2, 4)).astype(f32)
    save(out, "scatter_elements",
         helper.make_node("ScatterElements", ["d", "i", "u"], ["y"], axis=0),
         [info("d", F, [3, 4]), info("i", I64, [2, 4]), info("u", F, [2, 4])],
         [info("y", F, [3, 4])], [], [data, idx, upd],
         scatter_elements(data, idx, upd, 0, "none"))
    idx = np.array([[1, 1, 3], [0, 3, 3], [2, 2, 2]], np.int64)
    upd = rng.standard_normal((3, 3)).astype(f32)
    save(out, "scatter_elements_add",
         helper.make_node("ScatterElements", ["d", "i", "u"], ["y"], axis=1,
                          reduction="add"),
         [info("d", F, ["n", 4]), info("i", I64, ["n", 3]),
          info("u", F, ["n", 3])],
         [info("y", F, ["n", 4])], [], [data, idx, upd],
         scatter_elements(data, idx, upd, 1, "add"))

    # ScatterND multiplying rows, one of them twice; max over elements.
    data = rng.standard_normal((4, 3)).astype(f32)
    idx = np.array([[1], [3], [1]], np.int64)
    upd = rng.standard_normal((3, 3)).astype(f32)
    save(out, "scatter_nd_mul",
         helper.make_node("ScatterND", ["d", "i", "u"], ["y"],
                          reduction="mul"),
         [info("d", F, [4, 3]), info("i", I64, [3, 1]), info("u", F, [3, 3])],
         [info("y", F, [4, 3])], [], [data, idx, upd],
         scatter_nd(data, idx, upd, "mul"))
    idx = np.array([[0, 2], [3, -1], [0, 2]], np.int64)
    upd = rng.standard_normal((3,)).astype(f32)
    save(out, "scatter_nd_max",
         helper.make_node("ScatterND", ["d", "i", "u"], ["y"],
                          reduction="max"),
         [info("d", F, [4, 3]), info("i", I64, [3, 2]), info("u", F, [3])],
         [info("y", F, [4, 3])], [], [data, idx, upd],
         scatter_nd(data, idx, upd, "max"))

    # TopK: the 3 largest of each row, with ties (equal values keep their
    # order); the 2 smallest of each column of int32; k given at run time.
    x = rng.integers(-4, 5, (3, 7)).astype(f32)
    save(out, "top_k",
         helper.make_node("TopK", ["x", "k"], ["v", "i"], axis=-1),
         [info("x", F, [3, 7])],
         [info("v", F, [3, 3]), info("i", I64, [3, 3])],
         [helper.make_tensor("k", I64, [1], [3])], [x], top_k(x, 3, 1, True))
    xi = rng.integers(-50, 50, (5, 4)).astype(np.int32)
    save(out, "top_k_smallest",
         helper.make_node("TopK", ["x", "k"], ["v", "i"], axis=0, largest=0),
         [info("x", I32, [5, 4])],
         [info("v", I32, [2, 4]), info("i", I64, [2, 4])],
         [helper.make_tensor("k", I64, [1], [2])], [xi],
         top_k(xi, 2, 0, False))
    x = rng.standard_normal((2, 9)).astype(f32)
    save(out, "top_k_runtime",
         helper.make_node("TopK", ["x", "k"], ["v", "i"]),
         [info("x", F, [2, 9]), info("k", I64, [1])],
         [info("v", F, [2, "k"]), info("i", I64, [2, "k"])], [],
         [x, np.array([4], np.int64)], top_k(x, 4, 1, True))

    # NonZero of an int32 tensor: the positions, row-major.
    x = rng.integers(-1, 2, (3, 5)).astype(np.int32)
    save(out, "non_zero",
         helper.make_node("NonZero", ["x"], ["y"]),
         [info("x", I32, [3, 5])], [info("y", I64, [2, "c"])], [], [x],
         np.array(np.nonzero(x), np.int64))

    # MaxUnpool of a 3 x 3 max pooling with stride 2 and a pad at the end
    # (the indices numpy's pooling gives, flat in the pooled input), into
    # the pooled input's shape and into a larger output_shape read at run
    # time (padded after the elements).
    src = rng.standard_normal((2, 3, 8, 9)).astype(f32)
    padded = np.pad(src, ((0, 0), (0, 0), (0, 1), (0, 0)),
                    constant_values=-np.inf)
    oh, ow = (8 + 1 - 3) // 2 + 1, (9 - 3) // 2 + 1
    pooled = np.empty((2, 3, oh, ow), f32)
    where = np.empty((2, 3, oh, ow), np.int64)
    for n, c, i, j in np.ndindex(pooled.shape):
        win = padded[n, c, 2 * i:2 * i + 3, 2 * j:2 * j + 3]
        r, q = np.unravel_index(np.argmax(win), win.shape)
        pooled[n, c, i, j] = win[r, q]
        where[n, c, i, j] = ((n * 3 + c) * 8 + 2 * i + r) * 9 + 2 * j + q
    unpooled = np.zeros(src.shape, f32)
    unpooled.reshape(-1)[where.reshape(-1)] = pooled.reshape(-1)
    attrs = dict(kernel_shape=[3, 3], strides=[2, 2], pads=[0, 0, 1, 0])
    save(out, "max_unpool",
         helper.make_node("MaxUnpool", ["x", "i"], ["y"], **attrs),
         [info("x", F, [2, 3, oh, ow]), info("i", I64, [2, 3, oh, ow])],
         [info("y", F, [2, 3, 8, 9])], [], [pooled, where], unpooled)
    larger = np.zeros((2, 3, 10, 11), f32)
    larger[:, :, :8, :9] = unpooled
    save(out, "max_unpool_shape",
         helper.make_node("MaxUnpool", ["x", "i", "s"], ["y"], **attrs),
         [info("x", F, [2, 3, oh, ow]), info("i", I64, [2, 3, oh, ow]),
          info("s", I64, [4])],
         [info("y", F, ["n", "c", "h", "w"])], [],
         [pooled, where, np.array([2, 3, 10, 11], np.int64)], larger)

    # Slice with starts, ends, axes and steps read at run time (a negative
    # step, an end past the dim, a start counted from the end) of a tensor
    # with a dynamic dim; and a dynamic dim sliced backwards by constants.
    x = rng.standard_normal((5, 7, 6)).astype(f32)
    save(out, "slice_runtime",
         helper.make_node("Slice", ["x", "s", "e", "a", "t"], ["y"]),
         [info("x", F, ["n", 7, 6]), info("s", I64, [2]),
          info("e", I64, [2]), info("a", I64, [2]), info("t", I64, [2])],
         [info("y", F, ["p", "q", "r"])], [],
         [x, np.array([-2, 1], np.int64), np.array([-100, 50], np.int64),
          np.array([-1, 0], np.int64), np.array([-2, 2], np.int64)],
         x[1:50:2, :, -2:-100:-2])
    save(out, "slice_dynamic_back",
         helper.make_node("Slice", ["x", "s", "e", "a", "t"], ["y"]),
         [info("x", F, ["n", 7, 6])], [info("y", F, ["p", 7, 6])],
         [helper.make_tensor("s", I64, [1], [-1]),
          helper.make_tensor("e", I64, [1], [0]),
          helper.make_tensor("a", I64, [1], [0]),
          helper.make_tensor("t", I64, [1], [-1])],
         [x], x[-1:0:-1])

    # BitShift of uint8 (cast from int32 at the graph's edges, which take
    # no uint8), by 0 to 9 bits: shifts of 8 or more give 0.
    for direction in ["LEFT", "RIGHT"]:
        name = "bit_shift_" + direction.lower()
        a = rng.integers(0, 256, (4, 10)).astype(np.int32)
        k = np.tile(np.arange(10, dtype=np.int32), (4, 1))
        g = helper.make_graph(
            [helper.make_node("Cast", ["a"], ["a8"], to=TensorProto.UINT8),
             helper.make_node("Cast", ["k"], ["k8"], to=TensorProto.UINT8),
             helper.make_node("BitShift", ["a8", "k8"], ["s8"],
                              direction=direction),
             helper.make_node("Cast", ["s8"], ["s"], to=TensorProto.INT32)],
            name, [info("a", I32, [4, 10]), info("k", I32, [4, 10])],
            [info("s", I32, [4, 10])])
        m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])
        onnx.checker.check_model(m)
        onnx.save(m, os.path.join(out, name + ".onnx"))
        shift = np.left_shift if direction == "LEFT" else np.right_shift
        np.savez(os.path.join(out, name + ".inputs.npz"), Input0=a, Input1=k)
        np.savez(os.path.join(out, name + ".expected.npz"),
                 Output0=shift(a.astype(np.uint8),
                               k.astype(np.uint8)).astype(np.int32))


if __name__ == "__main__":
    main(sys.argv[1])
