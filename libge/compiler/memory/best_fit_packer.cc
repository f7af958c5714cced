// Offsets for the feature map: best-fit interval packing over a few orders.
#include <algorithm>
#include <functional>
#include <limits>
#include <map>
#include <numeric>
#include <random>

#include "ge_base/checked_math.h"
#include "memory/memory_planner.h"

namespace ge::memory {
namespace {

// The placed intervals whose lifetimes overlap a query, found without a scan
// of every placed one (that scan made one placement O(n) and a plan O(n^2)):
// those alive at the query's first step, from a segment tree over the steps
// that keeps each interval at the O(log steps) nodes covering it, and those
// starting later, up to the query's last step, by start step.
class LiveIntervals {
 public:
  LiveIntervals(const std::vector<Interval>& iv, int32_t steps)
      : iv_(iv), steps_(std::max(steps, 1)), cover_(4 * static_cast<size_t>(steps_)) {}

  void Clear() {
    for (auto& c : cover_) c.clear();
    by_start_.clear();
  }

  void Insert(size_t i) {
    InsertAt(1, 0, steps_ - 1, i);
    by_start_[iv_[i].first].push_back(i);
  }

  template <typename Visit>
  void ForOverlapping(const Interval& q, const Visit& visit) const {
    size_t node = 1;
    for (int32_t lo = 0, hi = steps_ - 1;;) {
      for (size_t i : cover_[node]) visit(i);
      if (lo == hi) break;
      const int32_t mid = lo + (hi - lo) / 2;
      if (q.first <= mid) {
        node = 2 * node;
        hi = mid;
      } else {
        node = 2 * node + 1;
        lo = mid + 1;
      }
    }
    for (auto it = by_start_.upper_bound(q.first); it != by_start_.end() && it->first <= q.last; ++it)
      for (size_t i : it->second) visit(i);
  }

 private:
  void InsertAt(size_t node, int32_t lo, int32_t hi, size_t i) {
    if (iv_[i].last < lo || hi < iv_[i].first) return;
    if (iv_[i].first <= lo && hi <= iv_[i].last) {
      cover_[node].push_back(i);
      return;
    }
    const int32_t mid = lo + (hi - lo) / 2;
    InsertAt(2 * node, lo, mid, i);
    InsertAt(2 * node + 1, mid + 1, hi, i);
  }

