#include "ge_base/file_io.h"

#include <cstdio>
#include <cstring>
#include <fstream>

#include "ge_base/temp_files.h"

namespace ge {

Status WriteFileAtomically(const std::string& path, const std::string& bytes) {
  return WriteFileAtomically(path, std::vector<std::string_view>{bytes});
}

Status WriteFileAtomically(const std::string& path, const std::vector<std::string_view>& pieces) {
  SweepStaleTempFiles(path);
  const std::string tmp = TempPathFor(path);
  const TempFileGuard guard(tmp);  // unlinked on SIGINT / SIGTERM until renamed
  {
    std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
    if (!f) return IoError(path + ": cannot open " + tmp + " for writing: " + std::strerror(errno));
    for (std::string_view v : pieces) f.write(v.data(), static_cast<std::streamsize>(v.size()));
    f.close();
    if (!f) {
      std::remove(tmp.c_str());
      return IoError(path + ": write failed");
    }
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    const std::string why = std::strerror(errno);
    std::remove(tmp.c_str());
    return IoError(path + ": cannot rename " + tmp + " into place: " + why);
  }
  return Status::Ok();
}

}  // namespace ge
