"""ONNX's own node test cases, each compiled and run by aot-run against the
results ONNX's numpy reference code computed for it.

usage: conformance.py AOT_RUN EXPECTED_LIST [--work DIR] [--jobs N]
                      [--update] [--report FILE] [--only REGEX]

The cases are those the installed onnx package generates
(onnx.backend.test.case.node.collect_testcases): one model of one op (or of
a function op expanded into its body) and one or more data sets of inputs
and expected outputs each. Every data set is written as a model and two
.npz files (aot-run's InputN / OutputN keys) and checked by
`aot-run MODEL @inputs.npz --expected=@expected.npz` with ONNX's backend
tolerance (rtol 1e-3, atol 1e-7 for floats; integers and booleans exactly,
dtypes and shapes equal, as aot-run compares). Each case is then:

  pass      every data set matches;
  mismatch  aot-run ran it and a result differs (exit 1, MISMATCH);
  error     aot-run refused it with an error (exit 1, `error:`): an op,
            attribute or type the compiler does not take;
  crash     anything else: a signal, another exit status, a hang past the
            timeout, or compiled code that crashed (aot-run reports those as
            errors, but valid input must never crash): always a bug;
  skipped   inputs or outputs aot-run cannot pass (sequences, optionals,
            maps, strings), with the reason.

EXPECTED_LIST names the cases that must pass, one a line (# comments). Exit
1 when a listed case does not pass, when a case not listed passes ("now
passes, add it to the list"), or when any case crashes; 0 otherwise; 77
(skipped) when numpy or onnx cannot be imported. Against another onnx than
the list's (its header names it) the differences are printed, not failures:
other versions have other cases and references. --update rewrites the list
to the cases that pass now (only those --only selects, with --only) and still
fails on crashes. --report writes the markdown of docs/onnx-conformance.md.
"""
import argparse
import collections
import concurrent.futures
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time

# Seconds a data set may take (one takes ~0.15 s): past this it is a hang.
TIMEOUT = 60
# Worst first: a case is as bad as its worst data set.
SEVERITY = {"pass": 0, "mismatch": 1, "error": 2, "crash": 3}
CLASSES = ["pass", "mismatch", "error", "crash", "skipped"]


def import_onnx():
    """numpy, onnx and ONNX's node test cases; exit 77 naming what is
    missing, as ctest's SKIP_RETURN_CODE reports it."""
    try:
        import numpy as np
    except ImportError as e:
        print("skipped: %s (Debian: python3-numpy)" % e)
        sys.exit(77)
    # Some of ONNX 1.12's case modules still use numpy's old aliases of the
    # builtin types, which numpy 1.24 removed; restore the ones missing so
    # that importing them does not fail. (vars, not hasattr: numpy's module
    # __getattr__ warns about the removed names when asked.)
    for name, builtin in (("float", float), ("int", int), ("bool", bool),
                          ("object", object)):
        if name not in vars(np):
            setattr(np, name, builtin)
    try:
        import onnx
        from onnx.backend.test.case.node import collect_testcases
    except ImportError as e:
        print("skipped: %s (Debian: python3-onnx)" % e)
        sys.exit(77)
    return np, onnx, collect_testcases


# ---------------------------------------------------------------------------
# What aot-run cannot express.

def value_kind(type_proto):
    """'a tensor', or what else an ONNX value type is (a sequence, an
    optional...)."""
    kind = type_proto.WhichOneof("value")
    return {"tensor_type": "a tensor", "sequence_type": "a sequence",
            "optional_type": "an optional", "map_type": "a map",
            "sparse_tensor_type": "a sparse tensor"}.get(kind, str(kind))


