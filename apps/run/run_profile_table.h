// ge-run --profile_table: where a sink model's time goes, per op.
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "ge/runtime.h"

namespace ge::run {

// Kernel time of the timed runs, summed per task (node) and per op type.
// Event and label tasks are not kernels and are left out; a task inside a
// loop counts its last run of each inference (the HAL keeps one time per
// task, hal/model.h).
class ProfileTable {
 public:
  void Add(const std::vector<TaskProfile>& run);
  // The `top` slowest tasks, then the op types, as aligned text.
  std::string Text(size_t top) const;
  nlohmann::ordered_json Json() const;
  size_t runs() const { return runs_; }

 private:
  struct Row {
    std::string name, op;
    double ns = 0;
  };
  std::vector<Row> SortedTasks() const;
  std::vector<std::pair<std::string, double>> SortedOps() const;
  double TotalNs() const;

  std::vector<Row> tasks_;                  // in task order of the first run
  std::map<std::string, size_t> index_;     // name -> tasks_
  size_t runs_ = 0;
};

}  // namespace ge::run
