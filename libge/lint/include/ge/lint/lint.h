// The lint runner: the table of checks ge-lint and ge-atc --lint run
// (docs/lint.md documents every code), and the functions that run them on a
// graph (.ge, as written) or a compiled model (graph checks on its graph,
// plan checks on its memory plan and task lists).
#pragma once

#include <string>
#include <vector>

#include "ge/ir/graph.h"
#include "ge/lint/diagnostic.h"
#include "ge/model.h"

namespace ge::lint {

using GraphCheckFn = void (*)(const Graph&, Diagnostics*);
using PlanCheckFn = void (*)(const Model&, Diagnostics*);

// One row of the table. The runner stamps `code` and `severity` on every
// finding the function appends, so a check cannot report under another code.
struct GraphCheck {
  const char* code;
  Severity severity;
  const char* title;  // one line, for --help and SARIF's shortDescription
  GraphCheckFn run;
};
struct PlanCheck {
  const char* code;
  Severity severity;
  const char* title;
  PlanCheckFn run;
};

const std::vector<GraphCheck>& GraphChecks();
const std::vector<PlanCheck>& PlanChecks();

// Every code of both tables, in table order (graph checks first).
struct Rule {
  std::string code;
  Severity severity;
  std::string title;
  bool plan = false;  // a plan check (compiled models only)
};
std::vector<Rule> Rules();

// Graph checks only: a .ge as written, or any graph.
Diagnostics LintGraph(const Graph& g);
// Graph checks on model.graph, then plan checks on its plan.
Diagnostics LintModel(const Model& m);

// How many findings have at least `s`.
size_t CountAtLeast(const Diagnostics& d, Severity s);

}  // namespace ge::lint
