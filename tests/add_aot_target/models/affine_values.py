"""Reference of affine.mlir: values (see affine_ref.py)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import affine_ref  # noqa: E402

affine_ref.main(sys.argv[1], "values")
