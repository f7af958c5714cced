// Convolutions: X is N x C x spatial..., W is M x C/group x kernel... (Conv)
// or C x M/group x kernel... (ConvTranspose), optional bias B of M.
#include "hal/fused_attrs.h"
#include "infer_util.h"
#include "op_families.h"
#include "shared_shapes.h"

namespace ge {
namespace {

using infer::Dims;

struct ConvOperands {
  Dims x, w;       // both of the same known rank
  size_t spatial;
  int64_t group;
  infer::Window window;
};

// Reads and cross-checks X, W, kernel_shape and group; nullopt when neither
// rank is known (the output is then of unknown rank too).
Result<std::optional<ConvOperands>> ReadConv(InferContext& ctx, size_t ix = 0, size_t iw = 1) {
  const TensorDesc& x = ctx.input(ix);
  const TensorDesc& w = ctx.input(iw);
  if (x.unknown_rank() && w.unknown_rank()) return std::optional<ConvOperands>{};
  const int64_t rank = x.unknown_rank() ? w.rank() : x.rank();
  if (rank < 3)
    return ctx.Error("input must be N x C x spatial..., but has rank " + std::to_string(rank) + " (" +
                     x.ToString() + ")");
  if (!x.unknown_rank() && !w.unknown_rank() && w.rank() != x.rank())
    return ctx.Error("weights " + w.ToString() + " must have the input's rank " + std::to_string(x.rank()) +
                     " (input " + x.ToString() + ")");
  ConvOperands c;
  c.x = x.unknown_rank() ? infer::UnknownDims(rank) : x.dims;
  c.w = w.unknown_rank() ? infer::UnknownDims(rank) : w.dims;
  c.spatial = static_cast<size_t>(rank - 2);
  c.group = ctx.node().GetInt("group", 1);
  if (c.group < 1) return ctx.Error("group " + std::to_string(c.group) + " must be positive");
  Dims kernel(c.w.begin() + 2, c.w.end());
  if (ctx.node().HasAttr("kernel_shape")) {
    Dims ks = ctx.node().GetInts("kernel_shape");
    if (ks.size() == kernel.size())
      for (size_t i = 0; i < ks.size(); ++i)
        if (kernel[i] >= 0 && ks[i] != kernel[i])
          return ctx.Error("kernel_shape " + infer::ValuesToString(ks) + " disagrees with weights " + w.ToString());
    kernel = ks;
  }
  GE_ASSIGN_OR_RETURN(c.window, infer::ReadWindow(ctx, c.spatial, kernel));
  return std::optional<ConvOperands>(std::move(c));
}

Status CheckBias(InferContext& ctx, int64_t channels) {
  if (!ctx.has_input(2) || ctx.input(2).unknown_rank()) return Status::Ok();
  const TensorDesc& b = ctx.input(2);
  if (b.rank() != 1 || (channels >= 0 && b.dims[0] >= 0 && b.dims[0] != channels))
    return ctx.Error("bias " + b.ToString() + " must be 1-D with " + std::to_string(channels) + " output channels");
  return Status::Ok();
}

Status InferConv(InferContext& ctx) {
  GE_ASSIGN_OR_RETURN(DataType t, infer::CommonDtype(ctx, {0, 1, 2}));
  GE_ASSIGN_OR_RETURN(Dims out, infer::ConvOutDims(ctx, 0, 1));
  if (infer::IsUnknownRank(out)) {
    infer::SetOutput(ctx, 0, t, std::move(out));
    return Status::Ok();
  }
  GE_RETURN_IF_ERROR(CheckBias(ctx, out[1]));
  if (ctx.num_inputs() >= 4 && ctx.has_input(3)) {
    // oneDNN's sum post-op adds the residual in place of the result.
    if (ctx.node().GetInt(hal::kAttrFusedSum) == 0)
      return ctx.Error("a fourth input (the residual) needs the fused_sum attribute");
    const TensorDesc& r = ctx.input(3);
    if (r.dtype != t || r.dims != out)
      return ctx.Error("the residual " + r.ToString() + " does not match the result " + DimsToString(out));
  }
  if (ctx.num_inputs() == 5 && ctx.has_input(4) && !ctx.input(4).unknown_rank() && !ctx.input(0).unknown_rank()) {
    // conv_input_scale: X times input 4 per channel, [N, C, 1, ...].
    const TensorDesc& x = ctx.input(0);
    const TensorDesc& s = ctx.input(4);
    Dims want(x.dims.size(), 1);
    want[0] = x.dims[0];
    want[1] = x.dims[1];
    if (s.dims != want)
      return ctx.Error("the input scale " + s.ToString() + " must be one value per image and channel, " +
                       DimsToString(want));
  }
  infer::SetOutput(ctx, 0, t, std::move(out));
  return Status::Ok();
}

Status InferConvTranspose(InferContext& ctx) {
  GE_ASSIGN_OR_RETURN(DataType t, infer::CommonDtype(ctx, {0, 1, 2}));
  GE_ASSIGN_OR_RETURN(auto conv, ReadConv(ctx));
  if (!conv) {
    infer::SetOutput(ctx, 0, t, infer::UnknownRank());
    return Status::Ok();
  }
  const int64_t c = conv->x[1], wc = conv->w[0], g = conv->group;
  if (c >= 0 && wc >= 0 && c != wc)
    return ctx.Error("input has " + std::to_string(c) + " channels, but weights " + DimsToString(conv->w) +
                     " expect " + std::to_string(wc));
  const int64_t m = conv->w[1] >= 0 ? conv->w[1] * g : kUnknownDim;
  GE_RETURN_IF_ERROR(CheckBias(ctx, m));
  const size_t sp = conv->spatial;
  Dims out = {conv->x[0], m};
  // output_shape (spatial dims, or all dims) wins over the arithmetic.
  Dims given = ctx.node().GetInts("output_shape");
  if (!given.empty()) {
    if (given.size() != sp && given.size() != sp + 2)
      return ctx.Error("output_shape " + infer::ValuesToString(given) + " must have " + std::to_string(sp) + " spatial dims");
    out.insert(out.end(), given.end() - static_cast<std::ptrdiff_t>(sp), given.end());
  } else {
    Dims out_pad = ctx.node().GetInts("output_padding", Dims(sp, 0));
    if (out_pad.size() != sp)
      return ctx.Error("output_padding has " + std::to_string(out_pad.size()) + " values for " + std::to_string(sp) +
                       " spatial axes");
    for (size_t i = 0; i < sp; ++i) {
      GE_ASSIGN_OR_RETURN(int64_t d, infer::TransposedOutDim(ctx, conv->window, i, conv->x[i + 2], out_pad[i]));
      out.push_back(d);
    }
  }
  infer::SetOutput(ctx, 0, t, std::move(out));
  return Status::Ok();
}

}  // namespace

Result<Dims> infer::ConvOutDims(InferContext& ctx, size_t ix, size_t iw) {
  GE_ASSIGN_OR_RETURN(auto conv, ReadConv(ctx, ix, iw));
  if (!conv) return UnknownRank();
  const int64_t c = conv->x[1], wc = conv->w[1], m = conv->w[0], g = conv->group;
  if (c >= 0 && wc >= 0 && c != wc * g)
    return ctx.Error("input has " + std::to_string(c) + " channels, but weights " + DimsToString(conv->w) +
                     " with group " + std::to_string(g) + " expect " + std::to_string(wc * g));
  if (m >= 0 && m % g != 0)
    return ctx.Error(std::to_string(m) + " output channels do not divide into group " + std::to_string(g));
  Dims out = {conv->x[0], m};
  for (size_t i = 0; i < conv->spatial; ++i) {
    GE_ASSIGN_OR_RETURN(int64_t d, WindowOutDim(ctx, conv->window, i, conv->x[i + 2]));
    out.push_back(d);
  }
  return out;
}

void RegisterConvOps(OpRegistry& r) {
  const std::map<std::string, AttrValue> defaults = {{"auto_pad", std::string("NOTSET")}, {"group", int64_t{1}}};
  // Inputs 3 and 4 exist only after fusion: the residual of a fused_sum Conv
  // (conv_post_ops) and a per-channel scale of X (conv_input_scale).
  // With fused_sum the kernel adds the residual (input 3) into its output:
  // computed over the residual's memory, it needs no copy of it first.
  r.Register(OpBuilder("Conv").Inputs(2, 5).Defaults(defaults).Infer(InferConv).InplaceOver(0, 3));
  r.Register(OpBuilder("ConvTranspose").Inputs(2, 3).Defaults(defaults).Infer(InferConvTranspose));
}

}  // namespace ge
