// Einsum: "bij,bjk->bik". Each input term names its dims by letters ("..."
// stands for the dims no letter names, broadcast across inputs); the output
// has the dims of its term, or without "->" the ellipsis dims then the
// letters used once, in alphabetical order. Repeated letters in one term
// take a diagonal; letters missing from the output are summed.
#include <cctype>
#include <map>

#include "infer_util.h"
#include "op_families.h"

namespace ge {
namespace {

using infer::Dims;

// The equation without blanks, split into input terms and the output term
// (nullopt without "->").
struct Equation {
  std::vector<std::string> inputs;
  std::optional<std::string> output;
};

Result<Equation> ParseEquation(InferContext& ctx) {
  std::string eq;
  for (char c : ctx.node().GetString("equation", ""))
    if (c != ' ') eq += c;
  Equation e;
  std::string lhs = eq;
  if (const size_t arrow = eq.find("->"); arrow != std::string::npos) {
    lhs = eq.substr(0, arrow);
    e.output = eq.substr(arrow + 2);
  }
  for (size_t start = 0;;) {
    const size_t comma = lhs.find(',', start);
    e.inputs.push_back(lhs.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  if (e.inputs.size() != ctx.num_inputs())
    return ctx.Error("equation '" + eq + "' has " + std::to_string(e.inputs.size()) + " input terms for " +
                     std::to_string(ctx.num_inputs()) + " inputs");
  auto check = [&](const std::string& term) -> Status {
    const size_t dots = term.find("...");
    for (size_t i = 0; i < term.size(); ++i) {
      const bool in_dots = dots != std::string::npos && i >= dots && i < dots + 3;
      if (!in_dots && !std::isalpha(static_cast<unsigned char>(term[i])))
        return ctx.Error("equation '" + eq + "': term '" + term + "' holds '" + term[i] + "'");
    }
    if (dots != std::string::npos && term.find("...", dots + 3) != std::string::npos)
      return ctx.Error("equation '" + eq + "': term '" + term + "' has two ellipses");
    return Status::Ok();
  };
  for (const std::string& term : e.inputs) GE_RETURN_IF_ERROR(check(term));
  if (e.output) GE_RETURN_IF_ERROR(check(*e.output));
  return e;
}

Status InferEinsum(InferContext& ctx) {
  GE_ASSIGN_OR_RETURN(DataType t, infer::CommonDtype(ctx, [&] {
                        std::vector<size_t> all(ctx.num_inputs());
                        for (size_t i = 0; i < all.size(); ++i) all[i] = i;
                        return all;
                      }()));
  GE_ASSIGN_OR_RETURN(Equation e, ParseEquation(ctx));
  std::map<char, int64_t> dim_of;
  std::map<char, int> uses;
  Dims ellipsis;
  for (size_t i = 0; i < e.inputs.size(); ++i) {
    const TensorDesc& x = ctx.input(i);
    if (x.unknown_rank()) {
      infer::SetOutput(ctx, 0, t, infer::UnknownRank());
      return Status::Ok();
    }
    const std::string& term = e.inputs[i];
    const size_t dots = term.find("...");
    const int64_t letters = static_cast<int64_t>(term.size()) - (dots == std::string::npos ? 0 : 3);
    const int64_t rest = x.rank() - letters;
    if (rest < 0 || (dots == std::string::npos && rest != 0))
      return ctx.Error("term '" + term + "' does not fit input " + std::to_string(i) + " " + x.ToString());
    if (dots != std::string::npos) {
      const Dims mine(x.dims.begin() + static_cast<std::ptrdiff_t>(dots),
                      x.dims.begin() + static_cast<std::ptrdiff_t>(dots + rest));
      GE_ASSIGN_OR_RETURN(ellipsis, infer::Broadcast(ctx, ellipsis, mine));
    }
    for (size_t c = 0, d = 0; c < term.size(); ++c, ++d) {
      if (c == dots) {
        c += 2;
        d += static_cast<size_t>(rest) - 1;
        continue;
      }
      const int64_t n = x.dims[d];
      auto [it, fresh] = dim_of.emplace(term[c], n);
      ++uses[term[c]];
      if (!fresh && it->second >= 0 && n >= 0 && it->second != n)
        return ctx.Error("letter '" + std::string(1, term[c]) + "' has sizes " + std::to_string(it->second) + " and " +
                         std::to_string(n));
      if (it->second < 0) it->second = n;
    }
  }
  std::string out_term;
  if (e.output) {
    out_term = *e.output;
  } else {
    out_term = "...";
    for (const auto& [c, k] : uses)
      if (k == 1) out_term += c;  // std::map: alphabetical
  }
  Dims out;
  for (size_t c = 0; c < out_term.size(); ++c) {
    if (out_term.compare(c, 3, "...") == 0) {
      out.insert(out.end(), ellipsis.begin(), ellipsis.end());
      c += 2;
      continue;
    }
    auto it = dim_of.find(out_term[c]);
    if (it == dim_of.end() || out_term.find(out_term[c]) != c)
      return ctx.Error("output letter '" + std::string(1, out_term[c]) + "' is not an input letter, or repeats");
    out.push_back(it->second);
  }
  infer::SetOutput(ctx, 0, t, std::move(out));
  return Status::Ok();
}

}  // namespace

void RegisterEinsumOps(OpRegistry& r) { r.Register(OpBuilder("Einsum").Inputs(1, -1).Infer(InferEinsum)); }

}  // namespace ge
