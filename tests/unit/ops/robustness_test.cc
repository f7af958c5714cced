// Every registered op against odd inputs and attributes: unknown ranks,
// scalars, empty and undefined descs, extreme constant values. Inference must
// never crash, must name the node in every error, and must only produce dims
// that are known (>= 0), unknown (-1) or an unknown rank ({-2}).
#include <cmath>

#include "ops_test_util.h"

namespace ge::test {
namespace {

struct Input {
  bool is_const;
  TensorDesc desc;
  Tensor value;
};

std::vector<Input> OddInputs() {
  std::vector<Input> v;
  for (TensorDesc d : {F32({kUnknownRank}), F32({}), F32({-1}), F32({0}), TensorDesc(), I64({3}), I64({-1}),
                       F32({1, -1, 0, 2}), F32({2, 3, 4, 5}), TensorDesc(DataType::kBool, {2, 1}),
                       TensorDesc(DataType::kInt32, {1, 3, 1})})
    v.push_back({false, d, {}});
  for (Tensor t : {I64s({}), I64s({-1}), I64s({0, -1}), I64s({1, 1, 1, 1}), I64s({INT64_MIN, INT64_MAX}),
                   I64s({INT64_MAX, INT64_MIN, -1}), I64Scalar(INT64_MIN), I64Scalar(0), F32Scalar(NAN),
                   F32Scalar(-INFINITY), F32Zeros({2, 3})})
    v.push_back({true, t.desc(), t});
  return v;
}

std::vector<std::map<std::string, AttrValue>> OddAttrs() {
  return {
      {},
      {{"axis", int64_t{100}}, {"axes", Dims{-100}}, {"perm", Dims{5}}, {"_opset", int64_t{11}}},
      {{"kernel_shape", Dims{0}}, {"strides", Dims{}}, {"pads", Dims{-1}}, {"group", int64_t{0}},
       {"to", int64_t{999}}, {"_opset", int64_t{13}}},
      {{"kernel_shape", Dims{3, 3}}, {"ceil_mode", int64_t{1}}, {"auto_pad", std::string("SAME_LOWER")},
       {"split", Dims{1, -1}}, {"keepdims", int64_t{0}}, {"allowzero", int64_t{1}}, {"_opset", int64_t{18}}},
      {{"axis", int64_t{-1}}, {"transA", int64_t{1}}, {"noop_with_empty_axes", int64_t{1}}, {"start", int64_t{-9}},
       {"end", INT64_MIN}, {"output_shape", Dims{0}}, {"stash_type", int64_t{0}}},
  };
}

bool SaneDims(const TensorDesc& d) {
  if (d.unknown_rank()) return true;
  for (int64_t x : d.dims)
    if (x < kUnknownDim) return false;
  return true;
}

TEST(Robustness, OddInputsNeverCrashAndErrorsNameTheNode) {
  const auto inputs = OddInputs();
  const auto attrs = OddAttrs();
  int runs = 0, failures = 0;
  for (const std::string& type : OpRegistry::Global().Types()) {
    const OpDef* def = OpRegistry::Global().Find(type);
    const int max_in = def->max_inputs < 0 ? def->min_inputs + 3 : def->max_inputs;
    const size_t outs = def->max_outputs < 0 ? 3 : static_cast<size_t>(def->max_outputs);
    for (int n = def->min_inputs; n <= max_in; ++n) {
      for (size_t seed = 0; seed < 24; ++seed) {
        for (const auto& a : attrs) {
          OpGraph g(type, outs);
          for (int i = 0; i < n; ++i) {
            const Input& in = inputs[(seed * 5 + static_cast<size_t>(i) * 7) % inputs.size()];
            if (in.is_const) g.Const(in.value);
            else g.In(in.desc);
          }
          for (const auto& [k, v] : a) g.Attr(k, v);
          Status s = g.Infer();
          ++runs;
          const std::string label = "node op (" + type + ")";
          if (!s.ok()) {
            ++failures;
            EXPECT_NE(s.message().find(label), std::string::npos) << s.message();
            continue;
          }
          for (size_t j = 0; j < g.node()->num_outputs(); ++j)
            EXPECT_TRUE(SaneDims(g.node()->output_desc(j))) << type << " output " << j << ": " << g.Out(j);
        }
      }
    }
  }
  // Both paths were exercised.
  EXPECT_GT(runs, 1000);
  EXPECT_GT(failures, 0);
  EXPECT_LT(failures, runs);
}

}  // namespace
}  // namespace ge::test
