#!/usr/bin/python3
"""Runs the ONNX backend node test suite through ge-atc and ge-run.

    scripts/onnx_conformance.py --bin build/apps [--suite DIR] [--work DIR]
                                [--json REPORT] [--floor FILE] [-j N] [-k REGEX]

Every case is converted with `ge-atc --framework 5`, run with `ge-run` in v2
mode and in sink mode (every .om ge writes today has static shapes), and each
output is compared with the expected one: exactly for integer and bool
outputs; for floating point |y - ref| <= 1e-4 + 1e-3 * |ref| elementwise, NaN
equal to NaN, and shapes and dtypes equal. A case passes when every mode
matches. Failures are sorted by reason:
  not supported  ge-atc refused the model (an op, dtype, attribute or shape ge lacks)
  wrong result   a mode ran and an output differs
  crash          a tool died on a signal, tripped a sanitizer or timed out (a bug)
  error          a tool failed otherwise (a load or run error)
The last line of the text report is `N passed, N failed`. --const-operands
runs instead the variants of the cases whose shape operands are graph inputs
(which need dynamic shapes) with those operands made constants, as
exporters write them. --json writes the
per-case results and the failures grouped by op type and by reason. --floor
names a file holding the pass count CI expects: fewer fails the run (exit 1),
more says to raise it; any crash fails it too. Exit 0 otherwise, 77 when
onnx or numpy is missing.
Runs under Debian's /usr/bin/python3 (python3-onnx, python3-numpy).
"""
import argparse
import collections
import concurrent.futures
import json
import os
import re
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

try:
    import numpy as np
    import onnx
    from onnx import numpy_helper
except ImportError as e:
    sys.stderr.write(f"onnx_conformance: skipped: {e} (apt-get install python3-onnx python3-numpy)\n")
    sys.exit(77)

import gen_onnx_suite  # noqa: E402

CONVERT_TIMEOUT_S = 120
RUN_TIMEOUT_S = 60
ATOL, RTOL = 1e-4, 1e-3
REASONS = ("not supported", "wrong result", "crash", "error")


def safe_file_name(name):
    """ge-run's output file name for an output (apps/run/run_outputs.cc SafeFileName)."""
    s = re.sub(r"[^A-Za-z0-9_.\-]", "_", name)
    return s or "output"


def first_error_line(text):
    lines = [l.strip() for l in text.splitlines() if l.strip()]
    for l in lines:
        if "error" in l.lower() or "Sanitizer" in l or "runtime error" in l:
            return l[:400]
    return lines[-1][:400] if lines else ""


def run_tool(cmd, timeout):
    """(returncode, stderr+stdout, crashed) for a tool run; a timeout or signal is a crash."""
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, errors="replace", timeout=timeout)
    except subprocess.TimeoutExpired:
        return -1, f"{os.path.basename(cmd[0])}: timed out after {timeout} s", True
    out = p.stderr + p.stdout
    crashed = p.returncode < 0 or "Sanitizer" in p.stderr or "runtime error:" in p.stderr
    if p.returncode < 0:
        out += f"\n{os.path.basename(cmd[0])}: killed by signal {-p.returncode}"
    return p.returncode, out, crashed


def compare(got, ref):
    """None when got matches ref under the suite's criterion, else why not."""
    if got.dtype != ref.dtype:
        return f"dtype {got.dtype}, expected {ref.dtype}"
    if got.shape != ref.shape:
        return f"shape {list(got.shape)}, expected {list(ref.shape)}"
    if got.size == 0:
        return None
    if np.issubdtype(ref.dtype, np.floating):
        g, r = got.astype(np.float64), ref.astype(np.float64)
        both_nan = np.isnan(g) & np.isnan(r)
        with np.errstate(invalid="ignore"):
            ok = both_nan | (g == r) | (np.abs(g - r) <= ATOL + RTOL * np.abs(r))
        if ok.all():
            return None
        bad = np.argwhere(~ok)
        i = tuple(bad[0])
        return f"{len(bad)} of {ref.size} values differ, first at {list(i)}: {g[i]!r} vs {r[i]!r}"
    ok = got == ref
    if ok.all():
        return None
    bad = np.argwhere(~ok)
    i = tuple(bad[0])
    return f"{len(bad)} of {ref.size} values differ, first at {list(i)}: {got[i]!r} vs {ref[i]!r}"


def case_ops(model_path):
    try:
        m = onnx.load(model_path, load_external_data=False)
    except Exception:  # a model the onnx package cannot read is ge-atc's to report
        return []
    return sorted({n.op_type for n in m.graph.node})


