#include "ge/ops/flop_count.h"

#include <set>

#include "ge_base/checked_math.h"
#include "hal/fused_attrs.h"

namespace ge {
namespace {

using Count = std::optional<int64_t>;

Count Mul(Count a, Count b) { return a && b ? CheckedMul(*a, *b) : std::nullopt; }
Count Add(Count a, Count b) { return a && b ? CheckedAdd(*a, *b) : std::nullopt; }

// What input i receives (its producer's output), else the node's own desc.
const TensorDesc* In(const Node& n, size_t i) {
  if (i >= n.num_inputs() || !n.HasInput(i)) return nullptr;
  const TensorDesc* d = n.SourceDesc(i);
  return d ? d : &n.input_desc(i);
}

Count Elements(const TensorDesc* d) {
  if (!d || !d->is_static()) return std::nullopt;
  return d->NumElements() >= 0 ? Count(d->NumElements()) : std::nullopt;
}
Count OutElements(const Node& n) { return n.num_outputs() ? Elements(&n.output_desc(0)) : std::nullopt; }

Count Product(const std::vector<int64_t>& dims, size_t from) {
  Count p = 1;
  for (size_t k = from; k < dims.size(); ++k) p = dims[k] >= 0 ? Mul(p, dims[k]) : std::nullopt;
  return p;
}

// One extra operation per output element for each post-op a fusion folded in.
Count PostOps(const Node& n, bool bias) {
  int64_t per_out =
      (bias ? 1 : 0) + (n.GetInt(hal::kAttrFusedSum, 0) ? 1 : 0) + (n.HasAttr(hal::kAttrActivation) ? 1 : 0);
  return Mul(OutElements(n), per_out);
}

// Conv, ConvInteger, QLinearConv: the weights are input w, [C_out, C_in/g, k...].
Count ConvFlops(const Node& n, size_t w, bool bias) {
  const TensorDesc* wd = In(n, w);
  if (!wd || !wd->is_static() || wd->dims.size() < 2) return std::nullopt;
  const Count window = Product(wd->dims, 1);  // C_in / group * kernel window
  return Add(Mul(Mul(OutElements(n), window), 2), PostOps(n, bias));
}

// The weights [C_in, C_out/g, k...]: each input element meets C_out/g * window of them.
Count ConvTransposeFlops(const Node& n) {
  const TensorDesc* wd = In(n, 1);
  if (!wd || !wd->is_static() || wd->dims.size() < 2) return std::nullopt;
  return Add(Mul(Mul(Elements(In(n, 0)), Product(wd->dims, 1)), 2), PostOps(n, In(n, 2) != nullptr));
}

// Every output element is a dot product of length K, A's last dim (its
// second last with Gemm's transA).
Count MatMulFlops(const Node& n, size_t a, bool bias) {
  const TensorDesc* ad = In(n, a);
  if (!ad || !ad->is_static() || ad->dims.empty()) return std::nullopt;
  const bool trans = n.type() == "Gemm" && n.GetInt("transA", 0) && ad->dims.size() == 2;
  const int64_t k = trans ? ad->dims[0] : ad->dims.back();
  return Add(Mul(Mul(OutElements(n), k), 2), PostOps(n, bias));
}

// Two matrix products over the scores [batch..., Sq, Sk] and, per score,
// the scale, the mask and the softmax's 5 (as Softmax counts). Sk and the
// inner dims come from the operands through their perms (ops_attention.cc).
Count AttentionFlops(const Node& n) {
  const TensorDesc *q = In(n, 0), *k = In(n, 1), *v = In(n, 2);
  if (!q || !k || !v || !q->is_static() || !k->is_static() || !v->is_static() || q->dims.size() < 2)
    return std::nullopt;
  const size_t last = q->dims.size() - 1;
  auto logical_last = [&](const TensorDesc& d, const char* perm) {
    const std::vector<int64_t> p = n.GetInts(perm);
    return p.size() == d.dims.size() ? d.dims[p[last]] : d.dims[last];
  };
  const int64_t d = logical_last(*q, "q_perm"), sk = logical_last(*k, "k_perm"), dv = logical_last(*v, "v_perm");
  if (dv <= 0) return std::nullopt;
  const Count out = OutElements(n);
  const Count scores = out ? Mul(Count(*out / dv), sk) : std::nullopt;  // batch x Sq x Sk
  const int64_t per_score = 2 * d + 2 * dv + 5 + 1 + (In(n, 3) ? 1 : 0);
  return Mul(scores, per_score);
}

Count PoolFlops(const Node& n) {
  const std::vector<int64_t> k = n.GetInts("kernel_shape");
  if (k.empty()) return std::nullopt;
  return Mul(OutElements(n), Product(k, 0));
}

// Global pools and reductions: one operation per input element.
bool OnePerInput(const std::string& t) {
  return t == "GlobalAveragePool" || t == "GlobalMaxPool" || t == "GlobalLpPool" || t.rfind("Reduce", 0) == 0 ||
         t == "ArgMax" || t == "ArgMin";
}

bool IsElementwise(const std::string& t) {
  static const std::set<std::string> kOps = {
      "Add", "Sub", "Mul", "Div", "Pow", "Mod", "Max", "Min", "PRelu", "Where", "Equal", "Less", "Greater",
      "LessOrEqual", "GreaterOrEqual", "And", "Or", "Xor", "Not", "BitShift", "Relu", "LeakyRelu", "Sigmoid",
      "HardSigmoid", "HardSwish", "Tanh", "Erf", "Sqrt", "Exp", "Log", "Swish", "Neg", "Abs", "Reciprocal",
      "Floor", "Ceil", "Round", "Sign", "Elu", "Selu", "Softplus", "Softsign", "ThresholdedRelu", "Shrink",
      "Celu", "Gelu", "Clip", "Mish", "Sin", "Cos", "Tan", "Asin", "Acos", "Atan", "Sinh", "Cosh", "Asinh",
      "Acosh", "Atanh", "IsNaN", "IsInf", "QuantizeLinear", "DequantizeLinear"};
  return kOps.count(t) != 0;
}

}  // namespace

std::optional<int64_t> FlopCount(const Node& n) {
  const std::string& t = n.type();
  if (t == "Conv" || t == "ConvInteger") return ConvFlops(n, 1, t == "Conv" && In(n, 2) != nullptr);
  if (t == "QLinearConv") return ConvFlops(n, 3, In(n, 8) != nullptr);
  if (t == "ConvTranspose") return ConvTransposeFlops(n);
  if (t == "MatMul" || t == "MatMulInteger") return MatMulFlops(n, 0, false);
  if (t == "QLinearMatMul") return MatMulFlops(n, 0, false);
  if (t == "Gemm") return MatMulFlops(n, 0, In(n, 2) != nullptr && n.GetFloat("beta", 1.f) != 0.f);
  if (t == "FusedMatMul") return MatMulFlops(n, 0, true);
  if (t == "FusedAttention") return AttentionFlops(n);
  if (t == "MaxPool" || t == "AveragePool") return PoolFlops(n);
  if (t == "LpPool") return Mul(PoolFlops(n), 2);
  if (OnePerInput(t)) return Elements(In(n, 0));
  if (t == "Sum" || t == "Mean")
    return Mul(OutElements(n), static_cast<int64_t>(n.num_inputs() > 1 ? n.num_inputs() - 1 : 1));
  if (IsElementwise(t)) return OutElements(n);
  if (t == "BatchNormalization") return Mul(OutElements(n), 2);
  if (t == "LayerNormalization" || t == "InstanceNormalization" || t == "GroupNormalization") {
    const int64_t affine = (In(n, 1) ? 1 : 0) + (In(n, 2) ? 1 : 0);
    return Mul(Elements(In(n, 0)), 5 + affine);
  }
  if (t == "Softmax" || t == "LogSoftmax") return Mul(OutElements(n), 5);
  if (t == "LRN") return Mul(OutElements(n), n.GetInt("size", 1) + 3);
  return int64_t{0};  // data movement, shapes, control: no arithmetic worth counting
}

std::vector<NodeFlops> CountGraphFlops(const Graph& graph) {
  std::vector<NodeFlops> rows;
  auto order = graph.TopologicalOrder();
  const std::vector<Node*> nodes = order.ok() ? *order : graph.nodes();
  for (const Node* n : nodes) {
    const std::string& t = n->type();
    if (t == op::kData || t == op::kConst || t == op::kNetOutput) continue;
    if (n->subgraphs().empty()) {
      rows.push_back({n->name(), t, FlopCount(*n)});
      continue;
    }
    // A control-flow node or partition does its work in its subgraphs.
    rows.push_back({n->name(), t, int64_t{0}});
    for (const auto& [key, sub] : n->subgraphs()) {
      if (!sub) continue;
      for (NodeFlops r : CountGraphFlops(*sub)) {
        r.name = n->name() + "/" + r.name;
        rows.push_back(std::move(r));
      }
    }
  }
  return rows;
}

int64_t TotalFlops(const std::vector<NodeFlops>& rows) {
  int64_t total = 0;
  for (const NodeFlops& r : rows)
    if (r.flops) total = CheckedAdd(total, *r.flops).value_or(total);
  return total;
}

}  // namespace ge
