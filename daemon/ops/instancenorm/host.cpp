// daemon/ops/instancenorm/host.cpp — instancenorm's host face: ops/common/channel_norm.hpp over
// one statistics set per (n, c).
#include "ops/common/channel_norm.hpp"
#include "ops/instancenorm/instancenorm.hpp"

namespace kbv::ops::instancenorm {
namespace {

class InstanceNormOp final : public ChannelNormOp<InstanceNormOp, Definition> {
 public:
  static constexpr size_t kMinRank = 3;

  // F.instance_norm with the input's statistics: "Expected more than 1 spatial element when
  // training".
  static void check(const Shape& x, const Attrs&) {
    if (numel(x) / (x[0] * x[1]) < 2)
      throw OpError("instancenorm: input x has shape " + to_string(x) +
                    "; expected more than one spatial element, as PyTorch requires");
  }

  static ChannelSets sets(const Shape& x, const Attrs&) { return ChannelSets::per_group(x, x[1]); }
};

}  // namespace

const Op& host_op() {
  static const InstanceNormOp op;
  return op;
}

}  // namespace kbv::ops::instancenorm
