// npy_test.cpp — the .npy writer and reader: NumPy's exact header bytes, round trips of float32
// and float64 at ranks 0, 1 and 4 and of int64 and bool, streamed writes, and every malformed
// file rejected with a message naming the file and what is wrong.
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "io/npy.hpp"

namespace {

namespace fs = std::filesystem;
using kbv::Shape;
using kbv::npy::DType;
using kbv::npy::MappedNpy;
using kbv::npy::NpyError;
using kbv::npy::NpyWriter;

class NpyTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const char* base = std::getenv("TMPDIR");
    std::string pattern = std::string(base && *base ? base : "/tmp") + "/kbv-npy-test-XXXXXX";
    ASSERT_NE(::mkdtemp(pattern.data()), nullptr);
    dir_ = pattern;
  }
  void TearDown() override {
    std::error_code ignored;
    fs::remove_all(dir_, ignored);
  }
  fs::path file(const std::string& name) const { return dir_ / name; }

  // A version 1.0 file with any header dict and data bytes (for malformed files).
  fs::path write_raw(const std::string& name, const std::string& dict, size_t data_bytes,
                     const std::string& magic = std::string("\x93NUMPY\x01\x00", 8)) {
    std::string header = dict;
    while ((10 + header.size() + 1) % 64) header += ' ';
    header += '\n';
    std::string bytes = magic;
    bytes += static_cast<char>(header.size() & 0xff);
    bytes += static_cast<char>(header.size() >> 8);
    bytes += header;
    bytes.append(data_bytes, '\0');
    const fs::path path = file(name);
    std::ofstream(path, std::ios::binary) << bytes;
    return path;
  }

  // Opening `path` must throw NpyError naming the file and containing `what`.
  static void expect_rejected(const fs::path& path, const std::string& what) {
    try {
      MappedNpy mapped(path);
      ADD_FAILURE() << path << " was accepted; expected an error mentioning '" << what << "'";
    } catch (const NpyError& error) {
      const std::string message = error.what();
      EXPECT_NE(message.find(path.string()), std::string::npos) << "the message must name the file: " << message;
      EXPECT_NE(message.find(what), std::string::npos) << "the message must say '" << what << "': " << message;
      EXPECT_NE(message.find("fix:"), std::string::npos) << "the message must give a fix: " << message;
    }
  }

  fs::path dir_;
};

// The bytes NumPy 2 writes for np.save(f, np.zeros((2, 3, 4, 5), np.float32)), up to the data.
TEST_F(NpyTest, HeaderIsByteIdenticalToNumpys) {
  std::string expected = std::string("\x93NUMPY\x01\x00\x76\x00", 10) + "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3, 4, 5), }";
  expected.append(128 - 1 - expected.size(), ' ');
  expected += '\n';
  EXPECT_EQ(kbv::npy::make_header({2, 3, 4, 5}, DType::float32), expected);
  const std::string scalar = kbv::npy::make_header({}, DType::float64);
  EXPECT_EQ(scalar.size() % 64, 0u);
  EXPECT_NE(scalar.find("'descr': '<f8'"), std::string::npos);
  EXPECT_NE(scalar.find("'shape': (), }"), std::string::npos);
  EXPECT_NE(kbv::npy::make_header({7}, DType::float32).find("'shape': (7,), }"), std::string::npos);
}

TEST_F(NpyTest, Float32AndFloat64RoundTripAtRanks0To4) {
  for (const Shape& shape : {Shape{}, Shape{5}, Shape{2, 3, 4, 5}}) {
    std::vector<float> floats(static_cast<size_t>(kbv::numel(shape)));
    std::vector<double> doubles(floats.size());
    for (size_t i = 0; i < floats.size(); ++i) {
      floats[i] = 0.25f * static_cast<float>(i) - 3.0f;
      doubles[i] = 1.0 / (static_cast<double>(i) + 3.0);  // not representable in float
    }
    const fs::path f4 = file("f4_" + std::to_string(shape.size()) + ".npy");
    const fs::path f8 = file("f8_" + std::to_string(shape.size()) + ".npy");
    kbv::npy::save(f4, shape, floats);
    kbv::npy::save(f8, shape, doubles);
    const MappedNpy read4(f4), read8(f8);
    EXPECT_EQ(read4.dtype(), DType::float32);
    EXPECT_EQ(read8.dtype(), DType::float64);
    EXPECT_EQ(read4.shape(), shape);
    EXPECT_EQ(read8.shape(), shape);
    EXPECT_EQ(std::vector<float>(read4.floats().begin(), read4.floats().end()), floats);
    EXPECT_EQ(std::vector<double>(read8.doubles().begin(), read8.doubles().end()), doubles);
    EXPECT_THROW((void)read4.doubles(), NpyError);
    EXPECT_THROW((void)read8.floats(), NpyError);
  }
}

