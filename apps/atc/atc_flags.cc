#include "atc/atc_flags.h"

#include <cctype>

namespace ge::atc {

std::vector<std::string> NormalizeArgs(int argc, char** argv) {
  std::vector<std::string> out;
  for (int i = 0; i < argc; ++i) {
    std::string a = argv[i];
    // A flag is a dash then a letter; "-1" or "-3.5" is a value.
    if (i > 0 && a.size() > 2 && a[0] == '-' && a[1] != '-' && std::isalpha(static_cast<unsigned char>(a[1])))
      a = "-" + a;
    if (i > 0 && a.size() > 2 && a[0] == '-' && a[1] == '-') {
      const size_t eq = a.find('=');
      for (size_t k = 2; k < std::min(eq, a.size()); ++k)
        if (a[k] == '-') a[k] = '_';
      if (a == "--h") a = "--help";
    }
    out.push_back(std::move(a));
  }
  return out;
}

const std::vector<CompatFlag>& CompatFlags() {
  using K = CompatFlag::Kind;
  static const std::vector<CompatFlag> flags = {
      // The NPU's hardware and its operator compiler: nothing to choose on a CPU.
      {"core_type", K::kIgnored, "there are no AI Core / Vector Core kinds on a CPU"},
      {"aicore_num", K::kIgnored, "the CPU backend uses every core the machine gives it"},
      {"virtual_type", K::kIgnored, "there is no virtualised NPU on a CPU"},
      {"enable_small_channel", K::kIgnored, "small-channel convolution is an NPU cube-unit optimisation"},
      {"enable_compress_weight", K::kIgnored, "weight compression is an NPU feature; weights are stored as they are"},
      {"compress_weight_conf", K::kIgnored, "weight compression is an NPU feature; weights are stored as they are"},
      {"compression_optimize_conf", K::kIgnored, "weight compression is an NPU feature"},
      {"enable_scope_fusion_passes", K::kIgnored, "TensorFlow scope fusion targets NPU fused operators"},
      {"op_debug_level", K::kIgnored, "there is no operator compilation (TBE) to debug"},
      {"op_debug_config", K::kIgnored, "there is no operator compilation (TBE) to debug"},
      {"op_compiler_cache_mode", K::kIgnored, "there is no operator compilation to cache"},
      {"op_compiler_cache_dir", K::kIgnored, "there is no operator compilation to cache"},
      {"op_bank_path", K::kIgnored, "there is no auto-tuning knowledge base on a CPU"},
      {"mdl_bank_path", K::kIgnored, "there is no auto-tuning knowledge base on a CPU"},
      {"auto_tune_mode", K::kIgnored, "there is no operator auto-tuning on a CPU"},
      {"debug_dir", K::kIgnored, "there are no operator compilation files to keep"},
      {"dump_mode", K::kIgnored, "use ge-dump to see the graph after every pass"},
      {"host_env_os", K::kIgnored, "the host is the device"},
      {"host_env_cpu", K::kIgnored, "the host is the device"},
      {"status_check", K::kIgnored, "there is no overflow status register to check"},
      {"sparsity", K::kIgnored, "structured sparsity is an NPU cube-unit feature"},
      {"atomic_clean_policy", K::kIgnored, "there are no atomic-add outputs to clean on the CPU backend"},
      {"deterministic", K::kIgnored, "the CPU kernels give the same result for the same thread count"},
      {"oo_level", K::kIgnored, "ge-atc always runs its optimisation passes (--disable_pass switches one off)"},
      {"external_weight", K::kIgnored, "the .om keeps its weights inline"},
      {"save_original_model", K::kIgnored, "the .om keeps the source model's SHA-256, not a copy"},
      {"shape_generalized_build_mode", K::kIgnored, "every shape is static"},
      {"allow_hf32", K::kIgnored, "HF32 is an NPU cube-unit format; the CPU computes in float32"},
      {"op_precision_mode", K::kIgnored, "every CPU kernel computes in float32"},
      {"customize_dtypes", K::kIgnored, "per-node dtypes: use --keep_dtype and --modify_mixlist"},
      {"is_input_adjust_hw_layout", K::kIgnored, "NC1HWC0 is the NPU's layout; inputs stay in the model's layout"},
      {"is_output_adjust_hw_layout", K::kIgnored, "NC1HWC0 is the NPU's layout; outputs stay in the model's layout"},
      {"display_model_info", K::kIgnored, "ge-atc always prints the model's memory summary"},
      {"job_type", K::kIgnored, "there is no auto-tuning job on a CPU"},
      // What ge cannot do (yet): refused, so nothing is compiled that the user did not ask for.
      {"weight", K::kRefused, "Caffe models (.caffemodel weights) are not supported; convert to ONNX"},
      {"op_name_map", K::kRefused, "Caffe custom operator maps are not supported; convert to ONNX"},
      {"singleop", K::kRefused, "single-operator JSON models are not supported"},
      {"input_shape_range", K::kRefused, "shape ranges are not compiled yet: a -1 in --input_shape makes the dim dynamic (docs/dynamic-shapes.md)"},
      {"input_hint_shape", K::kRefused, "not needed: a dynamic model runs any shape in v2 mode (docs/dynamic-shapes.md)"},
      {"distributed_cluster_build", K::kRefused, "distributed (multi-device) builds are not supported"},
      {"cluster_config", K::kRefused, "distributed (multi-device) builds are not supported"},
      {"model_relation_config", K::kRefused, "distributed (multi-device) builds are not supported"},
      {"enable_graph_parallel", K::kRefused, "graph partitioning across devices is not supported"},
      {"graph_parallel_option_path", K::kRefused, "graph partitioning across devices is not supported"},
  };
  return flags;
}

void AddCompatOptions(CLI::App& app, std::map<std::string, std::string>& values) {
  for (const CompatFlag& f : CompatFlags()) {
    const std::string name = f.name;
    const std::string help = std::string(f.kind == CompatFlag::Kind::kIgnored ? "atc flag, ignored: " : "atc flag, refused: ") + f.why;
    app.add_option_function<std::string>("--" + name, [&values, name](const std::string& v) { values[name] = v; }, help)
        ->group("atc flags ge-atc accepts but cannot use");
  }
}

Result<std::vector<std::string>> CheckCompatOptions(const std::map<std::string, std::string>& values) {
  std::vector<std::string> warnings;
  for (const CompatFlag& f : CompatFlags()) {
    auto it = values.find(f.name);
    if (it == values.end()) continue;
    const std::string given = "--" + std::string(f.name) + (it->second.empty() ? "" : " " + it->second);
    if (f.kind == CompatFlag::Kind::kRefused) return Unsupported(given + ": " + f.why);
    warnings.push_back(given + " ignored: " + f.why);
  }
  return warnings;
}

}  // namespace ge::atc
