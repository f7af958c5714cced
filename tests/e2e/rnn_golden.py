"""Small ONNX recurrent models and their goldens for rnn_models_test.cc.

    /usr/bin/python3 rnn_golden.py DIR

Writes CASE.onnx, CASE.in<k>.npy (the graph inputs in order) and CASE.out<k>.npy (the goldens)
for each case below, computed by the ONNX formulas in numpy here. Weights are initializers (the
kernels pack them once); what the ONNX backend tests lack: both directions, reverse, layout 1
with two directions, all three LSTM outputs, sequence_lens shorter than the sequence. Exits 77
(the test skips) without numpy or onnx.
"""
import os
import sys

try:
    import numpy as np
    from onnx import TensorProto, helper, numpy_helper, save
except ImportError as e:
    print("SKIP: %s (install python3-numpy python3-onnx)" % e)
    sys.exit(77)

T, N, I, H = 5, 3, 4, 6
GATES = {"LSTM": 4, "GRU": 3, "RNN": 1}


def sig(x):
    return 1 / (1 + np.exp(-x))


def relu(x):
    return np.maximum(x, 0)


def reference(op, x, w, r, b, lens, h0, c0, p, direction, layout, lbr, act):
    """Y, Y_h, Y_c by the ONNX spec, one batch entry and direction at a time."""
    if layout:
        x = x.transpose(1, 0, 2)
        h0 = None if h0 is None else h0.transpose(1, 0, 2)
        c0 = None if c0 is None else c0.transpose(1, 0, 2)
    dirs = 2 if direction == "bidirectional" else 1
    y = np.zeros((T, dirs, N, H), np.float32)
    yh = np.zeros((dirs, N, H), np.float32)
    yc = np.zeros((dirs, N, H), np.float32)
    for d in range(dirs):
        wb, rb = np.split(b[d], 2)
        backward = d == 1 or direction == "reverse"
        for n in range(N):
            h = np.zeros(H, np.float32) if h0 is None else h0[d, n].copy()
            c = np.zeros(H, np.float32) if c0 is None else c0[d, n].copy()
            steps = range(lens[n] - 1, -1, -1) if backward else range(lens[n])
            for t in steps:
                xw = w[d] @ x[t, n] + wb
                if op == "LSTM":
                    gi, go, gf, gc = np.split(xw + r[d] @ h + rb, 4)
                    pi, po, pf = np.split(p[d], 3)
                    i, f = sig(gi + pi * c), sig(gf + pf * c)
                    c = f * c + i * np.tanh(gc)
                    h = sig(go + po * c) * np.tanh(c)
                elif op == "GRU":
                    xz, xr, xh = np.split(xw, 3)
                    rz, rr, rh = np.split(r[d], 3)
                    bz, br, bh = np.split(rb, 3)
                    z, rt = sig(xz + rz @ h + bz), sig(xr + rr @ h + br)
                    cand = np.tanh(xh + rt * (rh @ h + bh) if lbr else xh + rh @ (rt * h) + bh)
                    h = (1 - z) * cand + z * h
                else:
                    h = act(xw + r[d] @ h + rb)
                y[t, d, n] = h
            yh[d, n], yc[d, n] = h, c
    if layout:
        return y.transpose(2, 0, 1, 3), yh.transpose(1, 0, 2), yc.transpose(1, 0, 2)
    return y, yh, yc


def write(out, name, op, direction, layout=0, lbr=0, peepholes=False, lens_input=False, h0_input=False,
          outputs=("Y", "Y_h"), activation=None):
    rng = np.random.default_rng(len(name))
    dirs = 2 if direction == "bidirectional" else 1
    g = GATES[op]
    w = rng.uniform(-0.5, 0.5, (dirs, g * H, I)).astype(np.float32)
    r = rng.uniform(-0.5, 0.5, (dirs, g * H, H)).astype(np.float32)
    b = rng.uniform(-0.5, 0.5, (dirs, 2 * g * H)).astype(np.float32)
    x = rng.uniform(-1, 1, (N, T, I) if layout else (T, N, I)).astype(np.float32)
    state = (N, dirs, H) if layout else (dirs, N, H)
    h0 = rng.uniform(-1, 1, state).astype(np.float32) if h0_input else None
    c0 = rng.uniform(-1, 1, state).astype(np.float32) if op == "LSTM" and h0_input else None
    p = rng.uniform(-0.5, 0.5, (dirs, 3 * H)).astype(np.float32) if peepholes else np.zeros((dirs, 3 * H), np.float32)
    lens = np.array([T, 2, 4], np.int32) if lens_input else np.full(N, T, np.int32)

    inputs = [("X", x)] + ([("sequence_lens", lens)] if lens_input else []) + \
        ([("initial_h", h0)] + ([("initial_c", c0)] if c0 is not None else []) if h0_input else [])
    weights = [("W", w), ("R", r), ("B", b)] + ([("P", p)] if peepholes else [])
    inits = [numpy_helper.from_array(a, n) for n, a in weights]
    node_in = ["X", "W", "R", "B", "sequence_lens" if lens_input else "", "initial_h" if h0_input else ""]
    if op == "LSTM":
        node_in += ["initial_c" if h0_input else "", "P" if peepholes else ""]
    while node_in[-1] == "":
        node_in.pop()
    attrs = {"hidden_size": H, "direction": direction, "layout": layout}
    if op == "GRU":
        attrs["linear_before_reset"] = lbr
    if activation:
        attrs["activations"] = [activation] * dirs
    node = helper.make_node(op, node_in, list(outputs), **attrs)
    act = relu if activation == "Relu" else np.tanh
    golden = reference(op, x, w, r, b, lens, h0, c0, p, direction, layout, lbr, act)
    shapes = {"Y": golden[0].shape, "Y_h": golden[1].shape, "Y_c": golden[2].shape}
    graph = helper.make_graph(
        [node], name,
        [helper.make_tensor_value_info(n, TensorProto.INT32 if n == "sequence_lens" else TensorProto.FLOAT, a.shape)
         for n, a in inputs],
        [helper.make_tensor_value_info(o, TensorProto.FLOAT, shapes[o]) for o in outputs], inits)
    save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 14)]), os.path.join(out, name + ".onnx"))
    for k, (_, a) in enumerate(inputs):
        np.save(os.path.join(out, "%s.in%d.npy" % (name, k)), a)
    for k, o in enumerate(outputs):
        np.save(os.path.join(out, "%s.out%d.npy" % (name, k)), golden[["Y", "Y_h", "Y_c"].index(o)])


def main():
    out = sys.argv[1]
    write(out, "lstm_bidirectional", "LSTM", "bidirectional", peepholes=True, h0_input=True,
          outputs=("Y", "Y_h", "Y_c"))
    write(out, "lstm_lens", "LSTM", "bidirectional", lens_input=True, outputs=("Y", "Y_h", "Y_c"))
    write(out, "gru_reverse_batch_first", "GRU", "reverse", layout=1, lbr=1, h0_input=True)
    write(out, "gru_lens", "GRU", "forward", lens_input=True)
    write(out, "rnn_relu_batch_first", "RNN", "bidirectional", layout=1, h0_input=True, activation="Relu")
    return 0


if __name__ == "__main__":
    sys.exit(main())
