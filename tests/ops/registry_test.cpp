// tests/ops/registry_test.cpp — the op table: names, lookup, defaults, input counts, classes.
#include <set>

#include "op_test_support.hpp"

namespace kbv {
namespace {

using test::op_named;

const std::set<std::string> kExpectedOps = {
    "relu", "gelu", "leaky_relu", "sigmoid", "tanh",   "scale",  "add",     "mul",      "softmax",
    "sum",  "mean", "layernorm",  "rmsnorm", "matmul", "bmm",    "linear",  "conv2d",   "maxpool2d"};

TEST(OpRegistry, ListsEveryOpOnceAndFindsEachByName) {
  std::set<std::string> names;
  for (const Op* op : all_ops()) {
    ASSERT_NE(op, nullptr);
    EXPECT_TRUE(names.insert(std::string(op->name())).second) << "duplicate op " << op->name();
    EXPECT_EQ(find_op(op->name()), op);
  }
  EXPECT_EQ(names, kExpectedOps);
}

TEST(OpRegistry, UnknownNameGivesNull) {
  EXPECT_EQ(find_op("convolution"), nullptr);
  EXPECT_EQ(find_op(""), nullptr);
  EXPECT_EQ(find_op("ReLU"), nullptr);
}

TEST(OpRegistry, OnlyProductsAreTensorCoreOps) {
  const std::set<std::string> tensor_core = {"matmul", "bmm", "linear", "conv2d"};
  for (const Op* op : all_ops())
    EXPECT_EQ(op->precision_class() == PrecisionClass::tensor_core,
              tensor_core.count(std::string(op->name())) == 1)
        << op->name();
}

TEST(OpRegistry, AttributeDefaultsMatchPyTorch) {
  EXPECT_EQ(op_named("relu").attribute_defaults(), Attrs{});
  EXPECT_EQ(op_named("gelu").attribute_defaults(), Attrs{});
  EXPECT_EQ(op_named("leaky_relu").attribute_defaults(), (Attrs{{"negative_slope", 0.01}}));
  EXPECT_EQ(op_named("scale").attribute_defaults(), (Attrs{{"value", 1}}));
  EXPECT_EQ(op_named("softmax").attribute_defaults(), (Attrs{{"axis", -1}}));
  EXPECT_EQ(op_named("layernorm").attribute_defaults(),
            (Attrs{{"normalized_rank", 1}, {"eps", 1e-5}}));
  EXPECT_EQ(op_named("rmsnorm").attribute_defaults(), (Attrs{{"axis", 1}, {"eps", 1e-5}}));
  EXPECT_EQ(op_named("conv2d").attribute_defaults(),
            (Attrs{{"stride", 1}, {"padding", 0}, {"dilation", 1}, {"groups", 1}}));
  EXPECT_EQ(op_named("maxpool2d").attribute_defaults(),
            (Attrs{{"kernel", 2}, {"stride", 0}, {"padding", 0}, {"dilation", 1}}));
  EXPECT_EQ(op_named("sum").attribute_defaults(), (Attrs{{"axis", -1}, {"keepdim", 1}}));
  EXPECT_EQ(op_named("mean").attribute_defaults(), (Attrs{{"axis", -1}, {"keepdim", 1}}));
  EXPECT_EQ(op_named("matmul").attribute_defaults(), Attrs{});
}

TEST(OpRegistry, InputCountsFollowTheSignatures) {
  struct Count {
    const char* op;
    size_t min, max;
  };
  for (Count c : {Count{"relu", 1, 1}, Count{"add", 2, 2}, Count{"layernorm", 1, 3},
                  Count{"linear", 2, 3}, Count{"conv2d", 2, 3}, Count{"matmul", 2, 2},
                  Count{"maxpool2d", 1, 1}, Count{"sum", 1, 1}}) {
    EXPECT_EQ(op_named(c.op).min_inputs(), c.min) << c.op;
    EXPECT_EQ(op_named(c.op).max_inputs(), c.max) << c.op;
  }
}

}  // namespace
}  // namespace kbv
