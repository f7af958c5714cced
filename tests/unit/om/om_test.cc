// The .om container (libge/om, docs/om-format.md): round trips, determinism,
// the byte layout, and that no truncated, bit-flipped or hand-crafted file
// makes ParseOm do anything but return an error.
#include "ge/om.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstddef>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "compiler/memory/memory_planner.h"
#include "compiler/tasks/task_builder.h"
#include "ge/ir/nesting.h"
#include "ge/ir/text_form.h"
#include "ge/model.h"
#include "om.pb.h"
#include "om/om_layout.h"
#include "tests/common/refusal.h"
#include "tests/common/temp_leftovers.h"

namespace ge {
namespace {

namespace fs = std::filesystem;

TensorDesc F32(std::vector<int64_t> dims) { return TensorDesc(DataType::kFloat32, std::move(dims)); }

// x (Data) -> Add(x, c) -> Relu -> NetOutput, as a compiler would leave it.
Model SmallModel() {
  Model m;
  m.name = "small";
  m.producer = "ge-atc 0.1.0";
  m.framework = "onnx";
  m.source_sha256 = std::string(64, 'a');
  m.options = {{"out_nodes", "relu"}, {"input_shape", "x:1,4"}};  // unsorted on purpose
  m.graph = std::make_unique<Graph>("small_graph");
  Graph* g = m.graph.get();
  Node* x = g->AddNode(op::kData, "x", 0, 1);
  x->SetAttr("index", int64_t{0});
  x->output_desc(0) = F32({1, 4});
  Node* c = g->AddNode(op::kConst, "c", 0, 1);
  c->SetAttr("value", Tensor::FromVector<float>(DataType::kFloat32, {1, 4}, {1.5f, -2.f, 3.25f, -4.f}));
  c->output_desc(0) = F32({1, 4});
  Node* add = g->AddNode("Add", "add", 2, 1);
  add->output_desc(0) = F32({1, 4});
  Node* relu = g->AddNode("Relu", "relu", 1, 1);
  relu->output_desc(0) = F32({1, 4});
  Node* out = g->AddNode(op::kNetOutput, "out", 1, 0);
  out->SetAttr("output_names", std::vector<std::string>{"y"});
  EXPECT_TRUE(g->AddEdge(x, 0, add, 0).ok());
  EXPECT_TRUE(g->AddEdge(c, 0, add, 1).ok());
  EXPECT_TRUE(g->AddEdge(add, 0, relu, 0).ok());
  EXPECT_TRUE(g->AddEdge(relu, 0, out, 0).ok());
  DescribeModelIo(m);
  return m;
}

// A subgraph: Data -> Relu -> NetOutput.
std::shared_ptr<Graph> Branch(const std::string& name) {
  auto g = std::make_shared<Graph>(name);
  Node* d = g->AddNode(op::kData, name + "_in", 0, 1);
  d->SetAttr("index", int64_t{0});
  d->output_desc(0) = F32({2});
  Node* r = g->AddNode("Relu", name + "_relu", 1, 1);
  r->output_desc(0) = F32({2});
  Node* o = g->AddNode(op::kNetOutput, name + "_out", 1, 0);
  EXPECT_TRUE(g->AddEdge(d, 0, r, 0).ok());
  EXPECT_TRUE(g->AddEdge(r, 0, o, 0).ok());
  return g;
}

// Two inputs, two outputs, an attribute of every AttrValue kind (and empty
// lists), constants of odd sizes and several dtypes, a subgraph, a control
// edge, an absent optional input and non-ND formats.
Model RichModel() {
  Model m;
  m.name = "rich";
  m.producer = "ge-atc 0.1.0";
  m.framework = "tensorflow";
  m.source_sha256 = std::string(64, '0');
  m.options = {{"b", "2"}, {"a", "1"}, {"c", ""}};
  m.graph = std::make_unique<Graph>("rich_graph");
  Graph* g = m.graph.get();
  Node* x0 = g->AddNode(op::kData, "x0", 0, 1);
  x0->SetAttr("index", int64_t{0});
  x0->output_desc(0) = TensorDesc(DataType::kFloat32, {1, 3, 5, 5}, Format::kNCHW);
  Node* x1 = g->AddNode(op::kData, "x1", 0, 1);
  x1->SetAttr("index", int64_t{1});
  x1->output_desc(0) = TensorDesc(DataType::kInt64, {1, 7});
  // Constants whose sizes are not multiples of 64, so alignment padding shows.
  Node* w = g->AddNode(op::kConst, "w", 0, 1);
  std::vector<float> wv(3 * 3 * 3 * 3);
  for (size_t i = 0; i < wv.size(); ++i) wv[i] = 0.25f * static_cast<float>(i) - 3.f;
  w->SetAttr("value", Tensor::FromVector(DataType::kFloat32, {3, 3, 3, 3}, wv));
  w->output_desc(0) = F32({3, 3, 3, 3});
  Node* b = g->AddNode(op::kConst, "b", 0, 1);
  b->SetAttr("value", Tensor::FromVector<uint8_t>(DataType::kUInt8, {5}, {1, 2, 3, 4, 5}));
  b->output_desc(0) = TensorDesc(DataType::kUInt8, {5});
  Node* s = g->AddNode(op::kConst, "scalar", 0, 1);
  s->SetAttr("value", Tensor::FromVector<double>(DataType::kFloat64, {}, {2.5}));
  s->output_desc(0) = TensorDesc(DataType::kFloat64, {});
  Node* e = g->AddNode(op::kConst, "empty", 0, 1);
  e->SetAttr("value", Tensor(TensorDesc(DataType::kFloat32, {0, 4}), std::vector<uint8_t>{}));
  e->output_desc(0) = F32({0, 4});
  Node* bools = g->AddNode(op::kConst, "bools", 0, 1);
  bools->SetAttr("value", Tensor::FromVector<uint8_t>(DataType::kBool, {3}, {1, 0, 1}));
  bools->output_desc(0) = TensorDesc(DataType::kBool, {3});

  Node* conv = g->AddNode("Conv", "conv", 3, 1);  // input 2 (bias) absent
  conv->SetAttr("a_int", int64_t{-7});
  conv->SetAttr("b_float", 0.1f);
  conv->SetAttr("c_string", std::string("SAME \"quoted\"\n"));
  conv->SetAttr("d_bool", true);
  conv->SetAttr("d_bool_false", false);
  conv->SetAttr("e_ints", std::vector<int64_t>{1, -1, int64_t{1} << 40});
  conv->SetAttr("f_floats", std::vector<float>{0.5f, -1e-7f, 3e38f});
  conv->SetAttr("g_strings", std::vector<std::string>{"a", "", "c"});
  conv->SetAttr("h_tensor", Tensor::FromVector<int32_t>(DataType::kInt32, {2, 3}, {1, 2, 3, 4, 5, 6}));
  conv->SetAttr("i_graph", std::shared_ptr<Graph>(Branch("attr_graph")));
  conv->SetAttr("j_empty_ints", std::vector<int64_t>{});
  conv->SetAttr("k_empty_floats", std::vector<float>{});
  conv->SetAttr("l_empty_strings", std::vector<std::string>{});
  conv->output_desc(0) = TensorDesc(DataType::kFloat32, {1, 3, 3, 3}, Format::kBlocked);
  Node* iff = g->AddNode("If", "if", 1, 1);
  iff->subgraphs()["then_branch"] = Branch("then");
  iff->subgraphs()["else_branch"] = Branch("else");
  iff->output_desc(0) = TensorDesc(DataType::kInt64, {1, 7}, Format::kNHWC);
  Node* out = g->AddNode(op::kNetOutput, "out", 2, 0);
  EXPECT_TRUE(g->AddEdge(x0, 0, conv, 0).ok());
  EXPECT_TRUE(g->AddEdge(w, 0, conv, 1).ok());
  EXPECT_TRUE(g->AddEdge(x1, 0, iff, 0).ok());
  EXPECT_TRUE(g->AddEdge(conv, 0, out, 0).ok());
  EXPECT_TRUE(g->AddEdge(iff, 0, out, 1).ok());
  g->AddControlEdge(b, conv);
  g->AddControlEdge(s, iff);
  g->AddControlEdge(e, out);
  g->AddControlEdge(bools, out);
  DescribeModelIo(m);
  return m;
}

std::string Serialize(const Model& m) {
  auto bytes = SerializeOm(m);
  EXPECT_TRUE(bytes.ok()) << bytes.status().ToString();
  return bytes.ok() ? *bytes : std::string();
}

// ---- reading and re-assembling the container by hand (docs/om-format.md) ----

struct Layout {
  om::Header header;
  std::vector<om::SectionEntry> table;
};

Layout ReadLayout(const std::string& bytes) {
  Layout l;
  EXPECT_GE(bytes.size(), sizeof(om::Header));
  std::memcpy(&l.header, bytes.data(), sizeof(om::Header));
  l.table.resize(l.header.section_count);
  for (uint32_t i = 0; i < l.header.section_count; ++i)
    std::memcpy(&l.table[i], bytes.data() + l.header.section_table_offset + i * sizeof(om::SectionEntry),
                sizeof(om::SectionEntry));
  return l;
}

std::string SectionBytes(const std::string& file, uint32_t type) {
  for (const om::SectionEntry& s : ReadLayout(file).table)
    if (s.type == type) return file.substr(s.offset, s.size);
  ADD_FAILURE() << "no section of type " << type;
  return {};
}

struct RawSection {
  uint32_t type;
  std::string bytes;
};

// Lays out sections as the format says, with correct CRCs, so a test can
// change one thing and still get past the checksums.
std::string Assemble(const std::vector<RawSection>& sections, uint32_t major = kOmVersionMajor,
                     uint32_t minor = kOmVersionMinor) {
  auto align = [](size_t v) { return (v + 63) / 64 * 64; };
  std::vector<om::SectionEntry> table(sections.size());
  size_t offset = align(om::kHeaderSize + sections.size() * om::kSectionEntrySize);
  for (size_t i = 0; i < sections.size(); ++i) {
    std::memset(&table[i], 0, sizeof(table[i]));
    table[i].type = sections[i].type;
    table[i].offset = offset;
    table[i].size = sections[i].bytes.size();
    table[i].crc = Crc32(sections[i].bytes.data(), sections[i].bytes.size());
    offset = align(offset + sections[i].bytes.size());
  }
  const size_t file_size = table.back().offset + table.back().size;
  om::Header h;
  std::memset(&h, 0, sizeof(h));
  std::memcpy(h.magic, om::kMagic, sizeof(h.magic));
  h.version_major = major;
  h.version_minor = minor;
  h.header_size = om::kHeaderSize;
  h.section_count = static_cast<uint32_t>(sections.size());
  h.section_table_offset = om::kHeaderSize;
  h.file_size = file_size;
  h.table_crc = Crc32(table.data(), table.size() * sizeof(om::SectionEntry));
  h.header_crc = Crc32(&h, sizeof(h));
  std::string out(file_size, '\0');
  std::memcpy(out.data(), &h, sizeof(h));
  std::memcpy(out.data() + om::kHeaderSize, table.data(), table.size() * sizeof(om::SectionEntry));
  for (size_t i = 0; i < sections.size(); ++i)
    std::memcpy(out.data() + table[i].offset, sections[i].bytes.data(), sections[i].bytes.size());
  return out;
}

// Rewrites the header (with a fresh header CRC) after `edit` changed it.
template <typename F>
std::string EditHeader(std::string file, F edit) {
  om::Header h;
  std::memcpy(&h, file.data(), sizeof(h));
  edit(h);
  h.header_crc = 0;
  h.header_crc = Crc32(&h, sizeof(h));
  std::memcpy(file.data(), &h, sizeof(h));
  return file;
}

// Rewrites the section table (and then the header) after `edit` changed it.
template <typename F>
std::string EditTable(std::string file, F edit) {
  Layout l = ReadLayout(file);
  edit(l.table);
  std::memcpy(file.data() + om::kHeaderSize, l.table.data(), l.table.size() * sizeof(om::SectionEntry));
  const uint32_t table_crc = Crc32(l.table.data(), l.table.size() * sizeof(om::SectionEntry));
  return EditHeader(std::move(file), [&](om::Header& h) { h.table_crc = table_crc; });
}

om::ModelDef ModelDefOf(const std::string& file) {
  om::ModelDef def;
  const std::string bytes = SectionBytes(file, om::kSectionModelDef);
  EXPECT_TRUE(def.ParseFromString(bytes));
  return def;
}

// A file with `def` as its model definition and `file`'s weights, every
// checksum correct: only the decoder's own checks can reject it.
std::string WithModelDef(const std::string& file, const om::ModelDef& def) {
  std::string def_bytes;
  EXPECT_TRUE(def.SerializeToString(&def_bytes));
  return Assemble({{om::kSectionModelDef, def_bytes}, {om::kSectionWeights, SectionBytes(file, om::kSectionWeights)}});
}

// Parses from an exactly-sized heap copy, so a read past the end is a real
// out-of-bounds read (caught under GE_SANITIZE) rather than a read of the
// rest of a larger string.
Result<LoadedOm> ParseCopy(const std::string& bytes, size_t len, const std::string& origin) {
  std::unique_ptr<uint8_t[]> buf(new uint8_t[len == 0 ? 1 : len]);
  if (len) std::memcpy(buf.get(), bytes.data(), len);
  return ParseOm(buf.get(), len, origin);
}

const Node* ConstNamed(const Model& m, const std::string& name) {
  const Node* n = m.graph->FindNode(name);
  EXPECT_NE(n, nullptr) << name;
  return n;
}

void ExpectSameTensor(const Tensor* a, const Tensor* b, const std::string& what) {
  ASSERT_NE(a, nullptr) << what;
  ASSERT_NE(b, nullptr) << what;
  EXPECT_EQ(a->desc(), b->desc()) << what;
  ASSERT_EQ(a->size(), b->size()) << what;
  if (a->size()) {
    EXPECT_EQ(std::memcmp(a->data(), b->data(), a->size()), 0) << what << ": bytes differ";
  }
}

void ExpectSameIo(const std::vector<IoDesc>& a, const std::vector<IoDesc>& b) {
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].name, b[i].name) << i;
    EXPECT_EQ(a[i].desc, b[i].desc) << i << ": " << a[i].desc.ToString() << " vs " << b[i].desc.ToString();
  }
}

