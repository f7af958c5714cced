// Runtime v2: lowering a Model into an ExecuteGraph and running it.
//
// Load = lower, then run Init (weights segment, feature map, kernels created
// once with their constant inputs). Execute = copy inputs in, run Main (the
// sequential executor over pre-bound kernel launches), copy outputs out.
// Unload = DeInit. Memory is a plain arena for now (one slot per tensor);
// the memory planner replaces it.
#include <cstring>
#include <map>

#include <spdlog/spdlog.h>

#include "ge/runtime.h"
#include "hal/device.h"
#include "ops/kernel_spec.h"
#include "runtime/v2/execute_graph.h"

namespace ge::v2 {
namespace {

constexpr size_t kAlign = hal::kDefaultAlignment;
size_t AlignUp(size_t v) { return (v + kAlign - 1) / kAlign * kAlign; }

// The context of one Main-graph node.
struct KernelLaunch {
  hal::Kernel* kernel;
  const void* const* inputs;
  void* const* outputs;
  const std::string* label;
  Status* error;
};

int LaunchKernel(void* context) {
  auto* c = static_cast<KernelLaunch*>(context);
  Status s = c->kernel->Run(c->inputs, c->outputs);
  if (s.ok()) return 0;
  *c->error = s.Annotated("node " + *c->label);
  return 1;
}

// Where a tensor lives: the weights segment or the feature map.
struct Slot {
  enum Segment { kWeights, kFeatureMap } segment;
  size_t offset;
  size_t bytes;
};

class ModelV2 final : public LoadedModel {
 public:
  ~ModelV2() override {
    for (auto it = graph_.deinit.rbegin(); it != graph_.deinit.rend(); ++it) (*it)();
  }

  Status Load(const Model& model) {
    inputs_ = model.inputs;
    outputs_ = model.outputs;
    GE_RETURN_IF_ERROR(Lower(model));
    for (auto& step : graph_.init) GE_RETURN_IF_ERROR(step());
    graph_.init.clear();  // Init runs once; its closures hold nothing needed later
    exec_ = SequentialExecutionData{graph_.main.size(), graph_.main.data()};
    return Status::Ok();
  }

  const std::vector<IoDesc>& inputs() const override { return inputs_; }
  const std::vector<IoDesc>& outputs() const override { return outputs_; }
  size_t device_bytes() const override { return weights_.size() + feature_map_.size(); }

  Status Execute(const std::vector<const void*>& in, const std::vector<void*>& out) override {
    if (in.size() != input_slots_.size())
      return InvalidArgument("model takes " + std::to_string(input_slots_.size()) + " inputs, got " + std::to_string(in.size()));
    if (out.size() != output_slots_.size())
      return InvalidArgument("model has " + std::to_string(output_slots_.size()) + " outputs, got " + std::to_string(out.size()));
    for (size_t i = 0; i < in.size(); ++i) std::memcpy(input_slots_[i].first, in[i], input_slots_[i].second);
    if (SequentialExecute(&exec_) >= 0) return error_;
    for (size_t i = 0; i < out.size(); ++i) std::memcpy(out[i], output_slots_[i].first, output_slots_[i].second);
    return Status::Ok();
  }

 private:
  void* Address(const Slot& s) const {
    auto* base = static_cast<uint8_t*>(s.segment == Slot::kWeights ? weights_.data() : feature_map_.data());
    return base + s.offset;
  }

