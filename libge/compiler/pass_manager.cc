#include <chrono>

#include <spdlog/spdlog.h>

#include "pass.h"
#include "ge/ir/verifier.h"

namespace ge {

Status PassManager::InsertAfter(const std::string& after, Pass p) {
  if (after.empty()) {
    passes_.insert(passes_.begin(), std::move(p));
    return Status::Ok();
  }
  for (auto it = passes_.begin(); it != passes_.end(); ++it)
    if (it->name == after) {
      passes_.insert(it + 1, std::move(p));
      return Status::Ok();
    }
  return InvalidArgument("no pass named '" + after + "' to insert '" + p.name + "' after");
}

Status PassManager::Disable(const std::vector<std::string>& names) {
  for (const std::string& name : names) {
    const Pass* found = nullptr;
    for (const Pass& p : passes_)
      if (p.name == name) found = &p;
    if (!found) {
      std::string known;
      for (const Pass& p : passes_)
        if (!p.required) known += (known.empty() ? "" : ", ") + p.name;
      return InvalidArgument("unknown pass '" + name + "' (switchable passes: " + known + ")");
    }
    if (found->required)
      return InvalidArgument("pass '" + name + "' is required (" + found->stage + ") and cannot be switched off");
    disabled_.insert(name);
  }
  return Status::Ok();
}

namespace {

// p over every control-flow subgraph of g, innermost first. Gear and
// partition subgraphs are whole compiled models, not control flow.
Status RunInSubgraphs(const Pass& p, Graph& g, const PassContext& ctx) {
  for (Node* n : g.nodes()) {
    if (n->subgraphs().empty() || n->type() == op::kPartitionedCall || n->type() == op::kGearCase) continue;
    for (auto& [name, sub] : n->subgraphs()) {
      if (!sub) continue;
      GE_RETURN_IF_ERROR(RunInSubgraphs(p, *sub, ctx));
      Status s = p.run(*sub, ctx);
      if (!s.ok()) return s.Annotated("node " + n->Label() + ", subgraph '" + name + "'");
    }
  }
  return Status::Ok();
}

}  // namespace

Status PassManager::Run(Graph& g, const PassContext& ctx) const {
  for (const Pass& p : passes_) {
    if (disabled(p.name)) {
      spdlog::info("pass {} ({}): switched off", p.name, p.stage);
      continue;
    }
    const size_t before = g.num_nodes();
    auto t0 = std::chrono::steady_clock::now();
    Status s = p.subgraphs ? RunInSubgraphs(p, g, ctx) : Status::Ok();
    if (s.ok()) s = p.run(g, ctx);
    auto us = std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - t0).count();
    if (!s.ok()) return s;
    spdlog::info("pass {} ({}): {} -> {} nodes, {:.3f} ms", p.name, p.stage, before, g.num_nodes(), us / 1000.0);
    if (verify_) {
      Status v = VerifyGraph(g);
      if (!v.ok()) return v.Annotated("after pass " + p.name);
    }
    if (after_) after_(p.name, g);
  }
  return Status::Ok();
}

}  // namespace ge
