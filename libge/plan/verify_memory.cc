// VerifyModel's memory rules: which tensors share memory, and whether the
// schedule keeps them apart in time.
//
// A *version* is the memory state one write produces: a kernel output plus
// every alias of it (Reshape ...). A *group* is one piece of memory: a
// version and the versions in-place writes make over it. Two groups whose
// memory overlaps must be ordered: every access of one happens before the
// other's first write. Within a group, an in-place write must come after
// every other access of the version it overwrites. Results the model
// returns are read at the end of the run, after every task.
#include <algorithm>
#include <cstdint>

#include "ge/ops/kernel_spec.h"
#include "ge/ops/memory_alias.h"
#include "ge/ops/op_registry.h"
#include "box_overlaps.h"
#include "verify_facts.h"

namespace ge::verify {
namespace {

struct Version {
  int group = 0;
  int pred = -1;                   // the version an in-place write overwrote
  const Node* writer = nullptr;    // null: Data / Const
  TensorKey root;
  std::vector<streams::TaskPos> accesses;
  bool end = false;                // read after the run (a model output)
};

struct Group {
  Segment segment = Segment::kFeatureMap;
  int64_t offset = 0, size = 0;
  int first = 0;                   // its first version
  bool end = false;
  std::vector<int32_t> last;       // per stream: the last task index touching it (-1: none)
};

std::string Describe(const Version& v) { return "tensor " + TensorName(v.root.first, v.root.second); }

class MemoryCheck {
 public:
  explicit MemoryCheck(const Facts& f) : f_(f) {}

  Status Run() {
    GE_RETURN_IF_ERROR(BuildVersions());
    GE_RETURN_IF_ERROR(CheckInPlace());
    GE_RETURN_IF_ERROR(CheckOverlaps());
    return CheckBindings();
  }

 private:
  bool Before(streams::TaskPos a, const Node* b) const { return f_.hb->Before(a, f_.task.at(b)); }

  // Versions and groups, in topological order so inputs come first.
  Status BuildVersions() {
    const OpRegistry& registry = OpRegistry::Global();
    for (const Node* n : f_.topo) {
      const OpDef* def = registry.Find(n->type());
      for (size_t i = 0; i < n->num_outputs(); ++i) {
        const TensorKey key{n, static_cast<int>(i)};
        const BufferPlan& b = f_.Buffer(n, key.second);
        if (const int k = AliasedInput(*n, i); k >= 0 && !IsStructuralNode(*n)) {
          const Endpoint src = n->InputSource(k);
          version_of_[key] = version_of_.at({src.node, src.index});
          continue;
        }
        Version v;
        v.root = key;
        if (RunsKernel(*n)) v.writer = n;
        // An in-place write: the op allows it and the output is exactly the
        // memory of the input it may be computed over.
        const int over = def ? def->memory.InplaceInput(static_cast<int>(i)) : -1;
        if (v.writer && over >= 0 && static_cast<size_t>(over) < n->num_inputs() && n->HasInput(over)) {
          const BufferPlan& in = f_.SourceBuffer(*n, over);
          if (in.segment == b.segment && in.offset == b.offset && in.size == b.size && b.size > 0) {
            const Endpoint src = n->InputSource(over);
            v.pred = version_of_.at({src.node, src.index});
            v.group = versions_[v.pred].group;
          }
        }
        if (v.pred < 0) {
          v.group = static_cast<int>(groups_.size());
          Group g;
          g.segment = b.segment;
          g.offset = b.offset;
          g.first = static_cast<int>(versions_.size());
          g.last.assign(f_.hb->num_streams(), -1);
          groups_.push_back(std::move(g));
        }
        version_of_[key] = static_cast<int>(versions_.size());
        versions_.push_back(std::move(v));
      }
    }
    // Accesses: the writer, every kernel reading a member, the end for outputs.
    for (const auto& [key, vi] : version_of_) {
      Version& v = versions_[vi];
      Group& g = groups_[v.group];
      g.size = std::max(g.size, f_.Buffer(key.first, key.second).size);
      auto touch = [&](const Node* n) {
        const streams::TaskPos p = f_.task.at(n);
        v.accesses.push_back(p);
        g.last[p.stream] = std::max(g.last[p.stream], p.index);
      };
      if (key.first == v.writer && key == v.root) touch(v.writer);
      for (const Endpoint& c : key.first->OutputConsumers(key.second)) {
        if (c.node->type() == op::kNetOutput) v.end = g.end = true;
        else if (RunsKernel(*c.node)) touch(c.node);
      }
    }
    return Status::Ok();
  }

