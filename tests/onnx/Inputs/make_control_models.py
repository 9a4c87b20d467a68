"""Writes ONNX models of If and Loop into DIR, each with inputs and expected outputs
for each branch (NAME.CASE.inputs.npz, NAME.CASE.expected.npz), the expected
ones computed here with numpy, not by any compiler.

  if_sign    the sign of sum(x) picks x * two (an initializer of the main
             graph, read inside the branch) or x - 1 (a Constant of the
             branch); cases "then" and "else".
  if_shapes  the branches make results of different shapes (a [2, 3] input
             as it is, or transposed), and the else branch holds an If of
             its own; the result's dims are dynamic. Cases "then", "else"
             (the inner If's else) and "inner" (its then).
  loop_count a Loop of M iterations (M an input: 0 and 3), the value
             carried times 1.5 plus the iteration number.
  loop_while a Loop without M, doubling a tensor of a dynamic dim until its
             sum reaches 100; the first condition an input (true, false).
  loop_scan  a Loop of M iterations (5 and 0) with two scan outputs: the
             value carried after each iteration, and its sum (a scalar).
  loop_scan_while  loop_while with each doubled tensor (a dynamic dim) as a
             scan output.

usage: make_control_models.py DIR"""
import sys

import numpy as np
from onnx import TensorProto as T, helper, numpy_helper

from onnx_cases import info, node, write_case, write_model

f32 = np.float32


def save(out, name, g, cases):
    write_model(out, name, g)
    for case, (inputs, expected) in cases.items():
        write_case(out, "%s.%s" % (name, case), inputs, expected)


def if_sign(out, rng):
    then_branch = helper.make_graph(
        [node("Mul", ["x", "two"], ["t"])], "then", [],
        [info("t", T.FLOAT, [2, 3])])
    else_branch = helper.make_graph(
        [node("Constant", [], ["one"],
              value=numpy_helper.from_array(np.array(1, f32))),
         node("Sub", ["x", "one"], ["e"])], "else", [],
        [info("e", T.FLOAT, [2, 3])])
    graph = helper.make_graph(
        [node("ReduceSum", ["x"], ["s"], keepdims=0),
         node("Greater", ["s", "zero"], ["c"]),
         node("If", ["c"], ["y"], name="pick", then_branch=then_branch,
              else_branch=else_branch)],
        "if_sign", [info("x", T.FLOAT, [2, 3])], [info("y", T.FLOAT, [2, 3])],
        [numpy_helper.from_array(np.array(2, f32), "two"),
         numpy_helper.from_array(np.array(0, f32), "zero")])
    pos = np.abs(rng.standard_normal((2, 3))).astype(f32)
    neg = -pos
    save(out, "if_sign", graph, {"then": ([pos], [pos * 2]),
                                 "else": ([neg], [neg - 1])})


def if_shapes(out, rng):
    then_branch = helper.make_graph(
        [node("Identity", ["x"], ["t"])], "then", [],
        [info("t", T.FLOAT, [2, 3])])
    inner_then = helper.make_graph(
        [node("Neg", ["x"], ["n"])], "inner_then", [],
        [info("n", T.FLOAT, [2, 3])])
    inner_else = helper.make_graph(
        [node("Transpose", ["x"], ["tr"], perm=[1, 0])], "inner_else", [],
        [info("tr", T.FLOAT, [3, 2])])
    else_branch = helper.make_graph(
        [node("If", ["b"], ["e"], name="inner", then_branch=inner_then,
              else_branch=inner_else)], "else", [],
        [info("e", T.FLOAT, [None, None])])
    graph = helper.make_graph(
        [node("If", ["a"], ["y"], name="outer", then_branch=then_branch,
              else_branch=else_branch)],
        "if_shapes",
        [info("x", T.FLOAT, [2, 3]), info("a", T.BOOL, []),
         info("b", T.BOOL, [1])],
        [info("y", T.FLOAT, [None, None])])
    x = rng.standard_normal((2, 3)).astype(f32)
    t, f = np.array(True), np.array([False])
    save(out, "if_shapes", graph, {
        "then": ([x, t, f], [x]),
        "else": ([x, np.array(False), f], [x.T.copy()]),
        "inner": ([x, np.array(False), np.array([True])], [-x])})


def loop_count(out, rng):
    body = helper.make_graph(
        [node("Cast", ["i"], ["fi"], to=T.FLOAT),
         node("Mul", ["v", "scale"], ["scaled"]),
         node("Add", ["scaled", "fi"], ["v2"]),
         node("Identity", ["c"], ["c2"])], "body",
        [info("i", T.INT64, []), info("c", T.BOOL, []),
         info("v", T.FLOAT, [2, 3])],
        [info("c2", T.BOOL, []), info("v2", T.FLOAT, [2, 3])])
    graph = helper.make_graph(
        [node("Loop", ["m", "", "x"], ["y"], name="repeat", body=body)],
        "loop_count", [info("x", T.FLOAT, [2, 3]), info("m", T.INT64, [])],
        [info("y", T.FLOAT, [2, 3])],
        [numpy_helper.from_array(np.array(1.5, f32), "scale")])
    x = rng.standard_normal((2, 3)).astype(f32)

    def run(m):
        v = x.copy()
        for i in range(m):
            v = (v * f32(1.5) + f32(i)).astype(f32)
        return v
    save(out, "loop_count", graph, {
        "zero": ([x, np.array(0, np.int64)], [run(0)]),
        "three": ([x, np.array(3, np.int64)], [run(3)])})


