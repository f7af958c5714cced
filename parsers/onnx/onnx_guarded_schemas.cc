#include "onnx_guarded_schemas.h"

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <tuple>

#include "onnx/defs/shape_inference.h"

namespace ge::onnx_parser {
namespace {

// Input index of the weight whose spatial dims stand in for kernel_shape; -1
// for ops that require kernel_shape.
int WeightIndex(const std::string& op) {
  static const std::map<std::string, int> kOps = {
      {"Conv", 1},    {"ConvTranspose", 1}, {"ConvInteger", 1}, {"QLinearConv", 3},
      {"MaxPool", -1}, {"AveragePool", -1}, {"LpPool", -1},     {"MaxUnpool", -1}};
  auto it = kOps.find(op);
  return it == kOps.end() ? -2 : it->second;
}

void CheckWindowRanks(onnx::InferenceContext& ctx, int weight) {
  if (!onnx::hasInputShape(ctx, 0)) return;
  const int x_rank = ctx.getInputType(0)->tensor_type().shape().dim_size();
  if (x_rank < 3) fail_shape_inference("input X has rank ", x_rank, "; it must be N x C x D1 ... Dn (rank 3 or more)");
  if (weight < 0 || ctx.getAttribute("kernel_shape") || !onnx::hasInputShape(ctx, weight)) return;
  const int w_rank = ctx.getInputType(weight)->tensor_type().shape().dim_size();
  if (w_rank != x_rank)
    fail_shape_inference("weight W has rank ", w_rank, " but input X has rank ", x_rank, "; they must be equal");
}

class Guarded final : public onnx::ISchemaRegistry {
 public:
  const onnx::OpSchema* GetSchema(const std::string& key, const int max_version,
                                  const std::string& domain) const override {
    const onnx::OpSchema* schema = onnx::OpSchemaRegistry::Schema(key, max_version, domain);
    if (key == "Scan" && schema && domain.empty()) return ScanSchema(*schema);
    const int weight = WeightIndex(key);
    if (!schema || weight == -2 || !(domain.empty() || domain == "ai.onnx")) return schema;
    std::lock_guard<std::mutex> lock(mu_);
    auto& copy = copies_[{key, schema->SinceVersion()}];
    if (!copy) {
      copy = std::make_unique<onnx::OpSchema>(*schema);
      onnx::InferenceFunction inner = schema->GetTypeAndShapeInferenceFunction();
      copy->TypeAndShapeInferenceFunction([inner, weight](onnx::InferenceContext& ctx) {
        CheckWindowRanks(ctx, weight);
        if (inner) inner(ctx);
      });
    }
    return copy.get();
  }

 private:
  // A Scan the parser kept in its opset-8 form (attr _scan_opset, see
  // KeepOpset8Scans) is inferred by the opset-8 schema.
  const onnx::OpSchema* ScanSchema(const onnx::OpSchema& schema) const {
    const onnx::OpSchema* scan8 = onnx::OpSchemaRegistry::Schema("Scan", 8, "");
    if (!scan8) return &schema;
    std::lock_guard<std::mutex> lock(mu_);
    auto& copy = copies_[{"Scan", schema.SinceVersion()}];
    if (!copy) {
      copy = std::make_unique<onnx::OpSchema>(schema);
      onnx::InferenceFunction inner = schema.GetTypeAndShapeInferenceFunction();
      onnx::InferenceFunction old = scan8->GetTypeAndShapeInferenceFunction();
      copy->TypeAndShapeInferenceFunction([inner, old](onnx::InferenceContext& ctx) {
        const onnx::AttributeProto* mark = ctx.getAttribute("_scan_opset");
        const onnx::InferenceFunction& f = mark && mark->i() == 8 ? old : inner;
        if (f) f(ctx);
      });
    }
    return copy.get();
  }

  mutable std::mutex mu_;
  mutable std::map<std::tuple<std::string, int>, std::unique_ptr<onnx::OpSchema>> copies_;
};

}  // namespace

const onnx::ISchemaRegistry* GuardedSchemaRegistry() {
  static const Guarded registry;
  return &registry;
}

}  // namespace ge::onnx_parser
