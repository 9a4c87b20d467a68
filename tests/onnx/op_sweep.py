"""Random one-node models of every op of ONNX's default domain (opset 17),
compiled by aot-compile: each must compile or fail with a message (exit 0
or 1), never crash, hang or exit otherwise.

usage: op_sweep.py AOT_COMPILE [--per-op N] [--seed S] [--jobs J] [--keep DIR]

For each op the sweep draws inputs from its schema (element types its type
constraints allow, ranks 0 to 5 with dims of 1 to 4 that mostly agree, some
of them initializers of small values), optional inputs left out or given,
and attributes of odd values (negative, zero, out of range, empty lists,
strings of other ops' modes). A draw that ONNX's checker or shape inference
rejects is drawn again; one whose inference crashes the process (ONNX's own
bugs, seen in a child process) is kept with outputs of unknown dims, for
the importer must survive what crashed ONNX. The draws are those of the
seed: a crash found is found again.

Exit 0 when no case crashed; 1 naming each case that did (kept in --keep
DIR, or a temporary folder that is then left in place); 77 (skipped) when
onnx or numpy is missing.
"""
import argparse
import concurrent.futures
import os
import random
import shutil
import subprocess
import sys
import tempfile

try:
    import numpy as np
    import onnx
    from onnx import TensorProto as T
    from onnx import defs, helper, numpy_helper, shape_inference
except ImportError as e:
    print("skipped: %s (Debian: python3-onnx python3-numpy)" % e)
    sys.exit(77)

ELEMENT_TYPES = {
    "tensor(float)": T.FLOAT, "tensor(double)": T.DOUBLE,
    "tensor(float16)": T.FLOAT16, "tensor(bfloat16)": T.BFLOAT16,
    "tensor(int8)": T.INT8, "tensor(int16)": T.INT16,
    "tensor(int32)": T.INT32, "tensor(int64)": T.INT64,
    "tensor(uint8)": T.UINT8, "tensor(uint16)": T.UINT16,
    "tensor(uint32)": T.UINT32, "tensor(uint64)": T.UINT64,
    "tensor(bool)": T.BOOL}
NUMPY = {T.FLOAT: np.float32, T.DOUBLE: np.float64, T.FLOAT16: np.float16,
         T.INT8: np.int8, T.INT16: np.int16, T.INT32: np.int32,
         T.INT64: np.int64, T.UINT8: np.uint8, T.UINT16: np.uint16,
         T.UINT32: np.uint32, T.UINT64: np.uint64, T.BOOL: np.bool_}
SIGNED = (T.INT8, T.INT16, T.INT32, T.INT64)
# Modes and equations of many ops, so that each string attribute is
# sometimes valid and often not.
STRINGS = ["NOTSET", "SAME_UPPER", "SAME_LOWER", "VALID", "linear", "nearest",
           "cubic", "LEFT", "RIGHT", "constant", "reflect", "edge",
           "half_pixel", "asymmetric", "align_corners", "avg", "max", "sum",
           "mean", "none", "add", "mul", "floor", "round_prefer_floor",
           "bilinear", "zeros", "border", "Tanh", "Sigmoid", "Relu",
           "forward", "reverse", "bidirectional", "ij,jk->ik", "i->i",
           "...ii->...i", "DCR", "CRD", "", "?"]
Option = defs.OpSchema.FormalParameterOption
AttrType = defs.OpSchema.AttrType


def schemas():
    """The latest version up to 17 of every default-domain op."""
    latest = {}
    for s in defs.get_all_schemas_with_history():
        if s.domain == "" and s.since_version <= 17 and not s.deprecated:
            if s.name not in latest or (
                    latest[s.name].since_version < s.since_version):
                latest[s.name] = s
    return [latest[k] for k in sorted(latest)]


def element_types(schema, param):
    for c in schema.type_constraints:
        if c.type_param_str == param.typeStr:
            return [ELEMENT_TYPES[t] for t in c.allowed_type_strs
                    if t in ELEMENT_TYPES]
    return [ELEMENT_TYPES[param.typeStr]] if (
        param.typeStr in ELEMENT_TYPES) else []


def attribute(rng, a):
    if a.type == AttrType.INT:
        return rng.choice([-2, -1, 0, 1, 2, 3, 4, 7])
    if a.type == AttrType.INTS:
        return [rng.choice([-1, 0, 1, 2, 3, 4])
                for _ in range(rng.randint(0, 5))]
    if a.type == AttrType.FLOAT:
        return rng.choice([-1.0, 0.0, 0.5, 1.0, 2.5, 1e30, float("nan")])
    if a.type == AttrType.FLOATS:
        return [rng.choice([0.0, 0.5, 1.0, 2.0])
                for _ in range(rng.randint(0, 5))]
    if a.type == AttrType.STRING:
        return rng.choice(STRINGS)
    if a.type == AttrType.STRINGS:
        return [rng.choice(STRINGS) for _ in range(rng.randint(0, 3))]
    if a.type == AttrType.TENSOR:
        value = np.array(rng.choice([0, 1, 3]), np.int64)
        return numpy_helper.from_array(value.reshape([1] * rng.randint(0, 1)))
    return None  # graphs: not drawn


