"""Writes the numpy-made files that test_Npz.cpp reads.

usage: make_npz_fixtures.py OUTPUT_DIR
"""

import os
import sys

import numpy as np

from npz_reference import reference_arrays


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    arrays = reference_arrays()
    np.savez(os.path.join(out, "numpy_stored.npz"), **arrays)
    np.savez_compressed(os.path.join(out, "numpy_compressed.npz"), **arrays)
    np.savez(os.path.join(out, "numpy_no_arrays.npz"))
    # A plain .npy, to compare byte for byte with what the C++ side writes.
    np.save(os.path.join(out, "numpy_float32.npy"), arrays["float32"])
    with open(os.path.join(out, "numpy_v2.npy"), "wb") as f:
        np.lib.format.write_array(f, arrays["int16"], version=(2, 0))
    np.save(os.path.join(out, "numpy_fortran.npy"),
            np.asfortranarray(np.arange(6, dtype=np.float64).reshape(2, 3)))


if __name__ == "__main__":
    main()
