// ge-atc --stream_num on a branching model (squeezenet1_1's fire modules):
// two streams with events, the same output bytes as one stream in ge-run v2 and sink, the
// streams and events in the .om JSON; bad flag values are one error line.
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>

#include "tests/common/json_int.h"
#include "tests/common/tool_runner.h"
#include "tests/e2e/reference_model_fixture.h"

namespace ge::test {
namespace {

// squeezenet1_1: its fire modules give the streams independent branches.
class StreamsTest : public ReferenceModelFixture {
 protected:
  StreamsTest() : ReferenceModelFixture("squeezenet1_1") {}
  nlohmann::json OmJson(const std::string& om, const std::string& json) {
    ToolResult js = Run("ge-atc", {"--mode", "1", "--om", om, "--json", json});
    EXPECT_EQ(js.exit_code, 0) << js.Describe();
    std::ifstream f(json);
    return nlohmann::json::parse(f, nullptr, false);
  }
};

TEST_F(StreamsTest, SqueezenetOnTwoStreamsMatchesOneStream) {
  std::vector<std::string> outputs;  // output.npy bytes: (1 stream, 2 streams) x (v2, sink)

  int64_t peak[3] = {0, 0, 0}, bound[3] = {0, 0, 0};
  for (int n : {1, 2}) {
    const std::string out = Path("sq" + std::to_string(n));
    ToolResult atc =
        Run("ge-atc", {"--model", model_, "--framework", "5", "--output", out, "--stream_num", std::to_string(n)});
    ASSERT_EQ(atc.exit_code, 0) << atc.Describe();
    const nlohmann::json j = OmJson(out + ".om", out + ".json");
    ASSERT_FALSE(j.is_discarded());
    const nlohmann::json& sched = j["schedule"];
    const nlohmann::json& streams = j["model"]["streams"];
    peak[n] = JsonInt(j["model"]["memory"], "feature_map_size");
    bound[n] = JsonInt(j["model"]["memory"], "lower_bound");
    if (n == 1) {
      EXPECT_EQ(sched["stream_count"], 1);
      EXPECT_EQ(sched["event_count"], 0);
    } else {
      EXPECT_NE(atc.out.find("streams: 2 streams, "), std::string::npos) << atc.Describe();
      EXPECT_GE(sched["stream_count"].get<int>(), 2);
      EXPECT_GE(sched["event_count"].get<int>(), 2);
      ASSERT_EQ(streams.size(), sched["stream_count"].get<size_t>());
      // Every event: recorded on one stream after a node, waited for on
      // another before a node; the task lists hold the event tasks.
      for (const auto& e : sched["events"]) {
        EXPECT_TRUE(e.contains("record_stream") && e.contains("wait_stream")) << e.dump();
        EXPECT_NE(e["record_stream"], e["wait_stream"]) << e.dump();
      }
      int records = 0, waits = 0;
      for (const auto& st : streams)
        for (const auto& t : st["tasks"]) {
          const int kind = t.value("kind", 0);
          records += kind == 1;
          waits += kind == 2;
        }
      EXPECT_EQ(records, sched["event_count"].get<int>());
      EXPECT_EQ(waits, sched["event_count"].get<int>());
      bool recorded = false;
      for (const auto& [k, v] : j["model"]["options"].items()) recorded |= v.dump().find("stream_num") != std::string::npos;
      EXPECT_TRUE(recorded) << j["model"]["options"].dump();
    }
    for (const std::string mode : {"v2", "sink"}) {
      const std::string dir = out + "_" + mode;
      ToolResult run = Run(
          "ge-run", {"--model", out + ".om", "--mode", mode, "--input", input_, "--compare", golden_, "--output", dir});
      EXPECT_EQ(run.exit_code, 0) << run.Describe();
      const auto lines = SplitLines(run.out);
      ASSERT_FALSE(lines.empty()) << run.Describe();
      EXPECT_EQ(lines.back(), "PASS") << run.Describe();
      std::ifstream f(dir + "/output.npy", std::ios::binary);
      outputs.push_back(std::string(std::istreambuf_iterator<char>(f), {}));
      EXPECT_FALSE(outputs.back().empty()) << dir;
    }
  }
  // v2 and sink, one stream and two (the sink runs them in parallel): the same bytes.
  ASSERT_EQ(outputs.size(), 4u);
  for (size_t i = 1; i < outputs.size(); ++i) EXPECT_EQ(outputs[i], outputs[0]) << "run " << i;
  EXPECT_GE(peak[2], bound[2]);
  EXPECT_GE(bound[2], bound[1]);  // more conflicts, never fewer
  std::printf("squeezenet1_1: 1 stream peak %lld bound %lld; 2 streams peak %lld bound %lld\n", static_cast<long long>(peak[1]),
              static_cast<long long>(bound[1]), static_cast<long long>(peak[2]), static_cast<long long>(bound[2]));
}

TEST_F(StreamsTest, BadStreamNumIsOneErrorLine) {
  for (const char* bad : {"0", "-2", "9", "two", "1.5", ""}) {
    const std::string out = Path("bad");
    ToolResult r = Run("ge-atc", {"--model", model_, "--framework", "5", "--output", out, "--stream_num", bad});
    EXPECT_NE(r.exit_code, 0) << bad;
    ExpectOneErrorLine(r, "ge-atc", {"--stream_num"});
    EXPECT_FALSE(fs::exists(out + ".om")) << bad;
  }
}

TEST_F(StreamsTest, HelpMentionsStreamNum) {
  ToolResult r = Run("ge-atc", {"--help"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.out.find("--stream_num"), std::string::npos);
}

}  // namespace
}  // namespace ge::test
