// ge-run --profile_table: where a model's time goes, per op, in sink or v2
// mode, with each op's achieved GFLOP/s (its FLOP count, ge/ops/flop_count.h,
// over its mean time).
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "ge/ir/graph.h"
#include "ge/runtime.h"

namespace ge::run {

// Kernel time of the timed runs, summed per task (node) and per op type.
// Event and label tasks are not kernels and are left out; a task inside a
// loop counts its last run of each inference (the HAL keeps one time per
// task, hal/model.h).
class ProfileTable {
 public:
  // `graph`: the compiled graph, for the FLOPs of each task (matched by its
  // name, "node (Type)"); a task without a count shows no GFLOP/s.
  explicit ProfileTable(const Graph& graph);
  void Add(const std::vector<TaskProfile>& run);
  // The `top` slowest tasks, then the op types, as aligned text.
  std::string Text(size_t top) const;
  nlohmann::ordered_json Json() const;
  size_t runs() const { return runs_; }

 private:
  struct Row {
    std::string name, op;
    double ns = 0;
    int64_t flops = -1;  // -1: unknown
  };
  struct OpRow {
    std::string op;
    size_t tasks = 0;
    double ns = 0;
    int64_t flops = 0;  // of the tasks with a count
  };
  std::vector<Row> SortedTasks() const;
  std::vector<OpRow> SortedOps() const;
  double TotalNs() const;

  std::map<std::string, int64_t> flops_;  // task name -> FLOPs
  std::vector<Row> tasks_;                // in task order of the first run
  std::map<std::string, size_t> index_;   // name -> tasks_
  size_t runs_ = 0;
};

}  // namespace ge::run