std::vector<std::pair<std::string, std::string>> Sorted(std::vector<std::pair<std::string, std::string>> v) {
  std::sort(v.begin(), v.end());
  return v;
}

class OmFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::temp_directory_path() /
           ("ge_om_test_" + std::to_string(::getpid()) + "_" + info->test_suite_name() + "_" + info->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  std::string Path(const std::string& name) const { return (dir_ / name).string(); }
  static void WriteBytes(const std::string& path, const std::string& bytes) {
    std::ofstream f(path, std::ios::binary | std::ios::trunc);
    f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    ASSERT_TRUE(f.good()) << path;
  }
  static std::string ReadBytes(const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  }
  fs::path dir_;
};

// ---------------------------------------------------------------- round trips

TEST(OmRoundTrip, SmallModelKeepsGraphConstantsIoAndOptions) {
  Model m = SmallModel();
  ASSERT_EQ(m.inputs.size(), 1u);
  ASSERT_EQ(m.outputs.size(), 1u);
  EXPECT_EQ(m.outputs[0].name, "y");  // DescribeModelIo honours output_names
  const std::string bytes = Serialize(m);
  ASSERT_FALSE(bytes.empty());
  auto loaded = ParseOm(bytes.data(), bytes.size(), "small.om");
  ASSERT_TRUE(loaded.ok()) << loaded.status().ToString();
  const Model& r = loaded->model;
  EXPECT_EQ(loaded->version_major, kOmVersionMajor);
  EXPECT_EQ(loaded->version_minor, kOmVersionMinor);
  EXPECT_EQ(r.name, "small");
  EXPECT_EQ(r.producer, "ge-atc 0.1.0");
  EXPECT_EQ(r.framework, "onnx");
  EXPECT_EQ(r.source_sha256, m.source_sha256);
  ASSERT_NE(r.graph, nullptr);
  EXPECT_EQ(r.graph->name(), "small_graph");
  EXPECT_EQ(GraphToText(*r.graph), GraphToText(*m.graph));
  ExpectSameTensor(ConstNamed(m, "c")->GetTensor("value"), ConstNamed(r, "c")->GetTensor("value"), "c");
  ExpectSameIo(r.inputs, m.inputs);
  ExpectSameIo(r.outputs, m.outputs);
  EXPECT_EQ(r.inputs[0].name, "x");
  EXPECT_EQ(r.inputs[0].desc, F32({1, 4}));
  EXPECT_EQ(r.outputs[0].name, "y");
  // Options are stored sorted by key.
  EXPECT_EQ(r.options, (std::vector<std::pair<std::string, std::string>>{{"input_shape", "x:1,4"}, {"out_nodes", "relu"}}));
  EXPECT_GE(loaded->weights_size, 16u);
}