  // An in-place write comes after every other access of what it overwrites,
  // and never overwrites a result the model returns.
  Status CheckInPlace() const {
    for (const Version& v : versions_) {
      if (v.pred < 0) continue;
      const Version& old = versions_[v.pred];
      if (old.end)
        return Fail("node " + v.writer->Label() + " writes in place over " + Describe(old) + ", which the model returns");
      const streams::TaskPos self = f_.task.at(v.writer);
      for (const streams::TaskPos& a : old.accesses)
        if (!(a.stream == self.stream && a.index == self.index) && !Before(a, v.writer))
          return Fail("node " + v.writer->Label() + " writes in place over " + Describe(old) + " while " +
                      f_.model.streams[a.stream].tasks[a.index].node + " may still read it");
    }
    return Status::Ok();
  }

  // Every access of `a` happens before `b`'s first write.
  bool GroupBefore(const Group& a, const Group& b) const {
    const Version& first = versions_[b.first];
    if (a.end || !first.writer) return false;
    const std::vector<int32_t>& clock = f_.hb->Clock(f_.task.at(first.writer));
    for (size_t s = 0; s < a.last.size(); ++s)
      if (a.last[s] > clock[s]) return false;
    return true;
  }

  // The groups with memory, by (segment, offset): the order overlaps are
  // reported in.
  std::vector<int> ByAddress() const {
    std::vector<int> order;
    for (size_t g = 0; g < groups_.size(); ++g)
      if (groups_[g].size > 0) order.push_back(static_cast<int>(g));
    std::sort(order.begin(), order.end(), [&](int x, int y) {
      const Group& a = groups_[x];
      const Group& b = groups_[y];
      return a.segment != b.segment ? a.segment < b.segment : a.offset < b.offset;
    });
    return order;
  }

  // Whether groups a and b (sorted a first) are an overlap the check reports.
  bool Conflict(const Group& a, const Group& b) const {
    if (b.segment != a.segment || b.offset >= a.offset + a.size) return false;
    // Weights and inputs are never written: they only may not overlap.
    const bool read_only = a.segment == Segment::kWeights || a.segment == Segment::kInput;
    return read_only || (!GroupBefore(a, b) && !GroupBefore(b, a));
  }

  // A task's place in one linear order of the schedule: its clock's sum
  // grows along every stream and every happens-before edge.
  int64_t Time(streams::TaskPos p) const {
    int64_t sum = 0;
    for (int32_t c : f_.hb->Clock(p)) sum += c;
    return sum;
  }

  // The time from which every task that starts is after all of the group's
  // accesses: on each stream the first task whose clock covers `last`
  // (clocks only grow along a stream). INT64_MAX when a stream never gets one.
  int64_t DoneTime(const Group& g) const {
    int64_t done = INT64_MIN;
    for (int32_t s = 0; s < f_.hb->num_streams(); ++s) {
      const int32_t n = static_cast<int32_t>(f_.model.streams[s].tasks.size());
      auto covers = [&](int32_t k) {
        const std::vector<int32_t>& clock = f_.hb->Clock({s, k});
        for (size_t t = 0; t < g.last.size(); ++t)
          if (g.last[t] > clock[t]) return false;
        return true;
      };
      int32_t lo = 0, hi = n;  // the first covering task is in [lo, hi]; n: none
      while (lo < hi) {
        const int32_t mid = lo + (hi - lo) / 2;
        if (covers(mid)) hi = mid;
        else lo = mid + 1;
      }
      if (lo == n && n > 0) return INT64_MAX;
      if (n > 0) done = std::max(done, Time({s, lo}));
    }
    return done == INT64_MIN ? INT64_MAX : done;
  }

