#!/usr/bin/env bash
# The installed package, tested as a user meets it: `cmake --install` of the
# build tree into a fresh prefix, then a consumer project (find_package(ge),
# ge::ge) configured, built and run against it on the bundled example, and
# the installed ge-atc / ge-run used on the same model.
#   tests/install/run_consumer.sh BUILD_DIR [SOURCE_DIR]
set -euo pipefail
BUILD=$(cd "$1" && pwd)
SRC=$(cd "${2:-$(dirname "$0")/../..}" && pwd)
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
PREFIX=$WORK/prefix

cmake --install "$BUILD" --prefix "$PREFIX" >"$WORK/install.log" || { cat "$WORK/install.log"; exit 1; }
for f in bin/ge-atc bin/ge-run bin/msame bin/ge-lint bin/ge-dump include/ge/compiler.h include/ge/runtime.h include/ge/om.h \
         include/ge_base/status.h include/hal/device.h include/ge_parsers/onnx_parser.h lib/cmake/ge/geConfig.cmake; do
  [ -e "$PREFIX/$f" ] || { echo "run_consumer: $f is not installed"; exit 1; }
done
# Private headers stay private.
if find "$PREFIX/include" -name memory_planner.h -o -name sink_model.h -o -name dnnl_context.h | grep -q .; then
  echo "run_consumer: a private header was installed:"; find "$PREFIX/include" -name '*.h' | sort; exit 1
fi

cmake -S "$SRC/tests/install/consumer" -B "$WORK/consumer" -G Ninja -DCMAKE_BUILD_TYPE=Release \
      -DCMAKE_PREFIX_PATH="$PREFIX" >"$WORK/configure.log" 2>&1 || { cat "$WORK/configure.log"; exit 1; }
cmake --build "$WORK/consumer" >"$WORK/build.log" 2>&1 || { cat "$WORK/build.log"; exit 1; }
"$WORK/consumer/ge_consumer" "$SRC/examples/tiny_cnn.onnx" "$SRC/examples/tiny_cnn.input.npy" \
    "$SRC/examples/tiny_cnn.output.npy" "$WORK"

"$PREFIX/bin/ge-atc" --model "$SRC/examples/tiny_cnn.onnx" --framework 5 --output "$WORK/tiny" >/dev/null
"$PREFIX/bin/ge-run" --model "$WORK/tiny.om" --input "$SRC/examples/tiny_cnn.input.npy" \
    --compare "$SRC/examples/tiny_cnn.output.npy" | tail -1
echo "run_consumer: ok"
