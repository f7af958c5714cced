#include "box_overlaps.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

namespace ge::verify {
namespace {

// The boxes live at the sweep's time, by (segment, offset), with their sizes
// per segment so a query knows how far below its range a live box may still reach.
class LiveBoxes {
 public:
  explicit LiveBoxes(const std::vector<Box>& boxes) : boxes_(boxes) {}

  void Add(int i) {
    by_offset_.insert({boxes_[i].segment, boxes_[i].offset, i});
    sizes_[boxes_[i].segment].insert(boxes_[i].size);
  }
  void Remove(int i) {
    by_offset_.erase({boxes_[i].segment, boxes_[i].offset, i});
    std::multiset<int64_t>& sizes = sizes_[boxes_[i].segment];
    sizes.erase(sizes.find(boxes_[i].size));
  }
  // Calls `hit` with every live box whose memory intersects box `q`'s.
  template <typename Hit>
  void ForEachIntersecting(int q, Hit&& hit) const {
    const Box& b = boxes_[q];
    const auto sizes = sizes_.find(b.segment);
    if (sizes == sizes_.end() || sizes->second.empty()) return;
    const int64_t reach = *sizes->second.rbegin();  // no live box starts further below b
    const int64_t lowest = b.offset > INT64_MIN + reach ? b.offset - reach : INT64_MIN;
    for (auto it = by_offset_.lower_bound({b.segment, lowest, -1}); it != by_offset_.end(); ++it) {
      const auto& [segment, offset, i] = *it;
      if (segment != b.segment || offset >= b.offset + b.size) break;
      if (offset + boxes_[i].size > b.offset) hit(i);
    }
  }

 private:
  const std::vector<Box>& boxes_;
  std::set<std::tuple<int32_t, int64_t, int>> by_offset_;
  std::map<int32_t, std::multiset<int64_t>> sizes_;  // per segment
};

}  // namespace

bool IntersectingBoxes(const std::vector<Box>& boxes, size_t cap, std::vector<std::pair<int, int>>* out) {
  // Events: a box starts at `start` and ends at `end`; at one time the ends
  // come first (half-open ranges), then each start meets the boxes live.
  std::vector<std::pair<int64_t, int>> starts, ends;
  for (size_t i = 0; i < boxes.size(); ++i)
    if (boxes[i].size > 0 && boxes[i].end > boxes[i].start) {
      starts.push_back({boxes[i].start, static_cast<int>(i)});
      ends.push_back({boxes[i].end, static_cast<int>(i)});
    }
  std::sort(starts.begin(), starts.end());
  std::sort(ends.begin(), ends.end());
  LiveBoxes live(boxes);
  size_t e = 0, found = 0;
  for (const auto& [time, i] : starts) {
    for (; e < ends.size() && ends[e].first <= time; ++e) live.Remove(ends[e].second);
    bool over = false;
    live.ForEachIntersecting(i, [&](int j) {
      if (++found > cap) over = true;
      else out->push_back({std::min(i, j), std::max(i, j)});
    });
    if (over) return false;
    live.Add(i);
  }
  return true;
}

}  // namespace ge::verify
