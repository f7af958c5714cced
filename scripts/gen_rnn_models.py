#!/usr/bin/python3
"""Exports the recurrent acceptance models with PyTorch, with goldens from torch.

    /usr/bin/python3 scripts/gen_rnn_models.py OUT_DIR

Needs Debian's python3-torch (not installed by scripts/setup.sh: these models are never committed
and no test needs them). Writes, with random weights from fixed seeds and fixed input shapes:

  lstm_tagger.onnx   embedding (1000 x 64) -> 2-layer bidirectional LSTM (hidden 128) -> Linear
                     to 17 tags; tokens [4, 32] (batch 4, 32 steps, batch_first)
  gru_classifier.onnx  2-layer GRU (hidden 96) over features [8, 20, 40] -> last step -> Linear
                     to 5 classes
  simple_rnn.onnx    1-layer nn.RNN (tanh, hidden 64) over [25, 3, 16] (time first) -> all steps

and NAME.input.npy, NAME.output.npy (torch's output). Each model is converted with
`ge-atc --model NAME.onnx --framework 5 --output X` and run with
`ge-run --om X.om --input NAME.input.npy --compare NAME.output.npy`.
"""
import argparse
import os
import sys

import numpy as np


def main():
    parser = argparse.ArgumentParser(description="PyTorch LSTM/GRU/RNN exports with torch goldens")
    parser.add_argument("out_dir")
    out = parser.parse_args().out_dir
    try:
        import torch
    except ImportError as e:
        sys.exit(f"gen_rnn_models.py: {e}: apt-get install python3-torch")
    os.makedirs(out, exist_ok=True)
    torch.manual_seed(0)
    nn = torch.nn

    class Tagger(nn.Module):
        def __init__(self):
            super().__init__()
            self.emb = nn.Embedding(1000, 64)
            self.lstm = nn.LSTM(64, 128, num_layers=2, bidirectional=True, batch_first=True)
            self.out = nn.Linear(256, 17)

        def forward(self, tokens):
            y, _ = self.lstm(self.emb(tokens))
            return self.out(y)

    class GruClassifier(nn.Module):
        def __init__(self):
            super().__init__()
            self.gru = nn.GRU(40, 96, num_layers=2, batch_first=True)
            self.out = nn.Linear(96, 5)

        def forward(self, x):
            y, _ = self.gru(x)
            return self.out(y[:, -1, :])

    class SimpleRnn(nn.Module):
        def __init__(self):
            super().__init__()
            self.rnn = nn.RNN(16, 64, nonlinearity="tanh")

        def forward(self, x):
            y, _ = self.rnn(x)
            return y

    cases = [
        ("lstm_tagger", Tagger(), torch.randint(0, 1000, (4, 32), dtype=torch.int64)),
        ("gru_classifier", GruClassifier(), torch.randn(8, 20, 40)),
        ("simple_rnn", SimpleRnn(), torch.randn(25, 3, 16)),
    ]
    for name, model, x in cases:
        model.eval()
        path = os.path.join(out, f"{name}.onnx")
        kwargs = {"dynamo": False} if "dynamo" in torch.onnx.export.__code__.co_varnames else {}
        torch.onnx.export(model, (x,), path, input_names=["x"], output_names=["y"], opset_version=14, **kwargs)
        with torch.no_grad():
            y = model(x)
        np.save(os.path.join(out, f"{name}.input.npy"), x.numpy())
        np.save(os.path.join(out, f"{name}.output.npy"), y.numpy())
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
