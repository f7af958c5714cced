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
// A float attribute always reads as one: "1.0", not "1" (an int).
std::string FloatAttrText(float f) {
  std::string s = FloatText(f);
  if (s.find_first_not_of("-0123456789") == std::string::npos) s += ".0";
  return s;
}
}  // namespace

std::string QuoteString(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out + "\"";
}

bool IsPlainName(const std::string& s) {
  if (s.empty()) return false;
  for (char c : s) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
                    c == '.' || c == '-' || c == '/' || c == '@' || c == '$';
    if (!ok) return false;
  }
  return true;
}

std::string NameText(const std::string& s) { return IsPlainName(s) ? s : QuoteString(s); }

namespace {
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
        else if constexpr (std::is_same_v<T, float>) return FloatAttrText(x);
        else if constexpr (std::is_same_v<T, std::string>) return QuoteString(x);
        else if constexpr (std::is_same_v<T, bool>) return x ? "true" : "false";
        else if constexpr (std::is_same_v<T, std::vector<int64_t>>)
          return List(x, [](int64_t i) { return std::to_string(i); });
        // Empty lists name their element type; "[]" alone is an int list.
        else if constexpr (std::is_same_v<T, std::vector<float>>) return x.empty() ? "floats[]" : List(x, FloatAttrText);
        else if constexpr (std::is_same_v<T, std::vector<std::string>>) return x.empty() ? "strings[]" : List(x, QuoteString);
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
          return std::string("graph<") + (x ? NameText(x->name()) : std::string("null")) + ">";
        }
      },
      v);
}

}  // namespace ge
