"""The package as `cmake --install` lays it out: imported from PREFIX's
Python directory with nothing else on the path, it finds PREFIX/bin/
aot-compile by itself and compiles and calls a model.

    test_installed.py PREFIX PYTHON_DIR MODEL.mlir"""

import os
import subprocess
import sys

CHILD = """
import os, sys
import numpy as np
import mlir_aot
prefix, model = sys.argv[1], sys.argv[2]
assert mlir_aot.__file__.startswith(prefix), mlir_aot.__file__
compiler = mlir_aot.find_compiler()
assert compiler == os.path.join(prefix, "bin", "aot-compile"), compiler
m = mlir_aot.compile(model)
x = np.arange(8, dtype=np.float32).reshape(2, 4)
y, total = m.scale(x, 2.0)
np.testing.assert_array_equal(y, 2 * x)
assert float(total) == float((2 * x).sum())
print("installed mlir_aot works:", mlir_aot.__file__, compiler)
"""


def main():
    prefix, python_dir, model = (os.path.realpath(a) for a in sys.argv[1:4])
    if not os.path.isfile(os.path.join(python_dir, "mlir_aot",
                                       "__init__.py")):
        print("the install tree lacks %s/mlir_aot" % python_dir)
        return 1
    env = {k: v for k, v in os.environ.items()
           if k not in ("AOT_COMPILE", "PYTHONPATH")}
    env.update(PYTHONPATH=python_dir, PYTHONDONTWRITEBYTECODE="1",
               PATH="/usr/bin:/bin")
    return subprocess.run([sys.executable, "-c", CHILD, prefix, model],
                          env=env).returncode


if __name__ == "__main__":
    sys.exit(main())
