#include "common/shaped_io.h"

#include "ge_base/tensor_bytes.h"

namespace ge {
namespace rt {

Status CheckShapedInputs(const std::vector<IoDesc>& descs, const std::vector<TensorView>& inputs) {
  if (inputs.size() != descs.size())
    return InvalidArgument("the model takes " + std::to_string(descs.size()) + " inputs, got " + std::to_string(inputs.size()));
  for (size_t i = 0; i < inputs.size(); ++i) {
    const TensorDesc& d = descs[i].desc;
    const TensorView& t = inputs[i];
    const std::string what = "input " + descs[i].name;
    if (t.dtype != d.dtype)
      return InvalidArgument(what + " is " + DataTypeName(t.dtype) + ", the model takes " + DataTypeName(d.dtype));
    for (int64_t x : t.dims)
      if (x < 0) return InvalidArgument(what + ": dims " + DimsToString(t.dims) + " must be known");
    Result<size_t> bytes = TensorBytes(t.dims, t.dtype);  // a huge batch is refused before any kernel sizes it
    if (!bytes.ok()) return bytes.status().Annotated(what);
    if (*bytes > 0 && !t.data) return InvalidArgument(what + " has no data");
    if (!d.Admits(t.dims))
      return InvalidArgument(what + " has dims " + DimsToString(t.dims) + ", the model takes " + d.ToString());
  }
  return Status::Ok();
}

std::vector<std::vector<int64_t>> DimRanges(const Graph& graph) {
  std::vector<std::vector<int64_t>> out;
  for (const Node* d : graph.InputNodes())
    out.push_back(d->HasAttr("dim_range") ? d->GetInts("dim_range") : std::vector<int64_t>());
  return out;
}

Status CheckDimRanges(const std::vector<IoDesc>& descs, const std::vector<std::vector<int64_t>>& ranges,
                      const std::vector<TensorView>& inputs) {
  for (size_t i = 0; i < inputs.size() && i < ranges.size(); ++i) {
    const std::vector<int64_t>& r = ranges[i];
    for (size_t k = 0; k < inputs[i].dims.size() && 2 * k + 1 < r.size(); ++k) {
      const int64_t lo = r[2 * k], hi = r[2 * k + 1], d = inputs[i].dims[k];
      if (lo < 0) continue;
      if (d < lo || (hi >= 0 && d > hi))
        return InvalidArgument("input " + descs[i].name + " has dims " + DimsToString(inputs[i].dims) + ": dim " +
                               std::to_string(k) + " is outside its range " + std::to_string(lo) + "~" +
                               std::to_string(hi) + " (--input_shape)");
    }
  }
  return Status::Ok();
}

}  // namespace rt

// Static models: the dims are the model's; the outputs are sized by it.
Status LoadedModel::ExecuteShaped(const std::vector<TensorView>& inputs, std::vector<Tensor>& outputs) {
  GE_RETURN_IF_ERROR(rt::CheckShapedInputs(this->inputs(), inputs));
  std::vector<const void*> in;
  for (const TensorView& t : inputs) in.push_back(t.data);
  std::vector<std::vector<uint8_t>> bytes(this->outputs().size());
  std::vector<void*> out;
  for (size_t j = 0; j < bytes.size(); ++j) {
    const TensorDesc& d = this->outputs()[j].desc;
    Result<size_t> b = TensorBytes(d.dims, d.dtype);
    if (!b.ok()) return b.status().Annotated("output " + this->outputs()[j].name);
    bytes[j].resize(*b);
    out.push_back(bytes[j].data());
  }
  GE_RETURN_IF_ERROR(Execute(in, out));
  outputs.clear();
  for (size_t j = 0; j < bytes.size(); ++j) outputs.emplace_back(this->outputs()[j].desc, std::move(bytes[j]));
  return Status::Ok();
}

}  // namespace ge
