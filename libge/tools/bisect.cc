#include "ge/tools/bisect.h"

#include <algorithm>
#include <cstdio>

#include "ge/tools/compare.h"
#include "ge/runtime.h"

namespace ge::tools {

Result<std::vector<std::string>> SwitchablePasses(const CompileOptions& base) {
  struct Entry {
    std::string name;
    bool switchable;
  };
  std::vector<Entry> order;
  for (const PassInfo& p : ListPasses()) order.push_back({p.name, !p.required});
  // Same placement as Compile(): each extra pass right after the one it
  // names, in the order given (so a later one may follow an earlier one).
  for (const ExtraPass& e : base.extra_passes) {
    if (e.after.empty()) {
      order.insert(order.begin(), {e.name, true});
      continue;
    }
    auto it = std::find_if(order.begin(), order.end(), [&](const Entry& x) { return x.name == e.after; });
    if (it == order.end()) return InvalidArgument("no pass named '" + e.after + "' to insert '" + e.name + "' after");
    order.insert(it + 1, {e.name, true});
  }
  std::vector<std::string> out;
  for (const Entry& x : order)
    if (x.switchable && std::find(base.disabled_passes.begin(), base.disabled_passes.end(), x.name) ==
                            base.disabled_passes.end())
      out.push_back(x.name);
  return out;
}

Result<ExecutedModel> CompileAndExecute(const CompileFn& compile, const CompileOptions& options, const BisectData& data) {
  auto model = compile(options);
  if (!model.ok()) {
    ExecutedModel run;
    run.failure = "compile failed: " + model.status().message();
    return run;
  }
  return ExecuteModel(*model, data);
}

Result<ExecutedModel> ExecuteModel(const Model& m, const BisectData& data) {
  ExecutedModel run;
  if (m.inputs.size() != data.inputs.size())
    return InvalidArgument("--input: the model takes " + std::to_string(m.inputs.size()) + " inputs, " +
                           std::to_string(data.inputs.size()) + " given");
  if (!data.goldens.empty() && m.outputs.size() != data.goldens.size())
    return InvalidArgument("--golden: the model has " + std::to_string(m.outputs.size()) + " outputs, " +
                           std::to_string(data.goldens.size()) + " given");
  for (size_t i = 0; i < m.inputs.size(); ++i)
    if (m.inputs[i].desc.dtype != data.inputs[i].desc.dtype || m.inputs[i].desc.dims != data.inputs[i].desc.dims)
      return InvalidArgument("--input " + std::to_string(i) + " is " + data.inputs[i].desc.ToString() + ", input " +
                             std::to_string(i) + " (" + m.inputs[i].name + ") of the model is " +
                             m.inputs[i].desc.ToString());
  auto loaded = LoadModel(m, RunMode::kV2);
  if (!loaded.ok()) {
    run.failure = "load failed: " + loaded.status().message();
    return run;
  }
  std::vector<const void*> in;
  for (const NpyArray& a : data.inputs) in.push_back(a.bytes.data());
  std::vector<void*> out;
  for (const IoDesc& io : (*loaded)->outputs()) {
    run.data.emplace_back(static_cast<size_t>(std::max<int64_t>(io.desc.Bytes(), 1)));
    out.push_back(run.data.back().data());
  }
  if (Status s = (*loaded)->Execute(in, out); !s.ok()) {
    run.failure = "run failed: " + s.message();
    run.data.clear();
    return run;
  }
  run.outputs = (*loaded)->outputs();
  return run;
}

Result<BisectStep> CompileRunCompare(const CompileFn& compile, const CompileOptions& options, const BisectData& data) {
  BisectStep step;
  GE_ASSIGN_OR_RETURN(ExecutedModel run, CompileAndExecute(compile, options, data));
  if (!run.failure.empty()) {
    step.detail = run.failure;
    return step;
  }
  if (data.goldens.size() != run.outputs.size())
    return InvalidArgument("--golden: the model has " + std::to_string(run.outputs.size()) + " outputs, " +
                           std::to_string(data.goldens.size()) + " given");
  step.match = true;
  for (size_t i = 0; i < run.outputs.size(); ++i) {
    const IoDesc& io = run.outputs[i];
    CompareResult r = CompareTensors(io.desc, run.data[i].data(), data.goldens[i]);
    char buf[160];
    std::snprintf(buf, sizeof(buf), "output %zu (%s): max abs diff %.3g, cosine %.7f%s", i, io.name.c_str(),
                  r.max_abs_diff, r.cosine, r.pass ? "" : " FAIL");
    step.detail += (step.detail.empty() ? "" : "; ") + std::string(buf) + (r.pass ? "" : " - " + r.reason);
    step.match &= r.pass;
  }
  return step;
}

namespace {

// Every switchable pass off still mismatches: the planning stages are
// required, but two of their choices can be undone. Buffer reuse off gives
// every tensor memory of its own (memory_planning); one stream removes the
// events (stream_assignment). The variant that repairs the result names the
// stage.
Result<BisectResult> BlamePlanning(const CompileFn& compile, const CompileOptions& base, const BisectData& data,
                                   const std::vector<std::string>& passes,
                                   const std::function<void(const BisectStep&)>& progress, BisectResult result) {
  struct Variant {
    const char* stage;
    const char* what;
    bool applies;
    std::function<void(CompileOptions&)> apply;
  };
  const Variant variants[] = {
      {"memory_planning", "buffer reuse off", base.buffer_reuse, [](CompileOptions& o) { o.buffer_reuse = false; }},
      {"stream_assignment", "one stream", base.stream_num > 1, [](CompileOptions& o) { o.stream_num = 1; }},
  };
  for (const Variant& v : variants) {
    if (!v.applies) continue;
    CompileOptions o = base;
    o.disabled_passes.insert(o.disabled_passes.end(), passes.begin(), passes.end());
    v.apply(o);
    GE_ASSIGN_OR_RETURN(BisectStep s, CompileRunCompare(compile, o, data));
    s.step = static_cast<int>(result.steps.size()) + 1;
    s.prefix = 0;
    s.variant = v.what;
    result.steps.push_back(s);
    if (progress) progress(s);
    if (s.match) {
      result.outcome = BisectResult::Outcome::kFound;
      result.culprit = v.stage;
      return result;
    }
  }
  result.outcome = BisectResult::Outcome::kBaselineFails;
  return result;
}

}  // namespace

Result<BisectResult> Bisect(const CompileFn& compile, const CompileOptions& base, const BisectData& data,
                            const std::function<void(const BisectStep&)>& progress) {
  BisectResult result;
  GE_ASSIGN_OR_RETURN(result.candidates, SwitchablePasses(base));
  const std::vector<std::string>& passes = result.candidates;
  const size_t n = passes.size();
  auto try_prefix = [&](size_t k) -> Result<bool> {
    CompileOptions o = base;
    for (size_t i = k; i < n; ++i) o.disabled_passes.push_back(passes[i]);
    GE_ASSIGN_OR_RETURN(BisectStep s, CompileRunCompare(compile, o, data));
    s.step = static_cast<int>(result.steps.size()) + 1;
    s.prefix = k;
    s.last_on = k == 0 ? "" : passes[k - 1];
    result.steps.push_back(s);
    if (progress) progress(s);
    return s.match;
  };
  // Everything on first: the common "it is fine" answer costs one step.
  GE_ASSIGN_OR_RETURN(bool all_on, try_prefix(n));
  if (all_on) {
    result.outcome = BisectResult::Outcome::kAllMatch;
    return result;
  }
  if (n == 0) {
    result.outcome = BisectResult::Outcome::kBaselineFails;
    return result;
  }
  GE_ASSIGN_OR_RETURN(bool none_on, try_prefix(0));
  if (!none_on) return BlamePlanning(compile, base, data, passes, progress, std::move(result));
  size_t good = 0, bad = n;  // prefix `good` matches, prefix `bad` does not
  while (bad - good > 1) {
    const size_t mid = good + (bad - good) / 2;
    GE_ASSIGN_OR_RETURN(bool ok, try_prefix(mid));
    (ok ? good : bad) = mid;
  }
  result.outcome = BisectResult::Outcome::kFound;
  result.culprit = passes[bad - 1];
  return result;
}

namespace {

Status NegateFirstFloatConst(Graph& g) {
  GE_ASSIGN_OR_RETURN(std::vector<Node*> order, g.TopologicalOrder());
  for (Node* n : order) {
    if (n->type() != op::kConst) continue;
    const Tensor* t = n->GetTensor("value");
    if (!t || t->desc().dtype != DataType::kFloat32 || t->desc().NumElements() < 2) continue;
    std::vector<float> v(t->as<float>(), t->as<float>() + t->desc().NumElements());
    for (float& x : v) x = -x;
    n->SetAttr("value", Tensor(t->desc(), v.data(), v.size() * sizeof(float)));
    return Status::Ok();
  }
  return NotFound("broken_negate_const: the graph has no float Const with two or more elements");
}

Status SwapFirstSub(Graph& g) {
  GE_ASSIGN_OR_RETURN(std::vector<Node*> order, g.TopologicalOrder());
  for (Node* n : order) {
    if (n->type() != "Sub" || n->num_inputs() != 2 || !n->HasInput(0) || !n->HasInput(1)) continue;
    const Endpoint a = n->InputSource(0), b = n->InputSource(1);
    g.RemoveInputEdge(n, 0);
    g.RemoveInputEdge(n, 1);
    GE_RETURN_IF_ERROR(g.AddEdge(b.node, b.index, n, 0));
    GE_RETURN_IF_ERROR(g.AddEdge(a.node, a.index, n, 1));
    return Status::Ok();
  }
  return NotFound("broken_swap_sub: the graph has no Sub with two inputs");
}

}  // namespace

Result<ExtraPass> MakeBrokenPass(const std::string& kind, const std::string& after) {
  ExtraPass p;
  p.after = after;
  p.name = "broken_" + kind;
  if (kind == "negate_const") p.run = NegateFirstFloatConst;
  else if (kind == "swap_sub") p.run = SwapFirstSub;
  else return InvalidArgument("unknown broken pass kind '" + kind + "' (negate_const, swap_sub)");
  return p;
}

}  // namespace ge::tools
