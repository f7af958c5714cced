#include "ge/plan/memory_limit.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>

#include "ge_base/checked_math.h"

namespace ge {
namespace {

Status TooMuch(const std::string& what, int64_t bytes, int64_t limit) {
  return InvalidArgument(what + " needs " + HumanBytes(bytes) + ", more than the memory limit of " + HumanBytes(limit) +
                         " (--max_memory)");
}

}  // namespace

int64_t MachineMemoryBytes() {
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page = sysconf(_SC_PAGESIZE);
  if (pages <= 0 || page <= 0) return kMaxMemoryLimit;
  return std::min(CheckedMul(pages, page).value_or(kMaxMemoryLimit), kMaxMemoryLimit);
}

int64_t EffectiveMemoryLimit(int64_t limit) {
  return limit > 0 && limit <= kMaxMemoryLimit ? limit : MachineMemoryBytes();
}

std::string HumanBytes(int64_t bytes) {
  if (bytes < 1024) return std::to_string(bytes) + " B";
  static const char* const kUnits[] = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  double v = static_cast<double>(bytes) / 1024.0;
  size_t u = 0;
  for (; v >= 1024.0 && u + 1 < std::size(kUnits); ++u) v /= 1024.0;
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f %s", v, kUnits[u]);
  return buf;
}

Status CheckTensorSize(const TensorDesc& desc, const std::string& what, int64_t limit) {
  if (desc.too_large())
    return InvalidArgument(what + " " + desc.ToString() + " is too large: its size does not fit in 64 bits");
  for (int64_t d : desc.dims)
    if (d > kMaxDim)
      return InvalidArgument(what + " " + desc.ToString() + " has a dim of " + std::to_string(d) +
                             ", more than the largest a .om holds (2^40)");
  const int64_t bytes = desc.Bytes();
  if (bytes > limit) return TooMuch(what + " " + desc.ToString(), bytes, limit);
  return Status::Ok();
}

Status CheckMemoryLimit(const MemoryPlan& plan, int64_t limit) {
  int64_t total = 0;
  for (Segment s : {Segment::kWeights, Segment::kFeatureMap, Segment::kInput, Segment::kOutput}) {
    const int64_t size = plan.SegmentSize(s);
    if (size > limit) return TooMuch(std::string("the ") + SegmentName(s) + " segment", size, limit);
    total = CheckedAdd(total, std::max<int64_t>(size, 0)).value_or(INT64_MAX);
  }
  if (total > limit)
    return TooMuch("the model (weights " + HumanBytes(plan.weights_size) + ", feature map " +
                       HumanBytes(plan.feature_map_size) + ", input " + HumanBytes(plan.input_size) + ", output " +
                       HumanBytes(plan.output_size) + ")",
                   total, limit);
  return Status::Ok();
}

Status CheckMemoryLimit(const Model& model, int64_t limit) {
  for (size_t i = 0; i < model.inputs.size(); ++i)
    GE_RETURN_IF_ERROR(CheckTensorSize(model.inputs[i].desc, "input " + std::to_string(i) + " (" + model.inputs[i].name + ")", limit));
  for (size_t i = 0; i < model.outputs.size(); ++i)
    GE_RETURN_IF_ERROR(
        CheckTensorSize(model.outputs[i].desc, "output " + std::to_string(i) + " (" + model.outputs[i].name + ")", limit));
  if (model.graph)
    for (const Node* n : model.graph->nodes())
      for (size_t i = 0; i < n->num_outputs(); ++i)
        GE_RETURN_IF_ERROR(CheckTensorSize(n->output_desc(i), "tensor " + n->name() + ":" + std::to_string(i), limit));
  return CheckMemoryLimit(model.memory, limit);
}

}  // namespace ge
