"""Who frees the buffers a compiled function returns, in Python terms.

The rules are those of the C++ ABI (aot/abi/Ownership.h): a result whose
`allocated` pointer is NULL or the constant-global sentinel is never freed;
one equal to an argument's buffer borrows the caller's array; results that
share an `allocated` pointer share one owner; every other buffer was
malloc'ed by the compiled code and is freed with libc's free() exactly
once, when the last numpy array over it goes away."""

import ctypes

import numpy as np

# What MLIR's lowering of memref.get_global stores as `allocated`.
GLOBAL_SENTINEL = 0xDEADBEEF

_WORD = (1 << 64) - 1

_libc = ctypes.CDLL(None)
_free = _libc.free
_free.argtypes = [ctypes.c_void_p]
_free.restype = None


def _release(address):
    """Gives one result buffer back to malloc (module-level so that a test
    can watch every release)."""
    _free(address)


class _Buffer:
    """Owns one malloc'ed result buffer; frees it when garbage."""

    __slots__ = ("address",)

    def __init__(self, address):
        self.address = address

    def __del__(self):
        address, self.address = self.address, 0
        if address:
            try:
                _release(address)
            except Exception:  # interpreter shutdown: module already gone
                pass


def _span(data, shape, byte_strides, itemsize):
    """The lowest address a strided array touches and the bytes from there
    to just past its highest element."""
    lo = hi = 0
    for n, s in zip(shape, byte_strides):
        if s < 0:
            lo += s * (n - 1)
        else:
            hi += s * (n - 1)
    return data + lo, hi - lo + itemsize


def _raw(address, nbytes):
    return (ctypes.c_char * nbytes).from_address(address)


def _array_at(dtype, data, shape, byte_strides, keep=None, readonly=False):
    """A numpy array over memory the caller does not own; `keep` stays
    alive as long as the array (and its views) do."""
    lo, nbytes = _span(data, shape, byte_strides, dtype.itemsize)
    raw = _raw(lo, nbytes)
    if keep is not None:
        raw._mlir_aot_keep = keep
    a = np.ndarray(shape, dtype, buffer=raw, offset=data - lo,
                   strides=byte_strides)
    if readonly:
        a.flags.writeable = False
    return a


def _borrowed(dtype, data, shape, byte_strides, arg):
    """A view of the caller's argument `arg`: its base chain reaches `arg`,
    which therefore lives as long as the result."""
    start = arg.__array_interface__["data"][0]
    try:
        return np.ndarray(shape, dtype, buffer=arg, offset=data - start,
                          strides=byte_strides)
    except (TypeError, ValueError):
        # Outside the argument's extent as numpy sees it (a negative
        # offset): still keep the argument alive.
        return _array_at(dtype, data, shape, byte_strides, keep=arg,
                         readonly=not arg.flags.writeable)


def tensor_result(words, dtype, arg_buffers, owners):
    """The numpy array for one tensor result.

    words: the result's descriptor as Python ints (allocated, aligned,
    offset, sizes, strides). arg_buffers: {address: array} of the tensor
    arguments as passed. owners: {allocated: _Buffer} shared by the
    results of one call."""
    rank = (len(words) - 3) // 2
    allocated = words[0] & _WORD
    itemsize = dtype.itemsize
    shape = tuple(words[3:3 + rank])
    byte_strides = tuple(s * itemsize for s in words[3 + rank:])
    data = (words[1] & _WORD) + words[2] * itemsize
    if allocated in arg_buffers:
        arg = arg_buffers[allocated]
        if 0 in shape:
            return np.ndarray(shape, dtype)
        return _borrowed(dtype, data, shape, byte_strides, arg)
    owner = None
    if allocated and allocated != GLOBAL_SENTINEL:
        owner = owners.get(allocated)
        if owner is None:
            owner = owners[allocated] = _Buffer(allocated)
    if 0 in shape:
        return np.ndarray(shape, dtype)
    if owner is None:
        # Constant data inside the library (read-only pages), or memory
        # nobody owns: never written through, never freed.
        return _array_at(dtype, data, shape, byte_strides, readonly=True)
    return _array_at(dtype, data, shape, byte_strides, keep=owner)
