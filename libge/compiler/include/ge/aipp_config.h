// Static AIPP (ATC's --insert_op_conf): image preprocessing inserted in front
// of a model input. The input becomes the raw uint8 image; an Aipp node
// turns it into what the model was trained on. docs/aipp.md gives the
// semantics, the order of the steps and what is refused.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "ge_base/status.h"

namespace ge {

// One aipp_op of the configuration file, with ATC's defaults filled in.
struct AippConfig {
  std::string where;  // "FILE: aipp_op #K", for messages
  int64_t related_input_rank = 0;
  std::string input_format;  // YUV420SP_U8 | RGB888_U8 | XRGB8888_U8 | YUV400_U8
  bool csc_switch = false;
  bool rbuv_swap_switch = false;
  bool ax_swap_switch = false;
  int64_t src_image_size_w = 0;  // 0: the model input's width
  int64_t src_image_size_h = 0;
  bool crop = false;
  int64_t load_start_pos_w = 0;
  int64_t load_start_pos_h = 0;
  int64_t crop_size_w = 0;  // 0: the model input's width less the padding
  int64_t crop_size_h = 0;
  bool padding = false;
  int64_t left_padding_size = 0;
  int64_t right_padding_size = 0;
  int64_t top_padding_size = 0;
  int64_t bottom_padding_size = 0;
  float padding_value = 0.f;
  std::array<int64_t, 9> matrix{};  // row-major r0c0 .. r2c2
  std::array<int64_t, 3> input_bias{};
  std::array<int64_t, 3> output_bias{};
  std::array<int64_t, 4> mean_chn{};
  std::array<float, 4> min_chn{};
  std::array<float, 4> var_reci_chn{1.f, 1.f, 1.f, 1.f};
};

// Reads ATC's protobuf text format. Errors name the file, and the line or
// the aipp_op and field: a syntax error or unknown field, dynamic AIPP,
// an input format or switch ge does not implement (resize, single-line
// mode, rotation, multi_shape_op), two aipp_op for one input.
Result<std::vector<AippConfig>> ReadAippConfigFile(const std::string& path);
// The same from text already read (`name` stands for the file in messages).
Result<std::vector<AippConfig>> ParseAippConfig(const std::string& text, const std::string& name);

}  // namespace ge