  const std::vector<Interval>& iv_;
  int32_t steps_;
  std::vector<std::vector<size_t>> cover_;
  std::map<int32_t, std::vector<size_t>> by_start_;
};

// The smallest free gap between the busy ranges (offset, end) that holds
// `size` bytes, else the top of them: best fit keeps large holes for large
// buffers.
int64_t BestFitOffset(std::vector<std::pair<int64_t, int64_t>>& busy, int64_t size) {
  std::sort(busy.begin(), busy.end());
  int64_t best = -1, best_gap = std::numeric_limits<int64_t>::max();
  int64_t cursor = 0;
  for (const auto& [off, end] : busy) {
    if (off > cursor) {
      const int64_t gap = off - cursor;
      if (gap >= size && gap < best_gap) {
        best_gap = gap;
        best = cursor;
      }
    }
    cursor = std::max(cursor, end);
  }
  return best < 0 ? cursor : best;  // on top of everything alive
}

// Places intervals in `order`; returns the peak. Each goes to the best fit
// among the placed intervals it conflicts with.
template <typename Conflicts>
int64_t PlaceInOrder(const std::vector<Interval>& iv, const std::vector<int64_t>& sizes, const std::vector<size_t>& order,
                     std::vector<int64_t>& offsets, const Conflicts& conflicts) {
  std::vector<size_t> placed;
  placed.reserve(order.size());
  std::vector<std::pair<int64_t, int64_t>> busy;  // (offset, end) of conflicting placed intervals
  int64_t peak = 0;
  for (size_t idx : order) {
    busy.clear();
    for (size_t p : placed)
      if (conflicts(p, idx)) busy.push_back({offsets[p], offsets[p] + sizes[p]});
    offsets[idx] = BestFitOffset(busy, sizes[idx]);
    peak = std::max(peak, offsets[idx] + sizes[idx]);
    placed.push_back(idx);
  }
  return peak;
}

// PlaceInOrder where the conflict is lifetime overlap (one stream): the
// same placements, with the overlapping intervals found by LiveIntervals.
int64_t PlaceInOrder(const std::vector<Interval>& iv, const std::vector<int64_t>& sizes, const std::vector<size_t>& order,
                     std::vector<int64_t>& offsets, LiveIntervals& live) {
  live.Clear();
  std::vector<std::pair<int64_t, int64_t>> busy;
  int64_t peak = 0;
  for (size_t idx : order) {
    busy.clear();
    live.ForOverlapping(iv[idx], [&](size_t p) { busy.push_back({offsets[p], offsets[p] + sizes[p]}); });
    offsets[idx] = BestFitOffset(busy, sizes[idx]);
    peak = std::max(peak, offsets[idx] + sizes[idx]);
    live.Insert(idx);
  }
  return peak;
}

}  // namespace

// Callers keep v far from the top of int64 (PlanMemory checks the total).
int64_t AlignUp(int64_t v, int64_t alignment) { return CheckedAlignUp(v, alignment).value_or(-1); }

int64_t LowerBound(const std::vector<Interval>& intervals, int64_t alignment) {
  // Sweep: +size at first, -size after last.
  std::vector<std::pair<int64_t, int64_t>> events;
  for (const Interval& i : intervals) {
    const int64_t s = AlignUp(i.size, alignment);
    if (s == 0) continue;
    events.push_back({int64_t{i.first} * 2, s});
    events.push_back({int64_t{i.last} * 2 + 1, -s});
  }
  std::sort(events.begin(), events.end());
  int64_t alive = 0, best = 0;
  for (size_t k = 0; k < events.size();) {
    const int64_t t = events[k].first;
    for (; k < events.size() && events[k].first == t; ++k) alive += events[k].second;
    best = std::max(best, alive);
  }
  return best;
}

namespace {

template <typename Conflicts>
Packing Pack(const std::vector<Interval>& iv, int64_t alignment, bool reuse, Conflicts& conflicts, int64_t bound) {
  Packing out;
  const size_t n = iv.size();
  std::vector<int64_t> sizes(n);
  for (size_t i = 0; i < n; ++i) sizes[i] = AlignUp(iv[i].size, alignment);
  out.offsets.assign(n, 0);
  std::vector<size_t> base(n);
  std::iota(base.begin(), base.end(), size_t{0});
  // Zero-byte buffers need no memory: offset 0, never packed.
  base.erase(std::remove_if(base.begin(), base.end(), [&](size_t i) { return sizes[i] == 0; }), base.end());
  if (!reuse) {
    std::stable_sort(base.begin(), base.end(), [&](size_t a, size_t b) { return iv[a].first < iv[b].first; });
    for (size_t i : base) {
      out.offsets[i] = out.peak;
      out.peak += sizes[i];
    }
    return out;
  }
  auto len = [&](size_t i) { return int64_t{iv[i].last} - iv[i].first + 1; };
  // Breadth of a step: the bytes alive at it. An interval's key is the
  // widest step it lives through (TFLite's greedy-by-breadth): the crowded
  // steps are packed first, tightly.
  int32_t steps = 0;
  for (size_t i : base) steps = std::max(steps, iv[i].last + 1);
  std::vector<int64_t> breadth(static_cast<size_t>(steps) + 1, 0);
  for (size_t i : base) {
    breadth[iv[i].first] += sizes[i];
    breadth[static_cast<size_t>(iv[i].last) + 1] -= sizes[i];
  }
  for (int32_t t = 1; t <= steps; ++t) breadth[t] += breadth[t - 1];
  std::vector<int64_t> widest(n, 0);
  for (size_t i : base)
    for (int32_t t = iv[i].first; t <= iv[i].last; ++t) widest[i] = std::max(widest[i], breadth[t]);

  using Less = std::function<bool(size_t, size_t)>;
  const std::vector<Less> orders = {
      [&](size_t a, size_t b) { return sizes[a] != sizes[b] ? sizes[a] > sizes[b] : iv[a].first < iv[b].first; },
      [&](size_t a, size_t b) {
        return widest[a] != widest[b] ? widest[a] > widest[b] : sizes[a] != sizes[b] ? sizes[a] > sizes[b] : iv[a].first < iv[b].first;
      },
      [&](size_t a, size_t b) { return len(a) != len(b) ? len(a) > len(b) : sizes[a] > sizes[b]; },
      [&](size_t a, size_t b) { return sizes[a] * len(a) != sizes[b] * len(b) ? sizes[a] * len(a) > sizes[b] * len(b) : a < b; },
      [&](size_t a, size_t b) { return iv[a].first != iv[b].first ? iv[a].first < iv[b].first : sizes[a] > sizes[b]; },
  };
  out.peak = -1;
  std::vector<int64_t> offsets(n, 0);
  std::vector<size_t> best_order;
  for (const Less& less : orders) {
    std::vector<size_t> order = base;
    std::stable_sort(order.begin(), order.end(), less);
    const int64_t peak = PlaceInOrder(iv, sizes, order, offsets, conflicts);
    if (out.peak < 0 || peak < out.peak) {
      out.peak = peak;
      out.offsets = offsets;
      best_order = order;
    }
    if (out.peak == bound) return out;
  }
  // Still above the bound: a local search over the best order (swap two
  // buffers, keep the swap when the peak does not grow), seeded, so the
  // same graph always gives the same plan. The budget keeps big graphs fast.
  const size_t m = best_order.size();
  if (m >= 2) {
    const int64_t per_try = static_cast<int64_t>(m) * static_cast<int64_t>(m);
    const int64_t tries = std::min<int64_t>(2000, std::max<int64_t>(0, int64_t{50'000'000} / per_try));
    std::mt19937 rng(1);
    std::uniform_int_distribution<size_t> pick(0, m - 1);
    std::vector<size_t> order = best_order;
    int64_t current = out.peak;
    for (int64_t k = 0; k < tries && out.peak > bound; ++k) {
      const size_t i = pick(rng), j = pick(rng);
      if (i == j) continue;
      std::swap(order[i], order[j]);
      const int64_t peak = PlaceInOrder(iv, sizes, order, offsets, conflicts);
      if (peak <= current) {
        current = peak;
        if (peak < out.peak) {
          out.peak = peak;
          out.offsets = offsets;
        }
      } else {
        std::swap(order[i], order[j]);
      }
    }
  }
  if (out.peak < 0) out.peak = 0;
  return out;
}

}  // namespace

Packing PackIntervals(const std::vector<Interval>& iv, int64_t alignment, bool reuse) {
  int32_t steps = 0;
  for (const Interval& i : iv) steps = std::max(steps, i.last + 1);
  LiveIntervals live(iv, steps);
  return Pack(iv, alignment, reuse, live, LowerBound(iv, alignment));
}

Packing PackWithConflicts(const std::vector<Interval>& iv, int64_t alignment, bool reuse, const Conflict& conflict,
                          int64_t bound) {
  return Pack(iv, alignment, reuse, conflict, bound);
}

int64_t LowerBoundWithConflicts(const std::vector<Interval>& iv, int64_t alignment, const Conflict& conflict) {
  const size_t n = iv.size();
  std::vector<size_t> by_size;
  for (size_t i = 0; i < n; ++i)
    if (AlignUp(iv[i].size, alignment) > 0) by_size.push_back(i);
  std::stable_sort(by_size.begin(), by_size.end(), [&](size_t a, size_t b) { return iv[a].size > iv[b].size; });
  int32_t steps = 0;
  for (size_t i : by_size) steps = std::max(steps, iv[i].last + 1);
  int64_t best = LowerBound(iv, alignment);
  for (int32_t t = 0; t < steps; ++t) {
    std::vector<size_t> clique;
    int64_t total = 0;
    for (size_t i : by_size)
      if (iv[i].first <= t && t <= iv[i].last) clique.push_back(i);
    if (clique.empty()) continue;
    for (size_t i : by_size) {
      if (iv[i].first <= t && t <= iv[i].last) continue;
      bool all = true;
      for (size_t j = 0; all && j < clique.size(); ++j) all = conflict(i, clique[j]);
      if (all) clique.push_back(i);
    }
    for (size_t i : clique) total += AlignUp(iv[i].size, alignment);
    best = std::max(best, total);
  }
  return best;
}

}  // namespace ge::memory
