#include "ge_base/temp_files.h"

#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <map>
#include <mutex>
#include <set>
#include <utility>
#include <vector>

namespace ge {
namespace {

// The handler reads these with no lock: a slot's path is written before its
// state becomes kTempSlotArmed and is not touched again until it is kTempSlotFree.
constexpr int kTempSlots = 16;
constexpr size_t kTempPathMax = 4096;
enum TempSlotState : int { kTempSlotFree, kTempSlotClaimed, kTempSlotArmed };
struct TempSlot {
  std::atomic<int> state{kTempSlotFree};
  char path[kTempPathMax];
};
TempSlot g_temp_slots[kTempSlots];
struct sigaction g_previous_sigint, g_previous_sigterm;

void UnlinkTempFilesOnSignal(int sig) {
  const int saved_errno = errno;
  for (TempSlot& s : g_temp_slots)
    if (s.state.load(std::memory_order_acquire) == kTempSlotArmed) ::unlink(s.path);
  const struct sigaction& previous = sig == SIGINT ? g_previous_sigint : g_previous_sigterm;
  if (previous.sa_handler != SIG_DFL && previous.sa_handler != SIG_IGN && !(previous.sa_flags & SA_SIGINFO)) {
    previous.sa_handler(sig);
    errno = saved_errno;
    return;
  }
  // The default action: end the process with this signal, as without us.
  ::sigaction(sig, &previous, nullptr);
  ::raise(sig);
  errno = saved_errno;
}

// Installed once, by the first guard: a process that never writes a file
// keeps its signal dispositions untouched. An ignored signal stays ignored.
void InstallTempFileHandlers() {
  static std::once_flag once;
  std::call_once(once, [] {
    for (int sig : {SIGINT, SIGTERM}) {
      struct sigaction* previous = sig == SIGINT ? &g_previous_sigint : &g_previous_sigterm;
      if (::sigaction(sig, nullptr, previous) != 0 || previous->sa_handler == SIG_IGN) continue;
      struct sigaction sa {};
      sa.sa_handler = UnlinkTempFilesOnSignal;
      sigemptyset(&sa.sa_mask);
      sa.sa_flags = SA_RESTART;
      ::sigaction(sig, &sa, nullptr);
    }
  });
}

// For a file named TARGET.<pid>.tmp: TARGET and the pid; pid 0 otherwise.
std::pair<std::string, pid_t> TempFileTarget(const std::string& file) {
  const std::string suffix = ".tmp";
  if (file.size() <= suffix.size() || file.compare(file.size() - suffix.size(), suffix.size(), suffix) != 0) return {};
  const std::string stem = file.substr(0, file.size() - suffix.size());
  const size_t dot = stem.rfind('.');
  if (dot == std::string::npos || dot == 0) return {};
  const std::string digits = stem.substr(dot + 1);
  if (digits.empty() || digits.size() > 9 || digits.find_first_not_of("0123456789") != std::string::npos) return {};
  return {stem.substr(0, dot), static_cast<pid_t>(std::stol(digits))};
}

bool ProcessIsGone(pid_t pid) { return pid != ::getpid() && ::kill(pid, 0) != 0 && errno == ESRCH; }

// One listing per directory and process (a tool writing thousands of
// outputs into one folder must not list it for each): the temporaries of
// gone processes there, by the target path they were for.
struct StaleTempFiles {
  std::mutex mu;
  std::set<std::filesystem::path> listed;
  std::map<std::filesystem::path, std::vector<std::filesystem::path>> by_target;
};

StaleTempFiles& Stale() {
  static StaleTempFiles* stale = new StaleTempFiles;  // never destroyed: writes may come from exit handlers
  return *stale;
}

}  // namespace

std::string TempPathFor(const std::string& path) { return path + "." + std::to_string(::getpid()) + ".tmp"; }

void SweepStaleTempFiles(const std::string& path) {
  namespace fs = std::filesystem;
  const fs::path p(path);
  const fs::path dir = p.has_parent_path() ? p.parent_path() : fs::path(".");
  StaleTempFiles& stale = Stale();
  const std::lock_guard<std::mutex> lock(stale.mu);
  std::error_code ec;
  if (stale.listed.insert(dir).second)
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
      const auto [target, owner] = TempFileTarget(it->path().filename().string());
      // kill(pid, 0) fails with ESRCH only when no such process exists.
      if (owner > 0 && ProcessIsGone(owner)) stale.by_target[dir / target].push_back(it->path());
    }
  auto it = stale.by_target.find(dir / p.filename());
  if (it == stale.by_target.end()) return;
  for (const fs::path& f : it->second) fs::remove(f, ec);
  stale.by_target.erase(it);
}

TempFileGuard::TempFileGuard(const std::string& path) {
  if (path.size() >= kTempPathMax) return;
  InstallTempFileHandlers();
  for (int i = 0; i < kTempSlots; ++i) {
    int expected = kTempSlotFree;
    if (!g_temp_slots[i].state.compare_exchange_strong(expected, kTempSlotClaimed)) continue;
    std::memcpy(g_temp_slots[i].path, path.c_str(), path.size() + 1);
    g_temp_slots[i].state.store(kTempSlotArmed, std::memory_order_release);
    slot_ = i;
    return;
  }
}

TempFileGuard::~TempFileGuard() {
  if (slot_ >= 0) g_temp_slots[slot_].state.store(kTempSlotFree, std::memory_order_release);
}

}  // namespace ge
