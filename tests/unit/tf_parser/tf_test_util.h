// Builds small TensorFlow GraphDefs in C++ from our own proto classes (no
// TensorFlow needed), parses them, and compiles and runs them on the CPU so
// each test shows the TF graph next to the numbers it must produce.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <algorithm>
#include <initializer_list>
#include <string>
#include <tuple>
#include <vector>

#include "ge/compiler.h"
#include "ge/ir/text_form.h"
#include "ge/runtime.h"
#include "ge_parsers/tf_parser.h"
#include "tf_graph.pb.h"

namespace ge::test {

using Ints = std::vector<int64_t>;
using Floats = std::vector<float>;
using I32 = std::vector<int32_t>;

// Parse options naming the outputs ("name" or "name:k").
inline ParseOptions Outs(std::vector<std::string> names) {
  ParseOptions o;
  o.out_nodes = std::move(names);
  return o;
}

inline tf::TensorShapeProto ShapeProto(const Ints& dims) {
  tf::TensorShapeProto s;
  for (int64_t d : dims) s.add_dim()->set_size(d);
  return s;
}

// A GraphDef under construction; node() returns the NodeDef to add attrs to.
class TfGraph {
 public:
  tf::GraphDef& def() { return g_; }
  std::string Bytes() const { return g_.SerializeAsString(); }

  tf::NodeDef* Node(const std::string& op, const std::string& name, std::initializer_list<std::string> inputs = {}) {
    tf::NodeDef* n = g_.add_node();
    n->set_op(op);
    n->set_name(name);
    for (const auto& i : inputs) n->add_input(i);
    (*n->mutable_attr())["T"].set_type(tf::DT_FLOAT);
    return n;
  }
  tf::NodeDef* Placeholder(const std::string& name, const Ints& dims, tf::DataType dt = tf::DT_FLOAT) {
    tf::NodeDef* n = Node("Placeholder", name);
    n->mutable_attr()->erase("T");
    (*n->mutable_attr())["dtype"].set_type(dt);
    *(*n->mutable_attr())["shape"].mutable_shape() = ShapeProto(dims);
    return n;
  }
  // Values as tensor_content (raw bytes).
  template <typename T>
  tf::NodeDef* Const(const std::string& name, tf::DataType dt, const Ints& dims, const std::vector<T>& values) {
    tf::NodeDef* n = ConstNode(name, dt, dims);
    (*n->mutable_attr())["value"].mutable_tensor()->set_tensor_content(
        std::string(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(T)));
    return n;
  }
  tf::NodeDef* ConstF(const std::string& name, const Ints& dims, const Floats& v) {
    return Const(name, tf::DT_FLOAT, dims, v);
  }
  tf::NodeDef* ConstI32(const std::string& name, const Ints& dims, const std::vector<int32_t>& v) {
    return Const(name, tf::DT_INT32, dims, v);
  }
  // Values in the repeated float_val field (TF's fill rule applies).
  tf::NodeDef* ConstFloatVal(const std::string& name, const Ints& dims, const Floats& v) {
    tf::NodeDef* n = ConstNode(name, tf::DT_FLOAT, dims);
    for (float x : v) (*n->mutable_attr())["value"].mutable_tensor()->add_float_val(x);
    return n;
  }
  tf::NodeDef* ConstNode(const std::string& name, tf::DataType dt, const Ints& dims) {
    tf::NodeDef* n = Node("Const", name);
    n->mutable_attr()->erase("T");
    (*n->mutable_attr())["dtype"].set_type(dt);
    tf::TensorProto* t = (*n->mutable_attr())["value"].mutable_tensor();
    t->set_dtype(dt);
    *t->mutable_tensor_shape() = ShapeProto(dims);
    return n;
  }