// np.save of int64 and bool arrays writes '<i8' and '|b1' (NumPy 2.x, checked with /work/torchenv's).
TEST_F(NpyTest, Int64AndBoolHeadersAreNumpysAndRoundTripAsRawBytes) {
  std::string expected = std::string("\x93NUMPY\x01\x00\x76\x00", 10) + "{'descr': '|b1', 'fortran_order': False, 'shape': (2, 4), }";
  expected.append(128 - 1 - expected.size(), ' ');
  expected += '\n';
  EXPECT_EQ(kbv::npy::make_header({2, 4}, DType::boolean), expected);
  EXPECT_NE(kbv::npy::make_header({3}, DType::int64).find("'descr': '<i8'"), std::string::npos);

  const std::vector<int64_t> classes = {0, 4095, -7, int64_t{1} << 40, 3};
  const std::vector<unsigned char> mask = {1, 0, 0, 1, 1, 1, 0, 1};
  {
    NpyWriter writer(file("i8.npy"), {5}, DType::int64);
    const auto* bytes = reinterpret_cast<const unsigned char*>(classes.data());
    writer.write_raw({bytes, 16});  // two elements, then the rest
    writer.write_raw({bytes + 16, classes.size() * 8 - 16});
    writer.close();
    NpyWriter bools(file("b1.npy"), {2, 4}, DType::boolean);
    bools.write_raw(mask);
    bools.close();
  }
  const MappedNpy read8(file("i8.npy")), read1(file("b1.npy"));
  EXPECT_EQ(read8.dtype(), DType::int64);
  EXPECT_EQ(read1.dtype(), DType::boolean);
  EXPECT_EQ(read1.shape(), (Shape{2, 4}));
  std::vector<int64_t> back(classes.size());
  ASSERT_EQ(read8.raw().size(), back.size() * 8);
  std::memcpy(back.data(), read8.raw().data(), read8.raw().size());
  EXPECT_EQ(back, classes);
  EXPECT_EQ(std::vector<unsigned char>(read1.raw().begin(), read1.raw().end()), mask);
  EXPECT_THROW((void)read8.doubles(), NpyError);
  EXPECT_THROW((void)read1.floats(), NpyError);
  NpyWriter partial(file("partial.npy"), {2}, DType::int64);
  EXPECT_THROW(partial.write_raw(std::vector<unsigned char>(12)), NpyError) << "12 bytes are not whole int64 elements";
}

TEST_F(NpyTest, StreamedChunksMakeOneArray) {
  const std::vector<double> values = {1, 2, 3, 4, 5, 6};
  NpyWriter writer(file("chunks.npy"), {2, 3}, DType::float64);
  writer.write(std::span<const double>(values).subspan(0, 4));
  writer.write(std::span<const double>(values).subspan(4));
  writer.close();
  const MappedNpy read(file("chunks.npy"));
  EXPECT_EQ(std::vector<double>(read.doubles().begin(), read.doubles().end()), values);
}

TEST_F(NpyTest, WriterRefusesWrongCountsAndDtypesAndLeavesNoPartialFile) {
  const std::vector<float> three = {1, 2, 3};
  {
    NpyWriter writer(file("short.npy"), {4}, DType::float32);
    writer.write(three);
    EXPECT_THROW(writer.close(), NpyError);
  }
  EXPECT_FALSE(fs::exists(file("short.npy")));
  {
    NpyWriter writer(file("long.npy"), {2}, DType::float32);
    EXPECT_THROW(writer.write(three), NpyError);
  }
  EXPECT_FALSE(fs::exists(file("long.npy")));
  {
    NpyWriter writer(file("dtype.npy"), {3}, DType::float64);
    EXPECT_THROW(writer.write(three), NpyError);
  }
  EXPECT_FALSE(fs::exists(file("dtype.npy")));
  EXPECT_THROW(NpyWriter(dir_ / "no_such_dir" / "a.npy", {1}, DType::float32), NpyError);
}

