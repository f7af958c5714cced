#include "ge/ops/kernel_spec.h"

#include <type_traits>

namespace ge {
namespace {

// "a,b,c": kernel attributes have no string lists, and the lists ops carry
// (RNN activation names) hold no commas.
std::string JoinStrings(const std::vector<std::string>& v) {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i) s += (i ? "," : "") + v[i];
  return s;
}

}  // namespace

std::string PackedInputAttr(size_t input) { return kPackedAttrPrefix + std::to_string(input); }

bool IsStructuralNode(const Node& node) {
  return node.type() == op::kData || node.type() == op::kNetOutput || node.type() == op::kConst ||
         node.type() == op::kPartitionedCall || node.type() == op::kGearCase;
}

hal::KernelSpec BuildKernelSpec(const Node& node) {
  hal::KernelSpec spec;
  spec.op = node.type();
  spec.name = node.name();
  for (const auto& [k, v] : node.attrs()) {
    if (k.rfind(kPackedAttrPrefix, 0) == 0) continue;  // packed_inputs, below
    std::visit(
        [&, &key = k](const auto& x) {
          using T = std::decay_t<decltype(x)>;
          if constexpr (std::is_same_v<T, int64_t>) spec.attrs.Set(key, x);
          else if constexpr (std::is_same_v<T, float>) spec.attrs.Set(key, static_cast<double>(x));
          else if constexpr (std::is_same_v<T, bool>) spec.attrs.Set(key, int64_t{x ? 1 : 0});
          else if constexpr (std::is_same_v<T, std::string>) spec.attrs.Set(key, x);
          else if constexpr (std::is_same_v<T, std::vector<int64_t>>) spec.attrs.Set(key, x);
          else if constexpr (std::is_same_v<T, std::vector<float>>)
            spec.attrs.Set(key, std::vector<double>(x.begin(), x.end()));
          else if constexpr (std::is_same_v<T, std::vector<std::string>>)
            spec.attrs.Set(key, JoinStrings(x));
          else if constexpr (std::is_same_v<T, Tensor>) {
            if (x.desc().NumElements() == 1) spec.attrs.Set(key, x.ToDouble()[0]);
          }
        },
        v);
  }
  for (size_t i = 0; i < node.num_inputs(); ++i) {
    hal::TensorInfo info;
    if (node.HasInput(i)) {
      Endpoint src = node.InputSource(i);
      const TensorDesc& d = src.node->output_desc(src.index);
      info.dtype = d.dtype;
      info.dims = d.dims;
      info.channel_block = ChannelBlockOf(d.format);
    }
    spec.inputs.push_back(std::move(info));
    if (const Tensor* packed = node.GetTensor(PackedInputAttr(i))) {
      spec.packed_inputs.resize(node.num_inputs());
      spec.packed_inputs[i] = {packed->data(), packed->size(), node.GetString(PackedInputAttr(i) + "_format", "")};
    }
  }
  for (size_t i = 0; i < node.num_outputs(); ++i) {
    const TensorDesc& d = node.output_desc(i);
    spec.outputs.push_back(hal::TensorInfo{d.dtype, d.dims, ChannelBlockOf(d.format)});
  }
  return spec;
}

}  // namespace ge
