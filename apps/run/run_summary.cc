#include "run/run_summary.h"

#include <cstdio>
#include <unistd.h>

#include "ge/tools/benchmark.h"
#include "ge/tools/time_stats.h"

namespace ge::run {
namespace {

constexpr double kPercent = 99;  // ais_bench's percentile
constexpr const char* kPercentKey = "percentile(99%)";

nlohmann::ordered_json StatsJson(const std::vector<double>& samples) {
  const tools::TimeStats s = tools::SummarizeTimes(samples, kPercent);
  return {{"min", s.min}, {"max", s.max}, {"mean", s.mean}, {"median", s.median}, {kPercentKey, s.percentile},
          {"count", s.count}};
}

std::string StatsLine(const char* name, const std::vector<double>& samples) {
  const tools::TimeStats s = tools::SummarizeTimes(samples, kPercent);
  char line[320];
  std::snprintf(line, sizeof line, "%s (ms): min = %.6g, max = %.6g, mean = %.6g, median = %.6g, %s = %.6g\n", name, s.min,
                s.max, s.mean, s.median, kPercentKey, s.percentile);
  return line;
}

// FLOPs of one inference over the median latency (-1: unknown).
double GflopsPerS(const Report& r, const tools::Latency& lat) {
  return r.flops < 0 || lat.p50 <= 0 ? -1 : static_cast<double>(r.flops) / (lat.p50 * 1e6);
}

double Mb(int64_t bytes) { return static_cast<double>(bytes) / (1024.0 * 1024.0); }

}  // namespace

double Throughput(const TimedRuns& runs) {
  const double mean = tools::SummarizeTimes(runs.compute_ms).mean;
  return mean > 0 ? 1000.0 * runs.batchsize / mean : 0;
}

nlohmann::ordered_json AisBenchSummaryJson(const TimedRuns& runs) {
  nlohmann::ordered_json j;
  nlohmann::ordered_json files = nlohmann::ordered_json::object();
  for (size_t i = 0; i < runs.files.size(); ++i)
    files[std::to_string(i)] = {{"infiles", runs.files[i].in}, {"outfiles", runs.files[i].out}};
  j["filesinfo"] = files;
  j["args"] = runs.args;
  j["NPU_compute_time"] = StatsJson(runs.compute_ms);
  j["H2D_latency"] = StatsJson(runs.h2d_ms);
  j["D2H_latency"] = StatsJson({});  // not measured: outputs land in host memory directly
  j["npu_compute_time_list"] = runs.compute_ms;
  j["throughput"] = Throughput(runs);
  j["pid"] = static_cast<int64_t>(::getpid());
  return j;
}

std::string AisBenchSummaryText(const TimedRuns& runs, bool display_all) {
  std::string s = "-----------------Performance Summary------------------\n";
  if (display_all) s += StatsLine("H2D_latency", runs.h2d_ms);
  s += StatsLine("NPU_compute_time", runs.compute_ms);
  if (display_all) s += StatsLine("D2H_latency", {});
  char line[200];
  std::snprintf(line, sizeof line, "throughput 1000*batchsize.mean(%d)/NPU_compute_time.mean(%.6g): %.6g\n",
                runs.batchsize, tools::SummarizeTimes(runs.compute_ms).mean, Throughput(runs));
  s += line;
  s += "------------------------------------------------------\n";
  return s;
}

std::string MsameSummaryText(const TimedRuns& runs, bool from_directories) {
  const std::vector<double>& t = runs.compute_ms;
  if (t.empty()) return "";
  double total = 0;
  for (double ms : t) total += ms;
  const char* format = from_directories ? "Inference average time : %.2f ms\n" : "Inference average time: %f ms\n";
  char line[160];
  std::snprintf(line, sizeof line, format, total / static_cast<double>(t.size()));
  std::string s = line;
  if (t.size() > 1) {
    std::snprintf(line, sizeof line,
                  from_directories ? "Inference average time without first time: %.2f ms\n"
                                   : "Inference average time without first time: %f ms\n",
                  (total - t.front()) / static_cast<double>(t.size() - 1));
    s += line;
  }
  return s;
}

bool AllPass(const Report& r) {
  for (const auto& c : r.compare)
    if (c && !c->pass) return false;
  return true;
}

nlohmann::ordered_json ReportJson(const Report& r, const TimedRuns& runs) {
  const tools::Latency lat = tools::Percentiles(runs.compute_ms);
  nlohmann::ordered_json j;
  j["model"] = r.model;
  j["mode"] = r.mode;
  j["device"] = r.device;
  j["load_ms"] = r.load_ms;
  j["device_bytes"] = r.device_bytes;
  j["peak_rss_mb"] = Mb(r.peak_rss_bytes);
  j["flops"] = r.flops < 0 ? nlohmann::ordered_json() : nlohmann::ordered_json(r.flops);
  const double gflops = GflopsPerS(r, lat);
  j["gflops_per_s"] = gflops < 0 ? nlohmann::ordered_json() : nlohmann::ordered_json(gflops);
  if (r.sink) {
    j["streams"] = r.sink->num_streams();
    j["tasks"] = r.sink->num_tasks();
    j["timeout_ms"] = r.timeout_ms;
    j["async"] = r.async;
    if (!r.run_loop.is_null()) j["run_loop"] = r.run_loop;
  }
  if (!r.profile.empty()) j["profile"] = r.profile;
  if (!r.profile_table.is_null()) j["profile_table"] = r.profile_table;
  nlohmann::ordered_json outputs = nlohmann::ordered_json::array();
  for (size_t i = 0; i < r.outputs.size(); ++i) {
    nlohmann::ordered_json o = {{"name", r.outputs[i].name}, {"desc", r.outputs[i].desc.ToString()}};
    if (i < r.compare.size() && r.compare[i]) {
      const CompareResult& c = *r.compare[i];
      o["max_abs_diff"] = c.max_abs_diff;
      o["cosine"] = c.cosine;
      o["pass"] = c.pass;
      if (!c.pass) o["reason"] = c.reason;
    }
    outputs.push_back(o);
  }
  j["outputs"] = outputs;
  if (!r.compare.empty()) j["compare"] = AllPass(r) ? "PASS" : "FAIL";
  j["inferences"] = r.inferences;
  if (!r.shapes.empty()) {
    nlohmann::ordered_json shapes = nlohmann::ordered_json::array();
    for (const Report::Shapes& s : r.shapes) shapes.push_back({{"inputs", s.inputs}, {"outputs", s.outputs}});
    j["shapes"] = shapes;
  }
  j["batchsize"] = runs.batchsize;
  j["latency_ms"] = {{"runs", runs.compute_ms.size()}, {"loop", r.loop}, {"warmup", r.warmup}, {"p50", lat.p50}, {"p90", lat.p90}, {"p99", lat.p99},
                     {"mean", lat.mean}, {"min", lat.min}, {"samples", runs.compute_ms}};
  j["throughput_per_s"] = Throughput(runs);
  return j;
}

std::string ReportText(const Report& r, const TimedRuns& runs) {
  const tools::Latency lat = tools::Percentiles(runs.compute_ms);
  std::string s;
  char line[512];
  std::snprintf(line, sizeof line, "model %s (%s mode), loaded in %.1f ms\n", r.model.c_str(), r.mode.c_str(), r.load_ms);
  s += line;
  for (size_t i = 0; i < r.outputs.size(); ++i) {
    const IoDesc& io = r.outputs[i];
    if (i < r.compare.size() && r.compare[i]) {
      const CompareResult& c = *r.compare[i];
      std::snprintf(line, sizeof line, "output %zu (%s) %s: max abs diff %.3g (max |ref| %.3g), cosine %.7f: %s%s%s\n", i,
                    io.name.c_str(), io.desc.ToString().c_str(), c.max_abs_diff, c.max_abs_ref, c.cosine,
                    c.pass ? "PASS" : "FAIL", c.pass ? "" : " - ", c.reason.c_str());
    } else {
      std::snprintf(line, sizeof line, "output %zu (%s) %s\n", i, io.name.c_str(), io.desc.ToString().c_str());
    }
    s += line;
  }
  if (runs.compute_ms.size() > 1) {
    std::snprintf(line, sizeof line,
                  "latency over %zu runs (after %d warmup): p50 %.3f ms, p90 %.3f ms, p99 %.3f ms, mean %.3f ms; "
                  "throughput %.1f/s\n",
                  runs.compute_ms.size(), r.warmup, lat.p50, lat.p90, lat.p99, lat.mean, Throughput(runs));
  } else {
    std::snprintf(line, sizeof line, "latency %.3f ms\n", lat.p50);
  }
  s += line;
  const double gflops = GflopsPerS(r, lat);
  if (r.flops >= 0)
    std::snprintf(line, sizeof line, "peak RSS %.1f MB; %.3f GFLOP per inference, %.1f GFLOP/s at p50\n",
                  Mb(r.peak_rss_bytes), static_cast<double>(r.flops) * 1e-9, gflops);
  else
    std::snprintf(line, sizeof line, "peak RSS %.1f MB\n", Mb(r.peak_rss_bytes));
  s += line;
  if (!r.run_loop_line.empty()) s += r.run_loop_line + "\n";
  s += r.profile_table_text;
  s += r.summary_block;
  if (!r.compare.empty()) s += AllPass(r) ? "PASS\n" : "FAIL\n";
  return s;
}

}  // namespace ge::run
