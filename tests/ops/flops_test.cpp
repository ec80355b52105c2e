// tests/ops/flops_test.cpp — FLOP counts on known shapes: exact for products, the documented
// lower bounds elsewhere (a physical floor must never be overstated).
#include "op_test_support.hpp"

namespace kbv {
namespace {

using test::op_named;

double flops(const std::string& name, const std::vector<Shape>& shapes, const Attrs& attrs = {}) {
  const Op& op = op_named(name);
  return op.flops(shapes, op.infer_shape(shapes, attrs), attrs);
}

TEST(Flops, Conv2dCountsTapsThatTouchTheInput) {
  // KernelBench L1 #63: 2·N·O·OH·OW·C·KH·KW.
  EXPECT_EQ(flops("conv2d", {{16, 16, 1024, 1024}, {128, 16, 3, 3}}),
            2.0 * 16 * 128 * 1022 * 1022 * 16 * 3 * 3);
  // Groups divide the channels each output sees.
  EXPECT_EQ(flops("conv2d", {{2, 8, 10, 10}, {6, 4, 3, 3}}, {{"groups", 2}}),
            2.0 * 2 * 6 * 8 * 8 * 4 * 3 * 3);
  // Padding: a 2x2 kernel over a 3x3 image padded by 1 has 4x4 outputs, but each of the 9
  // pixels meets each of the 4 taps once: 36 multiply-adds, not 16·4 = 64.
  EXPECT_EQ(flops("conv2d", {{1, 1, 3, 3}, {1, 1, 2, 2}}, {{"padding", 1}}), 2.0 * 36);
}

}  // namespace
}  // namespace kbv
