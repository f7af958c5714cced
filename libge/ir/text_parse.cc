// The text form's reader: a cursor over the characters with the line it is
// on, a recursive descent over graph blocks, node lines and attribute
// values. Nodes are created first and connected once the whole block is
// read, so an edge may name a node printed later (a graph with a cycle
// prints in insertion order).
#include "ge/ir/text_parse.h"

#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <map>

#include "ge/ir/nesting.h"
#include "ge_base/bfloat16.h"
#include "ge_base/float16.h"
#include "ge_base/regular_file.h"

namespace ge {
namespace {

struct InputRef {
  std::string node;  // "" for an absent input (_)
  int64_t index = 0;
};

struct PendingGraphAttr {
  std::string key, graph;
  int line = 0;
};

struct NodeLine {
  int line = 0;
  std::string name, type;
  std::map<std::string, AttrValue> attrs;
  std::vector<PendingGraphAttr> graph_attrs;
  std::vector<InputRef> inputs;
  std::vector<std::pair<std::string, int>> controls;  // name, line
  std::vector<TensorDesc> outputs;
};

bool IsNameChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.' ||
         c == '-' || c == '/' || c == '@' || c == '$';
}

class Parser {
 public:
  Parser(const std::string& text, const std::string& source) : t_(text), source_(source) {}

  Result<std::unique_ptr<Graph>> ParseFile() {
    SkipSpace();
    GE_ASSIGN_OR_RETURN(auto g, ParseGraph());
    SkipSpace();
    if (pos_ < t_.size()) return Error("expected the end of the text after the graph's closing }");
    return g;
  }

 private:
  Status Error(const std::string& what) const {
    std::string msg = source_;
    msg += ":";
    msg += std::to_string(line_);
    msg += ": ";
    msg += what;
    msg += ", found ";
    if (pos_ >= t_.size()) {
      msg += "the end of the text";
    } else {
      msg += '\'';
      msg += Snippet();
      msg += '\'';
    }
    return InvalidArgument(msg);
  }
  Status ErrorAt(int line, const std::string& what) const {
    return InvalidArgument(source_ + ":" + std::to_string(line) + ": " + what);
  }
  std::string Snippet() const {
    size_t end = pos_;
    while (end < t_.size() && end - pos_ < 24 && t_[end] != '\n') ++end;
    return t_.substr(pos_, end - pos_);
  }

  bool StartsWith(const char* s) const { return t_.compare(pos_, std::strlen(s), s) == 0; }
  bool AtSubgraphComment() const { return StartsWith("// subgraph "); }

