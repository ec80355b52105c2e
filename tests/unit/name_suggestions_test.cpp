// unit/name_suggestions_test.cpp — an unknown name's fix suggests the close names, not the catalog.
#include "spec/name_suggestions.hpp"

#include <gtest/gtest.h>

#include <algorithm>

namespace kbv {
namespace {

std::vector<std::string> many_names() {
  std::vector<std::string> names{"relu", "relu6", "leaky_relu", "softmax", "log_softmax", "matmul_square", "matmul_scale_residual", "gelu"};
  for (int i = 0; names.size() < 40; ++i) names.push_back("level2_problem_" + std::to_string(i));
  return names;
}

TEST(NameSuggestions, ATypoFindsItsTarget) {
  const auto close = closest_names("relux", many_names());
  ASSERT_FALSE(close.empty());
  EXPECT_EQ(close.front(), "relu");
  EXPECT_EQ(closest_names("sofmtax", many_names()).front(), "softmax");
}

TEST(NameSuggestions, AFragmentFindsTheNamesThatContainIt) {
  const auto close = closest_names("matmul", many_names());
  EXPECT_NE(std::find(close.begin(), close.end(), "matmul_square"), close.end());
  EXPECT_NE(std::find(close.begin(), close.end(), "matmul_scale_residual"), close.end());
}

TEST(NameSuggestions, AtMostAFewAndNothingFarAway) {
  EXPECT_LE(closest_names("level2_problem", many_names()).size(), kMostSuggestions);
  EXPECT_TRUE(closest_names("convolution_transpose_3d", many_names()).empty());
  EXPECT_TRUE(closest_names("", many_names()).empty());
}

TEST(NameSuggestions, TheFixListsAShortCatalogWholeAndALongOneByItsClosest) {
  EXPECT_EQ(unknown_name_fix("x", {"a", "b"}, "kbv problems"), "use one of: a, b");
  const std::string typo = unknown_name_fix("relux", many_names(), "kbv problems");
  EXPECT_EQ(typo.rfind("did you mean relu", 0), 0u) << typo;
  EXPECT_NE(typo.find("kbv problems lists all 40"), std::string::npos) << typo;
  EXPECT_EQ(typo.find("level2_problem_3"), std::string::npos) << typo;
  EXPECT_EQ(unknown_name_fix("convolution_transpose_3d", many_names(), "kbv problems"), "kbv problems lists all 40");
}

}  // namespace
}  // namespace kbv
