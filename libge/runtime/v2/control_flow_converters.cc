// The NodeConverters of control flow (docs/control-flow.md): If, Loop and
// Scan. Each subgraph is loaded in Init as a dynamic model of its own (its
// own lowering, so control flow nests); Main runs the node as one C node that
// picks a branch or iterates, binding this call's values as the subgraph's
// inputs: the node's own, then its captures (ONNX parser, attr "_captures").
#include <algorithm>
#include <cstring>
#include <limits>

#include "ge/plan/memory_limit.h"
#include "ge/runtime.h"
#include "v2/lowering.h"
#include "v2/model_v2.h"
#include "v2/run_limits.h"

namespace ge::v2 {
namespace {

// Subgraph `name` of n as a model run node by node in v2, inside the calls
// of the model that owns `limits`.
Result<std::unique_ptr<LoadedModel>> LoadSubgraph(const Model& root, const Node& n, const std::string& name,
                                                 const LoadOptions& options, RunLimits* limits) {
  auto it = n.subgraphs().find(name);
  if (it == n.subgraphs().end() || !it->second) return Corrupt("node " + n.Label() + " has no subgraph '" + name + "'");
  Model m = CopyModelInfo(root);
  m.name = root.name + "/" + n.name() + "/" + name;
  m.graph = it->second->Clone();
  DescribeGraphIo(*m.graph, m.inputs, m.outputs);
  m.dynamic = true;
  auto loaded = LoadDynamicV2(m, options, limits);
  if (!loaded.ok()) return loaded.status().Annotated("node " + n.Label() + ", subgraph '" + name + "'");
  return loaded;
}

// Init loads subgraph `name` of n into *slot (DavinciModelCreate's place for
// a subgraph); DeInit drops it.
void LoadInInit(Node& n, Lowering& l, const char* name, std::unique_ptr<LoadedModel>* slot) {
  const Model& root = l.model();
  const LoadOptions options = l.InnerModelOptions(RunMode::kV2);
  RunLimits* limits = l.state().limits;
  l.exec().init.push_back([slot, &root, &n, name, options, limits]() -> Status {
    GE_ASSIGN_OR_RETURN(*slot, LoadSubgraph(root, n, name, options, limits));
    return Status::Ok();
  });
  l.exec().deinit.push_back([slot] { slot->reset(); });
}

TensorView ViewOf(const Value& v) { return TensorView{v.dtype, v.dims, v.data}; }
TensorView ViewOf(const Tensor& t) { return TensorView{t.desc().dtype, t.desc().dims, t.data()}; }

// The first element of a condition or count, as ONNX reads it.
Result<int64_t> ScalarOf(DataType dtype, const std::vector<int64_t>& dims, const void* data, const std::string& what) {
  if (NumElements(dims) < 1 || !data) return InvalidArgument(what + " is empty");
  switch (dtype) {
    case DataType::kBool: return int64_t{*static_cast<const bool*>(data) ? 1 : 0};
    case DataType::kInt64: return *static_cast<const int64_t*>(data);
    case DataType::kInt32: return int64_t{*static_cast<const int32_t*>(data)};
    case DataType::kUInt8: return int64_t{*static_cast<const uint8_t*>(data)};
    default: return InvalidArgument(what + " is " + DataTypeName(dtype) + ", not a bool or integer");
  }
}

// Shared by the control-flow nodes: the node's values and the call's state.
struct FlowContext {
  RunState* state = nullptr;
  Node* node = nullptr;  // in the model instance's own graph: its output descs are this call's
  std::vector<Value*> in, out;  // in: null for an absent optional input
  size_t captures = 0;          // the last `captures` inputs
  std::vector<TensorView> views;
  std::vector<Tensor> results;

