#!/usr/bin/env node
// bench_report.js: turns the runs of scripts/bench_vs_ort.sh into its report. No npm dependencies.
//
//   node scripts/bench_report.js --manifest RUNS.jsonl --meta META.json --out DIR [--json]
//
// RUNS.jsonl: one line per process the benchmark ran,
//   {"model", "engine": "sink"|"v2"|"ort", "round", "rc", "out": FILE, "err": FILE}
// where FILE out holds the JSON summary that ge-run --json or bench_ort.js printed, and err its
// stderr. Per line of the manifest also {"model", "engine": "atc", ...} for the conversion, and
// META.json the run's settings ({threads, rounds, runs, warmup, ort_version, roof: ge-conv-roof
// --json, loadavg_start, ...}).
//
// Per model and engine: p50/p90 over every timed run of every round (nearest rank, as ge-run
// picks them), the median load time and peak RSS over the rounds, the golden check (FAIL when
// one round fails), achieved GFLOP/s = the model's FLOPs (ge-run's count, ge-dump flops) / p50,
// and its share of the roof. Ratios are ge / onnxruntime (< 1: ge faster).
// Writes DIR/report.json, DIR/report.md and DIR/report.svg (a bar chart of the ratios) and prints
// the table on stdout (with --json: report.json instead). Exit 1 when a model has an error or a
// wrong output, else 0; 2 on bad arguments.
'use strict';

const fs = require('fs');
const os = require('os');
const path = require('path');

function die(msg) {
  process.stderr.write(`bench_report.js: ${msg}\n`);
  process.exit(2);
}

function parseArgs(argv) {
  const a = { manifest: '', meta: '', out: '', json: false };
  for (let i = 0; i < argv.length; ++i) {
    const k = argv[i];
    const v = () => (i + 1 < argv.length ? argv[++i] : die(`${k} needs a value`));
    if (k === '--manifest') a.manifest = v();
    else if (k === '--meta') a.meta = v();
    else if (k === '--out') a.out = v();
    else if (k === '--json') a.json = true;
    else if (k === '-h' || k === '--help') {
      process.stdout.write(fs.readFileSync(__filename, 'utf8').split('\n').slice(1, 20)
        .map((l) => l.replace(/^\/\/ ?/, '')).join('\n') + '\n');
      process.exit(0);
    } else die(`unknown argument ${k} (see --help)`);
  }
  if (!a.manifest || !a.meta || !a.out) die('--manifest, --meta and --out are required');
  return a;
}

// The JSON a tool printed: the whole file, else its last line that starts with '{'.
function readJson(file) {
  let txt;
  try { txt = fs.readFileSync(file, 'utf8'); } catch (e) { return null; }
  try { return JSON.parse(txt); } catch (e) { /* a log line before it */ }
  const line = txt.split('\n').filter((s) => s.startsWith('{')).pop();
  try { return line ? JSON.parse(line) : null; } catch (e) { return null; }
}

// "TOOL: <last non-empty line of FILE>", shortened, for the note.
function errorLine(tool, file, rc) {
  let l = '';
  try { l = fs.readFileSync(file, 'utf8').split('\n').map((s) => s.trim()).filter((s) => s).pop() || ''; } catch (e) { /* none */ }
  if (rc === 124) l = 'timed out';
  if (!l) l = `exit code ${rc}, no message`;
  if (!l.startsWith(tool + ':')) l = `${tool}: ${l}`;
  return l.slice(0, 160);
}

const percentile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.round(q * (sorted.length - 1)))];
const median = (v) => (v.length ? percentile(v.slice().sort((x, y) => x - y), 0.5) : null);
const geomean = (v) => (v.length ? Math.exp(v.reduce((s, x) => s + Math.log(x), 0) / v.length) : null);
const round = (x, d) => (x === null || x === undefined || !Number.isFinite(x) ? null : Number(x.toFixed(d)));

const ENGINES = ['sink', 'v2', 'ort'];
const TOOL = { sink: 'ge-run', v2: 'ge-run', ort: 'ort', atc: 'ge-atc' };

