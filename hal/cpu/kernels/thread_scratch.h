// Scratch memory per thread, shared by every kernel the thread runs.
//
// A oneDNN primitive's scratchpad, and a kernel's temporaries (its input
// reordered into the primitive's layout, its output before the reorder
// back), are live only while the kernel runs, and a thread runs one kernel
// at a time. One buffer per thread therefore serves all of them, where one
// buffer per kernel would add up over the model: ResNet-50's Winograd convs
// alone ask 60 MB of scratchpad in all, 10 MB at most each.
#pragma once

#include <cstddef>
#include <cstdint>

namespace ge::hal::dnnl_util {

// Scratchpads are used by one primitive call, temporaries across the steps
// of one kernel run (which have scratchpads of their own): two regions.
enum class ScratchUse { kScratchpad, kTemporaries };

// This thread's buffer for `use`, at least `bytes` long and 64-byte aligned.
// It grows (the old contents are dropped) and lives until the thread ends;
// the pointer is valid until the next call with a larger size. nullptr when
// memory runs out (the buffer kept is then the old one).
uint8_t* ThreadScratch(ScratchUse use, size_t bytes);

}  // namespace ge::hal::dnnl_util