  // A group's box: its memory, and the times in which it can conflict.
  // Group b written at a time >= DoneTime(a) comes after every access of a
  // (GroupBefore(a, b)), so two groups can conflict only if each starts
  // before the other is done; groups nobody writes (Data, Const), the
  // model's results and read-only memory are taken as always in use.
  Box BoxOf(const Group& g) const {
    Box box{static_cast<int32_t>(g.segment), g.offset, g.size, INT64_MIN, INT64_MAX};
    if (g.segment == Segment::kWeights || g.segment == Segment::kInput) return box;
    if (const Node* writer = versions_[g.first].writer) box.start = Time(f_.task.at(writer));
    if (!g.end) box.end = std::max(DoneTime(g), box.start + 1);
    return box;
  }

  // Pairs of groups in overlapping memory that may be in use at once, by
  // their first versions, in address order; at most `limit` of them. Only
  // pairs whose boxes intersect are compared (n log n on a valid plan).
  std::vector<std::pair<int, int>> Overlaps(size_t limit) const {
    const std::vector<int> order = ByAddress();
    std::vector<Box> boxes;
    boxes.reserve(order.size());
    for (int g : order) boxes.push_back(BoxOf(groups_[g]));
    std::vector<std::pair<int, int>> candidates;  // positions in `order`
    constexpr size_t kMaxCandidates = size_t{1} << 22;
    if (!IntersectingBoxes(boxes, kMaxCandidates, &candidates)) return OverlapsPairwise(order, limit);
    std::sort(candidates.begin(), candidates.end());
    std::vector<std::pair<int, int>> found;
    for (const auto& [i, j] : candidates) {
      if (found.size() >= limit) break;
      const Group& a = groups_[order[i]];
      const Group& b = groups_[order[j]];
      if (Conflict(a, b)) found.push_back({a.first, b.first});
    }
    return found;
  }

  // Overlaps by comparing each group with the ones that start before its
  // end: quadratic where memory is reused, kept for plans so broken that
  // millions of boxes intersect.
  std::vector<std::pair<int, int>> OverlapsPairwise(const std::vector<int>& order, size_t limit) const {
    std::vector<std::pair<int, int>> found;
    for (size_t i = 0; i < order.size() && found.size() < limit; ++i) {
      const Group& a = groups_[order[i]];
      for (size_t j = i + 1; j < order.size() && found.size() < limit; ++j) {
        const Group& b = groups_[order[j]];
        if (b.segment != a.segment || b.offset >= a.offset + a.size) break;
        if (Conflict(a, b)) found.push_back({a.first, b.first});
      }
    }
    return found;
  }

  std::string OverlapText(const std::pair<int, int>& o) const {
    const Version& a = versions_[o.first];
    const Version& b = versions_[o.second];
    const Group& ga = groups_[a.group];
    const Group& gb = groups_[b.group];
    return Describe(a) + " at " + Addr(ga.segment, ga.offset) + " and " + Describe(b) + " at " + Addr(gb.segment, gb.offset) +
           " overlap in memory while both may be in use";
  }

  Status CheckOverlaps() const {
    const auto found = Overlaps(1);
    return found.empty() ? Status::Ok() : Fail(OverlapText(found[0]));
  }

 public:
  // FindOverlaps: the versions and every overlap, without the other rules.
  Status ListOverlaps(std::vector<MemoryOverlap>* out) {
    GE_RETURN_IF_ERROR(BuildVersions());
    for (const auto& o : Overlaps(1000)) {
      MemoryOverlap m;
      const Version& a = versions_[o.first];
      const Version& b = versions_[o.second];
      m.a = TensorName(a.root.first, a.root.second);
      m.b = TensorName(b.root.first, b.root.second);
      m.a_node = a.root.first->name();
      m.b_node = b.root.first->name();
      m.message = OverlapText(o);
      out->push_back(std::move(m));
    }
    return Status::Ok();
  }