def op_group(case):
    """The op type a case is filed under: the failing node's op when ge-atc names one, else the model's op."""
    m = re.search(r"\(([A-Za-z][A-Za-z0-9_]*)\)", case.get("message", ""))
    if m and m.group(1) in case["ops"]:
        return m.group(1)
    if len(case["ops"]) == 1:
        return case["ops"][0]
    # Expanded function bodies and multi-node cases: file them under the case's name.
    base = re.sub(r"^test_", "", case["name"])
    return "(" + base.split("_")[0] + " ...)" if case["ops"] else "(no ops)"


def run_case(name, node_dir, bin_dir, work_dir, modes):
    case_dir = os.path.join(node_dir, name)
    model = os.path.join(case_dir, "model.onnx")
    data = os.path.join(case_dir, "test_data_set_0")
    result = {"name": name, "ops": case_ops(model), "status": "fail", "reason": "", "stage": "", "message": ""}

    def fail(reason, stage, message):
        result.update(reason=reason, stage=stage, message=message)
        return result

    out_dir = os.path.join(work_dir, name)
    shutil.rmtree(out_dir, ignore_errors=True)
    os.makedirs(out_dir)
    om = os.path.join(out_dir, "model")
    rc, out, crashed = run_tool([os.path.join(bin_dir, "ge-atc"), "--model", model, "--framework", "5",
                                 "--output", om, "--log", "error"], CONVERT_TIMEOUT_S)
    if crashed:
        return fail("crash", "convert", first_error_line(out))
    if rc != 0:
        msg = first_error_line(out)
        low = msg.lower()
        unsupported = ("not supported" in low or "unsupported" in low or "dynamic shape" in low
                       or "does not support" in low or "cannot hold" in low)
        return fail("not supported" if unsupported else "error", "convert", msg)

    inputs = sorted((f for f in os.listdir(data) if f.startswith("input_")), key=lambda f: int(f[6:-3]))
    outputs = sorted((f for f in os.listdir(data) if f.startswith("output_")), key=lambda f: int(f[7:-3]))
    refs = []
    for f in outputs:
        t = onnx.TensorProto()
        try:
            with open(os.path.join(data, f), "rb") as fh:
                t.ParseFromString(fh.read())
            refs.append(numpy_helper.to_array(t))
        except Exception:  # a sequence or map: the model's output is not a tensor
            return fail("not supported", "reference", f"{f} is not a tensor (a sequence or map output)")

    for mode in modes:
        res_dir = os.path.join(out_dir, mode)
        cmd = [os.path.join(bin_dir, "ge-run"), "--model", om + ".om", "--mode", mode, "--output", res_dir, "--json"]
        if inputs:
            cmd += ["--input", ",".join(os.path.join(data, f) for f in inputs)]
        rc, out, crashed = run_tool(cmd, RUN_TIMEOUT_S)
        if crashed:
            return fail("crash", mode, first_error_line(out))
        if rc != 0:
            if mode == "sink" and "has dynamic shapes" in out:
                continue  # sink runs static models only; v2 ran this one
            return fail("error", mode, first_error_line(out))
        try:
            report = json.loads(out[out.index("{"):])
            names = [o["name"] for o in report["outputs"]]
        except (ValueError, KeyError) as e:
            return fail("error", mode, f"ge-run --json printed no report: {e}")
        if len(names) != len(refs):
            return fail("wrong result", mode, f"{len(names)} outputs, expected {len(refs)}")
        for k, (oname, ref) in enumerate(zip(names, refs)):
            path = os.path.join(res_dir, safe_file_name(oname) + ".npy")
            try:
                got = np.load(path)
            except (OSError, ValueError) as e:
                return fail("error", mode, f"output {k} ({oname}): cannot read {path}: {e}")
            why = compare(got, ref)
            if why:
                return fail("wrong result", mode, f"output {k} ({oname}): {why}")
    shutil.rmtree(out_dir, ignore_errors=True)  # keep only what a failure needs looking at
    result.update(status="pass")
    return result


def group_failures(cases):
    by_op = collections.defaultdict(lambda: {"count": 0, "reasons": collections.Counter(), "cases": []})
    for c in cases:
        if c["status"] == "pass":
            continue
        g = by_op[op_group(c)]
        g["count"] += 1
        g["reasons"][c["reason"]] += 1
        g["cases"].append(c["name"])
    ordered = sorted(by_op.items(), key=lambda kv: (-kv[1]["count"], kv[0]))
    return {op: {"count": g["count"], "reasons": dict(g["reasons"]), "cases": g["cases"]} for op, g in ordered}