// One engine's rounds of one model.
function summarize(engine, runs) {
  const samples = [], load = [], rss = [];
  let golden = '', error = '', flops = null;
  for (const r of runs) {
    const j = readJson(r.out);
    const lat = j && j.latency_ms;
    const chk = j && j.compare;
    if (!lat || (r.rc !== 0 && chk !== 'FAIL')) {
      error = error || errorLine(TOOL[engine], r.err, r.rc);
      continue;
    }
    if (Array.isArray(lat.samples)) samples.push(...lat.samples);
    else samples.push(lat.p50);
    if (typeof j.load_ms === 'number') load.push(j.load_ms);
    if (typeof j.peak_rss_mb === 'number') rss.push(j.peak_rss_mb);
    if (typeof j.flops === 'number') flops = j.flops;
    if (chk === 'FAIL') {
      golden = 'FAIL';
      const why = engine === 'ort' ? (j.golden && j.golden.reason) :
        (j.outputs || []).filter((o) => o.pass === false).map((o) => `${o.name}: ${o.reason}`).join('; ');
      error = error || `${engine} output mismatch: ${why}`;
    } else if (chk === 'PASS' && golden !== 'FAIL') golden = 'PASS';
  }
  const sorted = samples.slice().sort((x, y) => x - y);
  return {
    p50_ms: sorted.length ? round(percentile(sorted, 0.5), 4) : null,
    p90_ms: sorted.length ? round(percentile(sorted, 0.9), 4) : null,
    runs: sorted.length,
    load_ms: round(median(load), 1),
    peak_rss_mb: round(median(rss), 1),
    // The spread shows a bimodal engine (onnxruntime's BERT-sized models land near 425 or 610 MB
    // from one process to the next), which the median alone hides.
    peak_rss_mb_min: rss.length ? round(Math.min(...rss), 1) : null,
    peak_rss_mb_max: rss.length ? round(Math.max(...rss), 1) : null,
    golden: golden || '-',
    flops,
    error,
  };
}

function buildReport(manifest, meta) {
  const byModel = new Map();
  for (const r of manifest) {
    if (!byModel.has(r.model)) byModel.set(r.model, []);
    byModel.get(r.model).push(r);
  }
  const roof = meta.roof && typeof meta.roof.gflops_per_s === 'number' ? meta.roof.gflops_per_s : null;
  const models = [];
  for (const [model, runs] of byModel) {
    const row = { model, source: '', flops: null, gflop: null };
    const atc = runs.find((r) => r.engine === 'atc');
    if (atc) {
      row.source = atc.source || '';
      row.atc_s = typeof atc.seconds === 'number' ? atc.seconds : null;
    }
    const errors = [];
    if (atc && atc.rc !== 0) errors.push(errorLine('ge-atc', atc.err, atc.rc));
    for (const e of ENGINES) {
      const s = summarize(e, runs.filter((r) => r.engine === e));
      if (s.error) errors.push(s.error);
      if (e !== 'ort' && s.flops !== null) row.flops = s.flops;
      delete s.error;
      delete s.flops;
      row[e] = s;
    }
    if (row.flops !== null) row.gflop = round(row.flops / 1e9, 4);
    for (const e of ENGINES) {
      const s = row[e];
      s.gflops_per_s = row.flops !== null && s.p50_ms ? round(row.flops / (s.p50_ms * 1e6), 1) : null;
      s.roof_pct = s.gflops_per_s !== null && roof ? round(100 * s.gflops_per_s / roof, 1) : null;
    }
    const ratio = (a, b) => (a && b ? round(a / b, 3) : null);
    row.ratio_sink = ratio(row.sink.p50_ms, row.ort.p50_ms);
    row.ratio_v2 = ratio(row.v2.p50_ms, row.ort.p50_ms);
    row.load_ratio_sink = ratio(row.sink.load_ms, row.ort.load_ms);
    row.rss_ratio_sink = ratio(row.sink.peak_rss_mb, row.ort.peak_rss_mb);
    row.error = errors.join('; ');
    models.push(row);
  }
  const pick = (k) => models.map((m) => m[k]).filter((x) => x !== null && x > 0);
  return {
    meta: Object.assign({ date: new Date().toISOString(), cpu: cpuName(), nproc: os.cpus().length }, meta),
    models,
    summary: {
      models: models.length,
      errors: models.filter((m) => m.error).length,
      geomean_ratio_sink: round(geomean(pick('ratio_sink')), 3),
      geomean_ratio_v2: round(geomean(pick('ratio_v2')), 3),
      max_ratio_sink: pick('ratio_sink').length ? Math.max(...pick('ratio_sink')) : null,
    },
  };
}

function cpuName() {
  const c = os.cpus();
  return c.length ? c[0].model.trim() : 'unknown';
}

const f = (x, d = 2) => (x === null || x === undefined ? '-' : Number(x).toFixed(d));