TEST(OmRoundTrip, RichModelKeepsEveryAttributeKindAndStructure) {
  Model m = RichModel();
  const std::string bytes = Serialize(m);
  auto loaded = ParseOm(bytes.data(), bytes.size(), "rich.om");
  ASSERT_TRUE(loaded.ok()) << loaded.status().ToString();
  const Model& r = loaded->model;
  EXPECT_EQ(GraphToText(*r.graph), GraphToText(*m.graph));
  ExpectSameIo(r.inputs, m.inputs);
  ExpectSameIo(r.outputs, m.outputs);
  EXPECT_EQ(r.options, Sorted(m.options));
  EXPECT_EQ(r.framework, "tensorflow");
  for (const char* c : {"w", "b", "scalar", "empty", "bools"})
    ExpectSameTensor(ConstNamed(m, c)->GetTensor("value"), ConstNamed(r, c)->GetTensor("value"), c);

  const Node* conv = r.graph->FindNode("conv");
  ASSERT_NE(conv, nullptr);
  const Node* orig = m.graph->FindNode("conv");
  ASSERT_EQ(conv->attrs().size(), orig->attrs().size());
  for (const auto& [k, v] : orig->attrs()) {
    const AttrValue* got = conv->FindAttr(k);
    ASSERT_NE(got, nullptr) << k;
    EXPECT_EQ(got->index(), v.index()) << k << ": attribute kind changed";  // empty lists keep their type
  }
  EXPECT_EQ(conv->GetInt("a_int"), -7);
  EXPECT_EQ(conv->GetFloat("b_float"), 0.1f);
  EXPECT_EQ(conv->GetString("c_string"), "SAME \"quoted\"\n");
  EXPECT_TRUE(conv->GetBool("d_bool"));
  EXPECT_FALSE(conv->GetBool("d_bool_false", true));
  EXPECT_EQ(conv->GetInts("e_ints"), (std::vector<int64_t>{1, -1, int64_t{1} << 40}));
  EXPECT_EQ(conv->GetFloats("f_floats"), (std::vector<float>{0.5f, -1e-7f, 3e38f}));
  EXPECT_EQ(conv->GetStrings("g_strings"), (std::vector<std::string>{"a", "", "c"}));
  ExpectSameTensor(orig->GetTensor("h_tensor"), conv->GetTensor("h_tensor"), "h_tensor");
  auto sg = conv->GetGraph("i_graph");
  ASSERT_NE(sg, nullptr);
  EXPECT_EQ(GraphToText(*sg), GraphToText(*orig->GetGraph("i_graph")));
  // Absent optional input stays absent.
  EXPECT_EQ(conv->num_inputs(), 3u);
  EXPECT_FALSE(conv->HasInput(2));
  // Control edges and subgraphs.
  ASSERT_EQ(conv->control_inputs().size(), 1u);
  EXPECT_EQ(conv->control_inputs()[0]->name(), "b");
  EXPECT_EQ(r.graph->FindNode("out")->control_inputs().size(), 2u);
  const Node* iff = r.graph->FindNode("if");
  ASSERT_NE(iff, nullptr);
  ASSERT_EQ(iff->subgraphs().size(), 2u);
  EXPECT_EQ(GraphToText(*iff->subgraphs().at("then_branch")), GraphToText(*Branch("then")));
  EXPECT_EQ(GraphToText(*iff->subgraphs().at("else_branch")), GraphToText(*Branch("else")));
  // Formats survive.
  EXPECT_EQ(conv->output_desc(0).format, Format::kBlocked);
  EXPECT_EQ(iff->output_desc(0).format, Format::kNHWC);
  EXPECT_EQ(r.inputs[0].desc.format, Format::kNCHW);
}

TEST(OmRoundTrip, ModelWithoutConstantsHasAnEmptyWeightsSection) {
  Model m;
  m.name = "noconst";
  m.graph = std::make_unique<Graph>("g");
  Node* x = m.graph->AddNode(op::kData, "x", 0, 1);
  x->SetAttr("index", int64_t{0});
  x->output_desc(0) = F32({2});
  Node* out = m.graph->AddNode(op::kNetOutput, "out", 1, 0);
  ASSERT_TRUE(m.graph->AddEdge(x, 0, out, 0).ok());
  DescribeModelIo(m);
  const std::string bytes = Serialize(m);
  auto loaded = ParseOm(bytes.data(), bytes.size(), "noconst.om");
  ASSERT_TRUE(loaded.ok()) << loaded.status().ToString();
  EXPECT_EQ(loaded->weights_size, 0u);
  EXPECT_EQ(GraphToText(*loaded->model.graph), GraphToText(*m.graph));
}

TEST(OmRoundTrip, WeightsAreSharedBetweenClonesOfTheLoadedGraph) {
  const std::string bytes = Serialize(SmallModel());
  auto loaded = ParseOm(bytes.data(), bytes.size(), "small.om");
  ASSERT_TRUE(loaded.ok()) << loaded.status().ToString();
  auto clone = loaded->model.graph->Clone();
  const Tensor* a = loaded->model.graph->FindNode("c")->GetTensor("value");
  const Tensor* b = clone->FindNode("c")->GetTensor("value");
  ASSERT_NE(a, nullptr);
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(a->data(), b->data());
}

TEST(OmSerialize, ModelWithoutGraphOrWithACycleIsAnError) {
  Model none;
  none.name = "none";
  EXPECT_TRUE(Refused(SerializeOm(none), StatusCode::kInternal, "model without a graph"));

  Model m = SmallModel();
  m.graph->AddControlEdge(m.graph->FindNode("relu"), m.graph->FindNode("add"));
  auto bytes = SerializeOm(m);
  EXPECT_TRUE(Refused(bytes, StatusCode::kInvalidArgument, "graph small_graph has a cycle through node add (Add)"));
  EXPECT_FALSE(bytes.status().message().empty());
}

// -------------------------------------------------------------- determinism

TEST(OmDeterminism, SerializingTwiceGivesIdenticalBytes) {
  const Model m = SmallModel();
  EXPECT_EQ(Serialize(m), Serialize(m));
  EXPECT_EQ(Serialize(SmallModel()), Serialize(SmallModel()));  // built twice
}

TEST(OmDeterminism, EveryAttributeKindSerialisesIdentically) {
  const Model m = RichModel();
  const std::string a = Serialize(m);
  EXPECT_EQ(a, Serialize(m));
  EXPECT_EQ(a, Serialize(RichModel()));
}

TEST(OmDeterminism, ParseThenSerializeReproducesTheFile) {
  for (const std::string& bytes : {Serialize(SmallModel()), Serialize(RichModel())}) {
    auto loaded = ParseOm(bytes.data(), bytes.size(), "m.om");
    ASSERT_TRUE(loaded.ok()) << loaded.status().ToString();
    EXPECT_EQ(Serialize(loaded->model), bytes);
  }
}

TEST(OmDeterminism, OptionOrderDoesNotMatter) {
  Model a = SmallModel();
  Model b = SmallModel();
  std::reverse(b.options.begin(), b.options.end());
  EXPECT_EQ(Serialize(a), Serialize(b));
}

TEST(OmDeterminism, DifferentContentGivesDifferentBytes) {
  Model a = SmallModel();
  Model b = SmallModel();
  b.graph->FindNode("c")->SetAttr("value", Tensor::FromVector<float>(DataType::kFloat32, {1, 4}, {1.5f, -2.f, 3.25f, 4.f}));
  EXPECT_NE(Serialize(a), Serialize(b));
}

// ------------------------------------------------------------------- layout

TEST(OmLayout, HeaderTableAndSectionsFollowTheFormat) {
  const std::string bytes = Serialize(RichModel());
  ASSERT_GE(bytes.size(), om::kHeaderSize);
  EXPECT_EQ(std::memcmp(bytes.data(), "GEOM\r\n\x1a\n", 8), 0);
  Layout l = ReadLayout(bytes);
  EXPECT_EQ(+l.header.version_major, 1u);
  EXPECT_EQ(+l.header.version_minor, 0u);
  EXPECT_EQ(+l.header.header_size, 64u);
  EXPECT_EQ(+l.header.section_table_offset, 64u);
  EXPECT_EQ(+l.header.file_size, bytes.size());
  for (uint8_t r : l.header.reserved) EXPECT_EQ(r, 0);
  ASSERT_EQ(+l.header.section_count, 2u);
  EXPECT_EQ(+l.header.table_crc, Crc32(bytes.data() + 64, 2 * om::kSectionEntrySize));
  om::Header h = l.header;
  h.header_crc = 0;
  EXPECT_EQ(+l.header.header_crc, Crc32(&h, sizeof(h)));

  std::set<uint32_t> types;
  uint64_t covered = 64 + 2 * om::kSectionEntrySize;
  for (const om::SectionEntry& s : l.table) {
    types.insert(+s.type);
    EXPECT_EQ(+s.offset % 64, 0u) << "section " << s.type;
    EXPECT_GE(+s.offset, covered);
    for (uint64_t i = covered; i < s.offset; ++i) EXPECT_EQ(bytes[i], '\0') << "padding byte " << i;
    EXPECT_EQ(+s.crc, Crc32(bytes.data() + s.offset, s.size));
    EXPECT_EQ(+s.flags, 0u);
    EXPECT_EQ(+s.reserved, 0u);
    covered = s.offset + s.size;
  }
  EXPECT_EQ(covered, bytes.size());
  EXPECT_EQ(types, (std::set<uint32_t>{om::kSectionModelDef, om::kSectionWeights}));
  // Our hand-written layout is the writer's, byte for byte.
  EXPECT_EQ(Assemble({{om::kSectionModelDef, SectionBytes(bytes, om::kSectionModelDef)},
                      {om::kSectionWeights, SectionBytes(bytes, om::kSectionWeights)}}),
            bytes);
}

