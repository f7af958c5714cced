#!/usr/bin/python3
"""Generates the ONNX backend node test suite from the installed onnx package.

    scripts/gen_onnx_suite.py OUT_DIR

writes OUT_DIR/node/<case>/{model.onnx,test_data_set_0/{input,output}_K.pb}
(922 cases with onnx 1.12). Nothing generated is committed: the suite is a
function of the installed onnx version, recorded in OUT_DIR/onnx_version, and
regenerating is skipped when that version matches (about 4 s otherwise).
Runs under Debian's /usr/bin/python3 (python3-onnx, python3-numpy).
"""
import os
import shutil
import sys


def generate(out_dir):
    """Generates the suite into out_dir unless it is already there for this onnx. Returns the node dir."""
    import numpy as np

    # onnx 1.12's generators use the aliases numpy 1.24 removed.
    for name, value in (("float", float), ("int", int), ("bool", bool), ("object", object)):
        if name not in np.__dict__:  # hasattr would warn on np.object
            setattr(np, name, value)
    import onnx
    from onnx.backend.test.cmd_tools import main as onnx_cmd_tools

    stamp = os.path.join(out_dir, "onnx_version")
    node_dir = os.path.join(out_dir, "node")
    if os.path.isfile(stamp) and open(stamp).read().strip() == onnx.__version__ and os.path.isdir(node_dir):
        return node_dir
    # Generate beside, then rename: an interrupted run leaves no half suite.
    tmp = out_dir + ".tmp"
    shutil.rmtree(tmp, ignore_errors=True)
    argv = sys.argv
    sys.argv = ["onnx-backend-test", "generate-data", "-o", tmp]
    try:
        onnx_cmd_tools()
    finally:
        sys.argv = argv
    with open(os.path.join(tmp, "onnx_version"), "w") as f:
        f.write(onnx.__version__ + "\n")
    shutil.rmtree(out_dir, ignore_errors=True)
    os.rename(tmp, out_dir)
    return node_dir


if __name__ == "__main__":
    if len(sys.argv) != 2 or sys.argv[1].startswith("-"):
        sys.stderr.write("usage: gen_onnx_suite.py OUT_DIR\n")
        sys.exit(2)
    try:
        import onnx  # noqa: F401
    except ImportError:
        sys.stderr.write("gen_onnx_suite: the onnx Python package is missing (apt-get install python3-onnx)\n")
        sys.exit(1)
    node = generate(sys.argv[1])
    print(f"gen_onnx_suite: {len(os.listdir(node))} node cases in {node}")
