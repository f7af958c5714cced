#include "ge/ir/attr_value.h"

#include <cstdio>
#include <type_traits>

#include "ge/ir/graph.h"

namespace ge {

namespace {
std::string FloatText(float f) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.9g", static_cast<double>(f));
  return buf;
}
std::string Quote(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}
template <typename T, typename F>
std::string List(const std::vector<T>& v, F f) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) {
    if (i) s += ",";
    s += f(v[i]);
  }
  return s + "]";
}
}  // namespace

std::string AttrToString(const AttrValue& v) {
  return std::visit(
      [](const auto& x) -> std::string {
        using T = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<T, int64_t>) return std::to_string(x);
        else if constexpr (std::is_same_v<T, float>) return FloatText(x);
        else if constexpr (std::is_same_v<T, std::string>) return Quote(x);
        else if constexpr (std::is_same_v<T, bool>) return x ? "true" : "false";
        else if constexpr (std::is_same_v<T, std::vector<int64_t>>)
          return List(x, [](int64_t i) { return std::to_string(i); });
        else if constexpr (std::is_same_v<T, std::vector<float>>) return List(x, FloatText);
        else if constexpr (std::is_same_v<T, std::vector<std::string>>) return List(x, Quote);
        else if constexpr (std::is_same_v<T, Tensor>) {
          // Small tensors print their values so shape constants are visible in dumps.
          std::string s = "tensor<" + x.desc().ToString();
          if (x.desc().NumElements() >= 0 && x.desc().NumElements() <= 8 && !x.empty()) {
            s += " ";
            if (IsFloatingPoint(x.desc().dtype))
              s += List(x.ToDouble(), [](double d) { return FloatText(static_cast<float>(d)); });
            else
              s += List(x.ToInt64(), [](int64_t i) { return std::to_string(i); });
          }
          return s + ">";
        } else {
          return std::string("graph<") + (x ? x->name() : std::string("null")) + ">";
        }
      },
      v);
}

}  // namespace ge