TEST(OmLayout, Crc32IsZlibsCrc32) {
  EXPECT_EQ(Crc32("123456789", 9), 0xCBF43926u);
  EXPECT_EQ(Crc32("", 0), 0u);
  // Incremental use chains like zlib's.
  EXPECT_EQ(Crc32("6789", 4, Crc32("12345", 5)), 0xCBF43926u);
}

// Long inputs take the carry-less-multiply path, short ones and the ends the
// table: both agree with the bit-at-a-time definition at every length and
// alignment, and chain at any split.
TEST(OmLayout, Crc32MatchesTheBitwiseDefinitionAtEveryLengthAndOffset) {
  auto bitwise = [](const uint8_t* p, size_t n) {
    uint32_t c = 0xFFFFFFFFu;
    for (size_t i = 0; i < n; ++i) {
      c ^= p[i];
      for (int k = 0; k < 8; ++k) c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
    }
    return ~c;
  };
  std::vector<uint8_t> v(4096 + 64);
  uint32_t x = 12345;
  for (auto& b : v) b = static_cast<uint8_t>((x = x * 1103515245u + 12345u) >> 16);
  for (size_t off : {0, 1, 7, 15, 33})
    for (size_t n : {0, 1, 15, 16, 63, 64, 65, 79, 80, 127, 128, 129, 200, 1000, 4096}) {
      const uint32_t want = bitwise(v.data() + off, n);
      EXPECT_EQ(Crc32(v.data() + off, n), want) << "offset " << off << ", " << n << " bytes";
      const size_t cut = n / 3;
      EXPECT_EQ(Crc32(v.data() + off + cut, n - cut, Crc32(v.data() + off, cut)), want) << "split at " << cut;
    }
}

// Every constant (Const values and tensor attributes) starts 64-byte aligned
// in the weights section and its bytes are the tensor's; the gaps are zero.
TEST(OmLayout, WeightOffsetsAre64ByteAlignedAndGapsAreZero) {
  const Model m = RichModel();
  const std::string bytes = Serialize(m);
  const std::string weights = SectionBytes(bytes, om::kSectionWeights);
  const om::ModelDef def = ModelDefOf(bytes);
  std::vector<bool> used(weights.size(), false);
  int tensors = 0;
  for (const om::NodeDef& nd : def.graph().nodes()) {
    for (const om::AttrDef& a : nd.attrs()) {
      if (a.value_case() != om::AttrDef::kTensor) continue;
      ++tensors;
      const om::ConstTensorDef& t = a.tensor();
      EXPECT_EQ(t.weight_offset() % 64, 0u) << nd.name() << "." << a.name() << " at " << t.weight_offset();
      ASSERT_LE(t.weight_offset() + t.size(), weights.size()) << nd.name();
      const Node* n = m.graph->FindNode(nd.name());
      ASSERT_NE(n, nullptr);
      const Tensor* orig = n->GetTensor(a.name());
      ASSERT_NE(orig, nullptr);
      ASSERT_EQ(t.size(), orig->size());
      if (t.size()) {
        EXPECT_EQ(std::memcmp(weights.data() + t.weight_offset(), orig->data(), t.size()), 0) << nd.name();
      }
      for (uint64_t i = t.weight_offset(); i < t.weight_offset() + t.size(); ++i) used[i] = true;
    }
  }
  EXPECT_EQ(tensors, 6);  // w, b, scalar, empty, bools, conv.h_tensor
  for (size_t i = 0; i < weights.size(); ++i)
    if (!used[i]) {
      EXPECT_EQ(weights[i], '\0') << "weights padding byte " << i;
    }
}

TEST_F(OmFileTest, OmToJsonShowsHeaderSectionsAndModelWithAlignedWeights) {
  const Model m = RichModel();
  const std::string path = Path("rich.om");
  ASSERT_TRUE(WriteOmFile(m, path).ok());
  auto text = OmToJson(path);
  ASSERT_TRUE(text.ok()) << text.status().ToString();
  nlohmann::json j = nlohmann::json::parse(*text, nullptr, false);
  ASSERT_FALSE(j.is_discarded()) << *text;
  ASSERT_TRUE(j.contains("header"));
  ASSERT_TRUE(j.contains("sections"));
  ASSERT_TRUE(j.contains("model"));
  EXPECT_EQ(j["header"]["version"], "1.0");
  EXPECT_EQ(j["header"]["file_size"].get<uint64_t>(), fs::file_size(path));
  ASSERT_EQ(j["sections"].size(), 2u);
  std::set<std::string> types;
  for (const auto& s : j["sections"]) {
    types.insert(s["type"].get<std::string>());
    EXPECT_EQ(s["offset"].get<uint64_t>() % 64, 0u);
  }
  EXPECT_EQ(types, (std::set<std::string>{"model_def", "weights"}));
  EXPECT_EQ(j["model"]["name"], "rich");
  // proto3 JSON: uint64 as a string, and 0 omitted.
  int tensors = 0;
  for (const auto& n : j["model"]["graph"]["nodes"]) {
    if (!n.contains("attrs")) continue;
    for (const auto& a : n["attrs"]) {
      if (!a.contains("tensor")) continue;
      ++tensors;
      uint64_t off = 0;
      if (a["tensor"].contains("weight_offset")) {
        const auto& v = a["tensor"]["weight_offset"];
        off = v.is_string() ? std::stoull(v.get<std::string>()) : v.get<uint64_t>();
      }
      EXPECT_EQ(off % 64, 0u) << n["name"] << " " << off;
    }
  }
  EXPECT_EQ(tensors, 6);
}

TEST_F(OmFileTest, OmToJsonOfACorruptFileIsTheLoadersError) {
  std::string bytes = Serialize(SmallModel());
  bytes[bytes.size() / 2] ^= 0x10;
  const std::string path = Path("bad.om");
  WriteBytes(path, bytes);
  auto text = OmToJson(path);
  ASSERT_TRUE(Refused(text, StatusCode::kCorrupt, "not a valid .om file: section 0 (model_def) checksum mismatch"));
  EXPECT_NE(text.status().message().find(path), std::string::npos) << text.status().message();
  EXPECT_TRUE(Refused(OmToJson(Path("missing.om")), StatusCode::kNotFound, "no such file"));
}

// --------------------------------------------------------------- corruption

TEST(OmCorruption, EveryTruncationIsAnError) {
  for (const std::string& bytes : {Serialize(SmallModel()), Serialize(RichModel())}) {
    ASSERT_GT(bytes.size(), 128u);
    for (size_t len = 0; len < bytes.size(); ++len) {
      auto r = ParseCopy(bytes, len, "t.om");
      ASSERT_FALSE(r.ok()) << "truncated to " << len << " of " << bytes.size() << " bytes parsed";
      EXPECT_EQ(r.status().code(), StatusCode::kCorrupt) << len << ": " << r.status().ToString();
      EXPECT_EQ(r.status().message().rfind("t.om", 0), 0u) << r.status().message();
    }
    // The whole file still parses from such a copy.
    EXPECT_TRUE(ParseCopy(bytes, bytes.size(), "t.om").ok());
  }
}

TEST(OmCorruption, OneFlippedBitAnywhereIsAnError) {
  const std::string bytes = Serialize(SmallModel());
  ASSERT_LT(bytes.size(), 4096u);
  for (size_t pos = 0; pos < bytes.size(); ++pos) {
    std::string bad = bytes;
    bad[pos] = static_cast<char>(bad[pos] ^ (1u << (pos % 8)));
    auto r = ParseCopy(bad, bad.size(), "f.om");
    ASSERT_FALSE(r.ok()) << "bit " << pos % 8 << " of byte " << pos << " flipped and the file still parses";
    EXPECT_TRUE(r.status().code() == StatusCode::kCorrupt || r.status().code() == StatusCode::kUnsupported)
        << pos << ": " << r.status().ToString();
    EXPECT_FALSE(r.status().message().empty());
  }
}

