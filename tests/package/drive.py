"""Builds tests/consumer, an outside project, against mlir-aot and checks what
the build does.

  drive.py consumer    --work DIR (--prefix P | --source-tree S
                       [--without-onnx]) [common]
      ctest --build-and-test on the consumer project; every test must pass.
      --without-onnx: mlir-aot configured with AOT_ENABLE_ONNX=OFF; its
      aot-compile must refuse an ONNX model with the reason.
  drive.py incremental --work DIR --prefix P [common]
      builds a copy of the consumer project with Ninja and checks that each
      edit re-runs exactly the steps that depend on it.

common: --python PY (interpreter with numpy) --cmake CMAKE --ctest CTEST
        [--cmake-arg -DX=Y ...]
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
CONSUMER = os.path.join(os.path.dirname(HERE), "consumer")


def fail(message, output=""):
    if output:
        sys.stderr.write(output + "\n")
    sys.stderr.write("FAIL: " + message + "\n")
    sys.exit(1)


def run(cmd, cwd=None):
    proc = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True)
    return proc.returncode, proc.stdout


def fresh_dir(path):
    shutil.rmtree(path, ignore_errors=True)
    os.makedirs(path)


def write_addmul_reference(args, source_dir):
    """The REFERENCE file of the addmul target exists before configuring."""
    path = os.path.join(args.work, "addmul.npz")
    rc, out = run([args.python, os.path.join(source_dir, "models", "addmul.py"),
                   path])
    if rc != 0:
        fail("models/addmul.py failed", out)
    return path


def consumer(args):
    fresh_dir(args.work)
    reference = write_addmul_reference(args, CONSUMER)
    options = ["-G", "Ninja", "-DCMAKE_BUILD_TYPE=Release",
               "-DADDMUL_REFERENCE=" + reference, "-DAOT_PYTHON=" + args.python]
    if args.prefix:
        options.append("-DCMAKE_PREFIX_PATH=" + args.prefix)
    else:
        options.append("-DMLIR_AOT_SOURCE_DIR=" + args.source_tree)
        if args.without_onnx:
            options.append("-DAOT_ENABLE_ONNX=OFF")
    options += args.cmake_arg
    cmd = [args.ctest, "--build-and-test", CONSUMER,
           os.path.join(args.work, "build"), "--build-generator", "Ninja",
           "--build-options"] + options + [
           "--test-command", args.ctest, "--output-on-failure"]
    rc, out = run(cmd)
    print(out)
    if rc != 0:
        fail("ctest --build-and-test exited with %d" % rc)
    # All three tests ran: the two generated ones and the application.
    for test in ("scale_compile_execute_test", "addmul_compile_execute_test",
                 "consumer_app"):
        if not re.search(r"Test\s+#\d+: %s \.+\s+Passed" % test, out):
            fail("test %s did not pass" % test)
    if "100% tests passed, 0 tests failed out of 3" not in out:
        fail("expected exactly 3 passing tests")
    if args.source_tree:
        check_subdirectory_build(args, os.path.join(args.work, "build"))


def check_subdirectory_build(args, build_dir):
    """What the consumer's build made of mlir-aot, added EXCLUDE_FROM_ALL."""
    inner = os.path.join(build_dir, "mlir-aot")
    # Only what the consumer's targets use was built: the tools
    # add_aot_target runs, not the examples.
    compiler = os.path.join(inner, "codegen", "aot-compile")
    if not os.path.isfile(compiler):
        fail("the consumer's build made no %s" % compiler)
    example = os.path.join(inner, "examples", "aot_example_embed")
    if os.path.exists(example):
        fail("%s was built, though nothing the consumer builds needs it"
             % example)
    if not args.without_onnx:
        return
    model = os.path.join(args.work, "model.onnx")
    with open(model, "wb") as f:
        f.write(b"\x08\x07")
    rc, out = run([compiler, model, "-o", os.path.join(args.work, "model.o")])
    if rc != 1 or "built without ONNX support" not in out:
        fail("aot-compile built with AOT_ENABLE_ONNX=OFF should refuse %s "
             "with its reason and exit 1; exit %d" % (model, rc), out)


class Build:
    """A Ninja build of a copy of the consumer project."""

    def __init__(self, args):
        self.args = args
        self.src = os.path.join(args.work, "src")
        self.bin = os.path.join(args.work, "build")

    def configure(self, prefix, reference):
        rc, out = run([self.args.cmake, "-S", self.src, "-B", self.bin,
                       "-G", "Ninja", "-DCMAKE_BUILD_TYPE=Release",
                       "-DCMAKE_PREFIX_PATH=" + prefix,
                       "-DADDMUL_REFERENCE=" + reference,
                       "-DAOT_PYTHON=" + self.args.python] + self.args.cmake_arg)
        if rc != 0:
            fail("configuring the consumer failed", out)

    def steps(self, what):
        """Runs ninja; returns the descriptions of the steps it ran."""
        rc, out = run(["ninja", "-C", self.bin])
        if rc != 0:
            fail("ninja failed after %s" % what, out)
        if "ninja: no work to do." in out:
            return []
        return re.findall(r"^\[\d+/\d+\] (.*)$", out, re.M)

    def expect_no_work(self, what):
        ran = self.steps(what)
        if ran:
            fail("after %s a second ninja should do nothing, but ran:\n  %s"
                 % (what, "\n  ".join(ran)))


EXTRA_FUNCTION = """
func.func @twice(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = arith.addf %x, %x : tensor<4xf32>
  return %y : tensor<4xf32>
}
"""


