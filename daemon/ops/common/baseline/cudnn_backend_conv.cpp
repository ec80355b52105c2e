// daemon/ops/common/baseline/cudnn_backend_conv.cpp — the backend-API convolution: tensor,
// convolution and operation descriptors, the operation graph, the heuristics' engine
// configurations, their execution plans, and a variant pack per run. Every descriptor is owned
// by a shared_ptr whose deleter calls cudnnBackendDestroyDescriptor.
#include "ops/common/baseline/cudnn_backend_conv.hpp"

#include <array>
#include <stdexcept>
#include <utility>

#include "measure/support/library_errors.hpp"

namespace kbv::ops::baseline {
namespace {

using cuda::measure::check;
using Descriptor = std::shared_ptr<void>;

// Tensor ids of the variant pack.
constexpr int64_t kXId = 'x', kWId = 'w', kYId = 'y';
// cuDNN's sm90 kernels load through TMA, which wants 16-byte aligned tensors; the scratch buffers
// the channels-last form uses are aligned far beyond that (LibraryContext::scratch_aligned).
constexpr int64_t kAlignmentBytes = 16;

// Owns `raw` (null stays null).
Descriptor owned(cudnnBackendDescriptor_t raw) {
  return Descriptor(raw, [](void* d) {
    if (d != nullptr) static_cast<void>(cudnnBackendDestroyDescriptor(static_cast<cudnnBackendDescriptor_t>(d)));
  });
}
Descriptor create(cudnnBackendDescriptorType_t type, const char* what) {
  cudnnBackendDescriptor_t raw = nullptr;
  check(cudnnBackendCreateDescriptor(type, &raw), what);
  return owned(raw);
}
cudnnBackendDescriptor_t raw(const Descriptor& d) { return static_cast<cudnnBackendDescriptor_t>(d.get()); }

template <class T>
void set(const Descriptor& d, cudnnBackendAttributeName_t name, cudnnBackendAttributeType_t type, const T* values, int64_t count,
         const char* what) {
  check(cudnnBackendSetAttribute(raw(d), name, type, count, values), what);
}
void set_descriptor(const Descriptor& d, cudnnBackendAttributeName_t name, const Descriptor& value, const char* what) {
  cudnnBackendDescriptor_t v = raw(value);
  set(d, name, CUDNN_TYPE_BACKEND_DESCRIPTOR, &v, 1, what);
}

// An fp32 tensor of NCHW-ordered `dims` stored channels-last (N, H, W, C in memory).
Descriptor channels_last_tensor(int64_t id, std::array<int64_t, 4> dims) {
  Descriptor t = create(CUDNN_BACKEND_TENSOR_DESCRIPTOR, "cudnnBackendCreateDescriptor (tensor)");
  const int64_t c = dims[1], h = dims[2], w = dims[3];
  const std::array<int64_t, 4> strides{c * h * w, 1, w * c, c};
  const cudnnDataType_t type = CUDNN_DATA_FLOAT;
  set(t, CUDNN_ATTR_TENSOR_DATA_TYPE, CUDNN_TYPE_DATA_TYPE, &type, 1, "cudnnBackendSetAttribute (tensor type)");
  set(t, CUDNN_ATTR_TENSOR_DIMENSIONS, CUDNN_TYPE_INT64, dims.data(), 4, "cudnnBackendSetAttribute (tensor dims)");
  set(t, CUDNN_ATTR_TENSOR_STRIDES, CUDNN_TYPE_INT64, strides.data(), 4, "cudnnBackendSetAttribute (tensor strides)");
  set(t, CUDNN_ATTR_TENSOR_UNIQUE_ID, CUDNN_TYPE_INT64, &id, 1, "cudnnBackendSetAttribute (tensor id)");
  set(t, CUDNN_ATTR_TENSOR_BYTE_ALIGNMENT, CUDNN_TYPE_INT64, &kAlignmentBytes, 1, "cudnnBackendSetAttribute (tensor alignment)");
  check(cudnnBackendFinalize(raw(t)), "cudnnBackendFinalize (tensor)");
  return t;
}

Descriptor convolution(const BackendConvShape& s) {
  Descriptor c = create(CUDNN_BACKEND_CONVOLUTION_DESCRIPTOR, "cudnnBackendCreateDescriptor (convolution)");
  const int64_t spatial = 2;
  const cudnnDataType_t compute = CUDNN_DATA_FLOAT;
  const cudnnConvolutionMode_t mode = CUDNN_CROSS_CORRELATION;
  set(c, CUDNN_ATTR_CONVOLUTION_SPATIAL_DIMS, CUDNN_TYPE_INT64, &spatial, 1, "cudnnBackendSetAttribute (spatial dims)");
  set(c, CUDNN_ATTR_CONVOLUTION_COMP_TYPE, CUDNN_TYPE_DATA_TYPE, &compute, 1, "cudnnBackendSetAttribute (compute type)");
  set(c, CUDNN_ATTR_CONVOLUTION_CONV_MODE, CUDNN_TYPE_CONVOLUTION_MODE, &mode, 1, "cudnnBackendSetAttribute (mode)");
  set(c, CUDNN_ATTR_CONVOLUTION_PRE_PADDINGS, CUDNN_TYPE_INT64, s.padding, 2, "cudnnBackendSetAttribute (pre paddings)");
  set(c, CUDNN_ATTR_CONVOLUTION_POST_PADDINGS, CUDNN_TYPE_INT64, s.padding, 2, "cudnnBackendSetAttribute (post paddings)");
  set(c, CUDNN_ATTR_CONVOLUTION_FILTER_STRIDES, CUDNN_TYPE_INT64, s.stride, 2, "cudnnBackendSetAttribute (strides)");
  set(c, CUDNN_ATTR_CONVOLUTION_DILATIONS, CUDNN_TYPE_INT64, s.dilation, 2, "cudnnBackendSetAttribute (dilations)");
  check(cudnnBackendFinalize(raw(c)), "cudnnBackendFinalize (convolution)");
  return c;
}

int64_t engine_index(const Descriptor& config) {
  Descriptor engine = create(CUDNN_BACKEND_ENGINE_DESCRIPTOR, "cudnnBackendCreateDescriptor (engine)");
  cudnnBackendDescriptor_t engine_raw = raw(engine);
  int64_t returned = 0;
  if (cudnnBackendGetAttribute(raw(config), CUDNN_ATTR_ENGINECFG_ENGINE, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1, &returned, &engine_raw) !=
          CUDNN_STATUS_SUCCESS ||
      returned != 1)
    return -1;
  int64_t index = -1;
  if (cudnnBackendGetAttribute(engine_raw, CUDNN_ATTR_ENGINE_GLOBAL_INDEX, CUDNN_TYPE_INT64, 1, &returned, &index) != CUDNN_STATUS_SUCCESS)
    return -1;
  return index;
}

}  // namespace

// The graph's descriptors, which the plans refer to: kept as long as any plan lives.
struct BackendConvPlan::Descriptors {
  Descriptor x, w, y, conv, operation, graph;
};

BackendConvPlan::BackendConvPlan(std::shared_ptr<const Descriptors> graph, std::shared_ptr<void> plan, size_t workspace, int64_t engine,
                                 size_t rank)
    : graph_(std::move(graph)), plan_(std::move(plan)), workspace_(workspace), engine_(engine), rank_(rank) {}

std::string BackendConvPlan::describe() const {
  return "cuDNN backend engine " + std::to_string(engine_) + " (heuristics rank " + std::to_string(rank_) + ")";
}

void BackendConvPlan::run(cudnnHandle_t handle, const float* x, const float* w, float* y, void* workspace) const {
  Descriptor pack = create(CUDNN_BACKEND_VARIANT_PACK_DESCRIPTOR, "cudnnBackendCreateDescriptor (variant pack)");
  const std::array<int64_t, 3> ids{kXId, kWId, kYId};
  std::array<void*, 3> pointers{const_cast<float*>(x), const_cast<float*>(w), y};  // cuDNN takes void*; x and w are only read
  set(pack, CUDNN_ATTR_VARIANT_PACK_UNIQUE_IDS, CUDNN_TYPE_INT64, ids.data(), 3, "cudnnBackendSetAttribute (variant ids)");
  set(pack, CUDNN_ATTR_VARIANT_PACK_DATA_POINTERS, CUDNN_TYPE_VOID_PTR, pointers.data(), 3, "cudnnBackendSetAttribute (variant pointers)");
  set(pack, CUDNN_ATTR_VARIANT_PACK_WORKSPACE, CUDNN_TYPE_VOID_PTR, &workspace, 1, "cudnnBackendSetAttribute (variant workspace)");
  check(cudnnBackendFinalize(raw(pack)), "cudnnBackendFinalize (variant pack)");
  check(cudnnBackendExecute(handle, static_cast<cudnnBackendDescriptor_t>(plan_.get()), raw(pack)), "cudnnBackendExecute (convolution)");
}

std::vector<BackendConvPlan> backend_conv_plans(cudnnHandle_t handle, const BackendConvShape& s, size_t max_plans) {
  std::vector<BackendConvPlan> plans;
  try {
    auto d = std::make_shared<BackendConvPlan::Descriptors>();
    d->x = channels_last_tensor(kXId, {s.images, s.in_channels, s.height, s.width});
    d->w = channels_last_tensor(kWId, {s.out_channels, s.in_channels, s.kernel_height, s.kernel_width});
    d->y = channels_last_tensor(kYId, {s.images, s.out_channels, s.out_height, s.out_width});
    d->conv = convolution(s);
    d->operation = create(CUDNN_BACKEND_OPERATION_CONVOLUTION_FORWARD_DESCRIPTOR, "cudnnBackendCreateDescriptor (operation)");
    set_descriptor(d->operation, CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_X, d->x, "cudnnBackendSetAttribute (x)");
    set_descriptor(d->operation, CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_W, d->w, "cudnnBackendSetAttribute (w)");
    set_descriptor(d->operation, CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_Y, d->y, "cudnnBackendSetAttribute (y)");
    set_descriptor(d->operation, CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_CONV_DESC, d->conv, "cudnnBackendSetAttribute (conv)");
    const float alpha = 1.f, beta = 0.f;
    set(d->operation, CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_ALPHA, CUDNN_TYPE_FLOAT, &alpha, 1, "cudnnBackendSetAttribute (alpha)");
    set(d->operation, CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_BETA, CUDNN_TYPE_FLOAT, &beta, 1, "cudnnBackendSetAttribute (beta)");
    check(cudnnBackendFinalize(raw(d->operation)), "cudnnBackendFinalize (operation)");

    d->graph = create(CUDNN_BACKEND_OPERATIONGRAPH_DESCRIPTOR, "cudnnBackendCreateDescriptor (graph)");
    set_descriptor(d->graph, CUDNN_ATTR_OPERATIONGRAPH_OPS, d->operation, "cudnnBackendSetAttribute (graph ops)");
    set(d->graph, CUDNN_ATTR_OPERATIONGRAPH_HANDLE, CUDNN_TYPE_HANDLE, &handle, 1, "cudnnBackendSetAttribute (graph handle)");
    check(cudnnBackendFinalize(raw(d->graph)), "cudnnBackendFinalize (graph)");

    Descriptor heuristics = create(CUDNN_BACKEND_ENGINEHEUR_DESCRIPTOR, "cudnnBackendCreateDescriptor (heuristics)");
    set_descriptor(heuristics, CUDNN_ATTR_ENGINEHEUR_OPERATION_GRAPH, d->graph, "cudnnBackendSetAttribute (heuristics graph)");
    const cudnnBackendHeurMode_t mode = CUDNN_HEUR_MODE_A;
    set(heuristics, CUDNN_ATTR_ENGINEHEUR_MODE, CUDNN_TYPE_HEUR_MODE, &mode, 1, "cudnnBackendSetAttribute (heuristics mode)");
    check(cudnnBackendFinalize(raw(heuristics)), "cudnnBackendFinalize (heuristics)");
    int64_t count = 0;
    check(cudnnBackendGetAttribute(raw(heuristics), CUDNN_ATTR_ENGINEHEUR_RESULTS, CUDNN_TYPE_BACKEND_DESCRIPTOR, 0, &count, nullptr),
          "cudnnBackendGetAttribute (heuristics count)");
    std::vector<Descriptor> configs;
    std::vector<cudnnBackendDescriptor_t> config_raw;
    for (int64_t i = 0; i < count; ++i) {
      configs.push_back(create(CUDNN_BACKEND_ENGINECFG_DESCRIPTOR, "cudnnBackendCreateDescriptor (engine config)"));
      config_raw.push_back(raw(configs.back()));
    }
    int64_t proposed = 0;
    check(cudnnBackendGetAttribute(raw(heuristics), CUDNN_ATTR_ENGINEHEUR_RESULTS, CUDNN_TYPE_BACKEND_DESCRIPTOR, count, &proposed,
                                   config_raw.data()),
          "cudnnBackendGetAttribute (heuristics results)");
    const std::shared_ptr<const BackendConvPlan::Descriptors> graph = d;
    for (int64_t i = 0; i < proposed && plans.size() < max_plans; ++i) {
      // A configuration that does not finalize (not supported for these tensors) is skipped.
      cudnnBackendDescriptor_t plan_raw = nullptr;
      if (cudnnBackendCreateDescriptor(CUDNN_BACKEND_EXECUTION_PLAN_DESCRIPTOR, &plan_raw) != CUDNN_STATUS_SUCCESS) continue;
      Descriptor plan = owned(plan_raw);
      cudnnBackendDescriptor_t config = config_raw[static_cast<size_t>(i)];
      if (cudnnBackendSetAttribute(plan_raw, CUDNN_ATTR_EXECUTION_PLAN_HANDLE, CUDNN_TYPE_HANDLE, 1, &handle) != CUDNN_STATUS_SUCCESS ||
          cudnnBackendSetAttribute(plan_raw, CUDNN_ATTR_EXECUTION_PLAN_ENGINE_CONFIG, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1, &config) !=
              CUDNN_STATUS_SUCCESS ||
          cudnnBackendFinalize(plan_raw) != CUDNN_STATUS_SUCCESS)
        continue;
      int64_t workspace = 0, returned = 0;
      if (cudnnBackendGetAttribute(plan_raw, CUDNN_ATTR_EXECUTION_PLAN_WORKSPACE_SIZE, CUDNN_TYPE_INT64, 1, &returned, &workspace) !=
              CUDNN_STATUS_SUCCESS ||
          workspace < 0)
        continue;
      plans.emplace_back(graph, std::move(plan), static_cast<size_t>(workspace), engine_index(configs[static_cast<size_t>(i)]),
                         static_cast<size_t>(i));
    }
  } catch (const std::exception&) {
    plans.clear();  // the backend cannot build this graph: the legacy API serves
  }
  return plans;
}

}  // namespace kbv::ops::baseline