  // Spaces, newlines and comments; "// subgraph" stops it (it is structure).
  void SkipSpace() {
    while (pos_ < t_.size()) {
      const char c = t_[pos_];
      if (c == '\n') {
        ++line_;
        ++pos_;
      } else if (c == ' ' || c == '\t' || c == '\r') {
        ++pos_;
      } else if (c == '#' || (StartsWith("//") && !AtSubgraphComment())) {
        while (pos_ < t_.size() && t_[pos_] != '\n') ++pos_;
      } else {
        break;
      }
    }
  }
  // Spaces within a line.
  void SkipBlanks() {
    while (pos_ < t_.size() && (t_[pos_] == ' ' || t_[pos_] == '\t' || t_[pos_] == '\r')) ++pos_;
  }
  bool Accept(char c) {
    SkipBlanks();
    if (pos_ < t_.size() && t_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  bool AcceptWord(const char* w) {
    SkipBlanks();
    const size_t n = std::strlen(w);
    if (t_.compare(pos_, n, w) != 0) return false;
    if (pos_ + n < t_.size() && IsNameChar(t_[pos_ + n])) return false;
    pos_ += n;
    return true;
  }
  Status Expect(char c, const std::string& where) {
    if (Accept(c)) return Status::Ok();
    return Error(std::string("expected '") + c + "' " + where);
  }

  Result<std::string> QuotedString() {
    // At the opening quote.
    std::string out;
    const int start = line_;
    ++pos_;
    while (pos_ < t_.size() && t_[pos_] != '"') {
      char c = t_[pos_++];
      if (c == '\n') ++line_;
      if (c == '\\') {
        if (pos_ >= t_.size()) break;
        c = t_[pos_++];
        if (c == 'n') c = '\n';
        else if (c != '"' && c != '\\') return Error(std::string("unknown escape \\") + c + " in a string");
      }
      out += c;
    }
    if (pos_ >= t_.size()) return ErrorAt(start, "a string that is never closed");
    ++pos_;
    return out;
  }

  // A bare name (letters, digits, _ . - / @ $) or a quoted one.
  Result<std::string> Name(const std::string& what) {
    SkipBlanks();
    if (pos_ < t_.size() && t_[pos_] == '"') return QuotedString();
    const size_t start = pos_;
    while (pos_ < t_.size() && IsNameChar(t_[pos_])) ++pos_;
    if (pos_ == start) return Error("expected " + what);
    return t_.substr(start, pos_ - start);
  }

  // Digits, signs, '.', exponents, nan and inf.
  std::string NumberToken() {
    SkipBlanks();
    const size_t start = pos_;
    if (pos_ < t_.size() && (t_[pos_] == '-' || t_[pos_] == '+')) ++pos_;
    if (StartsWith("nan")) pos_ += 3;
    else if (StartsWith("inf")) pos_ += 3;
    else
      while (pos_ < t_.size() && (std::isdigit(static_cast<unsigned char>(t_[pos_])) || t_[pos_] == '.' || t_[pos_] == 'e' ||
                                  t_[pos_] == 'E' || ((t_[pos_] == '-' || t_[pos_] == '+') && (t_[pos_ - 1] == 'e' || t_[pos_ - 1] == 'E'))))
        ++pos_;
    return t_.substr(start, pos_ - start);
  }
  static bool IsFloatToken(const std::string& s) { return s.find_first_of(".eEni") != std::string::npos; }
  Result<int64_t> ToInt(const std::string& s) {
    char* end = nullptr;
    errno = 0;
    const long long v = std::strtoll(s.c_str(), &end, 10);
    if (s.empty() || *end != '\0' || errno != 0) return Error("expected an integer");
    return static_cast<int64_t>(v);
  }
  Result<double> ToDouble(const std::string& s) {
    char* end = nullptr;
    const double v = std::strtod(s.c_str(), &end);
    if (s.empty() || *end != '\0') return Error("expected a number");
    return v;
  }

  // DTYPE[dims]{FORMAT}
  Result<TensorDesc> Desc() {
    GE_ASSIGN_OR_RETURN(std::string dt, Name("a tensor desc (f32[1,3])"));
    TensorDesc d;
    d.dtype = DataTypeFromName(dt);
    if (d.dtype == DataType::kUndefined && dt != DataTypeName(DataType::kUndefined))
      return Error("unknown element type '" + dt + "'");
    if (!Accept('[')) return Error("expected '[' after the element type " + dt);
    if (Accept('*')) {
      d.dims = {kUnknownRank};
      GE_RETURN_IF_ERROR(Expect(']', "after [* (unknown rank)"));
    } else if (!Accept(']')) {
      for (;;) {
        SkipBlanks();
        const size_t start = pos_;
        while (pos_ < t_.size() && t_[pos_] != ',' && t_[pos_] != ']' && t_[pos_] != '\n') ++pos_;
        std::string dim = t_.substr(start, pos_ - start);
        while (!dim.empty() && dim.back() == ' ') dim.pop_back();
        if (dim.empty()) return Error("expected a dimension");
        if (std::isdigit(static_cast<unsigned char>(dim[0]))) {
          GE_ASSIGN_OR_RETURN(int64_t v, ToInt(dim));
          d.dims.push_back(v);
        } else {
          d.dims.push_back(kUnknownDim);  // "?" or a symbolic dim's name
        }
        if (Accept(']')) break;
        GE_RETURN_IF_ERROR(Expect(',', "or ']' between dimensions"));
      }
    }
    if (Accept('{')) {
      SkipBlanks();
      const size_t start = pos_;
      while (pos_ < t_.size() && t_[pos_] != '}' && t_[pos_] != '\n') ++pos_;
      const std::string f = t_.substr(start, pos_ - start);
      bool found = false;
      for (int k = 0; k <= static_cast<int>(kLastFormat); ++k)
        if (f == FormatName(static_cast<Format>(k))) {
          d.format = static_cast<Format>(k);
          found = true;
        }
      if (!found) return Error("unknown format '" + f + "'");
      GE_RETURN_IF_ERROR(Expect('}', "after the format"));
    }
    return d;
  }

  // tensor<DESC> or tensor<DESC [v,...]>: values in the desc's element type.
  Result<Tensor> TensorValue() {
    GE_ASSIGN_OR_RETURN(TensorDesc d, Desc());
    std::vector<std::string> values;
    bool listed = false;
    if (Accept('[')) {
      listed = true;
      if (!Accept(']'))
        for (;;) {
          std::string v = NumberToken();
          if (v.empty()) return Error("expected a tensor element");
          values.push_back(v);
          if (Accept(']')) break;
          GE_RETURN_IF_ERROR(Expect(',', "or ']' between tensor elements"));
        }
    }
    GE_RETURN_IF_ERROR(Expect('>', "closing the tensor"));
    if (!d.is_static()) {
      if (listed) return Error("a tensor of unknown shape " + d.ToString() + " cannot list values");
      return Tensor(d, std::vector<uint8_t>{});
    }
    const int64_t bytes = d.Bytes();
    const size_t size = DataTypeSize(d.dtype);
    if (bytes < 0 || bytes > (int64_t{1} << 32)) return Error("the tensor " + d.ToString() + " is too large");
    std::vector<uint8_t> data(static_cast<size_t>(bytes), 0);
    if (!listed) return Tensor(d, std::move(data));  // values not printed: zeros
    if (static_cast<int64_t>(values.size()) != d.NumElements())
      return Error("the tensor " + d.ToString() + " lists " + std::to_string(values.size()) + " values");
    for (size_t i = 0; i < values.size(); ++i) {
      uint8_t* p = data.data() + i * size;
      if (IsFloatingPoint(d.dtype)) {
        GE_ASSIGN_OR_RETURN(double v, ToDouble(values[i]));
        const float f = static_cast<float>(v);
        uint16_t h = 0;
        switch (d.dtype) {
          case DataType::kFloat32: std::memcpy(p, &f, 4); break;
          case DataType::kFloat64: std::memcpy(p, &v, 8); break;
          case DataType::kFloat16: h = FloatToHalf(f); std::memcpy(p, &h, 2); break;
          case DataType::kBFloat16: h = FloatToBFloat16(f); std::memcpy(p, &h, 2); break;
          default: return Error("unsupported tensor element type");
        }
      } else {
        GE_ASSIGN_OR_RETURN(int64_t v, ToInt(values[i]));
        // Little-endian truncation to the element size (the hosts we run on).
        std::memcpy(p, &v, size);
      }
    }
    return Tensor(d, std::move(data));
  }

  // One attribute value. A graph<...> value is resolved later.
  Status AttrValueInto(const std::string& key, NodeLine& n) {
    SkipBlanks();
    if (pos_ >= t_.size()) return Error("expected an attribute value");
    const char c = t_[pos_];
    if (c == '"') {
      GE_ASSIGN_OR_RETURN(std::string s, QuotedString());
      n.attrs[key] = s;
    } else if (AcceptWord("true")) {
      n.attrs[key] = true;
    } else if (AcceptWord("false")) {
      n.attrs[key] = false;
    } else if (StartsWith("floats[]")) {
      pos_ += 8;
      n.attrs[key] = std::vector<float>{};
    } else if (StartsWith("strings[]")) {
      pos_ += 9;
      n.attrs[key] = std::vector<std::string>{};
    } else if (StartsWith("tensor<")) {
      pos_ += 7;
      GE_ASSIGN_OR_RETURN(Tensor t, TensorValue());
      n.attrs[key] = std::move(t);
    } else if (StartsWith("graph<")) {
      pos_ += 6;
      GE_ASSIGN_OR_RETURN(std::string g, Name("a graph name"));
      GE_RETURN_IF_ERROR(Expect('>', "closing graph<"));
      n.graph_attrs.push_back({key, g, line_});
    } else if (c == '[') {
      ++pos_;
      std::vector<std::string> strings;
      std::vector<std::string> numbers;
      if (!Accept(']'))
        for (;;) {
          SkipBlanks();
          if (pos_ < t_.size() && t_[pos_] == '"') {
            if (!numbers.empty()) return Error("a list mixes strings and numbers");
            GE_ASSIGN_OR_RETURN(std::string s, QuotedString());
            strings.push_back(s);
          } else {
            if (!strings.empty()) return Error("a list mixes strings and numbers");
            std::string v = NumberToken();
            if (v.empty()) return Error("expected a list element");
            numbers.push_back(v);
          }
          if (Accept(']')) break;
          GE_RETURN_IF_ERROR(Expect(',', "or ']' between list elements"));
        }
      bool floats = false;
      for (const auto& v : numbers) floats |= IsFloatToken(v);
      if (!strings.empty()) {
        n.attrs[key] = strings;
      } else if (floats) {
        std::vector<float> f;
        for (const auto& v : numbers) {
          GE_ASSIGN_OR_RETURN(double d, ToDouble(v));
          f.push_back(static_cast<float>(d));
        }
        n.attrs[key] = f;
      } else {
        std::vector<int64_t> ints;
        for (const auto& v : numbers) {
          GE_ASSIGN_OR_RETURN(int64_t i, ToInt(v));
          ints.push_back(i);
        }
        n.attrs[key] = ints;
      }
    } else {
      std::string v = NumberToken();
      if (v.empty()) return Error("expected an attribute value (number, \"string\", true, false, [list], tensor<...>, graph<...>)");
      if (IsFloatToken(v)) {
        GE_ASSIGN_OR_RETURN(double d, ToDouble(v));
        n.attrs[key] = static_cast<float>(d);
      } else {
        GE_ASSIGN_OR_RETURN(int64_t i, ToInt(v));
        n.attrs[key] = i;
      }
    }
    return Status::Ok();
  }

  // %name = Type[attrs](inputs) ^(controls) -> (descs)
  Result<NodeLine> ParseNodeLine() {
    NodeLine n;
    n.line = line_;
    if (!Accept('%')) return Error("expected a node line (%name = Type(...) -> (...)) or '}'");
    GE_ASSIGN_OR_RETURN(n.name, Name("a node name after %"));
    GE_RETURN_IF_ERROR(Expect('=', "after the node name " + n.name));
    GE_ASSIGN_OR_RETURN(n.type, Name("the op type of " + n.name));
    if (Accept('[')) {
      if (!Accept(']'))
        for (;;) {
          GE_ASSIGN_OR_RETURN(std::string key, Name("an attribute name"));
          if (n.attrs.count(key)) return Error("attribute " + key + " of " + n.name + " is given twice");
          GE_RETURN_IF_ERROR(Expect('=', "after the attribute name " + key));
          GE_RETURN_IF_ERROR(AttrValueInto(key, n));
          if (Accept(']')) break;
          GE_RETURN_IF_ERROR(Expect(',', "or ']' between the attributes of " + n.name));
        }
    }
    GE_RETURN_IF_ERROR(Expect('(', "opening the inputs of " + n.name));
    if (!Accept(')'))
      for (;;) {
        InputRef in;
        if (Accept('%')) {
          GE_ASSIGN_OR_RETURN(in.node, Name("an input's node name"));
          GE_RETURN_IF_ERROR(Expect(':', "and an output index after the input %" + in.node));
          GE_ASSIGN_OR_RETURN(in.index, ToInt(NumberToken()));
        } else if (!Accept('_')) {
          return Error("expected an input (%node:index or _)");
        }
        n.inputs.push_back(in);
        if (Accept(')')) break;
        GE_RETURN_IF_ERROR(Expect(',', "or ')' between the inputs of " + n.name));
      }
    if (Accept('^')) {
      GE_RETURN_IF_ERROR(Expect('(', "after ^ (control inputs)"));
      for (;;) {
        GE_RETURN_IF_ERROR(Expect('%', "before a control input's name"));
        GE_ASSIGN_OR_RETURN(std::string c, Name("a control input's node name"));
        n.controls.push_back({c, line_});
        if (Accept(')')) break;
        GE_RETURN_IF_ERROR(Expect(',', "or ')' between control inputs"));
      }
    }
    SkipBlanks();
    if (!StartsWith("->")) return Error("expected '-> (output descs)' after the inputs of " + n.name);
    pos_ += 2;
    GE_RETURN_IF_ERROR(Expect('(', "opening the output descs of " + n.name));
    if (!Accept(')'))
      for (;;) {
        GE_ASSIGN_OR_RETURN(TensorDesc d, Desc());
        n.outputs.push_back(d);
        if (Accept(')')) break;
        GE_RETURN_IF_ERROR(Expect(',', "or ')' between the output descs of " + n.name));
      }
    SkipBlanks();
    if (pos_ < t_.size() && t_[pos_] != '\n' && t_[pos_] != '#' && !StartsWith("//"))
      return Error("expected the end of the line after the node " + n.name);
    return n;
  }

  // graph NAME { lines }
  Result<std::unique_ptr<Graph>> ParseGraph() {
    if (!AcceptWord("graph")) return Error("expected 'graph NAME {'");
    if (++depth_ > kMaxSubgraphNesting)
      return Error("subgraphs nested too deep (more than " + std::to_string(kMaxSubgraphNesting) + " levels)");
    GE_ASSIGN_OR_RETURN(std::string name, Name("the graph's name"));
    GE_RETURN_IF_ERROR(Expect('{', "after graph " + name));
    auto g = std::make_unique<Graph>(name);
    std::vector<NodeLine> lines;
    std::map<std::string, Node*> nodes;
    for (;;) {
      SkipSpace();
      if (pos_ >= t_.size()) return Error("expected '}' closing graph " + name);
      if (Accept('}')) break;
      if (AtSubgraphComment()) {
        const int line = line_;
        pos_ += std::strlen("// subgraph ");
        GE_ASSIGN_OR_RETURN(std::string key, Name("the subgraph's key"));
        if (!AcceptWord("of")) return Error("expected 'of NODE' after // subgraph " + key);
        GE_ASSIGN_OR_RETURN(std::string owner, Name("the subgraph's node"));
        auto it = nodes.find(owner);
        if (it == nodes.end()) return ErrorAt(line, "subgraph " + key + " of " + owner + ": no node " + owner + " before it in graph " + name);
        SkipSpace();
        GE_ASSIGN_OR_RETURN(auto sub, ParseGraph());
        if (it->second->subgraphs().count(key)) return ErrorAt(line, "node " + owner + " has two subgraphs " + key);
        it->second->subgraphs()[key] = std::shared_ptr<Graph>(std::move(sub));
        continue;
      }
      GE_ASSIGN_OR_RETURN(NodeLine n, ParseNodeLine());
      if (nodes.count(n.name)) return ErrorAt(n.line, "node " + n.name + " is defined twice in graph " + name);
      Node* node = g->AddNode(n.type, n.name, n.inputs.size(), n.outputs.size());
      for (auto& [k, v] : n.attrs) node->SetAttr(k, std::move(v));
      for (size_t i = 0; i < n.outputs.size(); ++i) node->output_desc(i) = n.outputs[i];
      nodes[n.name] = node;
      lines.push_back(std::move(n));
    }
    --depth_;
    // Edges, control edges and graph attributes, now every node exists.
    for (const NodeLine& n : lines) {
      Node* dst = nodes.at(n.name);
      for (size_t i = 0; i < n.inputs.size(); ++i) {
        const InputRef& in = n.inputs[i];
        if (in.node.empty()) continue;
        auto it = nodes.find(in.node);
        if (it == nodes.end()) return ErrorAt(n.line, "input " + std::to_string(i) + " of " + n.name + " names node " + in.node + ", which graph " + name + " does not have");
        if (in.index < 0 || static_cast<size_t>(in.index) >= it->second->num_outputs())
          return ErrorAt(n.line, "input " + std::to_string(i) + " of " + n.name + " is output " + std::to_string(in.index) + " of " +
                                     in.node + ", which has " + std::to_string(it->second->num_outputs()) + " output(s)");
        GE_RETURN_IF_ERROR(g->AddEdge(it->second, static_cast<int>(in.index), dst, static_cast<int>(i)));
      }
      for (const auto& [c, line] : n.controls) {
        auto it = nodes.find(c);
        if (it == nodes.end()) return ErrorAt(line, "control input " + c + " of " + n.name + " is not a node of graph " + name);
        g->AddControlEdge(it->second, dst);
      }
      for (const PendingGraphAttr& a : n.graph_attrs) {
        std::shared_ptr<Graph> found;
        for (const auto& [k, sg] : dst->subgraphs())
          if (sg && sg->name() == a.graph) found = sg;
        if (!found) return ErrorAt(a.line, "attribute " + a.key + " of " + n.name + " names graph " + a.graph + ", which is not one of its subgraphs");
        dst->SetAttr(a.key, found);
      }
    }
    return g;
  }

  const std::string& t_;
  const std::string& source_;
  size_t pos_ = 0;
  int line_ = 1;
  int depth_ = 0;  // graphs open around the current position
};

}  // namespace

Result<std::unique_ptr<Graph>> ParseGraphText(const std::string& text, const std::string& source_name) {
  return Parser(text, source_name).ParseFile();
}

Result<std::unique_ptr<Graph>> ReadGraphTextFile(const std::string& path) {
  GE_ASSIGN_OR_RETURN(std::string text, ReadRegularFile(path));
  return ParseGraphText(text, path);
}

}  // namespace ge