 private:
  tf::GraphDef g_;
};

inline void SetS(tf::NodeDef* n, const std::string& k, const std::string& v) { (*n->mutable_attr())[k].set_s(v); }
inline void SetI(tf::NodeDef* n, const std::string& k, int64_t v) { (*n->mutable_attr())[k].set_i(v); }
inline void SetF(tf::NodeDef* n, const std::string& k, float v) { (*n->mutable_attr())[k].set_f(v); }
inline void SetB(tf::NodeDef* n, const std::string& k, bool v) { (*n->mutable_attr())[k].set_b(v); }
inline void SetType(tf::NodeDef* n, const std::string& k, tf::DataType v) { (*n->mutable_attr())[k].set_type(v); }
inline void SetList(tf::NodeDef* n, const std::string& k, const Ints& v) {
  auto* l = (*n->mutable_attr())[k].mutable_list();
  for (int64_t x : v) l->add_i(x);
}

inline Result<std::unique_ptr<Graph>> Parse(const TfGraph& g, const ParseOptions& o = {}) {
  return ParseTfBytes(g.Bytes(), o, "<test>");
}

// Number of nodes of `type` in the graph.
inline int CountOps(const Graph& g, const std::string& type) {
  int k = 0;
  for (Node* n : g.nodes()) k += n->type() == type;
  return k;
}

struct HostValue {
  Ints dims;
  std::vector<uint8_t> bytes;
  template <typename T>
  std::vector<T> as() const {
    std::vector<T> v(bytes.size() / sizeof(T));
    if (!v.empty()) std::memcpy(v.data(), bytes.data(), bytes.size());
    return v;
  }
  Floats f() const { return as<float>(); }
};

template <typename T>
HostValue Host(const Ints& dims, const std::vector<T>& v) {
  HostValue h;
  h.dims = dims;
  h.bytes.resize(v.size() * sizeof(T));
  if (!v.empty()) std::memcpy(h.bytes.data(), v.data(), h.bytes.size());
  return h;
}

// Parse → Compile → load (v2).
inline Result<std::unique_ptr<LoadedModel>> LoadTf(const TfGraph& g, const ParseOptions& o = {}) {
  GE_ASSIGN_OR_RETURN(auto graph, Parse(g, o));
  CompileOptions co;
  co.model_name = "tf_test";
  co.framework = "tensorflow";
  co.verify_each_pass = true;
  GE_ASSIGN_OR_RETURN(Model model, Compile(std::move(graph), co));
  return LoadModel(model, RunMode::kV2);
}

// Parse → Compile → load (v2) → one Execute; the outputs in NetOutput order.
inline Result<std::vector<HostValue>> RunTf(const TfGraph& g, const std::vector<HostValue>& inputs,
                                          const ParseOptions& o = {}) {
  GE_ASSIGN_OR_RETURN(auto loaded, LoadTf(g, o));
  if (loaded->dynamic()) {  // data-dependent output shapes (NonZero, Unique, NMS...)
    std::vector<TensorView> views;
    for (size_t i = 0; i < inputs.size() && i < loaded->inputs().size(); ++i)
      views.push_back({loaded->inputs()[i].desc.dtype, inputs[i].dims, inputs[i].bytes.data()});
    std::vector<Tensor> got;
    GE_RETURN_IF_ERROR(loaded->ExecuteShaped(views, got));
    std::vector<HostValue> outs;
    for (const Tensor& t : got) outs.push_back({t.desc().dims, std::vector<uint8_t>(t.data(), t.data() + t.size())});
    return outs;
  }
  if (loaded->inputs().size() != inputs.size())
    return InvalidArgument("model has " + std::to_string(loaded->inputs().size()) + " inputs, test gives " +
                           std::to_string(inputs.size()));
  std::vector<const void*> in;
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (static_cast<int64_t>(inputs[i].bytes.size()) != loaded->inputs()[i].desc.Bytes())
      return InvalidArgument("input " + std::to_string(i) + " has the wrong size for " +
                             loaded->inputs()[i].desc.ToString());
    in.push_back(inputs[i].bytes.data());
  }
  std::vector<HostValue> outs(loaded->outputs().size());
  std::vector<void*> out;
  for (size_t j = 0; j < outs.size(); ++j) {
    outs[j].dims = loaded->outputs()[j].desc.dims;
    outs[j].bytes.resize(static_cast<size_t>(loaded->outputs()[j].desc.Bytes()));
    out.push_back(outs[j].bytes.data());
  }
  GE_RETURN_IF_ERROR(loaded->Execute(in, out));
  return outs;
}

