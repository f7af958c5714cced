#include "tf_control_flow.h"

#include <set>

namespace ge::tf_parser {

bool IsControlFlowOp(const std::string& op) {
  static const std::set<std::string> ops = {"Enter",         "RefEnter", "Exit",     "RefExit",  "Switch",
                                            "RefSwitch",     "Merge",    "RefMerge", "LoopCond", "NextIteration",
                                            "RefNextIteration"};
  return ops.count(op) != 0;
}

std::string DescribeControlFlow(const std::vector<const tf::NodeDef*>& nodes) {
  std::set<std::string> frames;
  size_t count = 0;
  for (const tf::NodeDef* n : nodes) {
    if (!IsControlFlowOp(n->op())) continue;
    ++count;
    if (n->op() == "Enter" || n->op() == "RefEnter") {
      auto it = n->attr().find("frame_name");
      frames.insert(it != n->attr().end() && !it->second.s().empty() ? it->second.s() : n->name());
    }
  }
  if (count == 0) return "";
  std::string what;
  if (frames.empty()) {
    what = "TF 1.x conditional (Switch/Merge, tf.cond)";
  } else {
    what = std::string("TF 1.x while loop") + (frames.size() == 1 ? " " : "s ");
    bool first = true;
    for (const std::string& f : frames) {
      what += (first ? "'" : ", '") + f + "'";
      first = false;
    }
  }
  return what + " (" + std::to_string(count) + " control-flow node" + (count == 1 ? "" : "s") +
         ") is not supported: ge has no While/If yet";
}

}  // namespace ge::tf_parser