// The columns of the text and Markdown tables.
const COLUMNS = [
  ['model', (m) => m.model],
  ['GFLOP', (m) => f(m.gflop, 2)],
  ['sink ms', (m) => f(m.sink.p50_ms)],
  ['v2 ms', (m) => f(m.v2.p50_ms)],
  ['ort ms', (m) => f(m.ort.p50_ms)],
  ['sink/ort', (m) => f(m.ratio_sink)],
  ['v2/ort', (m) => f(m.ratio_v2)],
  ['load ms s/v2/ort', (m) => `${f(m.sink.load_ms, 0)}/${f(m.v2.load_ms, 0)}/${f(m.ort.load_ms, 0)}`],
  ['RSS MB s/v2/ort', (m) => `${f(m.sink.peak_rss_mb, 0)}/${f(m.v2.peak_rss_mb, 0)}/${f(m.ort.peak_rss_mb, 0)}`],
  ['GFLOP/s s/ort', (m) => `${f(m.sink.gflops_per_s, 0)}/${f(m.ort.gflops_per_s, 0)}`],
  ['% roof', (m) => f(m.sink.roof_pct, 0)],
  ['golden s/v2/ort', (m) => `${m.sink.golden}/${m.v2.golden}/${m.ort.golden}`],
  ['note', (m) => m.error || ''],
];

function textTable(r) {
  const rows = [COLUMNS.map((c) => c[0])].concat(r.models.map((m) => COLUMNS.map((c) => String(c[1](m)))));
  const w = COLUMNS.map((_, i) => Math.max(...rows.map((row) => (i === COLUMNS.length - 1 ? 0 : row[i].length))));
  const lines = rows.map((row) => row.map((v, i) => (i === 0 || i === COLUMNS.length - 1 ? v.padEnd(w[i]) : v.padStart(w[i]))).join('  ').trimEnd());
  const spread = rssSpread(r);
  const spreadLine = spread.length ? `# peak RSS varied by more than 10 % across the rounds (min-max MB): ${spread.join('; ')}\n` : '';
  return lines.join('\n') + '\n' + summaryLine(r) + '\n' + spreadLine;
}

function summaryLine(r) {
  const s = r.summary;
  const roof = r.meta.roof ? `${f(r.meta.roof.gflops_per_s, 0)} GFLOP/s (${r.meta.roof.shape}, ${r.meta.roof.impl})` : 'not measured';
  return `# geomean sink/ort ${f(s.geomean_ratio_sink)}, v2/ort ${f(s.geomean_ratio_v2)}; ${s.errors} of ${s.models} ` +
    `models with errors or wrong outputs; roof ${roof}`;
}

function markdown(r) {
  const m = r.meta;
  const esc = (s) => String(s).replace(/\|/g, '\\|');
  let s = `# ge vs onnxruntime\n\n`;
  s += `${m.date.slice(0, 10)}, ${m.cpu}, ${m.nproc} cores; threads ${m.threads}; ${m.rounds} rounds x ${m.runs} timed runs ` +
    `(+${m.warmup} warm-up) per engine in fresh processes, alternating; onnxruntime-node ${m.ort_version}; ` +
    `load average at start ${m.loadavg_start}, at end ${m.loadavg_end}.\n\n`;
  s += '| ' + COLUMNS.map((c) => c[0]).join(' | ') + ' |\n';
  s += '|' + COLUMNS.map((_, i) => (i === 0 || i === COLUMNS.length - 1 ? ' --- |' : ' ---: |')).join('') + '\n';
  for (const row of r.models) s += '| ' + COLUMNS.map((c) => esc(c[1](row))).join(' | ') + ' |\n';
  s += `\n${summaryLine(r).replace(/^# /, '')}.\n\n`;
  s += 'ms: p50 latency over every timed run; ratios ge / onnxruntime (< 1: ge faster); load: median process load ' +
    'time; RSS: median peak resident memory of the process; GFLOP/s: the model\'s FLOPs (ge-dump flops) / p50, ' +
    'and as % of the roof (ge-conv-roof); golden: output vs MODEL.output.npy.\n';
  const spread = rssSpread(r);
  if (spread.length) s += `\nPeak RSS varied by more than 10 % across the rounds (min-max MB): ${spread.join('; ')}.\n`;
  return s;
}

// "model engine min-max" for every engine whose peak RSS differs by more than 10 % between rounds.
function rssSpread(r) {
  const out = [];
  for (const row of r.models) {
    for (const e of ENGINES) {
      const x = row[e];
      if (!x || x.peak_rss_mb_min === null || x.peak_rss_mb_max === null) continue;
      if (x.peak_rss_mb_max > 1.1 * x.peak_rss_mb_min) out.push(`${row.model} ${e} ${f(x.peak_rss_mb_min, 0)}-${f(x.peak_rss_mb_max, 0)}`);
    }
  }
  return out;
}

