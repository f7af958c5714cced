// Chrome trace of profiled sink runs (the JSON "Trace Event Format" that
// chrome://tracing and Perfetto open): pid 1, one tid per stream, an "X"
// slice per task, and a flow arrow from each event record to its wait.
#include <algorithm>
#include <limits>

#include <nlohmann/json.hpp>

#include "ge/runtime.h"

namespace ge {

std::string ChromeTraceJson(const std::vector<std::vector<TaskProfile>>& runs, const std::string& model_name) {
  int64_t t0 = std::numeric_limits<int64_t>::max();
  int32_t max_stream = -1;
  for (const auto& run : runs)
    for (const TaskProfile& t : run) {
      if (t.begin_ns > 0) t0 = std::min(t0, t.begin_ns);
      max_stream = std::max(max_stream, t.stream);
    }
  if (t0 == std::numeric_limits<int64_t>::max()) t0 = 0;
  auto us = [&](int64_t ns) { return static_cast<double>(ns - t0) / 1000.0; };
  nlohmann::ordered_json events = nlohmann::ordered_json::array();
  events.push_back({{"name", "process_name"}, {"ph", "M"}, {"pid", 1}, {"args", {{"name", "ge-run: " + model_name}}}});
  for (int32_t s = 0; s <= max_stream; ++s) {
    events.push_back({{"name", "thread_name"}, {"ph", "M"}, {"pid", 1}, {"tid", s}, {"args", {{"name", "stream " + std::to_string(s)}}}});
    events.push_back({{"name", "thread_sort_index"}, {"ph", "M"}, {"pid", 1}, {"tid", s}, {"args", {{"sort_index", s}}}});
  }
  for (size_t r = 0; r < runs.size(); ++r) {
    for (const TaskProfile& t : runs[r]) {
      if (t.begin_ns == 0 && t.end_ns == 0) continue;  // did not run
      nlohmann::ordered_json e = {{"name", t.name},       {"cat", t.kernel == "event" ? "event" : "kernel"},
                                  {"ph", "X"},            {"ts", us(t.begin_ns)},
                                  {"dur", std::max(0.001, static_cast<double>(t.end_ns - t.begin_ns) / 1000.0)},
                                  {"pid", 1},             {"tid", t.stream},
                                  {"args", {{"kernel", t.kernel}, {"run", r}}}};
      events.push_back(e);
      if (t.event >= 0) {
        const bool record = t.name.rfind("record", 0) == 0;
        nlohmann::ordered_json f = {{"name", "event " + std::to_string(t.event)},
                                    {"cat", "event"},
                                    {"ph", record ? "s" : "f"},
                                    {"id", r * 100000 + static_cast<size_t>(t.event)},
                                    {"ts", us(record ? t.begin_ns : t.end_ns)},
                                    {"pid", 1},
                                    {"tid", t.stream}};
        if (!record) f["bp"] = "e";
        events.push_back(f);
      }
    }
  }
  nlohmann::ordered_json doc = {{"traceEvents", events}, {"displayTimeUnit", "ns"}};
  return doc.dump();
}

}  // namespace ge