# The numpy dtype of ONNX's data for a tensor element type. bfloat16 data
# are uint16 bits, which aot-run reads as bf16 where the model says bf16.
NUMPY_DTYPES = {"FLOAT": "float32", "DOUBLE": "float64", "FLOAT16": "float16",
                "BFLOAT16": "uint16", "BOOL": "bool", "INT8": "int8",
                "INT16": "int16", "INT32": "int32", "INT64": "int64",
                "UINT8": "uint8", "UINT16": "uint16", "UINT32": "uint32",
                "UINT64": "uint64"}


def misfit(onnx, value, declared):
    """How a data set's array contradicts the graph's declaration of it (a
    dtype, or a static dim, that differs), or None. A few of ONNX's cases
    declare a shape their data do not have; aot-run, compiling the
    declared shape, rightly refuses those, which says nothing of the op."""
    t = declared.type.tensor_type
    name = onnx.TensorProto.DataType.Name(t.elem_type)
    want = NUMPY_DTYPES.get(name)
    if want and str(value.dtype) != want:
        return "its data are %s, the model declares %s" % (value.dtype, name)
    if t.HasField("shape"):
        dims = [d.dim_value if d.HasField("dim_value") else None for d in t.shape.dim]
        if len(dims) != value.ndim or any(
                d is not None and d != s for d, s in zip(dims, value.shape)):
            return "its data have shape %s, the model declares %s" % (
                list(value.shape), ["?" if d is None else d for d in dims])
    return None


def skip_reason(np, onnx, case):
    """Why aot-run cannot run `case`, or None. aot-run passes dense tensors
    of numeric and boolean dtypes, in the graph's input order; a graph whose
    signature holds anything else has no call aot-run could make, and data
    that contradict the graph's declared types have none either."""
    graph = case.model.graph
    for side, values in (("input", graph.input), ("output", graph.output)):
        for v in values:
            kind = value_kind(v.type)
            if kind != "a tensor":
                return "%s '%s' is %s; aot-run passes tensors" % (side, v.name, kind)
            if v.type.tensor_type.elem_type == onnx.TensorProto.STRING:
                return "%s '%s' is a string tensor; aot-run has no string dtype" % (side, v.name)
    for inputs, outputs in case.data_sets:
        for side, values, declared in (("input", inputs, graph.input),
                                       ("output", outputs, graph.output)):
            if len(values) != len(declared):
                return "%d %s values for %d graph %ss" % (
                    len(values), side, len(declared), side)
            for v, d in zip(values, declared):
                if isinstance(v, list):
                    return "%s '%s' is a sequence; aot-run passes tensors" % (side, d.name)
                if v is None:
                    return "%s '%s' is an empty optional; aot-run passes tensors" % (side, d.name)
                if not isinstance(v, (np.ndarray, np.generic)):
                    return "%s '%s' is a %s; aot-run passes tensors" % (
                        side, d.name, type(v).__name__)
                if np.asarray(v).dtype.kind in "OSUV":
                    return "%s '%s' holds %s values; aot-run has no string dtype" % (
                        side, d.name, np.asarray(v).dtype)
                if np.asarray(v).dtype.kind == "c":
                    return "%s '%s' is complex; aot-run has no complex dtype" % (side, d.name)
                why = misfit(onnx, np.asarray(v), d)
                if why:
                    return "%s '%s' does not fit ONNX's own model: %s" % (side, d.name, why)
    return None


# ---------------------------------------------------------------------------
# Running one case.

def write_data_set(np, directory, k, inputs, outputs):
    """The k-th data set as aot-run's npz files; their paths. A numpy scalar
    (np.float32(1), a reduction's 0-d result) becomes a 0-d array, which is
    how aot-run reads a scalar or 0-d tensor; a transposed array (some
    references are x.T) is copied to C order, the only order aot-run
    reads."""
    def arrays(prefix, values):
        return {"%s%d" % (prefix, i): np.asarray(v, order="C")
                for i, v in enumerate(values)}
    in_path = os.path.join(directory, "inputs_%d.npz" % k)
    ref_path = os.path.join(directory, "expected_%d.npz" % k)
    np.savez(in_path, **arrays("Input", inputs))
    np.savez(ref_path, **arrays("Output", outputs))
    return in_path, ref_path