TEST(OmCorruption, EveryBitOfEveryByteIsCovered) {
  const std::string bytes = Serialize(RichModel());
  ASSERT_LT(bytes.size(), 16384u);
  for (size_t pos = 0; pos < bytes.size(); ++pos) {
    for (int bit = 0; bit < 8; ++bit) {
      std::string bad = bytes;
      bad[pos] = static_cast<char>(bad[pos] ^ (1u << bit));
      const Status s = ParseCopy(bad, bad.size(), "f.om").status();
      // A flipped bit of the version is a version this ge does not read; any other is damage.
      const bool version = s.message().find("f.om: .om version") == 0;
      ASSERT_TRUE(Refused(s, version ? StatusCode::kUnsupported : StatusCode::kCorrupt,
                          version ? "(this ge reads 1.x)" : "f.om: not a valid .om file: "))
          << "bit " << bit << " of byte " << pos;
    }
  }
}

TEST(OmCorruption, TrailingBytesAreAnError) {
  for (size_t extra : {1u, 63u, 64u}) {
    std::string bytes = Serialize(SmallModel()) + std::string(extra, '\0');
    EXPECT_TRUE(Refused(ParseCopy(bytes, bytes.size(), "p.om"), StatusCode::kCorrupt,
                        "p.om: not a valid .om file: header says"))
        << extra;
    // Even when the header is made to claim the padded size.
    bytes = EditHeader(bytes, [&](om::Header& h) { h.file_size = bytes.size(); });
    EXPECT_TRUE(Refused(ParseCopy(bytes, bytes.size(), "p.om"), StatusCode::kCorrupt,
                        "p.om: not a valid .om file: trailing bytes after the last section"))
        << extra;
  }
}

TEST(OmCorruption, WrongMagicIsAnErrorNamingTheMagic) {
  std::string bytes = Serialize(SmallModel());
  bytes[0] = 'X';
  auto r = ParseCopy(bytes, bytes.size(), "magic.om");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kCorrupt) << r.status().ToString();
  EXPECT_NE(r.status().message().find("magic.om"), std::string::npos) << r.status().message();
  EXPECT_NE(r.status().message().find("magic"), std::string::npos) << r.status().message();
  // A text-mode transfer (\r\n -> \n) breaks the magic too.
  std::string mangled = Serialize(SmallModel());
  mangled.erase(4, 1);
  EXPECT_TRUE(Refused(ParseCopy(mangled, mangled.size(), "m.om"), StatusCode::kCorrupt,
                      "m.om: not a valid .om file: bad magic"));
  // Something that is not a .om at all.
  const std::string text = "ir_version: 8\nproducer_name: \"pytorch\"\n" + std::string(100, ' ');
  EXPECT_TRUE(
      Refused(ParseCopy(text, text.size(), "m.om"), StatusCode::kCorrupt, "m.om: not a valid .om file: bad magic"));
}

TEST(OmCorruption, WrongMajorVersionIsUnsupported) {
  const std::string good = Serialize(SmallModel());
  // With a consistent header CRC (a genuine file of another version) ...
  for (uint32_t major : {0u, 2u, 255u}) {
    const std::string bytes = EditHeader(good, [&](om::Header& h) { h.version_major = major; });
    auto r = ParseCopy(bytes, bytes.size(), "v.om");
    ASSERT_FALSE(r.ok()) << major;
    EXPECT_EQ(r.status().code(), StatusCode::kUnsupported) << r.status().ToString();
    EXPECT_NE(r.status().message().find("v.om"), std::string::npos) << r.status().message();
    EXPECT_NE(r.status().message().find("version " + std::to_string(major) + "."), std::string::npos)
        << r.status().message();
    EXPECT_NE(r.status().message().find("not supported"), std::string::npos) << r.status().message();
  }
  // ... and with the version field simply overwritten.
  std::string raw = good;
  const uint32_t two = 2;
  std::memcpy(raw.data() + offsetof(om::Header, version_major), &two, 4);
  auto r = ParseCopy(raw, raw.size(), "v.om");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kUnsupported) << r.status().ToString();
}

TEST(OmCorruption, NewerMinorVersionAndUnknownSectionsAreAccepted) {
  const std::string good = Serialize(SmallModel());
  const std::string def = SectionBytes(good, om::kSectionModelDef);
  const std::string weights = SectionBytes(good, om::kSectionWeights);
  const std::string newer =
      Assemble({{om::kSectionModelDef, def}, {77, std::string("future data")}, {om::kSectionWeights, weights}}, 1, 3);
  auto r = ParseCopy(newer, newer.size(), "newer.om");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->version_minor, 3u);
  EXPECT_EQ(GraphToText(*r->model.graph), GraphToText(*SmallModel().graph));
}

TEST(OmCorruption, SectionTableProblemsAreErrorsEvenWithValidChecksums) {
  const std::string good = Serialize(SmallModel());
  const std::string def = SectionBytes(good, om::kSectionModelDef);
  const std::string weights = SectionBytes(good, om::kSectionWeights);
  struct Case {
    const char* what;
    std::string bytes;
  };
  std::vector<Case> cases = {
      {"no weights", Assemble({{om::kSectionModelDef, def}})},
      {"no model_def", Assemble({{om::kSectionWeights, weights}})},
      {"two model_defs", Assemble({{om::kSectionModelDef, def}, {om::kSectionModelDef, def}, {om::kSectionWeights, weights}})},
      {"two weights", Assemble({{om::kSectionModelDef, def}, {om::kSectionWeights, weights}, {om::kSectionWeights, weights}})},
      {"model_def garbage", Assemble({{om::kSectionModelDef, std::string(40, '\xff')}, {om::kSectionWeights, weights}})},
      {"unaligned section", EditTable(good, [](auto& t) { t[1].offset += 8; })},
      {"overlapping sections", EditTable(good, [](auto& t) { t[1].offset = t[0].offset; })},
      {"section past the end", EditTable(good, [](auto& t) { t[1].size += 1; })},
      {"huge section size", EditTable(good, [](auto& t) { t[1].size = std::numeric_limits<uint64_t>::max(); })},
      {"huge section offset", EditTable(good, [](auto& t) { t[1].offset = std::numeric_limits<uint64_t>::max() - 63; })},
      {"zero sections", EditHeader(good, [](om::Header& h) { h.section_count = 0; })},
      {"too many sections", EditHeader(good, [](om::Header& h) { h.section_count = 1u << 30; })},
      {"table outside", EditHeader(good, [](om::Header& h) { h.section_table_offset = 1u << 20; })},
      {"header size", EditHeader(good, [](om::Header& h) { h.header_size = 128; })},
      {"file size", EditHeader(good, [](om::Header& h) { h.file_size += 64; })},
  };
  {
    // Non-zero padding between sections, every checksum correct.
    std::string pad = good;
    Layout l = ReadLayout(pad);
    const uint64_t gap = l.table[0].offset + l.table[0].size;
    ASSERT_LT(gap, +l.table[1].offset) << "expected padding between model_def and weights";
    pad[gap] = 1;
    cases.push_back({"non-zero padding", pad});
  }
  for (const Case& c : cases) {
    auto r = ParseCopy(c.bytes, c.bytes.size(), "s.om");
    EXPECT_FALSE(r.ok()) << c.what;
    if (!r.ok()) {
      EXPECT_EQ(r.status().code(), StatusCode::kCorrupt) << c.what << ": " << r.status().ToString();
    }
  }
}

