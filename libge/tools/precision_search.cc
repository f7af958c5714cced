#include "ge/tools/precision_search.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>

#include "ge/ir/graph.h"
#include "ge/ops/flop_count.h"
#include "ge/ops/op_registry.h"
#include "ge/tools/compare.h"

namespace ge::tools {
namespace {

using Precision = CompileOptions::Precision;

// The lowest cosine over the float outputs of one run against the reference
// (a NaN or Inf anywhere counts as 0: as far from it as it gets).
Result<double> CosineOf(const ExecutedModel& run, const BisectData& data, const std::string& what) {
  if (!run.failure.empty()) return Internal(what + ": " + run.failure);
  double worst = 1;
  for (size_t i = 0; i < run.outputs.size(); ++i) {
    const TensorDesc& d = run.outputs[i].desc;
    if (!IsFloatingPoint(d.dtype)) continue;
    CompareResult r = CompareTensors(d, run.data[i].data(), data.goldens[i], 0.0);
    if (r.reason == "output holds NaN or Inf") r.cosine = 0;
    else if (d.dims != data.goldens[i].desc.dims) return InvalidArgument("--golden " + std::to_string(i) + ": " + r.reason);
    worst = std::min(worst, r.cosine);
  }
  return worst;
}

Result<double> RunCosine(const CompileFn& compile, const CompileOptions& o, const BisectData& data,
                         const std::string& what) {
  GE_ASSIGN_OR_RETURN(ExecutedModel run, CompileAndExecute(compile, o, data));
  return CosineOf(run, data, what);
}

// The reference: base compiled in float32, its outputs as goldens.
Status Float32Reference(const CompileFn& compile, const CompileOptions& base, BisectData& data) {
  CompileOptions o = base;
  o.precision.mode = Precision::kFp32;
  GE_ASSIGN_OR_RETURN(ExecutedModel run, CompileAndExecute(compile, o, data));
  if (!run.failure.empty()) return Internal("the float32 reference: " + run.failure);
  for (size_t i = 0; i < run.outputs.size(); ++i)
    data.goldens.push_back(NpyArray{run.outputs[i].desc, std::move(run.data[i])});
  return Status::Ok();
}

// The white-list ops the mixed compile `m` put in bf16, with their FLOPs.
Result<std::vector<PrecisionCandidate>> Candidates(const Model& m, const CompileOptions& base) {
  const std::set<std::string> white = MixedPrecisionWhiteList(base.precision);
  std::map<std::string, int64_t> flops;
  for (const NodeFlops& f : CountGraphFlops(*m.graph)) flops[f.name] = f.flops.value_or(0);
  std::vector<PrecisionCandidate> out;
  GE_ASSIGN_OR_RETURN(std::vector<Node*> order, m.graph->TopologicalOrder());
  for (const Node* n : order) {
    if (!white.count(n->type()) || !n->HasAttr(kPrecisionAttr)) continue;
    PrecisionCandidate c;
    c.name = n->name();
    c.type = n->type();
    c.flops = flops[n->name()];
    out.push_back(std::move(c));
  }
  return out;
}

CompileOptions Keeping(const CompileOptions& base, const std::vector<PrecisionCandidate>& cands,
                       const std::function<bool(size_t)>& keep) {
  CompileOptions o = base;
  for (size_t i = 0; i < cands.size(); ++i)
    if (keep(i)) o.precision.keep_nodes.insert(cands[i].name);
  return o;
}

}  // namespace

Result<PrecisionSearchResult> SearchKeepDtype(const CompileFn& compile, const CompileOptions& base, BisectData data,
                                              double target,
                                              const std::function<void(const PrecisionSearchStep&)>& progress) {
  if (base.precision.mode != Precision::kMixBf16)
    return InvalidArgument("the precision search needs a mixed precision mode (allow_mix_precision)");
  auto report = [&](const char* phase, size_t i, size_t n, const std::string& what, double cos) {
    if (progress) progress(PrecisionSearchStep{phase, i, n, what, cos});
  };
  if (data.goldens.empty()) {
    GE_RETURN_IF_ERROR(Float32Reference(compile, base, data));
    report("reference", 1, 1, "float32", 1);
  }
  PrecisionSearchResult r;
  r.target = target;
  // One compile of the mixed model gives both the candidates and the first cosine.
  GE_ASSIGN_OR_RETURN(Model mixed, compile(base));
  GE_ASSIGN_OR_RETURN(r.candidates, Candidates(mixed, base));
  std::vector<PrecisionCandidate>& cands = r.candidates;
  GE_ASSIGN_OR_RETURN(ExecutedModel all_bf16, ExecuteModel(mixed, data));
  GE_ASSIGN_OR_RETURN(r.all_bf16_cosine, CosineOf(all_bf16, data, "every op in bf16"));
  report("all bf16", 1, 1, std::to_string(cands.size()) + " ops", r.all_bf16_cosine);
  r.final_cosine = r.all_bf16_cosine;
  r.met = r.all_bf16_cosine >= target;
  if (r.met || cands.empty()) return r;

  // 1. Each candidate alone in bf16.
  for (size_t i = 0; i < cands.size(); ++i) {
    CompileOptions o = Keeping(base, cands, [&](size_t k) { return k != i; });
    GE_ASSIGN_OR_RETURN(cands[i].alone_cosine, RunCosine(compile, o, data, cands[i].name + " alone in bf16"));
    report("alone", i + 1, cands.size(), cands[i].name, cands[i].alone_cosine);
  }
  // 2. Rank by lost cosine per FLOP; stable, so ties keep graph order.
  std::stable_sort(cands.begin(), cands.end(), [](const PrecisionCandidate& a, const PrecisionCandidate& b) {
    return (1 - a.alone_cosine) / static_cast<double>(std::max<int64_t>(a.flops, 1)) >
           (1 - b.alone_cosine) / static_cast<double>(std::max<int64_t>(b.flops, 1));
  });
  // 3. The fewest of the ranking in float32 that meet the target: prefix 0
  //    fails (all bf16, above); the search assumes a longer prefix never
  //    does worse, and the answer is measured, not assumed.
  std::map<size_t, double> measured = {{0, r.all_bf16_cosine}};
  auto cos_of = [&](size_t k) -> Result<double> {
    auto it = measured.find(k);
    if (it != measured.end()) return it->second;
    CompileOptions o = Keeping(base, cands, [&](size_t i) { return i < k; });
    GE_ASSIGN_OR_RETURN(double c, RunCosine(compile, o, data, "the first " + std::to_string(k) + " ops in float32"));
    report("keep", k, cands.size(), "first " + std::to_string(k) + " in float32", c);
    return measured[k] = c;
  };
  size_t bad = 0, good = cands.size();
  GE_ASSIGN_OR_RETURN(double all_kept, cos_of(good));
  if (all_kept >= target) {
    while (good - bad > 1) {
      const size_t mid = bad + (good - bad) / 2;
      GE_ASSIGN_OR_RETURN(double c, cos_of(mid));
      (c >= target ? good : bad) = mid;
    }
  }
  r.prefix = good;
  r.final_cosine = measured[good];
  r.met = r.final_cosine >= target;
  for (size_t i = 0; i < cands.size(); ++i) cands[i].keep_fp32 = i < good;
  // 4. The prefix overshoots: it ends where the target is first crossed, and
  //    the alone cosines do not add up, so some kept ops are not needed with
  //    the others kept (ResNet-50: 2 of 10). Each kept op, the most FLOPs
  //    first, goes back to bf16 when the target still holds without it;
  //    every answer is measured.
  if (r.met) {
    std::vector<size_t> order;
    for (size_t i = 0; i < good; ++i) order.push_back(i);
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return cands[a].flops > cands[b].flops; });
    for (size_t step = 0; step < order.size(); ++step) {
      const size_t drop = order[step];
      cands[drop].keep_fp32 = false;
      CompileOptions o = Keeping(base, cands, [&](size_t i) { return cands[i].keep_fp32; });
      GE_ASSIGN_OR_RETURN(double c, RunCosine(compile, o, data, cands[drop].name + " back in bf16"));
      report("prune", step + 1, order.size(), cands[drop].name + " back in bf16", c);
      if (c >= target) r.final_cosine = c;
      else cands[drop].keep_fp32 = true;
    }
  }
  int64_t total = 0, kept = 0;
  for (const PrecisionCandidate& c : cands) {
    total += c.flops;
    if (c.keep_fp32) {
      kept += c.flops;
      ++r.kept;
    }
  }
  r.kept_flop_share = total > 0 ? static_cast<double>(kept) / static_cast<double>(total) : 0;
  return r;
}