class CannotRun(Exception):
    """aot-run could not be started: no case says anything then."""


def run_aot(command, env):
    """(exit status or None for a timeout, stdout, stderr). aot-run runs in
    its own process group so that a hang is killed with whatever it
    started."""
    try:
        p = subprocess.Popen(command, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True,
                             errors="replace", env=env,
                             start_new_session=True)
    except OSError as e:
        raise CannotRun("cannot run %s: %s" % (command[0], e.strerror))
    try:
        out, err = p.communicate(timeout=TIMEOUT)
        return p.returncode, out, err
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        out, err = p.communicate()
        return None, out, err


def classify(status, out, err):
    """(class, one line saying why) of one aot-run run."""
    if status is None:
        return "crash", "timed out after %d s" % TIMEOUT
    if status < 0:
        try:
            name = signal.Signals(-status).name
        except ValueError:
            name = "signal %d" % -status
        return "crash", "killed by %s" % name
    if status == 0:
        return "pass", ""
    lines = (out + "\n" + err).splitlines()
    # aot-run catches a crash of the compiled code and exits 1 saying so: a
    # bug of the generated code all the same.
    for line in lines:
        if re.search(r"\bcrashed: SIG", line):
            return "crash", line.strip()
    if status != 1:
        tail = [l for l in err.splitlines() if l.strip()][-1:] or ["no output"]
        return "crash", "exit status %d: %s" % (status, tail[0].strip())
    for line in out.splitlines():
        if "MISMATCH:" in line:
            return "mismatch", line.strip()
    for line in lines:
        if "error:" in line:
            return "error", line.strip()
    tail = [l for l in lines if l.strip()][-1:] or ["no output"]
    return "error", "exit 1 without an error line: " + tail[0].strip()


def run_case(np, onnx, aot_run, case, work, env):
    """Writes and runs every data set of `case`: a result dict."""
    result = {"name": case.name, "ops": sorted(node_ops(case.model.graph)),
              "class": "skipped", "message": "", "command": ""}
    reason = skip_reason(np, onnx, case)
    if reason:
        result["message"] = reason
        return result
    directory = os.path.join(work, case.name)
    os.makedirs(directory, exist_ok=True)
    model = os.path.join(directory, case.name + ".onnx")
    onnx.save(case.model, model)
    worst = None
    for k, (inputs, outputs) in enumerate(case.data_sets):
        in_path, ref_path = write_data_set(np, directory, k, inputs, outputs)
        command = [aot_run, model, "@" + in_path, "--expected=@" + ref_path,
                   "--rtol=%g" % case.rtol, "--atol=%g" % case.atol]
        status, out, err = run_aot(command, env)
        cls, message = classify(status, out, err)
        if worst is None or SEVERITY[cls] > SEVERITY[worst[0]]:
            worst = (cls, message, command, (out + err)[-3000:])
    result["class"], result["message"], command, result["output"] = worst
    result["command"] = " ".join(shlex.quote(c) for c in command)
    return result


def node_ops(graph):
    """The op types of a graph's nodes (domain-qualified outside ONNX's
    default domain); not those of subgraphs, which are the op's body."""
    return {(n.domain + "." if n.domain not in ("", "ai.onnx") else "") + n.op_type
            for n in graph.node}


# ---------------------------------------------------------------------------
# The list of cases that must pass.

LIST_HEADER = """\
# The ONNX node test cases (onnx.backend.test.case.node) that compile and
# match ONNX's reference results with aot-run: what onnx.conformance
# (tests/onnx/conformance.py) requires to pass, and no more.
# Generated with onnx {version}; regenerate after a change that makes cases
# pass or fail:
#   /usr/bin/python3 tests/onnx/conformance.py build/default/run/aot-run \\
#       tests/onnx/conformance-pass.txt --update --report docs/onnx-conformance.md
"""


