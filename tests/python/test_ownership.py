"""Who frees what a call returns (aot/abi/Ownership.h, in Python): results
that borrow an argument keep it alive and share its memory, results that
share a buffer share one owner, constant data is never freed, and every
buffer the compiled code allocated is freed exactly once, when the last
array over it goes.

Environment: AOT_MODEL_LIBRARIES_DIR (identity_multi.so, dynamic.so),
AOT_COMPILE (aot-compile, for shared_results.mlir), AOT_CC (optional)."""

import gc
import os
import unittest
import weakref

import numpy as np

import mlir_aot
from mlir_aot import _ownership
from support import TempDir, build_fake, env, model_library

HERE = os.path.dirname(os.path.abspath(__file__))


def owner_of(array):
    """The object that frees `array`'s buffer, or None (borrowed memory or
    memory nobody frees)."""
    a = array
    while a is not None:
        keep = getattr(a, "_mlir_aot_keep", None)
        if isinstance(keep, _ownership._Buffer):
            return keep
        a = getattr(a, "base", None)
    return None


def memory_owner(array):
    """The numpy array that owns the memory `array` sees."""
    while isinstance(array.base, np.ndarray):
        array = array.base
    return array


class ReleaseLog(unittest.TestCase):
    """Records every buffer mlir_aot gives back to malloc (and still frees
    it, so that glibc would catch a double free too)."""

    def setUp(self):
        self.released = []
        self._real = _ownership._release

        def release(address):
            self.released.append(address)
            self._real(address)

        _ownership._release = release

    def tearDown(self):
        gc.collect()
        _ownership._release = self._real
        self.assertEqual(len(self.released), len(set(self.released)),
                         "a buffer was freed twice")


