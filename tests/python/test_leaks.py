"""No leak: hundreds of calls that each return a 4 MiB array, whose
results are dropped, leave the process's resident memory about where it
was. Each result is written by the compiled code, so a buffer that was
never freed would stay resident.

Environment: AOT_MODEL_LIBRARIES_DIR (dynamic.so, identity_multi.so),
AOT_CC (optional)."""

import unittest

import numpy as np

import mlir_aot
from support import TempDir, build_fake, model_library, resident_bytes

CALLS = 300
MIB = 1 << 20
# Far below CALLS * 4 MiB (1.2 GiB), far above what allocators keep.
MAX_GROWTH = 64 * MIB


class Leaks(unittest.TestCase):
    def run_calls(self, call):
        """Calls `call` CALLS times and returns (bytes returned in all,
        growth of resident memory)."""
        for _ in range(3):  # warm up allocator pools and caches
            call()
        before = resident_bytes()
        returned = 0
        for _ in range(CALLS):
            r = call()
            returned += r.nbytes
            del r
        return returned, resident_bytes() - before

    def check(self, call):
        returned, growth = self.run_calls(call)
        self.assertGreater(returned, 800 * MIB)
        self.assertLess(growth, MAX_GROWTH,
                        "resident memory grew by %.0f MiB over %d calls "
                        "returning %.0f MiB" % (growth / MIB, CALLS,
                                                returned / MIB))

    def test_new_result_buffers_are_freed(self):
        m = mlir_aot.load(model_library("dynamic"))
        x = np.ones((1024, 1024), np.float32)
        y = np.full((1024, 1024), 2, np.float32)
        expected = m.dyn_axpb(x, y)
        self.assertEqual(expected.nbytes, 4 * MIB)
        self.check(lambda: m.dyn_axpb(x, y))

    def test_copied_results_are_freed(self):
        # identity_dyn_i64 returns its argument: compiled code hands back a
        # copy, which must be freed like any other buffer.
        m = mlir_aot.load(model_library("identity_multi"))
        x = np.arange(512 * 1024, dtype=np.int64)
        np.testing.assert_array_equal(m.identity_dyn_i64(x), x)
        self.check(lambda: m.identity_dyn_i64(x))

    def test_borrowed_results_release_their_arguments(self):
        # A result that borrows its (fresh, 4 MiB) argument keeps it alive
        # only as long as the result lives.
        with TempDir() as d:
            m = mlir_aot.load(build_fake(d))
        self.check(lambda: m.identity_dyn(np.ones(MIB // 2, np.int64)))


if __name__ == "__main__":
    unittest.main()
