"""Reference for pack_unpack.mlir: linalg.pack and linalg.unpack written from
their definition (pad each tiled dim to a multiple of its tile, split it
into outer and inner parts, permute the outer dims, inner tiles last)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import numpy as np  # noqa: E402
import refutil as ru  # noqa: E402

# Data movement only: exact.
# tolerance: rtol=0 atol=0


def pack(x, inner_pos, tiles, outer_perm=None, pad=0):
    shape = list(x.shape)
    padded = [-(-shape[d] // tiles[inner_pos.index(d)]) * tiles[inner_pos.index(d)]
              if d in inner_pos else shape[d] for d in range(x.ndim)]
    xp = np.full(padded, pad, dtype=x.dtype)
    xp[tuple(slice(0, s) for s in shape)] = x
    split, outer_axis, inner_axis = [], {}, {}
    for d in range(x.ndim):
        outer_axis[d] = len(split)
        if d in inner_pos:
            t = tiles[inner_pos.index(d)]
            split += [padded[d] // t, t]
            inner_axis[d] = outer_axis[d] + 1
        else:
            split.append(padded[d])
    perm = outer_perm if outer_perm is not None else list(range(x.ndim))
    axes = [outer_axis[d] for d in perm] + [inner_axis[d] for d in inner_pos]
    return np.ascontiguousarray(xp.reshape(split).transpose(axes))


def unpack(y, out_shape, inner_pos, tiles, outer_perm=None):
    n = len(out_shape)
    perm = outer_perm if outer_perm is not None else list(range(n))
    # Outer dims back in source order, then each inner tile after its outer
    # dim, then the padded whole, cut to the output.
    outer_of = {perm[i]: i for i in range(n)}
    axes = []
    for d in range(n):
        axes.append(outer_of[d])
        if d in inner_pos:
            axes.append(n + inner_pos.index(d))
    full = y.transpose(axes)
    padded = [y.shape[outer_of[d]] * (tiles[inner_pos.index(d)] if d in inner_pos else 1)
              for d in range(n)]
    full = full.reshape(padded)
    return np.ascontiguousarray(full[tuple(slice(0, s) for s in out_shape)])


def build(ref):
    g = ru.rng(4477)
    x = ru.uniform(g, (16, 8))
    ref.add("pack_rows", [x], [pack(x, [0, 1], [8, 1])])

    x = ru.uniform(g, (1, 9))
    packed = pack(x, [1, 0], [8, 4], outer_perm=[1, 0], pad=np.float32(0.5))
    assert packed.shape == (2, 1, 8, 4)
    ref.add("pack_padded_transposed", [x], [packed])
    ref.add("unpack_transposed", [packed], [x])

    x = ru.ints(g, (3, 5, 7), -128, 127, dtype=np.int8)
    ref.add("pack_i8", [x], [pack(x, [2], [4], pad=np.int8(-1))])

    y = ru.uniform(g, (2, 8, 8, 1))
    ref.add("unpack_sliced", [y], [unpack(y, (13, 8), [0, 1], [8, 1])])

    x = ru.uniform(g, (21, 10))
    ref.add("pack_dynamic", [x], [pack(x, [0, 1], [8, 4])])

    y = ru.ints(g, (3, 2, 5, 4), -128, 127, dtype=np.int8)
    rows = np.int64(13)
    ref.add("unpack_dynamic_tile", [y, rows],
            [unpack(y, (13, 8), [0, 1], [5, 4])])


if __name__ == "__main__":
    ru.main(build)
