#include "ge/tools/peak_rss.h"

#include <sys/resource.h>

namespace ge::tools {

int64_t PeakRssBytes() {
  struct rusage u {};
  if (getrusage(RUSAGE_SELF, &u) != 0) return 0;
  return static_cast<int64_t>(u.ru_maxrss) * 1024;  // Linux reports KiB
}

}  // namespace ge::tools
