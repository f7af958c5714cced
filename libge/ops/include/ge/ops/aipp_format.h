// The image formats the Aipp op takes (docs/aipp.md): the channels of its
// raw input and of its output. Shared by the op's inference, the compiler's
// insert_aipp pass and the configuration reader, so they agree on one table.
#pragma once

#include <cstdint>
#include <string>

namespace ge {

struct AippFormat {
  const char* name;
  int64_t in_channels;   // per pixel of the raw NHWC input (NV12: 1, planes stacked)
  int64_t out_channels;  // of the model input it makes
  bool yuv420sp;         // input [N, H * 3 / 2, W, 1]: even H, W and crop start
};

// nullptr for a format the op does not take.
const AippFormat* FindAippFormat(const std::string& name);

// "YUV420SP_U8, RGB888_U8, XRGB8888_U8, YUV400_U8", for messages.
std::string AippFormatNames();

}  // namespace ge
