#include "infer_util.h"

#include <algorithm>
#include <set>

#include "ge_base/checked_math.h"

namespace ge::infer {

std::optional<int64_t> DimProduct(const Dims& dims, size_t begin, size_t end) {
  int64_t p = 1;
  bool unknown = false, overflow = false;
  for (size_t i = begin; i < end && i < dims.size(); ++i) {
    if (dims[i] == 0) return 0;
    if (dims[i] < 0) {
      unknown = true;
    } else if (auto q = CheckedMul(p, dims[i])) {
      p = *q;
    } else {
      overflow = true;  // keep going: a later 0 still makes the product 0
    }
  }
  if (unknown) return kUnknownDim;
  if (overflow) return std::nullopt;
  return p;
}

std::string ValuesToString(const Dims& v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) {
    if (i) s += ',';
    s += std::to_string(v[i]);
  }
  return s + "]";
}

void SetOutput(InferContext& ctx, size_t j, DataType dtype, Dims dims) {
  TensorDesc& d = ctx.output(j);
  d.dtype = dtype;
  d.dims = std::move(dims);
}

void SetOutputLike(InferContext& ctx, size_t j, size_t i) {
  const TensorDesc& in = ctx.input(i);
  SetOutput(ctx, j, in.dtype, in.dims);
}

int64_t Opset(const Node& n) { return n.GetInt("_opset", -1); }

Result<int64_t> NormalizeAxis(const InferContext& ctx, int64_t axis, int64_t rank, const std::string& what) {
  if (axis < -rank || axis >= rank)
    return ctx.Error(what + " " + std::to_string(axis) + " is out of range for rank " + std::to_string(rank) +
                     " (valid: " + std::to_string(-rank) + ".." + std::to_string(rank - 1) + ")");
  return axis < 0 ? axis + rank : axis;
}

Result<Dims> NormalizeAxes(const InferContext& ctx, const Dims& axes, int64_t rank, const std::string& what) {
  Dims out;
  std::set<int64_t> seen;
  for (size_t i = 0; i < axes.size(); ++i) {
    GE_ASSIGN_OR_RETURN(int64_t a, NormalizeAxis(ctx, axes[i], rank, what + "[" + std::to_string(i) + "]"));
    if (!seen.insert(a).second) return ctx.Error(what + " names axis " + std::to_string(a) + " twice");
    out.push_back(a);
  }
  return out;
}

std::optional<Dims> InputInts(const InferContext& ctx, size_t i) {
  const Tensor* t = ctx.input_value(i);
  if (!t || t->empty()) return std::nullopt;
  return t->ToInt64();
}

int64_t OperandLength(const TensorDesc& d) {
  if (d.unknown_rank()) return -1;
  if (d.dims.empty()) return 1;  // a scalar operand holds one value
  if (d.dims.size() != 1) return -1;
  return d.dims[0];
}

Result<IntList> ReadIntList(InferContext& ctx, const std::string& attr, size_t input, int64_t input_since) {
  const int64_t opset = Opset(ctx.node());
  const bool has_attr = ctx.node().HasAttr(attr);
  const bool has_input = ctx.has_input(input);
  const std::string since = std::to_string(input_since);
  if (opset >= 0 && opset < input_since && has_input)
    return ctx.Error("before opset " + since + " '" + attr + "' is an attribute, but input " + std::to_string(input) +
                     " is connected (model opset " + std::to_string(opset) + ")");
  if (opset >= input_since && has_attr)
    return ctx.Error("since opset " + since + " '" + attr + "' is input " + std::to_string(input) +
                     ", not an attribute (model opset " + std::to_string(opset) + ")");
  IntList l;
  if (has_attr) {
    l.state = IntList::kKnown;
    l.values = ctx.node().GetInts(attr);
  } else if (has_input) {
    if (auto v = InputInts(ctx, input)) {
      l.state = IntList::kKnown;
      l.values = std::move(*v);
    } else {
      l.state = IntList::kUnknown;
      l.length = OperandLength(ctx.input(input));
    }
  }
  return l;
}

Result<DataType> CommonDtype(const InferContext& ctx, const std::vector<size_t>& inputs) {
  DataType t = DataType::kUndefined;
  size_t first = 0;
  for (size_t i : inputs) {
    if (!ctx.has_input(i)) continue;
    DataType d = ctx.input(i).dtype;
    if (d == DataType::kUndefined) continue;
    if (t == DataType::kUndefined) {
      t = d;
      first = i;
    } else if (d != t) {
      return ctx.Error(std::string("inputs must share one dtype, but input ") + std::to_string(first) + " is " +
                       DataTypeName(t) + " and input " + std::to_string(i) + " is " + DataTypeName(d));
    }
  }
  return t;
}

Status CheckDtype(const InferContext& ctx, size_t i, bool (*ok)(DataType), const std::string& expected) {
  if (!ctx.has_input(i)) return Status::Ok();
  DataType d = ctx.input(i).dtype;
  if (d == DataType::kUndefined || ok(d)) return Status::Ok();
  return ctx.Error("input " + std::to_string(i) + " must be " + expected + ", not " + DataTypeName(d));
}

bool IsInteger(DataType t) {
  switch (t) {
    case DataType::kInt8: case DataType::kInt16: case DataType::kInt32: case DataType::kInt64:
    case DataType::kUInt8: case DataType::kUInt16: case DataType::kUInt32: case DataType::kUInt64:
      return true;
    default:
      return false;
  }
}

Result<Dims> Broadcast(const InferContext& ctx, const Dims& a, const Dims& b) {
  auto r = BroadcastShapes(a, b);
  if (!r.ok()) return ctx.Error(r.status().message());
  return std::move(r).value();
}

