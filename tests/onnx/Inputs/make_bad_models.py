"""Writes the malformed or unsupported ONNX models of the bad-input tests.

usage: make_bad_models.py OUTDIR

Each file is made with onnx.helper from a small valid model (y = relu(x @ W
+ b)), then broken one way: not a protobuf, cut short, an op ONNX has but
the importer does not, an op of another domain, a graph the checker
refuses (an input no node makes), nodes out of order (a cycle), an opset
newer than the importer reads, external data whose file is missing, too
short, a FIFO, named by an absolute path, or at an offset that is not a
number (and one that is right), an initializer whose data does not fill
its shape, a string input; ops the converters refuse (a Resize of a mode
ONNX does not define, a ScatterND reduction it does not define, one whose
updates have the wrong rank) and an Einsum
whose terms do not match its inputs.
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


def model(nodes, inputs=None, outputs=None, inits=None, opset=17, name="m"):
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 4])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 3])
    g = helper.make_graph(nodes, name, inputs or [x], outputs or [y],
                          initializer=inits or [])
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)])


def good(opset=17):
    w = numpy_helper.from_array(np.ones((4, 3), np.float32), "w")
    return model([helper.make_node("MatMul", ["x", "w"], ["h"], name="mm"),
                  helper.make_node("Relu", ["h"], ["y"], name="act")],
                 inits=[w], opset=opset)


def save(out, name, m):
    with open(os.path.join(out, name), "wb") as f:
        f.write(m.SerializeToString() if not isinstance(m, bytes) else m)


def main(out):
    os.makedirs(out, exist_ok=True)
    save(out, "good.onnx", good())
    save(out, "garbage.onnx", b"\xff\xfe this is not a protobuf \x00\x01")
    save(out, "truncated.onnx", good().SerializeToString()[:40])
    w = numpy_helper.from_array(np.ones((4, 3), np.float32), "w")
    # StringNormalizer (of a constant: a graph cannot take strings) has no
    # converter.
    words = helper.make_tensor("words", TensorProto.STRING, [3],
                               [b"a", b"b", b"c"])
    save(out, "unsupported-op.onnx", model(
        [helper.make_node("MatMul", ["x", "w"], ["h"], name="mm"),
         helper.make_node("StringNormalizer", ["words"], ["n"], name="pick"),
         helper.make_node("Cast", ["n"], ["f"], to=TensorProto.FLOAT),
         helper.make_node("Add", ["h", "f"], ["y"])],
        inits=[w, words]))
    other = model([helper.make_node("MatMul", ["x", "w"], ["h"], name="mm"),
                   helper.make_node("FusedGelu", ["h"], ["y"], name="gelu",
                                    domain="com.example")], inits=[w])
    other.opset_import.append(helper.make_opsetid("com.example", 1))
    save(out, "other-domain.onnx", other)
    save(out, "unchecked.onnx", model(
        [helper.make_node("Relu", ["nowhere"], ["y"], name="act")]))
    save(out, "cycle.onnx", model(
        [helper.make_node("Relu", ["h"], ["y"], name="second"),
         helper.make_node("MatMul", ["x", "w"], ["h"], name="first")],
        inits=[w]))
    save(out, "new-opset.onnx", good(opset=99))
    ext = good()
    t = ext.graph.initializer[0]
    t.ClearField("raw_data")
    t.data_location = TensorProto.EXTERNAL
    for k, v in (("location", "missing.bin"), ("offset", "0"),
                 ("length", "48")):
        e = t.external_data.add()
        e.key, e.value = k, v
    save(out, "missing-external.onnx", ext)
    # Weights in a file beside the model, as torch.onnx.export writes them
    # for models over 2 GB: read correctly, and refused when the file is
    # shorter than the model says or its offset is not a number.
    np.arange(12, dtype=np.float32).reshape(4, 3).tofile(
        os.path.join(out, "w.bin"))
    absolute = os.path.join(os.path.abspath(out), "w.bin")
    for name, offset, length in (("external.onnx", "0", "48"),
                                 ("external-absolute.onnx", "0", "48"),
                                 ("external-short.onnx", "8", "48"),
                                 ("external-offset.onnx", "x8", "48"),
                                 ("external-fifo.onnx", "0", "48")):
        ext = good()
        t = ext.graph.initializer[0]
        t.ClearField("raw_data")
        t.data_location = TensorProto.EXTERNAL
        where = ("fifo.bin" if "fifo" in name else
                 absolute if "absolute" in name else "w.bin")
        for k, v in (("location", where), ("offset", offset),
                     ("length", length)):
            e = t.external_data.add()
            e.key, e.value = k, v
        save(out, name, ext)
    absurd = good()
    absurd.graph.initializer[0].dims[:] = [4, 1 << 40]
    save(out, "absurd-dims.onnx", absurd.SerializeToString())
    s = helper.make_tensor_value_info("x", TensorProto.STRING, [2])
    save(out, "string-input.onnx", model(
        [helper.make_node("Identity", ["x"], ["y"], name="same")],
        inputs=[s], outputs=[helper.make_tensor_value_info(
            "y", TensorProto.STRING, [2])]))

    # Valid ONNX that the converters refuse, each naming what it takes.
    image = helper.make_tensor_value_info("x", TensorProto.FLOAT,
                                          [1, 1, 2, 2])
    big = helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 1, 4, 4])
    scales = numpy_helper.from_array(np.array([1, 1, 2, 2], np.float32), "s")
    save(out, "resize-lanczos.onnx", model(
        [helper.make_node("Resize", ["x", "", "s"], ["y"], name="up",
                          mode="lanczos")],
        inputs=[image], outputs=[big], inits=[scales]))
    save(out, "einsum-terms.onnx", model(
        [helper.make_node("Einsum", ["x"], ["y"], name="contract",
                          equation="ij,jk->ik")],
        outputs=[helper.make_tensor_value_info("y", TensorProto.FLOAT,
                                               [2, 4])]))
    at = numpy_helper.from_array(np.zeros((1, 1), np.int64), "at")
    row = numpy_helper.from_array(np.ones((1, 4), np.float32), "row")
    save(out, "scatter-reduction.onnx", model(
        [helper.make_node("ScatterND", ["x", "at", "row"], ["y"],
                          name="put", reduction="avg")],
        outputs=[helper.make_tensor_value_info("y", TensorProto.FLOAT,
                                               [2, 4])],
        inits=[at, row]))

    vector = numpy_helper.from_array(np.ones((1, 1, 4), np.float32), "deep")
    save(out, "scatter-updates.onnx", model(
        [helper.make_node("ScatterND", ["x", "at", "deep"], ["y"],
                          name="put")],
        outputs=[helper.make_tensor_value_info("y", TensorProto.FLOAT,
                                               [2, 4])],
        inits=[at, vector]))

    # Found by the fuzz target: an output nothing defines, in a model the
    # version converter upgrades (it crashed there), and a branch whose
    # declared output type its node cannot make.
    save(out, "undefined-output.onnx", model(
        [helper.make_node("Relu", ["x"], ["h"], name="act")], opset=16))
    def info(name, shape):
        return helper.make_tensor_value_info(name, TensorProto.FLOAT, shape)

    def branch(name, node, out, shape):
        return helper.make_graph([node], name, [], [info(out, shape)])
    # ONNX's shape inference lets the inner branch's wrong rank through
    # where the outer If's result has unknown dims.
    inner = helper.make_node(
        "If", ["b"], ["e"], name="inner",
        then_branch=branch("inner_then",
                           helper.make_node("Neg", ["x"], ["n"], name="flip"),
                           "n", [2]),
        else_branch=branch("inner_else",
                           helper.make_node("Transpose", ["x"], ["tr"],
                                            perm=[1, 0]), "tr", [4, 2]))
    save(out, "branch-type.onnx", model(
        [helper.make_node(
            "If", ["a"], ["y"], name="outer",
            then_branch=branch("then", helper.make_node("Identity", ["x"],
                                                        ["t"]), "t", [2, 4]),
            else_branch=helper.make_graph([inner], "else", [],
                                          [info("e", [None, None])]))],
        inputs=[info("x", [2, 4]),
                helper.make_tensor_value_info("a", TensorProto.BOOL, []),
                helper.make_tensor_value_info("b", TensorProto.BOOL, [1])],
        outputs=[info("y", [None, None])]))
    # A Loop's body that declares its carried value with other static dims
    # than the Loop gives it.
    body = helper.make_graph(
        [helper.make_node("Identity", ["c"], ["c2"]),
         helper.make_node("Neg", ["v"], ["v2"], name="flip")], "body",
        [helper.make_tensor_value_info("i", TensorProto.INT64, []),
         helper.make_tensor_value_info("c", TensorProto.BOOL, []),
         info("v", [4, 2])],
        [helper.make_tensor_value_info("c2", TensorProto.BOOL, []),
         info("v2", [4, 2])])
    save(out, "body-type.onnx", model(
        [helper.make_node("Loop", ["m", "", "x"], ["y"], name="repeat",
                          body=body)],
        inputs=[info("x", [2, 4]),
                helper.make_tensor_value_info("m", TensorProto.INT64, [])],
        outputs=[info("y", [None, None])]))

    # Weights of another rank than the image: ONNX 1.12's shape inference
    # reads past their shape (it crashed the process).
    flat = numpy_helper.from_array(np.ones((4, 4, 3, 3), np.float32), "w4")
    for op in ("Conv", "ConvTranspose"):
        save(out, "%s-weight-rank.onnx" % op.lower(), model(
            [helper.make_node(op, ["x", "w4"], ["y"], name="filter")],
            inputs=[info("x", [1, 4, 10])], outputs=[info("y", [1, 4, 8])],
            inits=[flat]))
    # A 1-D convolution (taken as a 2-D one of height 1) whose window the
    # 2-D converter refuses: the error names the 1-D node.
    w3 = numpy_helper.from_array(np.ones((4, 4, 3), np.float32), "w3")
    save(out, "conv1d-runtime-transpose.onnx", model(
        [helper.make_node("ConvTranspose", ["x", "w"], ["y"], name="up")],
        inputs=[info("x", [1, 4, 10]), info("w", [4, 4, 3])],
        outputs=[info("y", [1, 4, 12])]))

    # Found by tests/onnx/op_sweep.py: ONNX 1.12's inference crashed on the
    # first five, the converters on the other two.
    save(out, "norm-axis.onnx", model(
        [helper.make_node("LayerNormalization", ["x", "s"], ["y"],
                          name="norm", axis=-2)],
        inputs=[info("x", [5]), info("s", [5])], outputs=[info("y", [5])]))
    save(out, "split-zero.onnx", model(
        [helper.make_node("SplitToSequence", ["x", "size"], ["parts"],
                          name="cut"),
         helper.make_node("SequenceAt", ["parts", "size"], ["y"])],
        inputs=[info("x", [3, 4])], outputs=[info("y", [3, 4])],
        inits=[numpy_helper.from_array(np.array(0, np.int64), "size")]))
    save(out, "unpool-indices.onnx", model(
        [helper.make_node("MaxUnpool", ["x", "at"], ["y"], name="unpool",
                          kernel_shape=[2, 2])],
        inputs=[info("x", [1, 2, 3, 3]),
                helper.make_tensor_value_info("at", TensorProto.INT64, [2])],
        outputs=[info("y", [1, 2, 4, 4])]))
    save(out, "gather-batch-dims.onnx", model(
        [helper.make_node("GatherND", ["x", "at"], ["y"], name="pick",
                          batch_dims=-2)],
        inputs=[info("x", [2, 4]),
                helper.make_tensor_value_info("at", TensorProto.INT64,
                                              [2, 1])],
        outputs=[info("y", [2])]))
    save(out, "pool-stride-zero.onnx", model(
        [helper.make_node("MaxPool", ["x"], ["y"], name="pool",
                          kernel_shape=[2, 2], strides=[0, 1])],
        inputs=[info("x", [1, 2, 4, 4])], outputs=[info("y", [1, 2, 3, 3])]))
    save(out, "conv-group-zero.onnx", model(
        [helper.make_node("Conv", ["x", "w2"], ["y"], name="filter",
                          group=0)],
        inputs=[info("x", [1, 4, 5, 5])], outputs=[info("y", [1, 4, 3, 3])],
        inits=[numpy_helper.from_array(np.ones((4, 4, 3, 3), np.float32),
                                       "w2")]))
    save(out, "rnn-scalar-weights.onnx", model(
        [helper.make_node("RNN", ["x", "W", "R"], ["", "h"], name="cell",
                          hidden_size=5)],
        inputs=[info("x", [4, 1, 3])], outputs=[info("h", [1, 1, 5])],
        inits=[numpy_helper.from_array(np.ones((1, 5, 3), np.float32), "W"),
               numpy_helper.from_array(np.array(1, np.float32), "R")]))

    # A 3-D convolution in groups of several channels: refused, named.
    save(out, "conv3d-groups.onnx", model(
        [helper.make_node("Conv", ["x", "w5"], ["y"], name="video",
                          group=2)],
        inputs=[info("x", [1, 4, 3, 5, 5])],
        outputs=[info("y", [1, 4, 1, 3, 3])],
        inits=[numpy_helper.from_array(np.ones((4, 2, 3, 3, 3), np.float32),
                                       "w5")]))

    # ceil_mode over an image of dynamic height and width: refused, named
    # (its last window's padding is made at import).
    save(out, "pool-ceil-dynamic.onnx", model(
        [helper.make_node("MaxPool", ["x"], ["y"], name="pool",
                          kernel_shape=[2, 2], strides=[2, 2], ceil_mode=1)],
        inputs=[info("x", [1, 2, "h", "w"])],
        outputs=[info("y", [1, 2, None, None])]))


if __name__ == "__main__":
    main(sys.argv[1])
