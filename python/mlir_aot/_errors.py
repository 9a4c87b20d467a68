"""The exceptions mlir_aot raises; each also derives from the built-in
exception a caller would expect for the same mistake, so code written
against plain Python (``except TypeError``) keeps working."""


class Error(Exception):
    """Base of every error raised by mlir_aot."""


class LoadError(Error, OSError):
    """A file cannot be loaded: missing, not a library, no or bad manifest,
    built for another machine, or its weights cannot be loaded."""


class ArgumentError(Error):
    """A call's arguments do not match the function's signature."""


class ArgumentTypeError(ArgumentError, TypeError):
    """Wrong number of arguments, a tensor where a scalar belongs (or the
    reverse), or the wrong dtype."""


class ArgumentValueError(ArgumentError, ValueError):
    """The wrong rank or size of a tensor, or an integer scalar out of
    range of its type."""


class UnknownFunctionError(Error, AttributeError, KeyError):
    """The module exports no function of that name (raised by both
    ``module.name`` and ``module["name"]``)."""

    # KeyError would print the message quoted, as if it were the key.
    def __str__(self):
        return str(self.args[0]) if self.args else ""


class CompileError(Error, RuntimeError):
    """aot-compile failed; ``stderr`` holds its diagnostics."""

    def __init__(self, message, command=None, returncode=None, stderr=""):
        super().__init__(message)
        self.command = command
        self.returncode = returncode
        self.stderr = stderr


class ExportError(Error, RuntimeError):
    """mlir_aot.torch could not turn a PyTorch module into ONNX or into
    reference tensors: torch or onnx is missing (the message names the
    package to install), a loader is wrong, or torch.onnx.export failed."""


class CallError(Error, RuntimeError):
    """A call failed while it ran (GPU code reports its failures after the
    call); ``status`` is the runtime's code."""

    def __init__(self, message, status=None):
        super().__init__(message)
        self.status = status


class CrashError(CallError):
    """The compiled code crashed during the call (``signal`` is the
    signal's number: SIGSEGV, SIGBUS, SIGFPE, SIGILL or SIGABRT). The call
    was abandoned where it crashed: what it allocated is lost, and the
    module's state (its OpenMP threads, after a crash in a parallel loop)
    may not survive another call. Save what matters and restart the
    process."""

    def __init__(self, message, signal=None):
        super().__init__(message)
        self.signal = signal
