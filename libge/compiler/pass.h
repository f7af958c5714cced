// A pass is a named function on a graph; it knows nothing of timing, dumping
// or switches — the pass manager's instruments do that.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "ge/ir/graph.h"

namespace ge {

namespace hal {
class Device;
}

struct PassContext {
  hal::Device* device = nullptr;
};

struct Pass {
  std::string name;
  std::string stage;  // prepare | optimize | layout | memory | partition | streams | plan | tasks
  std::function<Status(Graph&, const PassContext&)> run;
};

class PassManager {
 public:
  using Instrument = std::function<void(const std::string& pass, const Graph& g)>;
  void Add(Pass p) { passes_.push_back(std::move(p)); }
  void set_verify_each_pass(bool v) { verify_ = v; }
  void set_after_pass(Instrument i) { after_ = std::move(i); }
  const std::vector<Pass>& passes() const { return passes_; }
  // Runs every pass in order; a failing pass's status names it.
  Status Run(Graph& g, const PassContext& ctx) const;

 private:
  std::vector<Pass> passes_;
  bool verify_ = false;
  Instrument after_;
};

// The passes of each stage (libge/compiler/passes/).
Pass InferShapesPass();
Pass CheckKnownOpsPass();
Pass CheckSupportPass();
Pass StaticShapeCheckPass();

}  // namespace ge
