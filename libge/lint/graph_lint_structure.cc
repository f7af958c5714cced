// E18001: the IR verifier's invariants as a lint finding, so a broken .ge or
// model is reported like every other problem instead of stopping the run.
#include "ge/ir/verifier.h"
#include "ge/lint/graph_checks.h"

namespace ge::lint {

void CheckStructure(const Graph& g, Diagnostics* out) {
  if (Status s = VerifyGraph(g); !s.ok()) {
    Diagnostic d;
    d.message = s.message();
    out->push_back(std::move(d));
  }
}

}  // namespace ge::lint
