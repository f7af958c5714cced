// Pairs of boxes (a memory range times a time range) that intersect, found
// by sweeping time with the live boxes indexed by memory offset: about
// O(n log n + pairs) where every pair of boxes was compared before (private
// to ge_plan; the memory check's overlap rule uses it).
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace ge::verify {

struct Box {
  int32_t segment = 0;
  int64_t offset = 0, size = 0;  // memory [offset, offset + size)
  int64_t start = 0, end = 0;    // time [start, end); empty when end <= start
};

// Appends every pair {i, j} (i < j) of boxes in one segment whose memory and
// time ranges both intersect, in no particular order. Returns false, with
// `out` incomplete, once more than `cap` pairs were found.
bool IntersectingBoxes(const std::vector<Box>& boxes, size_t cap, std::vector<std::pair<int, int>>* out);

}  // namespace ge::verify
