#include "ge/tools/npy.h"

#include <cctype>
#include <cstdio>
#include <cstring>
#include <optional>

#include "ge_base/checked_math.h"
#include "ge_base/file_io.h"
#include "ge_base/regular_file.h"

namespace ge {
namespace {

constexpr char kNpyMagic[] = "\x93NUMPY";

struct DescrEntry {
  const char* descr;
  DataType dtype;
};
constexpr DescrEntry kDescrs[] = {
    {"<f4", DataType::kFloat32}, {"<f8", DataType::kFloat64}, {"<f2", DataType::kFloat16}, {"<i8", DataType::kInt64},
    {"<i4", DataType::kInt32},   {"<i2", DataType::kInt16},   {"|i1", DataType::kInt8},    {"|u1", DataType::kUInt8},
    {"<u2", DataType::kUInt16},  {"<u4", DataType::kUInt32},  {"<u8", DataType::kUInt64},  {"|b1", DataType::kBool},
};

// Value of `'key': VALUE` in the header dict, up to the next ',' or '}' (or
// the matching ')' for tuples).
bool FindValue(const std::string& header, const std::string& key, std::string* out) {
  size_t k = header.find("'" + key + "'");
  if (k == std::string::npos) return false;
  size_t colon = header.find(':', k);
  if (colon == std::string::npos) return false;
  size_t start = header.find_first_not_of(' ', colon + 1);
  if (start == std::string::npos) return false;
  size_t end = header[start] == '(' ? header.find(')', start) : header.find_first_of(",}", start);
  if (end == std::string::npos) return false;
  if (header[start] == '(') ++end;
  *out = header.substr(start, end - start);
  return true;
}

// "(1, 3, 224, 224)", "(5,)", "()": decimal integers only (no float, sign or
// exponent), each followed by a comma but the last.
std::optional<std::vector<int64_t>> ParseShape(const std::string& shape) {
  if (shape.size() < 2 || shape.front() != '(' || shape.back() != ')') return std::nullopt;
  std::vector<int64_t> dims;
  size_t pos = 1;
  const size_t end = shape.size() - 1;
  auto skip_spaces = [&] {
    while (pos < end && shape[pos] == ' ') ++pos;
  };
  skip_spaces();
  while (pos < end) {
    const size_t first = pos;
    int64_t v = 0;
    for (; pos < end && std::isdigit(static_cast<unsigned char>(shape[pos])); ++pos) {
      const auto grown = CheckedMul(v, 10);
      const auto next = grown ? CheckedAdd(*grown, shape[pos] - '0') : std::nullopt;
      if (!next) return std::nullopt;
      v = *next;
    }
    if (pos == first) return std::nullopt;
    dims.push_back(v);
    skip_spaces();
    if (pos < end && shape[pos] != ',') return std::nullopt;
    if (pos < end) ++pos;
    skip_spaces();
  }
  return dims;
}

}  // namespace

Result<NpyArray> ParseNpy(const std::string& bytes, const std::string& origin) {
  auto bad = [&](const std::string& why) { return Corrupt(origin + ": not a valid .npy file (" + why + ")"); };
  if (bytes.size() < 10 || bytes.compare(0, 6, kNpyMagic, 6) != 0) return bad("bad magic");
  const uint8_t major = static_cast<uint8_t>(bytes[6]);
  size_t header_len, header_start;
  if (major == 1) {
    header_len = static_cast<uint8_t>(bytes[8]) | (static_cast<uint8_t>(bytes[9]) << 8);
    header_start = 10;
  } else if (major == 2 || major == 3) {
    if (bytes.size() < 12) return bad("truncated header");
    uint32_t len;
    std::memcpy(&len, bytes.data() + 8, 4);
    header_len = len;
    header_start = 12;
  } else {
    return bad("unknown format version " + std::to_string(major));
  }
  if (header_len > bytes.size() - header_start) return bad("truncated header");
  const std::string header = bytes.substr(header_start, header_len);
  std::string descr, fortran, shape;
  if (!FindValue(header, "descr", &descr) || !FindValue(header, "fortran_order", &fortran) ||
      !FindValue(header, "shape", &shape))
    return bad("header lacks descr, fortran_order or shape");
  if (fortran.find("False") == std::string::npos) return Unsupported(origin + ": Fortran-order arrays are not supported");
  NpyArray a;
  a.desc.dtype = DataType::kUndefined;
  for (const auto& d : kDescrs)
    if (descr == std::string("'") + d.descr + "'") a.desc.dtype = d.dtype;
  if (a.desc.dtype == DataType::kUndefined) return Unsupported(origin + ": .npy dtype " + descr + " is not supported");
  const auto dims = ParseShape(shape);
  if (!dims) return bad("bad shape '" + shape + "'");
  a.desc.dims = *dims;
  const size_t data_start = header_start + header_len;
  const int64_t want = a.desc.Bytes();
  if (want < 0) return bad("shape " + a.desc.ToString() + " is too large");
  if (static_cast<uint64_t>(want) != bytes.size() - data_start)
    return bad("data holds " + std::to_string(bytes.size() - data_start) + " bytes, shape " + a.desc.ToString() +
               " needs " + std::to_string(want));
  a.bytes.assign(bytes.begin() + static_cast<std::ptrdiff_t>(data_start), bytes.end());
  return a;
}

Result<NpyArray> ReadNpy(const std::string& path) {
  GE_ASSIGN_OR_RETURN(std::string bytes, ReadRegularFile(path));
  return ParseNpy(bytes, path);
}

Status WriteNpy(const std::string& path, const TensorDesc& desc, const void* data) {
  const char* descr = nullptr;
  for (const auto& d : kDescrs)
    if (d.dtype == desc.dtype) descr = d.descr;
  if (desc.dtype == DataType::kBFloat16) descr = "<u2";  // numpy has no bfloat16: its bits, as ONNX's test data
  if (!descr || !desc.is_static()) return Unsupported(path + ": cannot write " + desc.ToString() + " as .npy");
  std::string shape = "(";
  for (size_t i = 0; i < desc.dims.size(); ++i) shape += std::to_string(desc.dims[i]) + (desc.dims.size() == 1 || i + 1 < desc.dims.size() ? ", " : "");
  if (desc.dims.size() > 1) shape.resize(shape.size());
  shape += ")";
  std::string header = "{'descr': '" + std::string(descr) + "', 'fortran_order': False, 'shape': " + shape + ", }";
  // Pad so the data starts on a 64-byte boundary, ending with '\n' (the spec).
  size_t total = 10 + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header += '\n';
  std::string out(kNpyMagic, 6);
  out += '\x01';
  out += '\x00';
  out += static_cast<char>(header.size() & 0xff);
  out += static_cast<char>(header.size() >> 8);
  out += header;
  out.append(static_cast<const char*>(data), static_cast<size_t>(desc.Bytes()));
  return WriteFileAtomically(path, out);
}

}  // namespace ge
