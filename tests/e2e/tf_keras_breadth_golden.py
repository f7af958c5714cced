#!/usr/bin/python3
"""Numpy goldens for tests/e2e/tf_keras_breadth_test.cc.

The test builds two TensorFlow GraphDefs by hand and writes their inputs and
constants as .npy files into DIR; this script recomputes each graph's outputs
from those files with numpy, following TensorFlow's op documentation (not
ge's kernels), and writes DIR/golden_<output>.npy.

  keras_cnn:  Conv2D (SAME) -> tf.nn.batch_normalization as Keras freezes it
              (AddV2/Rsqrt/Mul/Mul/Mul/Sub/AddV2) -> Relu -> MaxPool ->
              Mean -> MatMul -> BiasAdd -> Softmax
  mix:        the elementwise mix of the TF breadth ops (see the test)

usage: tf_keras_breadth_golden.py keras_cnn|mix DIR   (exit 77: no numpy)
"""
import math
import sys

from tf_golden_common import load, np, save


def conv2d_same(x, w):
    """NHWC input, HWIO filter, stride 1, TF SAME padding (odd extra after)."""
    kh, kw = w.shape[0], w.shape[1]
    pt, pl = (kh - 1) // 2, (kw - 1) // 2
    xp = np.pad(x, ((0, 0), (pt, kh - 1 - pt), (pl, kw - 1 - pl), (0, 0)))
    n, h, wd, _ = x.shape
    y = np.zeros((n, h, wd, w.shape[3]), np.float64)
    for i in range(kh):
        for j in range(kw):
            y += np.einsum("nhwc,co->nhwo", xp[:, i:i + h, j:j + wd, :], w[i, j])
    return y


def keras_cnn(d):
    x = load(d, "x").astype(np.float64)
    c = conv2d_same(x, load(d, "w").astype(np.float64))
    mean, var, gamma, beta = (load(d, k).astype(np.float64) for k in ("mean", "var", "gamma", "beta"))
    eps = float(load(d, "eps"))
    scale = gamma / np.sqrt(var + eps)            # Mul(Rsqrt(AddV2(var, eps)), gamma)
    bn = c * scale + (beta - mean * scale)        # AddV2(Mul(x, scale), Sub(beta, Mul(mean, scale)))
    features = np.maximum(bn, 0)
    n, h, w, ch = features.shape
    pooled = features.reshape(n, h // 2, 2, w // 2, 2, ch).max(axis=(2, 4))  # MaxPool 2x2 VALID
    gap = pooled.mean(axis=(1, 2))
    logits = gap @ load(d, "dense_w").astype(np.float64) + load(d, "dense_b").astype(np.float64)
    e = np.exp(logits - logits.max(axis=-1, keepdims=True))
    save(d, "features", features.astype(np.float32))
    save(d, "probs", (e / e.sum(axis=-1, keepdims=True)).astype(np.float32))


def round_half_even(v):
    return np.round(v)  # numpy rounds halves to even, as tf.math.round


def floor_mod(a, b):
    """tf.math.floormod: the remainder has the divisor's sign."""
    if np.issubdtype(a.dtype, np.integer):
        return np.mod(a, b)
    r = np.fmod(a, b)
    return np.where((r != 0) & ((r < 0) != (b < 0)), r + b, r)


def floor_div(a, b):
    """tf.math.floordiv: floor(a / b) for floats, Python's // for integers."""
    if np.issubdtype(a.dtype, np.integer):
        return np.floor_divide(a, b)
    return np.floor(a / b)


def selu(v):
    alpha, scale = 1.6732632423543772848170429916717, 1.0507009873554804934193349852946
    return scale * np.where(v > 0, v, alpha * np.expm1(v))


def mix(d):
    x = load(d, "x").astype(np.float64)
    i = load(d, "i")
    cv, pw, cm, jc = load(d, "cv"), load(d, "pw"), load(d, "cm"), load(d, "jc")
    erf = np.vectorize(math.erf)
    pos = np.abs(x) + 1
    terms = [
        round_half_even(x), np.sign(x), np.where(x > 0, x, np.expm1(x)), selu(x),
        np.log1p(np.exp(x)), x / (1 + np.abs(x)), np.where(x < 0, 0.2 * x, x), x * x,
        1 / np.sqrt(pos), (x - cv) ** 2, pos ** pw, floor_mod(x, cm), floor_div(x, cm),
        erf(x), np.floor(x), np.ceil(x), 1 / pos, 1 / pos,
    ]
    total = sum(terms)
    both = (x > 0) & (x < 2)
    rows = both.any(axis=(1, 2))                                        # Any, keep_dims false
    save(d, "mix", total.astype(np.float32))
    save(d, "selected", np.where(both, total, -total).astype(np.float32))  # SelectV2
    save(d, "rows", np.where(rows[:, None, None], x, x * x).astype(np.float32))  # Select, vector condition
    save(d, "all", ((np.floor(x) != np.ceil(x)) | (x < 0)).all(axis=2, keepdims=True))
    save(d, "argmax", total.argmax(axis=2).astype(np.int64))
    save(d, "argmin", x.argmin(axis=1).astype(np.int32))
    im, tm, idiv = floor_mod(i, jc), np.fmod(i, jc), floor_div(i, jc)
    save(d, "isum", (im + tm * 10 + idiv * 100 + np.fmod(i, jc)).astype(np.int32))
    save(d, "ilogic", (im <= tm) & (idiv >= -1) | (im == tm) & ~(i < 0) | (i > 5) & (i >= 7))


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] not in ("keras_cnn", "mix"):
        sys.exit(__doc__)
    {"keras_cnn": keras_cnn, "mix": mix}[sys.argv[1]](sys.argv[2])
