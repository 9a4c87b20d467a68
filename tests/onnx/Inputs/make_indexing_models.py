"""Writes ONNX models of GatherND and OneHot into DIR, each with inputs.npz
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
    np.savez(os.path.join(out, name + ".expected.npz"), Output0=expected)


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


if __name__ == "__main__":
    main(sys.argv[1])
