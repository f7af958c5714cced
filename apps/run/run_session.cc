#include "run/run_session.h"

#include <algorithm>
#include <chrono>
#include <ctime>

#include "common/app_common.h"
#include "ge/ops/flop_count.h"
#include "ge/tools/compare.h"
#include "ge/tools/op_dump_files.h"
#include "ge/tools/peak_rss.h"
#include "ge_base/file_io.h"
#include "ge_parsers/onnx_tensor_file.h"
#include "run/run_loop.h"
#include "run/run_tensor_files.h"

namespace ge::run {
namespace {

// --outputSize (msame, ais_bench): byte sizes of the outputs. ge knows them
// from the model, so the list must agree with it.
Status CheckOutputSizes(const std::string& flag, const std::vector<IoDesc>& outputs) {
  if (flag.empty()) return Status::Ok();
  const std::vector<std::string> sizes = app::SplitList(flag, ',');
  if (sizes.size() != outputs.size())
    return InvalidArgument("--outputSize " + flag + ": the model has " + std::to_string(outputs.size()) + " outputs, " +
                           std::to_string(sizes.size()) + " sizes given");
  for (size_t k = 0; k < sizes.size(); ++k) {
    const std::string& s = sizes[k];
    const int64_t want = outputs[k].desc.Bytes();
    if (want < 0)
      return InvalidArgument("--outputSize " + flag + ": output " + std::to_string(k) + " (" + outputs[k].name +
                             ") is " + outputs[k].desc.ToString() + ": its size is known per inference only");
    if (s.empty() || s.size() > 18 || s.find_first_not_of("0123456789") != std::string::npos)
      return InvalidArgument("--outputSize " + flag + ": '" + s + "' is not a byte count");
    if (std::stoll(s) != want)
      return InvalidArgument("--outputSize " + flag + ": output " + std::to_string(k) + " (" + outputs[k].name + ") " +
                             outputs[k].desc.ToString() + " is " + std::to_string(want) + " bytes, not " + s);
  }
  return Status::Ok();
}

std::string JoinedFileNames(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : ",") + x;
  return s;
}

bool IsTypedTensorFile(const std::string& f) {
  return (f.size() >= 4 && f.substr(f.size() - 4) == ".npy") || IsOnnxTensorFile(f);
}

}  // namespace

RunSession::RunSession(const RunFlags& flags, const RunSettings& settings, std::vector<std::string> args)
    : f_(flags), s_(settings), debug_out_(flags.json ? stderr : stdout) {
  runs_.batchsize = f_.batchsize;
  runs_.args = std::move(args);
}

RunSession::~RunSession() = default;

Status RunSession::Load() {
  GE_ASSIGN_OR_RETURN(
      rm_, RunModel::Load({f_.model, f_.device, s_.sink, f_.timeout_ms, !f_.profile.empty() || f_.profile_table,
                           f_.run_loop, s_.memory_limit, f_.executor == "topological", f_.executor_threads,
                           f_.max_loop_iterations}));
  m_ = &rm_->model();
  table_.emplace(*rm_->om().graph);
  run_outputs_ = m_->outputs();
  return CheckModelFlags();
}

