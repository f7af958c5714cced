#include "ge/tools/benchmark.h"

#include <algorithm>
#include <random>

namespace ge::tools {

std::vector<uint8_t> RandomTensorBytes(const TensorDesc& d, uint32_t seed) {
  std::mt19937 rng(seed);
  // Counted from the checked bytes (0 for a shape too large to exist), so the
  // loop never writes past them.
  std::vector<uint8_t> bytes(static_cast<size_t>(std::max<int64_t>(d.Bytes(), 0)));
  const int64_t n = static_cast<int64_t>(bytes.size() / std::max<size_t>(DataTypeSize(d.dtype), 1));
  for (int64_t i = 0; i < n; ++i) {
    switch (d.dtype) {
      case DataType::kFloat32: reinterpret_cast<float*>(bytes.data())[i] = std::uniform_real_distribution<float>(-1, 1)(rng); break;
      case DataType::kFloat64: reinterpret_cast<double*>(bytes.data())[i] = std::uniform_real_distribution<double>(-1, 1)(rng); break;
      case DataType::kInt64: reinterpret_cast<int64_t*>(bytes.data())[i] = rng() % 100; break;
      case DataType::kInt32: reinterpret_cast<int32_t*>(bytes.data())[i] = static_cast<int32_t>(rng() % 100); break;
      case DataType::kBool: bytes[i] = rng() & 1; break;
      default: bytes[static_cast<size_t>(i) * DataTypeSize(d.dtype)] = static_cast<uint8_t>(rng()); break;
    }
  }
  return bytes;
}

Latency Percentiles(std::vector<double> ms) {
  Latency l;
  if (ms.empty()) return l;
  std::sort(ms.begin(), ms.end());
  auto at = [&](double q) { return ms[std::min(ms.size() - 1, static_cast<size_t>(q * (ms.size() - 1) + 0.5))]; };
  l.p50 = at(0.5);
  l.p90 = at(0.9);
  l.p99 = at(0.99);
  l.min = ms.front();
  double sum = 0;
  for (double v : ms) sum += v;
  l.mean = sum / static_cast<double>(ms.size());
  return l;
}

}  // namespace ge::tools
