// Builds the tiny graphs the op tests infer: Data/Const inputs -> one op ->
// NetOutput, and runs ge::InferNode over it in topological order with Const
// values visible to their consumers.
#pragma once

#include <gtest/gtest.h>

#include <initializer_list>
#include <string>
#include <vector>

#include "ge/ir/graph.h"
#include "ge/ops/op_registry.h"

namespace ge::test {

using Dims = std::vector<int64_t>;

inline TensorDesc F32(Dims d) { return TensorDesc(DataType::kFloat32, std::move(d)); }
inline TensorDesc I64(Dims d) { return TensorDesc(DataType::kInt64, std::move(d)); }
inline Tensor I64s(const std::vector<int64_t>& v) {
  return Tensor::FromVector(DataType::kInt64, {static_cast<int64_t>(v.size())}, v);
}
inline Tensor I64Scalar(int64_t v) { return Tensor::FromVector(DataType::kInt64, {}, std::vector<int64_t>{v}); }
inline Tensor F32Scalar(float v) { return Tensor::FromVector(DataType::kFloat32, {}, std::vector<float>{v}); }
inline Tensor F32Zeros(Dims d) {
  return Tensor::FromVector(DataType::kFloat32, d, std::vector<float>(static_cast<size_t>(NumElements(d)), 0.f));
}

class OpGraph {
 public:
  explicit OpGraph(const std::string& type, size_t num_outputs = 1, const std::string& name = "op")
      : g_("test") {
    op_ = g_.AddNode(type, name, 0, num_outputs);
  }

  // The next input comes from a Data node with this description.
  OpGraph& In(TensorDesc d) {
    Node* n = g_.AddNode(op::kData, Name("in"), 0, 1);
    n->SetAttr("index", data_index_++);
    n->output_desc(0) = std::move(d);
    return Connect(n);
  }
  // The next input comes from a Const with this value.
  OpGraph& Const(Tensor t) {
    Node* n = g_.AddNode(op::kConst, Name("c"), 0, 1);
    n->output_desc(0) = t.desc();
    n->SetAttr("value", std::move(t));
    return Connect(n);
  }
  // The next (optional) input stays unconnected.
  OpGraph& Absent() {
    op_->SetNumInputs(++next_);
    return *this;
  }
  OpGraph& Attr(const std::string& k, AttrValue v) {
    op_->SetAttr(k, std::move(v));
    return *this;
  }
  OpGraph& Ints(const std::string& k, Dims v) { return Attr(k, std::move(v)); }
  OpGraph& Int(const std::string& k, int64_t v) { return Attr(k, v); }
  OpGraph& Opset(int64_t v) { return Attr("_opset", v); }

  // Infers every node; the first failure is returned.
  Status Infer() {
    if (!out_ && op_->num_outputs() > 0) {  // a NetOutput under test has no consumer
      out_ = g_.AddNode(op::kNetOutput, "out", 0, 0);
      for (size_t j = 0; j < op_->num_outputs(); ++j) {
        Status s = g_.AddEdge(op_, static_cast<int>(j), out_, static_cast<int>(j));
        if (!s.ok()) return s;
      }
    }
    auto order = g_.TopologicalOrder();
    if (!order.ok()) return order.status();
    for (Node* n : *order) {
      Status s = InferNode(*n, [n](size_t i) -> const Tensor* {
        Node* src = n->InputNode(i);
        return src && src->type() == op::kConst ? src->GetTensor("value") : nullptr;
      });
      if (!s.ok()) return s;
    }
    return Status::Ok();
  }

  // The op's output j as text: "f32[1,64,112,112]", "i64[?]", "f32[*]".
  std::string Out(size_t j = 0) const { return op_->output_desc(j).ToString(); }
  Node* node() { return op_; }
  Graph& graph() { return g_; }

 private:
  // "in0", "c1": the input's index (appended, not prefixed: GCC 12 warns falsely on prefixing).
  std::string Name(std::string prefix) const {
    prefix += std::to_string(next_);
    return prefix;
  }
  OpGraph& Connect(Node* src) {
    EXPECT_TRUE(g_.AddEdge(src, 0, op_, static_cast<int>(next_)).ok());
    ++next_;
    return *this;
  }

  Graph g_;
  Node* op_ = nullptr;
  Node* out_ = nullptr;
  size_t next_ = 0;
  int64_t data_index_ = 0;
};

// Infers and returns the op's output 0 as text, or "error: <message>".
inline std::string InferOut(OpGraph& g, size_t j = 0) {
  Status s = g.Infer();
  return s.ok() ? g.Out(j) : "error: " + s.message();
}

// The inference failed with `code` (a bad operand or attribute unless said
// otherwise), names the node ("node op (Type)") and says each of `parts`.
inline ::testing::AssertionResult FailsWith(OpGraph& g, std::initializer_list<std::string> parts,
                                            StatusCode code = StatusCode::kInvalidArgument) {
  Status s = g.Infer();
  if (s.ok()) return ::testing::AssertionFailure() << "inference succeeded: " << g.Out();
  if (s.code() != code)
    return ::testing::AssertionFailure() << "code " << StatusCodeName(s.code()) << ", expected " << StatusCodeName(code)
                                         << ": " << s.message();
  const std::string label = "node " + g.node()->Label();
  if (s.message().find(label) == std::string::npos)
    return ::testing::AssertionFailure() << "'" << s.message() << "' does not name " << label;
  for (const std::string& p : parts)
    if (s.message().find(p) == std::string::npos)
      return ::testing::AssertionFailure() << "'" << s.message() << "' does not say '" << p << "'";
  return ::testing::AssertionSuccess() << s.message();
}

}  // namespace ge::test
