// The NodeConverters of the root graph of a dynamic model (lowering.h).
#include <algorithm>
#include <cstring>

#include "common/gear_set.h"
#include "ge/ops/kernel_spec.h"
#include "ge/ops/op_registry.h"
#include "ge/runtime.h"
#include "v2/lowering.h"

namespace ge::v2 {
namespace {

// ---------------------------------------------------------------- Data, Const

Status ConvertData(Node& n, Lowering& l) {
  const int64_t index = n.GetInt("index", 0);
  auto& in = l.inputs();
  if (index < 0 || index >= static_cast<int64_t>(l.model().inputs.size()))
    return Corrupt("v2 lowering: " + n.Label() + " has input index " + std::to_string(index));
  if (in.size() < l.model().inputs.size()) in.resize(l.model().inputs.size(), nullptr);
  in[static_cast<size_t>(index)] = l.ValueOf(&n, 0);  // bound per call (ModelV2Executor::Execute)
  return Status::Ok();
}

// Init: the constant's bytes in device memory once, aligned for the kernels.
struct ConstContext {
  hal::DeviceBuffer buffer;
};

Status ConvertConst(Node& n, Lowering& l) {
  const Tensor* t = n.GetTensor("value");
  if (!t) return Corrupt("v2 lowering: " + n.Label() + " has no value");
  Value* v = l.ValueOf(&n, 0);
  auto* c = l.Make<ConstContext>();
  hal::Device* device = &l.device();
  l.exec().init.push_back([c, v, t, device]() -> Status {
    GE_ASSIGN_OR_RETURN(c->buffer, device->Allocate(std::max<size_t>(t->size(), 1)));
    if (t->size()) std::memcpy(c->buffer.data(), t->data(), t->size());
    v->data = c->buffer.data();
    v->bytes = t->size();
    return Status::Ok();
  });
  l.AddHeld([c] { return c->buffer.size(); });
  return Status::Ok();
}

Status ConvertNetOutput(Node& n, Lowering& l) {
  for (size_t i = 0; i < n.num_inputs(); ++i) {
    if (!n.HasInput(i)) return Corrupt("v2 lowering: output " + std::to_string(i) + " is unconnected");
    l.outputs().push_back(l.ValueOf(n.InputSource(i)));
  }
  return Status::Ok();
}

// ------------------------------------------- sink models: PartitionedCall, GearCase

// A node run as a sink model: its values, and the buffers handed to the
// model per call.
struct SinkCall {
  RunState* state = nullptr;
  std::string node_label;  // "node NAME (TYPE)", for errors
  std::vector<Value*> in, out;
  std::vector<DataBuffer> in_buffers;
  std::vector<MutableBuffer> out_buffers;

