// ge-atc --mode 1: the .om as JSON, for people and scripts.
#include <google/protobuf/util/json_util.h>

#include <cstring>
#include <map>
#include <nlohmann/json.hpp>

#include "ge/om.h"
#include "ge/plan/link.h"
#include "ge_base/regular_file.h"
#include "om_layout.h"
#include "om.pb.h"

namespace ge {
namespace {

// The streams and their events at a glance (the full task lists are in
// model.streams): per stream its kernel/record/wait counts, per event where
// it is recorded (after which node) and waited for (before which node).
nlohmann::ordered_json ScheduleSummary(const om::ModelDef& def) {
  nlohmann::ordered_json per_stream = nlohmann::ordered_json::array();
  std::map<int32_t, nlohmann::ordered_json> events;
  for (const om::StreamTasksDef& sd : def.streams()) {
    int kernels = 0, records = 0, waits = 0;
    for (const om::TaskDef& t : sd.tasks()) {
      if (t.kind() == 0) {
        ++kernels;
        continue;
      }
      const bool record = t.kind() == 1;
      (record ? records : waits)++;
      nlohmann::ordered_json& e = events[t.event()];
      e["event"] = t.event();
      e[record ? "record_stream" : "wait_stream"] = sd.stream();
      e[record ? "after" : "before"] = t.node();
    }
    per_stream.push_back({{"stream", sd.stream()}, {"kernels", kernels}, {"records", records}, {"waits", waits}});
  }
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (auto& [id, e] : events) list.push_back(e);
  nlohmann::ordered_json out;
  out["stream_count"] = def.streams_size();
  out["event_count"] = events.size();
  out["streams"] = per_stream;
  out["events"] = list;
  return out;
}

const char* KindName(Task::Kind k) {
  switch (k) {
    case Task::Kind::kKernel: return "kernel";
    case Task::Kind::kEventRecord: return "event_record";
    case Task::Kind::kEventWait: return "event_wait";
    case Task::Kind::kLabelSet: return "label_set";
    case Task::Kind::kLabelGoto: return "label_goto";
    case Task::Kind::kLabelSwitch: return "label_switch";
  }
  return "?";
}

// A model with control flow in its static plan: the task list the loader
// links from the plans (ge/plan/link.h), with its label tasks, as the HAL
// model runs it.
Result<nlohmann::ordered_json> LinkedTasks(const Model& m) {
  GE_ASSIGN_OR_RETURN(LinkedPlan linked, LinkModel(m));
  nlohmann::ordered_json tasks = nlohmann::ordered_json::array();
  for (const StreamTasks& st : linked.streams)
    for (const Task& t : st.tasks) {
      nlohmann::ordered_json e;
      e["kind"] = KindName(t.kind);
      if (t.kind == Task::Kind::kLabelSet || t.kind == Task::Kind::kLabelGoto) e["label"] = t.label;
      if (t.kind == Task::Kind::kLabelSwitch) e["labels"] = t.labels;
      if (!t.node.empty()) e["node"] = t.node;
      if (!t.op.empty()) e["op"] = t.op;
      if (t.kind == Task::Kind::kKernel && t.op.empty())
        if (auto it = linked.nodes.find(t.node); it != linked.nodes.end()) e["op"] = it->second->type();
      tasks.push_back(std::move(e));
    }
  nlohmann::ordered_json out;
  out["labels"] = linked.num_labels;
  out["weights_size"] = linked.memory.weights_size;
  out["feature_map_size"] = linked.memory.feature_map_size;
  out["tasks"] = tasks;
  return out;
}

}  // namespace

Result<std::string> OmToJson(const std::string& path) {
  // Validate everything first: a corrupt file gets the loader's error.
  GE_ASSIGN_OR_RETURN(LoadedOm loaded, ReadOmFile(path));
  GE_ASSIGN_OR_RETURN(std::string bytes, ReadRegularFile(path));
  om::Header h;
  std::memcpy(&h, bytes.data(), sizeof(h));

  nlohmann::ordered_json j;
  j["file"] = path;
  j["header"] = {{"magic", "GEOM"},
                 {"version", std::to_string(h.version_major) + "." + std::to_string(h.version_minor)},
                 {"file_size", h.file_size},
                 {"section_count", h.section_count}};
  nlohmann::ordered_json sections = nlohmann::ordered_json::array();
  for (uint32_t i = 0; i < h.section_count; ++i) {
    om::SectionEntry s;
    std::memcpy(&s, bytes.data() + h.section_table_offset + i * om::kSectionEntrySize, sizeof(s));
    char crc[16];
    std::snprintf(crc, sizeof(crc), "%08x", s.crc);
    sections.push_back({{"type", om::SectionTypeName(s.type)}, {"offset", s.offset}, {"size", s.size}, {"crc32", crc}});
    if (s.type == om::kSectionModelDef) {
      om::ModelDef def;
      def.ParseFromArray(bytes.data() + s.offset, static_cast<int>(s.size));
      std::string model_json;
      google::protobuf::util::JsonPrintOptions opts;
      opts.add_whitespace = false;
      opts.preserve_proto_field_names = true;
      if (!google::protobuf::util::MessageToJsonString(def, &model_json, opts).ok())
        return Internal(path + ": cannot convert the model definition to JSON");
      j["model"] = nlohmann::ordered_json::parse(model_json);
      j["schedule"] = ScheduleSummary(def);
    }
  }
  j["sections"] = sections;
  // Put sections before the (large) model for readability.
  nlohmann::ordered_json out;
  out["file"] = j["file"];
  out["header"] = j["header"];
  out["sections"] = j["sections"];
  if (j.contains("schedule")) out["schedule"] = j["schedule"];
  if (HasLinkedControlFlow(loaded.model)) {
    GE_ASSIGN_OR_RETURN(out["linked_tasks"], LinkedTasks(loaded.model));
  }
  out["model"] = j["model"];
  return out.dump(2) + "\n";
}

}  // namespace ge
