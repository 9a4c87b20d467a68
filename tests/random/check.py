"""Compiles random tensor programs with aot-run at several -O and thread
counts and checks their results against numpy.

    check.py AOT_RUN FAMILY [--cases N] [--seed S] [--configs O3:1,O3:2]
             [--big] [--keep DIR]

FAMILY is one of programs.FAMILIES, or `all`. Case i of a family is seeded
with S + i, so a failure is reproduced by its family, seed and case number,
which the report gives with the program and aot-run's output. Exit status 1
if any case fails to compile, crashes or differs from numpy.
"""
import argparse
import os
import random
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import programs  # noqa: E402


def run_case(aot_run, case, configs, workdir):
    """The failures of one case: (config, what aot-run printed)."""
    src = os.path.join(workdir, case["name"] + ".mlir")
    with open(src, "w") as f:
        f.write(case["src"])
    inputs = os.path.join(workdir, case["name"] + ".in.npz")
    expected = os.path.join(workdir, case["name"] + ".ref.npz")
    np.savez(inputs, **{"f/arg%d" % i: np.asarray(a, order="C") for i, a in enumerate(case["args"])})
    np.savez(expected, **{"f/result%d" % i: np.asarray(w, order="C") for i, w in enumerate(case["want"])})
    failures = []
    for opt, threads in configs:
        command = [aot_run, src, "-O%d" % opt, "--threads=%d" % threads,
                   "--function=f", "@" + inputs, "--expected=@" + expected,
                   "--rtol=%r" % float(case["rtol"]), "--atol=%r" % float(case["atol"])]
        try:
            p = subprocess.run(command, capture_output=True, text=True, timeout=300)
            out, status = p.stdout + p.stderr, p.returncode
        except subprocess.TimeoutExpired:
            out, status = "timed out after 300 s", -1
        if status != 0:
            failures.append(("-O%d --threads=%d" % (opt, threads), out[-4000:]))
    return failures


def parse_configs(text):
    configs = []
    for item in text.split(","):
        opt, threads = item.split(":")
        configs.append((int(opt.lstrip("O")), int(threads)))
    return configs


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("aot_run")
    parser.add_argument("family", choices=sorted(programs.FAMILIES) + ["all"])
    parser.add_argument("--cases", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--configs", default="O0:1,O3:1,O3:2")
    parser.add_argument("--big", action="store_true",
                        help="tensors of 2^17 to 2^22 elements")
    parser.add_argument("--keep", help="write the programs and files here")
    args = parser.parse_args()
    programs.BIG = args.big
    configs = parse_configs(args.configs)
    families = sorted(programs.FAMILIES) if args.family == "all" else [args.family]
    workdir = args.keep or tempfile.mkdtemp(prefix="aot-random.")
    os.makedirs(workdir, exist_ok=True)
    failed = 0
    for family in families:
        family_failed = 0
        for i in range(args.cases):
            seed = args.seed + i
            random.seed(seed)
            np.random.seed(seed % (1 << 32))
            case = programs.FAMILIES[family](i)
            case["name"] = "%s_%d" % (family, seed)
            failures = run_case(args.aot_run, case, configs, workdir)
            if failures:
                family_failed += 1
                print("FAIL %s (again: check.py AOT_RUN %s --seed %d --cases 1)\n%s"
                      % (case["name"], family, seed, case["src"]))
                for config, out in failures:
                    print("  aot-run %s:\n    %s" % (config, out.strip().replace("\n", "\n    ")))
        print("%s: %d cases, %d failed, configs %s" % (family, args.cases,
              family_failed, args.configs), flush=True)
        failed += family_failed
    if not args.keep and not failed:
        for name in os.listdir(workdir):
            os.unlink(os.path.join(workdir, name))
        os.rmdir(workdir)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
