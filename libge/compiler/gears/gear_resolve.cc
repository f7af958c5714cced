// ATC's gear flags turned into the input dims of every gear (ResolveGears).
#include <algorithm>
#include <set>

#include "ge/compiler.h"

namespace ge {
namespace {

std::string DimsText(const std::vector<int64_t>& v, const char* sep = ",") {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i) s += (i ? sep : "") + std::to_string(v[i]);
  return s;
}

size_t Unknowns(const std::vector<int64_t>& dims) {
  return static_cast<size_t>(std::count(dims.begin(), dims.end(), kUnknownDim));
}

}  // namespace

const char* GearFlagName(GearOptions::Kind kind) {
  switch (kind) {
    case GearOptions::Kind::kBatch: return "--dynamic_batch_size";
    case GearOptions::Kind::kImageSize: return "--dynamic_image_size";
    case GearOptions::Kind::kDims: return "--dynamic_dims";
    default: return "gears";
  }
}

Result<std::vector<std::vector<std::vector<int64_t>>>> ResolveGears(const Graph& graph, const GearOptions& gears) {
  using Kind = GearOptions::Kind;
  const std::string flag = GearFlagName(gears.kind);
  auto bad = [&](const std::string& why) { return InvalidArgument(flag + ": " + why); };
  if (gears.kind == Kind::kNone) return bad("no gear kind");
  if (gears.values.empty()) return bad("no gears given");
  if (gears.values.size() > kMaxGears)
    return bad(std::to_string(gears.values.size()) + " gears; at most " + std::to_string(kMaxGears));

  const std::vector<Node*> data = graph.InputNodes();
  std::vector<std::vector<int64_t>> dims;
  for (Node* d : data) {
    const TensorDesc& desc = d->output_desc(0);
    if (desc.dims.size() == 1 && desc.dims[0] == kUnknownRank)
      return bad("input " + d->name() + " has an unknown rank: give its dims with --input_shape");
    dims.push_back(desc.dims);
  }
  // Which inputs' -1 dims take the values, in order.
  std::vector<size_t> order;
  if (gears.kind == Kind::kDims && !gears.order.empty()) {
    for (const std::string& name : gears.order) {
      auto it = std::find_if(data.begin(), data.end(), [&](Node* d) { return d->name() == name; });
      if (it == data.end()) return bad("input " + name + " is not an input of the graph");
      order.push_back(static_cast<size_t>(it - data.begin()));
    }
    for (size_t i = 0; i < data.size(); ++i)
      if (std::find(order.begin(), order.end(), i) == order.end() && Unknowns(dims[i]))
        order.push_back(i);  // a dynamic input --input_shape did not name: after the named ones
  } else {
    for (size_t i = 0; i < data.size(); ++i) order.push_back(i);
  }
  size_t total = 0;
  for (size_t i : order) {
    const size_t u = Unknowns(dims[i]);
    total += u;
    if (!u) continue;
    const std::string which = "input " + data[i]->name() + " [" + DimsText(dims[i]) + "]";
    if (gears.kind == Kind::kBatch && (dims[i][0] != kUnknownDim || u != 1))
      return bad(which + ": only the first (batch) dim may be -1");
    if (gears.kind == Kind::kImageSize && u != 2) return bad(which + ": needs exactly two -1 dims, H and W");
  }
  if (!total)
    return bad("no input has a -1 dim: mark the dims the gears set with -1 in --input_shape (\"x:-1,3,224,224\")");
  const size_t per_gear = gears.kind == Kind::kBatch ? 1 : gears.kind == Kind::kImageSize ? 2 : total;

  std::set<std::vector<int64_t>> seen;
  std::vector<std::vector<std::vector<int64_t>>> out;
  for (const std::vector<int64_t>& g : gears.values) {
    const std::string text = "gear \"" + DimsText(g) + "\"";
    if (g.size() != per_gear)
      return bad(text + " has " + std::to_string(g.size()) + " value(s); each gear gives " + std::to_string(per_gear) +
                 (gears.kind == Kind::kDims ? " (one per -1 dim of the inputs)" : ""));
    for (int64_t v : g)
      if (v < 1) return bad(text + ": " + std::to_string(v) + " is not a dim size");
    if (!seen.insert(g).second) return bad(text + " is given twice");
    std::vector<std::vector<int64_t>> gear = dims;
    size_t next = 0;
    for (size_t i : order)
      for (int64_t& d : gear[i])
        if (d == kUnknownDim) d = g[gears.kind == Kind::kDims ? next++ : gears.kind == Kind::kImageSize ? next++ % 2 : 0];
    out.push_back(std::move(gear));
  }
  return out;
}

}  // namespace ge
