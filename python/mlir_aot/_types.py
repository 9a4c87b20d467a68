"""Element types and signatures: what the manifest says a function takes
and returns, in numpy's terms."""

import math

import numpy as np

try:  # optional: a numpy dtype for bf16
    import ml_dtypes as _ml_dtypes
    _BFLOAT16 = np.dtype(_ml_dtypes.bfloat16)
except ImportError:
    _BFLOAT16 = None


class DType:
    """One manifest element type: its name ("f32"), the numpy dtype arrays
    of it have (bf16: uint16 bit patterns), and for integers their range."""

    def __init__(self, name, numpy_dtype, kind, bits):
        self.name = name
        self.numpy = np.dtype(numpy_dtype)
        self.kind = kind  # "b" (i1), "i", "u", "f"
        self.bits = bits
        accepted = [self.numpy]
        if name == "bf16" and _BFLOAT16 is not None:
            accepted.append(_BFLOAT16)
        self.accepted = tuple(accepted)
        if kind == "i":
            self.min, self.max = -(1 << (bits - 1)), (1 << (bits - 1)) - 1
        elif kind == "u":
            self.min, self.max = 0, (1 << bits) - 1
        elif kind == "b":
            self.min, self.max = 0, 1

    def numpy_name(self):
        if self.name == "bf16":
            return "uint16 (bf16 bit patterns)"
        if self.name == "i4":
            return "int8 (i4 values, -8..7)"
        if self.name.startswith("f8"):
            return "uint8 (%s bit patterns)" % self.name
        return self.numpy.name

    def __repr__(self):
        return self.name


DTYPES = {d.name: d for d in (
    DType("i1", np.bool_, "b", 1),
    DType("i4", np.int8, "i", 4),  # one value per byte, sign-extended
    DType("i8", np.int8, "i", 8),
    DType("i16", np.int16, "i", 16),
    DType("i32", np.int32, "i", 32),
    DType("i64", np.int64, "i", 64),
    DType("u8", np.uint8, "u", 8),
    DType("u16", np.uint16, "u", 16),
    DType("u32", np.uint32, "u", 32),
    DType("u64", np.uint64, "u", 64),
    DType("f16", np.float16, "f", 16),
    DType("bf16", np.uint16, "f", 16),
    DType("f32", np.float32, "f", 32),
    DType("f64", np.float64, "f", 64),
    # The 8-bit floats: uint8 arrays of their bit patterns.
    DType("f8E4M3FN", np.uint8, "f", 8),
    DType("f8E5M2", np.uint8, "f", 8),
    DType("f8E4M3FNUZ", np.uint8, "f", 8),
    DType("f8E5M2FNUZ", np.uint8, "f", 8),
)}

# Scalars travel in general or SSE registers; half precision never does
# (the compiler refuses f16/bf16 scalars at the boundary).
SCALAR_DTYPES = ("i1", "i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64",
                 "f32", "f64")


class ValueSig:
    """One argument or result: a tensor of `shape` (-1 for a dynamic dim)
    or a scalar, of element type `dtype`."""

    def __init__(self, kind, dtype, shape):
        self.kind = kind
        self.dtype = dtype
        self.shape = tuple(shape)
        self.rank = len(self.shape)
        self.is_scalar = kind == "scalar"
        if self.is_scalar:
            self.text = dtype.name
        else:
            dims = "".join(("?" if d < 0 else str(d)) + "x"
                           for d in self.shape)
            self.text = "tensor<%s%s>" % (dims, dtype.name)

    def __repr__(self):
        return self.text

    def describe(self, result=False):
        """What a Python caller passes, or gets back for a result."""
        if self.is_scalar and result:
            return "numpy %s scalar" % self.dtype.numpy.name
        if self.is_scalar:
            return "%s scalar (%s)" % (self.dtype.name, _scalar_python(self))
        dims = ", ".join("?" if d < 0 else str(d) for d in self.shape)
        if self.rank == 1:
            dims += ","
        return "numpy array of %s, shape (%s)" % (
            self.dtype.numpy_name(), dims)


def _scalar_python(sig):
    return {"b": "bool", "i": "int", "u": "int", "f": "float"}[sig.dtype.kind]


def parse_value(v, where):
    """A ValueSig from its manifest JSON; ValueError naming `where` when
    the manifest holds something this module does not know."""
    if not isinstance(v, dict):
        raise ValueError("%s: expected an object" % where)
    kind = v.get("kind")
    if kind not in ("tensor", "scalar"):
        raise ValueError("%s.kind: expected \"tensor\" or \"scalar\", got %r"
                         % (where, kind))
    dtype = DTYPES.get(v.get("dtype"))
    if dtype is None:
        raise ValueError("%s.dtype: unknown element type %r"
                         % (where, v.get("dtype")))
    shape = v.get("shape")
    if not isinstance(shape, list) or not all(
            isinstance(d, int) and not isinstance(d, bool) and d >= -1
            for d in shape):
        raise ValueError("%s.shape: expected a list of integers >= -1"
                         % where)
    if kind == "scalar":
        if shape:
            raise ValueError("%s: a scalar has no shape" % where)
        if dtype.name not in SCALAR_DTYPES:
            raise ValueError("%s: no %s scalars cross the ABI"
                             % (where, dtype.name))
    return ValueSig(kind, dtype, shape)


def describe_value(value):
    """How an error message names what the caller passed."""
    if isinstance(value, np.ndarray):
        return "a numpy array of dtype %s and shape %s" % (
            value.dtype, tuple(value.shape))
    if isinstance(value, np.generic):
        return "a numpy %s scalar" % value.dtype
    name = type(value).__name__
    return ("an " if name[:1] in "aeiou" else "a ") + name


class ScalarKindError(Exception):
    """The value is not of a kind the scalar type accepts."""


class ScalarRangeError(Exception):
    """The value is of the right kind but does not fit the scalar type."""


def to_scalar(value, dtype):
    """`value` as a numpy scalar of `dtype`, never by truncation: Python
    bool, int or float and numpy scalars (or 0-d arrays) of a compatible
    kind are accepted; integers are range-checked, floats that would
    overflow to infinity are refused."""
    if isinstance(value, np.ndarray) and value.ndim == 0:
        value = value[()]
    is_bool = isinstance(value, (bool, np.bool_))
    is_int = isinstance(value, (int, np.integer)) and not is_bool
    kind = dtype.kind
    if kind == "b":
        if is_bool:
            return np.bool_(value)
        if is_int:
            if int(value) not in (0, 1):
                raise ScalarRangeError("[0, 1]")
            return np.bool_(int(value))
        raise ScalarKindError("bool")
    if kind in "iu":
        if not is_int:
            raise ScalarKindError("int")
        v = int(value)
        if not dtype.min <= v <= dtype.max:
            raise ScalarRangeError("[%d, %d]" % (dtype.min, dtype.max))
        return dtype.numpy.type(v)
    if is_int or isinstance(value, (float, np.floating)):
        try:
            f = float(value)
        except OverflowError as e:
            raise ScalarRangeError("the finite %s values" % dtype.name) from e
        with np.errstate(over="ignore"):
            r = dtype.numpy.type(f)
        if math.isfinite(f) and not math.isfinite(float(r)):
            raise ScalarRangeError("the finite %s values" % dtype.name)
        return r
    raise ScalarKindError("float")
