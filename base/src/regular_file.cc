#include "ge_base/regular_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <exception>

namespace ge {

FileDescriptor& FileDescriptor::operator=(FileDescriptor&& o) noexcept {
  if (this != &o) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = o.Release();
  }
  return *this;
}

FileDescriptor::~FileDescriptor() {
  if (fd_ >= 0) ::close(fd_);
}

const char* FileKindName(unsigned mode) {
  switch (mode & S_IFMT) {
    case S_IFREG: return "a regular file";
    case S_IFDIR: return "a directory";
    case S_IFIFO: return "a FIFO";
    case S_IFCHR: return "a character device";
    case S_IFBLK: return "a block device";
    case S_IFSOCK: return "a socket";
    default: return "not a file";
  }
}

namespace {

std::string RegularFilePrefix(const std::string& path, const std::string& what) {
  return what.empty() ? path + ": " : path + ": cannot open the " + what + ": ";
}

Status RegularFileKindError(const std::string& path, const std::string& what, unsigned mode) {
  return IoError(RegularFilePrefix(path, what) + "is " + FileKindName(mode) + ", not a regular file");
}

Status RegularFileOpenError(const std::string& path, const std::string& what, int err) {
  if (err == ENOENT || err == ENOTDIR) return NotFound(RegularFilePrefix(path, what) + "no such file");
  return IoError(RegularFilePrefix(path, what) + (what.empty() ? "cannot open: " : "") + std::strerror(err));
}

}  // namespace

Result<OpenedFile> OpenRegularFile(const std::string& path, const std::string& what) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return RegularFileOpenError(path, what, errno);
  if (!S_ISREG(st.st_mode)) return RegularFileKindError(path, what, st.st_mode);
  OpenedFile f;
  f.fd = FileDescriptor(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY));
  if (f.fd.get() < 0) return RegularFileOpenError(path, what, errno);
  if (::fstat(f.fd.get(), &st) != 0) return IoError(path + ": cannot stat: " + std::strerror(errno));
  if (!S_ISREG(st.st_mode)) return RegularFileKindError(path, what, st.st_mode);
  f.size = static_cast<uint64_t>(st.st_size);
  return f;
}

Status ReadExactly(const OpenedFile& file, const std::string& path, void* dst, size_t n) {
  size_t done = 0;
  while (done < n) {
    const ssize_t got = ::read(file.fd.get(), static_cast<char*>(dst) + done, n - done);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) return IoError(path + ": cannot read: " + std::strerror(errno));
    if (got == 0) return IoError(path + ": file shrank while reading");
    done += static_cast<size_t>(got);
  }
  return Status::Ok();
}

Result<std::string> ReadRegularFile(const std::string& path, const std::string& what) {
  GE_ASSIGN_OR_RETURN(OpenedFile f, OpenRegularFile(path, what));
  std::string bytes;
  try {
    bytes.resize(static_cast<size_t>(f.size));
  } catch (const std::exception&) {
    return IoError(path + ": cannot hold " + std::to_string(f.size) + " bytes in memory");
  }
  GE_RETURN_IF_ERROR(ReadExactly(f, path, bytes.data(), bytes.size()));
  return bytes;
}

}  // namespace ge