  Status Bind(Node& n, Lowering& l) {
    state = &l.state();
    node = &n;
    for (size_t i = 0; i < n.num_inputs(); ++i) in.push_back(n.HasInput(i) ? l.ValueOf(n.InputSource(i)) : nullptr);
    for (size_t j = 0; j < n.num_outputs(); ++j) out.push_back(l.ValueOf(&n, static_cast<int>(j)));
    const int64_t k = n.GetInt("_captures", 0);
    if (k < 0 || static_cast<size_t>(k) > in.size())
      return Corrupt("v2 lowering: " + n.Label() + " has " + std::to_string(k) + " captures");
    captures = static_cast<size_t>(k);
    return Status::Ok();
  }
  void AddCaptureViews() {
    for (size_t i = in.size() - captures; i < in.size(); ++i) views.push_back(ViewOf(*in[i]));
  }
  // Output j takes the bytes of `t` (memory from the value cache).
  Status SetOutput(size_t j, const Tensor& t) {
    Value* v = out[j];
    v->dtype = t.desc().dtype;
    v->dims = t.desc().dims;
    if (Status s = v->SetBytes(); !s.ok()) return s.Annotated("node " + node->Label() + " output " + std::to_string(j));
    if (v->bytes != t.size()) return Internal("node " + node->Label() + ": output " + std::to_string(j) + " size mismatch");
    node->output_desc(j).dims = v->dims;  // what consumers infer their shapes from
    GE_RETURN_IF_ERROR(state->memory->Alloc(*v).Annotated("output " + std::to_string(j)));
    if (v->bytes) std::memcpy(v->data, t.data(), v->bytes);
    return Status::Ok();
  }
  Status CheckResults(size_t want, const char* what) const {
    if (results.size() != want)
      return Internal("node " + node->Label() + ": the " + std::string(what) + " gave " + std::to_string(results.size()) +
                      " outputs, " + std::to_string(want) + " expected");
    return Status::Ok();
  }
  int Done(Status s) { return s.ok() ? 0 : state->Fail(s.Annotated("node " + node->Label())); }
  const RunLimits& limits() const { return *state->limits; }

