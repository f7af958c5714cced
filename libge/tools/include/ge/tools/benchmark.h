// What benchmarking a model needs besides the runtime: reproducible random
// inputs and latency percentiles (ge-run --input random, --loop).
#pragma once

#include <cstdint>
#include <vector>

#include "ge/ir/tensor_desc.h"

namespace ge::tools {

// Bytes for one tensor of `desc` (static shape): floats uniform in [-1, 1),
// integers in [0, 100), bools 0/1, other types random bytes in each element's
// first byte; the same seed gives the same bytes.
std::vector<uint8_t> RandomTensorBytes(const TensorDesc& desc, uint32_t seed);

struct Latency {
  double p50 = 0, p90 = 0, p99 = 0, mean = 0, min = 0;
};

// Percentiles by nearest rank over the samples (any unit); zeros for none.
Latency Percentiles(std::vector<double> samples);

}  // namespace ge::tools
