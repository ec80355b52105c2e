// ops/matmul/matmul_plan.hpp — a matmul application as its faces compute it: shape inference,
// the broadcast batch of products with each one's operand offsets, and those products grouped
// into the calls cuBLAS runs (one GEMM with the leading axes folded into M, or strided batches).
// Shared by host.cpp, reference.cpp and baseline.cpp; host code only (no CUDA).
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "ops/common/products.hpp"
#include "ops/op_support.hpp"

namespace kbv::ops::matmul {

// Most products one application may broadcast to: KernelBench's largest batches are in the
// thousands (attention's batch × heads); 2^22 keeps a plan's offsets under 64 MiB.
inline constexpr int64_t kMaxMatmulProducts = int64_t{1} << 22;

// a[..., M, K] · b[..., K, N] (a stored [..., K, M] when transpose_a, b [..., N, K] when
// transpose_b); the leading axes broadcast, numpy's rules aligned on the right.
struct MatmulPlan {
  int64_t m = 0, n = 0, k = 0;
  bool transpose_a = false, transpose_b = false;
  Shape batch;                     // the output's leading axes (broadcast of a's and b's)
  std::vector<int64_t> a_offsets;  // per product, row-major over `batch`: where its a starts
  std::vector<int64_t> b_offsets;  // and its b, in elements; its c starts at index · M·N
  Shape output;                    // batch + [M, N]
};

// The products of an application; throws OpError naming the mismatch. `name` is the op's.
inline MatmulPlan plan_matmul(std::string_view name, const std::vector<Shape>& inputs,
                              const Attrs& attrs) {
  using namespace op_support;
  check_input_count(name, "a, b", inputs, 2, 2);
  check_dims_positive(name, inputs);
  MatmulPlan plan;
  plan.transpose_a = flag_attr(name, attrs, "transpose_a", 0);
  plan.transpose_b = flag_attr(name, attrs, "transpose_b", 0);
  const Shape& a = inputs[0];
  const Shape& b = inputs[1];
  const char* a_layout = plan.transpose_a ? "[..., K, M] (transpose_a)" : "[..., M, K]";
  const char* b_layout = plan.transpose_b ? "[..., N, K] (transpose_b)" : "[..., K, N]";
  if (a.size() < 2)
    throw OpError(std::string(name) + ": a has shape " + to_string(a) + "; expected rank >= 2 " +
                  a_layout + " (vector operands are not supported)");
  if (b.size() < 2)
    throw OpError(std::string(name) + ": b has shape " + to_string(b) + "; expected rank >= 2 " +
                  b_layout + " (vector operands are not supported)");
  const int64_t a_rows = a[a.size() - 2], a_cols = a.back();
  const int64_t b_rows = b[b.size() - 2], b_cols = b.back();
  plan.m = plan.transpose_a ? a_cols : a_rows;
  plan.k = plan.transpose_a ? a_rows : a_cols;
  plan.n = plan.transpose_b ? b_rows : b_cols;
  const int64_t b_k = plan.transpose_b ? b_cols : b_rows;
  if (b_k != plan.k)
    throw OpError(inner_mismatch(name, a, b,
                                 std::string("b.shape[") + (plan.transpose_b ? "-1" : "-2") +
                                     "] == a.shape[" + (plan.transpose_a ? "-2" : "-1") + "] (a" +
                                     a_layout + " · b" + b_layout + ")"));
  const Shape a_batch(a.begin(), a.end() - 2), b_batch(b.begin(), b.end() - 2);
  const size_t rank = std::max(a_batch.size(), b_batch.size());
  plan.batch.assign(rank, 1);
  for (size_t d = 0; d < rank; ++d) {  // d counts from the last batch axis
    const int64_t da = d < a_batch.size() ? a_batch[a_batch.size() - 1 - d] : 1;
    const int64_t db = d < b_batch.size() ? b_batch[b_batch.size() - 1 - d] : 1;
    if (da != db && da != 1 && db != 1)
      throw OpError(inner_mismatch(name, a, b,
                                   "leading (batch) axes that broadcast, equal sizes or 1 aligned "
                                   "on the right; batch axis -" + std::to_string(d + 1) + " is " +
                                   std::to_string(da) + " vs " + std::to_string(db)));
    plan.batch[rank - 1 - d] = da == 1 ? db : da;
  }
  // Bounded before anything is sized by it: the plan keeps two offsets per product, and shape
  // inference runs at every catalog load (review: a broadcast batch of 2^32 products asked for
  // 64 GiB there; one of 2^40 overflowed numel).
  int64_t products = 1;
  for (const int64_t size : plan.batch) products = bounded_product(name, "the broadcast batch", products, size);
  if (products > kMaxMatmulProducts)
    throw OpError(std::string(name) + ": a broadcast batch of " + std::to_string(products) + " products (" + to_string(plan.batch) +
                  ") is beyond " + std::to_string(kMaxMatmulProducts) + "; fold the batch into M, or use bmm");
  (void)bounded_product(name, "the output's element count", bounded_product(name, "the output's element count", products, plan.m), plan.n);
  const std::vector<int64_t> a_strides = broadcast_strides(a_batch, plan.batch);
  const std::vector<int64_t> b_strides = broadcast_strides(b_batch, plan.batch);
  plan.a_offsets.resize(static_cast<size_t>(products));
  plan.b_offsets.resize(static_cast<size_t>(products));
  for (int64_t p = 0; p < products; ++p) {
    int64_t rest = p, a_index = 0, b_index = 0;
    for (size_t d = rank; d-- > 0;) {
      const int64_t coordinate = rest % plan.batch[d];
      rest /= plan.batch[d];
      a_index += coordinate * a_strides[d];
      b_index += coordinate * b_strides[d];
    }
    plan.a_offsets[static_cast<size_t>(p)] = a_index * plan.m * plan.k;
    plan.b_offsets[static_cast<size_t>(p)] = b_index * plan.k * plan.n;
  }
  plan.output = plan.batch;
  plan.output.push_back(plan.m);
  plan.output.push_back(plan.n);
  return plan;
}

// One cuBLAS call: `batch` products of `m` rows each whose operands advance by constant strides
// (elements; 0 reuses a broadcast operand); c is contiguous, product after product.
struct GemmCall {
  int64_t m = 0;
  int64_t batch = 1;
  int64_t a_offset = 0, a_stride = 0;
  int64_t b_offset = 0, b_stride = 0;
  int64_t c_offset = 0;
};

// The plan's products as few calls as constant strides allow, as PyTorch's matmul runs them:
// when b is one matrix for every product and a's matrices are consecutive untransposed rows,
// the leading axes fold into M (one GEMM, a[..., M, K] read as [ΠB·M, K]); otherwise runs of
// consecutive products with constant strides, each one strided-batched call (one run for every
// KernelBench form; a broadcast of both operands, a[2, 1] against b[1, 3], takes one per row).
inline std::vector<GemmCall> gemm_calls(const MatmulPlan& plan) {
  std::vector<GemmCall> calls;
  const auto products = static_cast<int64_t>(plan.a_offsets.size());
  for (int64_t p = 0; p < products;) {
    GemmCall call;
    call.m = plan.m;
    call.a_offset = plan.a_offsets[static_cast<size_t>(p)];
    call.b_offset = plan.b_offsets[static_cast<size_t>(p)];
    call.c_offset = p * plan.m * plan.n;
    if (p + 1 < products) {
      call.a_stride = plan.a_offsets[static_cast<size_t>(p + 1)] - call.a_offset;
      call.b_stride = plan.b_offsets[static_cast<size_t>(p + 1)] - call.b_offset;
    }
    while (p + call.batch < products &&
           plan.a_offsets[static_cast<size_t>(p + call.batch)] ==
               call.a_offset + call.batch * call.a_stride &&
           plan.b_offsets[static_cast<size_t>(p + call.batch)] ==
               call.b_offset + call.batch * call.b_stride)
      ++call.batch;
    p += call.batch;
    if (call.batch == 1) call.a_stride = call.b_stride = 0;
    const bool foldable = call.batch > 1 && call.b_stride == 0 && !plan.transpose_a &&
                          call.a_stride == plan.m * plan.k;
    if (foldable) {
      call.m = call.batch * plan.m;
      call.batch = 1;
      call.a_stride = 0;
    }
    calls.push_back(call);
  }
  return calls;
}

}  // namespace kbv::ops::matmul
