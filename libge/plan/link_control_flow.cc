// LinkModel: a static model's control-flow subgraph plans linked into one
// task list of label tasks and control kernels (ge/plan/link.h).
#include "ge/plan/link.h"

#include <algorithm>

#include "ge_base/checked_math.h"

namespace ge {
namespace {

constexpr int64_t kCtrlBytes = 64;  // iteration i64 at +0, cond bool at +8, switch index i32 at +16

int64_t Align(int64_t v, int64_t a) { return CheckedAlignUp(v, a).value_or(-1); }

// What input i of n receives; absent: undefined.
TensorDesc InDesc(const Node& n, size_t i) {
  const TensorDesc* d = n.SourceDesc(i);
  return d ? *d : TensorDesc();
}

// Where one graph's segments land in the linked plan.
struct Frame {
  std::string prefix;        // "" for the root, "loop1/body/" inside a body
  const MemoryPlan* plan = nullptr;
  int64_t weights_base = 0;  // its weights segment in the linked one
  int64_t fm_base = 0;       // its feature map in the linked one
  bool root = true;
  std::vector<TaskArg> inputs, outputs;  // a subgraph's IO bindings: where each input / output really is
};

class Linker {
 public:
  explicit Linker(const Model& m) : m_(m) {}

  Result<LinkedPlan> Run() {
    if (m_.streams.size() != 1) return Fail("", "a model with control flow runs on one stream; it has " + std::to_string(m_.streams.size()));
    out_.memory = m_.memory;  // the subgraphs' weights and workspaces are added to it
    Frame root;
    root.plan = &m_.memory;
    GE_ASSIGN_OR_RETURN(int64_t extent, Emit(*m_.graph, m_.streams, root));
    out_.memory.feature_map_size = extent;
    StreamTasks s;
    s.stream = 0;
    s.tasks = std::move(stream_);
    out_.streams.push_back(std::move(s));
    out_.num_labels = labels_;
    // Kernel ids in task order, as unlinked lists number them.
    int32_t k = 0;
    for (Task& t : out_.streams[0].tasks)
      if (t.kind == Task::Kind::kKernel) t.kernel = k++;
    return std::move(out_);
  }

 private:
  Status Fail(const std::string& node, const std::string& msg) const {
    return Corrupt("model " + m_.name + (node.empty() ? "" : ": node " + node) + ": " + msg);
  }

  const SubgraphPlan* FindPlan(const std::string& node, const std::string& subgraph) const {
    for (const SubgraphPlan& p : m_.partitions)
      if (p.node == node && p.subgraph == subgraph) return &p;
    return nullptr;
  }

  // A task argument of the graph in frame `f`, moved to the linked plan.
  Result<TaskArg> Map(const TaskArg& a, const Frame& f, const std::string& where) const {
    if (a.offset < 0) return a;
    switch (a.segment) {
      case Segment::kWeights: return TaskArg{Segment::kWeights, f.weights_base + a.offset};
      case Segment::kFeatureMap: return TaskArg{Segment::kFeatureMap, f.fm_base + a.offset};
      case Segment::kInput:
      case Segment::kOutput: {
        if (f.root) return a;
        const bool in = a.segment == Segment::kInput;
        const std::vector<IoBinding>& bindings = in ? f.plan->inputs : f.plan->outputs;
        const std::vector<TaskArg>& targets = in ? f.inputs : f.outputs;
        for (size_t i = 0; i < bindings.size() && i < targets.size(); ++i) {
          const IoBinding& b = bindings[i];
          if (a.offset >= b.offset && (a.offset < b.offset + b.size || a.offset == b.offset)) {
            if (targets[i].offset < 0) return Fail(where, std::string("reads absent ") + (in ? "input " : "output ") + std::to_string(i));
            return TaskArg{targets[i].segment, targets[i].offset + (a.offset - b.offset)};
          }
        }
        return Fail(where, std::string("an address in the ") + SegmentName(a.segment) + " segment that no binding holds");
      }
    }
    return Fail(where, "an argument in an unknown segment");
  }

  void Label(Task::Kind kind, int32_t label) {
    Task t;
    t.kind = kind;
    t.label = label;
    t.kernel = -1;
    stream_.push_back(std::move(t));
  }

  // Continues at labels[index] (the last one for an index out of range).
  void Switch(const TaskArg& index, std::vector<int32_t> labels) {
    Task t;
    t.kind = Task::Kind::kLabelSwitch;
    t.kernel = -1;
    t.inputs = {index};
    t.labels = std::move(labels);
    stream_.push_back(std::move(t));
  }

  void Control(const std::string& node, const std::string& op, std::vector<TaskArg> in, std::vector<TensorDesc> in_descs,
               std::vector<TaskArg> out, std::vector<TensorDesc> out_descs) {
    Task t;
    t.node = node;
    t.op = op;
    t.inputs = std::move(in);
    t.outputs = std::move(out);
    t.in_descs = std::move(in_descs);
    t.out_descs = std::move(out_descs);
    stream_.push_back(std::move(t));
  }