// The model definition is untrusted too: with every checksum correct, a bad
// reference, dtype or range inside it is still an error.
TEST(OmCorruption, BadModelDefinitionsAreErrorsEvenWithValidChecksums) {
  const std::string good = Serialize(SmallModel());
  const om::ModelDef base = ModelDefOf(good);
  auto node = [](om::ModelDef& d, const std::string& name) -> om::NodeDef& {
    for (om::NodeDef& n : *d.mutable_graph()->mutable_nodes())
      if (n.name() == name) return n;
    ADD_FAILURE() << "no node " << name;
    return *d.mutable_graph()->mutable_nodes(0);
  };
  auto value = [&](om::ModelDef& d) -> om::ConstTensorDef& {
    for (om::AttrDef& a : *node(d, "c").mutable_attrs())
      if (a.name() == "value") return *a.mutable_tensor();
    ADD_FAILURE() << "no value";
    return *node(d, "c").mutable_attrs(0)->mutable_tensor();
  };
  struct Case {
    const char* what;
    std::function<void(om::ModelDef&)> edit;
    const char* expect;  // in the message
  };
  const std::vector<Case> cases = {
      {"weights out of range", [&](om::ModelDef& d) { value(d).set_weight_offset(1 << 20); }, "outside the weights"},
      {"weights offset wraps", [&](om::ModelDef& d) { value(d).set_weight_offset(~uint64_t{63}); }, "outside the weights"},
      {"unaligned weights", [&](om::ModelDef& d) { value(d).set_weight_offset(4); }, "aligned"},
      {"size mismatch", [&](om::ModelDef& d) { value(d).set_size(12); }, "claims"},
      {"const dtype", [&](om::ModelDef& d) { value(d).mutable_desc()->set_dtype(99); }, "dtype"},
      {"const dynamic", [&](om::ModelDef& d) { value(d).mutable_desc()->set_dims(1, -1); }, "static"},
      {"output dtype", [&](om::ModelDef& d) { node(d, "add").mutable_outputs(0)->set_dtype(-3); }, "dtype"},
      {"output format", [&](om::ModelDef& d) { node(d, "add").mutable_outputs(0)->set_format(42); }, "format"},
      {"bad dim", [&](om::ModelDef& d) { node(d, "add").mutable_outputs(0)->set_dims(0, -5); }, "dim"},
      {"huge dim", [&](om::ModelDef& d) { node(d, "add").mutable_outputs(0)->set_dims(0, int64_t{1} << 62); }, "dim"},
      {"rank", [&](om::ModelDef& d) { for (int i = 0; i < 40; ++i) node(d, "add").mutable_outputs(0)->add_dims(1); }, "rank"},
      {"input dtype", [&](om::ModelDef& d) { d.mutable_inputs(0)->mutable_desc()->set_dtype(1000); }, "dtype"},
      {"unknown input node", [&](om::ModelDef& d) { node(d, "add").mutable_inputs(0)->set_node("nope"); }, "nope"},
      {"forward reference", [&](om::ModelDef& d) { node(d, "add").mutable_inputs(0)->set_node("relu"); }, "relu"},
      {"self reference", [&](om::ModelDef& d) { node(d, "add").mutable_inputs(0)->set_node("add"); }, "add"},
      {"missing output", [&](om::ModelDef& d) { node(d, "add").mutable_inputs(0)->set_index(3); }, "output"},
      {"negative output", [&](om::ModelDef& d) { node(d, "add").mutable_inputs(0)->set_index(-1); }, "output"},
      {"unknown control input", [&](om::ModelDef& d) { node(d, "relu").add_control_inputs("ghost"); }, "ghost"},
      {"duplicate node", [&](om::ModelDef& d) { node(d, "relu").set_name("add"); }, "duplicate"},
      {"empty type", [&](om::ModelDef& d) { node(d, "relu").set_type(""); }, ""},
      {"attribute without value", [&](om::ModelDef& d) { node(d, "add").add_attrs()->set_name("x"); }, "without a value"},
      {"too many anchors", [&](om::ModelDef& d) { for (int i = 0; i < 5000; ++i) node(d, "relu").add_inputs(); }, "anchors"},
      {"io count", [&](om::ModelDef& d) { d.add_inputs()->set_name("extra"); }, "inputs"},
      {"output count", [&](om::ModelDef& d) { d.clear_outputs(); }, "outputs"},
      {"no NetOutput", [&](om::ModelDef& d) { d.mutable_graph()->mutable_nodes()->RemoveLast(); }, ""},
      {"empty graph", [&](om::ModelDef& d) { d.clear_graph(); }, ""},
  };
  for (const Case& c : cases) {
    om::ModelDef def = base;
    c.edit(def);
    const std::string bytes = WithModelDef(good, def);
    auto r = ParseCopy(bytes, bytes.size(), "d.om");
    ASSERT_FALSE(r.ok()) << c.what << " was accepted";
    EXPECT_EQ(r.status().code(), StatusCode::kCorrupt) << c.what << ": " << r.status().ToString();
    EXPECT_NE(r.status().message().find(c.expect), std::string::npos) << c.what << ": " << r.status().message();
    EXPECT_EQ(r.status().message().rfind("d.om", 0), 0u) << r.status().message();
  }
  // The unmodified definition, reassembled, still loads: the cases above fail
  // for their edit, not for the reassembly.
  const std::string same = WithModelDef(good, base);
  EXPECT_TRUE(ParseCopy(same, same.size(), "d.om").ok());
}


// ------------------------------------------------------ memory plan and tasks

// x -> add(x, c) -> relu -> s1 -> s2 -> s3 -> out, planned without in-place
// so the feature map holds add, relu, s1, s2 (two offsets, reused).
Model PlannedModel() {
  Model m = SmallModel();
  Graph* g = m.graph.get();
  Node* relu = nullptr;
  for (Node* n : g->nodes())
    if (n->name() == "relu") relu = n;
  Node* out = g->OutputNode();
  Node* prev = relu;
  g->RemoveInputEdge(out, 0);
  for (const char* name : {"s1", "s2", "s3"}) {
    Node* s = g->AddNode("Sigmoid", name, 1, 1);
    s->output_desc(0) = F32({1, 4});
    EXPECT_TRUE(g->AddEdge(prev, 0, s, 0).ok());
    prev = s;
  }
  EXPECT_TRUE(g->AddEdge(prev, 0, out, 0).ok());
  DescribeModelIo(m);
  memory::PlanOptions o;
  o.inplace = false;
  auto plan = memory::PlanMemory(*g, o);
  EXPECT_TRUE(plan.ok()) << plan.status().ToString();
  m.memory = *plan;
  auto tasks = tasks::BuildTasks(*g, m.memory);
  EXPECT_TRUE(tasks.ok());
  m.streams = *tasks;
  return m;
}

TEST(OmRoundTrip, MemoryPlanAndTasksSurvive) {
  const Model m = PlannedModel();
  ASSERT_GT(m.memory.feature_map_size, 0);
  const std::string bytes = Serialize(m);
  auto loaded = ParseOm(bytes.data(), bytes.size(), "p.om");
  ASSERT_TRUE(loaded.ok()) << loaded.status().ToString();
  const MemoryPlan& a = m.memory;
  const MemoryPlan& b = loaded->model.memory;
  EXPECT_EQ(b.alignment, a.alignment);
  EXPECT_EQ(b.reuse, a.reuse);
  EXPECT_EQ(b.weights_size, a.weights_size);
  EXPECT_EQ(b.feature_map_size, a.feature_map_size);
  EXPECT_EQ(b.input_size, a.input_size);
  EXPECT_EQ(b.output_size, a.output_size);
  EXPECT_EQ(b.no_reuse_size, a.no_reuse_size);
  EXPECT_EQ(b.lower_bound, a.lower_bound);
  EXPECT_EQ(b.order, a.order);
  ASSERT_EQ(b.buffers.size(), a.buffers.size());
  for (size_t i = 0; i < a.buffers.size(); ++i) {
    const BufferPlan &x = a.buffers[i], &y = b.buffers[i];
    EXPECT_TRUE(x.node == y.node && x.output == y.output && x.symbol == y.symbol && x.segment == y.segment &&
                x.offset == y.offset && x.size == y.size && x.first_use == y.first_use && x.last_use == y.last_use)
        << x.node;
  }
  ASSERT_EQ(b.outputs.size(), a.outputs.size());
  ASSERT_EQ(b.inputs.size(), a.inputs.size());
  EXPECT_EQ(b.outputs[0].offset, a.outputs[0].offset);
  EXPECT_EQ(b.outputs[0].copy, a.outputs[0].copy);
  ASSERT_EQ(loaded->model.streams.size(), 1u);
  const auto& ta = m.streams[0].tasks;
  const auto& tb = loaded->model.streams[0].tasks;
  ASSERT_EQ(tb.size(), ta.size());
  for (size_t i = 0; i < ta.size(); ++i) {
    EXPECT_EQ(tb[i].node, ta[i].node);
    EXPECT_EQ(tb[i].kernel, ta[i].kernel);
    ASSERT_EQ(tb[i].inputs.size(), ta[i].inputs.size());
    for (size_t k = 0; k < ta[i].inputs.size(); ++k) {
      EXPECT_EQ(tb[i].inputs[k].segment, ta[i].inputs[k].segment);
      EXPECT_EQ(tb[i].inputs[k].offset, ta[i].inputs[k].offset);
    }
    ASSERT_EQ(tb[i].outputs.size(), ta[i].outputs.size());
    EXPECT_EQ(tb[i].outputs[0].offset, ta[i].outputs[0].offset);
  }
  // Same input, same bytes.
  EXPECT_EQ(Serialize(PlannedModel()), bytes);
}

