"""Calling one compiled function through its type-erased entry point
``void _aot_invoke_NAME(void **slots)``: one slot per argument, then one per
result. Every argument is checked against the manifest first, so a mistake
is a Python exception, never a crash inside compiled code."""

import ctypes
import inspect
import signal

import numpy as np

from . import _ownership
from ._errors import (ArgumentTypeError, ArgumentValueError, CallError,
                      CrashError)
from ._types import (ScalarKindError, ScalarRangeError, describe_value,
                     parse_value, to_scalar)


# See Signature: what a result's descriptor words hold until the code writes
# them, and how many words after each are watched.
_UNWRITTEN = np.iinfo(np.int64).min
_RESULT_SLACK = 16

_SIGNALS = {
    signal.SIGSEGV: "SIGSEGV (invalid memory access)",
    signal.SIGBUS: "SIGBUS (misaligned or unmapped memory)",
    signal.SIGFPE: "SIGFPE (arithmetic exception, e.g. integer division by "
                   "zero)",
    signal.SIGILL: "SIGILL (illegal instruction: a trap, or code for another "
                   "CPU)",
    signal.SIGABRT: "SIGABRT (abort)",
}


def _describe_signal(number):
    return _SIGNALS.get(number, "signal %d" % number)


class _Annotation:
    """Shows a type such as tensor<?x4xf32> unquoted in help()."""

    def __init__(self, text):
        self.text = text

    def __repr__(self):
        return self.text


def _plural(n, word):
    return "%d %s%s" % (n, word, "" if n == 1 else "s")


class Signature:
    """A function's manifest entry, parsed, and the layout of its call
    frame: one int64 array holding the slots, the pointer each tensor
    argument's slot points at, the descriptors and the scalars."""

    def __init__(self, fn, where):
        self.name = fn["name"]
        self.symbol = fn.get("symbol")
        self.args = [parse_value(v, "%s.args[%d]" % (where, i))
                     for i, v in enumerate(fn["args"])]
        self.results = [parse_value(v, "%s.results[%d]" % (where, i))
                        for i, v in enumerate(fn["results"])]
        nslots = len(self.args) + len(self.results)
        word = nslots
        # (word, word it points at): the slots, and for each tensor
        # argument the variable holding its descriptor's address.
        pointers = []
        self.arg_words = []
        for i, sig in enumerate(self.args):
            pointers.append((i, word))
            if sig.is_scalar:
                self.arg_words.append(word)
                word += 1
            else:
                pointers.append((word, word + 1))
                self.arg_words.append(word + 1)
                word += 1 + 3 + 2 * sig.rank
        # A tensor result's sizes and strides, and words after them, hold
        # _UNWRITTEN until the call: code that writes a descriptor of
        # another rank than the manifest's is caught by what stays or
        # changes (check_result).
        self.result_words = []
        unwritten = []
        for k, sig in enumerate(self.results):
            pointers.append((len(self.args) + k, word))
            self.result_words.append(word)
            if sig.is_scalar:
                word += 1
            else:
                end = word + 3 + 2 * sig.rank + _RESULT_SLACK
                unwritten += range(word + 3, end)
                word = end
        self.frame_words = word
        self.unwritten_words = np.array(unwritten, dtype=np.intp)
        self.pointer_words = np.array([p for p, _ in pointers], dtype=np.intp)
        self.pointer_offsets = np.array([t * 8 for _, t in pointers],
                                        dtype=np.int64)

        results = [_Annotation(r.text) for r in self.results]
        if not results:
            ret = None
        elif len(results) == 1:
            ret = results[0]
        else:
            ret = _Annotation("(%s)" % ", ".join(r.text for r in results))
        self.signature = inspect.Signature(
            [inspect.Parameter("arg%d" % i,
                               inspect.Parameter.POSITIONAL_OR_KEYWORD,
                               annotation=_Annotation(a.text))
             for i, a in enumerate(self.args)],
            return_annotation=ret)
        self.text = "%s(%s) -> %s" % (
            self.name, ", ".join("arg%d: %s" % (i, a.text)
                                 for i, a in enumerate(self.args)), ret)

    def doc(self, module, target):
        lines = [self.text, "",
                 "Compiled function %r of module %r (target %s)."
                 % (self.name, module, target), ""]
        if self.args:
            lines.append("Arguments (positional, or by name argN):")
            lines += ["  arg%d: %s" % (i, a.describe())
                      for i, a in enumerate(self.args)]
        else:
            lines.append("Takes no arguments.")
        if not self.results:
            lines.append("Returns None.")
        elif len(self.results) == 1:
            lines.append("Returns: %s." % self.results[0].describe(True))
        else:
            lines.append("Returns a tuple of %d:" % len(self.results))
            lines += ["  %d: %s" % (k, r.describe(True))
                      for k, r in enumerate(self.results)]
        lines += ["",
                  "Dynamic dims (?) take the array's size. Arrays must have "
                  "exactly the dtype shown (no casting); non-contiguous "
                  "arrays are copied, contiguous ones are passed as they "
                  "are."]
        return "\n".join(lines)