// The flags that depend on the model: output sizes, a dynamic model's dims
// and gears, what a dynamic or gear model cannot do.
Status RunSession::CheckModelFlags() {
  GE_RETURN_IF_ERROR(CheckOutputSizes(f_.output_size, m_->outputs()));
  // A dynamic model takes each inference's input dims from its files (or
  // --dymShape) and gives its outputs with the dims that inference produced.
  dynamic_ = m_->dynamic();
  GE_ASSIGN_OR_RETURN(dym_, ParseDymShape(f_.dym_shape, m_->inputs()));
  if (!dym_.empty() && !dynamic_)
    return InvalidArgument("--dymShape " + f_.dym_shape + ": the model " + f_.model + " has static shapes");
  if ((f_.dym_batch > 0 || !f_.dym_hw.empty() || !f_.dym_dims.empty()) && !dynamic_)
    return InvalidArgument(std::string(f_.dym_batch > 0     ? "--dymBatch"
                                       : !f_.dym_hw.empty() ? "--dymHW"
                                                            : "--dymDims") +
                           ": the model " + f_.model + " has static shapes and no gears");
  GE_RETURN_IF_ERROR(ApplyGearFlags(f_.dym_batch, f_.dym_hw, f_.dym_dims, m_->inputs(), dym_));
  if (f_.async && !rm_->sink())
    return InvalidArgument("--async runs one sink model; " + f_.model + " has gears, each a sink model of its own");
  if (dynamic_ && !f_.dump_dir.empty())
    return Unsupported("--dump: not available for a dynamic model yet (" + f_.model + ")");
  return Status::Ok();
}

// Inputs: the input sets (one inference each) or generated data; the output
// buffers, the goldens and where the outputs go.
Status RunSession::PrepareIo() {
  GE_ASSIGN_OR_RETURN(plan_, PlanInputs(f_.input, m_->inputs()));
  plan_.seed = f_.seed;
  // Without --input msame and ais_bench run on zeros, ge-run on random data.
  plan_.random =
      f_.input == "random" || (f_.pure_data_type.empty() ? !(s_.ais_bench || s_.msame) : f_.pure_data_type == "random");
  inferences_ = plan_.inferences();
  if (inferences_ > 1)
    for (auto [flag, used] :
         {std::pair<const char*, bool>{"--compare", !f_.compare.empty()}, {"--run_loop", f_.run_loop > 0}})
      if (used)
        return InvalidArgument(std::string(flag) + " needs one input set; --input gives " +
                               std::to_string(inferences_) + " (one per file in the directories)");
  GE_ASSIGN_OR_RETURN(in_, InputBuffers::Allocate(m_->inputs()));
  GE_RETURN_IF_ERROR(AllocateOutputs());
  GE_RETURN_IF_ERROR(ReadGoldens());
  // Output names follow the input files unless the run is one set of .npy
  // or .pb files (typed tensors, so NAME.npy per output is unambiguous).
  bool by_input_name = plan_.from_directories || inferences_ > 1;
  for (const auto& set : plan_.sets)
    for (const auto& f : set)
      if (!IsTypedTensorFile(f)) by_input_name = true;
  GE_ASSIGN_OR_RETURN(layout_, PrepareOutputs(f_.out, by_input_name, std::time(nullptr)));
  return Status::Ok();
}

Status RunSession::AllocateOutputs() {
  for (const auto& io : m_->outputs()) {
    GE_RETURN_IF_ERROR(
        AppendBuffer(out_data_, static_cast<size_t>(std::max<int64_t>(io.desc.Bytes(), 1)), "output " + io.name));
    out_ptrs_.push_back(out_data_.back().data);
    out_bufs_.push_back({out_data_.back().data, out_data_.back().size});
  }
  return Status::Ok();
}

Status RunSession::ReadGoldens() {
  const std::vector<std::string> golden_files = app::SplitList(f_.compare, ',');
  if (!golden_files.empty() && golden_files.size() != m_->outputs().size())
    return InvalidArgument("--compare: the model has " + std::to_string(m_->outputs().size()) + " outputs, " +
                           std::to_string(golden_files.size()) + " files given");
  for (const auto& f : golden_files) {
    auto g = ReadGoldenFile(f);
    if (!g.ok()) return g.status().Annotated("--compare");
    goldens_.push_back(std::move(g).value());
  }
  return Status::Ok();
}

// The sink path passes sized buffers (zero-copy when aligned, which ours are).
Status RunSession::ExecuteOnce() {
  if (dynamic_) return m_->ExecuteShaped(shaped_in_.views(), shaped_out_);
  if (!rm_->sink()) return m_->Execute(in_->ptrs(), out_ptrs_);
  if (f_.async) return rm_->sink()->ExecuteAsync(in_->bufs(), out_bufs_).get();
  return rm_->sink()->Execute(in_->bufs(), out_bufs_, std::chrono::milliseconds(0));
}