TEST_F(OmFileTest, OmToJsonShowsThePlanAndTasks) {
  const std::string path = Path("p.om");
  ASSERT_TRUE(WriteOmFile(PlannedModel(), path).ok());
  auto json = OmToJson(path);
  ASSERT_TRUE(json.ok()) << json.status().ToString();
  auto j = nlohmann::json::parse(*json);
  const auto& mem = j["model"]["memory"];
  EXPECT_EQ(mem["alignment"], "64");  // proto3 JSON writes int64 as strings
  EXPECT_TRUE(mem.contains("feature_map_size"));
  EXPECT_TRUE(mem.contains("lower_bound"));
  EXPECT_GE(mem["buffers"].size(), 7u);
  EXPECT_EQ(mem["order"].size(), 8u);
  ASSERT_EQ(j["model"]["streams"].size(), 1u);
  EXPECT_EQ(j["model"]["streams"][0]["tasks"].size(), 5u);  // add relu s1 s2 s3
}

TEST(OmCorruption, BadMemoryPlansAndTasksAreErrors) {
  const std::string good = Serialize(PlannedModel());
  const om::ModelDef base = ModelDefOf(good);
  auto buffer = [](om::ModelDef& d, const std::string& node) -> om::BufferDef& {
    for (om::BufferDef& b : *d.mutable_memory()->mutable_buffers())
      if (b.node() == node) return b;
    ADD_FAILURE() << "no buffer " << node;
    return *d.mutable_memory()->mutable_buffers(0);
  };
  auto task = [](om::ModelDef& d, const std::string& node) -> om::TaskDef& {
    for (om::TaskDef& t : *d.mutable_streams(0)->mutable_tasks())
      if (t.node() == node) return t;
    ADD_FAILURE() << "no task " << node;
    return *d.mutable_streams(0)->mutable_tasks(0);
  };
  struct Case {
    const char* what;
    std::function<void(om::ModelDef&)> edit;
    const char* expect;
  };
  const std::vector<Case> cases = {
      {"alignment", [](om::ModelDef& d) { d.mutable_memory()->set_alignment(48); }, "power of two"},
      {"huge segment", [](om::ModelDef& d) { d.mutable_memory()->set_feature_map_size(int64_t{1} << 50); }, "out of range"},
      {"buffer outside", [&](om::ModelDef& d) { buffer(d, "s1").set_offset(1 << 20); }, "outside the feature_map"},
      {"buffer wraps", [&](om::ModelDef& d) { buffer(d, "s1").set_offset(std::numeric_limits<int64_t>::max() - 8); }, "outside"},
      {"negative offset", [&](om::ModelDef& d) { buffer(d, "s1").set_offset(-64); }, "outside"},
      {"unaligned", [&](om::ModelDef& d) { buffer(d, "s1").set_offset(4); }, "aligned"},
      {"segment", [&](om::ModelDef& d) { buffer(d, "s1").set_segment(7); }, "segment"},
      {"size", [&](om::ModelDef& d) { buffer(d, "s1").set_size(4); }, "size"},
      {"unknown node", [&](om::ModelDef& d) { buffer(d, "s1").set_node("ghost"); }, "unknown node"},
      {"missing buffer", [](om::ModelDef& d) { d.mutable_memory()->mutable_buffers()->RemoveLast(); }, "buffer"},
      {"lifetime", [&](om::ModelDef& d) { buffer(d, "s1").set_last_use(1000); }, "lifetime"},
      {"symbol", [&](om::ModelDef& d) { buffer(d, "s1").set_symbol(buffer(d, "x").symbol()); }, "symbol"},
      {"order unknown", [](om::ModelDef& d) { d.mutable_memory()->set_order(0, "ghost"); }, "unknown node"},
      {"order twice", [](om::ModelDef& d) { d.mutable_memory()->set_order(0, d.memory().order(1)); }, "twice"},
      {"order short", [](om::ModelDef& d) { d.mutable_memory()->mutable_order()->RemoveLast(); }, "misses"},
      {"io count", [](om::ModelDef& d) { d.mutable_memory()->clear_outputs(); }, "IO bindings"},
      {"io outside", [](om::ModelDef& d) { d.mutable_memory()->mutable_outputs(0)->set_offset(4096); }, "outside the output"},
      {"copy source", [](om::ModelDef& d) {
         d.mutable_memory()->mutable_outputs(0)->set_copy(true);
         d.mutable_memory()->mutable_outputs(0)->mutable_source()->set_segment(1);
         d.mutable_memory()->mutable_outputs(0)->mutable_source()->set_offset(1 << 20);
       }, "source"},
      {"task arg outside", [&](om::ModelDef& d) { task(d, "s2").mutable_inputs(0)->set_offset(1 << 30); }, "outside"},
      {"task arg segment", [&](om::ModelDef& d) { task(d, "s2").mutable_inputs(0)->set_segment(-1); }, "segment"},
      {"task writes weights", [&](om::ModelDef& d) { task(d, "s2").mutable_outputs(0)->set_segment(0); }, "read-only"},
      {"task arity", [&](om::ModelDef& d) { task(d, "s2").add_inputs(); }, "argument count"},
      {"task kernel id", [&](om::ModelDef& d) { task(d, "s2").set_kernel(9); }, "sequence"},
      {"task node", [&](om::ModelDef& d) { task(d, "s2").set_node("ghost"); }, "unknown node"},
      {"task kind", [&](om::ModelDef& d) { task(d, "s2").set_kind(5); }, "kind"},
      {"tasks without plan", [](om::ModelDef& d) { d.clear_memory(); }, "without a memory plan"},
  };
  for (const Case& c : cases) {
    om::ModelDef def = base;
    c.edit(def);
    const std::string bytes = WithModelDef(good, def);
    auto r = ParseCopy(bytes, bytes.size(), "p.om");
    ASSERT_FALSE(r.ok()) << c.what << " was accepted";
    EXPECT_EQ(r.status().code(), StatusCode::kCorrupt) << c.what << ": " << r.status().ToString();
    EXPECT_NE(r.status().message().find(c.expect), std::string::npos) << c.what << ": " << r.status().message();
  }
  const std::string same = WithModelDef(good, base);
  EXPECT_TRUE(ParseCopy(same, same.size(), "p.om").ok());
  // Bit flips over a planned file are errors too (the checksums catch them;
  // the plan checks guard what a checksum cannot).
  for (size_t pos = 0; pos < good.size(); pos += 7) {
    std::string bad = good;
    bad[pos] = static_cast<char>(bad[pos] ^ 0x10);
    auto r = ParseCopy(bad, bad.size(), "p.om");
    EXPECT_TRUE(Refused(r, StatusCode::kCorrupt, "p.om: not a valid .om file")) << pos;
  }
}

// A constant whose dims multiply past 2^63 must not pass for a small tensor:
// 4 x (2^20+1) x (2^40-2^20+1) f32 is 2^64 + 16 bytes, which wraps to 16.
TEST(OmCorruption, ConstantWhoseSizeOverflowsIsAnError) {
  const std::string good = Serialize(SmallModel());
  om::ModelDef def = ModelDefOf(good);
  bool found = false;
  for (om::NodeDef& n : *def.mutable_graph()->mutable_nodes()) {
    if (n.name() != "c") continue;
    om::ConstTensorDef* t = n.mutable_attrs(0)->mutable_tensor();
    t->mutable_desc()->clear_dims();
    for (int64_t d : {int64_t{4}, (int64_t{1} << 20) + 1, (int64_t{1} << 40) - (int64_t{1} << 20) + 1})
      t->mutable_desc()->add_dims(d);
    ASSERT_EQ(t->size(), 16u);
    n.mutable_outputs(0)->CopyFrom(t->desc());
    found = true;
  }
  ASSERT_TRUE(found);
  const std::string bytes = WithModelDef(good, def);
  auto r = ParseCopy(bytes, bytes.size(), "overflow.om");
  EXPECT_TRUE(Refused(r, StatusCode::kCorrupt, "overflow.om: not a valid .om file: node c (Const) attribute value"))
      << "a constant of 2^62+4 elements stored in 16 bytes was accepted";
}

// The IO descriptions are what callers size their buffers by: one that
// disagrees with the graph's Data node or NetOutput producer is corrupt.
TEST(OmCorruption, IoDescriptionsThatDisagreeWithTheGraphAreAnError) {
  const std::string good = Serialize(SmallModel());
  {
    om::ModelDef def = ModelDefOf(good);
    def.mutable_inputs(0)->mutable_desc()->set_dims(1, 1 << 20);  // Data x is f32[1,4]
    const std::string bytes = WithModelDef(good, def);
    auto r = ParseCopy(bytes, bytes.size(), "io.om");
    EXPECT_TRUE(Refused(r, StatusCode::kCorrupt, "io.om: not a valid .om file: input x is described as f32[1,1048576]"))
        << "input described as f32[1,1048576] for a Data node of f32[1,4] was accepted";
  }
  {
    om::ModelDef def = ModelDefOf(good);
    def.mutable_outputs(0)->mutable_desc()->set_dtype(static_cast<int32_t>(DataType::kInt64));  // relu is f32
    const std::string bytes = WithModelDef(good, def);
    auto r = ParseCopy(bytes, bytes.size(), "io.om");
    EXPECT_TRUE(Refused(r, StatusCode::kCorrupt, "io.om: not a valid .om file: output y is described as i64[1,4], the"))
        << "output described as i64[1,4] for a producer of f32[1,4] was accepted";
  }
}

