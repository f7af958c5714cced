// ge_base/regular_file.h and MappedFile: every file a tool reads must be a
// regular file or a symlink to one. A FIFO is refused before open() (which
// would block), a device (/dev/zero) before a read that never ends, a
// directory before a read that fails later; each error names the file and
// its kind.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "common/scratch_dir.h"
#include "ge_base/mapped_file.h"
#include "ge_base/regular_file.h"

namespace ge::test {
namespace {

namespace fs = std::filesystem;

class RegularFileTest : public ScratchDirTest {
 protected:
  std::string Fifo() const { return MakeFifo(Path("pipe")); }
  std::string ZeroLink() const { return MakeZeroLink(Path("zero.om")); }
};

TEST_F(RegularFileTest, ReadsAFileAndASymlinkToOne) {
  const std::string p = Path("a.txt");
  std::ofstream(p, std::ios::binary) << std::string("x\0y", 3);
  fs::create_symlink(p, Path("link.txt"));
  for (const std::string& path : {p, Path("link.txt")}) {
    Result<std::string> r = ReadRegularFile(path);
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    EXPECT_EQ(*r, std::string("x\0y", 3));
  }
}

TEST_F(RegularFileTest, RefusesEveryOtherKindNamingIt) {
  fs::create_directories(Path("folder"));
  const struct {
    std::string path, kind;
  } cases[] = {{Fifo(), "a FIFO"}, {ZeroLink(), "a character device"}, {Path("folder"), "a directory"}};
  for (const auto& c : cases) {
    Result<std::string> r = ReadRegularFile(c.path);
    EXPECT_EQ(r.status().code(), StatusCode::kIo) << c.path;
    EXPECT_EQ(r.status().message(), c.path + ": is " + c.kind + ", not a regular file");
    Result<std::shared_ptr<const MappedFile>> m = MappedFile::Open(c.path);
    EXPECT_EQ(m.status().code(), StatusCode::kIo) << c.path;
    EXPECT_EQ(m.status().message(), c.path + ": is " + c.kind + ", not a regular file");
  }
}

TEST_F(RegularFileTest, NamesWhatTheFileIsForWhenTold) {
  Result<std::string> fifo = ReadRegularFile(Fifo(), "fusion switch file");
  EXPECT_EQ(fifo.status().code(), StatusCode::kIo);
  EXPECT_EQ(fifo.status().message(), Path("pipe") + ": cannot open the fusion switch file: is a FIFO, not a regular file");
  Result<std::string> missing = ReadRegularFile(Path("none.json"), "fusion switch file");
  EXPECT_EQ(missing.status().code(), StatusCode::kNotFound);
  EXPECT_EQ(missing.status().message(), Path("none.json") + ": cannot open the fusion switch file: no such file");
  Result<OpenedFile> plain = OpenRegularFile(Path("none.json"));
  EXPECT_EQ(plain.status().code(), StatusCode::kNotFound);
  EXPECT_EQ(plain.status().message(), Path("none.json") + ": no such file");
}

TEST_F(RegularFileTest, MapsBothWaysOfPaging) {
  const std::string p = Path("m.bin");
  std::ofstream(p, std::ios::binary) << "mapped";
  for (MappedFile::Paging paging : {MappedFile::Paging::kLazy, MappedFile::Paging::kPopulate}) {
    auto m = MappedFile::Open(p, paging);
    ASSERT_TRUE(m.ok()) << m.status().ToString();
    EXPECT_EQ(std::string((*m)->chars(), (*m)->size()), "mapped");
  }
}

}  // namespace
}  // namespace ge::test