  Status Bind(Node& n, Lowering& l) {
    state = &l.state();
    node_label = "node " + n.Label();
    for (size_t i = 0; i < n.num_inputs(); ++i) {
      if (!n.HasInput(i)) return Corrupt("v2 lowering: " + n.Label() + " input " + std::to_string(i) + " is unconnected");
      in.push_back(l.ValueOf(n.InputSource(i)));
    }
    for (size_t j = 0; j < n.num_outputs(); ++j) out.push_back(l.ValueOf(&n, static_cast<int>(j)));
    in_buffers.resize(in.size());
    out_buffers.resize(out.size());
    return Status::Ok();
  }
  // Memory for every output, sized by its dims.
  int AllocOutputs() {
    for (size_t j = 0; j < out.size(); ++j) {
      Value* v = out[j];
      if (Status s = v->SetBytes(); !s.ok()) return state->Fail(s.Annotated(node_label + " output " + std::to_string(j)));
      if (Status s = state->memory->Alloc(*v); !s.ok()) return state->Fail(s);
    }
    return 0;
  }
  // One execute of `model` on the values' memory: its IO addresses
  // refreshed, the whole model one HAL call.
  int Run(SinkLoadedModel& model) {
    for (size_t i = 0; i < in.size(); ++i) in_buffers[i] = DataBuffer{in[i]->data, in[i]->bytes};
    for (size_t j = 0; j < out.size(); ++j) out_buffers[j] = MutableBuffer{out[j]->data, out[j]->bytes};
    Status s = model.Execute(in_buffers, out_buffers, std::chrono::milliseconds(0));
    return s.ok() ? 0 : state->Fail(s);
  }
};

// A known-shape subgraph run as a sink model (static-executor.txt §7):
// created in Init, its IO addresses refreshed and the whole subgraph run by
// one HAL call per execute.
struct PartitionContext : SinkCall {
  std::unique_ptr<SinkLoadedModel> model;
};

int AllocPartitionOutputs(void* context) { return static_cast<PartitionContext*>(context)->AllocOutputs(); }

int DavinciModelExecute(void* context) {
  auto* c = static_cast<PartitionContext*>(context);
  return c->Run(*c->model);
}

Status ConvertPartitionedCall(Node& n, Lowering& l) {
  const auto& parts = l.model().partitions;
  auto it = std::find_if(parts.begin(), parts.end(), [&](const SubgraphPlan& p) { return p.node == n.name(); });
  if (it == parts.end()) return Corrupt("v2 lowering: " + n.Label() + " has no plan in the model");
  const size_t index = static_cast<size_t>(it - parts.begin());
  auto* c = l.Make<PartitionContext>();
  GE_RETURN_IF_ERROR(c->Bind(n, l));
  const Model& root = l.model();
  const LoadOptions options = l.InnerModelOptions(RunMode::kSink);
  // DavinciModelCreate.
  l.exec().init.push_back([c, &root, index, options]() -> Status {
    GE_ASSIGN_OR_RETURN(Model sub, PartitionModel(root, index));
    GE_ASSIGN_OR_RETURN(c->model, LoadSinkModel(sub, options));
    return Status::Ok();
  });
  l.exec().deinit.push_back([c] { c->model.reset(); });
  l.AddHeld([c] { return c->model ? c->model->device_bytes() : 0; });
  l.AddMain(AllocPartitionOutputs, c);
  l.AddMain(DavinciModelExecute, c);
  return Status::Ok();
}

// ATC's gears: every gear a sink model created in Init (one weights segment
// for all); per call the gear whose input dims match runs in one HAL call.
struct GearContext : SinkCall {
  rt::GearSet gears;
  size_t gear = 0;
  std::vector<const std::vector<int64_t>*> dims;
};

// Picks the gear and gives the outputs its dims and memory.
int SelectGear(void* context) {
  auto* c = static_cast<GearContext*>(context);
  for (size_t k = 0; k < c->in.size(); ++k) c->dims[k] = &c->in[k]->dims;
  auto gear = c->gears.Select(c->dims);
  if (!gear.ok()) return c->state->Fail(gear.status());
  c->gear = *gear;
  const std::vector<IoDesc>& descs = c->gears.outputs(c->gear);
  for (size_t j = 0; j < c->out.size(); ++j) {
    c->out[j]->dtype = descs[j].desc.dtype;
    c->out[j]->dims = descs[j].desc.dims;
  }
  return c->AllocOutputs();
}

int GearExecute(void* context) {
  auto* c = static_cast<GearContext*>(context);
  return c->Run(c->gears.model(c->gear));
}

Status ConvertGearCase(Node& n, Lowering& l) {
  auto* c = l.Make<GearContext>();
  GE_RETURN_IF_ERROR(c->Bind(n, l));
  c->dims.resize(c->in.size());
  const Model& root = l.model();
  const std::string node = n.name();
  const LoadOptions options = l.InnerModelOptions(RunMode::kSink);
  l.exec().init.push_back([c, &root, node, options]() -> Status { return c->gears.Load(root, node, options); });
  l.exec().deinit.push_back([c] { c->gears.Unload(); });
  l.AddHeld([c] { return c->gears.device_bytes(); });
  l.AddMain(SelectGear, c);
  l.AddMain(GearExecute, c);
  return Status::Ok();
}

// ------------------------------------------------------- unknown-shape ops

struct OpContext;

// What an op's output shapes and kernel depend on: its input dims and the
// bytes of its value inputs. InferShape keeps the last one seen, each
// prepared kernel the one it was created for.
struct InputKey {
  std::vector<std::vector<int64_t>> dims;    // per input (empty for an absent one)
  std::vector<std::vector<uint8_t>> values;  // per value input
  bool Matches(const OpContext& c) const;
  void Capture(const OpContext& c);
};

// One prepared kernel; its key's value bytes are the kernel's constants.
struct Prepared {
  InputKey key;
  std::unique_ptr<hal::Kernel> kernel;
};

// Shared by the C nodes of one op: InferShape, PrepareKernel, AllocMemory,
// Launch (or View for ops whose outputs are views of an input).
struct OpContext {
  RunState* state = nullptr;
  hal::Device* device = nullptr;
  Node* node = nullptr;  // in the model instance's own graph: its descs are this call's
  const OpDef* def = nullptr;
  std::vector<Value*> in, out;
  std::vector<int> view_of;             // per output: the input it views, or -1
  std::vector<const Node*> constants;   // per input: the Const producer, or null
  std::vector<int> value_inputs;        // OpDef::value_inputs present here
  // InferShape runs only when the dims or the value inputs changed.
  bool inferred = false;
  InputKey last;
  bool computed = false;  // outputs sized by the kernel (OpDef::computed_shape)
  // Prepared kernels, most recent first; a bounded cache per node.
  std::vector<std::unique_ptr<Prepared>> cache;
  Prepared* current = nullptr;
  std::vector<const void*> in_ptrs;
  std::vector<void*> out_ptrs;
  std::vector<std::vector<int64_t>> computed_dims;
};
constexpr size_t kMaxPreparedPerNode = 8;

bool SameBytes(const Value* v, const std::vector<uint8_t>& bytes) {
  return v->bytes == bytes.size() && (bytes.empty() || std::memcmp(v->data, bytes.data(), bytes.size()) == 0);
}

std::vector<uint8_t> CopyBytes(const Value* v) {
  const auto* p = static_cast<const uint8_t*>(v->data);
  return p ? std::vector<uint8_t>(p, p + v->bytes) : std::vector<uint8_t>();
}

bool InputKey::Matches(const OpContext& c) const {
  for (size_t i = 0; i < c.in.size(); ++i)
    if (c.in[i] && c.in[i]->dims != dims[i]) return false;
  for (size_t k = 0; k < c.value_inputs.size(); ++k)
    if (!SameBytes(c.in[c.value_inputs[k]], values[k])) return false;
  return true;
}

void InputKey::Capture(const OpContext& c) {
  dims.resize(c.in.size());
  for (size_t i = 0; i < c.in.size(); ++i)
    if (c.in[i]) dims[i] = c.in[i]->dims;
  values.resize(c.value_inputs.size());
  for (size_t k = 0; k < c.value_inputs.size(); ++k) values[k] = CopyBytes(c.in[c.value_inputs[k]]);
}

int InferShape(void* context) {
  auto* c = static_cast<OpContext*>(context);
  if (c->inferred && c->last.Matches(*c)) return 0;
  c->last.Capture(*c);
  Node& n = *c->node;
  // Values of inputs: constants, and the declared value inputs from memory.
  std::vector<Tensor> values(c->in.size());
  auto value_of = [c, &values](size_t i) -> const Tensor* {
    if (i >= c->in.size() || !c->in[i]) return nullptr;
    if (c->constants[i]) return c->constants[i]->GetTensor("value");
    if (std::find(c->value_inputs.begin(), c->value_inputs.end(), static_cast<int>(i)) == c->value_inputs.end())
      return nullptr;
    if (values[i].empty()) {
      const Value* v = c->in[i];
      values[i] = Tensor(TensorDesc(v->dtype, v->dims), v->data, v->bytes);
    }
    return &values[i];
  };
  if (Status s = InferNode(n, value_of); !s.ok()) return c->state->Fail(s);
  for (size_t j = 0; j < c->out.size(); ++j) {
    const TensorDesc& d = n.output_desc(j);
    if (!d.is_static() && !c->computed)
      return c->state->Fail(InvalidArgument("node " + n.Label() + ": output " + std::to_string(j) + " is " + d.ToString() +
                                            " after inference at run time"));
    // Shapes from run-time values (Expand, ConstantOfShape, Tile, Range)
    // can be too large for any memory: refused here, naming the node.
    if (d.is_static())
      if (Result<size_t> b = TensorBytes(d.dims, d.dtype); !b.ok())
        return c->state->Fail(b.status().Annotated("node " + n.Label() + " output " + std::to_string(j)));
    c->out[j]->dtype = d.dtype;
    c->out[j]->dims = d.dims;
  }
  c->inferred = true;
  return 0;
}

int PrepareKernel(void* context) {
  auto* c = static_cast<OpContext*>(context);
  if (c->current && c->current->key.Matches(*c)) return 0;
  for (size_t i = 0; i < c->cache.size(); ++i)
    if (c->cache[i]->key.Matches(*c)) {
      std::rotate(c->cache.begin(), c->cache.begin() + static_cast<long>(i), c->cache.begin() + static_cast<long>(i) + 1);
      c->current = c->cache.front().get();
      return 0;
    }
  auto p = std::make_unique<Prepared>();
  p->key.Capture(*c);
  hal::KernelSpec spec = BuildKernelSpec(*c->node);
  spec.const_inputs.assign(c->in.size(), nullptr);
  for (size_t i = 0; i < c->in.size(); ++i)
    if (c->constants[i]) spec.const_inputs[i] = c->in[i]->data;
  // An empty value (axes = []) is still a known constant: a non-null pointer.
  static const uint8_t kEmpty = 0;
  for (size_t k = 0; k < c->value_inputs.size(); ++k)
    spec.const_inputs[c->value_inputs[k]] = p->key.values[k].empty() ? &kEmpty : p->key.values[k].data();
  auto kernel = c->device->kernels().Create(spec);
  if (!kernel.ok()) return c->state->Fail(kernel.status());
  p->kernel = std::move(kernel).value();
  if (c->cache.size() >= kMaxPreparedPerNode) c->cache.pop_back();
  c->cache.insert(c->cache.begin(), std::move(p));
  c->current = c->cache.front().get();
  return 0;
}

int AllocMemory(void* context) {
  auto* c = static_cast<OpContext*>(context);
  for (size_t i = 0; i < c->in.size(); ++i) c->in_ptrs[i] = c->in[i] ? c->in[i]->data : nullptr;
  if (c->computed) {
    if (Status s = c->current->kernel->OutputDims(c->in_ptrs.data(), c->computed_dims); !s.ok())
      return c->state->Fail(s);
    if (c->computed_dims.size() != c->out.size())
      return c->state->Fail(Internal("node " + c->node->Label() + ": the kernel sized " +
                                     std::to_string(c->computed_dims.size()) + " outputs"));
    for (size_t j = 0; j < c->out.size(); ++j) {
      c->out[j]->dims = c->computed_dims[j];
      c->node->output_desc(j).dims = c->computed_dims[j];  // what consumers infer from
    }
  }
  for (size_t j = 0; j < c->out.size(); ++j) {
    Value* v = c->out[j];
    if (Status s = v->SetBytes(); !s.ok())
      return c->state->Fail(s.Annotated("node " + c->node->Label() + " output " + std::to_string(j)));
    if (Status s = c->state->memory->Alloc(*v); !s.ok())
      return c->state->Fail(s.Annotated("node " + c->node->Label() + " output " + std::to_string(j)));
    c->out_ptrs[j] = v->data;
  }
  return 0;
}

int Launch(void* context) {
  auto* c = static_cast<OpContext*>(context);
  Status s = c->current->kernel->Run(c->in_ptrs.data(), c->out_ptrs.data());
  return s.ok() ? 0 : c->state->Fail(s);
}

// Outputs that share an input's memory: the address passes through.
int View(void* context) {
  auto* c = static_cast<OpContext*>(context);
  for (size_t j = 0; j < c->out.size(); ++j) {
    const Value* in = c->in[c->view_of[j]];
    Value* v = c->out[j];
    if (Status s = v->SetBytes(); !s.ok())
      return c->state->Fail(s.Annotated("node " + c->node->Label() + " output " + std::to_string(j)));
    if (v->bytes != in->bytes)
      return c->state->Fail(Internal("node " + c->node->Label() + ": a view of " + std::to_string(in->bytes) +
                                     " bytes as " + std::to_string(v->bytes)));
    v->data = in->data;
  }
  return 0;
}

Status ConvertOp(Node& n, Lowering& l) {
  const OpDef* def = OpRegistry::Global().Find(n.type());
  if (!def) return Unsupported("v2 lowering: node " + n.Label() + ": op type not supported");
  auto* c = l.Make<OpContext>();
  c->state = &l.state();
  c->device = &l.device();
  c->node = &n;
  c->def = def;
  c->computed = def->computed_shape;
  for (size_t i = 0; i < n.num_inputs(); ++i) {
    c->in.push_back(n.HasInput(i) ? l.ValueOf(n.InputSource(i)) : nullptr);
    Node* src = n.InputNode(i);
    c->constants.push_back(src && src->type() == op::kConst ? src : nullptr);
  }
  for (int k : def->value_inputs)
    if (k >= 0 && static_cast<size_t>(k) < c->in.size() && c->in[k] && !c->constants[k]) c->value_inputs.push_back(k);
  for (size_t j = 0; j < n.num_outputs(); ++j) {
    c->out.push_back(l.ValueOf(&n, static_cast<int>(j)));
    c->view_of.push_back(Lowering::ViewOf(n, j));
  }
  c->in_ptrs.resize(c->in.size());
  c->out_ptrs.resize(c->out.size());
  l.AddMain(InferShape, c);
  if (!c->view_of.empty() && c->view_of[0] >= 0) {
    l.AddMain(View, c);
    return Status::Ok();
  }
  l.AddMain(PrepareKernel, c);
  l.AddMain(AllocMemory, c);
  l.AddMain(Launch, c);
  return Status::Ok();
}

}  // namespace

void RegisterBuiltinConverters(NodeConverterRegistry& r) {
  r.Register(op::kData, ConvertData);
  r.Register(op::kConst, ConvertConst);
  r.Register(op::kNetOutput, ConvertNetOutput);
  r.Register(op::kPartitionedCall, ConvertPartitionedCall);
  r.Register(op::kGearCase, ConvertGearCase);
  RegisterControlFlowConverters(r);
  r.RegisterDefault(ConvertOp);
}

}  // namespace ge::v2
