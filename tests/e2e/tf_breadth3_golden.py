#!/usr/bin/python3
"""Numpy goldens for tests/e2e/tf_breadth3_test.cc.

The test builds two TensorFlow GraphDefs by hand and writes their inputs
and constants as .npy files into DIR; this script recomputes each graph's
outputs from those files with numpy, following TensorFlow's op
documentation and its CPU kernels' arithmetic (not ge's kernels), and
writes DIR/golden_<output>.npy.

  detection: CropAndResize (bilinear, extrapolation) -> Mean -> scores ->
             NonMaxSuppressionV4 (padded) / V5, Where, Unique,
             UnsortedSegmentSum, SegmentSum, ScatterNd
  video:     Conv3D SAME -> Relu -> MaxPool3D VALID -> AvgPool3D SAME ->
             Reshape -> LRN -> ResizeBicubic (half_pixel_centers), ResizeArea
             -> Einsum -> GatherV2 (batch_dims 1) -> BatchMatMulV2 -> MatrixBandPart

  special:   Expm1, Log1p (of |x|), Erfc, Xlogy, Xdivy (0 where x is 0)

usage: tf_breadth3_golden.py detection|video|special DIR   (exit 77: no numpy)
"""
import math
import sys

from tf_golden_common import load, np, save


def crop_and_resize(image, boxes, box_ind, crop_h, crop_w, extrapolation):
    """tf.image.crop_and_resize, bilinear, in float32 as TF's CPU kernel."""
    f = np.float32
    _, h, w, c = image.shape
    out = np.zeros((len(boxes), crop_h, crop_w, c), np.float32)
    for b, (y1, x1, y2, x2) in enumerate(boxes.astype(np.float32)):
        img = image[box_ind[b]].astype(np.float32)
        hs = (y2 - y1) * f(h - 1) / f(crop_h - 1) if crop_h > 1 else f(0)
        ws = (x2 - x1) * f(w - 1) / f(crop_w - 1) if crop_w > 1 else f(0)
        for y in range(crop_h):
            in_y = y1 * f(h - 1) + f(y) * hs if crop_h > 1 else f(0.5 * (y1 + y2) * (h - 1))
            for x in range(crop_w):
                in_x = x1 * f(w - 1) + f(x) * ws if crop_w > 1 else f(0.5 * (x1 + x2) * (w - 1))
                if in_y < 0 or in_y > h - 1 or in_x < 0 or in_x > w - 1:
                    out[b, y, x] = extrapolation
                    continue
                t, bt = math.floor(in_y), math.ceil(in_y)
                l, r = math.floor(in_x), math.ceil(in_x)
                yl, xl = in_y - f(t), in_x - f(l)
                top = img[t, l] + (img[t, r] - img[t, l]) * xl
                bottom = img[bt, l] + (img[bt, r] - img[bt, l]) * xl
                out[b, y, x] = top + (bottom - top) * yl
    return out


def iou(a, b):
    """TF's IoU of two [y1, x1, y2, x2] boxes (corners in any order)."""
    ay0, ay1 = sorted((a[0], a[2]))
    ax0, ax1 = sorted((a[1], a[3]))
    by0, by1 = sorted((b[0], b[2]))
    bx0, bx1 = sorted((b[1], b[3]))
    area_a, area_b = (ay1 - ay0) * (ax1 - ax0), (by1 - by0) * (bx1 - bx0)
    if area_a <= 0 or area_b <= 0:
        return 0.0
    inter = max(min(ay1, by1) - max(ay0, by0), 0) * max(min(ax1, bx1) - max(ax0, bx0), 0)
    return inter / (area_a + area_b - inter)


def nms(boxes, scores, max_out, iou_threshold, score_threshold):
    """tf.image.non_max_suppression: greedy by score (lower index on ties)."""
    order = sorted((i for i in range(len(scores)) if scores[i] > score_threshold), key=lambda i: (-scores[i], i))
    kept = []
    for i in order:
        if len(kept) == max_out:
            break
        if all(iou(boxes[i], boxes[k]) <= iou_threshold for k in kept):
            kept.append(i)
    return kept


