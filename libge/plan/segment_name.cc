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

}  // namespace ge
