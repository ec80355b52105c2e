// tests/calibration/library_sources_test.cpp — the digest of a problem's library baseline sources
// (calibration/library_sources.hpp): every registered op has one; a problem's digest is stable,
// depends on the set of ops in its graph (not on their order, count or attributes) and differs
// between problems built from different ops.
#include <gtest/gtest.h>

#include "calibration/library_sources.hpp"
#include "ops/registry.hpp"
#include "spec/catalog.hpp"

namespace kbv::calibration {
namespace {

Problem bundled(const std::string& name) { return ProblemCatalog::load(KBV_TEST_PROBLEMS_DIR).get(name); }

TEST(LibrarySources, EveryRegisteredOpHasADigestOfItsOwnSources) {
  for (const Op* op : all_ops()) {
    const auto found = detail::op_library_sources().find(op->name());
    ASSERT_NE(found, detail::op_library_sources().end()) << op->name();
    EXPECT_EQ(found->second.size(), 64u) << op->name();
  }
  EXPECT_EQ(detail::op_library_sources().size(), all_ops().size()) << "a folder under daemon/ops/ that is not a registered op";
  EXPECT_EQ(detail::shared_library_sources().size(), 64u);
}

TEST(LibrarySources, AProblemsDigestFollowsTheSetOfItsOps) {
  const Problem softmax = bundled("softmax");
  const std::string digest = library_sources_sha256(softmax);
  EXPECT_EQ(digest.size(), 64u);
  EXPECT_EQ(digest, library_sources_sha256(softmax));
  EXPECT_NE(digest, library_sources_sha256(bundled("rmsnorm")));
  Problem twice = softmax;  // the same op again, other attributes: the same code
  twice.graph.push_back(twice.graph.front());
  twice.graph.back().attrs["axis"] = 0;
  EXPECT_EQ(library_sources_sha256(twice), digest);
  Problem unknown = softmax;
  unknown.graph.front().op = "no_such_op";
  EXPECT_THROW((void)library_sources_sha256(unknown), std::invalid_argument);
}

}  // namespace
}  // namespace kbv::calibration
