// Symbolic dims (InferSymbolicDims): which unknown dims of a dynamic graph
// are tied to which input dims, found by evaluation. The graph is inferred
// twice with every input symbol set to a different prime (two assignments);
// an unknown dim that takes s's value in both is s, 2·s's in both is 2*s,
// the same number in both is that number, and so on. Inference is the compiler's own (the op registry plus host
// evaluation of shape arithmetic), so whatever it can compute with concrete
// dims, the names follow: Shape -> Gather -> Mul -> Reshape included.
#include <spdlog/spdlog.h>

#include "ge/compiler.h"
#include "hal/device.h"
#include "pass.h"

namespace ge {
namespace {

// Distinct primes per assignment: products and multiples stay unambiguous.
constexpr int64_t kFirst[] = {11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53};
constexpr int64_t kSecond[] = {59, 61, 67, 71, 73, 79, 83, 89, 97, 101, 103, 107};
constexpr size_t kMaxSymbols = sizeof(kFirst) / sizeof(kFirst[0]);

struct Symbols {
  std::vector<std::string> names;
  // Per Data node (graph input order): per dim, the symbol or -1.
  std::vector<std::vector<int>> of_input;
};

Symbols CollectSymbols(const Graph& g) {
  Symbols s;
  for (const Node* d : g.InputNodes()) {
    const TensorDesc& desc = d->output_desc(0);
    const std::vector<std::string> given = d->GetStrings("dim_names");
    std::vector<int> ids(desc.unknown_rank() ? 0 : desc.dims.size(), -1);
    for (size_t k = 0; k < ids.size(); ++k) {
      if (desc.dims[k] != kUnknownDim) continue;
      const std::string name = k < given.size() && !given[k].empty() ? given[k] : d->name() + "." + std::to_string(k);
      auto it = std::find(s.names.begin(), s.names.end(), name);
      if (it == s.names.end()) {
        if (s.names.size() == kMaxSymbols) continue;  // beyond: left unnamed
        s.names.push_back(name);
        it = s.names.end() - 1;
      }
      ids[k] = static_cast<int>(it - s.names.begin());
    }
    s.of_input.push_back(std::move(ids));
  }
  return s;
}

// Every node output's dims with the symbols set to `values`, by node name.
Result<std::map<std::string, std::vector<std::vector<int64_t>>>> Evaluate(const Graph& g, const Symbols& s,
                                                                           const int64_t* values) {
  auto c = g.Clone();
  const std::vector<Node*> data = c->InputNodes();
  for (size_t i = 0; i < data.size() && i < s.of_input.size(); ++i)
    for (size_t k = 0; k < s.of_input[i].size(); ++k)
      if (s.of_input[i][k] >= 0) data[i]->output_desc(0).dims[k] = values[s.of_input[i][k]];
  CompileOptions options;
  PassContext ctx;
  GE_ASSIGN_OR_RETURN(ctx.device, hal::GetDevice(""));
  GE_ASSIGN_OR_RETURN(ctx.host, hal::GetHostDevice());
  ctx.options = &options;
  GE_RETURN_IF_ERROR(InferShapesPass().run(*c, ctx));
  std::map<std::string, std::vector<std::vector<int64_t>>> out;
  for (const Node* n : c->nodes())
    for (size_t j = 0; j < n->num_outputs(); ++j) out[n->name()].push_back(n->output_desc(j).dims);
  return out;
}

// The name of a dim worth `a` in the first assignment and `b` in the second.
std::string NameOf(int64_t a, int64_t b, const Symbols& s) {
  if (a < 0 || b < 0) return "?";
  if (a == b) return std::to_string(a);  // a constant that inference alone could not see
  const size_t n = s.names.size();
  for (size_t i = 0; i < n; ++i)
    if (a == kFirst[i] && b == kSecond[i]) return s.names[i];
  for (size_t i = 0; i < n; ++i)
    if (a % kFirst[i] == 0 && b % kSecond[i] == 0 && a / kFirst[i] == b / kSecond[i] && a / kFirst[i] > 1)
      return std::to_string(a / kFirst[i]) + "*" + s.names[i];
  for (size_t i = 0; i < n; ++i)
    for (size_t j = i; j < n; ++j)
      if (a == kFirst[i] * kFirst[j] && b == kSecond[i] * kSecond[j]) return s.names[i] + "*" + s.names[j];
  for (size_t i = 0; i < n; ++i)
    if (a - kFirst[i] == b - kSecond[i] && a - kFirst[i] != 0 && std::abs(a - kFirst[i]) < kFirst[0])
      return s.names[i] + (a > kFirst[i] ? "+" : "") + std::to_string(a - kFirst[i]);
  return "?";
}

}  // namespace

Result<DimNames> InferSymbolicDims(const Graph& g) {
  DimNames names;
  const Symbols s = CollectSymbols(g);
  if (s.names.empty()) return names;
  auto first = Evaluate(g, s, kFirst);
  auto second = first.ok() ? Evaluate(g, s, kSecond) : first;
  if (!first.ok() || !second.ok()) {
    // Values the graph cannot take (a reshape they do not divide): no names.
    spdlog::debug("symbolic dims: inference with concrete dims failed: {}",
                  (first.ok() ? second : first).status().message());
    return names;
  }
  for (const Node* n : g.nodes()) {
    auto a = first->find(n->name()), b = second->find(n->name());
    if (a == first->end() || b == second->end()) continue;
    for (size_t j = 0; j < n->num_outputs() && j < a->second.size() && j < b->second.size(); ++j) {
      const TensorDesc& d = n->output_desc(j);
      if (d.is_static() || d.unknown_rank()) continue;
      const auto& da = a->second[j];
      const auto& db = b->second[j];
      std::vector<std::string> dims(d.dims.size());
      bool any = false;
      for (size_t k = 0; k < d.dims.size(); ++k) {
        if (d.dims[k] != kUnknownDim) continue;
        dims[k] = k < da.size() && k < db.size() && da.size() == db.size() ? NameOf(da[k], db[k], s) : "?";
        any |= dims[k] != "?";
      }
      if (any) names[{n, static_cast<int>(j)}] = std::move(dims);
    }
  }
  return names;
}

}  // namespace ge