def detection(d):
    image = load(d, "image")
    boxes = load(d, "boxes")
    crops = crop_and_resize(image, boxes, load(d, "box_ind"), 3, 3, 0.25)
    save(d, "crops", crops)
    crop_means = crops.astype(np.float64).mean(axis=(1, 2)).astype(np.float32)
    scores = crop_means.astype(np.float64).mean(axis=1).astype(np.float32)
    kept = nms(boxes.astype(np.float64), scores, 4, 0.3, -10.0)
    padded = np.zeros(4, np.int32)
    padded[:len(kept)] = kept
    save(d, "nms:0", padded)
    save(d, "nms:1", np.array(len(kept), np.int32))
    save(d, "nms5:0", np.array(kept, np.int32))
    save(d, "nms5:1", scores[kept])
    save(d, "fg", np.ascontiguousarray(np.argwhere(crop_means > 0), dtype=np.int64))
    binned = np.floor(scores * np.float32(3))
    first = sorted(np.unique(binned, return_index=True)[1])
    y = binned[first]
    idx = np.array([list(y).index(v) for v in binned], np.int32)
    save(d, "uniq:0", y)
    save(d, "uniq:1", idx)
    useg = np.zeros((4, 2), np.float64)
    for i, s in enumerate(idx):
        useg[s] += crop_means[i]
    save(d, "useg", useg.astype(np.float32))
    seg = np.zeros((4, 2), np.float64)
    for i, s in enumerate([0, 0, 1, 3]):
        seg[s] += crop_means[i]
    save(d, "seg", seg.astype(np.float32))
    scatter = np.zeros(4, np.float32)
    for i, s in zip(kept, scores[kept]):
        scatter[i] += s
    save(d, "scatter", scatter)


