#!/usr/bin/python3
"""Generates docs/onnx-support.md: the ONNX ops ge supports, with their opset
versions and the dtypes the backend test suite saw passing, the ONNX ops it
does not support, and the suite's known failures with their reasons.

    scripts/gen_onnx_support.py --bin build/apps --report build/conformance/report.json \\
        [--suite build/onnx-suite] [--out docs/onnx-support.md] [--check]

Its sources, none written by hand:
  - the op registry, as `ge-atc --list_ops --json` prints it (which op types
    this build knows and which have a CPU kernel);
  - the installed onnx package's operator schemas (opset versions, type
    constraints, which ops exist);
  - a conformance report (`scripts/onnx_conformance.py --json`, or the one the
    ctest onnx_conformance writes) and the suite's models: per op, the dtypes
    of every type constraint in the cases that passed.
--check compares instead of writing and exits 1 when the page is stale (ctest onnx_support_doc,
after onnx_conformance); 77 when onnx or, with --check, the report is missing.
Runs under Debian's /usr/bin/python3 (python3-onnx).
"""
import argparse
import collections
import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen_onnx_suite  # noqa: E402

MAX_OPSET = 17  # kMaxNativeOnnxOpset (parsers/include/ge_parsers/onnx_parser.h)
MIN_NATIVE_OPSET = 11

DTYPE_NAMES = {
    1: "float", 2: "uint8", 3: "int8", 4: "uint16", 5: "int16", 6: "int32", 7: "int64", 8: "string",
    9: "bool", 10: "float16", 11: "double", 12: "uint32", 13: "uint64", 14: "complex64",
    15: "complex128", 16: "bfloat16",
}
DTYPE_ORDER = ["float", "double", "float16", "bfloat16", "int8", "int16", "int32", "int64", "uint8",
               "uint16", "uint32", "uint64", "bool", "string", "complex64", "complex128"]


