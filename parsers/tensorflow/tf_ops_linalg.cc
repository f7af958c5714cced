// Matrix ops, in TF's own layout:
//   Einsum          → Einsum (TF's equation syntax is ONNX's: letters, "->", "...")
//   MatrixBandPart  → Trilu(upper=0, k=num_upper) then Trilu(upper=1, k=-num_lower),
//                     each left out when its bound is negative (TF: keep that whole triangle);
//                     constant num_lower / num_upper
//   MatrixDiag, MatrixDiagV2, MatrixDiagV3 → Where(eye, Unsqueeze(diagonal, -1), padding):
//                     the main diagonal only (k = 0, square output; V3's `align` does not
//                     move a single diagonal); the last dim known
#include "tf_attrs.h"
#include "tf_op_mappers.h"

namespace ge::tf_parser {

namespace {

Status MapEinsum(const tf::NodeDef& n, TfGraphBuilder& b) {
  GE_ASSIGN_OR_RETURN(std::string equation, AttrString(n, "equation"));
  GE_ASSIGN_OR_RETURN(std::vector<TfValue> in, DataInputs(n, b, -1));
  std::vector<Endpoint> eps;
  for (const TfValue& v : in) {
    GE_ASSIGN_OR_RETURN(Endpoint e, b.Logical(v));
    eps.push_back(e);
  }
  GE_ASSIGN_OR_RETURN(Node* y, b.Add(n, "Einsum", eps, {{"equation", equation}}));
  b.Define(n, 0, TfValue{Endpoint{y, 0}, false});
  return Status::Ok();
}

// TF keeps x[..., i, j] where (num_lower < 0 || i - j <= num_lower) and
// (num_upper < 0 || j - i <= num_upper). Trilu(upper=0, k) keeps j - i <= k,
// Trilu(upper=1, k) keeps j - i >= k.
Status MapMatrixBandPart(const tf::NodeDef& n, TfGraphBuilder& b) {
  GE_ASSIGN_OR_RETURN(std::vector<TfValue> in, DataInputs(n, b, 3));
  GE_ASSIGN_OR_RETURN(int64_t lower, ScalarInt(n, b, 1, "num_lower"));
  GE_ASSIGN_OR_RETURN(int64_t upper, ScalarInt(n, b, 2, "num_upper"));
  GE_ASSIGN_OR_RETURN(Endpoint x, b.Logical(in[0]));
  const TensorDesc& d = b.Desc(x);
  if (!d.unknown_rank() && d.rank() < 2) return NodeError(n, "input must be at least 2-D, but is " + d.ToString());
  if (upper >= 0) {
    GE_ASSIGN_OR_RETURN(Node* t, b.Add(n, "Trilu", {x, b.AddInt64s(n, "k_upper", {upper}, true)},
                                       {{"upper", int64_t{0}}}, lower >= 0 ? "upper_band" : ""));
    x = Endpoint{t, 0};
  }
  if (lower >= 0) {
    GE_ASSIGN_OR_RETURN(Node* t, b.Add(n, "Trilu", {x, b.AddInt64s(n, "k_lower", {-lower}, true)},
                                       {{"upper", int64_t{1}}}));
    x = Endpoint{t, 0};
  }
  b.Define(n, 0, TfValue{x, false});
  return Status::Ok();
}

Status MapMatrixDiag(const tf::NodeDef& n, TfGraphBuilder& b, bool v2) {
  GE_ASSIGN_OR_RETURN(std::vector<TfValue> in, DataInputs(n, b, v2 ? 5 : 1));
  GE_ASSIGN_OR_RETURN(Endpoint diag, b.Logical(in[0]));
  const TensorDesc& d = b.Desc(diag);
  if (d.unknown_rank() || d.rank() < 1 || d.dims.back() < 0)
    return NodeUnsupported(n, "the diagonal needs a known rank and last dim, but is " + d.ToString());
  const int64_t size = d.dims.back();
  Endpoint padding;
  if (v2) {
    GE_ASSIGN_OR_RETURN(std::vector<int64_t> k, ConstInts(n, b, 1, "k"));
    GE_ASSIGN_OR_RETURN(int64_t rows, ScalarInt(n, b, 2, "num_rows"));
    GE_ASSIGN_OR_RETURN(int64_t cols, ScalarInt(n, b, 3, "num_cols"));
    if (k.empty() || k[0] != 0 || (k.size() == 2 && k[1] != 0) || k.size() > 2)
      return NodeUnsupported(n, "only the main diagonal (k = 0) is supported");
    if ((rows != -1 && rows != size) || (cols != -1 && cols != size))
      return NodeUnsupported(n, "only a square output (num_rows, num_cols = -1 or the diagonal's length) is supported");
    GE_ASSIGN_OR_RETURN(padding, b.Logical(in[4]));
  } else {
    GE_ASSIGN_OR_RETURN(padding, AddScalar(n, b, "zero", d.dtype, 0.0));
  }
  std::vector<uint8_t> eye(static_cast<size_t>(size * size), 0);
  for (int64_t i = 0; i < size; ++i) eye[static_cast<size_t>(i * size + i)] = 1;
  Endpoint mask = b.AddConst(n, "eye", Tensor::FromVector(DataType::kBool, {size, size}, eye));
  GE_ASSIGN_OR_RETURN(Node* col, b.Add(n, "Unsqueeze", {diag, b.AddInt64s(n, "last", {-1})}, {}, "column"));
  GE_ASSIGN_OR_RETURN(Node* y, b.Add(n, "Where", {mask, Endpoint{col, 0}, padding}));
  b.Define(n, 0, TfValue{Endpoint{y, 0}, false});
  return Status::Ok();
}

}  // namespace

void AddLinalgMappers(OpMapperTable& t) {
  t["Einsum"] = MapEinsum;
  t["MatrixBandPart"] = MapMatrixBandPart;
  t["MatrixDiag"] = [](const tf::NodeDef& n, TfGraphBuilder& b) { return MapMatrixDiag(n, b, false); };
  for (const char* op : {"MatrixDiagV2", "MatrixDiagV3"})
    t[op] = [](const tf::NodeDef& n, TfGraphBuilder& b) { return MapMatrixDiag(n, b, true); };
}

}  // namespace ge::tf_parser
