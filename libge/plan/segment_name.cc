#include "ge/plan.h"

namespace ge {

const char* SegmentName(Segment s) {
  switch (s) {
    case Segment::kWeights: return "weights";
    case Segment::kFeatureMap: return "feature_map";
    case Segment::kInput: return "input";
    case Segment::kOutput: return "output";
  }
  return "unknown";
}

int64_t MemoryPlan::SegmentSize(Segment s) const {
  switch (s) {
    case Segment::kWeights: return weights_size;
    case Segment::kFeatureMap: return feature_map_size;
    case Segment::kInput: return input_size;
    case Segment::kOutput: return output_size;
  }
  return -1;
}

bool MemoryPlan::Contains(Segment s, int64_t offset, int64_t size) const {
  const int64_t segment = SegmentSize(s);
  return segment >= 0 && offset >= 0 && size >= 0 && offset <= segment && size <= segment - offset;
}

}  // namespace ge
