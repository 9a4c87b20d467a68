"""Checks with numpy the .npz files that test_Npz.cpp wrote.

usage: check_npz.py DIR
Exits non-zero, listing every problem, when an array or a member's
compression differs from what the test should have written.
"""

import os
import sys
import zipfile

import numpy as np

from npz_reference import cpp_written_arrays


def check(path, compression, problems):
    expected = cpp_written_arrays()
    with zipfile.ZipFile(path) as z:
        for info in z.infolist():
            if info.compress_type != compression:
                problems.append(f"{path}: member {info.filename} has compression "
                                f"{info.compress_type}, expected {compression}")
    with np.load(path) as npz:
        if set(npz.files) != set(expected):
            problems.append(f"{path}: keys {sorted(npz.files)}, "
                            f"expected {sorted(expected)}")
        for key in sorted(set(npz.files) & set(expected)):
            got, want = npz[key], expected[key]
            where = f"{path}: {key}"
            if got.dtype != want.dtype:
                problems.append(f"{where}: dtype {got.dtype}, expected {want.dtype}")
            elif got.shape != want.shape:
                problems.append(f"{where}: shape {got.shape}, expected {want.shape}")
            elif np.ascontiguousarray(got).tobytes() != np.ascontiguousarray(want).tobytes():
                problems.append(f"{where}: values {got.tolist()}, "
                                f"expected {want.tolist()}")


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    problems = []
    for name, compression in (("cpp_stored.npz", zipfile.ZIP_STORED),
                              ("cpp_compressed.npz", zipfile.ZIP_DEFLATED)):
        path = os.path.join(sys.argv[1], name)
        try:
            check(path, compression, problems)
        except Exception as e:  # a missing or unreadable file is a failure too
            problems.append(f"{path}: {type(e).__name__}: {e}")
    with np.load(os.path.join(sys.argv[1], "cpp_no_arrays.npz")) as npz:
        if npz.files:
            problems.append(f"cpp_no_arrays.npz: unexpected keys {npz.files}")
    for p in problems:
        print(p, file=sys.stderr)
    if problems:
        sys.exit(1)
    print("all arrays written by the C++ test match numpy's reference")


if __name__ == "__main__":
    main()
