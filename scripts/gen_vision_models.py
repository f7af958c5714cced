#!/usr/bin/python3
"""Exports the vision acceptance models of docs/onnx-support.md with PyTorch, with goldens from torch.

    /usr/bin/python3 scripts/gen_vision_models.py OUT_DIR

Needs Debian's python3-torch and python3-torchvision (nothing it writes is committed). Writes, with
random weights from fixed seeds, NAME.onnx, NAME.input.npy and NAME.output.npy (torch's output) for:

  mobilenet_v3_small  torchvision, [1, 3, 224, 224] (HardSwish, HardSigmoid, squeeze-excitation)
  mobilenet_v3_large  torchvision, [1, 3, 224, 224]
  efficientnet_b0     torchvision, [1, 3, 224, 224] (SiLU, squeeze-excitation, depthwise convs)
  unet                an encoder-decoder segmentation net: 3 down stages (conv, BN, ReLU, max pool),
                      up stages by ConvTranspose (stride 2) and by bilinear Upsample (align_corners
                      False), skip connections by Concat, 5 classes; [1, 3, 128, 128]

Random weights alone make MobileNetV3 useless as a test: its default initialisation with identity
batch-norm statistics shrinks the activations layer by layer to outputs near 1e-9, which any
implementation "matches". So every model's batch-norm statistics are calibrated first: a few
forward passes in training mode over random images set the running means and variances to those
of the data, as training would, and each layer's output keeps unit scale; linear layers get unit gain too (logits of order 1).

Each converts with `ge-atc --model NAME.onnx --framework 5 --output X` and runs with
`ge-run --om X.om --input NAME.input.npy --compare NAME.output.npy`.
"""
import os
import sys

import numpy as np

try:
    import torch
    import torchvision
except ImportError as e:
    sys.exit(f"gen_vision_models.py: {e}: apt-get install python3-torch python3-torchvision")
nn = torch.nn


class UNet(nn.Module):
    def __init__(self, classes=5):
        super().__init__()

        def block(cin, cout):
            return nn.Sequential(nn.Conv2d(cin, cout, 3, padding=1), nn.BatchNorm2d(cout), nn.ReLU(inplace=True),
                                 nn.Conv2d(cout, cout, 3, padding=1), nn.BatchNorm2d(cout), nn.ReLU(inplace=True))
        self.e1, self.e2, self.e3 = block(3, 16), block(16, 32), block(32, 64)
        self.pool = nn.MaxPool2d(2)
        self.mid = block(64, 64)
        self.up3 = nn.ConvTranspose2d(64, 64, 2, stride=2)
        self.d3 = block(128, 32)
        self.up2 = nn.Upsample(scale_factor=2, mode="bilinear", align_corners=False)
        self.d2 = block(64, 16)
        self.up1 = nn.ConvTranspose2d(16, 16, 3, stride=2, padding=1, output_padding=1)
        self.d1 = block(32, 16)
        self.head = nn.Conv2d(16, classes, 1)

    def forward(self, x):
        s1 = self.e1(x)
        s2 = self.e2(self.pool(s1))
        s3 = self.e3(self.pool(s2))
        m = self.mid(self.pool(s3))
        y = self.d3(torch.cat([self.up3(m), s3], 1))
        y = self.d2(torch.cat([self.up2(y), s2], 1))
        y = self.d1(torch.cat([self.up1(y), s1], 1))
        return self.head(y)


def calibrate(model, shape, batches=4):
    """Sets the batch norms' running statistics to those of random images (cumulative average), and
    gives linear layers unit gain (torchvision's classifiers start at std 0.01: logits near 0)."""
    for m in model.modules():
        if isinstance(m, nn.Linear):
            nn.init.normal_(m.weight, 0.0, m.in_features ** -0.5)
        if isinstance(m, nn.BatchNorm2d):
            m.reset_running_stats()
            m.momentum = None
    model.train()
    with torch.no_grad():
        for _ in range(batches):
            model(torch.rand(8, *shape[1:]) * 2 - 1)
    return model.eval()


def export(out, name, model, shape, calibrated=True):
    """Writes NAME.onnx with input and torch's output. calibrated: image models get calibrate() and
    an input in [-1, 1); others (sequence models) are used as built, with a standard normal input."""
    torch.manual_seed(1)
    if calibrated:
        model = calibrate(model, shape)
        x = torch.rand(*shape) * 2 - 1
    else:
        model.eval()
        x = torch.randn(*shape)
    with torch.no_grad():
        y = model(x)
    torch.onnx.export(model, x, os.path.join(out, name + ".onnx"), input_names=["x"], output_names=["y"],
                      opset_version=13)
    np.save(os.path.join(out, name + ".input.npy"), x.numpy())
    np.save(os.path.join(out, name + ".output.npy"), y.numpy())
    print(f"wrote {name}: output {tuple(y.shape)}, |y| max {y.abs().max():.3g}, std {y.std():.3g}")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: gen_vision_models.py OUT_DIR")
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    torch.manual_seed(0)
    export(out, "mobilenet_v3_small", torchvision.models.mobilenet_v3_small(), (1, 3, 224, 224))
    torch.manual_seed(0)
    export(out, "mobilenet_v3_large", torchvision.models.mobilenet_v3_large(), (1, 3, 224, 224))
    torch.manual_seed(0)
    export(out, "efficientnet_b0", torchvision.models.efficientnet_b0(), (1, 3, 224, 224))
    torch.manual_seed(0)
    export(out, "unet", UNet(), (1, 3, 128, 128))
