#!/usr/bin/env python3
"""Runs every function of a compiled model with aot-run against its reference.

usage: run-model.py AOT_RUN AOT_COMPILE LIBRARY REFERENCE RTOL ATOL ULP

The functions come from the manifest embedded in LIBRARY (aot-compile
--print-manifest); each is called with its arguments from REFERENCE (keys
FUNC/argN) and its results compared with FUNC/resultN under the model's
tolerance (ULP -1: none). Exits 1 when a call fails or a result differs.
"""
import json
import subprocess
import sys


def main(argv):
    if len(argv) != 8:
        sys.stderr.write(__doc__)
        return 2
    aot_run, aot_compile, library, reference, rtol, atol, ulp = argv[1:]
    manifest = json.loads(subprocess.run(
        [aot_compile, "--print-manifest", library],
        capture_output=True, text=True, check=True).stdout)
    failures = 0
    for function in manifest["functions"]:
        name = function["name"]
        command = [aot_run, library, "--function=" + name, "@" + reference,
                   "--expected=@" + reference, "--rtol=" + rtol,
                   "--atol=" + atol]
        if int(ulp) >= 0:
            command.append("--ulp=" + ulp)
        run = subprocess.run(command, capture_output=True, text=True)
        lines = run.stdout.splitlines()
        matched = [l for l in lines if l.startswith("result ") and ": ok: " in l]
        # Every result reported, and every one matching.
        good = (run.returncode == 0 and len(matched) == len(function["results"])
                and len(lines) == len(matched))
        print("%s: %s" % (name, "ok" if good else "FAILED (exit %d)" % run.returncode))
        if not good:
            failures += 1
            sys.stdout.write(run.stdout)
            sys.stdout.write(run.stderr)
    print("%d functions, %d failed" % (len(manifest["functions"]), failures))
    return 1 if failures or not manifest["functions"] else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