Status RunSession::RunAll() {
  for (size_t k = 0; k < inferences_; ++k) GE_RETURN_IF_ERROR(RunInputSet(k));
  return Status::Ok();
}

// A separate debug load that copies each op's outputs as it runs.
Status RunSession::DumpOps() {
  OpDumpOptions o{s_.sink ? RunMode::kSink : RunMode::kV2, rm_->device(), s_.memory_limit, f_.perturb_op};
  auto dumped = RunWithOpDump(rm_->om(), o, in_->ptrs());
  if (!dumped.ok()) return dumped.status().Annotated("--dump");
  if (auto s = tools::WriteOpDump(f_.dump_dir, rm_->om().name, *dumped); !s.ok()) return s.Annotated("--dump");
  std::fprintf(debug_out_, "dump: %zu op outputs in %s/dump.json\n", dumped->size(), f_.dump_dir.c_str());
  return Status::Ok();
}

// Input set k: stage the inputs, dump (first set), warm up (first set), run
// the timed inferences and the run loop, write the outputs.
Status RunSession::RunInputSet(size_t k) {
  GE_ASSIGN_OR_RETURN(const double h2d,
                      dynamic_ ? shaped_in_.Fill(plan_, k, m_->inputs(), dym_) : in_->Fill(plan_, k, m_->inputs()));
  runs_.h2d_ms.push_back(h2d);
  if (k == 0 && !f_.dump_dir.empty()) GE_RETURN_IF_ERROR(DumpOps());
  for (int i = 0; k == 0 && i < f_.warmup; ++i) GE_RETURN_IF_ERROR(ExecuteOnce());
  const size_t first = runs_.compute_ms.size();
  for (int i = 0; i < f_.loop; ++i) {
    auto t0 = std::chrono::steady_clock::now();
    GE_RETURN_IF_ERROR(ExecuteOnce());
    runs_.compute_ms.push_back(
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    if (!f_.profile.empty() && profiles_.size() < 20) profiles_.push_back(m_->Profile());
    if (f_.profile_table) table_->Add(m_->Profile());
  }
  if (f_.run_loop > 0) {
    GE_ASSIGN_OR_RETURN(RunLoopResult rl, RunLoop(*rm_->sink(), in_->bufs(), f_.run_loop, out_data_));
    report_.run_loop = rl.json;
    report_.run_loop_line = rl.line;
  }
  const std::vector<std::string> in_files = plan_.sets.empty() ? std::vector<std::string>{} : plan_.sets[k];
  // msame names outputs after the model unless the inputs come from folders.
  const bool named_by_file = !in_files.empty() && (!s_.msame || plan_.from_directories);
  if (dynamic_) TakeShapedOutputs();
  GE_ASSIGN_OR_RETURN(std::vector<std::string> written,
                      WriteOutputs(layout_, named_by_file ? in_files.front() : "", run_outputs_, out_ptrs_));
  runs_.files.push_back({in_files, written});
  if (s_.debug) PrintDebug(k, first, h2d, in_files, written);
  return Status::Ok();
}

// A dynamic model's outputs of this inference: its tensors with their dims.
void RunSession::TakeShapedOutputs() {
  run_outputs_.clear();
  out_ptrs_.clear();
  Report::Shapes shapes;
  for (const TensorView& v : shaped_in_.views()) shapes.inputs.push_back(TensorDesc(v.dtype, v.dims).ToString());
  for (size_t o = 0; o < shaped_out_.size(); ++o) {
    run_outputs_.push_back({m_->outputs()[o].name, shaped_out_[o].desc()});
    out_ptrs_.push_back(const_cast<uint8_t*>(shaped_out_[o].data()));
    shapes.outputs.push_back(shaped_out_[o].desc().ToString());
  }
  report_.shapes.push_back(std::move(shapes));
}

// --debug (msame, ais_bench): the inference's files, time and output shapes.
void RunSession::PrintDebug(size_t k, size_t first, double h2d, const std::vector<std::string>& in_files,
                            const std::vector<std::string>& written) const {
  double ms = 0;
  for (size_t i = first; i < runs_.compute_ms.size(); ++i) ms += runs_.compute_ms[i];
  std::fprintf(debug_out_, "[debug] inference %zu: inputs %s; %.3f ms per run (%d runs), staging %.3f ms\n", k,
               in_files.empty() ? (plan_.random ? "random" : "zeros") : JoinedFileNames(in_files).c_str(), ms / f_.loop,
               f_.loop, h2d);
  for (size_t o = 0; o < run_outputs_.size(); ++o)
    std::fprintf(debug_out_, "[debug]   output %zu (%s) %s%s%s\n", o, run_outputs_[o].name.c_str(),
                 run_outputs_[o].desc.ToString().c_str(), o < written.size() ? " -> " : "",
                 o < written.size() ? written[o].c_str() : "");
}

// --profile's trace and ais_bench's NAME_summary.json.
Status RunSession::WriteFiles() {
  if (!f_.profile.empty()) {
    if (auto s = WriteFileAtomically(f_.profile, ChromeTraceJson(profiles_, rm_->om().name)); !s.ok())
      return s.Annotated("--profile");
  }
  if (!layout_.summary_path.empty()) {
    if (auto s = WriteFileAtomically(layout_.summary_path, AisBenchSummaryJson(runs_).dump(2) + "\n"); !s.ok())
      return s.Annotated("summary");
  }
  return Status::Ok();
}

void RunSession::FillReport() {
  report_.model = f_.model;
  report_.mode = f_.mode;
  report_.device = rm_->device();
  report_.load_ms = rm_->load_ms();
  report_.device_bytes = m_->device_bytes();
  report_.peak_rss_bytes = tools::PeakRssBytes();
  if (!dynamic_) {
    const std::vector<NodeFlops> flops = CountGraphFlops(*rm_->om().graph);
    const bool known = std::all_of(flops.begin(), flops.end(), [](const NodeFlops& f) { return f.flops.has_value(); });
    report_.flops = known ? TotalFlops(flops) : -1;
  }
  report_.sink = rm_->sink();
  report_.timeout_ms = f_.timeout_ms;
  report_.async = f_.async;
  report_.profile = f_.profile;
  if (f_.profile_table) {
    report_.profile_table = table_->Json();
    report_.profile_table_text = table_->Text(15);
  }
  report_.warmup = f_.warmup;
  report_.loop = f_.loop;
  report_.inferences = inferences_;
  report_.outputs = run_outputs_;
  for (size_t i = 0; i < goldens_.size(); ++i)
    report_.compare.push_back(
        CompareTensors(run_outputs_[i].desc, out_ptrs_[i], goldens_[i],
                       f_.min_cosine_given ? std::optional<double>(f_.min_cosine) : std::nullopt));
  if (s_.msame)
    report_.summary_block = MsameSummaryText(runs_, plan_.from_directories);
  else if (s_.ais_bench || inferences_ > 1 || s_.display_all)
    report_.summary_block = AisBenchSummaryText(runs_, s_.display_all);
}

int RunSession::PrintReport() {
  FillReport();
  if (f_.json) {
    auto j = ReportJson(report_, runs_);
    if (s_.ais_bench || inferences_ > 1) j["summary"] = AisBenchSummaryJson(runs_);
    std::printf("%s\n", j.dump(2).c_str());
  } else {
    std::fputs(ReportText(report_, runs_).c_str(), stdout);
  }
  return AllPass(report_) ? 0 : 1;
}

}  // namespace ge::run