// ---- windows ----

namespace {
std::string AxisLabel(size_t axis) { return "spatial axis " + std::to_string(axis); }
}  // namespace

Result<Window> ReadWindow(InferContext& ctx, size_t spatial, Dims kernel) {
  const Node& n = ctx.node();
  Window w;
  w.kernel = std::move(kernel);
  w.strides = n.GetInts("strides", Dims(spatial, 1));
  w.dilations = n.GetInts("dilations", Dims(spatial, 1));
  w.pads = n.GetInts("pads", Dims(2 * spatial, 0));
  w.auto_pad = n.GetString("auto_pad", "NOTSET");
  w.ceil_mode = n.GetInt("ceil_mode", 0) != 0;
  const std::string sp = std::to_string(spatial);
  if (w.kernel.size() != spatial)
    return ctx.Error("kernel has " + std::to_string(w.kernel.size()) + " dims for " + sp + " spatial axes");
  if (w.strides.size() != spatial)
    return ctx.Error("strides has " + std::to_string(w.strides.size()) + " values for " + sp + " spatial axes");
  if (w.dilations.size() != spatial)
    return ctx.Error("dilations has " + std::to_string(w.dilations.size()) + " values for " + sp + " spatial axes");
  if (w.pads.size() != 2 * spatial)
    return ctx.Error("pads has " + std::to_string(w.pads.size()) + " values, expected " + std::to_string(2 * spatial));
  for (size_t i = 0; i < spatial; ++i) {
    if (w.kernel[i] == 0 || w.kernel[i] < kUnknownDim)
      return ctx.Error("kernel size " + std::to_string(w.kernel[i]) + " on " + AxisLabel(i) + " must be positive");
    if (w.strides[i] < 1)
      return ctx.Error("stride " + std::to_string(w.strides[i]) + " on " + AxisLabel(i) + " must be positive");
    if (w.dilations[i] < 1)
      return ctx.Error("dilation " + std::to_string(w.dilations[i]) + " on " + AxisLabel(i) + " must be positive");
    for (int64_t v : {w.kernel[i], w.strides[i], w.dilations[i]})
      if (v > kMaxWindowValue)
        return ctx.Error("window value " + std::to_string(v) + " on " + AxisLabel(i) + " is larger than " +
                         std::to_string(kMaxWindowValue));
  }
  for (int64_t p : w.pads) {
    if (p < 0) return ctx.Error("pads must not be negative, got " + std::to_string(p));
    if (p > kMaxWindowValue) return ctx.Error("pad " + std::to_string(p) + " is larger than " + std::to_string(kMaxWindowValue));
  }
  if (w.auto_pad != "NOTSET" && w.auto_pad != "SAME_UPPER" && w.auto_pad != "SAME_LOWER" && w.auto_pad != "VALID")
    return ctx.Error("auto_pad '" + w.auto_pad + "' is not one of NOTSET, SAME_UPPER, SAME_LOWER, VALID");
  return w;
}

Result<int64_t> WindowOutDim(const InferContext& ctx, const Window& w, size_t axis, int64_t in) {
  const size_t spatial = w.kernel.size();
  const int64_t stride = w.strides[axis];
  if (in < 0) return kUnknownDim;
  // SAME_*: the output covers ceil(in / stride) positions whatever the kernel.
  if (w.auto_pad == "SAME_UPPER" || w.auto_pad == "SAME_LOWER") return (in + stride - 1) / stride;
  if (w.kernel[axis] < 0) return kUnknownDim;
  const int64_t effective = w.dilations[axis] * (w.kernel[axis] - 1) + 1;
  const int64_t pad_b = w.auto_pad == "VALID" ? 0 : w.pads[axis];
  const int64_t pad_e = w.auto_pad == "VALID" ? 0 : w.pads[axis + spatial];
  const int64_t room = in + pad_b + pad_e - effective;
  if (room < 0)
    return ctx.Error("window of " + std::to_string(effective) + " (kernel " + std::to_string(w.kernel[axis]) +
                     ", dilation " + std::to_string(w.dilations[axis]) + ") does not fit the padded input of " +
                     std::to_string(in + pad_b + pad_e) + " on " + AxisLabel(axis));
  int64_t out = room / stride + 1;
  if (w.ceil_mode) {
    out = (room + stride - 1) / stride + 1;
    // The last window must start inside the input or the left padding.
    if ((out - 1) * stride >= in + pad_b) --out;
  }
  return out;
}

Result<int64_t> TransposedOutDim(const InferContext& ctx, const Window& w, size_t axis, int64_t in,
                                 int64_t output_padding) {
  const size_t spatial = w.kernel.size();
  const int64_t stride = w.strides[axis];
  if (in < 0) return kUnknownDim;
  if (w.auto_pad == "SAME_UPPER" || w.auto_pad == "SAME_LOWER") return in * stride;
  if (w.kernel[axis] < 0) return kUnknownDim;
  const int64_t effective = w.dilations[axis] * (w.kernel[axis] - 1) + 1;
  const int64_t pads = w.auto_pad == "VALID" ? 0 : w.pads[axis] + w.pads[axis + spatial];
  const int64_t out = stride * (in - 1) + output_padding + effective - pads;
  if (out < 1)
    return ctx.Error("output size " + std::to_string(out) + " on " + AxisLabel(axis) + " is not positive (input " +
                     std::to_string(in) + ", stride " + std::to_string(stride) + ", window " +
                     std::to_string(effective) + ", pads " + std::to_string(pads) + ")");
  return out;
}

}  // namespace ge::infer