def registry_ops(bin_dir):
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "ops.json")
        subprocess.run([os.path.join(bin_dir, "ge-atc"), "--list_ops", "--json", path], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        return {e["type"]: e for e in json.load(open(path))["ops"]}


def onnx_schemas(onnx):
    """name -> list of schemas of the default domain up to MAX_OPSET, oldest first."""
    out = collections.defaultdict(list)
    for s in onnx.defs.get_all_schemas_with_history():
        if s.domain in ("", "ai.onnx") and s.since_version <= MAX_OPSET:
            out[s.name].append(s)
    for v in out.values():
        v.sort(key=lambda s: s.since_version)
    return out


def elem_types(onnx, model):
    """value name -> elem_type of every tensor value of the top graph."""
    try:
        model = onnx.shape_inference.infer_shapes(model)
    except Exception:  # the suite's models are valid; a failure only loses dtypes
        pass
    g = model.graph
    types = {t.name: t.data_type for t in g.initializer}
    for vi in list(g.input) + list(g.output) + list(g.value_info):
        if vi.type.HasField("tensor_type"):
            types[vi.name] = vi.type.tensor_type.elem_type
    return types


def formal_types(schema, n_inputs, n_outputs):
    """The type constraint name of each actual input and output (variadic last formals repeat)."""
    def expand(formals, n):
        names = [f.typeStr for f in formals]
        if not names:
            return []
        return [names[min(i, len(names) - 1)] for i in range(n)]
    return expand(schema.inputs, n_inputs), expand(schema.outputs, n_outputs)


def passing_dtypes(onnx, node_dir, cases, schemas):
    """op -> {type constraint -> set of dtype names} over the nodes of passing cases."""
    seen = collections.defaultdict(lambda: collections.defaultdict(set))
    for c in cases:
        if c["status"] != "pass":
            continue
        path = os.path.join(node_dir, c["name"], "model.onnx")
        if not os.path.isfile(path):
            continue
        model = onnx.load(path)
        opset = max((o.version for o in model.opset_import if o.domain in ("", "ai.onnx")), default=MAX_OPSET)
        types = elem_types(onnx, model)
        for n in model.graph.node:
            versions = [s for s in schemas.get(n.op_type, []) if s.since_version <= opset]
            if n.domain not in ("", "ai.onnx") or not versions:
                continue
            ins, outs = formal_types(versions[-1], len(n.input), len(n.output))
            for names, formals in ((n.input, ins), (n.output, outs)):
                for name, formal in zip(names, formals):
                    # A formal with a fixed type (tensor(int64)) names the type itself.
                    if name and name in types and not formal.startswith("tensor("):
                        seen[n.op_type][formal].add(DTYPE_NAMES.get(types[name], str(types[name])))
    return seen


def dtype_cell(constraints):
    if not constraints:
        return "—"
    parts = []
    for formal in sorted(constraints):
        names = sorted(constraints[formal], key=lambda d: DTYPE_ORDER.index(d) if d in DTYPE_ORDER else 99)
        parts.append(f"{formal}: {', '.join(names)}")
    return "; ".join(parts)


def case_counts(cases):
    counts = collections.defaultdict(lambda: [0, 0])
    for c in cases:
        for op in set(c["ops"]):
            counts[op][1] += 1
            counts[op][0] += c["status"] == "pass"
    return counts


# Ops the ONNX parser turns into something else instead of an op of the registry.
PARSER_OPS = {"Constant": "becomes a constant tensor (Const) of the graph"}

# Why a whole family is missing, for ops the suite gives no error message for.
FAMILY_REASONS = [
    (("Sequence", "SplitToSequence", "ConcatFromSequence"), "sequence types: ge's values are dense tensors"),
    (("Optional",), "optional types: ge's values are dense tensors"),
    (("String", "TfIdf", "RegexFullMatch"), "string tensors: ge holds no strings"),
    (("Random", "Bernoulli", "Multinomial"), "random generators are not implemented (no deterministic golden)"),
]


def first_message(cases, op):
    for c in cases:
        if c["status"] != "pass" and op in c["ops"] and c["message"]:
            return strip_path(c["message"])
    return ""


def strip_path(message):
    """'ge-atc: error: /x/node/CASE/model.onnx: msg' -> 'ge-atc: msg' (the case is named elsewhere);
    other paths into the suite lose the suite's directory, which differs between runs."""
    message = re.sub(r"\S*/node/", "", message)
    for tool in ("ge-atc", "ge-run"):
        head = tool + ": error: "
        if message.startswith(head):
            rest = message[len(head):]
            path, sep, msg = rest.partition(": ")
            if sep and path.endswith(".onnx"):
                return f"{tool}: {msg}"
    return message


def missing_reason(cases, op):
    for prefixes, reason in FAMILY_REASONS:
        if op.startswith(prefixes):
            return reason
    msg = first_message(cases, op)
    return md_escape(msg) if msg else "not implemented"


def md_escape(text, limit=160):
    text = " ".join(text.split()).replace("|", "\\|")
    return text if len(text) <= limit else text[:limit - 1] + "…"


def render(onnx, registry, schemas, report, dtypes):
    cases = report["cases"]
    counts = case_counts(cases)
    supported = sorted(op for op in schemas if op in registry and registry[op]["kernel"]
                       or op in registry and op in ("If", "Loop", "Scan") or op in PARSER_OPS)
    deprecated = {op for op, v in schemas.items() if v[-1].deprecated}
    missing = sorted(op for op in schemas if op not in supported and op not in deprecated)
    out = []
    w = out.append
    w("# ONNX support")
    w("")
    w("<!-- Generated by scripts/gen_onnx_support.py; do not edit by hand. -->")
    w("")
    w(f"Generated from this build's op registry (`ge-atc --list_ops`), the operator schemas of the "
      f"installed onnx {onnx.__version__}, and a run of the ONNX backend node test suite "
      f"([conformance.md](conformance.md)): **{report['passed']} passed, {report['failed']} failed** "
      f"of {report['passed'] + report['failed']} cases ({', '.join(report['modes'])} modes). "
      f"Regenerate with:")
    w("")
    w("```sh")
    w("scripts/onnx_conformance.py --bin build/apps --json build/conformance/report.json")
    w("scripts/gen_onnx_support.py --bin build/apps --report build/conformance/report.json")
    w("```")
    w("")
    w(f"**Opsets.** Models of opset {MIN_NATIVE_OPSET} to {MAX_OPSET} (default domain) are taken as "
      f"they are; older ones are first converted to opset 13 by the onnx version converter, and newer "
      f"ones are refused. The *versions* column lists the opsets in which the op's definition changed "
      f"(up to {MAX_OPSET}); a model uses the newest one at or below its own opset. Only the default "
      f"ONNX domain is supported (no `ai.onnx.ml`, no custom domains).")
    w("")
    w("**Dtypes.** The dtypes column gives, per type constraint of the schema, the dtypes of the "
      "values the op had in suite cases that passed: what is verified, not a promise for the rest. "
      "A dtype outside it is either refused at conversion with a message naming the node, or ran "
      "correctly but has no case. `—`: the suite has no passing case that uses the op.")
    w("")
    w(f"## Supported ops ({len(supported)})")
    w("")
    w("| op | versions | dtypes verified by the suite | suite cases passed |")
    w("|---|---|---|---|")
    for op in supported:
        versions = ", ".join(str(s.since_version) for s in schemas[op])
        passed, total = counts.get(op, (0, 0))
        notes = []
        if op in PARSER_OPS:
            notes.append(PARSER_OPS[op])
        elif registry[op]["computed_shape"]:
            notes.append("output shape computed at run time (v2)")
        cell = f"{passed}/{total}" if total else "no case"
        if notes:
            cell += " · " + "; ".join(notes)
        w(f"| {op} | {versions} | {dtype_cell(dtypes.get(op))} | {cell} |")
    w("")
    w(f"## ONNX ops not supported ({len(missing)})")
    w("")
    w(f"Operators of the default domain up to opset {MAX_OPSET} that ge refuses, naming the node. "
      f"Deprecated ones ({', '.join(sorted(deprecated)) or 'none'}) are left out.")
    w("")
    w("| op | why |")
    w("|---|---|")
    for op in missing:
        w(f"| {op} | {missing_reason(cases, op)} |")
    w("")
    w(f"## Known failures ({report['failed']})")
    w("")
    w("Every suite case that fails, grouped by op type, with the reason and the first error line of "
      "the group's first case (reasons: [conformance.md](conformance.md#failures)).")
    w("")
    w("| op type | cases | reasons | first error |")
    w("|---|---|---|---|")
    by_name = {c["name"]: c for c in cases}
    for op, g in report["failures_by_op"].items():
        reasons = ", ".join(f"{r} {n}" for r, n in sorted(g["reasons"].items(), key=lambda kv: -kv[1]))
        first = strip_path(by_name.get(g["cases"][0], {}).get("message", ""))
        w(f"| {op} | {g['count']} | {reasons} | {md_escape(first)} |")
    w("")
    return "\n".join(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", required=True, help="directory holding ge-atc (build/apps)")
    ap.add_argument("--report", required=True, help="a conformance report (onnx_conformance.py --json)")
    ap.add_argument("--suite", default="build/onnx-suite", help="the generated suite (default build/onnx-suite)")
    ap.add_argument("--out", default=os.path.join(os.path.dirname(__file__), "..", "docs", "onnx-support.md"))
    ap.add_argument("--check", action="store_true", help="exit 1 if --out differs instead of writing it")
    args = ap.parse_args()
    try:
        import onnx
    except ImportError:
        sys.stderr.write("gen_onnx_support: skipped: no onnx module: run with Debian's /usr/bin/python3\n")
        return 77
    if args.check and not os.path.isfile(args.report):
        sys.stderr.write(f"gen_onnx_support: skipped: no report {args.report} (the conformance run skipped)\n")
        return 77
    try:
        report = json.load(open(args.report))
    except (OSError, ValueError) as e:
        sys.stderr.write(f"gen_onnx_support: error: --report {args.report}: {e}\n")
        return 2
    if report.get("variant") != "suite":
        sys.stderr.write(f"gen_onnx_support: error: --report {args.report}: give the plain suite's report, "
                         f"not the {report.get('variant')} one\n")
        return 2
    try:
        registry = registry_ops(args.bin)
    except (OSError, subprocess.CalledProcessError) as e:
        sys.stderr.write(f"gen_onnx_support: error: --bin {args.bin}: ge-atc --list_ops failed: {e}\n")
        return 2
    node_dir = gen_onnx_suite.generate(args.suite)
    schemas = onnx_schemas(onnx)
    text = render(onnx, registry, schemas, report, passing_dtypes(onnx, node_dir, report["cases"], schemas))
    if args.check:
        current = open(args.out).read() if os.path.isfile(args.out) else ""
        if current != text:
            sys.stderr.write(f"gen_onnx_support: {args.out} is stale: regenerate it (see its header)\n")
            return 1
        return 0
    tmp = args.out + ".tmp"
    with open(tmp, "w") as f:
        f.write(text)
    os.replace(tmp, args.out)
    print(f"gen_onnx_support: wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