// y = op(a, b) with a a float Placeholder and b a float Const, compiled and run.
inline Result<std::vector<HostValue>> RunWithConst(const std::string& op, const Ints& a_dims, const Floats& a,
                                                   const Ints& b_dims, const Floats& b) {
  TfGraph g;
  g.Placeholder("a", a_dims);
  g.ConstF("b", b_dims, b);
  g.Node(op, "y", {"a", "b"});
  return RunTf(g, {Host<float>(a_dims, a)});
}

// 0, 1, ..., n - 1.
inline Floats Count(size_t n) {
  Floats v(n);
  for (size_t i = 0; i < n; ++i) v[i] = static_cast<float>(i);
  return v;
}

inline Floats Iota(size_t n, float scale = 0.1f, float offset = -1.f) {
  Floats v(n);
  for (size_t i = 0; i < n; ++i) v[i] = offset + scale * static_cast<float>((i * 7) % 23);
  return v;
}

inline void ExpectNear(const Floats& got, const Floats& want, float tol = 1e-4f) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) ASSERT_NEAR(got[i], want[i], tol) << "at " << i;
}

// ---- independent references in TF's own layout (NHWC) ----

// TF's SAME padding: {before, after}, the odd one after.
inline std::pair<int64_t, int64_t> TfSame(int64_t in, int64_t k, int64_t s, int64_t d = 1) {
  const int64_t out = (in + s - 1) / s;
  const int64_t total = std::max<int64_t>((out - 1) * s + (k - 1) * d + 1 - in, 0);
  return {total / 2, total - total / 2};
}

struct Window {
  int64_t kh, kw, sh, sw, dh = 1, dw = 1, pt = 0, pl = 0, pb = 0, pr = 0;
  int64_t OutH(int64_t h) const { return (h + pt + pb - ((kh - 1) * dh + 1)) / sh + 1; }
  int64_t OutW(int64_t w) const { return (w + pl + pr - ((kw - 1) * dw + 1)) / sw + 1; }
};

inline Window SameWindow(int64_t h, int64_t w, int64_t kh, int64_t kw, int64_t sh, int64_t sw, int64_t dh = 1,
                         int64_t dw = 1) {
  Window win{kh, kw, sh, sw, dh, dw};
  std::tie(win.pt, win.pb) = TfSame(h, kh, sh, dh);
  std::tie(win.pl, win.pr) = TfSame(w, kw, sw, dw);
  return win;
}

// x NHWC [n,h,w,c], filter HWIO [kh,kw,c/group... here c,m]: y NHWC.
inline Floats Conv2dNhwc(const Floats& x, const Ints& xd, const Floats& f, int64_t m, const Window& win) {
  const int64_t N = xd[0], H = xd[1], W = xd[2], C = xd[3];
  const int64_t OH = win.OutH(H), OW = win.OutW(W);
  Floats y(static_cast<size_t>(N * OH * OW * m), 0.f);
  for (int64_t n = 0; n < N; ++n)
    for (int64_t oh = 0; oh < OH; ++oh)
      for (int64_t ow = 0; ow < OW; ++ow)
        for (int64_t o = 0; o < m; ++o) {
          double acc = 0;
          for (int64_t i = 0; i < win.kh; ++i)
            for (int64_t j = 0; j < win.kw; ++j) {
              const int64_t ih = oh * win.sh + i * win.dh - win.pt, iw = ow * win.sw + j * win.dw - win.pl;
              if (ih < 0 || ih >= H || iw < 0 || iw >= W) continue;
              for (int64_t c = 0; c < C; ++c)
                acc += x[((n * H + ih) * W + iw) * C + c] * f[((i * win.kw + j) * C + c) * m + o];
            }
          y[((n * OH + oh) * OW + ow) * m + o] = static_cast<float>(acc);
        }
  return y;
}

