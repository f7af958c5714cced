#include <cstdio>

#include "ge/plan.h"

namespace ge {
namespace {

std::string MiB(int64_t bytes) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.1f MiB", static_cast<double>(bytes) / (1024.0 * 1024.0));
  return buf;
}

}  // namespace

std::string MemoryReport(const MemoryPlan& p) {
  std::string s = "feature map " + MiB(p.feature_map_size) + " (lower bound " + MiB(p.lower_bound) + ", no reuse " +
                  MiB(p.no_reuse_size);
  if (p.lower_bound > 0) {
    char ratio[32];
    std::snprintf(ratio, sizeof(ratio), ", %.3fx", static_cast<double>(p.feature_map_size) / static_cast<double>(p.lower_bound));
    s += ratio;
  }
  s += "), weights " + MiB(p.weights_size) + ", io " + MiB(p.input_size + p.output_size);
  if (!p.reuse) s += ", reuse off";
  return s;
}

}  // namespace ge
