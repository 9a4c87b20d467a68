"""Loading a compiled shared library and exposing its functions."""

import ctypes
import os
import platform

from ._call import Invoker, Signature
from ._elf import MACHINES, read_elf_manifests
from ._errors import LoadError, UnknownFunctionError

ABI_VERSION = 1

INVOKE_PREFIX = "_aot_invoke_"

# The runtime's int32_t aotGuardedInvoke(entry, slots): a crash of the code
# comes back as the signal's number (aot/abi/CallGuard.h).
CALL_GUARD = "aotGuardedInvoke"

# Libraries are never unloaded: results may point into them (constants)
# and their functions may still be referenced.
_loaded = []


def _check_manifest(path, manifest):
    if not isinstance(manifest, dict):
        raise LoadError("%s: its embedded manifest is not a JSON object"
                        % path)
    version = manifest.get("abi_version")
    if version != ABI_VERSION:
        raise LoadError(
            "%s: its manifest has abi_version %r, but this mlir_aot reads "
            "abi_version %d: use the mlir_aot of the mlir-aot that compiled "
            "it, or recompile" % (path, version, ABI_VERSION))
    for key, kind in (("module", str), ("target", str), ("functions", list)):
        if not isinstance(manifest.get(key), kind):
            raise LoadError("%s: its manifest has no valid %r" % (path, key))


def _signatures(path, manifest):
    sigs = {}
    for i, fn in enumerate(manifest["functions"]):
        where = "functions[%d]" % i
        try:
            if not (isinstance(fn, dict) and isinstance(fn.get("name"), str)
                    and isinstance(fn.get("args"), list)
                    and isinstance(fn.get("results"), list)):
                raise ValueError("%s: needs \"name\", \"args\" and "
                                 "\"results\"" % where)
            sig = Signature(fn, where)
        except ValueError as e:
            raise LoadError("%s: its manifest is invalid: %s"
                            % (path, e)) from None
        sigs[sig.name] = sig
    return sigs


def _check_machine(path, manifest, machine):
    host = MACHINES.get(platform.machine().lower())
    if host is not None and machine != host:
        names = {v: k for k, v in MACHINES.items() if k not in ("amd64",
                                                                "arm64")}
        raise LoadError(
            "%s: holds %s code (target %s), which cannot run in this %s "
            "process" % (path, names.get(machine, "ELF machine %d" % machine),
                         manifest["target"], platform.machine()))


def _symbol(library, path, name, restype, argtypes):
    try:
        f = library[name]
    except AttributeError:
        raise LoadError("%s: has no symbol %r" % (path, name)) from None
    f.restype = restype
    f.argtypes = argtypes
    return f


def _load_weights(library, path, manifest):
    """Maps the external weights now, so that a missing or different file
    is an error of the load, not of the first call."""
    weights = manifest.get("weights")
    if not weights:
        return
    if not (isinstance(weights, dict) and isinstance(weights.get("file"), str)
            and isinstance(weights.get("load"), str)):
        raise LoadError("%s: its manifest is invalid: weights: needs "
                        "\"file\" and \"load\" strings" % path)
    load = _symbol(library, path, weights["load"], ctypes.c_int32,
                   [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_uint64])
    error = ctypes.create_string_buffer(1024)
    # No path: the default, as the code's first call would load it (the
    # file of the compile-time name beside the library, else the
    # compile-time path as the code holds it, byte for byte).
    if load(None, error, len(error)) != 0:
        raise LoadError("%s: cannot load module %r: %s"
                        % (path, manifest["module"],
                           error.value.decode("utf-8", "replace")))


