#!/usr/bin/env python3
"""Feeds damaged copies of a bytecode file to aot-compile, one at a time.

usage: sweep-bytecode.py AOT-COMPILE BYTECODE WORKDIR truncate [STEP]

'truncate' compiles every prefix of BYTECODE (lengths 1, 1 + STEP, ... up to
the full length minus one). Each must fail cleanly: exit status exactly 1,
an 'error:' line naming the file, no 'LLVM ERROR', no signal, within the
timeout. Prints one line per unclean case and a summary; exits 1 if any.
"""
import os
import subprocess
import sys

TIMEOUT = 60


def check(aot, path):
    try:
        run = subprocess.run([aot, path, "-o", path + ".o"], capture_output=True,
                             text=True, errors="replace", timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        return "hung for %d s" % TIMEOUT
    name = os.path.basename(path)
    if run.returncode < 0:
        return "killed by signal %d" % -run.returncode
    if run.returncode != 1:
        return "exit status %d" % run.returncode
    if "LLVM ERROR" in run.stderr:
        return "LLVM ERROR: " + run.stderr.strip().splitlines()[0]
    if not any(name in l and "error:" in l for l in run.stderr.splitlines()):
        return "no 'error:' naming the file: " + run.stderr[:200]
    return None


def main(argv):
    if len(argv) not in (5, 6) or argv[4] != "truncate":
        sys.stderr.write(__doc__)
        return 2
    aot, source, workdir = argv[1], argv[2], argv[3]
    step = int(argv[5]) if len(argv) == 6 else 1
    data = open(source, "rb").read()
    os.makedirs(workdir, exist_ok=True)
    bad = 0
    lengths = range(1, len(data), step)
    for n in lengths:
        path = os.path.join(workdir, "prefix-%d.mlirbc" % n)
        with open(path, "wb") as f:
            f.write(data[:n])
        problem = check(aot, path)
        if problem:
            bad += 1
            print("%d bytes: %s" % (n, problem))
        else:
            os.remove(path)
    print("%d truncations, %d unclean" % (len(lengths), bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
