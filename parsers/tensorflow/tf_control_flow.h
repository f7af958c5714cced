// TF 1.x control flow (tf.while_loop / tf.cond as frozen graphs write them:
// Enter, Exit, Switch, Merge, NextIteration, LoopCond). ge has no While or
// If yet, so such graphs are refused in one line that names the loops by
// their frame (Enter's frame_name), not node by node.
#pragma once

#include <string>
#include <vector>

#include "tf_graph.pb.h"

namespace ge::tf_parser {

bool IsControlFlowOp(const std::string& op);

// "" when `nodes` hold no control flow; else one line, e.g.
// "TF 1.x while loop 'rnn/while/while_context' (14 control-flow nodes) is not
// supported: ge has no While/If yet".
std::string DescribeControlFlow(const std::vector<const tf::NodeDef*>& nodes);

}  // namespace ge::tf_parser
