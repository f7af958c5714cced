#!/usr/bin/python3
"""Numpy goldens for tests/e2e/tf_breadth2_test.cc.

The test builds three TensorFlow GraphDefs by hand and writes their inputs
and constants as .npy files into DIR; this script recomputes each graph's
outputs from those files with numpy, following TensorFlow's op
documentation (not ge's kernels), and writes DIR/golden_<output>.npy.

  decoder:     Conv2D SAME + BiasAdd + Relu -> SpaceToBatchND -> Conv2D VALID
               -> BatchToSpaceND -> Mul/AddV2 (batch norm) -> Relu ->
               Conv2DBackpropInput (stride 2, SAME) -> BiasAdd ->
               ResizeBilinear (half_pixel_centers) -> ArgMax
  transformer: attention with BatchMatMulV2 (adj_y), Softmax, a layer norm
               from SquaredDifference/Rsqrt, an erf GELU FFN, Square
  shape_mix:   Cumsum, ReverseV2, Tile, Slice, GatherV2, GatherNd, OneHot,
               TopKV2, SplitV, Unpack, Split, Fill, Zeros/OnesLike, Range,
               BroadcastTo, AddN, ClipByValue

usage: tf_breadth2_golden.py decoder|transformer|shape_mix DIR   (exit 77: no numpy)
"""
import math
import sys

from tf_golden_common import load, np, save


def loadf(d, name):
    return load(d, name).astype(np.float64)


