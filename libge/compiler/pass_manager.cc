#include <chrono>

#include <spdlog/spdlog.h>

#include "compiler/pass.h"
#include "ge/ir/verifier.h"

namespace ge {

Status PassManager::Run(Graph& g, const PassContext& ctx) const {
  for (const Pass& p : passes_) {
    auto t0 = std::chrono::steady_clock::now();
    Status s = p.run(g, ctx);
    auto us = std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - t0).count();
    if (!s.ok()) return s;
    spdlog::debug("pass {} ({}): {} nodes, {:.3f} ms", p.name, p.stage, g.num_nodes(), us / 1000.0);
    if (verify_) {
      Status v = VerifyGraph(g);
      if (!v.ok()) return v.Annotated("after pass " + p.name);
    }
    if (after_) after_(p.name, g);
  }
  return Status::Ok();
}

}  // namespace ge
