// tests/ops/shape_test.cpp — shape inference of every op on valid shapes, and the errors it
// raises (naming what is wrong and what was expected) on invalid shapes and attributes.
#include "op_test_support.hpp"

namespace kbv {
namespace {

using test::op_named;

Shape infer(const std::string& op, const std::vector<Shape>& shapes, const Attrs& attrs = {}) {
  return op_named(op).infer_shape(shapes, attrs);
}

// Expects infer_shape to throw OpError whose message contains `expected_text`.
void expect_rejected(const std::string& op, const std::vector<Shape>& shapes, const Attrs& attrs,
                     const std::string& expected_text) {
  try {
    Shape out = infer(op, shapes, attrs);
    ADD_FAILURE() << op << " accepted invalid input, inferring " << to_string(out);
  } catch (const OpError& error) {
    EXPECT_NE(std::string(error.what()).find(expected_text), std::string::npos)
        << op << " message: " << error.what() << "\nexpected it to contain: " << expected_text;
    EXPECT_EQ(std::string(error.what()).rfind(op + ":", 0), 0u)
        << "message should start with the op name: " << error.what();
  }
}

TEST(ShapeInference, Conv2dFollowsPyTorchOutputSize) {
  EXPECT_EQ(infer("conv2d", {{16, 16, 1024, 1024}, {128, 16, 3, 3}}),
            (Shape{16, 128, 1022, 1022}));
  EXPECT_EQ(infer("conv2d", {{2, 4, 12, 12}, {8, 4, 3, 3}, {8}}), (Shape{2, 8, 10, 10}));
  // floor((7 + 2·1 − 2·(3−1) − 1) / 2) + 1 = 3
  EXPECT_EQ(infer("conv2d", {{1, 4, 7, 7}, {6, 2, 3, 3}},
                  {{"stride", 2}, {"padding", 1}, {"dilation", 2}, {"groups", 2}}),
            (Shape{1, 6, 3, 3}));
  expect_rejected("conv2d", {{1, 4, 8, 8}, {6, 3, 3, 3}}, {}, "expected weight.shape[1] == 4");
  expect_rejected("conv2d", {{1, 4, 8, 8}, {6, 2, 3, 3}}, {{"groups", 3}},
                  "expected C to be a multiple of groups");
  expect_rejected("conv2d", {{1, 4, 8, 8}, {6, 1, 3, 3}}, {{"groups", 4}},
                  "expected O to be a multiple of groups");
  expect_rejected("conv2d", {{1, 4, 2, 2}, {6, 4, 3, 3}}, {}, "does not fit input 2x2");
  expect_rejected("conv2d", {{1, 4, 8, 8}, {6, 4, 3, 3}, {4}}, {}, "expected [6]");
  expect_rejected("conv2d", {{4, 8, 8}, {6, 4, 3, 3}}, {}, "expected rank 4 [N, C, H, W]");
  expect_rejected("conv2d", {{1, 4, 8, 8}, {6, 4, 3, 3}}, {{"stride", 0}}, "expected an integer >= 1");
  expect_rejected("conv2d", {{1, 4, 8, 8}, {6, 4, 3, 3}}, {{"padding", 1.5}}, "expected an integer");
}

TEST(ShapeInference, ExplicitDefaultsMeanTheSameAsNone) {
  struct Case {
    const char* op;
    std::vector<Shape> shapes;
  };
  const std::vector<Case> cases = {
      {"conv2d", {{1, 2, 6, 6}, {3, 2, 3, 3}}}};
  for (const Case& c : cases) {
    const Op& op = op_named(c.op);
    EXPECT_EQ(op.infer_shape(c.shapes, op.attribute_defaults()), op.infer_shape(c.shapes, {}))
        << c.op;
  }
}

}  // namespace
}  // namespace kbv