def failure_table(by_op):
    lines = [f"{'op type':<34} {'cases':>5}  reasons"]
    for op, g in by_op.items():
        reasons = ", ".join(f"{r} {n}" for r, n in sorted(g["reasons"].items(), key=lambda kv: -kv[1]))
        lines.append(f"{op:<34} {g['count']:>5}  {reasons}")
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", required=True, help="directory holding ge-atc and ge-run (build/apps)")
    ap.add_argument("--suite", default="build/onnx-suite", help="where the suite is generated (default build/onnx-suite)")
    ap.add_argument("--work", default="build/conformance", help="scratch directory: a failing case's .om and outputs")
    ap.add_argument("--json", help="write the JSON report here")
    ap.add_argument("--floor", help="file holding the minimum pass count (tests/conformance/floor.txt)")
    ap.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 2, help="cases run at once (default: cores)")
    ap.add_argument("-k", "--filter", default="", help="only cases whose name matches this regex")
    ap.add_argument("--modes", default="v2,sink", help="ge-run modes to check (default v2,sink)")
    ap.add_argument("--const-operands", action="store_true",
                    help="run the variants of the cases whose shape operands (Reshape's shape, Resize's scales, "
                         "...) are graph inputs, with those operands made constants as exporters write them "
                         "(generated into SUITE-const)")
    ap.add_argument("--table", action="store_true", help="print the failure table grouped by op type")
    ap.add_argument("-v", "--verbose", action="store_true", help="print every failing case with its reason")
    args = ap.parse_args()

    for tool in ("ge-atc", "ge-run"):
        if not os.access(os.path.join(args.bin, tool), os.X_OK):
            sys.stderr.write(f"onnx_conformance: error: --bin: no {tool} in {args.bin}\n")
            return 2
    modes = [m for m in args.modes.split(",") if m]
    if not modes or any(m not in ("v2", "sink") for m in modes):
        sys.stderr.write(f"onnx_conformance: error: --modes: '{args.modes}': give v2, sink or v2,sink\n")
        return 2
    try:
        pattern = re.compile(args.filter)
    except re.error as e:
        sys.stderr.write(f"onnx_conformance: error: --filter: {e}\n")
        return 2

    node_dir = gen_onnx_suite.generate(args.suite)
    if args.const_operands:
        const_dir = args.suite.rstrip("/") + "-const"
        gen_onnx_suite.make_const_variants(node_dir, const_dir)
        node_dir = os.path.join(const_dir, "node")
    names = sorted(n for n in os.listdir(node_dir) if pattern.search(n))
    os.makedirs(args.work, exist_ok=True)
    start = time.monotonic()
    cases = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        futures = [pool.submit(run_case, n, node_dir, os.path.abspath(args.bin), args.work, modes) for n in names]
        for i, fut in enumerate(futures, 1):
            cases.append(fut.result())
            if sys.stderr.isatty() or i % 100 == 0 or i == len(futures):
                sys.stderr.write(f"\ronnx_conformance: {i}/{len(futures)} cases, {time.monotonic() - start:.0f} s")
                if not sys.stderr.isatty() or i == len(futures):
                    sys.stderr.write("\n")
                sys.stderr.flush()
    passed = sum(c["status"] == "pass" for c in cases)
    failed = len(cases) - passed
    by_reason = collections.Counter(c["reason"] for c in cases if c["status"] != "pass")
    by_op = group_failures(cases)

    if args.verbose:
        for c in cases:
            if c["status"] != "pass":
                print(f"FAIL {c['name']}: {c['reason']} ({c['stage']}): {c['message']}")
    if args.table and by_op:
        print(failure_table(by_op))
    crashes = [c for c in cases if c["reason"] == "crash"]
    for c in crashes:
        print(f"CRASH {c['name']} ({c['stage']}): {c['message']}")
    print("failures by reason: " + (", ".join(f"{r} {by_reason[r]}" for r in REASONS if by_reason[r]) or "none"))
    print(f"{passed} passed, {failed} failed")

    if args.json:
        report = {
            "onnx_version": onnx.__version__,
            "variant": "const-operands" if args.const_operands else "suite",
            "modes": modes,
            "criterion": f"float: |y-ref| <= {ATOL} + {RTOL}*|ref|, NaN == NaN; int and bool: exact",
            "seconds": round(time.monotonic() - start, 1),
            "passed": passed,
            "failed": failed,
            "by_reason": {r: by_reason[r] for r in REASONS},
            "failures_by_op": by_op,
            "cases": cases,
        }
        tmp = args.json + ".tmp"
        with open(tmp, "w") as f:
            json.dump(report, f, indent=1)
        os.replace(tmp, args.json)

    status = 1 if crashes else 0  # a crash is a bug to fix, never a failure to count
    if args.floor and not args.filter:
        try:
            floor = int(open(args.floor).read().split()[0])
        except (OSError, ValueError, IndexError) as e:
            sys.stderr.write(f"onnx_conformance: error: --floor: {args.floor}: {e}\n")
            return 2
        if passed < floor:
            print(f"onnx_conformance: FAIL: {passed} passed is below the floor of {floor} ({args.floor})")
            status = 1
        elif passed > floor:
            print(f"onnx_conformance: the count rose: raise the floor with `echo {passed} > {args.floor}`")
    return status


if __name__ == "__main__":
    sys.exit(main())
