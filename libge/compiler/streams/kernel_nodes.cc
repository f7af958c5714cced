// The kernel-to-kernel dependencies through the nodes that run no kernel,
// and the cost estimate the stream assigner balances.
#include <algorithm>
#include <map>

#include "streams/streams.h"

namespace ge::streams {

std::vector<std::vector<int32_t>> KernelDeps(const std::vector<Node*>& order, const std::vector<Node*>& kernels) {
  std::map<const Node*, int32_t> index;
  for (size_t i = 0; i < kernels.size(); ++i) index[kernels[i]] = static_cast<int32_t>(i);
  // frontier(x): the kernel nodes x stands for as a producer (itself, or
  // what a no-kernel node's inputs stand for).
  std::map<const Node*, std::vector<int32_t>> frontier;
  std::vector<std::vector<int32_t>> deps(kernels.size());
  for (Node* n : order) {
    std::vector<int32_t> in;
    std::vector<Node*> preds = n->InNodes();
    preds.insert(preds.end(), n->control_inputs().begin(), n->control_inputs().end());
    for (Node* p : preds) {
      const auto& f = frontier[p];
      in.insert(in.end(), f.begin(), f.end());
    }
    std::sort(in.begin(), in.end());
    in.erase(std::unique(in.begin(), in.end()), in.end());
    auto it = index.find(n);
    if (it != index.end()) {
      deps[it->second] = std::move(in);
      frontier[n] = {it->second};
    } else {
      frontier[n] = std::move(in);
    }
  }
  return deps;
}

double EstimateCost(const Node& n) {
  auto elements = [](const TensorDesc& d) { return std::max<double>(0.0, static_cast<double>(d.NumElements())); };
  double out = 0, in = 0;
  for (size_t i = 0; i < n.num_outputs(); ++i) out += elements(n.output_desc(i));
  for (size_t i = 0; i < n.num_inputs(); ++i)
    if (n.HasInput(i)) {
      const Endpoint s = n.InputSource(i);
      in += elements(s.node->output_desc(s.index));
    }
  const std::string& t = n.type();
  if ((t == "Conv" || t == "ConvTranspose") && n.num_inputs() >= 2 && n.HasInput(1)) {
    const Endpoint w = n.InputSource(1);
    const auto& dims = w.node->output_desc(w.index).dims;
    double per = 1;
    for (size_t k = 1; k < dims.size(); ++k) per *= static_cast<double>(std::max<int64_t>(dims[k], 1));
    if (t == "ConvTranspose") {
      const Endpoint x = n.InputSource(0);
      return 2.0 * elements(x.node->output_desc(x.index)) * per;
    }
    return 2.0 * out * per;
  }
  if ((t == "MatMul" || t == "Gemm" || t == "FusedMatMul") && n.HasInput(0)) {
    const Endpoint a = n.InputSource(0);
    const auto& dims = a.node->output_desc(a.index).dims;
    if (!dims.empty()) {
      const bool trans = t == "Gemm" && n.GetInt("transA", 0) != 0 && dims.size() == 2;
      return 2.0 * out * static_cast<double>(std::max<int64_t>(trans ? dims[0] : dims.back(), 1));
    }
  }
  return out + in;  // memory-bound: the elements it reads and writes
}

}  // namespace ge::streams
