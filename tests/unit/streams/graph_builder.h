// Tiny graphs for the streams tests: every tensor f32 [1, 16] (64 bytes).
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "ge/compiler.h"
#include "ge/ir/graph.h"
#include "ge/model.h"

namespace ge::streams::test {

struct G {
  std::unique_ptr<Graph> g = std::make_unique<Graph>("t");
  std::vector<int64_t> dims = {1, 16};
  int inputs = 0;
  Node* Data(const std::string& name) {
    Node* n = g->AddNode(op::kData, name, 0, 1);
    n->SetAttr("index", int64_t{inputs++});
    n->output_desc(0) = TensorDesc(DataType::kFloat32, dims);
    return n;
  }
  Node* Op(const std::string& type, const std::string& name, std::vector<Node*> in) {
    Node* n = g->AddNode(type, name, in.size(), 1);
    for (size_t i = 0; i < in.size(); ++i) EXPECT_TRUE(g->AddEdge(in[i], 0, n, i).ok());
    n->output_desc(0) = TensorDesc(DataType::kFloat32, dims);
    return n;
  }
  Node* Out(std::vector<Node*> in) {
    Node* n = g->AddNode(op::kNetOutput, "out", in.size(), 0);
    for (size_t i = 0; i < in.size(); ++i) EXPECT_TRUE(g->AddEdge(in[i], 0, n, i).ok());
    return n;
  }
};

inline Model CompileWith(std::unique_ptr<Graph> g, int32_t stream_num, bool reuse = true) {
  CompileOptions o;
  o.stream_num = stream_num;
  o.buffer_reuse = reuse;
  o.verify_each_pass = true;
  auto m = Compile(std::move(g), o);
  EXPECT_TRUE(m.ok()) << m.status().ToString();
  return m.ok() ? std::move(m).value() : Model{};
}

// "K:a" kernel, "R0" record event 0, "W0" wait for event 0.
inline std::vector<std::string> Describe(const StreamTasks& st) {
  std::vector<std::string> out;
  for (const Task& t : st.tasks) {
    switch (t.kind) {
      case Task::Kind::kKernel: out.push_back("K:" + t.node); break;
      case Task::Kind::kEventRecord: out.push_back("R" + std::to_string(t.event)); break;
      case Task::Kind::kEventWait: out.push_back("W" + std::to_string(t.event)); break;
      default: out.push_back("L" + std::to_string(t.label)); break;  // label tasks (linked lists only)
    }
  }
  return out;
}

inline Task K(const std::string& node) {
  Task t;
  t.node = node;
  return t;
}
inline Task R(int32_t e) {
  Task t;
  t.kind = Task::Kind::kEventRecord;
  t.event = e;
  t.kernel = -1;
  return t;
}
inline Task W(int32_t e) {
  Task t;
  t.kind = Task::Kind::kEventWait;
  t.event = e;
  t.kernel = -1;
  return t;
}
inline std::vector<StreamTasks> Streams(std::vector<std::vector<Task>> lists) {
  std::vector<StreamTasks> out;
  for (size_t s = 0; s < lists.size(); ++s) out.push_back(StreamTasks{static_cast<int32_t>(s), std::move(lists[s])});
  return out;
}

}  // namespace ge::streams::test
