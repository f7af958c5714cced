// Events order work across streams: Record() marks a point in one stream,
// Wait() makes another stream hold until that point has been reached.
#pragma once

#include <memory>

#include "hal/stream.h"

namespace ge::hal {

class Event {
 public:
  virtual ~Event() = default;
  // Enqueues, on `stream`, the signal of this event (after prior work).
  virtual void Record(Stream& stream) = 0;
  // Enqueues, on `stream`, a wait for the latest Record() issued before this call.
  virtual void Wait(Stream& stream) = 0;
  // Blocks the host until the latest recorded point has been reached.
  virtual void HostWait() = 0;
};

}  // namespace ge::hal
