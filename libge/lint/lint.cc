// The table of checks and the runner. Adding a check: write its function
// (graph_checks.h or plan_checks.h), add a row here, a "### CODE" section to
// docs/lint.md and a repro case to tests/lint/ (tests/lint/README.md); the
// unit test lint_table_test.cc holds the table and the docs together.
#include "ge/lint/lint.h"

#include "ge/lint/graph_checks.h"
#include "ge/lint/layout_checks.h"
#include "ge/lint/plan_checks.h"

namespace ge::lint {

const std::vector<GraphCheck>& GraphChecks() {
  static const std::vector<GraphCheck> kChecks = {
      {"E18001", Severity::kError, "the graph breaks an IR invariant (names, edges, Data indices, NetOutput, cycles, constants)",
       CheckStructure},
      {"E18005", Severity::kError, "two anchors share memory whose attributes the layout rules say cannot share it",
       CheckLayoutConflicts},
      {"W18888", Severity::kWarning, "memory written and read (or written twice) by nodes no data or control path orders",
       CheckReadWriteOrder},
  };
  return kChecks;
}

const std::vector<PlanCheck>& PlanChecks() {
  static const std::vector<PlanCheck> kChecks = {
      {"E18002", Severity::kError, "the compiled model fails the model check every runtime runs at load", CheckModel},
      {"E18003", Severity::kError, "the memory plan overlaps two buffers that are alive at the same time",
       CheckMemoryOverlaps},
      {"E18004", Severity::kError, "the streams' event waits form a cycle: the model would deadlock", CheckWaitCycles},
  };
  return kChecks;
}

std::vector<Rule> Rules() {
  std::vector<Rule> out;
  for (const GraphCheck& c : GraphChecks()) out.push_back({c.code, c.severity, c.title, false});
  for (const PlanCheck& c : PlanChecks()) out.push_back({c.code, c.severity, c.title, true});
  return out;
}

namespace {
void Stamp(const char* code, Severity severity, size_t from, Diagnostics* d) {
  for (size_t i = from; i < d->size(); ++i) {
    (*d)[i].code = code;
    (*d)[i].severity = severity;
  }
}
}  // namespace

Diagnostics LintGraph(const Graph& g) {
  Diagnostics out;
  for (const GraphCheck& c : GraphChecks()) {
    const size_t from = out.size();
    c.run(g, &out);
    Stamp(c.code, c.severity, from, &out);
  }
  return out;
}

Diagnostics LintModel(const Model& m) {
  Diagnostics out;
  if (m.graph) out = LintGraph(*m.graph);
  for (const PlanCheck& c : PlanChecks()) {
    const size_t from = out.size();
    c.run(m, &out);
    Stamp(c.code, c.severity, from, &out);
  }
  return out;
}

size_t CountAtLeast(const Diagnostics& d, Severity s) {
  size_t n = 0;
  for (const Diagnostic& x : d) n += static_cast<int>(x.severity) >= static_cast<int>(s);
  return n;
}

}  // namespace ge::lint
