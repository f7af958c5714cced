// ge/tools/tensor_file.h, input_sets.h, time_stats.h: what ge-run's msame and
// ais_bench compatibility stands on. Raw .bin inputs must have exactly the
// input's size, output formats round-trip, input directories pair by sorted
// name, and the statistics match NumPy's (so ais_bench's figures).
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>

#include "ge/tools/input_sets.h"
#include "ge/tools/npy.h"
#include "ge/tools/tensor_file.h"
#include "ge/tools/time_stats.h"
#include "tests/common/refusal.h"
#include "tests/common/temp_leftovers.h"
#include "tests/common/tool_runner.h"

namespace ge::tools {
namespace {

namespace fs = std::filesystem;

// A fresh directory per test (dir_), removed afterwards.
class RunFilesTest : public test::TempDirTest {
 protected:
  std::string Put(const std::string& name, const std::string& bytes) {
    const fs::path p = dir_ / name;
    fs::create_directories(p.parent_path());
    test::WriteFileBytes(p, bytes);
    return p.string();
  }
};

const TensorDesc kF32x2x3(DataType::kFloat32, {2, 3});
const float kSixFloats[6] = {1.5f, -2, 0.25f, 3, 4, 1e-7f};

TEST_F(RunFilesTest, RawBinOfTheInputsSizeReadsBackItsBytes) {
  const std::string bytes(reinterpret_cast<const char*>(kSixFloats), sizeof kSixFloats);
  auto got = ReadTensorFile(Put("x.bin", bytes), kF32x2x3);
  ASSERT_TRUE(got.ok()) << got.status().ToString();
  EXPECT_EQ(std::string(got->begin(), got->end()), bytes);
}

TEST_F(RunFilesTest, RawBinOfAnotherSizeIsAnErrorNamingFileAndBothSizes) {
  auto got = ReadTensorFile(Put("short.bin", std::string(20, '\0')), kF32x2x3);
  ASSERT_TRUE(Refused(got, StatusCode::kInvalidArgument, "20 bytes, expected 24 bytes (f32[2,3])"));
  const std::string m = got.status().message();
  for (const char* part : {"short.bin", "20 bytes", "expected 24 bytes", "f32[2,3]"})
    EXPECT_NE(m.find(part), std::string::npos) << part << " not in: " << m;
  auto missing = ReadTensorFile((dir_ / "none.bin").string(), kF32x2x3);
  ASSERT_TRUE(Refused(missing, StatusCode::kNotFound, "none.bin"));
}

TEST_F(RunFilesTest, NpyMustHaveTheInputsDtypeAndShape) {
  const std::string p = (dir_ / "x.npy").string();
  ASSERT_TRUE(WriteNpy(p, kF32x2x3, kSixFloats).ok());
  EXPECT_TRUE(ReadTensorFile(p, kF32x2x3).ok());
  auto wrong = ReadTensorFile(p, TensorDesc(DataType::kFloat32, {3, 2}));
  ASSERT_TRUE(Refused(wrong, StatusCode::kInvalidArgument, "x.npy"));
}

TEST_F(RunFilesTest, EveryOutputFormatWritesTheValues) {
  for (const char* name : {"NPY", "bin", "Txt"}) {
    auto f = ParseTensorFileFormat(name);
    ASSERT_TRUE(f.ok()) << name;
    const std::string p = (dir_ / (std::string("y.") + TensorFileExtension(*f))).string();
    ASSERT_TRUE(WriteTensorFile(p, *f, kF32x2x3, kSixFloats).ok()) << name;
    EXPECT_EQ(test::TempFilesLeftFor(p), std::vector<std::string>{}) << name;
    auto back = ReadTensorFile(p, kF32x2x3);
    if (*f == TensorFileFormat::kTxt) {
      EXPECT_EQ(test::ReadFileBytes(p), "1.5 -2 0.25\n3 4 1.00000001e-07\n");
    } else {
      ASSERT_TRUE(back.ok()) << back.status().ToString();
      EXPECT_EQ(std::memcmp(back->data(), kSixFloats, sizeof kSixFloats), 0) << name;
    }
  }
  EXPECT_TRUE(Refused(ParseTensorFileFormat("CSV"), StatusCode::kInvalidArgument,
                      "'CSV' is not an output format (NPY, BIN or TXT)"));
}

TEST_F(RunFilesTest, TextOfIntegersAndScalars) {
  const int32_t ints[4] = {-3, 0, 7, 2147483647};
  EXPECT_EQ(TensorToText(TensorDesc(DataType::kInt32, {4}), ints), "-3 0 7 2147483647\n");
  const double one = 0.1;
  EXPECT_EQ(TensorToText(TensorDesc(DataType::kFloat64, {}), &one), "0.10000000000000001\n");
}

TEST_F(RunFilesTest, FilesAreOneInputSet) {
  const std::string a = Put("a.bin", "x"), b = Put("b.npy", "y");
  auto sets = ResolveInputSets({a, b}, 2);
  ASSERT_TRUE(sets.ok()) << sets.status().ToString();
  ASSERT_EQ(sets->size(), 1u);
  EXPECT_EQ((*sets)[0], (InputSet{a, b}));
}

TEST_F(RunFilesTest, DirectoriesPairTheirFilesBySortedName) {
  for (const char* f : {"in0/b.bin", "in0/a.bin", "in0/c.bin", "in0/.hidden", "in1/z.bin", "in1/x.bin", "in1/y.bin"})
    Put(f, "1");
  fs::create_directories(dir_ / "in0" / "subdir");
  auto sets = ResolveInputSets({(dir_ / "in0").string(), (dir_ / "in1").string()}, 2);
  ASSERT_TRUE(sets.ok()) << sets.status().ToString();
  ASSERT_EQ(sets->size(), 3u);
  EXPECT_EQ(fs::path((*sets)[0][0]).filename(), "a.bin");
  EXPECT_EQ(fs::path((*sets)[0][1]).filename(), "x.bin");
  EXPECT_EQ(fs::path((*sets)[2][0]).filename(), "c.bin");
  EXPECT_EQ(fs::path((*sets)[2][1]).filename(), "z.bin");
}

TEST_F(RunFilesTest, BadInputListsAreErrorsNamingTheEntry) {
  Put("two/a.bin", "1");
  Put("two/b.bin", "1");
  Put("one/a.bin", "1");
  fs::create_directories(dir_ / "empty");
  const std::string file = Put("f.bin", "1");
  const std::string two = (dir_ / "two").string(), one = (dir_ / "one").string(), empty = (dir_ / "empty").string();
  const std::string missing = (dir_ / "missing.bin").string();
  struct Case {
    std::vector<std::string> entries;
    size_t inputs;
    StatusCode code;
    std::vector<std::string> parts;
  };
  const StatusCode bad = StatusCode::kInvalidArgument;
  for (const Case& c : std::vector<Case>{{{two, one}, 2, bad, {"one", "holds 1 files", "holds 2"}},
                                         {{empty}, 1, bad, {"empty", "no files"}},
                                         {{missing}, 1, StatusCode::kNotFound, {"missing.bin", "no such file"}},
                                         {{file, two}, 2, bad, {"two", "directory", "f.bin"}},
                                         {{file}, 2, bad, {"takes 2 inputs", "1 given"}}}) {
    auto sets = ResolveInputSets(c.entries, c.inputs);
    for (const auto& p : c.parts) EXPECT_TRUE(Refused(sets, c.code, p)) << c.entries[0];
  }
}

TEST(RunTimeStatsTest, MatchesNumpysInterpolation) {
  // numpy: median([4,1,3,2]) = 2.5, percentile([1,2,3,4], 99) = 3.97.
  TimeStats s = SummarizeTimes({4, 1, 3, 2});
  EXPECT_EQ(s.count, 4u);
  EXPECT_DOUBLE_EQ(s.min, 1);
  EXPECT_DOUBLE_EQ(s.max, 4);
  EXPECT_DOUBLE_EQ(s.mean, 2.5);
  EXPECT_DOUBLE_EQ(s.median, 2.5);
  EXPECT_NEAR(s.percentile, 3.97, 1e-12);
  TimeStats one = SummarizeTimes({7});
  EXPECT_DOUBLE_EQ(one.median, 7);
  EXPECT_DOUBLE_EQ(one.percentile, 7);
  TimeStats none = SummarizeTimes({});
  EXPECT_EQ(none.count, 0u);
  EXPECT_DOUBLE_EQ(none.mean, 0);
}

}  // namespace
}  // namespace ge::tools