def draw(schema, rng):
    """A model of one node of `schema`, before inference; None where the
    schema's inputs cannot be drawn."""
    params = list(schema.inputs)
    if params and params[-1].option == Option.Variadic:
        params += [params[-1]] * rng.randint(0, 2)
    common = [rng.randint(1, 4) for _ in range(rng.randint(0, 5))]
    inputs, inits, names, chosen = [], [], [], {}
    for k, p in enumerate(params):
        if p.option == Option.Optional and rng.random() < 0.5:
            names.append("")
            continue
        kinds = element_types(schema, p)
        if not kinds:
            return None
        elem = chosen.setdefault(p.typeStr, rng.choice(kinds))
        if rng.random() < 0.6:
            shape = list(common)
            if shape and rng.random() < 0.3:
                shape = shape[rng.randint(0, len(shape)):]
        else:
            shape = [rng.randint(1, 4) for _ in range(rng.randint(0, 5))]
        name = "in%d" % k
        names.append(name)
        if elem == T.BFLOAT16 or rng.random() < 0.5:
            inputs.append(helper.make_tensor_value_info(name, elem, shape))
            continue
        count = int(np.prod(shape))
        if elem in SIGNED:
            values = [rng.randint(-3, 4) for _ in range(count)]
        else:
            values = [rng.random() * 4 - 1 for _ in range(count)]
        inits.append(numpy_helper.from_array(
            np.array(values).reshape(shape).astype(NUMPY[elem]), name))
    while names and names[-1] == "":
        names.pop()
    attrs = {}
    for a in schema.attributes.values():
        if a.required or rng.random() < 0.4:
            value = attribute(rng, a)
            if value is not None:
                attrs[a.name] = value
    outs = ["out%d" % k for k in range(max(1, len(schema.outputs)))]
    outs = outs[:rng.randint(1, len(outs))]
    try:
        node = helper.make_node(schema.name, names, outs, name="node",
                                **attrs)
    except Exception:
        return None
    outputs = [helper.make_tensor_value_info(o, T.UNDEFINED, None)
               for o in outs]
    graph = helper.make_graph([node], "sweep", inputs, outputs,
                              initializer=inits)
    return helper.make_model(graph,
                             opset_imports=[helper.make_opsetid("", 17)])


def typed(model, path):
    """Writes `model` with its outputs typed by ONNX's inference, in a child
    process; returns 'ok', 'rejected' (the checker or inference refuses it)
    or 'crashed' (inference killed the child)."""
    pid = os.fork()
    if pid == 0:
        code = 1
        try:
            m = shape_inference.infer_shapes(model, strict_mode=True)
            onnx.checker.check_model(m)
            if all(o.type.tensor_type.HasField("shape")
                   and o.type.tensor_type.elem_type for o in m.graph.output):
                onnx.save(m, path)
                code = 0
        except Exception:
            pass
        os._exit(code)
    _, status = os.waitpid(pid, 0)
    if os.WIFSIGNALED(status):
        return "crashed"
    return "ok" if os.WEXITSTATUS(status) == 0 else "rejected"


def cases(workdir, per_op, seed):
    rng = random.Random(seed)
    paths = []
    for schema in schemas():
        made = 0
        for attempt in range(per_op * 5):
            if made == per_op:
                break
            model = draw(schema, rng)
            if model is None:
                continue
            path = os.path.join(workdir, "%s_%d.onnx" % (schema.name,
                                                           attempt))
            state = typed(model, path)
            if state == "rejected":
                continue
            if state == "crashed":
                # Outputs of unknown dims, of input 0's rank where it has
                # one: what the importer's own inference sees.
                graph_inputs = model.graph.input
                rank = (len(graph_inputs[0].type.tensor_type.shape.dim)
                        if graph_inputs else 1)
                for o in model.graph.output:
                    o.type.tensor_type.elem_type = T.FLOAT
                    for d in range(rank):
                        o.type.tensor_type.shape.dim.add().dim_param = (
                            "d%d" % d)
                path = path.replace(".onnx", "_onnx_crashed.onnx")
                onnx.save(model, path)
            paths.append(path)
            made += 1
    return paths


def compile_case(compiler, path):
    try:
        run = subprocess.run([compiler, path, "-o", path + ".o"],
                             capture_output=True, text=True, timeout=300)
        status = run.returncode
    except subprocess.TimeoutExpired:
        status = "a hang (over 300 s)"
    if os.path.exists(path + ".o"):
        os.remove(path + ".o")
    return path, status


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("compiler")
    parser.add_argument("--per-op", type=int, default=6)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--keep")
    args = parser.parse_args(argv[1:])
    workdir = args.keep or tempfile.mkdtemp(prefix="aot-op-sweep-")
    os.makedirs(workdir, exist_ok=True)
    paths = cases(workdir, args.per_op, args.seed)
    crashed, compiled = [], 0
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        for path, status in pool.map(
                lambda p: compile_case(args.compiler, p), paths):
            if status == 0:
                compiled += 1
            elif status != 1:
                crashed.append((path, status))
    onnx_crashes = sum("_onnx_crashed" in p for p in paths)
    print("%d cases (seed %d), %d compiled, %d refused with a message, %d "
          "crashed; ONNX's own inference crashed on %d of them"
          % (len(paths), args.seed, compiled,
             len(paths) - compiled - len(crashed), len(crashed),
             onnx_crashes))
    for path, status in crashed:
        what = ("signal %d" % -status if isinstance(status, int)
                and status < 0 else "exit status %s" % status
                if isinstance(status, int) else status)
        print("  crashed (%s): %s" % (what, path))
    if crashed:
        print("the cases are kept in %s" % workdir)
        return 1
    if not args.keep:
        shutil.rmtree(workdir)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
