// Temporary files that must not outlive the process: WriteFileAtomically
// writes PATH.<pid>.tmp and renames it, and a SIGINT or SIGTERM in between
// would leave the partial file behind (a killed ge-atc left 119 MB). A
// registered path is unlinked by an async-signal-safe handler, which then
// lets the signal do what it did before (the previous handler, or the
// default: the process ends with the signal). A process killed with SIGKILL
// cannot clean up; its files are swept by the next write of the same path
// (SweepStaleTempFiles), their pid being gone.
#pragma once

#include <string>

namespace ge {

// "PATH.<this pid>.tmp": where WriteFileAtomically writes PATH first.
std::string TempPathFor(const std::string& path);

// Removes PATH.<pid>.tmp files whose process no longer exists (left by a
// killed writer). Files of live processes, this one included, stay. Each
// directory is listed once per process; later calls use that listing.
void SweepStaleTempFiles(const std::string& path);

// Registers `path` for removal on SIGINT / SIGTERM while the guard lives.
// When every slot is taken (more than 16 files written at once) the path is
// not registered; the sweep still removes it after a kill.
class TempFileGuard {
 public:
  explicit TempFileGuard(const std::string& path);
  ~TempFileGuard();
  TempFileGuard(const TempFileGuard&) = delete;
  TempFileGuard& operator=(const TempFileGuard&) = delete;

 private:
  int slot_ = -1;
};

}  // namespace ge
