"""Writes ONNX models of the sequence and optional ops (SplitToSequence,
SequenceInsert, SequenceErase, SequenceLength, SequenceAt, SequenceMap,
ConcatFromSequence, SequenceConstruct, Optional, OptionalHasElement,
OptionalGetElement) and of Unique into DIR, each with NAME.inputs.npz and
NAME.expected.npz: the expected outputs computed here with numpy (np.split,
np.concatenate, np.stack, np.unique), not by any compiler. Sequences live
inside the graphs: their inputs and outputs are tensors.

usage: make_sequence_models.py DIR"""
import sys

import numpy as np
from onnx import TensorProto as T, helper

from onnx_cases import graph, info, node, write_case, write_model

f32 = np.float32


def main(out):
    rng = np.random.default_rng(11)

    # Split into parts of 2, 1 and 3 rows, a tensor inserted second, the
    # last part erased, joined again; and the sequence's length.
    x = rng.standard_normal((6, 4)).astype(f32)
    y = rng.standard_normal((5, 4)).astype(f32)
    write_model(out, "split_insert_concat", graph(
        "split_insert_concat",
        [node("SplitToSequence", ["x", "parts"], ["s0"], axis=0),
         node("SequenceInsert", ["s0", "y", "one"], ["s1"]),
         node("SequenceErase", ["s1", "last"], ["s2"]),
         node("ConcatFromSequence", ["s2"], ["z"], axis=0),
         node("SequenceLength", ["s2"], ["n"])],
        [info("x", T.FLOAT, [6, 4]), info("y", T.FLOAT, [5, 4])],
        [info("z", T.FLOAT, [8, 4]), info("n", T.INT64, [])],
        {"parts": np.array([2, 1, 3], np.int64),
         "one": np.array(1, np.int64), "last": np.array(-1, np.int64)}))
    write_case(out, "split_insert_concat", [x, y],
               [np.concatenate([x[:2], y, x[2:3]]), np.array(3, np.int64)])

    # Columns as a sequence (keepdims 0), stacked as rows (new_axis), and
    # the column at a position read at run time (counted from the end).
    x = rng.standard_normal((3, 5)).astype(f32)
    write_model(out, "columns", graph(
        "columns",
        [node("SplitToSequence", ["x"], ["s"], axis=1, keepdims=0),
         node("ConcatFromSequence", ["s"], ["t"], axis=0, new_axis=1),
         node("SequenceAt", ["s", "p"], ["c"])],
        [info("x", T.FLOAT, [3, 5]), info("p", T.INT64, [])],
        [info("t", T.FLOAT, [5, 3]), info("c", T.FLOAT, [3])]))
    write_case(out, "columns", [x, np.array(-2, np.int64)],
               [np.ascontiguousarray(x.T), x[:, 3]])

    # SequenceMap: every part of 2 columns plus a bias, through ReLU, and
    # its sum with the matching part of a second sequence.
    x = rng.standard_normal((4, 6)).astype(f32)
    w = rng.standard_normal((4, 6)).astype(f32)
    bias = rng.standard_normal(2).astype(f32)
    body = helper.make_graph(
        [node("Add", ["e", "b"], ["a"]), node("Relu", ["a"], ["r"]),
         node("Add", ["r", "f"], ["o"])],
        "body",
        [info("e", T.FLOAT, [4, 2]), info("f", T.FLOAT, [4, 2]),
         info("b", T.FLOAT, [2])],
        [info("o", T.FLOAT, [4, 2])])
    write_model(out, "sequence_map", graph(
        "sequence_map",
        [node("SplitToSequence", ["x", "two"], ["s"], axis=1),
         node("SplitToSequence", ["w", "two"], ["u"], axis=1),
         node("SequenceMap", ["s", "u", "bias"], ["m"], body=body),
         node("ConcatFromSequence", ["m"], ["y"], axis=1)],
        [info("x", T.FLOAT, [4, 6]), info("w", T.FLOAT, [4, 6]),
         info("bias", T.FLOAT, [2])],
        [info("y", T.FLOAT, [4, 6])],
        {"two": np.array(2, np.int64)}))
    write_case(out, "sequence_map", [x, w, bias],
               [np.maximum(x + np.tile(bias, 3), 0) + w])

    # SequenceConstruct of two tensors and an optional around a tensor.
    a = rng.standard_normal((2, 3)).astype(f32)
    b = rng.standard_normal((2, 3)).astype(f32)
    write_model(out, "construct_optional", graph(
        "construct_optional",
        [node("SequenceConstruct", ["a", "b"], ["s"]),
         node("ConcatFromSequence", ["s"], ["c"], axis=-1),
         node("Optional", ["a"], ["o"]),
         node("OptionalHasElement", ["o"], ["has"]),
         node("OptionalGetElement", ["o"], ["got"])],
        [info("a", T.FLOAT, [2, 3]), info("b", T.FLOAT, [2, 3])],
        [info("c", T.FLOAT, [2, 6]), info("has", T.BOOL, []),
         info("got", T.FLOAT, [2, 3])]))
    write_case(out, "construct_optional", [a, b],
               [np.concatenate([a, b], -1), np.array(True), a])

    # Unique of a flattened tensor, sorted and in order of appearance, and
    # of the rows of a matrix (axis 0).
    x = rng.integers(-3, 4, (4, 5)).astype(np.int64)
    values, first, inverse, counts = np.unique(
        x, return_index=True, return_inverse=True, return_counts=True)
    outs = ["y", "i", "v", "c"]
    out_infos = [info("y", T.INT64, ["m"]), info("i", T.INT64, ["m"]),
                 info("v", T.INT64, [20]), info("c", T.INT64, ["m"])]
    write_model(out, "unique_sorted", graph(
        "unique_sorted", [node("Unique", ["x"], outs)],
        [info("x", T.INT64, [4, 5])], out_infos))
    write_case(out, "unique_sorted", [x],
               [values, first.astype(np.int64),
                inverse.reshape(-1).astype(np.int64),
                counts.astype(np.int64)])
    order = np.argsort(first, kind="stable")
    rank = np.empty_like(order)
    rank[order] = np.arange(len(order))
    write_model(out, "unique_unsorted", graph(
        "unique_unsorted", [node("Unique", ["x"], outs, sorted=0)],
        [info("x", T.INT64, [4, 5])], out_infos))
    write_case(out, "unique_unsorted", [x],
               [values[order], first[order].astype(np.int64),
                rank[inverse.reshape(-1)].astype(np.int64),
                counts[order].astype(np.int64)])
    rows = rng.standard_normal((3, 4)).astype(f32)
    m = rows[[2, 0, 2, 1, 0, 2]]
    values, first, inverse, counts = np.unique(
        m, axis=0, return_index=True, return_inverse=True,
        return_counts=True)
    write_model(out, "unique_rows", graph(
        "unique_rows", [node("Unique", ["x"], outs, axis=0)],
        [info("x", T.FLOAT, [6, 4])],
        [info("y", T.FLOAT, ["m", 4]), info("i", T.INT64, ["m"]),
         info("v", T.INT64, [6]), info("c", T.INT64, ["m"])]))
    write_case(out, "unique_rows", [m],
               [values, first.astype(np.int64),
                inverse.reshape(-1).astype(np.int64),
                counts.astype(np.int64)])

    # Refused, naming the node: a position known only at run time where
    # the list changes.
    write_model(out, "insert_runtime", graph(
        "insert_runtime",
        [node("SequenceConstruct", ["a"], ["s"]),
         node("SequenceInsert", ["s", "a", "p"], ["t"], name="put"),
         node("ConcatFromSequence", ["t"], ["c"], axis=0)],
        [info("a", T.FLOAT, [2]), info("p", T.INT64, [])],
        [info("c", T.FLOAT, [4])]))


if __name__ == "__main__":
    main(sys.argv[1])
