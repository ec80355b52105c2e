// ops/common/strided_copy.hpp — a layout op (flatten, transpose, cat, flip, …) as a list of
// strided copies: each walks a box of indices, reads its input at an affine offset of the index
// and writes the output at another. One plan per application serves every face: the host loop
// below (fp64 reference and fp32 host baseline), the CUDA fp64 reference and the CUDA fp32
// baseline (ops/common/strided_copy.cuh). Layout ops do no arithmetic, so the plan is the whole
// op; their hand-worked values (each op's cases.cpp, from PyTorch) are what checks it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "ops/op.hpp"

namespace kbv::ops::layout {

// A candidate sees at most 8 dims per tensor (KBV_MAX_RANK, plugin-sdk/include/kbv/plugin.h);
// layout ops keep every tensor they take or make within that, so a copy box has at most 8 too.
constexpr int kMaxRank = 8;

// Box index (i_0, …, i_{rank−1}), 0 ≤ i_d < dims[d], reads element
// in_offset + Σ i_d·in_strides[d] of input `input` and writes element
// out_offset + Σ i_d·out_strides[d] of the output. Strides count elements; an input stride is
// negative where the copy runs an axis backwards (flip). Rank 0 copies one element. A plain
// struct of fixed size, so the CUDA kernels take it by value.
struct StridedCopy {
  int32_t input = 0;
  int32_t rank = 0;
  int64_t dims[kMaxRank] = {};
  int64_t in_strides[kMaxRank] = {};
  int64_t out_strides[kMaxRank] = {};
  int64_t in_offset = 0;
  int64_t out_offset = 0;
};

// A layout op on given input shapes: its output shape and the copies that write each output
// element exactly once.
struct CopyPlan {
  Shape output;
  std::vector<StridedCopy> copies;
};

// Elements one copy moves (the product of its dims).
int64_t element_count(const StridedCopy& copy);

// Row-major element strides of `shape` (the last is 1).
std::vector<int64_t> contiguous_strides(const Shape& shape);

// The copy of box `dims` with the given strides (dims.size() entries each). Extent-1 dims are
// dropped and adjacent dims merged where both strides allow, so a cat along axis 1 of [N, C, H,
// W] inputs becomes a rank-2 copy and a reshape a rank-1 one: the kernels do the least index
// arithmetic, and every face walks the same merged box.
StridedCopy make_copy(size_t input, const Shape& dims, const std::vector<int64_t>& in_strides,
                      int64_t in_offset, const std::vector<int64_t>& out_strides,
                      int64_t out_offset);

// An op that writes its output in output order from one input (transpose, select, slice,
// flip): the box is the output, written contiguously; the input is read at `in_strides`
// (output.size() entries) from `in_offset`.
CopyPlan gather_plan(Shape output, const std::vector<int64_t>& in_strides, int64_t in_offset);

// An op that only renames axes (flatten, unflatten, squeeze, unsqueeze): every element copied
// in order, one rank-1 copy.
CopyPlan reshape_plan(const Shape& input, Shape output);

// True when the plan is one in-order copy of a whole input onto the whole output (a memcpy).
bool is_whole_copy(const CopyPlan& plan);

// What every layout op checks first: between min_count and max_count inputs, every dim at least
// 1, every rank at most kMaxRank (throws OpError starting with "<op>:").
void check_inputs(std::string_view op, std::string_view signature, const std::vector<Shape>& inputs,
                  size_t min_count, size_t max_count);
// Throws OpError unless the output's rank is at most kMaxRank.
void check_output_rank(std::string_view op, const Shape& output);

// An axis attribute naming where a new axis goes in a rank-(rank + 1) output (unsqueeze, stack):
// in [−rank−1, rank], negative counting from the end of the output, as an index in [0, rank].
size_t insertion_axis(std::string_view op, const Attrs& attrs, const std::string& name,
                      double fallback, size_t rank);

// Runs one copy on the host: the innermost dim in a loop, the others as an odometer.
template <class T>
void copy_on_host(const StridedCopy& copy, const T* in, T* out) {
  if (copy.rank == 0) {
    out[copy.out_offset] = in[copy.in_offset];
    return;
  }
  const int last = copy.rank - 1;
  int64_t index[kMaxRank] = {};
  int64_t in_at = copy.in_offset, out_at = copy.out_offset;
  for (;;) {
    for (int64_t i = 0; i < copy.dims[last]; ++i)
      out[out_at + i * copy.out_strides[last]] = in[in_at + i * copy.in_strides[last]];
    int d = last - 1;
    for (; d >= 0; --d) {
      in_at += copy.in_strides[d];
      out_at += copy.out_strides[d];
      if (++index[d] < copy.dims[d]) break;
      in_at -= copy.in_strides[d] * copy.dims[d];
      out_at -= copy.out_strides[d] * copy.dims[d];
      index[d] = 0;
    }
    if (d < 0) return;
  }
}

}  // namespace kbv::ops::layout
