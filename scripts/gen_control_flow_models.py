#!/usr/bin/python3
"""Exports PyTorch models with data-dependent control flow (torch.jit.script) to ONNX, with torch's
outputs as goldens: the acceptance models of docs/control-flow.md.

  /usr/bin/python3 scripts/gen_control_flow_models.py DIR

needs Debian's python3-torch (nothing it writes is committed). It writes, for each model, DIR/NAME.onnx
and per case DIR/NAME.CASE.in<K>.npy (one per input) and DIR/NAME.CASE.out.npy:

  branchy   if x.sum() > 0: relu(linear_a(x)) else: linear_b(x) * 2   cases pos, neg (both branches)
  loopy     for i in range(n): h = tanh(linear(h)) + x                 cases n2, n5 (trip count an input)
  nested    if x.mean() > 0: (loop n times) else: h - 1                cases pos3, neg (a loop in a branch)

Each converts with plain ge-atc and runs with
  ge-run --model NAME.om --input NAME.CASE.in0.npy[,NAME.CASE.in1.npy] --compare NAME.CASE.out.npy
"""
import os
import sys

import numpy as np
import torch

if len(sys.argv) != 2:
    sys.exit("usage: gen_control_flow_models.py DIR")
out = sys.argv[1]
os.makedirs(out, exist_ok=True)

class Branchy(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.a = torch.nn.Linear(4, 4)
        self.b = torch.nn.Linear(4, 4)
    def forward(self, x):
        if x.sum() > 0:
            y = self.a(x).relu()
        else:
            y = self.b(x) * 2.0
        return y

class Loopy(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.l = torch.nn.Linear(4, 4)
    def forward(self, x, n: torch.Tensor):
        h = x
        for i in range(int(n)):
            h = torch.tanh(self.l(h)) + x
        return h

class Nested(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.l = torch.nn.Linear(4, 4)
    def forward(self, x, n: torch.Tensor):
        h = x
        if x.mean() > 0:
            for i in range(int(n)):
                h = self.l(h).relu() + 1.0
        else:
            h = h - 1.0
        return h

torch.manual_seed(0)
def save(name, model, cases, names):
    m = torch.jit.script(model)
    args0 = cases[0][1]
    torch.onnx.export(m, args0, f"{out}/{name}.onnx", input_names=names, output_names=["y"], opset_version=13)
    for cname, args in cases:
        y = model(*args)
        for i, a in enumerate(args):
            np.save(f"{out}/{name}.{cname}.in{i}.npy", a.numpy())
        np.save(f"{out}/{name}.{cname}.out.npy", y.detach().numpy())
    print("wrote", name)

x_pos = torch.rand(2, 4) + 0.1
x_neg = -torch.rand(2, 4) - 0.1
save("branchy", Branchy().eval(), [("pos", (x_pos,)), ("neg", (x_neg,))], ["x"])
save("loopy", Loopy().eval(), [("n2", (x_pos, torch.tensor(2))), ("n5", (x_pos, torch.tensor(5)))], ["x", "n"])
save("nested", Nested().eval(), [("pos3", (x_pos, torch.tensor(3))), ("neg", (x_neg, torch.tensor(3)))], ["x", "n"])
