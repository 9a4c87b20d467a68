"""Reference for tosa_shapes.mlir: each result is the input reshaped, row
major, to the shape its shape operators compute (worked out in the model's
comments)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import refutil as ru  # noqa: E402

# tolerance: rtol=0 atol=0


def build(ref):
    g = ru.rng(2024)
    x = ru.uniform(g, (2, 3, 4))
    ref.add("shapes", [x], [x.reshape(6, 4), x.reshape(4, 6), x.reshape(24),
                            x.reshape(3, 8), x.reshape(2, 12),
                            x.reshape(12, 2)])
    y = ru.uniform(g, (2, 6))
    ref.add("logs", [y], [y.reshape(3, 4)])


if __name__ == "__main__":
    ru.main(build)
