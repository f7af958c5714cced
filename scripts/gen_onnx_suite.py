#!/usr/bin/python3
"""Generates the ONNX backend node test suite from the installed onnx package.

    scripts/gen_onnx_suite.py OUT_DIR

writes OUT_DIR/node/<case>/{model.onnx,test_data_set_0/{input,output}_K.pb}
(922 cases with onnx 1.12). make_const_variants() derives the cases whose
shape operands (Reshape's shape, Resize's scales, ...) are graph inputs with
those operands made constants, as exporters write them. Nothing generated is committed: the suite is a
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


# Inputs that decide an op's output shape (or, for Resize, its sampling):
# exporters write them as constants, the suite feeds them as graph inputs.
SHAPE_OPERANDS = {
    "Resize": (1, 2, 3), "Upsample": (1,), "Reshape": (1,), "Expand": (1,), "Tile": (1,),
    "Slice": (1, 2, 3, 4), "Pad": (1, 3), "Split": (1,), "Squeeze": (1,), "Unsqueeze": (1,),
    "TopK": (1,), "Range": (0, 1, 2), "ConstantOfShape": (0,), "OneHot": (1,), "CumSum": (1,),
    "Trilu": (1,), "ReduceSum": (1,), "ReduceMean": (1,), "ReduceMax": (1,), "ReduceMin": (1,),
    "ReduceProd": (1,), "ReduceL1": (1,), "ReduceL2": (1,), "ReduceLogSum": (1,),
    "ReduceLogSumExp": (1,), "ReduceSumSquare": (1,),
}


def make_const_variants(node_dir, out_dir):
    """Writes, for every case where a graph input feeds a shape operand
    (SHAPE_OPERANDS), the same case with those inputs as initializers holding
    the test data's values, into out_dir/node. Returns the number written."""
    import onnx

    stamp = os.path.join(out_dir, "onnx_version")
    if os.path.isfile(stamp) and open(stamp).read().strip() == onnx.__version__:
        return len(os.listdir(os.path.join(out_dir, "node")))
    tmp = out_dir + ".tmp"
    shutil.rmtree(tmp, ignore_errors=True)
    os.makedirs(os.path.join(tmp, "node"))
    written = 0
    for case in sorted(os.listdir(node_dir)):
        src = os.path.join(node_dir, case)
        try:
            model = onnx.load(os.path.join(src, "model.onnx"))
        except Exception:  # noqa: BLE001 - a case the package cannot load has no variant
            continue
        graph = model.graph
        inputs = [i.name for i in graph.input]
        wanted = set()
        for node in graph.node:
            for k in SHAPE_OPERANDS.get(node.op_type, ()):
                if k < len(node.input) and node.input[k] in inputs:
                    wanted.add(node.input[k])
        data = os.path.join(src, "test_data_set_0")
        if not wanted or not os.path.isdir(data):
            continue
        dst = os.path.join(tmp, "node", case)
        os.makedirs(os.path.join(dst, "test_data_set_0"))
        kept = []
        for k, value_info in enumerate(list(graph.input)):
            path = os.path.join(data, f"input_{k}.pb")
            if value_info.name in wanted:
                t = onnx.load_tensor(path)
                t.name = value_info.name
                graph.initializer.append(t)
            else:
                shutil.copy(path, os.path.join(dst, "test_data_set_0", f"input_{len(kept)}.pb"))
                kept.append(value_info)
        del graph.input[:]
        graph.input.extend(kept)
        onnx.save(model, os.path.join(dst, "model.onnx"))
        for f in os.listdir(data):
            if f.startswith("output_"):
                shutil.copy(os.path.join(data, f), os.path.join(dst, "test_data_set_0", f))
        written += 1
    with open(os.path.join(tmp, "onnx_version"), "w") as f:
        f.write(onnx.__version__ + "\n")
    shutil.rmtree(out_dir, ignore_errors=True)
    os.rename(tmp, out_dir)
    return written


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