def same_pads(size, k, stride):
    """TF's SAME padding of one axis: (before, after), the odd one after."""
    out = -(-size // stride)
    total = max((out - 1) * stride + k - size, 0)
    return total // 2, total - total // 2


def conv2d(x, w, stride, padding):
    """tf.nn.conv2d: NHWC input, HWIO filter."""
    kh, kw = w.shape[:2]
    if padding == "SAME":
        (pt, pb), (pl, pr) = same_pads(x.shape[1], kh, stride), same_pads(x.shape[2], kw, stride)
        x = np.pad(x, ((0, 0), (pt, pb), (pl, pr), (0, 0)))
    oh, ow = (x.shape[1] - kh) // stride + 1, (x.shape[2] - kw) // stride + 1
    y = np.zeros((x.shape[0], oh, ow, w.shape[3]))
    for i in range(kh):
        for j in range(kw):
            patch = x[:, i:i + stride * (oh - 1) + 1:stride, j:j + stride * (ow - 1) + 1:stride, :]
            y += np.einsum("nhwc,co->nhwo", patch, w[i, j])
    return y


def conv2d_backprop_input(sizes, w, dy, stride):
    """tf.nn.conv2d_transpose: the gradient of a SAME conv2d of an input of `sizes`."""
    n, h, wd, c = sizes
    kh, kw = w.shape[:2]
    pt, pl = same_pads(h, kh, stride)[0], same_pads(wd, kw, stride)[0]
    dx = np.zeros((n, h, wd, c))
    for oy in range(dy.shape[1]):
        for ox in range(dy.shape[2]):
            for i in range(kh):
                for j in range(kw):
                    y, x = oy * stride + i - pt, ox * stride + j - pl
                    if 0 <= y < h and 0 <= x < wd:
                        dx[:, y, x, :] += dy[:, oy, ox, :] @ w[i, j].T
    return dx


def space_to_batch(x, block, pads):
    """tf.space_to_batch_nd, as its documentation spells it with reshapes."""
    x = np.pad(x, ((0, 0), tuple(pads[0]), tuple(pads[1]), (0, 0)))
    n, h, w, c = x.shape
    b0, b1 = block
    x = x.reshape(n, h // b0, b0, w // b1, b1, c).transpose(2, 4, 0, 1, 3, 5)
    return x.reshape(b0 * b1 * n, h // b0, w // b1, c)


def batch_to_space(x, block, crops):
    b0, b1 = block
    n, h, w, c = x.shape
    x = x.reshape(b0, b1, n // (b0 * b1), h, w, c).transpose(2, 3, 0, 4, 1, 5)
    x = x.reshape(n // (b0 * b1), h * b0, w * b1, c)
    return x[:, crops[0][0]:h * b0 - crops[0][1], crops[1][0]:w * b1 - crops[1][1], :]


def resize_bilinear_half_pixel(x, oh, ow):
    """tf.image.resize bilinear, half_pixel_centers: in = (out + 0.5) * scale - 0.5."""
    def weights(size, out):
        scale = size / out
        f = (np.arange(out) + 0.5) * scale - 0.5
        lo = np.floor(f)
        return np.maximum(lo, 0).astype(int), np.minimum(np.ceil(f), size - 1).astype(int), f - lo
    y0, y1, ly = weights(x.shape[1], oh)
    x0, x1, lx = weights(x.shape[2], ow)
    top = x[:, y0][:, :, x0] + (x[:, y0][:, :, x1] - x[:, y0][:, :, x0]) * lx[None, None, :, None]
    bottom = x[:, y1][:, :, x0] + (x[:, y1][:, :, x1] - x[:, y1][:, :, x0]) * lx[None, None, :, None]
    return top + (bottom - top) * ly[None, :, None, None]


def decoder(d):
    x = loadf(d, "x")
    c1 = np.maximum(conv2d(x, loadf(d, "w1"), 1, "SAME") + loadf(d, "b1"), 0)
    block, pads, crops = load(d, "block"), load(d, "paddings"), load(d, "crops")
    a = batch_to_space(conv2d(space_to_batch(c1, block, pads), loadf(d, "w2"), 1, "VALID"), block, crops)
    c2 = np.maximum(a * loadf(d, "bn_scale") + loadf(d, "bn_shift"), 0)
    up = conv2d_backprop_input(load(d, "up_size"), loadf(d, "w3"), c2, 2) + loadf(d, "b3")
    oh, ow = load(d, "out_size")
    logits = resize_bilinear_half_pixel(up, oh, ow)
    save(d, "logits", logits.astype(np.float32))
    save(d, "labels", logits.argmax(axis=3).astype(np.int64))


def transformer(d):
    x = loadf(d, "x")
    heads = lambda t: t.reshape(1, 4, 2, 4).transpose(0, 2, 1, 3)
    q, k, v = (heads(x @ loadf(d, w)) for w in ("wq", "wk", "wv"))
    s = q @ k.transpose(0, 1, 3, 2) * 0.5
    p = np.exp(s - s.max(axis=-1, keepdims=True))
    p /= p.sum(axis=-1, keepdims=True)
    ctx = (p @ v).transpose(0, 2, 1, 3).reshape(1, 4, 8)
    h = x + ctx @ loadf(d, "wo")
    mean = h.mean(axis=-1, keepdims=True)
    var = ((h - mean) ** 2).mean(axis=-1, keepdims=True)
    ln = (h - mean) / np.sqrt(var + 1e-5) * loadf(d, "gamma") + loadf(d, "beta")
    f = ln @ loadf(d, "w1") + loadf(d, "b1")
    erf = np.vectorize(math.erf)
    gelu = 0.5 * f * (1 + erf(f / math.sqrt(2)))
    y = ln + gelu @ loadf(d, "w2") + loadf(d, "b2")
    save(d, "y", y.astype(np.float32))
    save(d, "energy", (y * y).mean(axis=(1, 2)).astype(np.float32))


def shape_mix(d):
    x = loadf(d, "x")
    labels = load(d, "labels")
    cs = np.cumsum(x, axis=2) - x                       # exclusive
    rv = x[:, ::-1, :]
    tiled = np.tile(x, (1, 1, 2))
    sl = tiled[0:, 1:3, 2:6]                             # size -1 runs to the end
    save(d, "moved", (sl + x[:, [2, 0], :]).astype(np.float32))
    save(d, "nd", x[[1, 0, 1], [2, 0, 0]].astype(np.float32))
    hot = np.where(labels[:, None] == np.arange(4)[None, :], 2.0, -0.5)  # out of range: all off
    save(d, "hot", hot.astype(np.float32))
    order = np.argsort(-x, axis=-1, kind="stable")[..., :2]  # ties: lower index first
    save(d, "topk:0", np.take_along_axis(x, order, axis=-1).astype(np.float32))
    save(d, "topk:1", order.astype(np.int32))
    rest = x[:, :, 1:]
    save(d, "rows_sum", (rest[0] + rest[1]).astype(np.float32))
    save(d, "thirds:2", rv[:, 2:3, :].astype(np.float32))
    ramp = np.broadcast_to(np.arange(0.0, 2.0, 0.5), x.shape)
    filled = cs + rv + 0.5 + 0.0 + 1.0 + ramp
    save(d, "clipped", np.clip(filled, -1.0, 3.0).astype(np.float32))


if __name__ == "__main__":
    models = {"decoder": decoder, "transformer": transformer, "shape_mix": shape_mix}
    if len(sys.argv) != 3 or sys.argv[1] not in models:
        sys.exit(__doc__)
    models[sys.argv[1]](sys.argv[2])
