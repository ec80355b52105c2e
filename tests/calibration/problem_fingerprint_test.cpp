// tests/calibration/problem_fingerprint_test.cpp — the spec hash a calibration is stored under
// changes with what the timing depends on (graph, attributes, shapes) and not with the rest.
#include <gtest/gtest.h>

#include "calibration/problem_fingerprint.hpp"
#include "spec/catalog.hpp"

namespace kbv::calibration {
namespace {

ResolvedProblem bundled(const std::string& name, const std::string& set = "default") {
  const ProblemCatalog catalog = ProblemCatalog::load(KBV_TEST_PROBLEMS_DIR);
  return resolve_problem(catalog.get(name), set);
}

TEST(ProblemFingerprint, IsStableAndDiffersBetweenProblemsAndShapeSets) {
  const std::string layernorm = problem_fingerprint(bundled("layernorm"));
  EXPECT_EQ(layernorm.size(), 64u);
  EXPECT_EQ(layernorm, problem_fingerprint(bundled("layernorm")));
  EXPECT_NE(layernorm, problem_fingerprint(bundled("layernorm", "small")));
  EXPECT_NE(layernorm, problem_fingerprint(bundled("rmsnorm")));
}

TEST(ProblemFingerprint, ChangesWithAttributesAndWiringNotWithWords) {
  const ResolvedProblem original = bundled("matmul_scale_residual");
  const std::string before = problem_fingerprint(original);
  ResolvedProblem changed = original;
  changed.problem.graph[1].attrs["value"] = 0.25;
  EXPECT_NE(problem_fingerprint(changed), before);
  changed = original;
  std::swap(changed.problem.graph[2].inputs[0], changed.problem.graph[2].inputs[1]);
  EXPECT_NE(problem_fingerprint(changed), before);
  changed = original;
  changed.input_shapes[0][0] *= 2;
  EXPECT_NE(problem_fingerprint(changed), before);
  changed = original;
  changed.problem.description = "another sentence";
  changed.problem.graph[0].name = "fc";
  changed.problem.tolerance.atol *= 2;
  changed.problem.inputs[1].scale = 3;
  EXPECT_EQ(problem_fingerprint(changed), before);
}

}  // namespace
}  // namespace kbv::calibration
