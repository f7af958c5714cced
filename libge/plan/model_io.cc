#include "ge/model.h"

namespace ge {

void DescribeModelIo(Model& model) {
  model.inputs.clear();
  model.outputs.clear();
  for (Node* d : model.graph->InputNodes()) model.inputs.push_back({d->name(), d->output_desc(0)});
  Node* out = model.graph->OutputNode();
  if (!out) return;
  auto names = out->GetStrings("output_names");
  for (size_t i = 0; i < out->num_inputs(); ++i) {
    Endpoint src = out->InputSource(i);
    std::string name = i < names.size() ? names[i] : (src.valid() ? src.node->name() : "output" + std::to_string(i));
    model.outputs.push_back({name, src.valid() ? src.node->output_desc(src.index) : TensorDesc()});
  }
}

}  // namespace ge
