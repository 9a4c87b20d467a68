"""Writes the seed corpus of the .npz fuzzer: archives numpy wrote; or,
with --npy, that of the .npy fuzzer: arrays numpy wrote.

usage: make_npz_seeds.py OUTDIR
       make_npz_seeds.py --npy OUTDIR

Stored and deflated archives, every dtype the ABI reads, rank 0 to 3,
Fortran order, keys with '/', an empty archive and one with an empty array.
Arrays: f32 of rank 2, an i1 of rank 0, an empty f16, and a format 2.0
header.
"""
import os
import sys

import numpy as np


def write_npy_seeds(out):
    os.makedirs(out, exist_ok=True)
    np.save(os.path.join(out, "f32.npy"),
            np.arange(12, dtype=np.float32).reshape(3, 4))
    np.save(os.path.join(out, "i1-rank0.npy"), np.bool_(True))
    np.save(os.path.join(out, "f16-empty.npy"), np.zeros((0, 5), np.float16))
    with open(os.path.join(out, "header-v2.npy"), "wb") as f:
        np.lib.format.write_array(f, np.ones((2, 2), np.int64),
                                  version=(2, 0))
    return 0


def main(argv):
    if len(argv) == 3 and argv[1] == "--npy":
        return write_npy_seeds(argv[2])
    if len(argv) != 2:
        sys.stderr.write(__doc__)
        return 2
    out = argv[1]
    os.makedirs(out, exist_ok=True)
    rng = np.random.default_rng(7)
    dtypes = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16",
              "uint32", "uint64", "float16", "float32", "float64"]
    arrays = {"f/arg%d" % i: (rng.standard_normal((2, 3)) * 10).astype(t)
              for i, t in enumerate(dtypes)}
    np.savez(os.path.join(out, "dtypes.npz"), **arrays)
    np.savez_compressed(os.path.join(out, "dtypes-deflated.npz"), **arrays)
    np.savez(os.path.join(out, "ranks.npz"),
             **{"r0": np.float32(1.5), "r1": np.arange(4, dtype=np.int32),
                "r3": np.ones((2, 1, 3), dtype=np.float64)})
    np.savez(os.path.join(out, "fortran.npz"),
             x=np.asfortranarray(np.arange(12, dtype=np.float32).reshape(3, 4)))
    np.savez(os.path.join(out, "reference.npz"),
             **{"add/arg0": np.ones((4, 8), np.float32),
                "add/arg1": np.ones((4, 8), np.float32),
                "add/result0": np.full((4, 8), 2, np.float32)})
    np.savez(os.path.join(out, "empty-array.npz"),
             e=np.zeros((0, 3), dtype=np.int64))
    np.savez(os.path.join(out, "no-arrays.npz"))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
