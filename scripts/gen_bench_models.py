#!/usr/bin/python3
"""Exports the benchmark set of docs/benchmarks.md with PyTorch, goldens from torch.

    /usr/bin/python3 scripts/gen_bench_models.py OUT_DIR [NAME ...]

Needs Debian's python3-torch and python3-torchvision; nothing it writes is committed (the models
are 10-500 MB). Random weights from fixed seeds, batch norms calibrated on random images as in
gen_vision_models.py. Writes NAME.onnx, NAME.input.npy and NAME.output.npy for each of:

  resnet50, densenet121, googlenet, shufflenet_v2, efficientnet_b0, mobilenet_v3_large
                 torchvision, [1, 3, 224, 224]
  vit_b_16       torchvision ViT-B/16, [1, 3, 224, 224]
  bert_base      a BERT-base-sized encoder: 12 layers, hidden 768, 12 heads, FFN 3072, GELU, post-norm;
                 input: token embeddings [1, 128, 768] (the lookup is not what is measured)
  gpt_decoder    a GPT-2-small-sized decoder: 12 layers, hidden 768, 12 heads, causal mask, pre-norm,
                 GELU; input [1, 128, 768]

Existing files are kept (delete them to re-export). With NAMEs, only those.
"""
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gen_vision_models import calibrate, export, torch, torchvision  # noqa: E402

nn = torch.nn


class Block(nn.Module):
    """One transformer layer with explicit ops (what BERT/GPT exporters emit): QKV projections,
    scaled dot-product attention with an optional causal mask, output projection, GELU FFN."""

    def __init__(self, d, heads, ff, causal, pre_norm):
        super().__init__()
        self.h, self.causal, self.pre = heads, causal, pre_norm
        self.q, self.k, self.v, self.o = (nn.Linear(d, d) for _ in range(4))
        self.ff1, self.ff2 = nn.Linear(d, ff), nn.Linear(ff, d)
        self.n1, self.n2 = nn.LayerNorm(d), nn.LayerNorm(d)
        # The causal mask as a constant: opset 13 has no Trilu, so it is made here, not traced.
        self.register_buffer("mask", torch.triu(torch.full((1024, 1024), float("-inf")), diagonal=1))

    def attention(self, x):
        b, s, d = x.shape
        split = lambda t: t.reshape(b, s, self.h, d // self.h).transpose(1, 2)
        q, k, v = split(self.q(x)), split(self.k(x)), split(self.v(x))
        scores = q @ k.transpose(-1, -2) / math.sqrt(d // self.h)
        if self.causal:
            scores = scores + self.mask[:s, :s]
        y = torch.softmax(scores, dim=-1) @ v
        return self.o(y.transpose(1, 2).reshape(b, s, d))

    def ffn(self, x):
        return self.ff2(torch.nn.functional.gelu(self.ff1(x)))

    def forward(self, x):
        if self.pre:
            x = x + self.attention(self.n1(x))
            return x + self.ffn(self.n2(x))
        x = self.n1(x + self.attention(x))
        return self.n2(x + self.ffn(x))


class Transformer(nn.Module):
    def __init__(self, layers=12, d=768, heads=12, ff=3072, causal=False, pre_norm=False):
        super().__init__()
        self.blocks = nn.Sequential(*(Block(d, heads, ff, causal, pre_norm) for _ in range(layers)))
        self.final = nn.LayerNorm(d) if pre_norm else nn.Identity()

    def forward(self, x):
        return self.final(self.blocks(x))


IMAGE = (1, 3, 224, 224)
MODELS = {
    "resnet50": lambda o: export(o, "resnet50", torchvision.models.resnet50(), IMAGE),
    "densenet121": lambda o: export(o, "densenet121", torchvision.models.densenet121(), IMAGE),
    "googlenet": lambda o: export(o, "googlenet", torchvision.models.googlenet(aux_logits=False, init_weights=True),
                                  IMAGE),
    "shufflenet_v2": lambda o: export(o, "shufflenet_v2", torchvision.models.shufflenet_v2_x1_0(), IMAGE),
    "efficientnet_b0": lambda o: export(o, "efficientnet_b0", torchvision.models.efficientnet_b0(), IMAGE),
    "mobilenet_v3_large": lambda o: export(o, "mobilenet_v3_large", torchvision.models.mobilenet_v3_large(), IMAGE),
    "vit_b_16": lambda o: export(o, "vit_b_16", torchvision.models.vit_b_16(), IMAGE),
    "bert_base": lambda o: export(o, "bert_base", Transformer(), (1, 128, 768), calibrated=False),
    "gpt_decoder": lambda o: export(o, "gpt_decoder", Transformer(causal=True, pre_norm=True), (1, 128, 768),
                                    calibrated=False),
}

if __name__ == "__main__":
    if len(sys.argv) >= 2 and sys.argv[1] in ("-h", "--help"):
        print(__doc__)
        sys.exit(0)
    # An option is never an OUT_DIR: "--help" once exported the whole set into ./--help.
    if len(sys.argv) < 2 or sys.argv[1].startswith("-"):
        sys.exit("usage: gen_bench_models.py OUT_DIR [NAME ...]  (names: " + ", ".join(MODELS) + ")")
    out = sys.argv[1]
    names = sys.argv[2:] or list(MODELS)
    for n in names:
        if n not in MODELS:
            sys.exit(f"gen_bench_models.py: unknown model '{n}' (names: {', '.join(MODELS)})")
    os.makedirs(out, exist_ok=True)
    for n in names:
        if os.path.exists(os.path.join(out, n + ".onnx")):
            print(f"kept {n} (exists)")
            continue
        torch.manual_seed(0)
        MODELS[n](out)
