"""What the model-writing scripts beside this file share: value infos, nodes,
and writing a model (checked by ONNX's checker, opset 17) and the inputs and
expected outputs of one run of it, in aot-run's Input%d / Output%d form."""
import os

import numpy as np
import onnx
from onnx import helper, numpy_helper


def info(name, dtype, shape):
    return helper.make_tensor_value_info(name, dtype, shape)


def node(op, ins, outs, **attrs):
    return helper.make_node(op, ins, outs, **attrs)


def graph(name, nodes, inputs, outputs, inits=None):
    """A graph of `nodes`; `inits` maps initializer names to numpy arrays."""
    return helper.make_graph(
        nodes, name, inputs, outputs,
        initializer=[numpy_helper.from_array(v, k)
                     for k, v in (inits or {}).items()])


def write_model(out, name, g):
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])
    onnx.checker.check_model(m)
    onnx.save(m, os.path.join(out, name + ".onnx"))


def write_case(out, stem, inputs, expected):
    """STEM.inputs.npz and STEM.expected.npz in DIR `out`."""
    np.savez(os.path.join(out, stem + ".inputs.npz"),
             **{"Input%d" % i: v for i, v in enumerate(inputs)})
    np.savez(os.path.join(out, stem + ".expected.npz"),
             **{"Output%d" % i: v for i, v in enumerate(expected)})