// Subgraphs nested deeper than the decoder allows are refused, not recursed
// into; nested deeper still, protobuf's own recursion limit refuses the
// section before the decoder sees it.
TEST(OmCorruption, DeeplyNestedSubgraphsAreAnError) {
  const std::string good = Serialize(SmallModel());
  auto nested = [&](int levels) {
    om::ModelDef def = ModelDefOf(good);
    om::GraphDef* g = def.mutable_graph();
    for (int depth = 0; depth < levels; ++depth) {
      om::NodeDef* n = g->add_nodes();
      n->set_name("nest" + std::to_string(depth));
      n->set_type("PartitionedCall");
      om::NamedGraph* ng = n->add_subgraphs();
      ng->set_name("f");
      g = ng->mutable_graph();
      g->set_name("sub" + std::to_string(depth));
    }
    return WithModelDef(good, def);
  };
  const std::string deep = nested(kMaxSubgraphNesting + 1);
  EXPECT_TRUE(Refused(ParseCopy(deep, deep.size(), "nest.om"), StatusCode::kCorrupt, "subgraphs nested too deep (more than 24 levels)"));
  const std::string deeper = nested(40);
  EXPECT_TRUE(Refused(ParseCopy(deeper, deeper.size(), "nest.om"), StatusCode::kCorrupt,
                      "nest.om: not a valid .om file: model_def section does not parse"));
}

// --------------------------------------------------------------------- files

TEST_F(OmFileTest, WriteThenReadRoundTripsAndLeavesNoTemporary) {
  const Model m = SmallModel();
  const std::string path = Path("m.om");
  Status s = WriteOmFile(m, path);
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_TRUE(fs::exists(path));
  EXPECT_EQ(test::TempFilesLeftFor(path), std::vector<std::string>{});
  EXPECT_EQ(ReadBytes(path), Serialize(m));
  auto r = ReadOmFile(path);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(GraphToText(*r->model.graph), GraphToText(*m.graph));
  // Overwriting an existing file works too.
  ASSERT_TRUE(WriteOmFile(RichModel(), path).ok());
  EXPECT_EQ(ReadBytes(path), Serialize(RichModel()));
  EXPECT_EQ(test::TempFilesLeftFor(path), std::vector<std::string>{});
}

TEST_F(OmFileTest, WriteIntoAMissingDirectoryFailsAndLeavesNoFile) {
  const std::string path = Path("no/such/dir/m.om");
  Status s = WriteOmFile(SmallModel(), path);
  ASSERT_TRUE(Refused(s, StatusCode::kIo, "cannot open"));
  EXPECT_NE(s.message().find(path), std::string::npos) << s.message();
  EXPECT_FALSE(fs::exists(path));
  EXPECT_EQ(test::TempFilesLeftFor(path), std::vector<std::string>{});
  EXPECT_FALSE(fs::exists(Path("no")));
  EXPECT_TRUE(fs::is_empty(dir_));
}

TEST_F(OmFileTest, FailedWriteKeepsTheOldFile) {
  // A model that cannot serialise must not replace (or truncate) what is there.
  const std::string path = Path("m.om");
  ASSERT_TRUE(WriteOmFile(SmallModel(), path).ok());
  const std::string before = ReadBytes(path);
  Model bad;
  EXPECT_TRUE(Refused(WriteOmFile(bad, path), StatusCode::kInternal, "model without a graph"));
  EXPECT_EQ(ReadBytes(path), before);
  EXPECT_EQ(test::TempFilesLeftFor(path), std::vector<std::string>{});
}

TEST_F(OmFileTest, ReadingAMissingFileIsNotFound) {
  const std::string path = Path("missing.om");
  auto r = ReadOmFile(path);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kNotFound) << r.status().ToString();
  EXPECT_NE(r.status().message().find(path), std::string::npos) << r.status().message();
}

TEST_F(OmFileTest, ReadingADirectoryOrAnEmptyFileIsAnError) {
  auto r = ReadOmFile(dir_.string());  // must not throw (std::bad_alloc) or crash
  ASSERT_TRUE(Refused(r, StatusCode::kIo, "is a directory, not a regular file"));
  EXPECT_NE(r.status().message().find(dir_.string()), std::string::npos) << r.status().message();
  const std::string empty = Path("empty.om");
  WriteBytes(empty, "");
  auto e = ReadOmFile(empty);
  ASSERT_FALSE(e.ok());
  EXPECT_EQ(e.status().code(), StatusCode::kCorrupt) << e.status().ToString();
  EXPECT_NE(e.status().message().find(empty), std::string::npos) << e.status().message();
}

TEST_F(OmFileTest, ReadOmFileReportsCorruptionWithThePath) {
  std::string bytes = Serialize(SmallModel());
  bytes.resize(bytes.size() - 1);
  const std::string path = Path("short.om");
  WriteBytes(path, bytes);
  auto r = ReadOmFile(path);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kCorrupt);
  EXPECT_EQ(r.status().message().rfind(path, 0), 0u) << r.status().message();
}

// Large sections are checked by reading the file, not through the mapping
// (so the check leaves them out of the process's resident memory): a flipped
// bit deep inside still fails the load, naming the file and the section.
TEST_F(OmFileTest, ReadOmFileChecksLargeWeightsThroughTheFile) {
  Model m = SmallModel();
  std::vector<float> big(1 << 16, 0.0f);  // 256 KiB: above the size checked through the mapping
  for (size_t i = 0; i < big.size(); ++i) big[i] = static_cast<float>(i % 977) * 0.5f + 1.0f;
  for (Node* n : m.graph->nodes())
    if (n->name() == "relu") n->SetAttr("big", Tensor::FromVector(DataType::kFloat32, {1 << 16}, big));
  std::string bytes = Serialize(m);
  const std::string path = Path("big.om");
  WriteBytes(path, bytes);
  auto ok = ReadOmFile(path);
  ASSERT_TRUE(ok.ok()) << ok.status().ToString();
  const Tensor* t = nullptr;
  for (Node* n : ok->model.graph->nodes())
    if (n->name() == "relu") t = n->GetTensor("big");
  ASSERT_NE(t, nullptr);
  ASSERT_EQ(t->size(), big.size() * sizeof(float));
  EXPECT_EQ(std::memcmp(t->data(), big.data(), t->size()), 0);

  const size_t at = bytes.find(std::string(reinterpret_cast<const char*>(big.data() + 40000), 64));
  ASSERT_NE(at, std::string::npos);
  bytes[at + 3] ^= 0x10;
  WriteBytes(path, bytes);
  auto bad = ReadOmFile(path);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code(), StatusCode::kCorrupt);
  EXPECT_EQ(bad.status().message().rfind(path, 0), 0u) << bad.status().message();
  EXPECT_NE(bad.status().message().find("(weights) checksum mismatch"), std::string::npos) << bad.status().message();
}

}  // namespace
// ge-atc lays the weights section out as the plan's weights segment, and a
// mapped .om's constants are views into it: the runtimes use it in place.
TEST_F(OmFileTest, MappedConstantsLieAtTheirPlanOffsetsInTheWeightsImage) {
  const Model m = PlannedModel();
  ASSERT_GT(m.memory.weights_size, 0);
  const std::string path = Path("planned.om");
  ASSERT_TRUE(WriteOmFile(m, path).ok());
  auto r = ReadOmFile(path);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  const Model::WeightsImage& img = r->model.weights_image;
  ASSERT_NE(img.data, nullptr);
  ASSERT_GE(img.size, static_cast<uint64_t>(m.memory.weights_size));
  size_t checked = 0;
  for (const BufferPlan& b : r->model.memory.buffers) {
    if (b.segment != Segment::kWeights) continue;
    const Node* n = FindNodeByPath(*r->model.graph, b.node);
    ASSERT_NE(n, nullptr) << b.node;
    const Tensor* t = n->GetTensor("value");
    ASSERT_NE(t, nullptr) << b.node;
    EXPECT_EQ(t->data(), img.data + b.offset) << b.node;  // a view, not a copy
    ++checked;
  }
  EXPECT_GT(checked, 0u);
  // Parsing from bytes the caller owns copies: nothing points into them.
  const std::string bytes = Serialize(m);
  auto copied = ParseOm(bytes.data(), bytes.size(), "p.om");
  ASSERT_TRUE(copied.ok());
  EXPECT_EQ(copied->model.weights_image.data, nullptr);
}

}  // namespace ge