def read_list(path):
    """(names, the onnx version the list was generated with or None)."""
    names, version = [], None
    with open(path) as f:
        for line in f:
            m = re.match(r"#\s*Generated with onnx (\S+?);", line)
            if m:
                version = m.group(1)
            line = line.split("#", 1)[0].strip()
            if line:
                names.append(line)
    return names, version


def write_list(path, names, version):
    with open(path, "w") as f:
        f.write(LIST_HEADER.format(version=version))
        for name in sorted(names):
            f.write(name + "\n")


# ---------------------------------------------------------------------------
# Summaries.

def short_error(message):
    """An error line without the path of the model, which is the work
    dir's, and the `error:` that follows it."""
    return re.sub(r"^\S+\.onnx(:\d+:\d+)?:\s*(error:\s*)?", "", message)


def message_shape(message):
    """An error line without what varies between cases (the names of nodes
    and values, numbers), so that one reason groups its cases. The names of
    ops, domains and modes stay: an op not supported is a reason of its
    own."""
    message = short_error(message)
    message = re.sub(r"(\b(?:op|domain|mode) )?'[^']*'",
                     lambda m: m.group(0) if m.group(1) else "'_'", message)
    message = re.sub(r"\b\d+\b", "N", message)
    return message


def max_errors(message):
    m = re.search(r"max abs error (\S+), max rel error (\S+)", message)
    return (m.group(1), m.group(2)) if m else ("-", "-")


def print_summary(results, counts):
    print("ONNX node test cases: %s" % ", ".join(
        "%d %s" % (counts[c], c) for c in CLASSES))
    by_class = collections.defaultdict(list)
    for r in results:
        by_class[r["class"]].append(r)
    if by_class["crash"]:
        print("\ncrashes (each a bug: reproduce with the command):")
        for r in by_class["crash"]:
            print("  %s: %s\n    %s" % (r["name"], r["message"], r["command"]))
            tail = r["output"].strip().splitlines()[-10:]
            for line in tail:
                print("    | " + line)
    if by_class["mismatch"]:
        print("\nmismatches:")
        for r in by_class["mismatch"]:
            print("  %s: %s" % (r["name"], r["message"]))
    if by_class["error"]:
        print("\nerrors, by reason (most common first):")
        groups = collections.defaultdict(list)
        for r in by_class["error"]:
            groups[message_shape(r["message"])].append(r["name"])
        for shape, names in sorted(groups.items(), key=lambda g: (-len(g[1]), g[0])):
            print("  %d x %s\n    %s" % (len(names), shape, " ".join(names)))
    if by_class["skipped"]:
        print("\nskipped, by reason:")
        groups = collections.defaultdict(list)
        for r in by_class["skipped"]:
            groups[message_shape(r["message"])].append(r["name"])
        for shape, names in sorted(groups.items(), key=lambda g: (-len(g[1]), g[0])):
            print("  %d x %s\n    %s" % (len(names), shape, " ".join(names)))


def md_escape(text):
    return text.replace("|", "\\|").replace("\n", " ")


def primary_ops(results):
    """The op types each case counts under in the report. An `_expanded`
    case is a function op written out as its body (Softmax as ReduceMax,
    Sub, Exp...); it counts under the op of its unexpanded twin, whose
    function it checks, rather than under every op of the body."""
    by_name = {r["name"]: r for r in results}
    ops = {}
    for r in results:
        twin = by_name.get(re.sub(r"_expanded$", "", r["name"]))
        ops[r["name"]] = twin["ops"] if r["name"].endswith("_expanded") and twin else r["ops"]
    return ops


def op_order(op):
    """ONNX's default domain first (its ops have no dot), by name."""
    return ("." in op, op.lower())


