// ops/common/channel_sets.hpp — which elements batchnorm, groupnorm and instancenorm take their
// statistics over, for every face (host and device): x seen as [N, C, S] (S the product of the
// spatial dims) is split into statistics sets, each normalised with its own mean and biased
// variance, and every element then gets its channel's weight and bias.
//   batchnorm     one set per channel c, over every n and s: N segments of S elements, C·S apart
//   groupnorm     one set per (n, group): one segment of (C/groups)·S contiguous elements
//   instancenorm  one set per (n, c): groupnorm with groups = C
#pragma once

#include <cstdint>

#include "ops/common/scalar_math.hpp"
#include "tensor/shape.hpp"

namespace kbv::ops {

struct ChannelSets {
  int64_t batch = 1, channels = 1, spatial = 1;  // x as [N, C, S]
  int64_t channels_per_set = 1;                  // 1, or C/groups
  bool across_batch = false;                     // batchnorm: a set spans every n

  // Batch normalisation's sets (training mode: statistics of the batch).
  static ChannelSets per_channel_over_batch(const Shape& x) {
    ChannelSets sets = of(x);
    sets.across_batch = true;
    return sets;
  }
  // Group normalisation's sets; `groups` divides C (instance normalisation: groups = C).
  static ChannelSets per_group(const Shape& x, int64_t groups) {
    ChannelSets sets = of(x);
    sets.channels_per_set = sets.channels / groups;
    return sets;
  }

  KBV_HOST_DEVICE int64_t groups() const { return channels / channels_per_set; }
  KBV_HOST_DEVICE int64_t count() const { return across_batch ? channels : batch * groups(); }
  // A set is `segments` runs of `segment_length` contiguous elements, `segment_stride` apart.
  KBV_HOST_DEVICE int64_t segments() const { return across_batch ? batch : 1; }
  KBV_HOST_DEVICE int64_t segment_length() const { return channels_per_set * spatial; }
  KBV_HOST_DEVICE int64_t segment_stride() const { return channels * spatial; }
  KBV_HOST_DEVICE int64_t set_size() const { return segments() * segment_length(); }
  // Offset of set `set`'s first element, and the channel it starts at.
  KBV_HOST_DEVICE int64_t set_start(int64_t set) const {
    return set * (across_batch ? spatial : segment_length());
  }
  KBV_HOST_DEVICE int64_t first_channel(int64_t set) const {
    return across_batch ? set : (set % groups()) * channels_per_set;
  }
  // The set and the channel of element `index` of x.
  KBV_HOST_DEVICE int64_t channel_of(int64_t index) const { return index / spatial % channels; }
  KBV_HOST_DEVICE int64_t set_of(int64_t index) const {
    const int64_t plane = index / spatial;  // n·C + c
    const int64_t c = plane % channels;
    return across_batch ? c : (plane / channels) * groups() + c / channels_per_set;
  }

 private:
  static ChannelSets of(const Shape& x) {
    ChannelSets sets;
    sets.batch = x.at(0);
    sets.channels = x.at(1);
    for (size_t d = 2; d < x.size(); ++d) sets.spatial *= x[d];
    return sets;
  }
};

}  // namespace kbv::ops