class Borrowed(ReleaseLog):
    """Results that alias arguments or constants. Compiled code clones such
    results (MLIR's buffer deallocation makes every result owned), so a
    hand-written library shows what the ABI allows."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = TempDir()
        cls.m = mlir_aot.load(build_fake(cls.tmp.__enter__()))

    @classmethod
    def tearDownClass(cls):
        cls.tmp.__exit__(None, None, None)

    def test_identity_borrows_and_keeps_the_argument_alive(self):
        x = np.arange(12, dtype=np.float32).reshape(3, 4)
        expected = x.copy()
        alive = weakref.ref(memory_owner(x))
        r = self.m.identity(x)
        self.assertTrue(np.shares_memory(r, x))
        self.assertIs(memory_owner(r), memory_owner(x))
        self.assertIsNone(owner_of(r))
        del x
        gc.collect()
        self.assertIsNotNone(alive())
        np.testing.assert_array_equal(r, expected)
        del r
        gc.collect()
        self.assertIsNone(alive(), "the argument outlived its last result")
        self.assertEqual(self.released, [])

    def test_a_view_at_an_offset(self):
        x = np.arange(8, dtype=np.float32)
        t = self.m.tail(x)
        np.testing.assert_array_equal(t, [4, 5, 6, 7])
        self.assertTrue(np.shares_memory(t, x))
        x[5] = 50  # a view: the caller's array, not a copy
        self.assertEqual(t[1], 50)

    def test_the_argument_twice(self):
        x = np.arange(4, dtype=np.int32)
        a, b = self.m.same_twice(x)
        self.assertTrue(np.shares_memory(a, b))
        self.assertTrue(np.shares_memory(a, x))
        del x, a
        np.testing.assert_array_equal(b, [0, 1, 2, 3])
        del b
        self.assertEqual(self.released, [])

    def test_swapped_arguments(self):
        x, y = np.ones((2, 3), np.float32), np.arange(5, dtype=np.int16)
        ry, rx = self.m.swap(x, y)
        self.assertTrue(np.shares_memory(rx, x))
        self.assertTrue(np.shares_memory(ry, y))
        self.assertEqual(self.released, [])

    def test_argument_next_to_a_new_buffer(self):
        x = np.arange(4, dtype=np.int32)
        same, doubled = self.m.pass_and_double(x)
        self.assertTrue(np.shares_memory(same, x))
        self.assertFalse(np.shares_memory(doubled, x))
        np.testing.assert_array_equal(doubled, [0, 2, 4, 6])
        owner = owner_of(doubled)
        self.assertIsNotNone(owner)
        address = owner.address
        del owner, same, x
        self.assertEqual(self.released, [])
        del doubled
        self.assertEqual(self.released, [address])

    def test_copied_argument(self):
        # A transposed argument is passed as a contiguous copy; the result
        # borrows that copy, not the caller's array.
        x = np.arange(12, dtype=np.float32).reshape(4, 3).T
        r = self.m.identity(x)
        np.testing.assert_array_equal(r, x)
        self.assertFalse(np.shares_memory(r, x))

    def test_read_only_argument_gives_a_read_only_result(self):
        x = np.arange(12, dtype=np.float32).reshape(3, 4)
        x.flags.writeable = False
        self.assertFalse(self.m.identity(x).flags.writeable)

    def test_constant_data_is_read_only_and_never_freed(self):
        for name in ("constant", "unowned"):
            c = self.m[name]()
            np.testing.assert_array_equal(c, [1, 2, 3, 4])
            self.assertFalse(c.flags.writeable)
            with self.assertRaises(ValueError):
                c[0] = 5
            self.assertIsNone(owner_of(c))
            del c
        self.assertEqual(self.released, [])


class SharedOwner(ReleaseLog):
    """Two results over one buffer the compiled code allocated."""

    @classmethod
    def setUpClass(cls):
        env("AOT_COMPILE")
        cls.m = mlir_aot.compile(
            os.path.join(HERE, "shared_results.mlir"), opt=2,
            extra_args=["--compile-from=bufferized"])

    def test_one_buffer_returned_twice(self):
        x = np.arange(4, dtype=np.int32)
        a, b = self.m.fresh_twice(x)
        self.assertTrue(np.shares_memory(a, b))
        self.assertFalse(np.shares_memory(a, x))
        self.assertIs(owner_of(a), owner_of(b))
        address = owner_of(a).address
        del a
        self.assertEqual(self.released, [])
        np.testing.assert_array_equal(b, [0, 1, 2, 3])
        del b
        self.assertEqual(self.released, [address])

    def test_a_buffer_and_a_view_into_it(self):
        whole, tail = self.m.whole_and_tail(np.arange(4, dtype=np.int32))
        np.testing.assert_array_equal(whole, [0, 1, 2, 3])
        np.testing.assert_array_equal(tail, [2, 3])
        self.assertTrue(np.shares_memory(whole, tail))
        self.assertIs(owner_of(whole), owner_of(tail))
        address = owner_of(whole).address
        del whole
        self.assertEqual(self.released, [])
        del tail
        self.assertEqual(self.released, [address])


class CompiledModel(ReleaseLog):
    """identity_multi as the compiler builds it: every buffer it returns is
    freed exactly once, none of the caller's ever."""

    @classmethod
    def setUpClass(cls):
        cls.m = mlir_aot.load(model_library("identity_multi"))

    def check(self, name, *args):
        arg_addresses = {a.__array_interface__["data"][0] for a in args}
        saved = [a.copy() for a in args]
        results = self.m[name](*args)
        results = results if isinstance(results, tuple) else (results,)
        owners = {id(o): o.address for o in map(owner_of, results) if o}
        for r in results:
            for a in args:
                if np.shares_memory(r, a):
                    self.assertIsNone(owner_of(r))
        copies = [np.array(r) for r in results]
        del args
        gc.collect()
        for r, c in zip(results, copies):
            np.testing.assert_array_equal(r, c)
        self.assertEqual(self.released, [])
        del r, results
        gc.collect()
        self.assertEqual(sorted(self.released), sorted(owners.values()))
        self.assertFalse(arg_addresses & set(self.released))
        return saved, copies

    def test_identity(self):
        (x,), (r,) = self.check("identity", np.arange(12, dtype=np.float32)
                                .reshape(3, 4))
        np.testing.assert_array_equal(r, x)

    def test_identity_dyn_i64(self):
        (x,), (r,) = self.check("identity_dyn_i64",
                                np.arange(7, dtype=np.int64))
        np.testing.assert_array_equal(r, x)

    def test_swap(self):
        (x, y), (ry, rx) = self.check("swap", np.ones((2, 3), np.float32),
                                      np.arange(5, dtype=np.int16))
        np.testing.assert_array_equal(rx, x)
        np.testing.assert_array_equal(ry, y)

    def test_same_twice(self):
        (x,), (a, b) = self.check("same_twice", np.arange(4, dtype=np.int32))
        np.testing.assert_array_equal(a, x)
        np.testing.assert_array_equal(b, x)

    def test_pass_and_double(self):
        (x,), (a, b) = self.check("pass_and_double",
                                  np.arange(4, dtype=np.int32))
        np.testing.assert_array_equal(a, x)
        np.testing.assert_array_equal(b, 2 * x)

    def test_row_stats(self):
        x = np.random.default_rng(0).random((6, 5), dtype=np.float32)
        _, (lo, hi, centred, total) = self.check("row_stats", x)
        np.testing.assert_array_equal(lo, x.min(axis=1))
        np.testing.assert_array_equal(hi, x.max(axis=1))
        self.assertEqual(total.shape, ())
        np.testing.assert_allclose(total, x.sum(), rtol=1e-5)

    def test_empty_result(self):
        d = mlir_aot.load(model_library("dynamic"))
        r = d.dyn_rowsum(np.zeros((0, 4), np.float32))
        self.assertEqual(r.shape, (0,))
        del r
        gc.collect()
        self.assertLessEqual(len(self.released), 1)


if __name__ == "__main__":
    unittest.main()
