// data/reference_ops.cpp — dispatch from an op name to its fp64 device reference, the
// `device_reference` face of its folder under daemon/ops/ (over the op list ops.cmake writes).
// Shapes and attributes are validated here with the host op's own infer_shape and defaults, so
// both sides agree on defaults, negative axes and validation before any face runs.
#include "data/reference_ops.hpp"

#include <algorithm>
#include <map>

#include "common/device_buffer.hpp"
#include "data/reference_kernels.hpp"
#include "ops/common/reference/channel_bias_f64.hpp"
#include "ops/common/reference/gemm_f64.hpp"
#include "ops/common/reference/reference_call.hpp"
#include "ops/op_support.hpp"
#include "ops/registry.hpp"

#define KBV_OP(OP_NAME) \
  namespace kbv::ops::OP_NAME { void device_reference(const ::kbv::ops::ReferenceCall&); }
#include "ops/op_list.inc"
#undef KBV_OP

namespace kbv::cuda {
namespace {

using Call = ops::ReferenceCall;

// im2col in chunks of output pixels, each followed by one GEMM per group:
//   y[n, group's channels, chunk] = weight[group] [Og, Kc] · columns [Kc, chunk].
void conv2d_chunked(const Call& c, size_t max_column_bytes) {
  const Shape& x = c.shape(0);
  const Shape& w = c.shape(1);
  const Shape& y = c.args.output_shape;  // validated against the host's infer_shape
  ref::ConvGeometry g;
  g.batch = x[0], g.in_channels = x[1], g.in_h = x[2], g.in_w = x[3];
  g.out_channels = w[0], g.kernel_h = w[2], g.kernel_w = w[3], g.out_h = y[2], g.out_w = y[3];
  g.stride = c.integer("stride", 1);
  g.padding = c.integer("padding", 0);
  g.dilation = c.integer("dilation", 1);
  g.groups = c.integer("groups", 1);

  const int64_t rows = g.column_rows(), pixels = g.out_pixels();
  const auto budget_columns = static_cast<int64_t>(max_column_bytes / (sizeof(double) * rows));
  const int64_t chunk = std::clamp<int64_t>(budget_columns, 1, pixels);
  auto columns = DeviceBuffer<double>::on_stream(static_cast<size_t>(rows * chunk), c.stream);
  const int64_t group_out = g.group_out_channels();
  for (int64_t image = 0; image < g.batch; ++image) {
    for (int64_t first = 0; first < pixels; first += chunk) {
      const int64_t count = std::min(chunk, pixels - first);
      for (int64_t group = 0; group < g.groups; ++group) {
        ref::im2col_f64(c.input(0), columns.get(), g, image, group, first, count, c.stream);
        ops::reference::RowMajorGemm gemm;
        gemm.m = group_out, gemm.n = count, gemm.k = rows;
        gemm.a = c.input(1) + group * group_out * rows, gemm.lda = rows;
        gemm.b = columns.get(), gemm.ldb = count;
        gemm.c = c.args.output + (image * g.out_channels + group * group_out) * pixels + first;
        gemm.ldc = pixels;
        ops::reference::gemm_f64(c.context, gemm);
      }
    }
  }
  if (c.input(2) != nullptr) {
    ops::reference::add_channel_bias_f64(c.args.output, c.input(2), g.batch, g.out_channels, pixels, c.stream);
  }
}
void conv2d(const Call& c) { conv2d_chunked(c, kConvColumnBudgetBytes); }

using DeviceOp = void (*)(const Call&);

const std::map<std::string, DeviceOp, std::less<>>& device_ops() {
  static const std::map<std::string, DeviceOp, std::less<>> table = {
#define KBV_OP(OP_NAME) {#OP_NAME, &::kbv::ops::OP_NAME::device_reference},
#include "ops/op_list.inc"
#undef KBV_OP
      {"conv2d", conv2d}};
  return table;
}

const Op& host_op(std::string_view op_name) {
  const Op* op = find_op(op_name);
  if (op == nullptr)
    throw OpError("device reference: no op named '" + std::string(op_name) +
                  "' in the host registry (ops/registry.cpp)");
  return *op;
}

}  // namespace

void run_op_f64_device(std::string_view op_name, const OpArgs<double>& args,
                       const ReferenceContext& context) {
  const Op& op = host_op(op_name);
  auto entry = device_ops().find(op_name);
  if (entry == device_ops().end())
    throw OpError(std::string(op_name) +
                  ": the host registry has this op but the CUDA device reference does not "
                  "(add it to daemon/cuda/data/reference_ops.cpp)");
  entry->second(ops::make_reference_call(op, args, context));
}

bool has_device_reference(std::string_view op_name) {
  return device_ops().find(op_name) != device_ops().end();
}

std::vector<std::string> device_reference_op_names() {
  std::vector<std::string> names;
  for (const auto& [name, op] : device_ops()) names.push_back(name);
  return names;
}

void conv2d_f64_device(const OpArgs<double>& args, const ReferenceContext& context,
                       size_t max_column_bytes) {
  const Op& op = host_op("conv2d");
  conv2d_chunked(ops::make_reference_call(op, args, context), max_column_bytes);
}

}  // namespace kbv::cuda