  void Copy(const std::string& node, const TaskArg& src, const TaskArg& dst, int64_t bytes) {
    if (bytes <= 0 || (src.segment == dst.segment && src.offset == dst.offset)) return;
    const TensorDesc d(DataType::kUInt8, {bytes});
    Control(node, "MemcpyAsync", {src}, {d}, {dst}, {d});
  }

  // Emits the tasks of one graph; returns the bytes its linked feature map
  // takes from f.fm_base (its own plus the largest workspace of its
  // control-flow nodes).
  Result<int64_t> Emit(const Graph& g, const std::vector<StreamTasks>& streams, const Frame& f) {
    const int64_t align = m_.memory.alignment;
    const int64_t ws_base = f.fm_base + Align(f.plan->feature_map_size, align);
    int64_t ws_size = 0;
    for (const Node* n : g.nodes()) out_.nodes[f.prefix + n->name()] = n;
    if (!f.root) {
      for (const BufferPlan& b : f.plan->buffers) {
        if (b.segment != Segment::kWeights) continue;
        BufferPlan w = b;
        w.node = f.prefix + b.node;
        w.offset += f.weights_base;
        out_.memory.buffers.push_back(std::move(w));
      }
    }
    for (const StreamTasks& st : streams)
      for (const Task& t : st.tasks) {
        if (t.kind != Task::Kind::kKernel) {
          if (!f.root) return Fail(f.prefix + t.node, "a subgraph plan with event tasks");
          stream_.push_back(t);
          continue;
        }
        const Node* n = g.FindNode(t.node);
        if (!n) return Fail(f.prefix + t.node, "a task for a node the graph does not have");
        const std::string path = f.prefix + n->name();
        std::vector<TaskArg> in, outs;
        for (const TaskArg& a : t.inputs) {
          GE_ASSIGN_OR_RETURN(TaskArg m, Map(a, f, path));
          in.push_back(m);
        }
        for (const TaskArg& a : t.outputs) {
          GE_ASSIGN_OR_RETURN(TaskArg m, Map(a, f, path));
          outs.push_back(m);
        }
        if (!IsLinkedControlFlow(*n)) {
          Task c = t;
          c.node = path;
          c.inputs = std::move(in);
          c.outputs = std::move(outs);
          stream_.push_back(std::move(c));
          continue;
        }
        GE_ASSIGN_OR_RETURN(int64_t ws, n->type() == "If" ? EmitIf(*n, path, in, outs, ws_base)
                                                          : EmitLoop(*n, path, in, outs, ws_base));
        ws_size = std::max(ws_size, ws);
      }
    const int64_t extent = Align(f.plan->feature_map_size, align) + ws_size;
    if (extent < 0) return Fail(f.prefix, "the linked feature map does not fit in 64 bits");
    return extent;
  }

  // Plans a subgraph's weights after the ones linked so far.
  int64_t TakeWeights(const SubgraphPlan& p) {
    const int64_t base = Align(out_.memory.weights_size, m_.memory.alignment);
    out_.memory.weights_size = base + p.memory.weights_size;
    return base;
  }

  Result<const SubgraphPlan*> NeedPlan(const Node& n, const std::string& path, const std::string& sub, size_t inputs,
                                       size_t outputs) const {
    const SubgraphPlan* p = FindPlan(path, sub);
    if (!p) return Fail(path, "subgraph '" + sub + "' has no plan");
    auto it = n.subgraphs().find(sub);
    if (it == n.subgraphs().end() || !it->second) return Fail(path, "has no subgraph '" + sub + "'");
    if (p->memory.inputs.size() != inputs || p->memory.outputs.size() != outputs || p->streams.empty())
      return Fail(path, "the plan of subgraph '" + sub + "' has " + std::to_string(p->memory.inputs.size()) + " inputs and " +
                            std::to_string(p->memory.outputs.size()) + " outputs; the node needs " + std::to_string(inputs) +
                            " and " + std::to_string(outputs));
    return p;
  }

  Status CheckBytes(const std::string& path, const IoBinding& b, const TensorDesc& d, const std::string& what) const {
    if (b.size != d.Bytes()) return Fail(path, what + " has " + std::to_string(b.size) + " bytes in its subgraph and " + std::to_string(d.Bytes()) + " in the node");
    return Status::Ok();
  }

