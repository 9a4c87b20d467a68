# lit configuration of the aot-compile command-line tests (tests/cli).
#
# The CMake-generated lit.site.cfg.py sets the paths (aot_compile,
# llvm_tools_dir, ...) and then loads this file. The bad-input suite
# (tests/bad_input) loads this file too and then points the suite at its own
# directory, so both suites share one set of tools and substitutions.
import os
import platform
import shutil
import subprocess
import sys

import lit.formats

config.name = "mlir-aot cli"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir", ".test"]
config.excludes = ["Inputs", "tools", "CMakeLists.txt", "lit.cfg.py",
                   "lit.site.cfg.py.in", "AotLitSuite.cmake"]
config.test_source_root = os.path.dirname(os.path.abspath(__file__))

for attr in ("aot_compile", "aot_run", "llvm_tools_dir", "aot_models_dir",
             "aot_abi_include_dir", "test_exec_root"):
    if not getattr(config, attr, None):
        lit_config.fatal("'%s' is not set: run the tests through the "
                         "lit.site.cfg.py that CMake generates" % attr)

cli_dir = os.path.dirname(os.path.abspath(__file__))
tools_dir = os.path.join(cli_dir, "tools")


def quote(path):
    return '"%s"' % path


# aot-compile, aot-run and the LLVM tools (FileCheck, not, split-file, llvm-nm,
# llvm-ar, llvm-objdump, llvm-dwarfdump, llvm-readelf) are found on PATH, in that
# order.
path = os.pathsep.join([os.path.dirname(config.aot_compile),
                        os.path.dirname(config.aot_run),
                        config.llvm_tools_dir,
                        config.environment.get("PATH", os.environ["PATH"])])
config.environment["PATH"] = path
# Diagnostics and tool output are checked in English.
config.environment["LC_ALL"] = "C"

# In a sanitizer build, a finding must never pass for a clean error: ASan
# exits with status 1 by default, the status these tests expect for bad
# input. Make findings abort, which expect-exit reports as a crash.
for var, options in (("ASAN_OPTIONS", "abort_on_error=1"),
                     ("UBSAN_OPTIONS", "halt_on_error=1:abort_on_error=1")):
    given = config.environment.get(var, os.environ.get(var, ""))
    config.environment[var] = given + (":" if given else "") + options

for tool in ("FileCheck", "not", "split-file", "llvm-nm", "llvm-ar",
             "llvm-objdump", "llvm-dwarfdump", "llvm-readelf"):
    if not shutil.which(tool, path=path):
        lit_config.fatal("'%s' not found in %s (Debian: install llvm-22-tools)"
                         % (tool, config.llvm_tools_dir))

# ptxas, where the compiler looks for it (lib/Backend/Cuda/DeviceCode.h):
# tests that need a cubin say REQUIRES: ptxas, and are reported unsupported
# (not passed) on a machine without a CUDA toolkit.
cuda_roots = ([os.environ["CUDA_HOME"]] if os.environ.get("CUDA_HOME")
              else ["/usr/local/cuda", "/usr/lib/nvidia-cuda-toolkit"])
if any(os.access(os.path.join(r, "bin", "ptxas"), os.X_OK) for r in cuda_roots):
    config.available_features.add("ptxas")

python = quote(sys.executable)
config.substitutions.append(("%{python}", python))
config.substitutions.append(
    ("%{expect-exit}", python + " " + quote(os.path.join(tools_dir, "expect-exit.py"))))
config.substitutions.append(
    ("%{flip-byte}", python + " " + quote(os.path.join(tools_dir, "flip-byte.py"))))
config.substitutions.append(
    ("%{check-exports}", python + " " + quote(os.path.join(tools_dir, "check-exports.py"))))
config.substitutions.append(
    ("%{check-trace}", python + " " + quote(os.path.join(tools_dir, "check-trace.py"))))
config.substitutions.append(
    ("%{line-table}", python + " " + quote(os.path.join(tools_dir, "line-table.py"))))
# A named x86-64 CPU with AVX-512 (and VNNI): the target of tests that check
# the IR or the objects the tile sizes shape, which are the target's (its
# vector registers), so that they check the same text on every build
# machine. Tests that run the code compile for the host.
config.substitutions.append(
    ("%{avx512}", "--target=cpu:x86_64-unknown-linux-gnu,cpu=znver4"))
config.substitutions.append(("%{models}", config.aot_models_dir))
config.substitutions.append(("%{cli-inputs}", os.path.join(cli_dir, "Inputs")))
config.substitutions.append(
    ("%{source-root}", os.path.dirname(os.path.dirname(cli_dir))))
# MLIR's .td files, for mlir-tblgen.
config.substitutions.append(
    ("%{llvm-include}",
     os.path.join(os.path.dirname(config.llvm_tools_dir), "include")))
config.substitutions.append(("%{abi-include}", config.aot_abi_include_dir))
# What compiled objects link besides libc (their manifest's "aot_runtime").
config.substitutions.append(("%{runtime}", quote(config.aot_runtime)))
# LLVM's OpenMP runtime, for code with parallel loops (the manifest's "omp"),
# with a run path: it lives beside LLVM, off the loader's default path.
omp = getattr(config, "aot_openmp_library", "")
if omp:
    config.substitutions.append(
        ("%{omp}", quote(omp) + " -Wl,-rpath," + quote(os.path.dirname(omp))))

# A C and a C++ compiler, to link and run code against the outputs.
# (Substitution keys are regular expressions: hence %{cxx}, not %{c++}.)
for feature, attr, key, fallback in (("c-compiler", "c_compiler", "cc", "cc"),
                                     ("cxx-compiler", "cxx_compiler", "cxx", "c++")):
    compiler = getattr(config, attr, "") or shutil.which(fallback) or ""
    if compiler and os.path.exists(compiler):
        config.available_features.add(feature)
        config.substitutions.append(("%{" + key + "}", quote(compiler)))

# The machine the tests run on: host-x86_64, host-aarch64, ...
config.available_features.add("host-" + platform.machine())

# The LLVM back ends this LLVM was built with (Debian builds them all).
llvm_config = shutil.which("llvm-config", path=path)
if llvm_config:
    try:
        targets = subprocess.run([llvm_config, "--targets-built"],
                                 capture_output=True, text=True,
                                 check=True).stdout.split()
        for target in targets:
            config.available_features.add("target-" + target)
    except (OSError, subprocess.CalledProcessError):
        pass
