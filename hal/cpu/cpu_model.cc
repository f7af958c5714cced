// The CPU HAL model: streams are worker threads walking flat task arrays.
//
// Hand-off costs dominate small models (1000 Adds of 16 floats take ~15 us of
// compute), so the run path has no locks, no std::function and no
// allocation:
//  - a single-stream run without a timeout executes on the calling thread;
//  - otherwise Launch bumps a futex word the workers spin on (briefly, then
//    sleep), and the last stream to finish bumps another the host waits on;
//  - an event is a 64-bit "run generation at which it was recorded": no reset
//    between runs, and an aborted run leaves nothing stale behind;
//  - abort is a relaxed flag read between tasks; it also wakes event waits.
#include <linux/futex.h>
#include <omp.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <climits>
#include <ctime>
#include <string>
#include <thread>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

#include "cpu_backend.h"

namespace ge::hal {
namespace {

// How long a thread polls before it sleeps in the kernel: long enough that
// back-to-back runs never pay a futex wake-up (~5-50 us), short enough that
// an idle model does not burn a shared core.
constexpr int64_t kWorkerSpinNs = 200'000;  // a worker waiting for the next Launch
constexpr int64_t kHostSpinNs = 100'000;    // the host waiting for the end of a run
constexpr int64_t kEventSpinNs = 50'000;    // a stream waiting for another's event
constexpr int64_t kNever = INT64_MAX;

inline int64_t NowNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

inline void CpuRelax() {
#if defined(__x86_64__) || defined(__i386__)
  _mm_pause();
#endif
}

// A counter threads wait on for a change: poll, then sleep on a futex.
class Doorbell {
 public:
  uint32_t value() const { return seq_.load(std::memory_order_acquire); }

  void Ring() {
    seq_.fetch_add(1, std::memory_order_seq_cst);
    if (sleepers_.load(std::memory_order_seq_cst) != 0)
      syscall(SYS_futex, &seq_, FUTEX_WAKE_PRIVATE, INT_MAX, nullptr, nullptr, 0);
  }

