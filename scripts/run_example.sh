#!/usr/bin/env bash
# The main job on the bundled example: ge-atc converts examples/tiny_cnn.onnx,
# ge-run executes the .om and compares against the golden output.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build}
mkdir -p out
"$BUILD_DIR/apps/ge-atc" --model examples/tiny_cnn.onnx --framework 5 --output out/tiny_cnn
"$BUILD_DIR/apps/ge-run" --model out/tiny_cnn.om --input examples/tiny_cnn.input.npy \
  --compare examples/tiny_cnn.output.npy --output out/tiny_cnn_outputs
