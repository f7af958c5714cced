// Stream assignment (after GE's logical streams): chains first, then chains
// onto at most N streams by a simulated list schedule; cross-stream edges
// become record/wait pairs.
//
// 1. Chains (GE's AssignByDependency idea). Every kernel node prefers one
//    successor: the one with the longest path (by cost) to the end. A node
//    continues the chain of a predecessor that prefers it (the one expected
//    to finish last, if several); otherwise it starts a chain. So a chain of
//    single-consumer nodes stays on one stream, and at a fork the critical
//    branch stays in line while the others start new chains.
// 2. Streams. Walking the execution order, a chain's first node picks the
//    stream where it could start earliest: a stream is free once its placed
//    work is done and the rest of the chains already on it are done (their
//    remaining cost), and a node starts after its inputs. Ties go to a stream
//    an input is on (no event), then to the lowest stream. The rest of the
//    chain follows. Each stream runs its nodes in execution order, so every
//    event goes forward in that order and the event graph cannot have a
//    cycle (the check still runs).
#include <algorithm>
#include <map>
#include <tuple>

#include "streams/streams.h"

namespace ge::streams {
namespace {

std::vector<StreamTasks> OneStream(const std::vector<Node*>& kernels) {
  StreamTasks st;
  st.stream = 0;
  for (Node* n : kernels) {
    Task t;
    t.node = n->name();
    st.tasks.push_back(std::move(t));
  }
  return {std::move(st)};
}

Task EventTask(Task::Kind kind, int32_t event, const std::string& node) {
  Task t;
  t.kind = kind;
  t.event = event;
  t.node = node;  // record: the producer it follows; wait: the consumer it precedes
  t.kernel = -1;
  return t;
}

}  // namespace

Result<std::vector<StreamTasks>> BuildSchedule(const std::vector<Node*>& order, int32_t stream_num) {
  if (stream_num < 1) return InvalidArgument("stream_num " + std::to_string(stream_num) + " must be at least 1");
  std::vector<Node*> kernels;
  for (Node* n : order)
    if (RunsKernel(*n)) kernels.push_back(n);
  const int32_t k = static_cast<int32_t>(kernels.size());
  if (stream_num == 1 || k <= 1) return OneStream(kernels);

  const std::vector<std::vector<int32_t>> deps = KernelDeps(order, kernels);
  std::vector<std::vector<int32_t>> succs(k);
  for (int32_t i = 0; i < k; ++i)
    for (int32_t p : deps[i]) succs[p].push_back(i);
  std::vector<double> cost(k), bottom(k, 0), top(k, 0);
  for (int32_t i = 0; i < k; ++i) cost[i] = std::max(1.0, EstimateCost(*kernels[i]));
  for (int32_t i = k - 1; i >= 0; --i) {
    double longest = 0;
    for (int32_t s : succs[i]) longest = std::max(longest, bottom[s]);
    bottom[i] = cost[i] + longest;
  }
  for (int32_t i = 0; i < k; ++i)
    for (int32_t p : deps[i]) top[i] = std::max(top[i], top[p] + cost[p]);

  // 1. Chains.
  std::vector<int32_t> prefers(k, -1), chain(k, -1);
  for (int32_t p = 0; p < k; ++p)
    for (int32_t s : succs[p])
      if (prefers[p] < 0 || bottom[s] > bottom[prefers[p]]) prefers[p] = s;
  std::vector<double> remaining;  // per chain: the cost of its unplaced nodes
  for (int32_t i = 0; i < k; ++i) {
    int32_t from = -1;
    for (int32_t p : deps[i])
      if (prefers[p] == i && (from < 0 || top[p] + cost[p] > top[from] + cost[from])) from = p;
    if (from >= 0) {
      chain[i] = chain[from];
    } else {
      chain[i] = static_cast<int32_t>(remaining.size());
      remaining.push_back(0);
    }
    remaining[chain[i]] += cost[i];
  }

  // 2. Streams, by a simulated list schedule over the execution order.
  std::vector<int32_t> chain_stream(remaining.size(), -1), stream_of(k, -1);
  std::vector<double> finish(k, 0), free_at(stream_num, 0), load(stream_num, 0);
  for (int32_t i = 0; i < k; ++i) {
    double ready = 0;
    for (int32_t p : deps[i]) ready = std::max(ready, finish[p]);
    const int32_t c = chain[i];
    if (chain_stream[c] < 0) {
      std::tuple<double, bool, int32_t> best{0, false, -1};
      for (int32_t s = 0; s < stream_num; ++s) {
        bool input_here = false;
        for (int32_t p : deps[i]) input_here = input_here || stream_of[p] == s;
        const std::tuple<double, bool, int32_t> key{std::max(free_at[s] + load[s], ready), !input_here, s};
        if (std::get<2>(best) < 0 || key < best) best = key;
      }
      chain_stream[c] = std::get<2>(best);
      load[chain_stream[c]] += remaining[c];
    }
    const int32_t s = chain_stream[c];
    stream_of[i] = s;
    finish[i] = std::max(free_at[s], ready) + cost[i];
    free_at[s] = finish[i];
    remaining[c] -= cost[i];
    load[s] = std::max(0.0, load[s] - cost[i]);
  }
  // Streams numbered by first use (they are already; this keeps 0..S-1 dense).
  std::vector<int32_t> first_use(stream_num, -1);
  for (int32_t i = 0; i < k; ++i)
    if (first_use[stream_of[i]] < 0) first_use[stream_of[i]] = i;
  std::vector<std::pair<int32_t, int32_t>> by_first;
  for (int32_t s = 0; s < stream_num; ++s)
    if (first_use[s] >= 0) by_first.push_back({first_use[s], s});
  std::sort(by_first.begin(), by_first.end());
  std::vector<int32_t> renum(stream_num, -1);
  for (size_t j = 0; j < by_first.size(); ++j) renum[by_first[j].second] = static_cast<int32_t>(j);
  for (int32_t& s : stream_of) s = renum[s];
  const int32_t used = static_cast<int32_t>(by_first.size());
  if (used == 1) return OneStream(kernels);

  // 3. Events: one record/wait pair per (consumer, producer stream), for the
  // latest producer on that stream (the earlier ones precede it there).
  std::vector<std::vector<int32_t>> records_after(k), waits_before(k);
  int32_t events = 0;
  for (int32_t i = 0; i < k; ++i) {
    std::map<int32_t, int32_t> latest;  // producer stream -> latest producer
    for (int32_t p : deps[i])
      if (stream_of[p] != stream_of[i]) latest[stream_of[p]] = std::max(latest[stream_of[p]], p);
    for (const auto& [stream, p] : latest) {
      records_after[p].push_back(events);
      waits_before[i].push_back(events);
      ++events;
    }
  }
  std::vector<StreamTasks> out(used);
  for (int32_t s = 0; s < used; ++s) out[s].stream = s;
  for (int32_t i = 0; i < k; ++i) {
    auto& tasks = out[stream_of[i]].tasks;
    for (int32_t e : waits_before[i]) tasks.push_back(EventTask(Task::Kind::kEventWait, e, kernels[i]->name()));
    Task t;
    t.node = kernels[i]->name();
    tasks.push_back(std::move(t));
    for (int32_t e : records_after[i]) tasks.push_back(EventTask(Task::Kind::kEventRecord, e, kernels[i]->name()));
  }
  GE_RETURN_IF_ERROR(RemoveRedundantWaits(out).status());
  return out;
}

}  // namespace ge::streams
