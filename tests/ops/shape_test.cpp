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

TEST(ShapeInference, MatmulAndBmmInnerDims) {
  EXPECT_EQ(infer("matmul", {{8205, 2949}, {2949, 5921}}), (Shape{8205, 5921}));
  expect_rejected("matmul", {{3, 4}, {5, 6}}, {}, "expected b.shape[0] == a.shape[1]");
  expect_rejected("matmul", {{3, 4, 5}, {5, 6}}, {}, "expected rank 2 [M, K]");
  EXPECT_EQ(infer("bmm", {{128, 512, 1024}, {128, 1024, 2048}}), (Shape{128, 512, 2048}));
  expect_rejected("bmm", {{2, 3, 4}, {3, 4, 5}}, {}, "equal batch sizes");
  expect_rejected("bmm", {{2, 3, 4}, {2, 5, 6}}, {}, "b.shape[1] == a.shape[2]");
  expect_rejected("bmm", {{3, 4}, {4, 5}}, {}, "expected rank 3");
}

TEST(ShapeInference, LinearTakesWeightOutByIn) {
  EXPECT_EQ(infer("linear", {{1024, 8192}, {4096, 8192}, {4096}}), (Shape{1024, 4096}));
  EXPECT_EQ(infer("linear", {{2, 3, 8}, {5, 8}}), (Shape{2, 3, 5}));
  expect_rejected("linear", {{4, 8}, {8, 5}}, {}, "expected weight.shape[1] == x.shape[-1] (8)");
  expect_rejected("linear", {{4, 8}, {5, 8}, {8}}, {}, "bias has shape [8]; expected [5]");
  expect_rejected("linear", {{4, 8}, {5, 8}, {5, 1}}, {}, "expected [5]");
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
