"""Reference for tosa_fft.mlir: numpy's FFTs, whose forward transform has
the sign TOSA specifies; TOSA's inverse is not normalised (numpy's is)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import numpy as np  # noqa: E402
import refutil as ru  # noqa: E402

# Sums of 128 terms of sines and cosines computed in f32.
# tolerance: rtol=1e-4 atol=1e-4


def build(ref):
    g = ru.rng(2048)
    x = ru.uniform(g, (2, 8, 16), -1.0, 1.0)
    r = np.fft.rfft2(x.astype(np.float64))
    ref.add("rfft", [x], [r.real.astype(np.float32), r.imag.astype(np.float32)])

    re = ru.uniform(g, (1, 4, 8), -1.0, 1.0)
    im = ru.uniform(g, (1, 4, 8), -1.0, 1.0)
    z = re.astype(np.float64) + 1j * im.astype(np.float64)
    f = np.fft.fft2(z)
    inv = np.fft.ifft2(z) * (4 * 8)
    ref.add("fft", [re, im],
            [f.real.astype(np.float32), f.imag.astype(np.float32),
             inv.real.astype(np.float32), inv.imag.astype(np.float32)])

    ref.add("checked_double", [ru.scalar(21, np.int32)], [ru.scalar(42, np.int32)])


if __name__ == "__main__":
    ru.main(build)
