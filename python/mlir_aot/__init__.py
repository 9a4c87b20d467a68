"""mlir_aot: call functions that mlir-aot compiled ahead of time.

    import mlir_aot, numpy as np
    m = mlir_aot.load("model.so")          # aot-compile model.mlir -o model.so
    y = m.forward(np.ones((4, 8), np.float32))

Each library carries a manifest of its functions (``m.manifest``); every
call is checked against it (count, tensor or scalar, dtype, rank, static
dims) before the compiled code runs, and raises an mlir_aot.Error subclass
on a mismatch; a crash of the compiled code raises mlir_aot.CrashError
instead of ending the interpreter. Tensors are numpy arrays of exactly the function's dtype
(bf16 as uint16 bit patterns, i1 as bool); results are numpy arrays that
own, share or borrow their memory as the ABI says. See docs/python.md.

PyTorch modules come in through ONNX with ``mlir_aot.torch`` (export,
compile, reference tensors); it imports torch only when used, so this
package never needs it.

Pure Python (ctypes and numpy): nothing to build.
"""

from ._compile import compile, find_compiler
from ._errors import (ArgumentError, ArgumentTypeError, ArgumentValueError,
                      CallError, CompileError, CrashError, Error, ExportError,
                      LoadError, UnknownFunctionError)
from ._module import ABI_VERSION, Module, load, read_manifests
from ._types import DTYPES

# Tracebacks name the public path (mlir_aot.LoadError), not the private one.
for _cls in (ArgumentError, ArgumentTypeError, ArgumentValueError, CallError,
             CompileError, CrashError, Error, ExportError, LoadError, Module,
             UnknownFunctionError):
    _cls.__module__ = __name__
del _cls

__all__ = [
    "ABI_VERSION", "ArgumentError", "ArgumentTypeError", "ArgumentValueError",
    "CallError", "CompileError", "CrashError", "DTYPES", "Error",
    "ExportError", "LoadError", "Module", "UnknownFunctionError", "compile",
    "find_compiler", "load", "read_manifests",
]
