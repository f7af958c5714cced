#include "ge/tools/dump_compare.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <set>
#include <utility>

#include <nlohmann/json.hpp>

#include "ge/ir/tensor.h"

namespace ge::tools {
namespace {

std::string OpKey(const std::string& node, int32_t output) { return node + ":" + std::to_string(output); }

// The ops compared in both dumps that feed `node` in A, looking through the
// ops only A has (a TransData of one layout) to what feeds them, depth first
// in input order. An explicit stack (an op and its next input) instead of
// recursion: a chain of A-only ops as long as the model fits in memory.
void CollectComparedInputs(const std::string& node, const std::map<std::string, const DumpedOp*>& a_nodes,
                           const std::set<std::string>& compared, std::set<std::string>& seen,
                           std::vector<std::string>& out) {
  std::vector<std::pair<const DumpedOp*, size_t>> stack;
  auto enter = [&](const std::string& n) {
    auto it = a_nodes.find(n);
    if (it != a_nodes.end()) stack.emplace_back(it->second, 0);
  };
  enter(node);
  while (!stack.empty()) {
    const DumpedOp* op = stack.back().first;
    const size_t next = stack.back().second++;
    if (next == op->inputs.size()) {
      stack.pop_back();
      continue;
    }
    const std::string& in = op->inputs[next];
    if (!seen.insert(in).second) continue;
    if (compared.count(in)) out.push_back(in);
    else enter(in);
  }
}

std::string Number(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return "inf";
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.6g", v);
  return buf;
}

nlohmann::json JsonNumber(double v) { return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(); }

std::string Why(const OpPair& p, const DumpThresholds& t) {
  if (!p.mismatch.empty()) return p.mismatch;
  if (p.errors.nonfinite_mismatches) return std::to_string(p.errors.nonfinite_mismatches) + " elements NaN/Inf in one dump only";
  std::string s;
  if (p.errors.cosine < t.cosine) s = "cosine " + Number(p.errors.cosine) + " < " + Number(t.cosine);
  if (p.errors.max_rel > t.rtol)
    s += (s.empty() ? "" : ", ") + std::string("max rel ") + Number(p.errors.max_rel) + " > " + Number(t.rtol);
  return s + " (max abs " + Number(p.errors.max_abs) + ")";
}

}  // namespace

TensorErrors ComputeErrors(const std::vector<double>& a, const std::vector<double>& b) {
  TensorErrors e;
  double dot = 0, na = 0, nb = 0, max_a = 0;
  const size_t n = std::min(a.size(), b.size());
  for (size_t i = 0; i < n; ++i) {
    const bool fa = std::isfinite(a[i]), fb = std::isfinite(b[i]);
    if (fa != fb) ++e.nonfinite_mismatches;
    if (!fa || !fb) continue;
    e.max_abs = std::max(e.max_abs, std::abs(a[i] - b[i]));
    max_a = std::max(max_a, std::abs(a[i]));
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  if (na == 0 && nb == 0) e.cosine = 1;
  else if (na == 0 || nb == 0) e.cosine = 0;
  else e.cosine = std::clamp(dot / (std::sqrt(na) * std::sqrt(nb)), -1.0, 1.0);
  if (max_a > 0) e.max_rel = e.max_abs / max_a;
  else e.max_rel = e.max_abs > 0 ? std::numeric_limits<double>::infinity() : 0;
  return e;
}

bool Diverges(const TensorErrors& e, const DumpThresholds& t) {
  if (e.nonfinite_mismatches > 0) return true;
  return e.max_abs > t.atol && (e.cosine < t.cosine || e.max_rel > t.rtol);
}

Result<DumpComparison> CompareOpDumps(const OpDumpDir& a, const OpDumpDir& b, const DumpThresholds& t) {
  DumpComparison c;
  c.thresholds = t;
  std::map<std::string, size_t> b_index;
  for (size_t i = 0; i < b.ops.size(); ++i) b_index.emplace(OpKey(b.ops[i].node, b.ops[i].output), i);
  std::set<std::string> matched_b;
  std::map<std::string, const DumpedOp*> a_nodes;
  for (size_t i = 0; i < a.ops.size(); ++i) {
    const DumpedOp& x = a.ops[i];
    a_nodes.emplace(x.node, &x);
    const std::string key = OpKey(x.node, x.output);
    auto it = b_index.find(key);
    if (it == b_index.end()) {
      c.only_a.push_back(key + " (" + x.type + ")");
      continue;
    }
    matched_b.insert(key);
    const DumpedOp& y = b.ops[it->second];
    OpPair p;
    p.node = x.node;
    p.type = x.type;
    p.output = x.output;
    p.order_a = i;
    p.order_b = it->second;
    p.dtype_a = DataTypeName(x.tensor.desc.dtype);
    p.dtype_b = DataTypeName(y.tensor.desc.dtype);
    p.shape_a = x.tensor.desc.dims;
    p.shape_b = y.tensor.desc.dims;
    if (p.shape_a != p.shape_b) {
      p.mismatch = "shape " + DimsToString(p.shape_a) + " vs " + DimsToString(p.shape_b);
    } else {
      const std::vector<double> va = Tensor(x.tensor.desc, x.tensor.bytes.data(), x.tensor.bytes.size()).ToDouble();
      const std::vector<double> vb = Tensor(y.tensor.desc, y.tensor.bytes.data(), y.tensor.bytes.size()).ToDouble();
      p.errors = ComputeErrors(va, vb);
      if (p.dtype_a != p.dtype_b) p.mismatch = "dtype " + p.dtype_a + " vs " + p.dtype_b;
    }
    p.divergent = p.shape_a != p.shape_b || Diverges(p.errors, t);
    c.pairs.push_back(std::move(p));
  }
  if (c.pairs.empty())
    return InvalidArgument(a.dir + " and " + b.dir + " have no op output in common (" + a.dir + " holds " +
                           std::to_string(a.ops.size()) + ", " + b.dir + " " + std::to_string(b.ops.size()) +
                           "): nothing to compare");
  for (const DumpedOp& y : b.ops) {
    const std::string key = OpKey(y.node, y.output);
    if (!matched_b.count(key)) c.only_b.push_back(key + " (" + y.type + ")");
  }

  // The first divergent op whose inputs' ops are all within the thresholds.
  std::set<std::string> compared, divergent;
  for (const OpPair& p : c.pairs) {
    compared.insert(p.node);
    if (p.divergent) divergent.insert(p.node);
  }
  for (size_t i = 0; i < c.pairs.size() && c.first_divergent < 0; ++i) {
    if (!c.pairs[i].divergent) continue;
    std::set<std::string> seen;
    std::vector<std::string> inputs;
    CollectComparedInputs(c.pairs[i].node, a_nodes, compared, seen, inputs);
    if (std::none_of(inputs.begin(), inputs.end(), [&](const std::string& n) { return divergent.count(n) != 0; })) {
      c.first_divergent = static_cast<int>(i);
      c.first_divergent_inputs = std::move(inputs);
    }
  }
  return c;
}

std::string ComparisonText(const DumpComparison& c, const std::string& name_a, const std::string& name_b) {
  size_t width = 4, type_width = 4;
  for (const OpPair& p : c.pairs) {
    width = std::max(width, std::min<size_t>(p.node.size() + 2 + std::to_string(p.output).size(), 60));
    type_width = std::max(type_width, std::min<size_t>(p.type.size(), 32));
  }
  const int tw = static_cast<int>(type_width);
  std::string s = "A: " + name_a + "\nB: " + name_b + "\n";
  char line[512];
  std::snprintf(line, sizeof(line), "%-5s %-*s %-*s %-18s %12s %12s %12s\n", "#", static_cast<int>(width), "op", tw,
                "type", "shape", "cosine", "max abs", "max rel");
  s += line;
  for (size_t i = 0; i < c.pairs.size(); ++i) {
    const OpPair& p = c.pairs[i];
    const std::string name = p.node + ":" + std::to_string(p.output);
    const std::string mark = static_cast<int>(i) == c.first_divergent ? "<< first divergent"
                             : p.divergent                            ? "diverges"
                                                                      : "";
    if (p.shape_a != p.shape_b) {
      std::snprintf(line, sizeof(line), "%-5zu %-*s %-*s %s  %s\n", p.order_a, static_cast<int>(width), name.c_str(), tw,
                    p.type.c_str(), p.mismatch.c_str(), mark.c_str());
    } else {
      std::snprintf(line, sizeof(line), "%-5zu %-*s %-*s %-18s %12.8f %12s %12s  %s%s\n", p.order_a,
                    static_cast<int>(width), name.c_str(), tw, p.type.c_str(), DimsToString(p.shape_a).c_str(),
                    p.errors.cosine, Number(p.errors.max_abs).c_str(), Number(p.errors.max_rel).c_str(), mark.c_str(),
                    p.mismatch.empty() ? "" : (" (" + p.mismatch + ")").c_str());
    }
    std::string row = line;  // without the trailing blanks of an empty mark
    while (row.size() > 1 && row[row.size() - 2] == ' ') row.erase(row.size() - 2, 1);
    s += row;
  }
  auto list = [&](const char* title, const std::vector<std::string>& ops) {
    if (ops.empty()) return;
    s += std::string(title) + " (" + std::to_string(ops.size()) + "):";
    for (const auto& o : ops) s += " " + o;
    s += "\n";
  };
  list("only in A", c.only_a);
  list("only in B", c.only_b);
  const DumpThresholds& t = c.thresholds;
  const std::string rule = "cosine < " + Number(t.cosine) + " or max rel > " + Number(t.rtol) + ", with max abs > " +
                           Number(t.atol);
  if (c.first_divergent >= 0) {
    const OpPair& p = c.pairs[c.first_divergent];
    s += "first divergent op: " + p.node + " (" + p.type + ") output " + std::to_string(p.output) + ": " + Why(p, t);
    if (!c.first_divergent_inputs.empty()) {
      s += "; its inputs' ops";
      for (const auto& in : c.first_divergent_inputs) s += " " + in;
      s += " are within the thresholds";
    }
    s += "\n";
  } else {
    size_t n = 0;
    for (const OpPair& p : c.pairs) n += p.divergent ? 1 : 0;
    if (n == 0) s += "no divergent op: all " + std::to_string(c.pairs.size()) + " matched outputs are within (" + rule + ")\n";
    else s += std::to_string(n) + " divergent ops, each fed by a divergent op\n";
  }
  return s;
}

std::string ComparisonJson(const DumpComparison& c, const std::string& name_a, const std::string& name_b) {
  nlohmann::json ops = nlohmann::json::array();
  for (const OpPair& p : c.pairs) {
    nlohmann::json o = {{"node", p.node},         {"type", p.type},         {"output", p.output},
                        {"order_a", p.order_a},   {"order_b", p.order_b},   {"dtype_a", p.dtype_a},
                        {"dtype_b", p.dtype_b},   {"shape_a", p.shape_a},   {"shape_b", p.shape_b},
                        {"divergent", p.divergent}};
    if (p.shape_a == p.shape_b) {
      o["cosine"] = JsonNumber(p.errors.cosine);
      o["max_abs"] = JsonNumber(p.errors.max_abs);
      o["max_rel"] = JsonNumber(p.errors.max_rel);
      o["nonfinite_mismatches"] = p.errors.nonfinite_mismatches;
    }
    if (!p.mismatch.empty()) o["mismatch"] = p.mismatch;
    ops.push_back(std::move(o));
  }
  nlohmann::json first;
  if (c.first_divergent >= 0) {
    const OpPair& p = c.pairs[c.first_divergent];
    first = {{"node", p.node},
             {"type", p.type},
             {"output", p.output},
             {"reason", Why(p, c.thresholds)},
             {"inputs", c.first_divergent_inputs}};
  }
  nlohmann::json j = {{"a", name_a},
                      {"b", name_b},
                      {"thresholds",
                       {{"cosine", c.thresholds.cosine}, {"rtol", c.thresholds.rtol}, {"atol", c.thresholds.atol}}},
                      {"ops", ops},
                      {"only_in_a", c.only_a},
                      {"only_in_b", c.only_b},
                      {"first_divergent", first}};
  return j.dump(2) + "\n";
}

}  // namespace ge::tools
