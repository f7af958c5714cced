// The device registry: backends register a factory by name at static
// initialisation; a device is created on first lookup and lives until exit.
#include <mutex>

#include "hal/device.h"

namespace ge::hal {
namespace {

struct Entry {
  std::string name;
  DeviceFactory factory;
  std::unique_ptr<Device> device;
  Status failed;  // a factory that failed once is not retried
};

struct Registry {
  std::recursive_mutex mu;  // a factory may look up another device (an overlay of it)
  std::vector<Entry> entries;
};

// Function-local: registration runs during other translation units' static
// initialisation, whose order is unspecified.
Registry& TheRegistry() {
  static Registry* r = new Registry();  // never destroyed: devices outlive static destructors
  return *r;
}

std::string Known(const Registry& r) {
  std::string s;
  for (const Entry& e : r.entries) s += (s.empty() ? "" : ", ") + e.name;
  return s.empty() ? "none: no backend is linked in" : s;
}

Result<Device*> Materialise(Entry& e) {
  if (e.device) return e.device.get();
  if (!e.failed.ok()) return e.failed;
  auto made = e.factory();
  if (!made.ok()) {
    e.failed = made.status().Annotated("device " + e.name);
    return e.failed;
  }
  e.device = std::move(made).value();
  return e.device.get();
}

}  // namespace

Status RegisterDevice(const std::string& name, DeviceFactory factory) {
  Registry& r = TheRegistry();
  std::lock_guard<std::recursive_mutex> lock(r.mu);
  if (name.empty()) return InvalidArgument("a device needs a name");
  for (const Entry& e : r.entries)
    if (e.name == name) return InvalidArgument("device " + name + " is registered twice");
  r.entries.push_back(Entry{name, std::move(factory), nullptr, Status::Ok()});
  return Status::Ok();
}

Result<Device*> GetDevice(const std::string& name) {
  Registry& r = TheRegistry();
  std::lock_guard<std::recursive_mutex> lock(r.mu);
  if (r.entries.empty()) return NotFound("no device is registered (no backend is linked in)");
  if (name.empty()) return Materialise(r.entries.front());
  for (Entry& e : r.entries)
    if (e.name == name) return Materialise(e);
  return NotFound("unknown device '" + name + "' (registered: " + Known(r) + ")");
}

Result<Device*> GetHostDevice() {
  Registry& r = TheRegistry();
  std::lock_guard<std::recursive_mutex> lock(r.mu);
  for (Entry& e : r.entries) {
    auto d = Materialise(e);
    if (d.ok() && (*d)->capabilities().host_memory) return *d;
  }
  return NotFound("no registered device has host-accessible memory (registered: " + Known(r) + ")");
}

std::vector<std::string> DeviceNames() {
  Registry& r = TheRegistry();
  std::lock_guard<std::recursive_mutex> lock(r.mu);
  std::vector<std::string> names;
  for (const Entry& e : r.entries) names.push_back(e.name);
  return names;
}

}  // namespace ge::hal