def write_report(path, results, counts, onnx_version, n_cases, command):
    ops = primary_ops(results)
    per_op = collections.defaultdict(list)
    for r in results:
        for op in ops[r["name"]] or ["(no nodes)"]:
            per_op[op].append(r)
    lines = [
        "# ONNX conformance",
        "",
        "How the ONNX front end fares on ONNX's own node test cases: the %d cases"
        % n_cases,
        "that ONNX %s's backend test suite generates (`onnx.backend.test.case.node`),"
        % onnx_version,
        "each a model of one op (or of a function op written out as its body, the",
        "`_expanded` cases) with inputs and the results ONNX's numpy reference",
        "computed. Each is compiled and run by `aot-run` and compared with ONNX's",
        "backend tolerance (floats within rtol 1e-3, atol 1e-7; integers and booleans",
        "exactly; dtypes and shapes equal). The test `onnx.conformance` runs them and",
        "requires the cases of `tests/onnx/conformance-pass.txt` to pass, and no",
        "others. This page and that list were made by:",
        "",
        "```sh",
        command,
        "```",
        "",
        "A case *passes* when its results match; a *mismatch* runs and differs; an",
        "*error* is refused by the compiler with a message (an op, attribute or",
        "type not taken, shown below); a *crash* (a signal, a hang, compiled code",
        "that crashed) is always a bug; *skipped* cases have inputs or outputs",
        "`aot-run` cannot pass (sequences, optionals, strings).",
        "",
        "| result | cases |",
        "| --- | ---: |",
    ]
    for c in CLASSES:
        lines.append("| %s | %d |" % (c, counts[c]))
    lines.append("| total | %d |" % len(results))
    crashes = [r for r in results if r["class"] == "crash"]
    if crashes:
        lines += ["", "Crashes, each a bug to fix:", ""]
        for r in crashes:
            lines.append("- `%s`: %s" % (r["name"], md_escape(r["message"])))
    lines += [
        "",
        "## By op",
        "",
        "Cases by the op types of their model's nodes (an `_expanded` case under",
        "the op it expands; ops of other domains than ONNX's default last): how",
        "many pass of those run, and how many were skipped.",
        "",
        "| op | pass | run | skipped |",
        "| --- | ---: | ---: | ---: |",
    ]
    for op in sorted(per_op, key=op_order):
        rs = per_op[op]
        run = [r for r in rs if r["class"] != "skipped"]
        passed = sum(r["class"] == "pass" for r in rs)
        lines.append("| %s | %d | %d | %d |" % (
            op, passed, len(run), len(rs) - len(run)))
    lines += ["", "## Cases that do not pass", "",
              "The first error of each, by op.", ""]
    for op in sorted(per_op, key=op_order):
        failing = [r for r in per_op[op] if r["class"] not in ("pass", "skipped")]
        if not failing:
            continue
        lines += ["### %s" % op, ""]
        for r in sorted(failing, key=lambda r: r["name"]):
            lines.append("- `%s` (%s): %s" % (
                r["name"], r["class"], md_escape(short_error(r["message"]))))
        lines.append("")
    skipped = [r for r in results if r["class"] == "skipped"]
    if skipped:
        lines += ["## Skipped cases", ""]
        for r in sorted(skipped, key=lambda r: r["name"]):
            lines.append("- `%s`: %s" % (r["name"], md_escape(r["message"])))
        lines.append("")
    with open(path, "w") as f:
        f.write("\n".join(lines).rstrip("\n") + "\n")


# ---------------------------------------------------------------------------