  // BranchIndex -> LabelSwitch [then, else]; each branch reads the If's
  // inputs in place and writes its outputs.
  Result<int64_t> EmitIf(const Node& n, const std::string& path, const std::vector<TaskArg>& in,
                         const std::vector<TaskArg>& outs, int64_t ws_base) {
    if (in.empty() || in[0].offset < 0) return Fail(path, "an If without its condition");
    const TaskArg index{Segment::kFeatureMap, ws_base + 16};
    Control(path, "BranchIndex", {in[0]}, {InDesc(n, 0)}, {index}, {TensorDesc(DataType::kInt32, {})});
    const int32_t then_label = labels_++, else_label = labels_++, end_label = labels_++;
    Switch(index, {then_label, else_label});
    int64_t ws = kCtrlBytes;
    for (const char* sub : {"then_branch", "else_branch"}) {
      GE_ASSIGN_OR_RETURN(const SubgraphPlan* p, NeedPlan(n, path, sub, n.num_inputs() - 1, n.num_outputs()));
      Label(Task::Kind::kLabelSet, sub[0] == 't' ? then_label : else_label);
      Frame f;
      f.prefix = path + "/" + sub + "/";
      f.plan = &p->memory;
      f.root = false;
      f.weights_base = TakeWeights(*p);
      f.fm_base = ws_base + kCtrlBytes;
      for (size_t i = 1; i < in.size(); ++i) {
        GE_RETURN_IF_ERROR(CheckBytes(path, p->memory.inputs[i - 1], InDesc(n, i), std::string(sub) + " input " + std::to_string(i - 1)));
        f.inputs.push_back(in[i]);
      }
      for (size_t j = 0; j < outs.size(); ++j)
        GE_RETURN_IF_ERROR(CheckBytes(path, p->memory.outputs[j], n.output_desc(j), std::string(sub) + " output " + std::to_string(j)));
      f.outputs = outs;
      const Graph& g = *n.subgraphs().at(sub);
      GE_ASSIGN_OR_RETURN(int64_t extent, Emit(g, p->streams, f));
      // Outputs the branch passes through (an input, a constant, another
      // output) are copied into the If's output buffer.
      for (size_t j = 0; j < outs.size(); ++j) {
        const IoBinding& b = p->memory.outputs[j];
        if (!b.copy) continue;
        GE_ASSIGN_OR_RETURN(TaskArg src, Map(b.source, f, f.prefix + "output " + std::to_string(j)));
        Copy(path, src, outs[j], b.size);
      }
      if (sub[0] == 't') Label(Task::Kind::kLabelGoto, end_label);
      ws = std::max(ws, kCtrlBytes + extent);
    }
    Label(Task::Kind::kLabelSet, end_label);
    return ws;
  }

