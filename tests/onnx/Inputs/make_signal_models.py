"""Writes ONNX models of the signal ops (HannWindow, HammingWindow,
BlackmanWindow, DFT, STFT, MelWeightMatrix) into DIR, each with
NAME.inputs.npz and NAME.expected.npz: the expected outputs computed here with
numpy (np.fft in float64, the windows and the mel filter bank from the ONNX
specification's formulas), not by any compiler. The STFT is a speech model's
front end at its real size: 400-sample Hann frames every 160 samples of one
second at 16 kHz, onesided (201 bins).

usage: make_signal_models.py DIR"""
import sys

import numpy as np
from onnx import TensorProto as T

from onnx_cases import graph, info, node, write_case, write_model

f32 = np.float32


def complex_parts(z):
    """A complex array as ONNX's signals hold it: real and imaginary last."""
    return np.stack([z.real, z.imag], axis=-1).astype(f32)


def window(kind, size, periodic):
    n = np.arange(size, dtype=np.float64)
    big_n = size if periodic else size - 1
    x = 2 * np.pi * n / big_n
    if kind == "HannWindow":
        return 0.5 - 0.5 * np.cos(x)
    if kind == "HammingWindow":
        return 25 / 46 - 21 / 46 * np.cos(x)
    return 0.42 - 0.5 * np.cos(x) + 0.08 * np.cos(2 * x)