def doubling_body(scan):
    """v2 = v * 2 while its sum is under 100; v2 also a scan output where
    `scan`."""
    outs = [info("c2", T.BOOL, []), info("v2", T.FLOAT, [None, 3])]
    return helper.make_graph(
        [node("Mul", ["v", "two"], ["v2"]),
         node("ReduceSum", ["v2"], ["s"], keepdims=0),
         node("Less", ["s", "limit"], ["c2"])], "body",
        [info("i", T.INT64, []), info("c", T.BOOL, []),
         info("v", T.FLOAT, [None, 3])],
        outs + outs[1:] * scan)


def loop_while(out, rng):
    body = doubling_body(False)
    graph = helper.make_graph(
        [node("Loop", ["", "go", "x"], ["y"], name="double", body=body)],
        "loop_while", [info("x", T.FLOAT, ["n", 3]), info("go", T.BOOL, [])],
        [info("y", T.FLOAT, ["n", 3])],
        [numpy_helper.from_array(np.array(2, f32), "two"),
         numpy_helper.from_array(np.array(100, f32), "limit")])
    x = np.abs(rng.standard_normal((4, 3))).astype(f32) + f32(0.1)

    def run(go):
        v = x.copy()
        while go:
            v = v * f32(2)
            go = v.sum() < 100
        return v
    save(out, "loop_while", graph, {
        "doubles": ([x, np.array(True)], [run(True)]),
        "never": ([x, np.array(False)], [run(False)])})


def loop_scan(out, rng):
    body = helper.make_graph(
        [node("Cast", ["i"], ["fi"], to=T.FLOAT),
         node("Mul", ["x", "fi"], ["step"]),
         node("Add", ["v", "step"], ["v2"]),
         node("ReduceSum", ["v2"], ["s"], keepdims=0),
         node("Identity", ["c"], ["c2"])], "body",
        [info("i", T.INT64, []), info("c", T.BOOL, []),
         info("v", T.FLOAT, [3])],
        [info("c2", T.BOOL, []), info("v2", T.FLOAT, [3]),
         info("v2", T.FLOAT, [3]), info("s", T.FLOAT, [])])
    graph = helper.make_graph(
        [node("Loop", ["m", "", "x"], ["y", "ys", "sums"], name="scan",
              body=body)],
        "loop_scan", [info("x", T.FLOAT, [3]), info("m", T.INT64, [])],
        [info("y", T.FLOAT, [3]), info("ys", T.FLOAT, [None, 3]),
         info("sums", T.FLOAT, [None])])
    x = rng.standard_normal(3).astype(f32)

    def run(m):
        v, ys, sums = x.copy(), [], []
        for i in range(m):
            v = (v + x * f32(i)).astype(f32)
            ys.append(v)
            sums.append(v.astype(np.float64).sum())
        return [v, np.array(ys, f32).reshape(m, 3), np.array(sums, f32)]
    save(out, "loop_scan", graph, {
        "five": ([x, np.array(5, np.int64)], run(5)),
        "zero": ([x, np.array(0, np.int64)], run(0))})


def loop_scan_while(out, rng):
    body = doubling_body(True)
    graph = helper.make_graph(
        [node("Loop", ["", "go", "x"], ["y", "ys"], name="double",
              body=body)],
        "loop_scan_while", [info("x", T.FLOAT, ["n", 3]),
                            info("go", T.BOOL, [])],
        [info("y", T.FLOAT, ["n", 3]), info("ys", T.FLOAT, [None, "n", 3])],
        [numpy_helper.from_array(np.array(2, f32), "two"),
         numpy_helper.from_array(np.array(100, f32), "limit")])
    x = np.abs(rng.standard_normal((4, 3))).astype(f32) + f32(0.5)
    v, ys, go = x.copy(), [], True
    while go:
        v = v * f32(2)
        ys.append(v)
        go = v.sum() < 100
    assert len(ys) == 3, len(ys)  # what the test checks
    save(out, "loop_scan_while", graph, {
        "doubles": ([x, np.array(True)], [v, np.array(ys)])})


def main(out):
    rng = np.random.default_rng(31)
    if_sign(out, rng)
    if_shapes(out, rng)
    loop_count(out, rng)
    loop_while(out, rng)
    loop_scan(out, rng)
    loop_scan_while(out, rng)


if __name__ == "__main__":
    main(sys.argv[1])
