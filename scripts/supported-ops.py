#!/usr/bin/env python3
"""Writes docs/supported-ops.md: every op of the dialects the input contract
accepts, and for each the models of tests/models/ that use it (the numerics
suite compiles each of them at -O0 to -O3, on one and two threads, and
compares every result with numpy) and the element types they use it with.

The op list comes from the installed MLIR headers (the ops' generated
declarations), so an op MLIR adds shows up as untested, never silently
missing. With --check the file is compared with what it would be, and a
difference is an error: ctest runs that, so the table cannot drift from the
test suite.

The ONNX table lists every op of ONNX's default domain at opset 17, whether
the importer converts it (read from its converter tables in
lib/Frontend/Onnx/), and which networks of the ONNX zoo (tests/onnx/zoo.py,
checked against PyTorch) use it. The op list and the networks' ops come from
tests/onnx/zoo-ops.json, which `zoo.py --write-ops` writes with python3-onnx
and PyTorch, and which each zoo test checks against the model it exports.

usage: supported-ops.py MLIR_INCLUDE_DIR MODELS_DIR OUTPUT [--check]
"""
import json
import glob
import os
import re
import sys

DIALECTS = {
    # dialect: the header directories that declare its ops
    "func": ["Func/IR"],
    "arith": ["Arith/IR"],
    "math": ["Math/IR"],
    "tensor": ["Tensor/IR"],
    "linalg": ["Linalg/IR"],
    "tosa": ["Tosa/IR"],
    "scf": ["SCF/IR"],
    "cf": ["ControlFlow/IR"],
    "bufferization": ["Bufferization/IR"],
}
TYPES = ["i1", "i4", "i8", "i16", "i32", "i64", "f16", "bf16", "f32", "f64",
         "f8E4M3FN", "f8E5M2", "f8E4M3FNUZ", "f8E5M2FNUZ"]
OP_NAME = re.compile(
    r'getOperationName\(\)\s*\{\s*return\s*::llvm::StringLiteral\("([a-z_]+\.[a-z_0-9.]+)"\)')
BARE = re.compile(r"\s*(?:%[\w#:, %]*=\s*)?(return|call)\b")
TYPE_WORD = re.compile(r"(?<![A-Za-z0-9_])(" + "|".join(TYPES) + r")(?![A-Za-z0-9_])")


def declared_ops(include_dir):
    ops = {}
    for dialect, dirs in DIALECTS.items():
        names = set()
        for d in dirs:
            for header in glob.glob(os.path.join(include_dir, "mlir", "Dialect", d, "*.h.inc")):
                with open(header, encoding="utf-8") as f:
                    for name in OP_NAME.findall(f.read()):
                        if name.split(".")[0] == dialect:
                            names.add(name)
        ops[dialect] = sorted(names)
    return ops


def uses(models_dir, known):
    """op -> {model: set of element types on the lines using it}."""
    found = {}
    word = re.compile(r"(?<![A-Za-z0-9_.%@#])([a-z_]+\.[a-z_0-9.]+)")
    for path in sorted(glob.glob(os.path.join(models_dir, "*.mlir"))):
        model = os.path.splitext(os.path.basename(path))[0]
        with open(path, encoding="utf-8") as f:
            for line in f:
                code = line.split("//", 1)[0]
                types = set(TYPE_WORD.findall(code.replace("x", " ")))
                names = word.findall(code)
                # The func dialect's ops are written without their prefix.
                bare = BARE.match(code)
                if bare:
                    names.append("func." + bare.group(1))
                for name in names:
                    if name in known:
                        found.setdefault(name, {}).setdefault(model, set()).update(types)
    return found


# The ops the input contract refuses, with their reasons: read from the
# compiler's own table, so that the page says what the compiler does.
CONTRACT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib",
                        "Frontend", "InputContract.cpp")
REFUSED = re.compile(r'\{"([a-z_]+\.[a-z_0-9]+)",\s*((?:"[^"]*"\s*)+)\}')


def refused_ops():
    with open(CONTRACT, encoding="utf-8") as f:
        text = f.read()
    return {name: "".join(re.findall(r'"([^"]*)"', reason))
            for name, reason in REFUSED.findall(text)}


ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
ONNX_CONVERTERS = os.path.join(ROOT, "lib", "Frontend", "Onnx")
ONNX_ZOO_OPS = os.path.join(ROOT, "tests", "onnx", "zoo-ops.json")
# An entry of a converter table: {"OpType", function or lambda...}, where
# a line holds one or several.
CONVERTER = re.compile(r'\{"([A-Z][A-Za-z0-9]*)",\s*[A-Za-z\[]')


def onnx_converted():
    names = set()
    for path in glob.glob(os.path.join(ONNX_CONVERTERS, "*.cpp")):
        with open(path, encoding="utf-8") as f:
            names.update(CONVERTER.findall(f.read()))
    return names


# Ops deprecated before opset 17 that a model of an older opset may hold:
# ONNX's version converter, which upgrades such a model to 17 first,
# replaces them by the op named here.
ONNX_UPGRADED = {"Scatter": "ScatterElements", "Upsample": "Resize"}


