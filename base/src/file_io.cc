#include "ge_base/file_io.h"

#include <cstdio>
#include <cstring>
#include <fstream>

namespace ge {

Status WriteFileAtomically(const std::string& path, const std::string& bytes) {
  const std::string tmp = path + ".tmp";
  {
    std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
    if (!f) return IoError(path + ": cannot open " + tmp + " for writing: " + std::strerror(errno));
    f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
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
