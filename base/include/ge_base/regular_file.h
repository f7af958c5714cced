// Opening the files the tools read (models, inputs, configuration files):
// each must be a regular file or a symlink to one. A FIFO would block open()
// forever and a device such as /dev/zero never ends, so both are refused by
// name before anything is opened, and every read is bounded by the size the
// file had when it was opened.
#pragma once

#include <cstdint>
#include <string>

#include "ge_base/status.h"

namespace ge {

// An open descriptor, closed when it goes out of scope.
class FileDescriptor {
 public:
  FileDescriptor() = default;
  explicit FileDescriptor(int fd) : fd_(fd) {}
  FileDescriptor(FileDescriptor&& o) noexcept : fd_(o.Release()) {}
  FileDescriptor& operator=(FileDescriptor&& o) noexcept;
  FileDescriptor(const FileDescriptor&) = delete;
  FileDescriptor& operator=(const FileDescriptor&) = delete;
  ~FileDescriptor();

  int get() const { return fd_; }
  int Release() {
    const int fd = fd_;
    fd_ = -1;
    return fd;
  }

 private:
  int fd_ = -1;
};

struct OpenedFile {
  FileDescriptor fd;
  uint64_t size = 0;  // the file's size when it was opened
};

// "a directory", "a FIFO", "a character device", ... for a stat mode.
const char* FileKindName(unsigned mode);

// Opens `path` for reading. Errors start with the path:
//   NotFound "PATH: no such file"
//   IoError  "PATH: is a FIFO, not a regular file" (a directory, a character
//            device, a block device, a socket), "PATH: cannot open: <errno>"
// With `what` ("fusion switch file"), they read "PATH: cannot open the
// fusion switch file: no such file" and so on.
// The kind is checked with stat() before opening (no blocking open() on a
// FIFO), the file is opened with O_NONBLOCK | O_NOCTTY, and checked again
// with fstat() in case the path was replaced in between.
Result<OpenedFile> OpenRegularFile(const std::string& path, const std::string& what = "");

// Reads the next n bytes of an opened file into dst. Errors name the path:
// IoError "PATH: cannot read: ..." or "PATH: file shrank while reading".
Status ReadExactly(const OpenedFile& file, const std::string& path, void* dst, size_t n);

// The whole file, read with at most its size at opening (a file that grows
// meanwhile is not followed). Errors as OpenRegularFile, plus IoError
// "PATH: cannot read: ..." and "PATH: file shrank while reading".
Result<std::string> ReadRegularFile(const std::string& path, const std::string& what = "");

}  // namespace ge
