#!/usr/bin/python3
"""Exports the dynamic-shape acceptance models with PyTorch, with goldens from torch.

    /usr/bin/python3 scripts/gen_dynamic_models.py OUT_DIR

Needs Debian's python3-torch and python3-torchvision (not installed by scripts/setup.sh: these
models are never committed and no test needs them). Writes, with random weights from fixed seeds:

  resnet18_dyn.onnx      torchvision resnet18, dynamic batch (BatchNorm with non-trivial
                         statistics); cases at batch 1, 2, 3, 4 (1, 2, 4 are
                         the gears of --dynamic_batch_size "1,2,4")
  encoder_dyn.onnx       a BERT-style encoder (token + position embeddings, the positions sliced
                         to the sequence length, 2 TransformerEncoder layers, a pooled 2-way
                         head), dynamic batch and sequence; cases (1,128), (2,40), (4,7)
  detect_dyn.onnx        a small detection head: conv features -> boxes and scores -> TopK ->
                         NonMaxSuppression; the number of boxes kept depends on the data and the
                         image size is dynamic; cases 32x32 and 48x40

and for each case NAME.CASE.input.npy and NAME.CASE.output.npy (torch's output). Each model is
converted with plain `ge-atc` and run with `ge-run --input ... --compare ...` per case.
"""
import os
import sys

import numpy as np


def main():
    if len(sys.argv) != 2:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    try:
        import torch
        import torchvision
    except ImportError as e:
        print(f"gen_dynamic_models.py: {e}: apt-get install python3-torch python3-torchvision", file=sys.stderr)
        return 2
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    torch.manual_seed(0)

    def save(name, model, cases, input_names, output_names, dynamic_axes, opset=13):
        model.eval()
        # Exported with gradients on: under no_grad torch's TransformerEncoder takes its fused
        # fast path, which has no ONNX form.
        path = os.path.join(out, f"{name}.onnx")
        torch.onnx.export(model, cases[0][1], path, input_names=input_names, output_names=output_names,
                          dynamic_axes=dynamic_axes, opset_version=opset)
        with torch.no_grad():
            for case, args in cases:
                y = model(*args)
                np.save(os.path.join(out, f"{name}.{case}.input.npy"), args[0].numpy())
                np.save(os.path.join(out, f"{name}.{case}.output.npy"), y.numpy())
        print(f"wrote {path} ({len(cases)} cases)")

    # 1. resnet18 with a dynamic batch.
    resnet = torchvision.models.resnet18(num_classes=100)
    for m in resnet.modules():
        if isinstance(m, torch.nn.BatchNorm2d):
            m.running_mean.uniform_(-0.2, 0.2)
            m.running_var.uniform_(0.5, 1.5)
    g = torch.Generator().manual_seed(1)
    save("resnet18_dyn", resnet,
         [(f"b{b}", (torch.randn(b, 3, 64, 64, generator=g),)) for b in (1, 2, 3, 4)],
         ["input"], ["logits"], {"input": {0: "batch"}, "logits": {0: "batch"}})

    # 2. A BERT-style encoder: dynamic batch and sequence.
    class Encoder(torch.nn.Module):
        def __init__(self, vocab=1000, d=64, max_len=128):
            super().__init__()
            self.tok = torch.nn.Embedding(vocab, d)
            self.pos = torch.nn.Parameter(torch.randn(1, max_len, d) * 0.1)
            layer = torch.nn.TransformerEncoderLayer(d, 4, 128, dropout=0.0, batch_first=True)
            self.enc = torch.nn.TransformerEncoder(layer, 2, enable_nested_tensor=False)
            self.head = torch.nn.Linear(d, 2)

        def forward(self, ids):
            x = self.tok(ids) + self.pos[:, : ids.shape[1]]
            return self.head(self.enc(x).mean(dim=1))

    g = torch.Generator().manual_seed(2)
    save("encoder_dyn", Encoder(),
         [(f"{b}x{s}", (torch.randint(0, 1000, (b, s), generator=g),)) for b, s in ((1, 128), (2, 40), (4, 7))],
         ["ids"], ["logits"], {"ids": {0: "batch", 1: "seq"}, "logits": {0: "batch"}}, opset=14)

    # 3. A detection head ending in TopK + NonMaxSuppression.
    class Detect(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.features = torch.nn.Sequential(torch.nn.Conv2d(3, 16, 3, padding=1), torch.nn.ReLU(),
                                                torch.nn.Conv2d(16, 5, 3, padding=1))

        def forward(self, x):
            f = self.features(x)[0]  # [5, H, W]
            h, w = f.shape[1], f.shape[2]
            ys = torch.arange(h, dtype=torch.float32).view(h, 1).expand(h, w).reshape(-1)
            xs = torch.arange(w, dtype=torch.float32).view(1, w).expand(h, w).reshape(-1)
            size = torch.sigmoid(f[0:2].reshape(2, -1)) * 6.0 + 1.0
            boxes = torch.stack([xs - size[0], ys - size[1], xs + size[0], ys + size[1]], dim=1)
            scores = torch.sigmoid(f[4].reshape(-1))
            k = torch.clamp(torch.tensor(h * w), max=64)
            top, idx = torch.topk(scores, k)
            keep = torchvision.ops.nms(boxes[idx], top, 0.3)
            return boxes[idx][keep]

    g = torch.Generator().manual_seed(3)
    save("detect_dyn", Detect(),
         [(f"{h}x{w}", (torch.randn(1, 3, h, w, generator=g),)) for h, w in ((32, 32), (48, 40))],
         ["image"], ["boxes"], {"image": {2: "h", 3: "w"}, "boxes": {0: "kept"}}, opset=13)
    return 0


if __name__ == "__main__":
    sys.exit(main())
