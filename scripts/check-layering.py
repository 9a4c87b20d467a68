#!/usr/bin/env python3
"""Checks that every #include "X/..." of lib/ goes down a layer, never up.

usage: check-layering.py [LIB_DIR]      (default: lib/ beside this script)

The layers of lib/, from the bottom: Support, Transforms, Frontend, Backend,
Artifact, Debug, Pipeline, Runtime, then Compiler.cpp. Inside Transforms:
Attributes.h, then Common/, then Cpu/, Gpu/ and Test/ (which do not include
each other), then Passes.h, which gathers them. Inside Backend: its root
(the interface, link table, shared pass lists), then Host/ (what both back
ends stand on), then Cpu/ and Cuda/ (which do not include each other), then
Registry.cpp and Target.cpp, which name every back end. Inside Frontend: the
ONNX importer (Onnx/), then the parser that calls it. A file may include
its own folder and anything below it. Prints each include that breaks this,
with its file and line; exits 1 if there is one.
"""
import os
import re
import sys

LAYERS = ["Support", "Transforms", "Frontend", "Backend", "Artifact", "Debug",
          "Pipeline", "Runtime", "Compiler.cpp"]
# Inside a layer: rank of each part (first path component after the layer),
# and the parts that share a rank but must not include each other.
PARTS = {
    "Transforms": {"Attributes.h": 0, "Common": 1, "Cpu": 2, "Gpu": 2,
                   "Test": 2, "Passes.h": 3},
    "Frontend": {"Onnx": -1},
    "Backend": {"Host": 1, "Cpu": 2, "Cuda": 2, "Registry.cpp": 3,
                "Target.cpp": 3},
}
ROOT_RANK = 0  # a file directly in the layer's folder, unless listed

INCLUDE = re.compile(r'^\s*#\s*include\s+"([A-Z][A-Za-z]*(?:/[^"]*)?)"')


def place(path):
    """(layer index, part rank, part name) of a path relative to lib/, or
    None when it is not one of lib/'s layers."""
    parts = path.split("/")
    if parts[0] not in LAYERS:
        return None
    layer = LAYERS.index(parts[0])
    if len(parts) < 2:
        return layer, 0, ""
    table = PARTS.get(parts[0], {})
    part = parts[1]
    if part in table:
        return layer, table[part], part
    if len(parts) == 2:  # a file in the layer's root folder
        return layer, ROOT_RANK, ""
    return layer, ROOT_RANK, part


def allowed(src, dst):
    if src[0] != dst[0]:
        return dst[0] < src[0]
    if src[2] == dst[2]:
        return True
    return dst[1] < src[1]


def main(argv):
    lib = argv[1] if len(argv) > 1 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "lib")
    lib = os.path.normpath(lib)
    broken = []
    checked = 0
    for folder, _, files in os.walk(lib):
        for name in sorted(files):
            if not name.endswith((".cpp", ".h")):
                continue
            path = os.path.relpath(os.path.join(folder, name), lib)
            src = place(path.replace(os.sep, "/"))
            if src is None:
                continue
            with open(os.path.join(folder, name), encoding="utf-8") as f:
                for number, line in enumerate(f, 1):
                    m = INCLUDE.match(line)
                    if not m:
                        continue
                    dst = place(m.group(1))
                    if dst is None:
                        continue
                    checked += 1
                    if not allowed(src, dst):
                        broken.append("%s:%d: includes %s, a layer above it"
                                      % (path, number, m.group(1)))
    for b in broken:
        print(b)
    print("%d includes between lib/'s layers checked, %d going up"
          % (checked, len(broken)))
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