def render_onnx():
    with open(ONNX_ZOO_OPS, encoding="utf-8") as f:
        inventory = json.load(f)
    converted = onnx_converted()
    used = {}
    for model, names in inventory["models"].items():
        for name in names:
            used.setdefault(name, set()).add(model)
    # Constant nodes become constants; they have no converter of their own.
    converted.add("Constant")
    ops = sorted(set(inventory["opset17"]) | converted)
    rows = []
    for name in ops:
        models = sorted(used.get(name, ()))
        shown = ", ".join(models[:4]) + (
            f" and {len(models) - 4} more" if len(models) > 4 else "")
        if name in converted:
            status = "converted"
        elif ONNX_UPGRADED.get(name) in converted:
            status = f"upgraded to `{ONNX_UPGRADED[name]}`"
        else:
            status = "not supported"
        rows.append(f"| `{name}` | {status} | {shown} |")
    n = sum(1 for name in ops
            if name in converted or ONNX_UPGRADED.get(name) in converted)
    return [
        f"## ONNX (default domain, opset 17: {n} of {len(ops)} converted)", "",
        "Read by the ONNX importer (`aot-compile model.onnx`); older opsets are upgraded to",
        "17 first. \"Converted\" ops have a converter; the networks listed (exported from",
        "PyTorch by `tests/onnx/zoo.py`, compiled at `-O0` and `-O3` on one and two threads",
        "and compared with PyTorch's outputs) use them. A converter may still refuse some",
        "attribute values, at the node, naming them; an op \"not supported\" is an error naming",
        "the node, its op type, domain and opset. Deprecated ops are \"upgraded\" by ONNX's",
        "version converter when the model's opset predates their deprecation. How each op",
        "fares in ONNX's own node tests: [onnx-conformance.md](onnx-conformance.md).", "",
        "Element types: float, double, float16, bfloat16, bool, int8 to int64 and uint8 to",
        "uint64, at a graph's inputs and outputs too (`u8` ... `u64` in the manifest, the",
        "header and Python). Unsigned values are read as such by Cast, BitShift, the",
        "arithmetic ops (Add, Sub, Mul, Div, Mod, Max, Min, Pow, Clip, Abs, Relu, Sign),",
        "the comparisons, Where, MaxPool, the quantization ops and the ops that only move",
        "elements; any other op given one is an error naming the node and the value.", "",
        "| op | status | networks |", "| --- | --- | --- |",
    ] + rows + [""]


def render(ops, found, refused):
    header = [
        "# Supported ops",
        "",
        "Generated by `scripts/supported-ops.py` from the installed MLIR's op declarations and",
        "the models of `tests/models/`; `ctest -R supported_ops` fails when this file is not what",
        "the script makes, so it follows the test suite. \"Tested\" means that at least one model",
        "uses the op and the numerics suite compiles that model at `-O0` to `-O3`, on one and two",
        "threads, and compares every result with numpy; the element types are those on the",
        "models' lines that use the op. \"Not tested\" ops may well compile (the input contract",
        "accepts every op of these dialects): no test says so yet. \"Rejected\" ops are refused",
        "by the input contract, at their location, with the reason given here.",
        "",
    ]
    lines = []
    total = tested = 0
    for dialect, names in ops.items():
        rows = []
        for name in names:
            total += 1
            models = found.get(name, {})
            if models:
                tested += 1
                types = sorted(set().union(*models.values()), key=TYPES.index)
                shown = ", ".join(sorted(models)[:4]) + (
                    f" and {len(models) - 4} more" if len(models) > 4 else "")
                rows.append(f"| `{name}` | tested | {' '.join(types) or '—'} | {shown} |")
            elif name in refused:
                rows.append(f"| `{name}` | rejected | | {refused[name]} |")
            else:
                rows.append(f"| `{name}` | not tested | | |")
        n = sum(1 for name in names if name in found)
        lines += [f"## {dialect} ({n} of {len(names)} tested)", "",
                  "| op | status | element types | models |", "| --- | --- | --- | --- |"]
        lines += rows + [""]
    return "\n".join(header + [f"{tested} of {total} ops are tested.", ""] + lines +
                     render_onnx())


def main(argv):
    if len(argv) not in (4, 5) or (len(argv) == 5 and argv[4] != "--check"):
        print(__doc__, file=sys.stderr)
        return 2
    include_dir, models_dir, output = argv[1:4]
    ops = declared_ops(include_dir)
    if not any(ops.values()):
        print(f"supported-ops: no op declarations under {include_dir}", file=sys.stderr)
        return 1
    known = {name for names in ops.values() for name in names}
    text = render(ops, uses(models_dir, known), refused_ops())
    if len(argv) == 5:
        try:
            with open(output, encoding="utf-8") as f:
                current = f.read()
        except OSError as e:
            print(f"supported-ops: {output}: {e.strerror}", file=sys.stderr)
            return 1
        if current != text:
            print(f"supported-ops: {output} is out of date with tests/models; "
                  f"run scripts/supported-ops.py {include_dir} {models_dir} {output}",
                  file=sys.stderr)
            return 1
        return 0
    with open(output, "w", encoding="utf-8") as f:
        f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