// Depthwise: filter [kh,kw,C,M], output channel c*M + q.
inline Floats DepthwiseNhwc(const Floats& x, const Ints& xd, const Floats& f, int64_t mult, const Window& win) {
  const int64_t N = xd[0], H = xd[1], W = xd[2], C = xd[3];
  const int64_t OH = win.OutH(H), OW = win.OutW(W);
  Floats y(static_cast<size_t>(N * OH * OW * C * mult), 0.f);
  for (int64_t n = 0; n < N; ++n)
    for (int64_t oh = 0; oh < OH; ++oh)
      for (int64_t ow = 0; ow < OW; ++ow)
        for (int64_t c = 0; c < C; ++c)
          for (int64_t q = 0; q < mult; ++q) {
            double acc = 0;
            for (int64_t i = 0; i < win.kh; ++i)
              for (int64_t j = 0; j < win.kw; ++j) {
                const int64_t ih = oh * win.sh + i - win.pt, iw = ow * win.sw + j - win.pl;
                if (ih < 0 || ih >= H || iw < 0 || iw >= W) continue;
                acc += x[((n * H + ih) * W + iw) * C + c] * f[((i * win.kw + j) * C + c) * mult + q];
              }
            y[((n * OH + oh) * OW + ow) * C * mult + c * mult + q] = static_cast<float>(acc);
          }
  return y;
}

// Max or average (over the in-bounds elements only, as TF) pooling.
inline Floats PoolNhwc(const Floats& x, const Ints& xd, const Window& win, bool max) {
  const int64_t N = xd[0], H = xd[1], W = xd[2], C = xd[3];
  const int64_t OH = win.OutH(H), OW = win.OutW(W);
  Floats y;
  for (int64_t n = 0; n < N; ++n)
    for (int64_t oh = 0; oh < OH; ++oh)
      for (int64_t ow = 0; ow < OW; ++ow)
        for (int64_t c = 0; c < C; ++c) {
          double acc = max ? -1e30 : 0;
          int count = 0;
          for (int64_t i = 0; i < win.kh; ++i)
            for (int64_t j = 0; j < win.kw; ++j) {
              const int64_t ih = oh * win.sh + i - win.pt, iw = ow * win.sw + j - win.pl;
              if (ih < 0 || ih >= H || iw < 0 || iw >= W) continue;
              const double v = x[((n * H + ih) * W + iw) * C + c];
              acc = max ? std::max(acc, v) : acc + v;
              ++count;
            }
          y.push_back(static_cast<float>(max ? acc : acc / count));
        }
  return y;
}

// NHWC <-> NCHW of host data.
inline Floats NhwcToNchw(const Floats& x, const Ints& d) {
  const int64_t N = d[0], H = d[1], W = d[2], C = d[3];
  Floats y(x.size());
  for (int64_t n = 0; n < N; ++n)
    for (int64_t h = 0; h < H; ++h)
      for (int64_t w = 0; w < W; ++w)
        for (int64_t c = 0; c < C; ++c) y[((n * C + c) * H + h) * W + w] = x[((n * H + h) * W + w) * C + c];
  return y;
}

}  // namespace ge::test

namespace ge::test {

// A 1x1 NHWC Conv2D with the identity filter: its output equals `input`
// (C channels) but is held as NCHW, so ops after it take the layout path.
inline void NchwHeld(TfGraph& g, const std::string& name, const std::string& input, int64_t c) {
  Floats eye(static_cast<size_t>(c * c), 0.f);
  for (int64_t i = 0; i < c; ++i) eye[static_cast<size_t>(i * c + i)] = 1.f;
  g.ConstF(name + "/eye", {1, 1, c, c}, eye);
  auto* conv = g.Node("Conv2D", name, {input, name + "/eye"});
  SetS(conv, "padding", "VALID");
  SetList(conv, "strides", {1, 1, 1, 1});
}

}  // namespace ge::test
