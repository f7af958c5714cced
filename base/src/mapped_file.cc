#include "ge_base/mapped_file.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <algorithm>
#include <cstring>

#include "ge_base/regular_file.h"

namespace ge {

Result<std::shared_ptr<const MappedFile>> MappedFile::Open(const std::string& path, Paging paging) {
  GE_ASSIGN_OR_RETURN(OpenedFile file, OpenRegularFile(path));
  const int fd = file.fd.Release();
  const size_t size = static_cast<size_t>(file.size);
  if (size == 0) return std::shared_ptr<const MappedFile>(new MappedFile(path, fd, nullptr, 0));
  const int populate = paging == Paging::kPopulate ? MAP_POPULATE : 0;
  void* p = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE | populate, fd, 0);
  if (p == MAP_FAILED) {
    const int e = errno;
    ::close(fd);
    return IoError(path + ": cannot map " + std::to_string(size) + " bytes: " + std::strerror(e));
  }
  // Loading reads the file front to back (checksums), then kernels read their
  // constants: ask for read-ahead into the page cache instead of one fault per page.
  if (paging == Paging::kLazy) ::madvise(p, size, MADV_WILLNEED);
  // The descriptor stays open for ReadChunks.
  return std::shared_ptr<const MappedFile>(new MappedFile(path, fd, static_cast<const uint8_t*>(p), size));
}

MappedFile::~MappedFile() {
  if (data_) ::munmap(const_cast<uint8_t*>(data_), size_);
  ::close(fd_);
}

Status MappedFile::ReadChunks(uint64_t offset, uint64_t size,
                              const std::function<void(const uint8_t*, size_t)>& fn) const {
  if (offset > size_ || size > size_ - offset)
    return InvalidArgument(path_ + ": range [" + std::to_string(offset) + ", +" + std::to_string(size) + ") is outside the file");
  constexpr size_t kChunk = size_t{1} << 20;  // fits in L2 for the consumer; one syscall per MiB
  std::unique_ptr<uint8_t[]> buf(new uint8_t[kChunk]);
  while (size > 0) {
    const size_t want = static_cast<size_t>(std::min<uint64_t>(size, kChunk));
    const ssize_t got = ::pread(fd_, buf.get(), want, static_cast<off_t>(offset));
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0)
      return IoError(path_ + ": cannot read at offset " + std::to_string(offset) + ": " +
                     (got < 0 ? std::strerror(errno) : "file shrank while loading"));
    fn(buf.get(), static_cast<size_t>(got));
    offset += static_cast<uint64_t>(got);
    size -= static_cast<uint64_t>(got);
  }
  return Status::Ok();
}

}  // namespace ge
