// Array ops. Those that only move data along axes remap their axes for a
// NCHW-held input (ConcatV2, Pad, Transpose, Squeeze when the order survives,
// Shape); those that read TF's element order (Reshape, ExpandDims, Pack) take
// the input in TF's layout.
//   ConcatV2, Concat  → Concat
//   Reshape           → Reshape (int64 shape; allowzero=1: TF's 0 is a real 0)
//   Squeeze           → Squeeze;      ExpandDims → Unsqueeze
//   Pad, PadV2        → Pad (constant); MirrorPad REFLECT → Pad (reflect)
//   Transpose         → Transpose (composed with the NCHW hold; none if identity)
//   Shape             → Shape (+ Gather back to NHWC order) + Cast to out_type
//   Pack              → Unsqueeze each + Concat
//   Size              → Size + Cast to out_type;  Rank → an int32 constant (known rank)
#include <numeric>
#include <set>

#include "tf_attrs.h"
#include "tf_layout.h"
#include "tf_op_mappers.h"

namespace ge::tf_parser {

namespace {

Status Concat(const tf::NodeDef& n, TfGraphBuilder& b, int first, int count, int axis_input) {
  if (count < 1) return NodeError(n, "needs at least one value to concatenate");
  GE_ASSIGN_OR_RETURN(int64_t axis, ScalarInt(n, b, axis_input, "axis"));
  std::vector<TfValue> vs;
  bool any_nchw = false, all_4d = true;
  for (int i = first; i < first + count; ++i) {
    GE_ASSIGN_OR_RETURN(TfValue v, b.Input(n, i));
    any_nchw = any_nchw || v.nchw;
    all_4d = all_4d && b.LogicalRank(v) == 4;
    vs.push_back(v);
  }
  GE_ASSIGN_OR_RETURN(int64_t a, NormalizeAxis(n, axis, b.LogicalRank(vs[0])));
  const bool nchw = any_nchw && all_4d;
  std::vector<Endpoint> ins;
  for (const TfValue& v : vs) {
    GE_ASSIGN_OR_RETURN(Endpoint e, nchw ? b.Nchw(v) : b.Logical(v));
    ins.push_back(e);
  }
  GE_ASSIGN_OR_RETURN(Node* c, b.Add(n, "Concat", ins, {{"axis", nchw ? PhysicalAxis(a) : a}}));
  b.Define(n, 0, TfValue{Endpoint{c, 0}, nchw});
  return Status::Ok();
}

Status MapConcatV2(const tf::NodeDef& n, TfGraphBuilder& b) {
  const int k = b.NumDataInputs(n) - 1;
  return Concat(n, b, 0, k, k);
}

Status MapConcat(const tf::NodeDef& n, TfGraphBuilder& b) { return Concat(n, b, 1, b.NumDataInputs(n) - 1, 0); }

Status MapReshape(const tf::NodeDef& n, TfGraphBuilder& b) {
  GE_ASSIGN_OR_RETURN(TfValue x, b.Input(n, 0));
  GE_ASSIGN_OR_RETURN(Endpoint ex, b.Logical(x));
  GE_ASSIGN_OR_RETURN(Endpoint shape, Int64Input(n, b, 1, "shape"));
  GE_ASSIGN_OR_RETURN(Node* r, b.Add(n, "Reshape", {ex, shape}, {{"allowzero", int64_t{1}}}));
  b.Define(n, 0, TfValue{Endpoint{r, 0}, false});
  return Status::Ok();
}

Status MapSqueeze(const tf::NodeDef& n, TfGraphBuilder& b) {
  GE_ASSIGN_OR_RETURN(TfValue x, b.Input(n, 0));
  GE_ASSIGN_OR_RETURN(std::vector<int64_t> given, AttrInts(n, "squeeze_dims", std::vector<int64_t>{}));
  const std::vector<int64_t> dims = b.LogicalDims(x);
  const int64_t rank = b.LogicalRank(x);
  std::set<int64_t> drop;
  for (int64_t a : given) {
    GE_ASSIGN_OR_RETURN(int64_t na, NormalizeAxis(n, a, rank));
    drop.insert(na);
  }
  if (given.empty() && rank >= 0) {  // every 1-dim, when all dims are known
    bool known = true;
    for (size_t i = 0; i < dims.size(); ++i) {
      known = known && dims[i] >= 0;
      if (dims[i] == 1) drop.insert(static_cast<int64_t>(i));
    }
    if (!known) drop.clear();
  }
  if (drop.empty() && !given.empty()) return NodeError(n, "no axes to squeeze");
  std::vector<Endpoint> ins;
  bool done = false;
  if (x.nchw && !drop.empty() && DropKeepsLogicalOrder(drop)) {
    std::set<int64_t> phys;
    for (int64_t a : drop) phys.insert(PhysicalAxis(a));
    ins = {x.ep, b.AddInt64s(n, "axes", std::vector<int64_t>(phys.begin(), phys.end()))};
    done = true;
  }
  if (!done) {
    GE_ASSIGN_OR_RETURN(Endpoint ex, b.Logical(x));
    ins = {ex};
    if (!drop.empty()) ins.push_back(b.AddInt64s(n, "axes", std::vector<int64_t>(drop.begin(), drop.end())));
  }
  GE_ASSIGN_OR_RETURN(Node* s, b.Add(n, "Squeeze", ins));
  b.Define(n, 0, TfValue{Endpoint{s, 0}, false});
  return Status::Ok();
}

Status MapExpandDims(const tf::NodeDef& n, TfGraphBuilder& b) {
  GE_ASSIGN_OR_RETURN(TfValue x, b.Input(n, 0));
  GE_ASSIGN_OR_RETURN(int64_t axis, ScalarInt(n, b, 1, "dim"));
  const int64_t rank = b.LogicalRank(x);
  if (rank < 0) return NodeUnsupported(n, "an input of unknown rank is not supported");
  GE_ASSIGN_OR_RETURN(int64_t a, NormalizeAxis(n, axis, rank + 1));
  GE_ASSIGN_OR_RETURN(Endpoint ex, b.Logical(x));
  GE_ASSIGN_OR_RETURN(Node* u, b.Add(n, "Unsqueeze", {ex, b.AddInt64s(n, "axes", {a})}));
  b.Define(n, 0, TfValue{Endpoint{u, 0}, false});
  return Status::Ok();
}

Status MapPad(const tf::NodeDef& n, TfGraphBuilder& b, const std::string& mode, bool has_value) {
  GE_ASSIGN_OR_RETURN(TfValue x, b.Input(n, 0));
  GE_ASSIGN_OR_RETURN(std::vector<int64_t> p, ConstInts(n, b, 1, "paddings"));
  const int64_t rank = b.LogicalRank(x);
  if (rank < 0 || static_cast<int64_t>(p.size()) != 2 * rank)
    return NodeError(n, "paddings must be [rank, 2] for input " + b.Desc(x.ep).ToString());
  std::vector<int64_t> begins(static_cast<size_t>(rank)), ends(static_cast<size_t>(rank));
  for (int64_t q = 0; q < rank; ++q) {
    const int64_t l = x.nchw ? kNhwcToNchw[static_cast<size_t>(q)] : q;  // logical axis held at q
    begins[q] = p[2 * l];
    ends[q] = p[2 * l + 1];
  }
  begins.insert(begins.end(), ends.begin(), ends.end());
  std::vector<Endpoint> ins = {x.ep, b.AddInt64s(n, "pads", begins)};
  if (has_value) {
    GE_ASSIGN_OR_RETURN(TfValue v, b.Input(n, 2));
    GE_ASSIGN_OR_RETURN(Endpoint ev, b.Logical(v));
    ins.push_back(ev);
  }
  GE_ASSIGN_OR_RETURN(Node* y, b.Add(n, "Pad", ins, {{"mode", mode}}));
  b.Define(n, 0, TfValue{Endpoint{y, 0}, x.nchw});
  return Status::Ok();
}

Status MapMirrorPad(const tf::NodeDef& n, TfGraphBuilder& b) {
  GE_ASSIGN_OR_RETURN(std::string mode, AttrString(n, "mode"));
  if (mode != "REFLECT") return NodeUnsupported(n, "MirrorPad mode '" + mode + "' is not supported (REFLECT)");
  return MapPad(n, b, "reflect", false);
}

Status MapTranspose(const tf::NodeDef& n, TfGraphBuilder& b) {
  GE_ASSIGN_OR_RETURN(TfValue x, b.Input(n, 0));
  GE_ASSIGN_OR_RETURN(std::vector<int64_t> perm, ConstInts(n, b, 1, "perm"));
  const int64_t rank = b.LogicalRank(x);
  if (rank >= 0 && static_cast<int64_t>(perm.size()) != rank)
    return NodeError(n, "perm has " + std::to_string(perm.size()) + " entries for input " + b.Desc(x.ep).ToString());
  std::vector<int64_t> q;
  for (int64_t p : perm) {
    GE_ASSIGN_OR_RETURN(int64_t a, NormalizeAxis(n, p, static_cast<int64_t>(perm.size())));
    q.push_back(x.nchw ? PhysicalAxis(a) : a);
  }
  std::vector<int64_t> identity(q.size());
  std::iota(identity.begin(), identity.end(), 0);
  if (q == identity && !b.HasControlInputs(n)) {  // e.g. NHWC→NCHW of a value already held as NCHW
    b.Define(n, 0, TfValue{x.ep, false});
    return Status::Ok();
  }
  GE_ASSIGN_OR_RETURN(Node* t, b.Add(n, "Transpose", {x.ep}, {{"perm", q}}));
  b.Define(n, 0, TfValue{Endpoint{t, 0}, false});
  return Status::Ok();
}

Status MapShape(const tf::NodeDef& n, TfGraphBuilder& b) {
  GE_ASSIGN_OR_RETURN(TfValue x, b.Input(n, 0));
  GE_ASSIGN_OR_RETURN(int tf_type, AttrType(n, "out_type", tf::DT_INT32));
  if (tf_type != tf::DT_INT32 && tf_type != tf::DT_INT64) return NodeError(n, "out_type must be int32 or int64");
  const bool cast = tf_type == tf::DT_INT32;
  const bool last_is_shape = !x.nchw && !cast;
  GE_ASSIGN_OR_RETURN(Node* s, b.Add(n, "Shape", {x.ep}, {}, last_is_shape ? "" : "shape"));
  Endpoint out{s, 0};
  if (x.nchw) {  // NCHW dims read back in TF's NHWC order
    GE_ASSIGN_OR_RETURN(Node* g, b.Add(n, "Gather", {out, b.AddInt64s(n, "nhwc_order", kNchwToNhwc)},
                                       {{"axis", int64_t{0}}}, cast ? "nhwc" : ""));
    out = Endpoint{g, 0};
  }
  if (cast) {
    GE_ASSIGN_OR_RETURN(Node* c, b.Add(n, "Cast", {out}, {{"to", OnnxElemType(DataType::kInt32)}}));
    out = Endpoint{c, 0};
  }
  b.Define(n, 0, TfValue{out, false});
  return Status::Ok();
}

Status MapPack(const tf::NodeDef& n, TfGraphBuilder& b) {
  const int count = b.NumDataInputs(n);
  if (count < 1) return NodeError(n, "needs at least one value to pack");
  GE_ASSIGN_OR_RETURN(int64_t axis, AttrInt(n, "axis", 0));
  GE_ASSIGN_OR_RETURN(TfValue first, b.Input(n, 0));
  if (b.LogicalRank(first) < 0) return NodeUnsupported(n, "an input of unknown rank is not supported");
  GE_ASSIGN_OR_RETURN(int64_t a, NormalizeAxis(n, axis, b.LogicalRank(first) + 1));
  std::vector<Endpoint> parts;
  for (int i = 0; i < count; ++i) {
    GE_ASSIGN_OR_RETURN(TfValue v, b.Input(n, i));
    GE_ASSIGN_OR_RETURN(Endpoint e, b.Logical(v));
    Endpoint axes = b.AddInt64s(n, "axes_" + std::to_string(i), {a});
    GE_ASSIGN_OR_RETURN(Node* u, b.Add(n, "Unsqueeze", {e, axes}, {}, count == 1 ? "" : "expand_" + std::to_string(i)));
    parts.push_back(Endpoint{u, 0});
  }
  if (count == 1) {
    b.Define(n, 0, TfValue{parts[0], false});
    return Status::Ok();
  }
  GE_ASSIGN_OR_RETURN(Node* c, b.Add(n, "Concat", parts, {{"axis", a}}));
  b.Define(n, 0, TfValue{Endpoint{c, 0}, false});
  return Status::Ok();
}

Status MapSize(const tf::NodeDef& n, TfGraphBuilder& b) {
  GE_ASSIGN_OR_RETURN(TfValue x, b.Input(n, 0));
  GE_ASSIGN_OR_RETURN(int tf_type, AttrType(n, "out_type", tf::DT_INT32));
  if (tf_type != tf::DT_INT32 && tf_type != tf::DT_INT64) return NodeError(n, "out_type must be int32 or int64");
  const bool cast = tf_type == tf::DT_INT32;
  const DataType to = cast ? DataType::kInt32 : DataType::kInt64;
  GE_ASSIGN_OR_RETURN(Node* s, b.Add(n, "Size", {x.ep}, {}, cast ? "size" : ""));
  GE_ASSIGN_OR_RETURN(Endpoint y, CastTo(n, b, Endpoint{s, 0}, to, ""));
  b.Define(n, 0, TfValue{y, false});
  return Status::Ok();
}

Status MapRank(const tf::NodeDef& n, TfGraphBuilder& b) {
  GE_ASSIGN_OR_RETURN(TfValue x, b.Input(n, 0));
  const int64_t rank = b.LogicalRank(x);
  if (rank < 0) return NodeUnsupported(n, "an input of unknown rank is not supported");
  b.Define(n, 0, TfValue{b.AddConst(n, "", Tensor::FromVector(DataType::kInt32, {}, std::vector<int32_t>{
                                                                 static_cast<int32_t>(rank)})),
                         false});
  return Status::Ok();
}

}  // namespace

void AddArrayMappers(OpMapperTable& t) {
  t["ConcatV2"] = MapConcatV2;
  t["Concat"] = MapConcat;
  t["Reshape"] = MapReshape;
  t["Squeeze"] = MapSqueeze;
  t["ExpandDims"] = MapExpandDims;
  t["Pad"] = [](const tf::NodeDef& n, TfGraphBuilder& b) { return MapPad(n, b, "constant", false); };
  t["PadV2"] = [](const tf::NodeDef& n, TfGraphBuilder& b) { return MapPad(n, b, "constant", true); };
  t["MirrorPad"] = MapMirrorPad;
  t["Transpose"] = MapTranspose;
  t["Shape"] = MapShape;
  t["Pack"] = MapPack;
  t["Size"] = MapSize;
  t["Rank"] = MapRank;
}

}  // namespace ge::tf_parser
