"""Compiling through the aot-compile executable, then loading the result."""

import os
import shutil
import subprocess
import tempfile

from ._errors import CompileError, Error
from ._module import load

COMPILER = "aot-compile"


def find_compiler():
    """The aot-compile executable: $AOT_COMPILE, else the one installed
    with this package (PREFIX/bin beside PREFIX/LIBDIR/python3/
    dist-packages/mlir_aot), else the first on PATH."""
    env = os.environ.get("AOT_COMPILE")
    if env:
        if not (os.path.isfile(env) and os.access(env, os.X_OK)):
            raise Error("$AOT_COMPILE names %r, which is not an executable "
                        "file" % env)
        return env
    package = os.path.dirname(os.path.realpath(__file__))
    site = os.path.dirname(package)
    if os.path.basename(site) in ("dist-packages", "site-packages"):
        # LIBDIR is "lib" or, on multiarch systems, "lib/<triple>".
        libdir = os.path.dirname(os.path.dirname(site))
        for prefix in (os.path.dirname(libdir),
                       os.path.dirname(os.path.dirname(libdir))):
            candidate = os.path.join(prefix, "bin", COMPILER)
            if os.path.isfile(candidate) and os.access(candidate, os.X_OK):
                return candidate
    found = shutil.which(COMPILER)
    if found:
        return found
    raise Error("cannot find %s: set $AOT_COMPILE to its path or put it on "
                "PATH" % COMPILER)


def compile(source, opt=3, threads=None, target=None, output=None,
            extra_args=()):
    """Compiles the MLIR file `source` (text or bytecode) into a shared
    library and loads it; returns the Module.

    opt: optimisation level 0..3. threads: threads the compiled code runs
    its parallel loops on (aot-compile --threads; None: its default, 0 = the
    OpenMP runtime's count when the code runs).
    target: aot-compile --target (None: this machine). output: where to
    write the library; None: a temporary directory, removed once the
    library is loaded. extra_args: more aot-compile options.

    Raises CompileError with aot-compile's diagnostics when it fails."""
    source = os.fspath(source)
    if opt not in (0, 1, 2, 3):
        raise ValueError("opt must be 0, 1, 2 or 3, got %r" % (opt,))
    if threads is not None and (not isinstance(threads, int)
                                or isinstance(threads, bool) or threads < 0):
        raise ValueError("threads must be an int >= 0, got %r" % (threads,))
    if not os.path.isfile(source):
        raise CompileError("%s: no such file" % source, stderr="")
    command = [find_compiler(), source, "-O%d" % opt]
    if threads is not None:
        command.append("--threads=%d" % threads)
    if target is not None:
        command.append("--target=%s" % target)
    command += [str(a) for a in extra_args]
    scratch = None
    if output is None:
        scratch = tempfile.mkdtemp(prefix="mlir_aot-")
        stem = os.path.splitext(os.path.basename(source))[0] or "module"
        output = os.path.join(scratch, stem + ".so")
    output = os.fspath(output)
    command += ["-o", output]
    try:
        done = subprocess.run(command, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True,
                              errors="replace", check=False)
        if done.returncode != 0:
            raise CompileError(
                "aot-compile failed on %s (exit status %d):\n%s"
                % (source, done.returncode, done.stderr.rstrip()),
                command=command, returncode=done.returncode,
                stderr=done.stderr)
        # The loaded library stays mapped after its file is removed.
        return load(output)
    finally:
        if scratch is not None:
            shutil.rmtree(scratch, ignore_errors=True)