class Module:
    """A loaded library: call its functions as attributes (``m.f(x)``) or
    by name (``m["f"](x)``, which also reaches a function whose name is
    one of Module's own attributes)."""

    def __init__(self, path, manifest, library, signatures):
        self._path = path
        self._manifest = manifest
        self._library = library
        cuda = None
        if manifest["target"].startswith("cuda"):
            cuda = (_symbol(library, path, "aotCudaStatus", ctypes.c_int, []),
                    _symbol(library, path, "aotCudaLastError",
                            ctypes.c_char_p, []))
        # Libraries written by an older aot-compile have no call guard:
        # their functions are called directly.
        guard = None
        if hasattr(library, CALL_GUARD):
            guard = _symbol(library, path, CALL_GUARD, ctypes.c_int32,
                            [ctypes.c_void_p, ctypes.c_void_p])
        self._functions = {}
        for name, sig in signatures.items():
            entry = _symbol(library, path, INVOKE_PREFIX + name, None,
                            [ctypes.c_void_p])
            self._functions[name] = _make_function(
                Invoker(sig, entry, cuda, guard), manifest)

    @property
    def path(self):
        """The file the module was loaded from."""
        return self._path

    @property
    def manifest(self):
        """The manifest embedded in the library (a dict)."""
        return self._manifest

    @property
    def name(self):
        """The module's name."""
        return self._manifest["module"]

    @property
    def target(self):
        """The target it was compiled for ("host", "cpu:...", "cuda:...")."""
        return self._manifest["target"]

    @property
    def functions(self):
        """The names of the exported functions, in manifest order."""
        return tuple(self._functions)

    def _unknown(self, name):
        return UnknownFunctionError(
            "module %r (%s) has no function %r; its functions: %s"
            % (self.name, self._path, name,
               ", ".join(self._functions) or "none"))

    def __getattr__(self, name):
        # Only reached when normal lookup fails, so properties win.
        if name.startswith("__") or "_functions" not in self.__dict__:
            raise AttributeError(name)
        try:
            return self._functions[name]
        except KeyError:
            raise self._unknown(name) from None

    def __getitem__(self, name):
        try:
            return self._functions[name]
        except (KeyError, TypeError):
            raise self._unknown(name) from None

    def __contains__(self, name):
        return name in self._functions

    def __iter__(self):
        return iter(self._functions)

    def __len__(self):
        return len(self._functions)

    def __dir__(self):
        return sorted(set(super().__dir__()) | {
            n for n in self._functions if n.isidentifier()})

    def __repr__(self):
        return "<mlir_aot.Module %r from %r (%s): %s>" % (
            self.name, self._path, self.target, ", ".join(self._functions))


def _make_function(invoker, manifest):
    """A plain Python function, so that help() shows its signature."""
    sig = invoker.sig

    def function(*args, **kwargs):
        return invoker(args, kwargs)

    function.__name__ = sig.name if sig.name.isidentifier() else "function"
    function.__qualname__ = "%s.%s" % (manifest["module"], sig.name)
    function.__module__ = "mlir_aot.compiled.%s" % manifest["module"]
    function.__doc__ = sig.doc(manifest["module"], manifest["target"])
    function.__signature__ = sig.signature
    function.signature = sig.text
    function.manifest = next(f for f in manifest["functions"]
                             if f.get("name") == sig.name)
    return function


def read_manifests(path):
    """The manifests (dicts) embedded in a file that mlir-aot wrote (a
    shared library or an object file), without loading it."""
    return read_elf_manifests(os.fspath(path))[0]


def load(path):
    """Loads a shared library written by ``aot-compile X.mlir -o X.so``.

    The library is never unloaded. Raises LoadError when the file is
    missing, is not a library mlir-aot compiled, holds other than one
    module, was compiled for another machine or ABI version, or cannot be
    loaded."""
    path = os.fspath(path)
    manifests, machine = read_elf_manifests(path)
    if len(manifests) != 1:
        raise LoadError("%s: holds %d modules; a shared library to load "
                        "holds one" % (path, len(manifests)))
    manifest = manifests[0]
    _check_manifest(path, manifest)
    signatures = _signatures(path, manifest)
    _check_machine(path, manifest, machine)
    try:
        library = ctypes.CDLL(os.path.abspath(path), mode=os.RTLD_LOCAL)
    except OSError as e:
        raise LoadError("%s: cannot load: %s" % (path, e)) from None
    _loaded.append(library)
    _load_weights(library, path, manifest)
    return Module(path, manifest, library, signatures)
