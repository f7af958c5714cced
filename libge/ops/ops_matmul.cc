// Matrix products: Gemm (2-D, optional transposes and bias) and MatMul
// (numpy semantics: 1-D operands promoted, batch dims broadcast).
#include "infer_util.h"
#include "op_families.h"
#include "shared_shapes.h"

namespace ge {
namespace {

using infer::Dims;

// Rows and columns of a Gemm operand after its optional transpose.
Result<std::pair<int64_t, int64_t>> GemmOperand(InferContext& ctx, size_t i, const char* name, const char* trans) {
  const TensorDesc& d = ctx.input(i);
  if (d.unknown_rank()) return std::pair<int64_t, int64_t>{kUnknownDim, kUnknownDim};
  if (d.rank() != 2) return ctx.Error(std::string(name) + " must be 2-D, but is " + d.ToString());
  if (ctx.node().GetInt(trans, 0)) return std::pair{d.dims[1], d.dims[0]};
  return std::pair{d.dims[0], d.dims[1]};
}

Status InferGemm(InferContext& ctx) {
  GE_ASSIGN_OR_RETURN(DataType t, infer::CommonDtype(ctx, {0, 1, 2}));
  GE_ASSIGN_OR_RETURN(auto a, GemmOperand(ctx, 0, "A", "transA"));
  GE_ASSIGN_OR_RETURN(auto b, GemmOperand(ctx, 1, "B", "transB"));
  const auto [m, ka] = a;
  const auto [kb, n] = b;
  if (ka >= 0 && kb >= 0 && ka != kb)
    return ctx.Error("A " + ctx.input(0).ToString() + " has K=" + std::to_string(ka) + " but B " +
                     ctx.input(1).ToString() + " has K=" + std::to_string(kb) + " (transA=" +
                     std::to_string(ctx.node().GetInt("transA", 0)) + ", transB=" +
                     std::to_string(ctx.node().GetInt("transB", 0)) + ")");
  const Dims out = {m, n};
  // C broadcasts one way: to the M x N result.
  if (ctx.has_input(2) && !ctx.input(2).unknown_rank()) {
    const TensorDesc& c = ctx.input(2);
    GE_ASSIGN_OR_RETURN(Dims bc, infer::Broadcast(ctx, out, c.dims));
    bool fits = c.rank() <= 2;
    for (size_t i = 0; fits && i < 2; ++i) fits = out[i] < 0 || bc[i] < 0 || bc[i] == out[i];
    if (!fits) return ctx.Error("C " + c.ToString() + " does not broadcast to the result " + DimsToString(out));
  }
  infer::SetOutput(ctx, 0, t, out);
  return Status::Ok();
}

Status InferMatMul(InferContext& ctx) {
  GE_ASSIGN_OR_RETURN(DataType t, infer::CommonDtype(ctx, {0, 1}));
  GE_ASSIGN_OR_RETURN(Dims out, infer::MatMulOutDims(ctx, 0, 1));
  infer::SetOutput(ctx, 0, t, std::move(out));
  return Status::Ok();
}

}  // namespace

Result<Dims> infer::MatMulOutDims(InferContext& ctx, size_t ia, size_t ib) {
  const TensorDesc& a = ctx.input(ia);
  const TensorDesc& b = ctx.input(ib);
  if (a.unknown_rank() || b.unknown_rank()) return UnknownRank();
  if (a.rank() == 0 || b.rank() == 0)
    return ctx.Error("operands must have rank >= 1, got " + a.ToString() + " and " + b.ToString());
  // A 1-D A is a row [1, K], a 1-D B a column [K, 1]; the added dim is dropped again.
  Dims ad = a.dims, bd = b.dims;
  if (a.rank() == 1) ad.insert(ad.begin(), 1);
  if (b.rank() == 1) bd.push_back(1);
  const int64_t ka = ad.back(), kb = bd[bd.size() - 2];
  if (ka >= 0 && kb >= 0 && ka != kb)
    return ctx.Error("inner dims differ: " + a.ToString() + " has K=" + std::to_string(ka) + ", " + b.ToString() +
                     " has K=" + std::to_string(kb));
  GE_ASSIGN_OR_RETURN(Dims out, Broadcast(ctx, Dims(ad.begin(), ad.end() - 2), Dims(bd.begin(), bd.end() - 2)));
  if (a.rank() != 1) out.push_back(ad[ad.size() - 2]);
  if (b.rank() != 1) out.push_back(bd.back());
  return out;
}

void RegisterMatMulOps(OpRegistry& r) {
  r.Register(OpBuilder("Gemm")
                 .Inputs(2, 3)
                 .Defaults({{"alpha", 1.0f}, {"beta", 1.0f}, {"transA", int64_t{0}}, {"transB", int64_t{0}}})
                 .Infer(InferGemm));
  r.Register(OpBuilder("MatMul").Inputs(2, 2).Infer(InferMatMul));
}

}  // namespace ge