  // What a Loop or Scan keeps between iterations (state and scan slices,
  // host tensors), `bytes` in all now, charged to the memory budget.
  size_t held = 0;
  Status Hold(size_t bytes) {
    MemoryBudget& budget = state->limits->memory();
    if (bytes > held && !budget.TryCharge(bytes - held))
      return InvalidArgument("keeping " + HumanBytes(static_cast<int64_t>(bytes)) + " of loop state and scan outputs: " +
                             budget.Exhausted(bytes - held));
    if (bytes < held) budget.Release(held - bytes);
    held = bytes;
    return Status::Ok();
  }
  // After a call, failed or not (the outputs are in value memory by then):
  // what the iterations kept goes back.
  void Reset() {
    views.clear();
    results.clear();
    state->limits->memory().Release(held);
    held = 0;
  }
};

size_t BytesOf(const std::vector<Tensor>& ts) {
  size_t n = 0;
  for (const Tensor& t : ts) n += t.size();
  return n;
}

// Slices stacked along a new axis 0 (a Loop's or Scan's scan outputs).
Result<Tensor> Stack(const std::vector<Tensor>& slices, const TensorDesc& declared, const std::string& what) {
  if (slices.empty()) {
    // No iteration: zero slices of whatever is known of one.
    std::vector<int64_t> dims = {0};
    if (!declared.unknown_rank())
      for (size_t k = 1; k < declared.dims.size(); ++k) dims.push_back(std::max<int64_t>(declared.dims[k], 0));
    return Tensor(TensorDesc(declared.dtype, dims), std::vector<uint8_t>());
  }
  const TensorDesc& first = slices[0].desc();
  std::vector<uint8_t> bytes;
  bytes.reserve(slices[0].size() * slices.size());
  for (const Tensor& s : slices) {
    if (s.desc().dims != first.dims || s.desc().dtype != first.dtype)
      return InvalidArgument(what + " changes from " + first.ToString() + " to " + s.desc().ToString() +
                             " between iterations");
    bytes.insert(bytes.end(), s.data(), s.data() + s.size());
  }
  std::vector<int64_t> dims = {static_cast<int64_t>(slices.size())};
  dims.insert(dims.end(), first.dims.begin(), first.dims.end());
  return Tensor(TensorDesc(first.dtype, dims), std::move(bytes));
}

// ------------------------------------------------------------------ If

struct IfContext : FlowContext {
  std::unique_ptr<LoadedModel> then_branch, else_branch;
};

int RunIf(void* context) {
  auto* c = static_cast<IfContext*>(context);
  const Value& cond = *c->in[0];
  auto taken = ScalarOf(cond.dtype, cond.dims, cond.data, "the condition");
  if (!taken.ok()) return c->Done(taken.status());
  c->views.clear();
  c->AddCaptureViews();
  LoadedModel& branch = *taken ? *c->then_branch : *c->else_branch;
  Status s = branch.ExecuteShaped(c->views, c->results);
  if (s.ok()) s = c->CheckResults(c->out.size(), "branch");
  for (size_t j = 0; s.ok() && j < c->out.size(); ++j) s = c->SetOutput(j, c->results[j]);
  return c->Done(s);
}

Status ConvertIf(Node& n, Lowering& l) {
  auto* c = l.Make<IfContext>();
  GE_RETURN_IF_ERROR(c->Bind(n, l));
  if (!c->in[0]) return Corrupt("v2 lowering: " + n.Label() + " has no condition");
  LoadInInit(n, l, "then_branch", &c->then_branch);
  LoadInInit(n, l, "else_branch", &c->else_branch);
  l.AddMain(RunIf, c);
  return Status::Ok();
}

// ------------------------------------------------------------------ Loop

// Loop(M, cond, v_initial..., captures...) -> (v_final..., scan_outputs...);
// body(iter, cond, v..., captures...) -> (cond, v..., scan slices...).
struct LoopContext : FlowContext {
  std::unique_ptr<LoadedModel> body;
  size_t carried = 0;
  std::vector<Tensor> state;
  std::vector<std::vector<Tensor>> scans;
};

Status IterateLoop(LoopContext& c) {
  int64_t trips = std::numeric_limits<int64_t>::max();
  if (c.in[0]) {
    GE_ASSIGN_OR_RETURN(trips, ScalarOf(c.in[0]->dtype, c.in[0]->dims, c.in[0]->data, "the trip count M"));
  }
  int64_t cond = 1;
  if (c.in[1]) {
    GE_ASSIGN_OR_RETURN(cond, ScalarOf(c.in[1]->dtype, c.in[1]->dims, c.in[1]->data, "the condition"));
  }
  if (!c.in[0] && !c.in[1]) return InvalidArgument("a Loop with neither a trip count nor a condition never ends");
  c.state.clear();
  for (size_t k = 0; k < c.carried; ++k) {
    const Value* v = c.in[2 + k];
    if (!v) return InvalidArgument("loop-carried input " + std::to_string(k) + " is absent");
    c.state.emplace_back(TensorDesc(v->dtype, v->dims), v->data, v->bytes);
  }
  const size_t scans = c.out.size() - c.carried;
  c.scans.assign(scans, {});
  size_t scan_bytes = 0;
  for (int64_t i = 0; i < trips && cond; ++i) {
    GE_RETURN_IF_ERROR(c.limits().CheckIteration(i));
    const Tensor iter = Tensor::FromVector<int64_t>(DataType::kInt64, {}, {i});
    const Tensor keep(TensorDesc(DataType::kBool, {}), std::vector<uint8_t>{1});
    c.views = {ViewOf(iter), ViewOf(keep)};
    for (const Tensor& t : c.state) c.views.push_back(ViewOf(t));
    c.AddCaptureViews();
    // Annotated only on failure: the string would cost every iteration.
    if (Status s = c.body->ExecuteShaped(c.views, c.results); !s.ok()) return s.Annotated("iteration " + std::to_string(i));
    GE_RETURN_IF_ERROR(c.CheckResults(1 + c.carried + scans, "body"));
    GE_ASSIGN_OR_RETURN(cond, ScalarOf(c.results[0].desc().dtype, c.results[0].desc().dims, c.results[0].data(),
                                       "the body's condition"));
    for (size_t k = 0; k < c.carried; ++k) c.state[k] = std::move(c.results[1 + k]);
    for (size_t s = 0; s < scans; ++s) {
      scan_bytes += c.results[1 + c.carried + s].size();
      c.scans[s].push_back(std::move(c.results[1 + c.carried + s]));
    }
    if (Status s = c.Hold(BytesOf(c.state) + scan_bytes); !s.ok()) return s.Annotated("iteration " + std::to_string(i));
  }
  for (size_t k = 0; k < c.carried; ++k) GE_RETURN_IF_ERROR(c.SetOutput(k, c.state[k]));
  for (size_t s = 0; s < scans; ++s) {
    GE_ASSIGN_OR_RETURN(Tensor stacked, Stack(c.scans[s], c.node->output_desc(c.carried + s),
                                              "scan output " + std::to_string(s)));
    GE_RETURN_IF_ERROR(c.SetOutput(c.carried + s, stacked));
  }
  return Status::Ok();
}

int RunLoop(void* context) {
  auto* c = static_cast<LoopContext*>(context);
  Status s = IterateLoop(*c);
  c->state.clear();
  c->scans.clear();
  c->Reset();
  return c->Done(s);
}

Status ConvertLoop(Node& n, Lowering& l) {
  auto* c = l.Make<LoopContext>();
  GE_RETURN_IF_ERROR(c->Bind(n, l));
  if (c->in.size() < 2 + c->captures) return Corrupt("v2 lowering: " + n.Label() + " lacks M and cond");
  c->carried = c->in.size() - 2 - c->captures;
  if (c->carried > c->out.size())
    return Corrupt("v2 lowering: " + n.Label() + " carries " + std::to_string(c->carried) + " values into " +
                   std::to_string(c->out.size()) + " outputs");
  LoadInInit(n, l, "body", &c->body);
  l.AddMain(RunLoop, c);
  return Status::Ok();
}

// ------------------------------------------------------------------ Scan

// Scan (opset 9+): Scan(state..., scan_inputs..., captures...) ->
// (state..., scan_outputs...); body(state..., slices..., captures...) ->
// (state..., output slices...). Scan inputs are sliced along their
// scan_input_axes (axis 0: views, no copy; another axis: each slice copied
// out), scan outputs stacked along their scan_output_axes.
struct ScanContext : FlowContext {
  std::unique_ptr<LoadedModel> body;
  size_t states = 0, scan_inputs = 0;
  std::vector<int64_t> in_directions, out_directions, in_axes, out_axes;
  std::vector<Tensor> state;
  std::vector<std::vector<Tensor>> scans;
  std::vector<std::vector<uint8_t>> slice_copies;  // per scan input sliced off axis 0
  bool opset8 = false;  // a batch axis and sequence_lens (IterateScan8)
};

// axis in [-rank, rank) -> [0, rank); what names it in the error.
Result<size_t> NormalizeAxis(int64_t axis, size_t rank, const std::string& what) {
  const int64_t r = static_cast<int64_t>(rank);
  if (axis < -r || axis >= r)
    return InvalidArgument(what + " axis " + std::to_string(axis) + " is outside a rank-" + std::to_string(rank) + " tensor");
  return static_cast<size_t>(axis < 0 ? axis + r : axis);
}

// Bytes of the dims [first, last) of `dims` as a `dtype` tensor: a slice of
// a value, checked like the value itself.
Result<size_t> PartBytes(const std::vector<int64_t>& dims, size_t first, size_t last, DataType dtype) {
  return TensorBytes(std::vector<int64_t>(dims.begin() + static_cast<std::ptrdiff_t>(first),
                                          dims.begin() + static_cast<std::ptrdiff_t>(last)),
                     dtype);
}

// Slice `at` of axis `axis` of v, copied into buf (row-major blocks).
Result<TensorView> CopySlice(const Value& v, size_t axis, int64_t at, std::vector<uint8_t>& buf) {
  std::vector<int64_t> slice = v.dims;
  const int64_t len = slice[axis];
  slice.erase(slice.begin() + static_cast<std::ptrdiff_t>(axis));
  GE_ASSIGN_OR_RETURN(const size_t outer, PartBytes(v.dims, 0, axis, DataType::kUInt8));
  GE_ASSIGN_OR_RETURN(const size_t inner, PartBytes(v.dims, axis + 1, v.dims.size(), v.dtype));
  buf.resize(outer * inner);
  const auto* src = static_cast<const uint8_t*>(v.data);
  for (size_t o = 0; o < outer; ++o) std::memcpy(buf.data() + o * inner, src + (o * len + at) * inner, inner);
  return TensorView{v.dtype, slice, buf.data()};
}

// t stacked along axis 0 ([len, rest...]) with that axis moved to `axis`.
Result<Tensor> MoveStackAxis(const Tensor& t, size_t axis) {
  const std::vector<int64_t>& d = t.desc().dims;
  if (axis == 0 || d.empty()) return t;
  const int64_t len = d[0];
  std::vector<int64_t> dims(d.begin() + 1, d.end());
  dims.insert(dims.begin() + static_cast<std::ptrdiff_t>(axis), len);
  GE_ASSIGN_OR_RETURN(const size_t outer, PartBytes(d, 1, 1 + axis, DataType::kUInt8));
  GE_ASSIGN_OR_RETURN(const size_t inner, PartBytes(d, 1 + axis, d.size(), t.desc().dtype));
  std::vector<uint8_t> bytes(t.size());
  for (int64_t k = 0; k < len; ++k)
    for (size_t o = 0; o < outer; ++o)
      std::memcpy(bytes.data() + (o * len + k) * inner, t.data() + (k * outer + o) * inner, inner);
  return Tensor(TensorDesc(t.desc().dtype, dims), std::move(bytes));
}

Status IterateScan(ScanContext& c) {
  int64_t length = -1;
  std::vector<size_t> axes(c.scan_inputs);
  for (size_t s = 0; s < c.scan_inputs; ++s) {
    const Value& v = *c.in[c.states + s];
    if (v.dims.empty()) return InvalidArgument("scan input " + std::to_string(s) + " is a scalar");
    GE_ASSIGN_OR_RETURN(axes[s], NormalizeAxis(c.in_axes[s], v.dims.size(), "scan input " + std::to_string(s) + "'s"));
    const int64_t len = v.dims[axes[s]];
    if (length >= 0 && len != length)
      return InvalidArgument("scan inputs have lengths " + std::to_string(length) + " and " + std::to_string(len));
    length = len;
  }
  GE_RETURN_IF_ERROR(c.limits().CheckIterations(length));
  c.state.clear();
  for (size_t k = 0; k < c.states; ++k) c.state.emplace_back(TensorDesc(c.in[k]->dtype, c.in[k]->dims), c.in[k]->data, c.in[k]->bytes);
  const size_t outs = c.out.size() - c.states;
  c.scans.assign(outs, {});
  size_t scan_bytes = 0;
  for (int64_t t = 0; t < length; ++t) {
    GE_RETURN_IF_ERROR(c.limits().CheckIteration(t));
    c.views.clear();
    for (const Tensor& s : c.state) c.views.push_back(ViewOf(s));
    for (size_t s = 0; s < c.scan_inputs; ++s) {
      const Value& v = *c.in[c.states + s];
      const int64_t at = c.in_directions[s] ? length - 1 - t : t;
      if (axes[s] != 0) {
        GE_ASSIGN_OR_RETURN(TensorView view, CopySlice(v, axes[s], at, c.slice_copies[s]));
        c.views.push_back(std::move(view));
        continue;
      }
      const std::vector<int64_t> slice(v.dims.begin() + 1, v.dims.end());
      GE_ASSIGN_OR_RETURN(const size_t bytes, TensorBytes(slice, v.dtype));
      c.views.push_back(TensorView{v.dtype, slice, static_cast<const uint8_t*>(v.data) + at * bytes});
    }
    c.AddCaptureViews();
    // Annotated only on failure: the string would cost every iteration.
    if (Status s = c.body->ExecuteShaped(c.views, c.results); !s.ok()) return s.Annotated("iteration " + std::to_string(t));
    GE_RETURN_IF_ERROR(c.CheckResults(c.states + outs, "body"));
    for (size_t k = 0; k < c.states; ++k) c.state[k] = std::move(c.results[k]);
    for (size_t s = 0; s < outs; ++s) {
      scan_bytes += c.results[c.states + s].size();
      c.scans[s].push_back(std::move(c.results[c.states + s]));
    }
    if (Status s = c.Hold(BytesOf(c.state) + scan_bytes); !s.ok()) return s.Annotated("iteration " + std::to_string(t));
  }
  for (size_t k = 0; k < c.states; ++k) GE_RETURN_IF_ERROR(c.SetOutput(k, c.state[k]));
  for (size_t s = 0; s < outs; ++s) {
    if (c.out_directions[s]) std::reverse(c.scans[s].begin(), c.scans[s].end());
    GE_ASSIGN_OR_RETURN(Tensor stacked, Stack(c.scans[s], c.node->output_desc(c.states + s), "scan output " + std::to_string(s)));
    GE_ASSIGN_OR_RETURN(size_t axis, NormalizeAxis(c.out_axes[s], stacked.desc().dims.size(),
                                                   "scan output " + std::to_string(s) + "'s"));
    GE_ASSIGN_OR_RETURN(Tensor moved, MoveStackAxis(stacked, axis));
    GE_RETURN_IF_ERROR(c.SetOutput(c.states + s, moved));
  }
  return Status::Ok();
}

// Scan (opset 8): in[0] sequence_lens (int32 [B], optional), then states
// [B, ...], scan inputs [B, T, ...] (directions per scan input), captures.
// Each batch element runs its own scan (sequence_lens[b] steps, else T);
// scan outputs come back [B, T, slice...], zero past a shorter sequence.
Status IterateScan8(ScanContext& c) {
  const size_t first = 1;  // after sequence_lens
  const Value& scan0 = *c.in[first + c.states];
  if (scan0.dims.size() < 2) return InvalidArgument("scan input 0 has dims of rank " + std::to_string(scan0.dims.size()) + ", not [batch, sequence, ...]");
  const int64_t batch = scan0.dims[0], steps = scan0.dims[1];
  for (size_t i = first; i < first + c.states + c.scan_inputs; ++i) {
    const Value& v = *c.in[i];
    const bool scan = i >= first + c.states;
    if (v.dims.size() < (scan ? 2u : 1u) || v.dims[0] != batch || (scan && v.dims[1] != steps))
      return InvalidArgument("input " + std::to_string(i) + " does not have the batch " + std::to_string(batch) +
                             (scan ? " and sequence length " + std::to_string(steps) : std::string()) + " of scan input 0");
  }
  std::vector<int64_t> lens(static_cast<size_t>(batch), steps);
  if (const Value* sl = c.in[0]) {
    if (sl->dtype != DataType::kInt32 || NumElements(sl->dims) != batch)
      return InvalidArgument("sequence_lens is not int32[" + std::to_string(batch) + "]");
    for (int64_t b = 0; b < batch; ++b) {
      lens[b] = static_cast<const int32_t*>(sl->data)[b];
      if (lens[b] < 0 || lens[b] > steps)
        return InvalidArgument("sequence_lens[" + std::to_string(b) + "] = " + std::to_string(lens[b]) + " is outside 0.." + std::to_string(steps));
    }
  }
  int64_t total = 0;  // iterations over every batch element, saturated
  for (int64_t len : lens) total = len > std::numeric_limits<int64_t>::max() - total ? std::numeric_limits<int64_t>::max() : total + len;
  GE_RETURN_IF_ERROR(c.limits().CheckIterations(total));
  int64_t done = 0;
  size_t kept = 0;  // bytes of the finished batch elements' states and outputs
  auto row = [](const Value& v, int64_t b) -> Result<TensorView> {  // batch element b of v: dims without the batch axis
    const std::vector<int64_t> dims(v.dims.begin() + 1, v.dims.end());
    GE_ASSIGN_OR_RETURN(const size_t bytes, TensorBytes(dims, v.dtype));
    return TensorView{v.dtype, dims, static_cast<const uint8_t*>(v.data) + b * bytes};
  };
  const size_t outs = c.out.size() - c.states;
  std::vector<std::vector<uint8_t>> state_bytes(c.states), out_bytes(outs);
  std::vector<TensorDesc> state_desc(c.states), out_desc(outs);
  for (int64_t b = 0; b < batch; ++b) {
    c.state.clear();
    for (size_t k = 0; k < c.states; ++k) {
      GE_ASSIGN_OR_RETURN(const TensorView r, row(*c.in[first + k], b));
      GE_ASSIGN_OR_RETURN(const size_t bytes, TensorBytes(r.dims, r.dtype));
      c.state.emplace_back(TensorDesc(r.dtype, r.dims), r.data, bytes);
    }
    c.scans.assign(outs, {});
    size_t scan_bytes = 0;
    for (int64_t t = 0; t < lens[b]; ++t) {
      GE_RETURN_IF_ERROR(c.limits().CheckIteration(done++));
      c.views.clear();
      for (const Tensor& s : c.state) c.views.push_back(ViewOf(s));
      for (size_t s = 0; s < c.scan_inputs; ++s) {
        GE_ASSIGN_OR_RETURN(const TensorView seq, row(*c.in[first + c.states + s], b));  // [T, slice...]
        const std::vector<int64_t> slice(seq.dims.begin() + 1, seq.dims.end());
        GE_ASSIGN_OR_RETURN(const size_t bytes, TensorBytes(slice, seq.dtype));
        const int64_t at = c.in_directions[s] ? lens[b] - 1 - t : t;
        c.views.push_back(TensorView{seq.dtype, slice, static_cast<const uint8_t*>(seq.data) + at * bytes});
      }
      c.AddCaptureViews();
      GE_RETURN_IF_ERROR(c.body->ExecuteShaped(c.views, c.results)
                             .Annotated("batch " + std::to_string(b) + ", iteration " + std::to_string(t)));
      GE_RETURN_IF_ERROR(c.CheckResults(c.states + outs, "body"));
      for (size_t k = 0; k < c.states; ++k) c.state[k] = std::move(c.results[k]);
      for (size_t s = 0; s < outs; ++s) {
        scan_bytes += c.results[c.states + s].size();
        c.scans[s].push_back(std::move(c.results[c.states + s]));
      }
      if (Status s = c.Hold(kept + BytesOf(c.state) + scan_bytes); !s.ok())
        return s.Annotated("batch " + std::to_string(b) + ", iteration " + std::to_string(t));
    }
    for (size_t k = 0; k < c.states; ++k) {
      if (b > 0 && c.state[k].desc() != state_desc[k])
        return InvalidArgument("state " + std::to_string(k) + " is " + c.state[k].desc().ToString() + " for batch " +
                               std::to_string(b) + " and " + state_desc[k].ToString() + " before");
      state_desc[k] = c.state[k].desc();
      state_bytes[k].insert(state_bytes[k].end(), c.state[k].data(), c.state[k].data() + c.state[k].size());
    }
    for (size_t s = 0; s < outs; ++s) {
      GE_ASSIGN_OR_RETURN(Tensor stacked, Stack(c.scans[s], TensorDesc(), "scan output " + std::to_string(s)));
      TensorDesc full = stacked.desc();
      if (c.scans[s].empty()) {
        if (b == 0 && lens[b] == 0) return InvalidArgument("scan output " + std::to_string(s) + " has no slice to size it (sequence_lens 0 for batch 0)");
        full = out_desc[s];
      }
      full.dims[0] = steps;
      if (b > 0 && full != out_desc[s])
        return InvalidArgument("scan output " + std::to_string(s) + " changes shape between batch elements");
      out_desc[s] = full;
      std::vector<uint8_t>& dst = out_bytes[s];
      dst.insert(dst.end(), stacked.data(), stacked.data() + stacked.size());
      GE_ASSIGN_OR_RETURN(const size_t full_bytes, TensorBytes(full.dims, full.dtype));
      dst.resize(dst.size() + full_bytes - stacked.size(), 0);  // rows past the sequence
    }
    kept = 0;
    for (const auto& bytes : state_bytes) kept += bytes.size();
    for (const auto& bytes : out_bytes) kept += bytes.size();
    GE_RETURN_IF_ERROR(c.Hold(kept).Annotated("batch " + std::to_string(b)));
  }
  for (size_t k = 0; k < c.states; ++k) {
    std::vector<int64_t> dims = {batch};
    dims.insert(dims.end(), state_desc[k].dims.begin(), state_desc[k].dims.end());
    GE_RETURN_IF_ERROR(c.SetOutput(k, Tensor(TensorDesc(c.in[first + k]->dtype, dims), std::move(state_bytes[k]))));
  }
  for (size_t s = 0; s < outs; ++s) {
    std::vector<int64_t> dims = {batch};
    dims.insert(dims.end(), out_desc[s].dims.begin(), out_desc[s].dims.end());
    GE_RETURN_IF_ERROR(c.SetOutput(c.states + s, Tensor(TensorDesc(out_desc[s].dtype, dims), std::move(out_bytes[s]))));
  }
  return Status::Ok();
}

int RunScan(void* context) {
  auto* c = static_cast<ScanContext*>(context);
  Status s = c->opset8 ? IterateScan8(*c) : IterateScan(*c);
  c->state.clear();
  c->scans.clear();
  c->Reset();
  return c->Done(s);
}

// Axes per input or output (default 0; checked against ranks per call).
Result<std::vector<int64_t>> Axes(const Node& n, const char* attr, size_t count) {
  std::vector<int64_t> a = n.GetInts(attr);
  if (a.empty()) a.assign(count, 0);
  if (a.size() != count)
    return InvalidArgument("node " + n.Label() + ": " + attr + " has " + std::to_string(a.size()) + " entries for " +
                           std::to_string(count));
  return a;
}

// Directions per input or output: 0 forward, 1 reverse.
Result<std::vector<int64_t>> Directions(const Node& n, const char* dir_attr, size_t count) {
  std::vector<int64_t> d = n.GetInts(dir_attr);
  if (d.empty()) d.assign(count, 0);
  if (d.size() != count) return InvalidArgument("node " + n.Label() + ": " + dir_attr + " has " + std::to_string(d.size()) + " entries for " + std::to_string(count));
  for (int64_t x : d)
    if (x != 0 && x != 1) return InvalidArgument("node " + n.Label() + ": " + dir_attr + " holds " + std::to_string(x));
  return d;
}

Status ConvertScan(Node& n, Lowering& l) {
  auto* c = l.Make<ScanContext>();
  GE_RETURN_IF_ERROR(c->Bind(n, l));
  const int64_t scans = n.GetInt("num_scan_inputs", 0);
  if (scans < 1 || static_cast<size_t>(scans) + c->captures > c->in.size())
    return Corrupt("v2 lowering: " + n.Label() + " has num_scan_inputs " + std::to_string(scans));
  c->scan_inputs = static_cast<size_t>(scans);
  c->opset8 = n.GetInt("_scan_opset", n.GetInt("_opset", 9)) < 9;
  const size_t first = c->opset8 ? 1 : 0;  // opset 8: sequence_lens first
  if (c->in.size() < first + c->captures + c->scan_inputs)
    return Corrupt("v2 lowering: " + n.Label() + " has too few inputs for its scan inputs");
  c->states = c->in.size() - first - c->captures - c->scan_inputs;
  if (c->states > c->out.size()) return Corrupt("v2 lowering: " + n.Label() + " has more states than outputs");
  for (size_t i = first; i < first + c->states + c->scan_inputs; ++i)
    if (!c->in[i]) return Corrupt("v2 lowering: " + n.Label() + " input " + std::to_string(i) + " is absent");
  const size_t outs = c->out.size() - c->states;
  GE_ASSIGN_OR_RETURN(c->in_directions, Directions(n, c->opset8 ? "directions" : "scan_input_directions", c->scan_inputs));
  GE_ASSIGN_OR_RETURN(c->out_directions, Directions(n, "scan_output_directions", outs));
  GE_ASSIGN_OR_RETURN(c->in_axes, Axes(n, "scan_input_axes", c->scan_inputs));
  GE_ASSIGN_OR_RETURN(c->out_axes, Axes(n, "scan_output_axes", outs));
  c->slice_copies.resize(c->scan_inputs);
  LoadInInit(n, l, "body", &c->body);
  l.AddMain(RunScan, c);
  return Status::Ok();
}

}  // namespace

void RegisterControlFlowConverters(NodeConverterRegistry& r) {
  r.Register("If", ConvertIf);
  r.Register("Loop", ConvertLoop);
  r.Register("Scan", ConvertScan);
}

}  // namespace ge::v2
