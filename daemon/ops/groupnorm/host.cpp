// daemon/ops/groupnorm/host.cpp — groupnorm's host face: ops/common/channel_norm.hpp over one
// statistics set per (n, group).
#include "ops/common/channel_norm.hpp"
#include "ops/groupnorm/groupnorm.hpp"

namespace kbv::ops::groupnorm {
namespace {

constexpr double kDefaultGroups = default_of<Definition>("groups");

class GroupNormOp final : public ChannelNormOp<GroupNormOp, Definition> {
 public:
  static constexpr size_t kMinRank = 2;

  // F.group_norm: "Expected number of channels in input to be divisible by num_groups".
  static void check(const Shape& x, const Attrs& attrs) {
    const int64_t groups = op_support::int_attr(Definition::name, attrs, "groups", kDefaultGroups, 1);
    if (x[1] % groups != 0)
      throw OpError("groupnorm: attribute groups is " + std::to_string(groups) + " but x has " +
                    std::to_string(x[1]) + " channels; expected groups to divide C, as PyTorch requires");
  }

  static ChannelSets sets(const Shape& x, const Attrs& attrs) {
    return ChannelSets::per_group(x,
                                  op_support::int_attr(Definition::name, attrs, "groups", kDefaultGroups, 1));
  }
};

}  // namespace

const Op& host_op() {
  static const GroupNormOp op;
  return op;
}

}  // namespace kbv::ops::groupnorm