// Red-team: `kbv export` into a folder holding a link wrote through it (the link's target was
// overwritten); a FIFO named like an array hung `kbv compare-outputs` in open().
TEST_F(NpyTest, TheWriterReplacesALinkInsteadOfWritingThroughItAndLeavesNoTemporary) {
  std::ofstream(file("victim.txt")) << "precious";
  fs::create_symlink(file("victim.txt"), file("y.npy"));
  kbv::npy::save(file("y.npy"), {3}, std::vector<float>{1, 2, 3});
  EXPECT_FALSE(fs::is_symlink(file("y.npy")));
  EXPECT_EQ(MappedNpy(file("y.npy")).shape(), (Shape{3}));
  std::ifstream victim(file("victim.txt"));
  std::string text;
  victim >> text;
  EXPECT_EQ(text, "precious");
  for (const auto& entry : fs::directory_iterator(dir_))
    EXPECT_EQ(entry.path().filename().string().find(".tmp-"), std::string::npos) << "left behind: " << entry.path();
}

TEST_F(NpyTest, AFifoOrAFolderIsRefusedAtOnce) {
  ASSERT_EQ(::mkfifo(file("fifo.npy").c_str(), 0600), 0);
  expect_rejected(file("fifo.npy"), "not a regular file");
  fs::create_directory(file("folder.npy"));
  expect_rejected(file("folder.npy"), "not a regular file");
}

TEST_F(NpyTest, RejectsABadMagic) {
  expect_rejected(write_raw("magic.npy", "{'descr': '<f4', 'fortran_order': False, 'shape': (1,), }", 4, std::string("\x93NUMPX\x01\x00", 8)),
                  "bad magic");
  const fs::path text = file("text.npy");
  std::ofstream(text) << "this is not an array\n";
  expect_rejected(text, "bad magic");
  const fs::path empty = file("empty.npy");
  std::ofstream{empty};
  expect_rejected(empty, "empty");
}

TEST_F(NpyTest, RejectsDtypesOtherThanLittleEndianF4F8I8AndBool) {
  for (const std::string descr : {"<i4", ">f4", "<f2", "|u1", "<c8"})
    expect_rejected(write_raw("dtype.npy", "{'descr': '" + descr + "', 'fortran_order': False, 'shape': (2,), }", 16), "dtype '" + descr + "'");
}

TEST_F(NpyTest, RejectsFortranOrder) {
  expect_rejected(write_raw("fortran.npy", "{'descr': '<f4', 'fortran_order': True, 'shape': (2, 2), }", 16), "fortran_order is True");
}

TEST_F(NpyTest, RejectsTruncatedAndOverlongData) {
  expect_rejected(write_raw("truncated.npy", "{'descr': '<f8', 'fortran_order': False, 'shape': (2, 3), }", 47), "truncated data");
  expect_rejected(write_raw("long.npy", "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }", 28), "bytes after the data");
  const fs::path cut = file("cut_header.npy");
  std::ofstream(cut, std::ios::binary) << std::string("\x93NUMPY\x01\x00\x76\x00{'descr'", 18);
  expect_rejected(cut, "truncated header");
}

TEST_F(NpyTest, RejectsMalformedHeadersAndUnknownVersions) {
  expect_rejected(write_raw("nodict.npy", "descr: <f4", 0), "malformed .npy header");
  expect_rejected(write_raw("noshape.npy", "{'descr': '<f4', 'fortran_order': False, }", 0), "lacks one of");
  expect_rejected(write_raw("badshape.npy", "{'descr': '<f4', 'fortran_order': False, 'shape': (2, x), }", 8), "malformed .npy header");
  expect_rejected(write_raw("version.npy", "{'descr': '<f4', 'fortran_order': False, 'shape': (1,), }", 4, std::string("\x93NUMPY\x07\x00", 8)),
                  "version 7.0");
  expect_rejected(file("missing.npy"), "cannot open");
}

}  // namespace