std::string KeepDtypeFile(const PrecisionSearchResult& r, const Precision& base, const std::string& model) {
  char head[512];
  std::snprintf(head, sizeof(head),
                "# --keep_dtype for %s, written by ge-dump precision\n"
                "# target cosine %.6f: every op in bf16 %.7f, with the %zu ops below in float32 %.7f%s\n"
                "# the kept ops are %.1f %% of the FLOPs of the %zu ops that can run in bf16\n",
                model.c_str(), r.target, r.all_bf16_cosine, r.kept, r.final_cosine, r.met ? "" : " (target NOT met)",
                100 * r.kept_flop_share, r.candidates.size());
  std::string out = head;
  if (!base.keep_nodes.empty() || !base.keep_types.empty()) out += "# given with --keep_dtype\n";
  for (const std::string& n : base.keep_nodes) out += "OpName::" + n + "\n";
  for (const std::string& t : base.keep_types) out += "OpType::" + t + "\n";
  for (const PrecisionCandidate& c : r.candidates) {
    if (!c.keep_fp32) continue;
    // ATC's format has whole-line comments only (a name may hold '#').
    char line[96];
    std::snprintf(line, sizeof(line), "# %s, %.3f GFLOP, alone in bf16: cosine %.7f\n", c.type.c_str(),
                  static_cast<double>(c.flops) * 1e-9, c.alone_cosine);
    out += line + ("OpName::" + c.name + "\n");
  }
  return out;
}

std::string PrecisionSearchJson(const PrecisionSearchResult& r, const std::string& model) {
  nlohmann::json j;
  j["model"] = model;
  j["target_cosine"] = r.target;
  j["all_bf16_cosine"] = r.all_bf16_cosine;
  j["final_cosine"] = r.final_cosine;
  j["met"] = r.met;
  j["kept"] = r.kept;
  j["prefix"] = r.prefix;
  j["kept_flop_share"] = r.kept_flop_share;
  j["candidates"] = nlohmann::json::array();
  for (const PrecisionCandidate& c : r.candidates)
    j["candidates"].push_back({{"name", c.name}, {"type", c.type}, {"flops", c.flops},
                               {"alone_cosine", c.alone_cosine}, {"keep_fp32", c.keep_fp32}});
  return j.dump(2) + "\n";
}

}  // namespace ge::tools
