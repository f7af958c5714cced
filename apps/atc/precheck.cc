#include "atc/precheck.h"

#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>

#include "common/app_common.h"
#include "ge/file_io.h"
#include "ge/ops/op_registry.h"
#include "ge_parsers/onnx_parser.h"
#include "ge_parsers/tf_parser.h"

namespace ge::app {

namespace {

struct Report {
  std::string framework;
  size_t num_nodes = 0;
  std::vector<TfUnsupportedNode> unsupported;
  std::string error;  // a failure that is not a list of unsupported nodes
};

Result<ParseOptions> OptionsFrom(const PrecheckRequest& r) {
  ParseOptions p;
  GE_ASSIGN_OR_RETURN(p.input_shapes, ParseInputShapes(r.input_shape));
  p.out_nodes = SplitList(r.out_nodes, ';');
  if (p.out_nodes.size() == 1 && p.out_nodes[0].find(',') != std::string::npos) p.out_nodes = SplitList(r.out_nodes, ',');
  return p;
}

// Unsupported nodes first (all of them); only a model without any is
// converted, to find what the backend or shape inference rejects.
Status Check(const PrecheckRequest& r, Report& report) {
  GE_ASSIGN_OR_RETURN(ParseOptions popts, OptionsFrom(r));
  if (r.framework == 3) {
    report.framework = "tensorflow";
    GE_ASSIGN_OR_RETURN(TfCheckReport tf, CheckTfFile(r.model, popts));
    report.num_nodes = tf.num_nodes;
    report.unsupported = std::move(tf.unsupported);
  } else if (r.framework == 5) {
    report.framework = "onnx";
    GE_ASSIGN_OR_RETURN(auto graph, ParseOnnxFile(r.model, popts));
    for (Node* n : graph->nodes()) {
      ++report.num_nodes;
      if (!OpRegistry::Global().Find(n->type()))
        report.unsupported.push_back({n->name(), n->type(), "op type not supported by ge"});
    }
  } else {
    return InvalidArgument("--framework " + std::to_string(r.framework) + " is not one of 3 (TensorFlow), 5 (ONNX)");
  }
  if (!report.unsupported.empty()) return Status::Ok();
  auto model = ConvertModel(r.model, r.framework, r.input_shape, r.out_nodes, r.options);
  if (!model.ok()) report.error = model.status().message();
  return Status::Ok();
}

std::string ListLine(const Report& report) {
  if (report.framework == "tensorflow") return DescribeUnsupported(report.unsupported);
  std::string msg = std::to_string(report.unsupported.size()) + " unsupported node" +
                    (report.unsupported.size() == 1 ? "" : "s") + ": ";
  for (size_t i = 0; i < report.unsupported.size(); ++i)
    msg += (i ? "; " : "") + report.unsupported[i].name + " (" + report.unsupported[i].op + ")";
  return msg;
}

Status WriteReport(const std::string& path, const PrecheckRequest& r, const Report& report, bool passed) {
  nlohmann::ordered_json j;
  j["model"] = r.model;
  j["framework"] = report.framework;
  j["result"] = passed ? "success" : "failed";
  j["nodes_checked"] = report.num_nodes;
  j["unsupported_count"] = report.unsupported.size();
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (const auto& u : report.unsupported) list.push_back({{"op_type", u.op}, {"node_name", u.name}, {"reason", u.reason}});
  j["unsupported"] = list;
  if (!report.error.empty()) j["error"] = report.error;
  return WriteFileAtomically(path, j.dump(2) + "\n");
}

}  // namespace

Result<std::string> PrecheckReportPath(const std::string& json, const std::string& output) {
  if (!json.empty()) return json;
  if (!output.empty()) return output + ".precheck.json";
  return InvalidArgument("--mode 3 needs --json FILE or --output PATH for the report");
}

int RunPrecheck(const PrecheckRequest& r, const std::string& tool) {
  Report report;
  // A model that cannot even be read has no report: the one error line says why.
  if (Status s = Check(r, report); !s.ok()) return Fail(tool, s);
  const bool passed = report.unsupported.empty() && report.error.empty();
  if (Status s = WriteReport(r.report_path, r, report, passed); !s.ok()) return Fail(tool, s);

  std::printf("%s pre-check of %s (%s, %zu nodes): %s\n", tool.c_str(), r.model.c_str(), report.framework.c_str(),
              report.num_nodes, passed ? "PASS" : "FAILED");
  if (!report.unsupported.empty()) {
    std::printf("  %zu unsupported node%s:\n", report.unsupported.size(), report.unsupported.size() == 1 ? "" : "s");
    for (const auto& u : report.unsupported)
      std::printf("    %-24s %s\n", u.op.c_str(), u.name.c_str());
  }
  if (!report.error.empty()) std::printf("  conversion fails: %s\n", report.error.c_str());
  std::printf("%s: wrote %s\n", tool.c_str(), r.report_path.c_str());
  std::fflush(stdout);
  if (passed) return 0;
  return Fail(tool, report.unsupported.empty() ? Unsupported(report.error)
                                               : Unsupported(r.model + ": " + ListLine(report)));
}

}  // namespace ge::app
