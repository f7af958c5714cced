#include "mapped_file.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace ge::onnx_parser {

namespace {
std::string Errno() { return std::strerror(errno); }

// Closes the descriptor on every path out of Open().
struct Fd {
  int fd = -1;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
};
}  // namespace

Result<MappedFile> MappedFile::Open(const std::string& path) {
  Fd f;
  f.fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (f.fd < 0) {
    if (errno == ENOENT || errno == ENOTDIR) return NotFound(path + ": no such file");
    return IoError(path + ": cannot open (" + Errno() + ")");
  }
  struct stat st {};
  if (::fstat(f.fd, &st) != 0) return IoError(path + ": cannot stat (" + Errno() + ")");
  if (S_ISDIR(st.st_mode)) return IoError(path + ": is a directory, not a file");
  MappedFile file;
  if (S_ISREG(st.st_mode)) {
    if (st.st_size == 0) return file;  // mmap refuses empty ranges
    void* p = ::mmap(nullptr, static_cast<size_t>(st.st_size), PROT_READ, MAP_PRIVATE | MAP_POPULATE, f.fd, 0);
    if (p != MAP_FAILED) {
      file.map_ = p;
      file.map_size_ = static_cast<size_t>(st.st_size);
      return file;
    }
  }
  // Not mappable (a pipe, a device, an odd file system): read to the end.
  char chunk[1 << 16];
  for (;;) {
    const ssize_t n = ::read(f.fd, chunk, sizeof(chunk));
    if (n == 0) break;
    if (n < 0) {
      if (errno == EINTR) continue;
      return IoError(path + ": read failed (" + Errno() + ")");
    }
    file.buffer_.append(chunk, static_cast<size_t>(n));
  }
  return file;
}

MappedFile& MappedFile::operator=(MappedFile&& o) noexcept {
  if (this != &o) {
    if (map_) ::munmap(map_, map_size_);
    map_ = o.map_;
    map_size_ = o.map_size_;
    buffer_ = std::move(o.buffer_);
    o.map_ = nullptr;
    o.map_size_ = 0;
  }
  return *this;
}

MappedFile::~MappedFile() {
  if (map_) ::munmap(map_, map_size_);
}

}  // namespace ge::onnx_parser
