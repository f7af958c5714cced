// A read-only view of a whole file. Regular files are memory-mapped and
// pre-faulted: on the machines ge runs on, faulting in a fresh 46 MB heap
// buffer costs more than parsing the model it holds.
#pragma once

#include <cstddef>
#include <string>

#include "ge_base/status.h"

namespace ge::onnx_parser {

class MappedFile {
 public:
  // NotFound "PATH: no such file"; IoError for the rest (permissions, a
  // directory, a failed read). Messages start with the path.
  static Result<MappedFile> Open(const std::string& path);

  MappedFile() = default;
  MappedFile(MappedFile&& o) noexcept { *this = std::move(o); }
  MappedFile& operator=(MappedFile&& o) noexcept;
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;
  ~MappedFile();

  const char* data() const { return map_ ? static_cast<const char*>(map_) : buffer_.data(); }
  size_t size() const { return map_ ? map_size_ : buffer_.size(); }

 private:
  void* map_ = nullptr;
  size_t map_size_ = 0;
  std::string buffer_;  // pipes and devices, which cannot be mapped
};

}  // namespace ge::onnx_parser
