// daemon/ops/batchnorm/host.cpp — batchnorm's host face: ops/common/channel_norm.hpp over one
// statistics set per channel that spans the batch.
#include "ops/batchnorm/batchnorm.hpp"
#include "ops/common/channel_norm.hpp"

namespace kbv::ops::batchnorm {
namespace {

class BatchNormOp final : public ChannelNormOp<BatchNormOp, Definition> {
 public:
  static constexpr size_t kMinRank = 2;

  // F.batch_norm in training mode: "Expected more than 1 value per channel when training".
  static void check(const Shape& x, const Attrs&) {
    if (numel(x) / x[1] < 2)
      throw OpError("batchnorm: input x has shape " + to_string(x) +
                    "; expected more than one value per channel (N·spatial >= 2), as PyTorch requires in "
                    "training mode");
  }

  static ChannelSets sets(const Shape& x, const Attrs&) { return ChannelSets::per_channel_over_batch(x); }
};

}  // namespace

const Op& host_op() {
  static const BatchNormOp op;
  return op;
}

}  // namespace kbv::ops::batchnorm