  // Waits until value() != seen (true) or the steady-clock deadline passes (false).
  bool WaitChange(uint32_t seen, int64_t spin_ns, int64_t deadline_ns) {
    const int64_t spin_until = std::min(NowNs() + spin_ns, deadline_ns);
    // Pure pause-spinning first; then yield, so that on an oversubscribed
    // machine the thread we wait for gets the core instead of us burning it.
    // The clock is read on every yield: one yield can give the core away for
    // a whole time slice of the threads we wait for, and 64 of them once
    // overran a 1 ms timeout by 50 ms.
    for (unsigned i = 0;; ++i) {
      if (seq_.load(std::memory_order_acquire) != seen) return true;
      if (i < 64) {
        CpuRelax();
        continue;
      }
      if (NowNs() >= spin_until) break;
      std::this_thread::yield();
    }
    for (;;) {
      timespec ts{};
      timespec* rel = nullptr;
      if (deadline_ns != kNever) {
        const int64_t left = deadline_ns - NowNs();
        if (left <= 0) return seq_.load(std::memory_order_acquire) != seen;
        ts.tv_sec = static_cast<time_t>(left / 1'000'000'000);
        ts.tv_nsec = static_cast<long>(left % 1'000'000'000);
        rel = &ts;
      }
      sleepers_.fetch_add(1, std::memory_order_seq_cst);
      if (seq_.load(std::memory_order_seq_cst) == seen)
        syscall(SYS_futex, &seq_, FUTEX_WAIT_PRIVATE, seen, rel, nullptr, 0);
      sleepers_.fetch_sub(1, std::memory_order_seq_cst);
      if (seq_.load(std::memory_order_acquire) != seen) return true;
    }
  }

 private:
  std::atomic<uint32_t> seq_{0};
  std::atomic<uint32_t> sleepers_{0};
};

bool IsLabelTask(ModelTask::Kind k) {
  return k == ModelTask::Kind::kLabelSet || k == ModelTask::Kind::kLabelGoto || k == ModelTask::Kind::kLabelSwitch;
}

// Labels: ids in range, each set once, jumps to labels of their own stream,
// and no events on a stream that jumps. Fills `label_pos` (label -> task index).
Status CheckLabels(const ModelDesc& d, std::vector<int64_t>& label_pos) {
  const int32_t nl = d.num_labels;
  if (nl < 0) return InvalidArgument("model: negative label count");
  label_pos.assign(static_cast<size_t>(nl), -1);
  std::vector<int64_t> label_stream(static_cast<size_t>(nl), -1);
  for (size_t s = 0; s < d.streams.size(); ++s)
    for (size_t i = 0; i < d.streams[s].size(); ++i) {
      const ModelTask& t = d.streams[s][i];
      if (t.kind != ModelTask::Kind::kLabelSet) continue;
      const std::string where = "model: stream " + std::to_string(s) + " task " + std::to_string(i);
      if (t.label < 0 || t.label >= nl)
        return InvalidArgument(where + ": label " + std::to_string(t.label) + " out of range (model has " +
                               std::to_string(nl) + " labels)");
      if (label_pos[t.label] >= 0) return InvalidArgument(where + ": label " + std::to_string(t.label) + " is set twice");
      label_pos[t.label] = static_cast<int64_t>(i);
      label_stream[t.label] = static_cast<int64_t>(s);
    }
  for (size_t s = 0; s < d.streams.size(); ++s) {
    bool jumps = false, events = false;
    for (size_t i = 0; i < d.streams[s].size(); ++i) {
      const ModelTask& t = d.streams[s][i];
      const std::string where = "model: stream " + std::to_string(s) + " task " + std::to_string(i);
      events |= t.kind == ModelTask::Kind::kEventRecord || t.kind == ModelTask::Kind::kEventWait;
      if (t.kind != ModelTask::Kind::kLabelGoto && t.kind != ModelTask::Kind::kLabelSwitch) continue;
      jumps = true;
      std::vector<int32_t> targets;
      if (t.kind == ModelTask::Kind::kLabelGoto) {
        targets.push_back(t.label);
      } else {
        if (!t.inputs || !t.labels || t.num_labels < 1)
          return InvalidArgument(where + ": label switch without an index or without labels");
        targets.assign(t.labels, t.labels + t.num_labels);
      }
      for (int32_t l : targets) {
        if (l < 0 || l >= nl || label_pos[l] < 0)
          return InvalidArgument(where + ": jumps to label " + std::to_string(l) + ", which no task sets");
        if (label_stream[l] != static_cast<int64_t>(s))
          return InvalidArgument(where + ": jumps to label " + std::to_string(l) + ", set on stream " +
                                 std::to_string(label_stream[l]));
      }
    }
    if (jumps && events)
      return InvalidArgument("model: stream " + std::to_string(s) +
                             " has both jumps and events (a jump could skip or repeat an event record)");
  }
  return Status::Ok();
}

Status CheckDesc(const ModelDesc& d, std::vector<int64_t>& label_pos) {
  GE_RETURN_IF_ERROR(CheckLabels(d, label_pos));
  const int32_t ne = d.num_events;
  if (ne < 0) return InvalidArgument("model: negative event count");
  std::vector<int> records(static_cast<size_t>(ne), 0);
  for (size_t s = 0; s < d.streams.size(); ++s) {
    for (size_t i = 0; i < d.streams[s].size(); ++i) {
      const ModelTask& t = d.streams[s][i];
      const std::string where = "model: stream " + std::to_string(s) + " task " + std::to_string(i);
      if (t.kind == ModelTask::Kind::kKernel) {
        if (!t.kernel) return InvalidArgument(where + ": kernel task without a kernel");
        continue;
      }
      if (IsLabelTask(t.kind)) continue;
      if (t.event < 0 || t.event >= ne)
        return InvalidArgument(where + ": event " + std::to_string(t.event) + " out of range (model has " +
                               std::to_string(ne) + " events)");
      if (t.kind == ModelTask::Kind::kEventRecord && ++records[t.event] > 1)
        return InvalidArgument(where + ": event " + std::to_string(t.event) + " is recorded twice in one run");
    }
  }
  // Deadlock check: advance every stream as far as it can go; whatever is
  // left blocked waits on a record that can never happen (a wait cycle, or a
  // wait whose record comes later on its own stream, or no record at all).
  std::vector<size_t> pos(d.streams.size(), 0);
  std::vector<bool> recorded(static_cast<size_t>(ne), false);
  for (bool moved = true; moved;) {
    moved = false;
    for (size_t s = 0; s < d.streams.size(); ++s) {
      const auto& tasks = d.streams[s];
      while (pos[s] < tasks.size()) {
        const ModelTask& t = tasks[pos[s]];
        if (t.kind == ModelTask::Kind::kEventWait && !recorded[t.event]) break;
        if (t.kind == ModelTask::Kind::kEventRecord) recorded[t.event] = true;
        ++pos[s];
        moved = true;
      }
    }
  }
  for (size_t s = 0; s < d.streams.size(); ++s)
    if (pos[s] < d.streams[s].size())
      return InvalidArgument("model: stream " + std::to_string(s) + " task " + std::to_string(pos[s]) +
                             " waits for event " + std::to_string(d.streams[s][pos[s]].event) +
                             (records[d.streams[s][pos[s]].event] ? ", whose record is behind a wait cycle"
                                                                  : ", which no stream records"));
  return Status::Ok();
}

class CpuModel final : public Model {
 public:
  CpuModel(ModelDesc desc, std::vector<int64_t> label_pos)
      : desc_(std::move(desc)),
        label_pos_(std::move(label_pos)),
        events_(new std::atomic<uint64_t>[static_cast<size_t>(std::max(desc_.num_events, 1))]),
        errors_(desc_.streams.size()),
        aborted_(desc_.streams.size()) {
    for (int32_t e = 0; e < std::max(desc_.num_events, 1); ++e) events_[e].store(0, std::memory_order_relaxed);
    // Kernels of parallel streams share the cores: give each stream's oneDNN /
    // OpenMP team its share instead of a full team each.
    const int threads = CpuThreadsPerStream(desc_.streams.size());
    stream_threads_ = threads;
    workers_.reserve(desc_.streams.size());
    for (size_t s = 0; s < desc_.streams.size(); ++s) workers_.emplace_back([this, s, threads] { WorkerLoop(s, threads); });
  }

  ~CpuModel() override {
    if (in_flight_) {
      Abort();
      (void)Wait(kNoTimeout);
    }
    stopping_.store(true, std::memory_order_release);
    start_.Ring();
    for (auto& w : workers_) w.join();
  }

  Status Execute(Timeout timeout) override {
    if (in_flight_) return Internal("model: Execute while a launched run is in flight");
    if (desc_.streams.size() == 1 && timeout == kNoTimeout) {
      BeginRun();
      RunStream(0);
      return Collect();
    }
    if (timeout == kNoTimeout && desc_.streams.size() > 1) return ExecuteWithHostStream();
    GE_RETURN_IF_ERROR(Launch());
    return Wait(timeout);
  }

  Status Launch() override {
    if (in_flight_) return Internal("model: Launch while a run is in flight");
    BeginRun();
    host_stream0_.store(false, std::memory_order_relaxed);  // published by start_.Ring()
    in_flight_ = true;
    done_seen_ = done_.value();
    running_.store(static_cast<int>(desc_.streams.size()), std::memory_order_release);
    if (!desc_.streams.empty()) start_.Ring();
    return Status::Ok();
  }

  Status Wait(Timeout timeout) override {
    if (!in_flight_) return Internal("model: Wait without Launch");
    bool timed_out = false;
    if (!desc_.streams.empty()) {
      int64_t deadline = kNever;
      if (timeout != kNoTimeout) {
        const int64_t now = NowNs();
        deadline = timeout.count() >= kNever - now ? kNever : now + timeout.count();
      }
      if (!done_.WaitChange(done_seen_, kHostSpinNs, deadline)) {
        timed_out = true;
        Abort();
        // The tasks in flight finish; nothing runs after this returns.
        done_.WaitChange(done_seen_, kHostSpinNs, kNever);
      }
    }
    in_flight_ = false;
    Status s = Collect();
    if (timed_out) {
      const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(timeout).count();
      return Status(StatusCode::kTimeout, "model did not finish within " + std::to_string(ms) + " ms; run aborted");
    }
    return s;
  }

  void Abort() override {
    abort_.store(true, std::memory_order_release);
    progress_.Ring();  // wakes streams held in event waits
  }

  void EnableTiming(bool on) override {
    timing_ = on;
    if (!on) return;
    times_.resize(desc_.streams.size());
    for (size_t s = 0; s < desc_.streams.size(); ++s) times_[s].assign(desc_.streams[s].size(), TaskTime{});
  }
  const std::vector<std::vector<TaskTime>>& timings() const override { return times_; }
  size_t num_streams() const override { return desc_.streams.size(); }

 private:
  void BeginRun() {
    ++run_;
    abort_.store(false, std::memory_order_relaxed);
    for (size_t s = 0; s < errors_.size(); ++s) {
      if (!errors_[s].ok()) errors_[s] = Status::Ok();
      aborted_[s] = false;
    }
    if (timing_)
      for (auto& t : times_) std::fill(t.begin(), t.end(), TaskTime{});
  }

  // Several streams, no timeout: the caller's thread runs stream 0 itself and
  // the workers the others, so no thread sits spinning for the result while
  // the streams want every core.
  Status ExecuteWithHostStream() {
    BeginRun();
    in_flight_ = true;
    done_seen_ = done_.value();
    host_stream0_.store(true, std::memory_order_relaxed);  // published by start_.Ring()
    running_.store(static_cast<int>(desc_.streams.size()) - 1, std::memory_order_release);
    start_.Ring();
    const int saved = omp_get_max_threads();
    if (stream_threads_ > 0) omp_set_num_threads(stream_threads_);
    RunStream(0);
    if (stream_threads_ > 0) omp_set_num_threads(saved);
    if (running_.load(std::memory_order_acquire) != 0) done_.WaitChange(done_seen_, kHostSpinNs, kNever);
    in_flight_ = false;
    return Collect();
  }

  // The first kernel error (by stream), else kAborted when any stream stopped early.
  Status Collect() {
    for (const Status& e : errors_)
      if (!e.ok()) return e;
    for (size_t s = 0; s < aborted_.size(); ++s)
      if (aborted_[s]) return Status(StatusCode::kAborted, "model run aborted (stream " + std::to_string(s) + ")");
    return Status::Ok();
  }

  void RunStream(size_t s) {
    if (timing_) RunTasks<true>(s);
    else RunTasks<false>(s);
  }

  // The per-task loop: a flat array, pre-resolved pointers, one virtual call
  // per kernel, a relaxed load for abort (also what stops a loop that never
  // ends: a timeout aborts it at the next task).
  template <bool kTimed>
  void RunTasks(size_t s) {
    const ModelTask* tasks = desc_.streams[s].data();
    const size_t n = desc_.streams[s].size();
    const uint64_t gen = run_;
    const int64_t* label_pos = label_pos_.data();
    TaskTime* times = kTimed ? times_[s].data() : nullptr;
    for (size_t i = 0, next = 1; i < n; i = next, next = i + 1) {
      if (abort_.load(std::memory_order_relaxed)) {
        aborted_[s] = true;
        return;
      }
      const ModelTask& t = tasks[i];
      int64_t begin = 0;
      if constexpr (kTimed) begin = NowNs();
      switch (t.kind) {
        case ModelTask::Kind::kKernel: {
          Status st = t.kernel->Run(t.inputs, t.outputs);
          if (!st.ok()) [[unlikely]] {
            errors_[s] = st.Annotated("stream " + std::to_string(s) + " task " + std::to_string(i));
            Abort();
            return;
          }
          break;
        }
        case ModelTask::Kind::kEventRecord:
          events_[t.event].store(gen, std::memory_order_release);
          progress_.Ring();
          break;
        case ModelTask::Kind::kEventWait:
          if (!WaitEvent(t.event, gen)) {
            aborted_[s] = true;
            return;
          }
          break;
        case ModelTask::Kind::kLabelSet:
          break;
        case ModelTask::Kind::kLabelGoto:
          next = static_cast<size_t>(label_pos[t.label]);
          break;
        case ModelTask::Kind::kLabelSwitch: {
          const int32_t index = *static_cast<const int32_t*>(t.inputs[0]);
          const int32_t l = t.labels[index >= 0 && index < t.num_labels ? index : t.num_labels - 1];
          next = static_cast<size_t>(label_pos[l]);
          break;
        }
      }
      if constexpr (kTimed) times[i] = TaskTime{begin, NowNs()};
    }
  }

  // False when the run was aborted while waiting.
  bool WaitEvent(int32_t e, uint64_t gen) {
    for (;;) {
      const uint32_t seen = progress_.value();
      if (events_[e].load(std::memory_order_acquire) >= gen) return true;
      if (abort_.load(std::memory_order_acquire)) return false;
      progress_.WaitChange(seen, kEventSpinNs, kNever);
    }
  }

  void WorkerLoop(size_t s, int omp_threads) {
    if (omp_threads > 0) omp_set_num_threads(omp_threads);
    uint32_t seen = 0;  // start_ begins at 0; a Launch before this thread waits is still seen
    for (;;) {
      start_.WaitChange(seen, kWorkerSpinNs, kNever);
      seen = start_.value();
      if (stopping_.load(std::memory_order_acquire)) return;
      if (s == 0 && host_stream0_.load(std::memory_order_relaxed)) continue;  // the caller runs it
      RunStream(s);
      if (running_.fetch_sub(1, std::memory_order_acq_rel) == 1) done_.Ring();
    }
  }

  ModelDesc desc_;
  std::vector<int64_t> label_pos_;  // label -> index of its LabelSet in its stream
  std::unique_ptr<std::atomic<uint64_t>[]> events_;
  std::vector<Status> errors_;  // per stream, the first kernel error of the run
  std::vector<char> aborted_;   // per stream, stopped before its end
  uint64_t run_ = 0;            // generation of the current run; written before Launch rings
  std::atomic<bool> abort_{false};
  std::atomic<bool> stopping_{false};
  std::atomic<int> running_{0};
  std::atomic<bool> host_stream0_{false};  // this run's stream 0 is on the caller's thread
  int stream_threads_ = 0;                 // oneDNN threads per stream (0: all)
  Doorbell start_;     // rung by Launch (and by the destructor)
  Doorbell progress_;  // rung by every record and by Abort: held streams re-check
  Doorbell done_;      // rung by the last stream to finish
  uint32_t done_seen_ = 0;
  bool in_flight_ = false;
  bool timing_ = false;
  std::vector<std::vector<TaskTime>> times_;
  std::vector<std::thread> workers_;  // last: they start once everything above exists
};

}  // namespace

int CpuThreadsPerStream(size_t num_streams) {
  if (num_streams <= 1) return 0;
  const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  return std::max(1, cores / static_cast<int>(num_streams));
}

CpuComputeShare::CpuComputeShare(size_t num_streams) {
  const int threads = CpuThreadsPerStream(num_streams);
  if (threads == 0) return;
  saved_ = omp_get_max_threads();
  omp_set_num_threads(threads);
}

CpuComputeShare::~CpuComputeShare() {
  if (saved_ > 0) omp_set_num_threads(saved_);
}

Result<std::unique_ptr<Model>> CreateCpuModel(ModelDesc desc) {
  std::vector<int64_t> label_pos;
  GE_RETURN_IF_ERROR(CheckDesc(desc, label_pos));
  return std::unique_ptr<Model>(std::make_unique<CpuModel>(std::move(desc), std::move(label_pos)));
}

}  // namespace ge::hal
