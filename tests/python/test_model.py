"""One model of the zoo through mlir_aot: every function called with the
inputs of its numpy reference and every result compared under the model's
tolerance; no call may modify its arguments.

Environment: AOT_MODEL_LIBRARY (NAME.so), AOT_REFERENCE (NAME.npz),
AOT_RTOL, AOT_ATOL, AOT_ULP (-1: none)."""

import os
import unittest

import numpy as np

import mlir_aot
from support import compare, env


class ModelTest(unittest.TestCase):
    def test_every_function_matches_its_reference(self):
        library = env("AOT_MODEL_LIBRARY")
        reference = np.load(env("AOT_REFERENCE"))
        rtol = float(os.environ.get("AOT_RTOL", "1e-5"))
        atol = float(os.environ.get("AOT_ATOL", "1e-6"))
        ulp = int(os.environ.get("AOT_ULP", "-1"))
        module = mlir_aot.load(library)
        self.assertTrue(module.functions)
        for fn in module.manifest["functions"]:
            name = fn["name"]
            with self.subTest(function=name):
                originals = [reference["%s/arg%d" % (name, i)]
                             for i in range(len(fn["args"]))]
                args = []
                for sig, original in zip(fn["args"], originals):
                    # Scalars as numpy scalars; tensors as private copies,
                    # compared with the reference afterwards.
                    args.append(original[()] if sig["kind"] == "scalar"
                                else original.copy())
                results = module[name](*args)
                if len(fn["results"]) == 0:
                    self.assertIsNone(results)
                    results = ()
                elif len(fn["results"]) == 1:
                    results = (results,)
                self.assertEqual(len(results), len(fn["results"]))
                for i, (passed, original) in enumerate(zip(args, originals)):
                    self.assertEqual(
                        np.asarray(passed).tobytes(), original.tobytes(),
                        "%s: the call modified argument %d" % (name, i))
                for k, sig in enumerate(fn["results"]):
                    expected = reference["%s/result%d" % (name, k)]
                    actual = results[k]
                    if sig["kind"] == "scalar":
                        self.assertIsInstance(actual, np.generic)
                    else:
                        self.assertIsInstance(actual, np.ndarray)
                    ok, message = compare(actual, expected, sig["dtype"],
                                          rtol, atol, ulp)
                    self.assertTrue(ok, "%s/result%d: %s" % (name, k, message))


if __name__ == "__main__":
    unittest.main()
