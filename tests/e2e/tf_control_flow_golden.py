#!/usr/bin/python3
"""Numpy goldens for tests/e2e/tf_control_flow_test.cc.

The test writes each case's inputs as DIR/<case>_<input>.npy (and the RNN's
weights as DIR/rnn_W.npy, rnn_b.npy); this script computes the outputs from
TensorFlow's semantics of the graph (not ge's kernels) and writes
DIR/golden_<case>_<output>.npy, '/' in output names written as '_'.

  counter:    i, acc = 0, x; while i < n: i, acc = i + 1, 2 * acc + x
  rnn:        tf.nn.dynamic_rnn(BasicRNNCell(3)): h = tanh([x_t, h] @ W + b)
  cond:       tf.cond(sum(x) > 0, relu(x) * 2, -x - z)
  functional: StatelessWhile(i < n; i + 1, acc * 1.5 + 1), then
              StatelessIf(sum(acc) > 10, relu(acc - 10), -acc), and * 3

usage: tf_control_flow_golden.py counter|rnn|cond|functional DIR   (exit 77: no numpy)
"""
import sys

from tf_golden_common import load, np, save


def counter(d):
    for c in ("n2", "n5"):
        n, x = int(load(d, c + "_n")), load(d, c + "_x").astype(np.float32)
        i, acc = np.int32(0), x.copy()
        while i < n:
            i, acc = np.int32(i + 1), (np.float32(2) * acc + x).astype(np.float32)
        save(d, c + "_while_Exit", np.array(i, dtype=np.int32))
        save(d, c + "_while_Exit_1", acc)


def rnn(d):
    w, b, x = load(d, "rnn_W").astype(np.float64), load(d, "rnn_b").astype(np.float64), load(d, "seq_x").astype(np.float64)
    h = np.zeros((x.shape[0], w.shape[1]))
    outs = []
    for t in range(x.shape[1]):
        h = np.tanh(np.concatenate([x[:, t, :], h], axis=1) @ w + b)
        outs.append(h)
    save(d, "seq_outputs", np.stack(outs, axis=1).astype(np.float32))
    save(d, "seq_state", h.astype(np.float32))


def cond(d):
    for c in ("pos", "neg"):
        x, z = load(d, c + "_x"), load(d, c + "_z")
        y = np.maximum(x, 0) * 2 if x.sum() > 0 else -x - z
        save(d, c + "_cond_Merge", y.astype(np.float32))


def functional(d):
    for c in ("n2", "n5"):
        x, n = load(d, c + "_x").astype(np.float32), int(load(d, c + "_n"))
        acc = x.copy()
        for _ in range(n):
            acc = (acc * np.float32(1.5) + np.float32(1)).astype(np.float32)
        y = np.maximum(acc - 10, 0) if acc.sum() > 10 else -acc
        save(d, c + "_y", y.astype(np.float32))
        save(d, c + "_s", (y * 3).astype(np.float32))


if __name__ == "__main__":
    {"counter": counter, "rnn": rnn, "cond": cond, "functional": functional}[sys.argv[1]](sys.argv[2])