  // Loop(M, cond, v_initial..., captures...): the carried values live in the
  // Loop's output buffers for the whole loop; the body writes its results
  // into its own output slots, copied into the state once it is done.
  Result<int64_t> EmitLoop(const Node& n, const std::string& path, const std::vector<TaskArg>& in,
                           const std::vector<TaskArg>& outs, int64_t ws_base) {
    const int64_t captures = n.GetInt("_captures", 0);
    const int64_t carried = static_cast<int64_t>(n.num_inputs()) - 2 - captures;
    if (carried < 0 || carried > static_cast<int64_t>(n.num_outputs()))
      return Fail(path, "a Loop with fewer outputs than carried values");
    // Scan outputs have a static length: the trip count the plan was made for.
    int64_t trips = -1;
    for (size_t j = static_cast<size_t>(carried); j < n.num_outputs(); ++j) {
      const TensorDesc& d = n.output_desc(j);
      if (!d.is_static() || d.dims.empty() || (trips >= 0 && d.dims[0] != trips))
        return Fail(path, "scan output " + std::to_string(j - carried) + " is " + d.ToString() + ", not of the loop's static length");
      trips = d.dims[0];
    }
    GE_ASSIGN_OR_RETURN(const SubgraphPlan* p, NeedPlan(n, path, "body", n.num_inputs(), 1 + n.num_outputs()));
    const int64_t align = m_.memory.alignment;
    const TaskArg iter{Segment::kFeatureMap, ws_base}, cond{Segment::kFeatureMap, ws_base + 8},
        index{Segment::kFeatureMap, ws_base + 16};
    const int64_t slots = ws_base + kCtrlBytes;
    const TensorDesc i64(DataType::kInt64, {}), b1(DataType::kBool, {});
    for (int64_t k = 0; k < carried; ++k) {
      if (in[2 + k].offset < 0) return Fail(path, "carried value " + std::to_string(k) + " has no initial value");
      GE_RETURN_IF_ERROR(CheckBytes(path, p->memory.inputs[2 + k], n.output_desc(k), "body input " + std::to_string(2 + k)));
      GE_RETURN_IF_ERROR(CheckBytes(path, p->memory.outputs[1 + k], n.output_desc(k), "body output " + std::to_string(1 + k)));
      Copy(path, in[2 + k], outs[k], n.output_desc(k).Bytes());
    }
    if (p->memory.inputs[0].size != 8 || p->memory.inputs[1].size != 1 || p->memory.outputs[0].size != 1)
      return Fail(path, "the body's iteration and condition are not an int64 and a bool scalar");
    const bool has_m = in[0].offset >= 0, has_cond = in[1].offset >= 0;
    Control(path, "LoopInit", {in[1]}, {has_cond ? InDesc(n, 1) : TensorDesc()}, {iter, cond}, {i64, b1});
    const int32_t top = labels_++, body = labels_++, end = labels_++;
    Label(Task::Kind::kLabelSet, top);
    Control(path, "LoopCondIndex", {iter, in[0], has_cond ? cond : TaskArg{Segment::kFeatureMap, -1}},
            {i64, has_m ? InDesc(n, 0) : TensorDesc(), has_cond ? b1 : TensorDesc()}, {index},
            {TensorDesc(DataType::kInt32, {})});
    Switch(index, {body, end});
    Label(Task::Kind::kLabelSet, body);

    Frame f;
    f.prefix = path + "/body/";
    f.plan = &p->memory;
    f.root = false;
    f.weights_base = TakeWeights(*p);
    f.inputs = {iter, cond};
    for (int64_t k = 0; k < carried; ++k) f.inputs.push_back(outs[k]);
    for (int64_t c = 0; c < captures; ++c) f.inputs.push_back(in[2 + carried + c]);
    for (const IoBinding& b : p->memory.outputs) f.outputs.push_back(TaskArg{Segment::kFeatureMap, slots + b.offset});
    f.fm_base = slots + Align(p->memory.output_size, align);
    GE_ASSIGN_OR_RETURN(int64_t extent, Emit(*n.subgraphs().at("body"), p->streams, f));
    // 1: results the body passes through are gathered into its slots first,
    // so no copy into the state overwrites a value another copy still reads
    // (a body that swaps two carried values). A value passed through to its
    // own place (Data k -> NetOutput k, the cond above all) is left there:
    // the reference's bypass, no copy at all.
    const std::vector<TaskArg> state = [&] {
      std::vector<TaskArg> s = {cond};
      s.insert(s.end(), outs.begin(), outs.begin() + carried);
      return s;
    }();
    std::vector<bool> in_place(p->memory.outputs.size(), false);
    for (size_t j = 0; j < p->memory.outputs.size(); ++j) {
      const IoBinding& b = p->memory.outputs[j];
      if (!b.copy) continue;
      GE_ASSIGN_OR_RETURN(TaskArg src, Map(b.source, f, f.prefix + "output " + std::to_string(j)));
      in_place[j] = j < state.size() && src.segment == state[j].segment && src.offset == state[j].offset;
      if (!in_place[j]) Copy(path, src, f.outputs[j], b.size);
    }
    // 2: the slots become the next iteration's state; each scan slice goes
    // to row `iteration` of its stacked output.
    for (size_t j = 0; j < state.size(); ++j)
      if (!in_place[j]) Copy(path, f.outputs[j], state[j], p->memory.outputs[j].size);
    for (size_t j = static_cast<size_t>(carried); j < n.num_outputs(); ++j) {
      const TensorDesc slice(n.output_desc(j).dtype,
                             std::vector<int64_t>(n.output_desc(j).dims.begin() + 1, n.output_desc(j).dims.end()));
      GE_RETURN_IF_ERROR(CheckBytes(path, p->memory.outputs[1 + j], slice, "body scan output " + std::to_string(1 + j)));
      Control(path, "ScanSliceWrite", {f.outputs[1 + j], iter}, {slice, i64}, {outs[j]}, {n.output_desc(j)});
    }
    Control(path, "LoopIncrement", {iter}, {i64}, {iter}, {i64});
    Label(Task::Kind::kLabelGoto, top);
    Label(Task::Kind::kLabelSet, end);
    if (trips >= 0) {
      // The stacked outputs are only right if the loop ran as often as the
      // compiler worked out; anything else is an error, never a short output.
      Control(path, "LoopTripCheck", {iter}, {i64}, {}, {});
      stream_.back().count = trips;
    }
    return kCtrlBytes + Align(p->memory.output_size, align) + extent;
  }

  const Model& m_;
  LinkedPlan out_;
  std::vector<Task> stream_;
  int32_t labels_ = 0;
};

}  // namespace

bool HasLinkedControlFlow(const Model& model) { return !model.dynamic && !model.partitions.empty(); }

Result<LinkedPlan> LinkModel(const Model& model) {
  if (!model.graph) return Corrupt("model " + model.name + " has no graph");
  if (!HasLinkedControlFlow(model)) {
    LinkedPlan p;
    p.memory = model.memory;
    p.streams = model.streams;
    for (const Node* n : model.graph->nodes()) p.nodes[n->name()] = n;
    return p;
  }
  return Linker(model).Run();
}

}  // namespace ge