def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("aot_run")
    parser.add_argument("expected_list")
    parser.add_argument("--work", help="write the models and npz files here "
                        "(kept); default: a temporary directory, removed")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--update", action="store_true",
                        help="rewrite EXPECTED_LIST to the cases passing now")
    parser.add_argument("--report", help="write a markdown report here")
    parser.add_argument("--only", help="run the cases whose names match this "
                        "regular expression (re.search)")
    args = parser.parse_args()

    np, onnx, collect_testcases = import_onnx()
    aot_run = os.path.abspath(args.aot_run)
    started = time.time()
    cases = collect_testcases("")
    n_cases = len(cases)
    if args.only:
        cases = [c for c in cases if re.search(args.only, c.name)]
    work = args.work or tempfile.mkdtemp(prefix="aot-onnx-conformance.")
    os.makedirs(work, exist_ok=True)
    # The cases already run side by side (--jobs); their tensors are tiny,
    # and one OpenMP thread each keeps N jobs from starting N x cores
    # threads.
    env = dict(os.environ, OMP_NUM_THREADS="1")
    results = []
    try:
        with concurrent.futures.ThreadPoolExecutor(max(1, args.jobs)) as pool:
            try:
                results = list(pool.map(
                    lambda c: run_case(np, onnx, aot_run, c, work, env), cases))
            except CannotRun as e:
                pool.shutdown(cancel_futures=True)
                print("error: %s" % e)
                return 1
    finally:
        # A temporary work dir goes, but for the files of the crashes, which
        # their commands (printed below) reproduce.
        crashed = {r["name"] for r in results if r["class"] == "crash"}
        if not args.work:
            for entry in os.listdir(work):
                if entry not in crashed:
                    shutil.rmtree(os.path.join(work, entry), ignore_errors=True)
            if not crashed:
                shutil.rmtree(work, ignore_errors=True)
    elapsed = time.time() - started

    counts = collections.Counter(r["class"] for r in results)
    print_summary(results, counts)
    print("\n%d cases in %.0f s (--jobs %d)" % (len(results), elapsed, args.jobs))
    if not args.work and crashed:
        print("the files of the crashes are kept in %s" % work)

    if args.report:
        command = ("/usr/bin/python3 tests/onnx/conformance.py "
                   "build/default/run/aot-run tests/onnx/conformance-pass.txt "
                   "--update --report %s" % args.report)
        write_report(args.report, results, counts, onnx.__version__, n_cases, command)

    # What fails the test: every crash, and (not with --update) any
    # difference from the list.
    problems = ["crash: %s: %s" % (r["name"], r["message"])
                for r in results if r["class"] == "crash"]
    passing = {r["name"] for r in results if r["class"] == "pass"}
    if os.path.exists(args.expected_list):
        listed, list_version = read_list(args.expected_list)
    elif args.update:
        listed, list_version = [], None
    else:
        print("error: %s: no such file (--update writes it)" % args.expected_list)
        return 1
    if args.update:
        # With --only, the cases not selected keep their entries.
        keep = [n for n in listed
                if args.only and not re.search(args.only, n)]
        write_list(args.expected_list, set(keep) | passing, onnx.__version__)
        print("wrote %s: %d cases" % (args.expected_list, len(set(keep) | passing)))
    else:
        differences = []
        by_name = {r["name"]: r for r in results}
        for name in listed:
            if args.only and not re.search(args.only, name):
                continue
            r = by_name.get(name)
            if r is None:
                differences.append("listed but not an ONNX %s case: %s"
                                   % (onnx.__version__, name))
            elif r["class"] not in ("pass", "crash"):  # crashes: above
                differences.append("listed but now %s: %s: %s" % (
                    r["class"], name, short_error(r["message"])))
        for name in sorted(passing - set(listed)):
            differences.append("now passes, add it to the list: %s" % name)
        if list_version and list_version != onnx.__version__:
            # Another onnx has other cases, and other reference results for
            # some: the list cannot say what should pass with it.
            print("\nnote: %s was made with onnx %s, this is onnx %s; its "
                  "differences are not failures:" % (
                      args.expected_list, list_version, onnx.__version__))
            for d in differences:
                print("  " + d)
        else:
            problems += differences
    if problems:
        print("\nFAILED:")
        for p in problems:
            print("  " + p)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
