"""The random ops (RandomUniform, RandomNormalLike, Bernoulli, Multinomial):
`random_models.py write DIR` writes the models and inputs; after aot-run has
written each model's results (NAME.out.npz, keys random/result0...),
`random_models.py check DIR` tests them as samples of their distributions
against numpy's statistics: ranges, means and variances within 5 standard
errors, frequencies within 5 standard errors of the probabilities, the
fraction of a normal within one standard deviation; and that equal seeds
draw equal numbers and different seeds different ones. Prints one line per
check and exits 1 at the first that fails.

usage: random_models.py write|check DIR"""
import os
import sys

import numpy as np
from onnx import TensorProto as T

from onnx_cases import graph, info, node, write_model

N = 200000


def write(out):
    write_model(out, "uniform", graph(
        "random",
        [node("RandomUniform", [], ["a"], shape=[N], low=-1.0, high=3.0,
              seed=7.0),
         node("RandomUniform", [], ["b"], shape=[N], low=-1.0, high=3.0,
              seed=7.0),
         node("RandomUniform", [], ["c"], shape=[N], low=-1.0, high=3.0,
              seed=8.0)],
        [], [info("a", T.FLOAT, [N]), info("b", T.FLOAT, [N]),
             info("c", T.FLOAT, [N])]))
    write_model(out, "normal", graph(
        "random",
        [node("RandomNormalLike", ["x"], ["y"], mean=2.0, scale=0.5)],
        [info("x", T.FLOAT, ["n", 1000])], [info("y", T.FLOAT, ["n", 1000])]))
    np.savez(os.path.join(out, "normal.inputs.npz"),
             Input0=np.zeros((200, 1000), np.float32))
    write_model(out, "bernoulli", graph(
        "random", [node("Bernoulli", ["p"], ["y"], seed=3.0)],
        [info("p", T.DOUBLE, [5, 40000])], [info("y", T.DOUBLE, [5, 40000])]))
    probs = np.repeat(np.array([0, 0.1, 0.5, 0.9, 1])[:, None], 40000, 1)
    np.savez(os.path.join(out, "bernoulli.inputs.npz"), Input0=probs)
    write_model(out, "multinomial", graph(
        "random",
        [node("Multinomial", ["x"], ["y"], sample_size=50000, seed=1.0)],
        [info("x", T.FLOAT, [2, 4])], [info("y", T.INT32, [2, 50000])]))
    np.savez(os.path.join(out, "multinomial.inputs.npz"),
             Input0=np.log(np.array([[0.1, 0.2, 0.3, 0.4],
                                     [0.7, 0.0001, 0.2, 0.0999]],
                                    np.float32)))


def close(what, got, want, error):
    ok = abs(got - want) <= 5 * error
    print("%s: %s (%.5f, expected %.5f +- %.5f)" %
          ("ok" if ok else "FAILED", what, got, want, 5 * error))
    if not ok:
        sys.exit(1)


def that(what, ok):
    print("%s: %s" % ("ok" if ok else "FAILED", what))
    if not ok:
        sys.exit(1)


def check(out):
    def results(name):
        data = np.load(os.path.join(out, name + ".out.npz"))
        return [data["random/result%d" % i]
                for i in range(len(data.files))]

    a, b, c = results("uniform")
    that("uniform in [-1, 3)", a.min() >= -1 and a.max() < 3)
    close("uniform mean", a.mean(), 1.0, np.sqrt(16 / 12 / N))
    close("uniform variance", a.var(), 16 / 12, 16 / 12 * np.sqrt(0.8 / N))
    that("equal seeds draw equal numbers", np.array_equal(a, b))
    that("different seeds draw different numbers",
         np.mean(a == c) < 0.001)

    (y,) = results("normal")
    y = y.astype(np.float64).reshape(-1)
    n = y.size
    close("normal mean", y.mean(), 2.0, 0.5 / np.sqrt(n))
    close("normal variance", y.var(), 0.25, 0.25 * np.sqrt(2 / n))
    within = np.mean(np.abs(y - 2.0) < 0.5)
    close("normal within one deviation", within, 0.682689,
          np.sqrt(0.682689 * 0.317311 / n))

    (y,) = results("bernoulli")
    that("bernoulli draws 0 and 1", set(np.unique(y)) <= {0.0, 1.0})
    for row, p in enumerate([0, 0.1, 0.5, 0.9, 1]):
        close("bernoulli frequency at p %.1f" % p, y[row].mean(), p,
              max(np.sqrt(p * (1 - p) / y.shape[1]), 1e-9))

    (y,) = results("multinomial")
    that("multinomial draws classes 0 to 3", y.min() >= 0 and y.max() <= 3)
    for row, probs in enumerate([[0.1, 0.2, 0.3, 0.4],
                                 [0.7, 0.0001, 0.2, 0.0999]]):
        for k, p in enumerate(probs):
            close("multinomial row %d class %d" % (row, k),
                  np.mean(y[row] == k), p, np.sqrt(p * (1 - p) / y.shape[1]))


if __name__ == "__main__":
    {"write": write, "check": check}[sys.argv[1]](sys.argv[2])
