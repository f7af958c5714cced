#!/usr/bin/env node
// bench_ort.js: time one ONNX model on onnxruntime-node (CPU execution provider) and print a
// one-line JSON summary. Used by scripts/bench_vs_ort.sh as the baseline for ge-run.
//
//   node scripts/bench_ort.js --model M.onnx --input M.input.npy [--golden M.output.npy]
//        [--runs 20] [--warmup 5] [--threads 2] [--ort-dir ~/.cache/ge-ort]
//
// Session: intraOpNumThreads = --threads, interOpNumThreads = 1, executionMode 'sequential',
// graphOptimizationLevel 'all', executionProviders ['cpu']. Latency is wall time around one
// `await session.run(feeds)` (process.hrtime), percentiles picked the way ge-run picks them:
// sorted[min(n-1, round(q*(n-1)))].
// The summary also gives load_ms (InferenceSession.create), every timed run (latency_ms.samples)
// and peak_rss_mb (the process's peak resident memory, process.resourceUsage().maxRSS, as ge-run's).
// --golden checks the first output with the reference-model criterion:
//   max|y - ref| <= 1e-3 * max|ref| + 1e-5  and  cosine(y, ref) >= 0.99999.
// onnxruntime-node is loaded from <ort-dir>/node_modules (default $ORT_DIR or ~/.cache/ge-ort),
// falling back to the normal Node resolution.
'use strict';

const fs = require('fs');
const os = require('os');
const path = require('path');

function die(msg) {
  process.stderr.write(`bench_ort.js: ${msg}\n`);
  process.exit(2);
}

function parseArgs(argv) {
  const a = {
    model: '', input: '', golden: '', runs: 20, warmup: 5, threads: 2,
    ortDir: process.env.ORT_DIR || path.join(os.homedir(), '.cache', 'ge-ort'),
  };
  for (let i = 0; i < argv.length; ++i) {
    const k = argv[i];
    const v = () => {
      if (i + 1 >= argv.length) die(`${k} needs a value`);
      return argv[++i];
    };
    switch (k) {
      case '--model': a.model = v(); break;
      case '--input': a.input = v(); break;
      case '--golden': a.golden = v(); break;
      case '--runs': a.runs = parseInt(v(), 10); break;
      case '--warmup': a.warmup = parseInt(v(), 10); break;
      case '--threads': a.threads = parseInt(v(), 10); break;
      case '--ort-dir': a.ortDir = v(); break;
      case '-h': case '--help':
        process.stdout.write(fs.readFileSync(__filename, 'utf8').split('\n').slice(1, 17)
          .map((l) => l.replace(/^\/\/ ?/, '')).join('\n') + '\n');
        process.exit(0);
      default: die(`unknown argument ${k} (see --help)`);
    }
  }
  if (!a.model) die('--model is required');
  if (!a.input) die('--input is required');
  if (!(a.runs >= 1)) die('--runs must be >= 1');
  if (!(a.warmup >= 0)) die('--warmup must be >= 0');
  if (!(a.threads >= 1)) die('--threads must be >= 1');
  return a;
}

// Minimal .npy reader (format versions 1.0, 2.0, 3.0; C order; little-endian numeric dtypes).
const kNpyTypes = {
  '<f4': { ort: 'float32', Array: Float32Array, size: 4 },
  '<f8': { ort: 'float64', Array: Float64Array, size: 8 },
  '<i8': { ort: 'int64', Array: BigInt64Array, size: 8 },
  '<i4': { ort: 'int32', Array: Int32Array, size: 4 },
  '|u1': { ort: 'uint8', Array: Uint8Array, size: 1 },
  '|i1': { ort: 'int8', Array: Int8Array, size: 1 },
  '|b1': { ort: 'bool', Array: Uint8Array, size: 1 },
};

function readNpy(file) {
  const buf = fs.readFileSync(file);
  if (buf.length < 10 || buf[0] !== 0x93 || buf.toString('latin1', 1, 6) !== 'NUMPY')
    throw new Error(`${file}: not a .npy file`);
  const major = buf[6];
  let headerLen, headerStart;
  if (major === 1) { headerLen = buf.readUInt16LE(8); headerStart = 10; }
  else if (major === 2 || major === 3) { headerLen = buf.readUInt32LE(8); headerStart = 12; }
  else throw new Error(`${file}: unsupported .npy version ${major}`);
  const header = buf.toString('latin1', headerStart, headerStart + headerLen);
  const descr = /'descr'\s*:\s*'([^']+)'/.exec(header);
  const fortran = /'fortran_order'\s*:\s*(True|False)/.exec(header);
  const shape = /'shape'\s*:\s*\(([^)]*)\)/.exec(header);
  if (!descr || !fortran || !shape) throw new Error(`${file}: cannot parse header ${header.trim()}`);
  if (fortran[1] === 'True') throw new Error(`${file}: fortran_order arrays are not supported`);
  let d = descr[1];
  if (d[0] === '=') d = '<' + d.slice(1);  // native order; this only runs on little-endian x64
  const t = kNpyTypes[d];
  if (!t) throw new Error(`${file}: dtype ${descr[1]} not supported (supported: ${Object.keys(kNpyTypes).join(' ')})`);
  const dims = shape[1].split(',').map((s) => s.trim()).filter((s) => s.length).map((s) => parseInt(s, 10));
  const n = dims.reduce((x, y) => x * y, 1);
  const offset = headerStart + headerLen;
  if (buf.length - offset < n * t.size) throw new Error(`${file}: truncated (${n} x ${d} expected)`);
  // Copy into a fresh, aligned ArrayBuffer (the Buffer may share a pool and be unaligned).
  const ab = buf.buffer.slice(buf.byteOffset + offset, buf.byteOffset + offset + n * t.size);
  return { dtype: d, ortType: t.ort, dims, data: new t.Array(ab) };
}

