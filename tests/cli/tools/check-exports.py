#!/usr/bin/env python3
"""Checks an object file against the manifest aot-compile wrote for it.

usage: check-exports.py [--only-exports] MANIFEST.json OBJECT LLVM-NM

Every function of the manifest must define its C interface symbol and its
type-erased entry point (_aot_invoke_NAME) in OBJECT. With --only-exports,
the object must define no other global symbol (beyond the runtime's
memrefCopy and the module's embedded manifest, aot_manifest_MODULE): private
functions of the module must stay local. Prints one
line per function and per problem; exits 1 if there is a problem.
"""
import json
import subprocess
import sys

RUNTIME_SYMBOLS = {"memrefCopy"}


def main(argv):
    only_exports = "--only-exports" in argv
    args = [a for a in argv[1:] if a != "--only-exports"]
    if len(args) != 3:
        sys.stderr.write(__doc__)
        return 2
    manifest_path, object_path, nm = args
    with open(manifest_path) as f:
        manifest = json.load(f)
    listing = subprocess.run([nm, "--defined-only", "--extern-only", object_path],
                             capture_output=True, text=True, check=True).stdout
    defined = {line.split()[-1] for line in listing.splitlines()
               if line.strip() and not line.endswith(":")}
    expected = set()
    problems = 0
    for function in manifest["functions"]:
        name, symbol = function["name"], function["symbol"]
        wanted = [symbol, "_aot_invoke_" + name]
        expected.update(wanted)
        missing = [s for s in wanted if s not in defined]
        if missing:
            problems += 1
            print("missing: %s" % ", ".join(missing))
        else:
            print("exported: %s" % name)
    if only_exports:
        expected.add("aot_manifest_" + manifest["module"])
        for extra in sorted(defined - expected - RUNTIME_SYMBOLS):
            problems += 1
            print("extra global symbol: %s" % extra)
    print("%d functions, %d problems" % (len(manifest["functions"]), problems))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
