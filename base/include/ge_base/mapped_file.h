// A file mapped read-only into memory: loading a .om maps it instead of
// reading it, so constants are used where they lie in the page cache (no
// copy, and pages nobody touches never become resident).
//
// The mapping is private and read-only. ge-atc replaces files by rename, so
// a model rewritten while mapped keeps its old bytes; a file truncated in
// place by another program would fault, as with any mapped file.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "ge_base/status.h"

namespace ge {

class MappedFile {
 public:
  // kLazy faults pages in as they are touched (a .om: constants nobody
  // reads never become resident); kPopulate faults the whole file in at once
  // (a parser reads every byte, and one populate costs less than a fault per
  // page).
  enum class Paging { kLazy, kPopulate };
  // Maps the whole file at `path`, which must be a regular file (or a
  // symlink to one): errors as OpenRegularFile (ge_base/regular_file.h).
  // An empty file maps to size() 0, data() nullptr.
  static Result<std::shared_ptr<const MappedFile>> Open(const std::string& path, Paging paging = Paging::kLazy);
  ~MappedFile();
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;

  const uint8_t* data() const { return data_; }
  const char* chars() const { return reinterpret_cast<const char*>(data_); }
  size_t size() const { return size_; }

  // Reads [offset, offset + size) with pread(2) in chunks, passing each to
  // `fn`, instead of through the mapping: checking bytes this way leaves them
  // in the page cache but not resident in this process (peak RSS counts only
  // what kernels touch). Errors name the file.
  Status ReadChunks(uint64_t offset, uint64_t size, const std::function<void(const uint8_t*, size_t)>& fn) const;

 private:
  MappedFile(std::string path, int fd, const uint8_t* data, size_t size)
      : path_(std::move(path)), fd_(fd), data_(data), size_(size) {}
  std::string path_;
  int fd_;
  const uint8_t* data_;
  size_t size_;
};

}  // namespace ge