function toNumbers(data) {
  const out = new Float64Array(data.length);
  for (let i = 0; i < data.length; ++i) out[i] = Number(data[i]);
  return out;
}

// The README / ge-run --compare criterion.
function compare(y, ref) {
  if (y.length !== ref.length) return { pass: false, reason: `element count ${y.length} vs golden ${ref.length}` };
  const a = toNumbers(y), b = toNumbers(ref);
  let maxDiff = 0, maxRef = 0, dot = 0, na = 0, nb = 0, finite = true;
  for (let i = 0; i < a.length; ++i) {
    if (!Number.isFinite(a[i])) finite = false;
    maxDiff = Math.max(maxDiff, Math.abs(a[i] - b[i]));
    maxRef = Math.max(maxRef, Math.abs(b[i]));
    dot += a[i] * b[i]; na += a[i] * a[i]; nb += b[i] * b[i];
  }
  const cosine = na === 0 && nb === 0 ? 1 : (na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb));
  const tol = 1e-3 * maxRef + 1e-5;
  const pass = finite && maxDiff <= tol && cosine >= 0.99999;
  const r = { pass, max_abs_diff: maxDiff, max_abs_ref: maxRef, cosine };
  if (!pass) r.reason = !finite ? 'non-finite output' : (maxDiff > tol ? `max abs diff ${maxDiff} > ${tol}` : `cosine ${cosine} < 0.99999`);
  return r;
}

function percentile(sorted, q) {
  return sorted[Math.min(sorted.length - 1, Math.round(q * (sorted.length - 1)))];
}

function loadOrt(ortDir) {
  const candidates = [path.join(ortDir, 'node_modules', 'onnxruntime-node'), 'onnxruntime-node'];
  let lastErr;
  for (const c of candidates) {
    try { return require(c); } catch (e) { lastErr = e; }
  }
  die(`cannot load onnxruntime-node (looked in ${candidates[0]}): ${String(lastErr && lastErr.message).split('\n')[0]}`);
}

async function main() {
  const a = parseArgs(process.argv.slice(2));
  const ort = loadOrt(a.ortDir);
  const input = readNpy(a.input);
  const golden = a.golden ? readNpy(a.golden) : null;

  const opts = {
    executionProviders: ['cpu'],
    graphOptimizationLevel: 'all',
    intraOpNumThreads: a.threads,
    interOpNumThreads: 1,
    executionMode: 'sequential',
  };
  const t0 = process.hrtime.bigint();
  const session = await ort.InferenceSession.create(a.model, opts);
  const loadMs = Number(process.hrtime.bigint() - t0) / 1e6;
  if (session.inputNames.length !== 1)
    die(`${a.model} has ${session.inputNames.length} inputs (${session.inputNames.join(', ')}); only one-input models are supported`);
  const feeds = { [session.inputNames[0]]: new ort.Tensor(input.ortType, input.data, input.dims) };

  let out;
  for (let i = 0; i < a.warmup; ++i) out = await session.run(feeds);
  const ms = [];
  for (let i = 0; i < a.runs; ++i) {
    const s = process.hrtime.bigint();
    out = await session.run(feeds);
    ms.push(Number(process.hrtime.bigint() - s) / 1e6);
  }
  const sorted = ms.slice().sort((x, y) => x - y);
  const outName = session.outputNames[0];
  const y = out[outName];
  const r = {
    model: path.basename(a.model),
    ort_version: (ort.env && ort.env.versions && ort.env.versions.node) || 'unknown',
    session: { intra_op_threads: a.threads, inter_op_threads: 1, execution_mode: 'sequential', graph_optimization_level: 'all', ep: 'cpu' },
    input: { name: session.inputNames[0], dtype: input.ortType, dims: input.dims },
    output: { name: outName, dtype: y.type, dims: y.dims },
    load_ms: loadMs,
    latency_ms: {
      runs: a.runs, warmup: a.warmup,
      p50: percentile(sorted, 0.5), p90: percentile(sorted, 0.9), p99: percentile(sorted, 0.99),
      mean: ms.reduce((x, v) => x + v, 0) / ms.length, min: sorted[0], samples: ms,
    },
  };
  if (golden) {
    const c = compare(y.data, golden.data);
    if (c.pass && y.dims.join(',') !== golden.dims.join(',')) {
      c.pass = false;
      c.reason = `shape [${y.dims}] vs golden [${golden.dims}]`;
    }
    r.compare = c.pass ? 'PASS' : 'FAIL';
    r.golden = c;
  }
  // Peak RSS after the runs: the session, its arena and Node itself (ru_maxrss, KiB on Linux).
  r.peak_rss_mb = process.resourceUsage().maxRSS / 1024;
  process.stdout.write(JSON.stringify(r) + '\n');
  if (session.release) await session.release();
}

main().catch((e) => die(String(e && e.message ? e.message : e).split('\n')[0]));
