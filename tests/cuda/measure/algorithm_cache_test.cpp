// tests/cuda/measure/algorithm_cache_test.cpp — the cuDNN algorithm cache's file: choices come
// back per key, a missing or malformed file is an empty cache (and is rewritten), and a file
// that cannot be written is reported, not fatal. No GPU.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "measure/baseline/algorithm_cache.hpp"

namespace kbv::cuda::measure {
namespace {

class AlgorithmCacheTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() / ("kbv-algorithm-cache-" + std::to_string(::getpid()));
    std::filesystem::remove_all(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::filesystem::path dir_;
};

TEST_F(AlgorithmCacheTest, RemembersChoicesPerKeyInAFileItCreates) {
  const AlgorithmCache cache(dir_ / "state" / "cudnn-conv-algorithms.json");
  EXPECT_FALSE(cache.find("H200|conv a").has_value());
  ASSERT_TRUE(cache.remember("H200|conv a", {6, 0}));
  ASSERT_TRUE(cache.remember("H200|conv b", {1, 3}));
  ASSERT_TRUE(cache.remember("H200|conv a", {2, 1}));  // replaced, not duplicated
  const auto a = cache.find("H200|conv a");
  const auto b = cache.find("H200|conv b");
  ASSERT_TRUE(a && b);
  EXPECT_EQ(a->algorithm, 2);
  EXPECT_EQ(a->math_type, 1);
  EXPECT_EQ(b->algorithm, 1);
  EXPECT_EQ(b->math_type, 3);
  EXPECT_FALSE(cache.find("A100|conv a").has_value());
}

TEST_F(AlgorithmCacheTest, AMalformedFileIsAnEmptyCacheAndIsRewritten) {
  std::filesystem::create_directories(dir_);
  const std::filesystem::path file = dir_ / "cache.json";
  for (const char* content : {"{not json", "[1, 2]", "{\"version\": 7, \"entries\": {}}",
                              "{\"version\": 1, \"entries\": {\"k\": {\"algorithm\": \"six\", \"math_type\": 0}}}"}) {
    std::ofstream(file, std::ios::trunc) << content;
    const AlgorithmCache cache(file);
    EXPECT_FALSE(cache.find("k").has_value()) << content;
    ASSERT_TRUE(cache.remember("k", {6, 0})) << content;
    ASSERT_TRUE(cache.find("k").has_value()) << content;
    EXPECT_EQ(cache.find("k")->algorithm, 6);
  }
}

TEST_F(AlgorithmCacheTest, AnUnwritableFileIsReportedNotFatal) {
  std::filesystem::create_directories(dir_);
  const std::filesystem::path blocked = dir_ / "a-file";
  std::ofstream(blocked) << "x";
  const AlgorithmCache cache(blocked / "cache.json");  // its directory is a file
  std::string error;
  EXPECT_FALSE(cache.remember("k", {1, 0}, &error));
  EXPECT_FALSE(error.empty());
  EXPECT_FALSE(cache.find("k").has_value());
}

}  // namespace
}  // namespace kbv::cuda::measure