class Invoker:
    """Checks, lays out and runs calls of one function."""

    def __init__(self, sig, entry, cuda_status=None, guard=None):
        self.sig = sig
        self.entry = entry
        self.cuda_status = cuda_status  # (status(), last_error()) or None
        # aotGuardedInvoke(entry, slots), or None: call the entry directly.
        self.guard = guard
        self.entry_address = ctypes.cast(entry, ctypes.c_void_p).value

    # ---- argument checks -------------------------------------------------

    def _fail(self, cls, message):
        return cls("%s: %s" % (self.sig.name, message))

    def bind(self, args, kwargs):
        """The positional argument list, with arguments given by name
        (argN) put in place."""
        n = len(self.sig.args)
        if len(args) > n:
            raise self._fail(
                ArgumentTypeError,
                "%s given, but the function takes %d: %s"
                % (_plural(len(args) + len(kwargs), "argument"), n,
                   self.sig.text))
        if kwargs:
            args = list(args) + [_MISSING] * (n - len(args))
            for key, value in kwargs.items():
                digits = key[3:] if key.startswith("arg") else ""
                index = int(digits) if digits.isdigit() else -1
                if not 0 <= index < n:
                    raise self._fail(
                        ArgumentTypeError,
                        "has no argument named %r: %s" % (key, self.sig.text))
                if args[index] is not _MISSING:
                    raise self._fail(ArgumentTypeError,
                                     "argument %d (%s) given twice"
                                     % (index, key))
                args[index] = value
        missing = [i for i in range(n)
                   if i >= len(args) or args[i] is _MISSING]
        if missing:
            raise self._fail(
                ArgumentTypeError,
                "missing argument %d (%s): %s given, but the function takes "
                "%d: %s" % (missing[0], self.sig.args[missing[0]].text,
                            _plural(n - len(missing), "argument"), n,
                            self.sig.text))
        return args

    def check_tensor(self, i, sig, value):
        """`value` as the array to pass: checked, C-contiguous, aligned."""
        if not isinstance(value, np.ndarray):
            raise self._fail(
                ArgumentTypeError,
                "argument %d is %s, but the function takes %s (pass a numpy "
                "array of %s)" % (i, describe_value(value), sig.text,
                                  sig.dtype.numpy_name()))
        if value.dtype not in sig.dtype.accepted:
            raise self._fail(
                ArgumentTypeError,
                "argument %d has dtype %s, but the function takes %s "
                "(numpy %s; arrays are not cast)"
                % (i, value.dtype, sig.text, sig.dtype.numpy_name()))
        if value.ndim != sig.rank:
            raise self._fail(
                ArgumentValueError,
                "argument %d has rank %d (shape %s), but the function takes "
                "%s" % (i, value.ndim, tuple(value.shape), sig.text))
        for d, (have, want) in enumerate(zip(value.shape, sig.shape)):
            if want >= 0 and have != want:
                raise self._fail(
                    ArgumentValueError,
                    "argument %d has shape %s, but the function takes %s "
                    "(dim %d must be %d)" % (i, tuple(value.shape), sig.text,
                                             d, want))
        if sig.dtype.name == "i4" and value.size and (
                value.min() < -8 or value.max() > 7):
            raise self._fail(
                ArgumentValueError,
                "argument %d holds values outside -8..7, but the function "
                "takes %s (i4: one int8 per element, sign-extended)"
                % (i, sig.text))
        flags = value.flags
        if not (flags.c_contiguous and flags.aligned):
            value = np.array(value, order="C", copy=True)
        return value

    def check_scalar(self, i, sig, value):
        if isinstance(value, np.ndarray) and value.ndim != 0:
            raise self._fail(
                ArgumentTypeError,
                "argument %d is %s, but the function takes a scalar of type %s"
                % (i, describe_value(value), sig.text))
        try:
            return to_scalar(value, sig.dtype)
        except ScalarKindError as e:
            raise self._fail(
                ArgumentTypeError,
                "argument %d is %s, but the function takes a scalar of type "
                "%s (a Python %s or a numpy scalar of that kind)"
                % (i, describe_value(value), sig.text, e.args[0])) from None
        except ScalarRangeError as e:
            raise self._fail(
                ArgumentValueError,
                "argument %d = %r is out of range for %s %s"
                % (i, value, sig.text, e.args[0])) from None

    # ---- the call ----------------------------------------------------------

    def __call__(self, args, kwargs):
        sig = self.sig
        args = self.bind(args, kwargs)
        frame = np.zeros(sig.frame_words, dtype=np.int64)
        base = frame.__array_interface__["data"][0]
        frame[sig.pointer_words] = sig.pointer_offsets + base
        # The arrays as passed: they stay referenced here until the call
        # returns, and a result that borrows one keeps it alive after.
        arg_buffers = {}
        for i, (asig, value, w) in enumerate(zip(sig.args, args,
                                                 sig.arg_words)):
            if asig.is_scalar:
                v = self.check_scalar(i, asig, value)
                frame[w:w + 1].view(np.uint8)[:v.itemsize] = np.frombuffer(
                    v.tobytes(), dtype=np.uint8)
                continue
            a = self.check_tensor(i, asig, value)
            address = a.__array_interface__["data"][0]
            arg_buffers.setdefault(address, a)
            rank = asig.rank
            frame[w] = frame[w + 1] = address
            if rank:
                frame[w + 3:w + 3 + rank] = a.shape
                stride, strides = 1, [0] * rank
                for d in range(rank - 1, -1, -1):
                    strides[d] = stride
                    stride *= a.shape[d]
                frame[w + 3 + rank:w + 3 + 2 * rank] = strides
        frame[sig.unwritten_words] = _UNWRITTEN
        if self.guard is None:
            self.entry(base)
        else:
            crash = self.guard(self.entry_address, base)
            if crash:
                raise CrashError(
                    "%s: the compiled code crashed: %s; the call was "
                    "abandoned there, and the module may not survive another"
                    % (sig.name, _describe_signal(crash)), signal=crash)
        gpu_failure = None
        if self.cuda_status is not None:
            status, last_error = self.cuda_status
            code = status()
            if code != 0:
                text = last_error()
                gpu_failure = CallError(
                    "%s: the call failed on the GPU: %s"
                    % (sig.name, text.decode("utf-8", "replace")
                       if text else "status %d" % code), status=code)
        if gpu_failure is None:
            for rsig, w in zip(sig.results, sig.result_words):
                if not rsig.is_scalar:
                    self.check_result(rsig, frame, w)
        results = self.unpack(frame, arg_buffers)
        if gpu_failure is not None:
            raise gpu_failure
        del args
        if not results:
            return None
        return results[0] if len(results) == 1 else tuple(results)

    def check_result(self, rsig, frame, w):
        """Refuses a descriptor that is not of the manifest's type: reading
        a result of another shape than the manifest says would read out of
        its bounds."""
        rank = rsig.rank
        words = frame[w + 3:w + 3 + 2 * rank + _RESULT_SLACK]
        k = self.sig.result_words.index(w)
        problem = None
        if (words[2 * rank:] != _UNWRITTEN).any():
            problem = "the code wrote a descriptor of a higher rank"
        elif (words[:2 * rank] == _UNWRITTEN).any():
            problem = "the code wrote a descriptor of a lower rank"
        else:
            shape = [int(n) for n in words[:rank]]
            if any(n < 0 or (want >= 0 and n != want)
                   for n, want in zip(shape, rsig.shape)):
                problem = "the code returned shape %s" % (tuple(shape),)
        if problem:
            # Its buffer is left alone: which buffer is whose cannot be
            # trusted from a descriptor that is not the manifest's.
            raise CallError(
                "%s: result %d is not of the type its manifest says (%s): %s;"
                " the library and its manifest disagree"
                % (self.sig.name, k, rsig.text, problem))

    def unpack(self, frame, arg_buffers):
        owners = {}
        results = []
        for rsig, w in zip(self.sig.results, self.sig.result_words):
            dtype = rsig.dtype.numpy
            if rsig.is_scalar:
                results.append(
                    frame[w:w + 1].view(np.uint8)[:dtype.itemsize]
                    .view(dtype)[0])
                continue
            words = frame[w:w + 3 + 2 * rsig.rank].tolist()
            results.append(_ownership.tensor_result(words, dtype, arg_buffers,
                                                    owners))
        return results


_MISSING = object()
