#!/usr/bin/python3
"""Writes the bundled example: examples/tiny_cnn.onnx with an input and the
golden output computed here with numpy (independently of ge).

tiny_cnn: Conv(3->8, 3x3, pad 1) + Relu + MaxPool 2x2 + Conv(8->8, 3x3, stride 2,
group 2) + Clip(0,6) + GlobalAveragePool + Flatten + Gemm(8->4) + Softmax.
Run with Debian's /usr/bin/python3 (python3-onnx, python3-numpy)."""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


def conv2d(x, w, b, stride=1, pad=0, group=1):
    n, c, h, wd = x.shape
    m, cg, kh, kw = w.shape
    x = np.pad(x, ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    oh = (h + 2 * pad - kh) // stride + 1
    ow = (wd + 2 * pad - kw) // stride + 1
    y = np.zeros((n, m, oh, ow), dtype=np.float64)
    mg = m // group
    for g in range(group):
        for oc in range(g * mg, (g + 1) * mg):
            for i in range(oh):
                for j in range(ow):
                    patch = x[:, g * cg:(g + 1) * cg, i * stride:i * stride + kh, j * stride:j * stride + kw]
                    y[:, oc, i, j] = (patch * w[oc]).sum(axis=(1, 2, 3)) + b[oc]
    return y


def main(out_dir):
    rng = np.random.default_rng(7)
    x = rng.standard_normal((1, 3, 16, 16)).astype(np.float32)
    w1 = (rng.standard_normal((8, 3, 3, 3)) * 0.3).astype(np.float32)
    b1 = (rng.standard_normal(8) * 0.1).astype(np.float32)
    w2 = (rng.standard_normal((8, 4, 3, 3)) * 0.3).astype(np.float32)
    b2 = (rng.standard_normal(8) * 0.1).astype(np.float32)
    wf = (rng.standard_normal((4, 8)) * 0.5).astype(np.float32)
    bf = (rng.standard_normal(4) * 0.1).astype(np.float32)

    y = np.maximum(conv2d(x.astype(np.float64), w1, b1, pad=1), 0)
    y = y.reshape(1, 8, 8, 2, 8, 2).max(axis=(3, 5))
    y = np.clip(conv2d(y, w2, b2, stride=2, pad=1, group=2), 0, 6)
    y = y.mean(axis=(2, 3))
    y = y @ wf.T.astype(np.float64) + bf
    y = np.exp(y - y.max(axis=1, keepdims=True))
    y = (y / y.sum(axis=1, keepdims=True)).astype(np.float32)

    inits = [numpy_helper.from_array(a, n) for a, n in
             [(w1, "w1"), (b1, "b1"), (w2, "w2"), (b2, "b2"), (wf, "wf"), (bf, "bf"),
              (np.array(0, np.float32), "clip_min"), (np.array(6, np.float32), "clip_max")]]
    nodes = [
        helper.make_node("Conv", ["input", "w1", "b1"], ["c1"], name="conv1", pads=[1, 1, 1, 1], kernel_shape=[3, 3]),
        helper.make_node("Relu", ["c1"], ["r1"], name="relu1"),
        helper.make_node("MaxPool", ["r1"], ["p1"], name="pool1", kernel_shape=[2, 2], strides=[2, 2]),
        helper.make_node("Conv", ["p1", "w2", "b2"], ["c2"], name="conv2", pads=[1, 1, 1, 1], strides=[2, 2], group=2),
        helper.make_node("Clip", ["c2", "clip_min", "clip_max"], ["r2"], name="clip2"),
        helper.make_node("GlobalAveragePool", ["r2"], ["gap"], name="gap"),
        helper.make_node("Flatten", ["gap"], ["flat"], name="flatten"),
        helper.make_node("Gemm", ["flat", "wf", "bf"], ["logits"], name="fc", transB=1),
        helper.make_node("Softmax", ["logits"], ["output"], name="softmax", axis=1),
    ]
    graph = helper.make_graph(nodes, "tiny_cnn",
                              [helper.make_tensor_value_info("input", TensorProto.FLOAT, [1, 3, 16, 16])],
                              [helper.make_tensor_value_info("output", TensorProto.FLOAT, [1, 4])], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], producer_name="ge gen_example.py")
    model.ir_version = 8
    onnx.checker.check_model(model)
    os.makedirs(out_dir, exist_ok=True)
    onnx.save(model, os.path.join(out_dir, "tiny_cnn.onnx"))
    np.save(os.path.join(out_dir, "tiny_cnn.input.npy"), x)
    np.save(os.path.join(out_dir, "tiny_cnn.output.npy"), y)
    print("wrote", out_dir + "/tiny_cnn.{onnx,input.npy,output.npy}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "examples"))
