// Builds small ONNX ModelProtos in C++ for the parser tests, so each test
// shows the model it parses next to what it expects.
#pragma once

#include <cstring>
#include <initializer_list>
#include <string>
#include <vector>

#include "onnx/onnx_pb.h"

namespace ge::test {

using onnx::TensorProto;

// A dims list where -1 becomes the symbolic dim "N".
inline void SetShape(onnx::TypeProto* type, int32_t elem, const std::vector<int64_t>& dims, bool has_shape = true) {
  auto* tt = type->mutable_tensor_type();
  tt->set_elem_type(elem);
  if (!has_shape) return;
  auto* shape = tt->mutable_shape();
  for (int64_t d : dims) {
    auto* dim = shape->add_dim();
    if (d >= 0)
      dim->set_dim_value(d);
    else
      dim->set_dim_param("N");
  }
}

class OnnxModelBuilder {
 public:
  explicit OnnxModelBuilder(int64_t opset = 13, const std::string& graph_name = "test_graph") {
    model_.set_ir_version(8);
    model_.set_producer_name("ge-parser-test");
    auto* op = model_.add_opset_import();
    op->set_domain("");
    op->set_version(opset);
    model_.mutable_graph()->set_name(graph_name);
  }

  onnx::ModelProto& model() { return model_; }
  onnx::GraphProto* graph() { return model_.mutable_graph(); }

  OnnxModelBuilder& Import(const std::string& domain, int64_t version) {
    auto* op = model_.add_opset_import();
    op->set_domain(domain);
    op->set_version(version);
    return *this;
  }

  OnnxModelBuilder& Input(const std::string& name, int32_t elem, const std::vector<int64_t>& dims,
                          bool has_shape = true) {
    auto* v = graph()->add_input();
    v->set_name(name);
    SetShape(v->mutable_type(), elem, dims, has_shape);
    return *this;
  }

  // The checker wants every main-graph output to declare a shape; -1 dims
  // leave it to inference.
  OnnxModelBuilder& Output(const std::string& name, int32_t elem, const std::vector<int64_t>& dims) {
    auto* v = graph()->add_output();
    v->set_name(name);
    SetShape(v->mutable_type(), elem, dims);
    return *this;
  }

  // An initializer whose bytes travel in raw_data.
  template <typename T>
  OnnxModelBuilder& RawInit(const std::string& name, int32_t elem, const std::vector<int64_t>& dims,
                            const std::vector<T>& values) {
    TensorProto* t = graph()->add_initializer();
    t->set_name(name);
    t->set_data_type(elem);
    for (int64_t d : dims) t->add_dims(d);
    t->set_raw_data(std::string(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(T)));
    return *this;
  }

  // An initializer with no values yet: the caller fills a typed field.
  TensorProto* Init(const std::string& name, int32_t elem, const std::vector<int64_t>& dims) {
    TensorProto* t = graph()->add_initializer();
    t->set_name(name);
    t->set_data_type(elem);
    for (int64_t d : dims) t->add_dims(d);
    return t;
  }

  onnx::NodeProto* Node(const std::string& op, std::initializer_list<std::string> inputs,
                        std::initializer_list<std::string> outputs, const std::string& name = "") {
    return NodeIn(graph(), op, inputs, outputs, name);
  }

  static onnx::NodeProto* NodeIn(onnx::GraphProto* g, const std::string& op, std::initializer_list<std::string> inputs,
                                 std::initializer_list<std::string> outputs, const std::string& name = "") {
    auto* n = g->add_node();
    n->set_op_type(op);
    if (!name.empty()) n->set_name(name);
    for (const auto& i : inputs) n->add_input(i);
    for (const auto& o : outputs) n->add_output(o);
    return n;
  }

  std::string Bytes() const { return model_.SerializeAsString(); }

 private:
  onnx::ModelProto model_;
};

// --- attributes ---
inline onnx::AttributeProto* AddAttr(onnx::NodeProto* n, const std::string& name,
                                     onnx::AttributeProto::AttributeType t) {
  auto* a = n->add_attribute();
  a->set_name(name);
  a->set_type(t);
  return a;
}
inline void AttrInt(onnx::NodeProto* n, const std::string& k, int64_t v) {
  AddAttr(n, k, onnx::AttributeProto::INT)->set_i(v);
}
inline void AttrFloat(onnx::NodeProto* n, const std::string& k, float v) {
  AddAttr(n, k, onnx::AttributeProto::FLOAT)->set_f(v);
}
inline void AttrString(onnx::NodeProto* n, const std::string& k, const std::string& v) {
  AddAttr(n, k, onnx::AttributeProto::STRING)->set_s(v);
}
inline void AttrInts(onnx::NodeProto* n, const std::string& k, const std::vector<int64_t>& v) {
  auto* a = AddAttr(n, k, onnx::AttributeProto::INTS);
  for (int64_t x : v) a->add_ints(x);
}
inline void AttrFloats(onnx::NodeProto* n, const std::string& k, const std::vector<float>& v) {
  auto* a = AddAttr(n, k, onnx::AttributeProto::FLOATS);
  for (float x : v) a->add_floats(x);
}
inline void AttrStrings(onnx::NodeProto* n, const std::string& k, const std::vector<std::string>& v) {
  auto* a = AddAttr(n, k, onnx::AttributeProto::STRINGS);
  for (const auto& x : v) a->add_strings(x);
}
inline TensorProto* AttrTensor(onnx::NodeProto* n, const std::string& k) {
  return AddAttr(n, k, onnx::AttributeProto::TENSOR)->mutable_t();
}
inline onnx::GraphProto* AttrGraph(onnx::NodeProto* n, const std::string& k) {
  return AddAttr(n, k, onnx::AttributeProto::GRAPH)->mutable_g();
}

}  // namespace ge::test
