// ATC's AIPP configuration file -> AippConfig. The text is parsed with
// protobuf's text format against schemas/aipp.proto (ATC's field names);
// everything ge does not implement is refused here, naming the field, so
// the pass only sees configurations it can run.
#include <set>

#include <google/protobuf/io/tokenizer.h>
#include <google/protobuf/text_format.h>

#include "aipp.pb.h"
#include "ge/aipp_config.h"
#include "ge/ops/aipp_format.h"
#include "ge_base/regular_file.h"

namespace ge {
namespace {

using aipp_proto::AippOpParams;

// The first syntax error, as "line L:C: message" (protobuf counts from 0).
class FirstError final : public google::protobuf::io::ErrorCollector {
 public:
  void AddError(int line, google::protobuf::io::ColumnNumber col, const std::string& msg) override {
    if (text_.empty()) text_ = "line " + std::to_string(line + 1) + ":" + std::to_string(col + 1) + ": " + msg;
  }
  const std::string& text() const { return text_; }

 private:
  std::string text_;
};

// A repeated field ATC allows per batch; ge applies one value to all.
template <typename T, typename Field>
Status One(const Field& values, const std::string& field, const std::string& where, T* out) {
  if (values.size() > 1)
    return Unsupported(where + ": " + field + " has " + std::to_string(values.size()) +
                       " values (one per batch); ge applies one value to every batch");
  if (values.size() == 1) *out = static_cast<T>(values.Get(0));
  return Status::Ok();
}

Status CheckStaticOnly(const AippOpParams& p, const std::string& where) {
  if (p.aipp_mode() == AippOpParams::dynamic)
    return Unsupported(where + ": aipp_mode dynamic is not supported (only static AIPP: parameters fixed at conversion)");
  if (p.aipp_mode() != AippOpParams::static_) return InvalidArgument(where + ": aipp_mode must be static");
  struct Off {
    bool on;
    const char* field;
  };
  for (const Off& o : {Off{p.resize(), "resize"}, Off{p.single_line_mode(), "single_line_mode"},
                       Off{p.support_rotation(), "support_rotation"}, Off{p.max_src_image_size() != 0, "max_src_image_size"},
                       Off{p.input_edge_idx_size() != 0, "input_edge_idx"}, Off{p.raw_rgbir_to_f16_n() != 0, "raw_rgbir_to_f16_n"}})
    if (o.on) return Unsupported(where + ": " + o.field + " is not supported by ge's AIPP");
  return Status::Ok();
}

Result<AippConfig> Convert(const AippOpParams& p, const std::string& where) {
  GE_RETURN_IF_ERROR(CheckStaticOnly(p, where));
  AippConfig c;
  c.where = where;
  c.related_input_rank = p.related_input_rank();
  c.input_format = AippOpParams::InputFormat_Name(p.input_format());
  if (p.input_format() == AippOpParams::UNDEFINED) return InvalidArgument(where + ": input_format is required");
  const AippFormat* format = FindAippFormat(c.input_format);
  if (!format)
    return Unsupported(where + ": input_format " + c.input_format + " is not supported (" + AippFormatNames() + " are)");
  c.csc_switch = p.csc_switch();
  c.rbuv_swap_switch = p.rbuv_swap_switch();
  c.ax_swap_switch = p.ax_swap_switch();
  c.src_image_size_w = p.src_image_size_w();
  c.src_image_size_h = p.src_image_size_h();
  c.crop = p.crop();
  c.load_start_pos_w = p.load_start_pos_w();
  c.load_start_pos_h = p.load_start_pos_h();
  c.crop_size_w = p.crop_size_w();
  c.crop_size_h = p.crop_size_h();
  c.padding = p.padding();
  c.left_padding_size = p.left_padding_size();
  c.right_padding_size = p.right_padding_size();
  c.top_padding_size = p.top_padding_size();
  c.bottom_padding_size = p.bottom_padding_size();
  c.padding_value = p.padding_value() != 0.f ? p.padding_value() : p.cpadding_value();
  for (const auto& [v, field] : {std::pair<int64_t, const char*>{c.src_image_size_w, "src_image_size_w"},
                                 {c.src_image_size_h, "src_image_size_h"}, {c.load_start_pos_w, "load_start_pos_w"},
                                 {c.load_start_pos_h, "load_start_pos_h"}, {c.crop_size_w, "crop_size_w"},
                                 {c.crop_size_h, "crop_size_h"}, {c.left_padding_size, "left_padding_size"},
                                 {c.right_padding_size, "right_padding_size"}, {c.top_padding_size, "top_padding_size"},
                                 {c.bottom_padding_size, "bottom_padding_size"}})
    if (v < 0) return InvalidArgument(where + ": " + field + " is " + std::to_string(v) + ", below 0");

  const std::pair<const google::protobuf::RepeatedField<int32_t>*, const char*> matrix[9] = {
      {&p.matrix_r0c0(), "matrix_r0c0"}, {&p.matrix_r0c1(), "matrix_r0c1"}, {&p.matrix_r0c2(), "matrix_r0c2"},
      {&p.matrix_r1c0(), "matrix_r1c0"}, {&p.matrix_r1c1(), "matrix_r1c1"}, {&p.matrix_r1c2(), "matrix_r1c2"},
      {&p.matrix_r2c0(), "matrix_r2c0"}, {&p.matrix_r2c1(), "matrix_r2c1"}, {&p.matrix_r2c2(), "matrix_r2c2"}};
  bool any_matrix = false;
  for (int i = 0; i < 9; ++i) {
    GE_RETURN_IF_ERROR(One(*matrix[i].first, matrix[i].second, where, &c.matrix[i]));
    any_matrix |= matrix[i].first->size() != 0;
  }
  // The matrix decides what the colours mean; ATC's samples always give it.
  if (c.csc_switch && !any_matrix)
    return InvalidArgument(where + ": csc_switch is true but no matrix_r*c* is given");
  if (c.csc_switch && format->out_channels == 1)
    return Unsupported(where + ": csc_switch with input_format YUV400_U8 is not supported (a grey image has one channel)");
  GE_RETURN_IF_ERROR(One(p.input_bias_0(), "input_bias_0", where, &c.input_bias[0]));
  GE_RETURN_IF_ERROR(One(p.input_bias_1(), "input_bias_1", where, &c.input_bias[1]));
  GE_RETURN_IF_ERROR(One(p.input_bias_2(), "input_bias_2", where, &c.input_bias[2]));
  GE_RETURN_IF_ERROR(One(p.output_bias_0(), "output_bias_0", where, &c.output_bias[0]));
  GE_RETURN_IF_ERROR(One(p.output_bias_1(), "output_bias_1", where, &c.output_bias[1]));
  GE_RETURN_IF_ERROR(One(p.output_bias_2(), "output_bias_2", where, &c.output_bias[2]));
  c.mean_chn = {p.mean_chn_0(), p.mean_chn_1(), p.mean_chn_2(), p.mean_chn_3()};
  c.min_chn = {p.min_chn_0(), p.min_chn_1(), p.min_chn_2(), p.min_chn_3()};
  GE_RETURN_IF_ERROR(One(p.var_reci_chn_0(), "var_reci_chn_0", where, &c.var_reci_chn[0]));
  GE_RETURN_IF_ERROR(One(p.var_reci_chn_1(), "var_reci_chn_1", where, &c.var_reci_chn[1]));
  GE_RETURN_IF_ERROR(One(p.var_reci_chn_2(), "var_reci_chn_2", where, &c.var_reci_chn[2]));
  GE_RETURN_IF_ERROR(One(p.var_reci_chn_3(), "var_reci_chn_3", where, &c.var_reci_chn[3]));
  return c;
}

}  // namespace

Result<std::vector<AippConfig>> ParseAippConfig(const std::string& text, const std::string& name) {
  aipp_proto::InsertNewOps ops;
  google::protobuf::TextFormat::Parser parser;
  FirstError errors;
  parser.RecordErrorsTo(&errors);
  if (!parser.ParseFromString(text, &ops))
    return InvalidArgument(name + ": not an AIPP configuration: " + (errors.text().empty() ? "parse error" : errors.text()));
  if (ops.multi_shape_op_size() != 0)
    return Unsupported(name + ": multi_shape_op is not supported (use --input_shape)");
  if (ops.aipp_op_size() == 0) return InvalidArgument(name + ": no aipp_op { ... } in the file");
  std::vector<AippConfig> out;
  std::set<int64_t> inputs;
  for (int i = 0; i < ops.aipp_op_size(); ++i) {
    const std::string where = name + ": aipp_op #" + std::to_string(i + 1);
    GE_ASSIGN_OR_RETURN(AippConfig c, Convert(ops.aipp_op(i), where));
    if (!inputs.insert(c.related_input_rank).second)
      return InvalidArgument(where + ": related_input_rank " + std::to_string(c.related_input_rank) +
                             " already has an aipp_op");
    out.push_back(std::move(c));
  }
  return out;
}

Result<std::vector<AippConfig>> ReadAippConfigFile(const std::string& path) {
  GE_ASSIGN_OR_RETURN(std::string text, ReadRegularFile(path, "AIPP configuration (--insert_op_conf)"));
  return ParseAippConfig(text, path);
}

}  // namespace ge