// Two bars per model (sink/ort, v2/ort) against the line at 1.0 (onnxruntime).
function svg(r) {
  const rows = r.models;
  const W = 760, left = 170, right = 70, top = 56, rowH = 34, barH = 12;
  const H = top + rows.length * rowH + 40;
  const vals = rows.flatMap((m) => [m.ratio_sink, m.ratio_v2]).filter((x) => x !== null);
  // The axis ends at 3x at most: one disturbed row must not squash the others; a longer bar is cut
  // at the edge and says its value.
  const max = Math.min(3, Math.max(1.25, ...vals)) * 1.05;
  const x = (v) => left + (W - left - right) * v / max;
  const escape = (s) => String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const out = [];
  out.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="sans-serif" font-size="12">`);
  out.push(`<rect width="${W}" height="${H}" fill="white"/>`);
  out.push(`<text x="${W / 2}" y="20" text-anchor="middle" font-size="15" font-weight="bold">ge latency / onnxruntime latency (p50, lower is better)</text>`);
  out.push(`<text x="${W / 2}" y="38" text-anchor="middle" fill="#555">${escape(`${r.meta.date.slice(0, 10)}, ${r.meta.cpu}, ${r.meta.threads} threads; geomean sink ${f(r.summary.geomean_ratio_sink)}, v2 ${f(r.summary.geomean_ratio_v2)}`)}</text>`);
  for (let t = 0; t <= max; t += 0.25) {
    out.push(`<line x1="${x(t)}" y1="${top - 6}" x2="${x(t)}" y2="${H - 34}" stroke="#eee"/>`);
    out.push(`<text x="${x(t)}" y="${H - 20}" text-anchor="middle" fill="#555">${t.toFixed(2)}</text>`);
  }
  rows.forEach((m, i) => {
    const y = top + i * rowH;
    out.push(`<text x="${left - 8}" y="${y + rowH / 2}" text-anchor="end" dominant-baseline="middle">${escape(m.model)}</text>`);
    [['sink', m.ratio_sink, '#2b6cb0', 3], ['v2', m.ratio_v2, '#8fb8e0', 3 + barH + 2]].forEach(([name, v, color, dy]) => {
      if (v === null) {
        out.push(`<text x="${left + 4}" y="${y + dy + barH - 2}" fill="#c00">${name}: ${escape(m.error ? 'error' : 'n/a')}</text>`);
        return;
      }
      const end = x(Math.min(v, max));
      out.push(`<rect x="${left}" y="${y + dy}" width="${end - left}" height="${barH}" fill="${color}"><title>${escape(`${m.model} ${name}: ${v}x onnxruntime`)}</title></rect>`);
      out.push(`<text x="${v > max ? end - 4 : end + 4}" y="${y + dy + barH - 2}" fill="${v > max ? 'white' : '#333'}"${v > max ? ' text-anchor="end"' : ''}>${v.toFixed(2)}${v > max ? ' &#8594;' : ''}</text>`);
    });
  });
  out.push(`<line x1="${x(1)}" y1="${top - 8}" x2="${x(1)}" y2="${H - 34}" stroke="#c00" stroke-dasharray="4 3"/>`);
  out.push(`<text x="${x(1) + 4}" y="${top - 10}" fill="#c00">onnxruntime = 1</text>`);
  out.push(`<rect x="${left}" y="${H - 12}" width="10" height="10" fill="#2b6cb0"/><text x="${left + 14}" y="${H - 3}">sink</text>`);
  out.push(`<rect x="${left + 60}" y="${H - 12}" width="10" height="10" fill="#8fb8e0"/><text x="${left + 74}" y="${H - 3}">v2</text>`);
  out.push('</svg>');
  return out.join('\n') + '\n';
}

function main() {
  const a = parseArgs(process.argv.slice(2));
  let manifest, meta;
  try {
    manifest = fs.readFileSync(a.manifest, 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l));
    meta = JSON.parse(fs.readFileSync(a.meta, 'utf8'));
  } catch (e) {
    die(`cannot read the manifest or meta: ${e.message}`);
  }
  const r = buildReport(manifest, meta);
  try {
    fs.mkdirSync(a.out, { recursive: true });
    fs.writeFileSync(path.join(a.out, 'report.json'), JSON.stringify(r, null, 2) + '\n');
    fs.writeFileSync(path.join(a.out, 'report.md'), markdown(r));
    fs.writeFileSync(path.join(a.out, 'report.svg'), svg(r));
  } catch (e) {
    die(`cannot write into ${a.out}: ${e.message}`);
  }
  process.stdout.write(a.json ? JSON.stringify(r, null, 2) + '\n' : textTable(r));
  process.exit(r.summary.errors ? 1 : 0);
}

main();