  // Lowering: decide every address (as segment offsets) and record the Init,
  // Main and DeInit steps. Nothing is allocated here.
  Status Lower(const Model& model) {
    GE_ASSIGN_OR_RETURN(auto order, model.graph->TopologicalOrder());
    std::map<std::pair<const Node*, int>, Slot> slots;
    size_t weights_size = 0, fm_size = 0;
    size_t num_launches = 0, num_in = 0, num_out = 0;
    for (Node* n : order) {
      for (size_t i = 0; i < n->num_outputs(); ++i) {
        const int64_t bytes = n->output_desc(i).Bytes();
        if (bytes < 0) return Unsupported("node " + n->Label() + " has the dynamic shape " + n->output_desc(i).ToString());
        if (n->type() == op::kConst) {
          slots[{n, 0}] = Slot{Slot::kWeights, weights_size, static_cast<size_t>(bytes)};
          weights_size = AlignUp(weights_size + std::max<int64_t>(bytes, 1));
        } else {
          slots[{n, static_cast<int>(i)}] = Slot{Slot::kFeatureMap, fm_size, static_cast<size_t>(bytes)};
          fm_size = AlignUp(fm_size + std::max<int64_t>(bytes, 1));
        }
      }
      if (!IsStructuralNode(*n)) {
        ++num_launches;
        num_in += n->num_inputs();
        num_out += n->num_outputs();
      }
    }
    launches_.reserve(num_launches);
    labels_.reserve(num_launches);
    in_args_.reserve(num_in);
    out_args_.reserve(num_out);

    // Init 1: the weights segment, with every constant copied in once.
    std::vector<std::pair<const Tensor*, Slot>> consts;
    for (Node* n : order)
      if (n->type() == op::kConst) consts.push_back({n->GetTensor("value"), slots[{n, 0}]});
    graph_.init.push_back([this, weights_size, consts] {
      GE_ASSIGN_OR_RETURN(weights_, hal::DeviceBuffer::Allocate(std::max<size_t>(weights_size, 1)));
      for (const auto& [t, s] : consts)
        if (s.bytes) std::memcpy(Address(s), t->data(), s.bytes);
      return Status::Ok();
    });
    // Init 2: the feature map.
    graph_.init.push_back([this, fm_size] {
      GE_ASSIGN_OR_RETURN(feature_map_, hal::DeviceBuffer::Allocate(std::max<size_t>(fm_size, 1)));
      return Status::Ok();
    });
    // Init 3: IO bindings.
    for (Node* d : model.graph->InputNodes()) {
      Slot s = slots[{d, 0}];
      graph_.init.push_back([this, s] {
        input_slots_.push_back({Address(s), s.bytes});
        return Status::Ok();
      });
    }
    Node* net_output = model.graph->OutputNode();
    for (size_t i = 0; net_output && i < net_output->num_inputs(); ++i) {
      Endpoint src = net_output->InputSource(i);
      if (!src.valid()) return Internal("NetOutput input " + std::to_string(i) + " is unconnected");
      Slot s = slots[{src.node, src.index}];
      graph_.init.push_back([this, s] {
        output_slots_.push_back({Address(s), s.bytes});
        return Status::Ok();
      });
    }
    // Init 4: one kernel per compute node, created with its constant inputs;
    // Main gets the bound launch.
    const hal::KernelRegistry& registry = hal::CpuDevice().kernels();
    for (Node* n : order) {
      if (IsStructuralNode(*n)) continue;
      hal::KernelSpec spec = BuildKernelSpec(*n);
      std::vector<std::pair<bool, Slot>> in_slots;  // (present, slot)
      for (size_t i = 0; i < n->num_inputs(); ++i) {
        Endpoint src = n->InputSource(i);
        in_slots.push_back(src.valid() ? std::make_pair(true, slots[{src.node, src.index}]) : std::make_pair(false, Slot{}));
      }
      std::vector<Slot> out_slots;
      for (size_t i = 0; i < n->num_outputs(); ++i) out_slots.push_back(slots[{n, static_cast<int>(i)}]);
      labels_.push_back(n->Label());
      const std::string* label = &labels_.back();
      launches_.push_back(KernelLaunch{nullptr, nullptr, nullptr, label, &error_});
      KernelLaunch* launch = &launches_.back();
      graph_.main.push_back(ExecNode{LaunchKernel, launch});
      graph_.init.push_back([this, spec, in_slots, out_slots, launch, &registry]() mutable {
        const size_t in_begin = in_args_.size();
        for (const auto& [present, s] : in_slots) {
          in_args_.push_back(present ? Address(s) : nullptr);
          spec.const_inputs.push_back(present && s.segment == Slot::kWeights ? Address(s) : nullptr);
        }
        const size_t out_begin = out_args_.size();
        for (const Slot& s : out_slots) out_args_.push_back(Address(s));
        auto kernel = registry.Create(spec);
        if (!kernel.ok()) return kernel.status().Annotated("node " + *launch->label);
        launch->kernel = kernel->get();
        launch->inputs = in_args_.data() + in_begin;
        launch->outputs = out_args_.data() + out_begin;
        kernels_.push_back(std::move(kernel).value());
        return Status::Ok();
      });
    }
    graph_.deinit.push_back([this] { feature_map_ = hal::DeviceBuffer(); weights_ = hal::DeviceBuffer(); });
    graph_.deinit.push_back([this] { kernels_.clear(); });  // runs first (reverse order)
    spdlog::debug("v2 lowering: {} kernels, weights {} B, feature map {} B", num_launches, weights_size, fm_size);
    return Status::Ok();
  }

  std::vector<IoDesc> inputs_, outputs_;
  ExecuteGraph graph_;
  SequentialExecutionData exec_{0, nullptr};
  hal::DeviceBuffer weights_, feature_map_;
  std::vector<std::unique_ptr<hal::Kernel>> kernels_;
  std::vector<KernelLaunch> launches_;  // reserved up front: Main holds pointers into it
  std::vector<std::string> labels_;     // reserved up front, same reason
  std::vector<const void*> in_args_;
  std::vector<void*> out_args_;
  std::vector<std::pair<void*, size_t>> input_slots_, output_slots_;
  Status error_;
};

}  // namespace

Result<std::unique_ptr<LoadedModel>> LoadV2(const Model& model) {
  auto m = std::make_unique<ModelV2>();
  GE_RETURN_IF_ERROR(m->Load(model));
  return std::unique_ptr<LoadedModel>(std::move(m));
}

}  // namespace ge::v2

namespace ge {

Result<std::unique_ptr<LoadedModel>> LoadModel(const Model& model, RunMode mode) {
  if (mode == RunMode::kSink) return Unsupported("--mode sink is not supported yet (runtime v1 is its own issue); use --mode v2");
  if (!model.graph) return Internal("model without a graph");
  return v2::LoadV2(model);
}

}  // namespace ge