def mel_matrix(mels, length, rate, lower, upper):
    """ONNX's definition: num_mel_bins + 2 edges equally spaced in mels,
    in DFT bins, triangles between them."""
    to_mel = lambda hz: 2595 * np.log10(1 + hz / 700)
    low = to_mel(lower)
    step = (to_mel(upper) - low) / (mels + 2)
    hz = 700 * (10 ** ((np.arange(mels + 2) * step + low) / 2595) - 1)
    edges = np.floor((length + 1) * hz / rate).astype(int)
    out = np.zeros((length // 2 + 1, mels))
    for i in range(mels):
        left, centre, right = edges[i], edges[i + 1], edges[i + 2]
        if centre == left:
            out[centre, i] = 1
        else:
            for j in range(left, centre + 1):
                out[j, i] = (j - left) / (centre - left)
        for j in range(centre, right):
            out[j, i] = (right - j) / (right - centre)
    return out.astype(f32)


def main(out):
    rng = np.random.default_rng(17)

    # The windows at a constant size (folded to a constant) and at a size
    # read at run time.
    for kind, periodic in [("HannWindow", 1), ("HammingWindow", 0),
                           ("BlackmanWindow", 1)]:
        name = kind.lower()
        write_model(out, name, graph(
            name, [node(kind, ["n"], ["w"], periodic=periodic)],
            [info("n", T.INT64, [])], [info("w", T.FLOAT, ["n"])]))
        write_case(out, name, [np.array(400, np.int64)],
                   [window(kind, 400, periodic).astype(f32)])
    write_model(out, "hann_double", graph(
        "hann_double",
        [node("HannWindow", ["n"], ["w"], output_datatype=T.DOUBLE)],
        [], [info("w", T.DOUBLE, [64])],
        {"n": np.array(64, np.int32)}))
    write_case(out, "hann_double", [], [window("HannWindow", 64, 1)])

    # DFT of a real batch along axis 1, of length 1000 (not a power of 2).
    x = rng.standard_normal((3, 1000, 1)).astype(f32)
    write_model(out, "dft_real", graph(
        "dft_real", [node("DFT", ["x"], ["y"], axis=1)],
        [info("x", T.FLOAT, [3, 1000, 1])],
        [info("y", T.FLOAT, [3, 1000, 2])]))
    write_case(out, "dft_real", [x],
               [complex_parts(np.fft.fft(x[..., 0].astype(np.float64),
                                         axis=1))])

    # Onesided, of a dynamic batch, zero-padded to dft_length 512 from 300.
    x = rng.standard_normal((2, 300, 1)).astype(f32)
    write_model(out, "dft_onesided_padded", graph(
        "dft_onesided_padded",
        [node("DFT", ["x", "len"], ["y"], axis=1, onesided=1)],
        [info("x", T.FLOAT, ["b", 300, 1])],
        [info("y", T.FLOAT, ["b", 257, 2])],
        {"len": np.array(512, np.int64)}))
    write_case(out, "dft_onesided_padded", [x],
               [complex_parts(np.fft.rfft(x[..., 0].astype(np.float64),
                                          n=512, axis=1))])

    # A complex input along a middle axis (counted from the end), cut to
    # dft_length 40 from 48.
    z = (rng.standard_normal((2, 48, 5)) +
         1j * rng.standard_normal((2, 48, 5)))
    write_model(out, "dft_complex_cut", graph(
        "dft_complex_cut",
        [node("DFT", ["x", "len"], ["y"], axis=-3)],
        [info("x", T.FLOAT, [2, 48, 5, 2])],
        [info("y", T.FLOAT, [2, 40, 5, 2])],
        {"len": np.array(40, np.int64)}))
    write_case(out, "dft_complex_cut", [complex_parts(z)],
               [complex_parts(np.fft.fft(complex_parts(z)[..., 0] +
                                         1j * complex_parts(z)[..., 1],
                                         n=40, axis=1))])

    # The inverse, of a length known only at run time.
    z = rng.standard_normal((1, 37)) + 1j * rng.standard_normal((1, 37))
    parts = complex_parts(z)
    write_model(out, "dft_inverse", graph(
        "dft_inverse", [node("DFT", ["x"], ["y"], axis=1, inverse=1)],
        [info("x", T.FLOAT, [1, "n", 2])], [info("y", T.FLOAT, [1, "n", 2])]))
    write_case(out, "dft_inverse", [parts],
               [complex_parts(np.fft.ifft(parts[..., 0].astype(np.float64) +
                                          1j * parts[..., 1], axis=1))])

    # A speech front end: a periodic Hann window of 400, frames every 160
    # samples of 16000, onesided; and the mel filter bank of the same
    # transform (80 bands from 0 to 8 kHz).
    signal = rng.standard_normal((2, 16000, 1)).astype(f32)
    hann = window("HannWindow", 400, 1).astype(f32)
    write_model(out, "stft_speech", graph(
        "stft_speech",
        [node("HannWindow", ["len"], ["w"]),
         node("STFT", ["x", "step", "w", "len"], ["y"])],
        [info("x", T.FLOAT, ["b", 16000, 1])],
        [info("y", T.FLOAT, ["b", 98, 201, 2])],
        {"step": np.array(160, np.int64), "len": np.array(400, np.int64)}))
    frames = np.stack([signal[:, f * 160:f * 160 + 400, 0] * hann
                       for f in range(98)], axis=1).astype(np.float64)
    write_case(out, "stft_speech", [signal],
               [complex_parts(np.fft.rfft(frames, axis=-1))])

    # Two-sided, of a complex signal without a window.
    z = rng.standard_normal((1, 64)) + 1j * rng.standard_normal((1, 64))
    parts = complex_parts(z)
    write_model(out, "stft_complex", graph(
        "stft_complex",
        [node("STFT", ["x", "step", "", "len"], ["y"], onesided=0)],
        [info("x", T.FLOAT, [1, 64, 2])],
        [info("y", T.FLOAT, [1, 4, 16, 2])],
        {"step": np.array(16, np.int64), "len": np.array(16, np.int64)}))
    frames = np.stack([parts[0, f * 16:f * 16 + 16, 0] +
                       1j * parts[0, f * 16:f * 16 + 16, 1]
                       for f in range(4)])[None].astype(np.complex128)
    write_case(out, "stft_complex", [parts],
               [complex_parts(np.fft.fft(frames, axis=-1))])

    write_model(out, "mel", graph(
        "mel",
        [node("MelWeightMatrix", ["m", "n", "r", "lo", "hi"], ["y"])],
        [], [info("y", T.FLOAT, [201, 80])],
        {"m": np.array(80, np.int64), "n": np.array(400, np.int64),
         "r": np.array(16000, np.int64), "lo": np.array(0, f32),
         "hi": np.array(8000, f32)}))
    write_case(out, "mel", [], [mel_matrix(80, 400, 16000, 0.0, 8000.0)])

    # Refused, naming the node: the axis of the parts, an inverse onesided
    # transform, an STFT without a frame length.
    write_model(out, "dft_last_axis", graph(
        "dft_last_axis", [node("DFT", ["x"], ["y"], axis=2, name="fft")],
        [info("x", T.FLOAT, [1, 8, 1])], [info("y", T.FLOAT, [1, 8, 2])]))
    write_model(out, "dft_inverse_onesided", graph(
        "dft_inverse_onesided",
        [node("DFT", ["x"], ["y"], inverse=1, onesided=1, name="ifft")],
        [info("x", T.FLOAT, [1, 8, 2])], [info("y", T.FLOAT, [1, 5, 2])]))
    write_model(out, "stft_no_length", graph(
        "stft_no_length", [node("STFT", ["x", "step"], ["y"], name="spec")],
        [info("x", T.FLOAT, [1, 64, 1])],
        [info("y", T.FLOAT, ["b", "f", "k", 2])],
        {"step": np.array(16, np.int64)}))


if __name__ == "__main__":
    main(sys.argv[1])