def same_pads(size, k, stride):
    """TF's SAME padding of one axis: (before, after), the odd one after."""
    out = -(-size // stride)
    total = max((out - 1) * stride + k - size, 0)
    return total // 2, total - total // 2


def conv3d_same(x, w):
    """tf.nn.conv3d, NDHWC, filter [kd, kh, kw, in, out], stride 1, SAME."""
    pads = [same_pads(x.shape[i + 1], w.shape[i], 1) for i in range(3)]
    xp = np.pad(x, [(0, 0)] + pads + [(0, 0)])
    n, d, h, wd, _ = x.shape
    y = np.zeros((n, d, h, wd, w.shape[4]))
    for i in range(w.shape[0]):
        for j in range(w.shape[1]):
            for k in range(w.shape[2]):
                y += np.einsum("ndhwc,co->ndhwo", xp[:, i:i + d, j:j + h, k:k + wd], w[i, j, k])
    return y


def max_pool3d_valid_2(x):
    n, d, h, w, c = x.shape
    od, oh, ow = (d - 2) // 2 + 1, (h - 2) // 2 + 1, (w - 2) // 2 + 1
    x = x[:, :2 * od, :2 * oh, :2 * ow].reshape(n, od, 2, oh, 2, ow, 2, c)
    return x.max(axis=(2, 4, 6))


def avg_pool_same_hw(x, k):
    """AvgPool3D ksize [1, 1, k, k, 1], stride 1, SAME: the in-bounds mean."""
    n, d, h, w, c = x.shape
    (pt, pb), (pl, pr) = same_pads(h, k, 1), same_pads(w, k, 1)
    xp = np.pad(x, [(0, 0), (0, 0), (pt, pb), (pl, pr), (0, 0)])
    ones = np.pad(np.ones((h, w)), [(pt, pb), (pl, pr)])
    total, count = np.zeros_like(x), np.zeros((h, w))
    for i in range(k):
        for j in range(k):
            total += xp[:, :, i:i + h, j:j + w]
            count += ones[i:i + h, j:j + w]
    return total / count[None, None, :, :, None]


def lrn(x, radius, bias, alpha, beta):
    """tf.nn.local_response_normalization over the last axis."""
    sq = x * x
    c = x.shape[-1]
    sums = np.stack([sq[..., max(i - radius, 0):i + radius + 1].sum(axis=-1) for i in range(c)], axis=-1)
    return x / (bias + alpha * sums) ** beta


def bicubic_weights(in_size, out_size):
    """TF's ResizeBicubic with half_pixel_centers, as an out x in matrix:
    Keys' a = -0.5 from a 1024-step table, taps outside the image dropped
    and the rest renormalised."""
    a = -0.5
    near = lambda s: ((a + 2) * s - (a + 3)) * s * s + 1
    far = lambda s: ((a * s - 5 * a) * s + 8 * a) * s - 4 * a
    scale = np.float32(in_size) / np.float32(out_size)
    m = np.zeros((out_size, in_size))
    for o in range(out_size):
        loc = (np.float32(o) + np.float32(0.5)) * scale - np.float32(0.5)
        base = math.floor(loc)
        t = np.rint((loc - np.float32(base)) * 1024) / 1024.0
        coeffs = [far(1 + t), near(t), near(1 - t), far(2 - t)]
        taps = [(base - 1 + k, c) for k, c in enumerate(coeffs) if 0 <= base - 1 + k < in_size]
        total = sum(c for _, c in taps)
        for i, c in taps:
            m[o, i] += c / total
    return m


def area_weights(in_size, out_size):
    """TF's ResizeArea (align_corners false) as an out x in matrix of the
    covered parts, over the scale."""
    f = np.float32
    scale = f(in_size) / f(out_size)
    m = np.zeros((out_size, in_size))
    for o in range(out_size):
        lo, hi = f(o) * scale, f(o + 1) * scale
        for i in range(math.floor(lo), math.ceil(hi)):
            fi = f(i)
            part = (scale if fi + 1 > hi else fi + 1 - lo) if fi < lo else (hi - fi if fi + 1 > hi else 1.0)
            m[o, min(i, in_size - 1)] += part
    return m / scale


def video(d):
    x = load(d, "clip").astype(np.float64)
    act = np.maximum(conv3d_same(x, load(d, "w3").astype(np.float64)), 0)
    pooled = avg_pool_same_hw(max_pool3d_valid_2(act), 3)
    save(d, "pooled", pooled.astype(np.float32))
    normed = lrn(pooled.reshape(2, 3, 3, 4), 1, 1.0, 0.5, 0.75)
    up = np.einsum("yh,nhwc,xw->nyxc", bicubic_weights(3, 5), normed, bicubic_weights(3, 5))
    save(d, "up", up.astype(np.float32))
    area = np.einsum("yh,nhwc,xw->nyxc", area_weights(3, 2), normed, area_weights(3, 2))
    save(d, "area", area.astype(np.float32))
    proj = np.einsum("nhwc,cd->nhwd", up, load(d, "proj_w").astype(np.float64))
    tokens = proj.reshape(2, 25, 3)
    idx = load(d, "token_idx")
    picked = np.stack([tokens[b, idx[b]] for b in range(2)])
    save(d, "picked", picked.astype(np.float32))
    gram = picked @ picked.transpose(0, 2, 1)
    rows, cols = np.indices(gram.shape[1:])
    save(d, "band", np.where((rows - cols <= 1) & (cols <= rows), gram, 0).astype(np.float32))


def special(d):
    x = load(d, "x").astype(np.float64)
    y = load(d, "y").astype(np.float64)
    save(d, "expm1", np.expm1(x).astype(np.float32))
    save(d, "log1p", np.log1p(np.abs(x)).astype(np.float32))
    save(d, "erfc", np.array([math.erfc(v) for v in x]).astype(np.float32))
    with np.errstate(divide="ignore", invalid="ignore"):
        save(d, "xlogy", np.where(x == 0, 0.0, x * np.log(y)).astype(np.float32))
        save(d, "xdivy", np.where(x == 0, 0.0, x / y).astype(np.float32))


if __name__ == "__main__":
    models = {"detection": detection, "video": video, "special": special}
    if len(sys.argv) != 3 or sys.argv[1] not in models:
        sys.exit(__doc__)
    models[sys.argv[1]](sys.argv[2])