def touch(path):
    # Now, and later than anything the build wrote even on a file system with
    # a coarse clock. (A time in the future would leave the file newer than
    # its outputs after the rebuild too.)
    time.sleep(1.1)
    os.utime(path, None)


def expect_steps(ran, what, required, forbidden):
    listing = "\n  ".join(ran) or "(nothing)"
    print("%s:\n  %s" % (what, listing))
    for pattern in required:
        if not any(re.search(pattern, step) for step in ran):
            fail("after %s, expected a step matching '%s'; ran:\n  %s"
                 % (what, pattern, listing))
    for pattern in forbidden:
        hits = [step for step in ran if re.search(pattern, step)]
        if hits:
            fail("after %s, no step should match '%s', but ran:\n  %s"
                 % (what, pattern, "\n  ".join(hits)))
    print("%s: ran %d steps as expected" % (what, len(ran)))


def incremental(args):
    fresh_dir(args.work)
    build = Build(args)
    shutil.copytree(CONSUMER, build.src)
    # A private copy of the install tree, so that touching its aot-compile
    # disturbs no other test.
    prefix = os.path.join(args.work, "prefix")
    shutil.copytree(args.prefix, prefix, symlinks=True)
    reference = write_addmul_reference(args, build.src)
    build.configure(prefix, reference)

    ran = build.steps("the first build")
    expect_steps(ran, "the first build",
                 [r"aot scale: .* -> LLVM dialect", r"aot addmul: .* -> LLVM dialect",
                  r"aot scale: generating", r"aot addmul: generating"], [])
    build.expect_no_work("the first build")

    compile_steps = [r".*-> LLVM dialect", r"LLVM dialect -> LLVM IR",
                     r"LLVM IR -> assembly"]

    scale_mlir = os.path.join(build.src, "models", "scale.mlir")
    with open(scale_mlir) as f:
        original = f.read()

    # A touch changes no output: the compile re-runs once and, as its output
    # comes out the same, nothing after it does.
    touch(scale_mlir)
    ran = build.steps("touching models/scale.mlir")
    expect_steps(ran, "touching models/scale.mlir",
                 [r"aot scale: .*-> LLVM dialect"],
                 [r"aot addmul", r"LLVM dialect -> LLVM IR", r"generating",
                  r"Building CXX", r"Linking"])
    build.expect_no_work("touching models/scale.mlir")

    # An edit (a second function) re-runs the chain and the test generation
    # of that model only; so does undoing it.
    for what, text in (("editing models/scale.mlir", original + EXTRA_FUNCTION),
                       ("restoring models/scale.mlir", original)):
        time.sleep(1.1)
        with open(scale_mlir, "w") as f:
            f.write(text)
        ran = build.steps(what)
        expect_steps(ran, what,
                     ["aot scale: " + p for p in compile_steps] +
                     [r"aot scale: generating scale_compile_execute_test",
                      r"Building CXX object .*scale_compile_execute_test"],
                     [r"aot addmul", r"reference tensors"])
        build.expect_no_work(what)

    touch(reference)
    ran = build.steps("touching the addmul reference")
    expect_steps(ran, "touching the addmul reference",
                 [r"aot addmul: reference tensors",
                  r"aot addmul: generating addmul_compile_execute_test"],
                 compile_steps + [r"aot scale", r"Building CXX"])
    build.expect_no_work("touching the addmul reference")

    with open(os.path.join(build.src, "models", "scale.py"), "a") as f:
        f.write("# edited\n")
    touch(os.path.join(build.src, "models", "scale.py"))
    ran = build.steps("editing models/scale.py")
    expect_steps(ran, "editing models/scale.py",
                 [r"aot scale: reference tensors from",
                  r"aot scale: generating scale_compile_execute_test"],
                 compile_steps + [r"aot addmul", r"Building CXX"])
    build.expect_no_work("editing models/scale.py")

    touch(os.path.join(prefix, "bin", "aot-compile"))
    ran = build.steps("a new aot-compile")
    expect_steps(ran, "a new aot-compile",
                 ["aot scale: " + p for p in compile_steps] +
                 ["aot addmul: " + p for p in compile_steps],
                 # The same code comes out: nothing downstream rebuilds.
                 [r"reference tensors", r"generating", r"Building CXX",
                  r"Linking"])
    build.expect_no_work("a new aot-compile")

    rc, out = run([args.ctest, "--test-dir", build.bin, "--output-on-failure"])
    if rc != 0:
        fail("the rebuilt consumer's tests failed", out)
    print("incremental: all checks passed")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("mode", choices=["consumer", "incremental"])
    parser.add_argument("--work", required=True)
    parser.add_argument("--prefix")
    parser.add_argument("--source-tree")
    parser.add_argument("--python", required=True)
    parser.add_argument("--cmake", default="cmake")
    parser.add_argument("--ctest", default="ctest")
    parser.add_argument("--cmake-arg", action="append", default=[])
    parser.add_argument("--without-onnx", action="store_true")
    args = parser.parse_args()
    if args.mode == "consumer":
        if bool(args.prefix) == bool(args.source_tree):
            parser.error("give exactly one of --prefix and --source-tree")
        if args.without_onnx and not args.source_tree:
            parser.error("--without-onnx needs --source-tree")
        consumer(args)
    else:
        if not args.prefix:
            parser.error("incremental needs --prefix")
        incremental(args)


if __name__ == "__main__":
    main()
