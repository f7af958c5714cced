// Elementwise IR nodes of any arity for the op families, in whichever layout
// the operands allow: when one operand is held as NCHW and every other can
// follow (NHWC broadcasting turned into its NCHW equivalent), the node runs
// NCHW and its result stays held; otherwise it runs in TF's layout.
#include "tf_attrs.h"
#include "tf_op_mappers.h"

namespace ge::tf_parser {

Result<TfValue> AddElementwise(const tf::NodeDef& n, TfGraphBuilder& b, const std::string& type,
                               const std::vector<TfValue>& ins, std::map<std::string, AttrValue> attrs,
                               const std::string& suffix) {
  bool any_nchw = false, all_follow = true;
  for (const TfValue& v : ins) {
    any_nchw = any_nchw || v.nchw;
    all_follow = all_follow && b.CanBroadcastNchw(v);
  }
  const bool nchw = any_nchw && all_follow;
  std::vector<Endpoint> eps;
  for (const TfValue& v : ins) {
    GE_ASSIGN_OR_RETURN(Endpoint e, nchw ? b.BroadcastableNchw(n, v) : b.Logical(v));
    eps.push_back(e);
  }
  GE_ASSIGN_OR_RETURN(Node* y, b.Add(n, type, eps, std::move(attrs), suffix));
  return TfValue{Endpoint{y, 0}, nchw};
}

Result<std::vector<TfValue>> DataInputs(const tf::NodeDef& n, TfGraphBuilder& b, int arity) {
  const int k = b.NumDataInputs(n);
  if (arity >= 0 && k != arity)
    return NodeError(n, "takes " + std::to_string(arity) + " data inputs, has " + std::to_string(k));
  if (k < 1) return NodeError(n, "takes at least one data input");
  std::vector<TfValue> ins;
  for (int i = 0; i < k; ++i) {
    GE_ASSIGN_OR_RETURN(TfValue v, b.Input(n, i));
    ins.push_back(v);
  }
  return ins;
}

Status MapElementwise(const tf::NodeDef& n, TfGraphBuilder& b, const std::string& type, int arity,
                      std::map<std::string, AttrValue> attrs) {
  GE_ASSIGN_OR_RETURN(std::vector<TfValue> ins, DataInputs(n, b, arity));
  GE_ASSIGN_OR_RETURN(TfValue y, AddElementwise(n, b, type, ins, std::move(attrs)));
  b.Define(n, 0, y);
  return Status::Ok();
}

OpMapper Elementwise(const std::string& type, int arity, std::map<std::string, AttrValue> attrs) {
  return [=](const tf::NodeDef& n, TfGraphBuilder& b) { return MapElementwise(n, b, type, arity, attrs); };
}

OpMapper Composed(const std::string& first, const std::string& suffix, const std::string& then, int arity,
                  bool twice) {
  return [=](const tf::NodeDef& n, TfGraphBuilder& b) -> Status {
    GE_ASSIGN_OR_RETURN(std::vector<TfValue> ins, DataInputs(n, b, arity));
    GE_ASSIGN_OR_RETURN(TfValue mid, AddElementwise(n, b, first, ins, {}, suffix));
    GE_ASSIGN_OR_RETURN(TfValue y, AddElementwise(n, b, then, twice ? std::vector<TfValue>{mid, mid}
                                                                    : std::vector<TfValue>{mid}));
    b.Define(n, 0, y);
    return Status::Ok();
  };
}

}  // namespace ge::tf_parser
