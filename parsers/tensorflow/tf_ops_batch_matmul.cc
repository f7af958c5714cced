// BatchMatMul, BatchMatMulV2, BatchMatMulV3 → MatMul (numpy batch
// broadcasting, which V2/V3 have and V1's equal batch dims are a case of).
// adj_x / adj_y swap the operand's last two axes with a Transpose first.
#include <numeric>

#include "tf_attrs.h"
#include "tf_op_mappers.h"

namespace ge::tf_parser {

namespace {

Result<Endpoint> Operand(const tf::NodeDef& n, TfGraphBuilder& b, int i, bool adjoint, const std::string& suffix) {
  GE_ASSIGN_OR_RETURN(TfValue v, b.Input(n, i));
  GE_ASSIGN_OR_RETURN(Endpoint e, b.Logical(v));
  const int64_t rank = b.Desc(e).rank();
  if (rank < 2) return NodeError(n, "operands must be at least 2-D, got " + b.Desc(e).ToString());
  if (!adjoint) return e;
  std::vector<int64_t> perm(static_cast<size_t>(rank));
  std::iota(perm.begin(), perm.end(), 0);
  std::swap(perm[perm.size() - 1], perm[perm.size() - 2]);
  GE_ASSIGN_OR_RETURN(Node* t, b.Add(n, "Transpose", {e}, {{"perm", perm}}, suffix));
  return Endpoint{t, 0};
}

Status MapBatchMatMul(const tf::NodeDef& n, TfGraphBuilder& b) {
  GE_ASSIGN_OR_RETURN(bool adj_x, AttrBool(n, "adj_x", false));
  GE_ASSIGN_OR_RETURN(bool adj_y, AttrBool(n, "adj_y", false));
  if (FindAttr(n, "Tout") && FindAttr(n, "Ta")) {  // V3: mixed types are not taken
    GE_ASSIGN_OR_RETURN(int ta, AttrType(n, "Ta"));
    GE_ASSIGN_OR_RETURN(int tb, AttrType(n, "Tb", ta));
    GE_ASSIGN_OR_RETURN(int tout, AttrType(n, "Tout"));
    if (ta != tb || ta != tout) return NodeUnsupported(n, "Ta, Tb and Tout must be the same type");
  }
  GE_ASSIGN_OR_RETURN(Endpoint x, Operand(n, b, 0, adj_x, "adj_x"));
  GE_ASSIGN_OR_RETURN(Endpoint y, Operand(n, b, 1, adj_y, "adj_y"));
  GE_ASSIGN_OR_RETURN(Node* z, b.Add(n, "MatMul", {x, y}));
  b.Define(n, 0, TfValue{Endpoint{z, 0}, false});
  return Status::Ok();
}

}  // namespace

void AddBatchMatMulMappers(OpMapperTable& t) {
  for (const char* op : {"BatchMatMul", "BatchMatMulV2", "BatchMatMulV3"}) t[op] = MapBatchMatMul;
}

}  // namespace ge::tf_parser