 private:
  // IO bindings: disjoint, the model's inputs and outputs, and every IO
  // buffer inside one binding (the runtime maps IO addresses to the user's
  // buffers by binding).
  Status CheckBindings() const {
    const MemoryPlan& p = f_.plan;
    const Graph& g = *f_.model.graph;
    const std::vector<Node*> data = g.InputNodes();
    if (p.inputs.size() != data.size() || p.outputs.size() != f_.model.outputs.size())
      return Fail("the plan binds " + std::to_string(p.inputs.size()) + " inputs / " + std::to_string(p.outputs.size()) +
                  " outputs, the model has " + std::to_string(data.size()) + " / " + std::to_string(f_.model.outputs.size()));
    for (int pass = 0; pass < 2; ++pass) {
      const auto& bindings = pass == 0 ? p.inputs : p.outputs;
      const Segment seg = pass == 0 ? Segment::kInput : Segment::kOutput;
      const char* kind = pass == 0 ? "input " : "output ";
      std::vector<std::pair<int64_t, int64_t>> ranges;
      for (size_t i = 0; i < bindings.size(); ++i) {
        const IoBinding& b = bindings[i];
        const std::string where = kind + std::to_string(i) + " (" +
                                  (pass == 0 ? f_.model.inputs[i].name : f_.model.outputs[i].name) + ")";
        const TensorDesc& desc = pass == 0 ? f_.model.inputs[i].desc : f_.model.outputs[i].desc;
        if (b.size != desc.Bytes())
          return Fail(where + " is bound to " + std::to_string(b.size) + " bytes, the tensor has " + std::to_string(desc.Bytes()));
        if (!p.Contains(seg, b.offset, b.size) || b.offset % p.alignment != 0)
          return Fail(where + " is bound at " + Addr(seg, b.offset) + ", outside its segment or unaligned");
        if (b.size > 0) ranges.push_back({b.offset, b.offset + b.size});
        // What the binding holds: the Data node's tensor, or the NetOutput's input.
        const BufferPlan& t = pass == 0 ? f_.Buffer(data[i], 0) : f_.SourceBuffer(*g.OutputNode(), i);
        if (pass == 0 && (b.copy || t.segment != seg || t.offset != b.offset))
          return Fail(where + " is bound at " + Addr(seg, b.offset) + " but its Data node's tensor is at " + Addr(t));
        if (pass == 1 && !b.copy && (t.segment != seg || t.offset != b.offset))
          return Fail(where + " is returned from " + Addr(seg, b.offset) + " but the tensor is at " + Addr(t));
        if (pass == 1 && b.copy && (b.source.segment != t.segment || b.source.offset != t.offset))
          return Fail(where + " is copied from " + Addr(b.source.segment, b.source.offset) + " but the tensor is at " + Addr(t));
      }
      std::sort(ranges.begin(), ranges.end());
      for (size_t i = 1; i < ranges.size(); ++i)
        if (ranges[i].first < ranges[i - 1].second)
          return Fail(std::string("two ") + kind + "bindings overlap at " + Addr(seg, ranges[i].first));
      for (const auto& [key, buffer] : f_.buffers) {
        const auto& b = buffer;  // clang 14 cannot capture a structured binding
        if (b->segment != seg || b->size == 0) continue;
        auto inside = std::find_if(bindings.begin(), bindings.end(), [&](const IoBinding& io) {
          return b->offset >= io.offset && b->size <= io.size - (b->offset - io.offset) && b->offset < io.offset + io.size;
        });
        if (inside == bindings.end())
          return Fail("tensor " + TensorName(key.first, key.second) + " at " + Addr(*b) + " lies in no " + kind + "binding");
      }
    }
    return Status::Ok();
  }

  const Facts& f_;
  std::vector<Version> versions_;
  std::vector<Group> groups_;
  std::map<TensorKey, int> version_of_;
};

}  // namespace

Status CheckMemory(const Facts& f) { return MemoryCheck(f).Run(); }

Status FindOverlaps(const Facts& f, std::vector<MemoryOverlap>* out) { return MemoryCheck(f).ListOverlaps(out); }

}  // namespace ge::verify
