// daemon/ops/common/baseline/cudnn_convolution.cpp — the convolutions' CUDA baseline: cuDNN (NCHW /
// NCDHW fp32, cross-correlation), forward for conv1d/2d/3d and backward-data for the transposed
// ones (what PyTorch's cudnn_convolution_transpose calls), then the bias as a separate in-place
// broadcast add, as PyTorch eager does (_convolution: the cuDNN call, then
// output.add_(reshape_bias(bias))). A 1-D convolution runs as a 2-D one over a height of 1, as
// PyTorch's view1d_as_2d does.
//
// Math: TF32 mode sets CUDNN_DEFAULT_MATH, which lets cuDNN use TF32 tensor cores for fp32 data
// (torch.backends.cudnn.allow_tf32 = True, PyTorch's default); fp32 mode sets CUDNN_FMA_MATH, which
// forbids them (allow_tf32 = False). Algorithm: cudnnFind times every algorithm and the fastest
// successful one is kept (torch.backends.cudnn.benchmark = True). This baseline is therefore never
// slower than PyTorch's default heuristic pick, so it cannot inflate a speedup. Find's answer is
// remembered per machine (algorithm_cache.hpp) and reused by later evaluations.
//
// Large tensors: cuDNN's descriptors take at most INT_MAX elements, so when the input or the
// output is larger the batch is split into chunks, each its own cuDNN call, as PyTorch eager does
// (split_batch_dim_to_32bit_out in aten/src/ATen/native/cudnn/Conv_v7.cpp); KernelBench L1 #87's
// output is 2³¹ elements.
#include "ops/common/baseline/cudnn_convolution.hpp"

#include <algorithm>
#include <climits>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "inputs/secret_key.hpp"
#include "measure/baseline/algorithm_cache.hpp"
#include "measure/support/library_errors.hpp"
#include "ops/common/baseline/broadcast.hpp"

namespace kbv::ops::baseline {
namespace {

using cuda::MathMode;
using cuda::measure::AlgorithmCache;
using cuda::measure::AlgorithmChoice;
using cuda::measure::check;
using cuda::measure::CudnnConvDesc;
using cuda::measure::CudnnFilterDesc;
using cuda::measure::CudnnTensorDesc;
using cuda::measure::LibraryContext;
using cuda::measure::NodeContext;
using cuda::measure::NodeStep;

constexpr float kOne = 1.f;
constexpr float kZero = 0.f;
// cuDNN's convolutions take tensors of 4 or 5 dims: 2 or 3 spatial axes.
constexpr int kMinCudnnSpatialRank = 2;

// The descriptors of one cuDNN call: `source` is the op's input x, `result` its output y (cuDNN's
// x and y for a forward convolution, its dy and dx for a backward-data one).
struct CallDescriptors {
  cudnnTensorDescriptor_t source;
  cudnnFilterDescriptor_t filter;
  cudnnConvolutionDescriptor_t conv;
  cudnnTensorDescriptor_t result;
};

// conv1d/2d/3d: cudnnConvolutionForward.
struct ForwardConvolution {
  using Algorithm = cudnnConvolutionFwdAlgo_t;
  using Perf = cudnnConvolutionFwdAlgoPerf_t;
  static constexpr int kAlgorithmCount = CUDNN_CONVOLUTION_FWD_ALGO_COUNT;
  static constexpr const char* kCall = "cudnnConvolutionForward";
  static constexpr const char* kCacheKey = "fwd";
  // PyTorch's max_worksize for a batch chunk (split_batch_dim_to_32bit_out, forward): 256 Mi elements.
  static constexpr int64_t kChunkElements = int64_t{1024} * 1024 * 256;

  static cudnnStatus_t find(cudnnHandle_t handle, const CallDescriptors& d, int requested, int* returned, Perf* perf) {
    return cudnnFindConvolutionForwardAlgorithm(handle, d.source, d.filter, d.conv, d.result, requested, returned, perf);
  }
  static cudnnStatus_t workspace(cudnnHandle_t handle, const CallDescriptors& d, Algorithm algorithm, size_t* bytes) {
    return cudnnGetConvolutionForwardWorkspaceSize(handle, d.source, d.filter, d.conv, d.result, algorithm, bytes);
  }
  static cudnnStatus_t run(cudnnHandle_t handle, const CallDescriptors& d, const float* x, const float* w,
                           Algorithm algorithm, void* workspace, size_t bytes, float* y) {
    return cudnnConvolutionForward(handle, &kOne, d.source, x, d.filter, w, d.conv, algorithm, workspace, bytes, &kZero,
                                   d.result, y);
  }
  static const char* name(Algorithm algorithm) {
    switch (algorithm) {
      case CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM: return "IMPLICIT_GEMM";
      case CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_PRECOMP_GEMM: return "IMPLICIT_PRECOMP_GEMM";
      case CUDNN_CONVOLUTION_FWD_ALGO_GEMM: return "GEMM";
      case CUDNN_CONVOLUTION_FWD_ALGO_DIRECT: return "DIRECT";
      case CUDNN_CONVOLUTION_FWD_ALGO_FFT: return "FFT";
      case CUDNN_CONVOLUTION_FWD_ALGO_FFT_TILING: return "FFT_TILING";
      case CUDNN_CONVOLUTION_FWD_ALGO_WINOGRAD: return "WINOGRAD";
      case CUDNN_CONVOLUTION_FWD_ALGO_WINOGRAD_NONFUSED: return "WINOGRAD_NONFUSED";
      default: return "unknown";
    }
  }
};

// conv_transpose1d/2d/3d: cudnnConvolutionBackwardData of the convolution with the same
// attributes, whose input gradient is the transposed convolution's output.
struct BackwardDataConvolution {
  using Algorithm = cudnnConvolutionBwdDataAlgo_t;
  using Perf = cudnnConvolutionBwdDataAlgoPerf_t;
  static constexpr int kAlgorithmCount = CUDNN_CONVOLUTION_BWD_DATA_ALGO_COUNT;
  static constexpr const char* kCall = "cudnnConvolutionBackwardData";
  static constexpr const char* kCacheKey = "bwd_data";
  // PyTorch's max_worksize for a batch chunk (split_batch_dim_to_32bit_out, backward input): 128 Mi elements.
  static constexpr int64_t kChunkElements = int64_t{1024} * 1024 * 128;

  static cudnnStatus_t find(cudnnHandle_t handle, const CallDescriptors& d, int requested, int* returned, Perf* perf) {
    return cudnnFindConvolutionBackwardDataAlgorithm(handle, d.filter, d.source, d.conv, d.result, requested, returned,
                                                     perf);
  }
  static cudnnStatus_t workspace(cudnnHandle_t handle, const CallDescriptors& d, Algorithm algorithm, size_t* bytes) {
    return cudnnGetConvolutionBackwardDataWorkspaceSize(handle, d.filter, d.source, d.conv, d.result, algorithm, bytes);
  }
  static cudnnStatus_t run(cudnnHandle_t handle, const CallDescriptors& d, const float* x, const float* w,
                           Algorithm algorithm, void* workspace, size_t bytes, float* y) {
    return cudnnConvolutionBackwardData(handle, &kOne, d.filter, w, d.source, x, d.conv, algorithm, workspace, bytes,
                                        &kZero, d.result, y);
  }
  static const char* name(Algorithm algorithm) {
    switch (algorithm) {
      case CUDNN_CONVOLUTION_BWD_DATA_ALGO_0: return "ALGO_0";
      case CUDNN_CONVOLUTION_BWD_DATA_ALGO_1: return "ALGO_1";
      case CUDNN_CONVOLUTION_BWD_DATA_ALGO_FFT: return "FFT";
      case CUDNN_CONVOLUTION_BWD_DATA_ALGO_FFT_TILING: return "FFT_TILING";
      case CUDNN_CONVOLUTION_BWD_DATA_ALGO_WINOGRAD: return "WINOGRAD";
      case CUDNN_CONVOLUTION_BWD_DATA_ALGO_WINOGRAD_NONFUSED: return "WINOGRAD_NONFUSED";
      default: return "unknown";
    }
  }
};

const char* math_name(cudnnMathType_t math) {
  switch (math) {
    case CUDNN_DEFAULT_MATH: return "DEFAULT_MATH";
    case CUDNN_TENSOR_OP_MATH: return "TENSOR_OP_MATH";
    case CUDNN_TENSOR_OP_MATH_ALLOW_CONVERSION: return "TENSOR_OP_MATH_ALLOW_CONVERSION";
    case CUDNN_FMA_MATH: return "FMA_MATH";
    default: return "unknown";
  }
}

// ALLOW_CONVERSION may run fp32 data through fp16 tensor cores: never a baseline. Strict fp32
// never takes a tensor-op math type.
bool allowed_math(cudnnMathType_t requested, cudnnMathType_t math) {
  if (math == CUDNN_TENSOR_OP_MATH_ALLOW_CONVERSION) return false;
  if (requested == CUDNN_FMA_MATH) return math == CUDNN_FMA_MATH || math == CUDNN_DEFAULT_MATH;
  return true;
}

int cudnn_int(int64_t value, const NodeContext& node) {
  if (value < 0 || value > INT_MAX)
    throw std::invalid_argument(node.where() + ": value " + std::to_string(value) + " is outside cuDNN's int range");
  return static_cast<int>(value);
}

// Images per cuDNN call: all of them when both tensors fit cuDNN's int counts, else PyTorch's
// chunk (at least one image).
int64_t images_per_chunk(const Shape& x, const Shape& y, int64_t chunk_elements) {
  const int64_t x_elements = numel(x), y_elements = numel(y);
  if (x_elements <= INT_MAX && y_elements <= INT_MAX) return x[0];
  const int64_t per_image = std::max(x_elements, y_elements) / x[0];
  return std::max<int64_t>(chunk_elements / per_image, 1);
}

// The op's axes as cuDNN sees them: its own, after a leading height of 1 for a 1-D op.
int first_cudnn_axis(const ConvolutionGeometry& g) {
  return kMaxSpatialRank - std::max(g.form.spatial_rank, kMinCudnnSpatialRank);
}

template <class Direction>
class CudnnConvolutionStep final : public NodeStep {
 public:
  CudnnConvolutionStep(const NodeContext& node, LibraryContext& context, const ConvolutionGeometry& g)
      : context_(context), geometry_(g) {
    const Shape& x = node.input_shapes.at(0);
    const Shape& y = node.output_shape;
    chunk_images_ = images_per_chunk(x, y, Direction::kChunkElements);
    x_image_elements_ = numel(x) / x[0];
    y_image_elements_ = numel(y) / y[0];
    chunks_ = (g.batch + chunk_images_ - 1) / chunk_images_;
    tail_images_ = g.batch - (chunks_ - 1) * chunk_images_;
    x_desc_ = tensor_desc(g.in_channels, &ConvolutionAxis::input, chunk_images_, node, "x");
    y_desc_ = tensor_desc(g.out_channels, &ConvolutionAxis::output, chunk_images_, node, "y");
    if (tail_images_ != chunk_images_) {
      x_tail_desc_ = tensor_desc(g.in_channels, &ConvolutionAxis::input, tail_images_, node, "x");
      y_tail_desc_ = tensor_desc(g.out_channels, &ConvolutionAxis::output, tail_images_, node, "y");
    }
    set_filter_and_convolution(node);
    const cudnnMathType_t requested = context_.mode() == MathMode::tf32 ? CUDNN_DEFAULT_MATH : CUDNN_FMA_MATH;
    check(cudnnSetConvolutionMathType(conv_desc_.get(), requested), "cudnnSetConvolutionMathType");

    const std::string cache_key = algorithm_cache_key(node, requested);
    if (!use_cached_algorithm(cache_key, requested)) choose_algorithm(node, requested, cache_key);
    if (tail_images_ != chunk_images_) reserve_tail_workspace();

    if (node.input_shapes.size() == 3) {
      has_bias_ = true;
      Shape channel(y.size() - 1, 1);
      channel[0] = g.out_channels;
      bias_geometry_ = make_broadcast_geometry(y, channel, y);
    }
    description_ = std::string(Direction::kCall) + " algo=" + Direction::name(algo_) + " math=" + math_name(math_) +
                   " workspace=" + std::to_string(workspace_) + "B stride=" + axes_text(g, &ConvolutionAxis::stride) +
                   " padding=" + axes_text(g, &ConvolutionAxis::padding) +
                   (g.form.transposed ? " output_padding=" + axes_text(g, &ConvolutionAxis::output_padding) : "") +
                   " dilation=" + axes_text(g, &ConvolutionAxis::dilation) + " groups=" + std::to_string(g.groups) +
                   " chosen by " + algorithm_source_ +
                   (chunks_ > 1 ? " in " + std::to_string(chunks_) + " batch chunks of " +
                                      std::to_string(chunk_images_) + " (cuDNN's int element counts)"
                                : "") +
                   (has_bias_ ? " + kbv channel-bias add kernel" : "");
  }

  void run(std::span<const float* const> in, float* out, cudaStream_t stream) override {
    for (int64_t chunk = 0; chunk < chunks_; ++chunk) {
      const bool tail = chunk == chunks_ - 1 && tail_images_ != chunk_images_;
      const int64_t first_image = chunk * chunk_images_;
      check(Direction::run(context_.cudnn(), descriptors(tail), in[0] + first_image * x_image_elements_, in[1], algo_,
                           context_.scratch(), workspace_, out + first_image * y_image_elements_),
            Direction::kCall);
    }
    if (has_bias_) launch_broadcast_add(bias_geometry_, out, in[2], out, stream);
  }

  std::string describe() const override { return description_; }

 private:
  CallDescriptors descriptors(bool tail) const {
    return {tail ? x_tail_desc_.get() : x_desc_.get(), w_desc_.get(), conv_desc_.get(),
            tail ? y_tail_desc_.get() : y_desc_.get()};
  }

  // A packed NC(D)HW descriptor of `images` images with `channels` channels and the extents
  // `extent` of every axis cuDNN sees.
  CudnnTensorDesc tensor_desc(int64_t channels, AxisField extent, int64_t images,
                              const NodeContext& node, const char* name) const {
    std::vector<int64_t> extents{images, channels};
    for (int axis = first_cudnn_axis(geometry_); axis < kMaxSpatialRank; ++axis)
      extents.push_back(geometry_.axes[static_cast<size_t>(axis)].*extent);
    std::vector<int> dims, strides(extents.size());
    int64_t stride = 1;  // packed: each dim's stride is the product of the dims after it
    for (size_t d = extents.size(); d-- > 0;) {
      strides[d] = cudnn_int(stride, node);
      stride *= extents[d];
    }
    for (int64_t e : extents) dims.push_back(cudnn_int(e, node));
    CudnnTensorDesc desc = cuda::measure::make_cudnn_tensor_desc();
    check(cudnnSetTensorNdDescriptor(desc.get(), CUDNN_DATA_FLOAT, static_cast<int>(dims.size()), dims.data(),
                                     strides.data()),
          (std::string("cudnnSetTensorNdDescriptor(") + name + ")").c_str());
    return desc;
  }

  // The filter is the weight as stored ([O, C/groups, *K] for a convolution; [C, O/groups, *K] for a
  // transposed one, which is the filter of the convolution it is the adjoint of); the convolution
  // descriptor takes padding, stride and dilation per axis. cuDNN infers a backward-data output
  // size from the forward formula, which gives the transposed one only while output_padding <
  // stride.
  void set_filter_and_convolution(const NodeContext& node) {
    const Shape& w = node.input_shapes.at(1);
    std::vector<int> filter{cudnn_int(w[0], node), cudnn_int(w[1], node)};
    std::vector<int> padding, stride, dilation;
    for (int axis = first_cudnn_axis(geometry_); axis < kMaxSpatialRank; ++axis) {
      const ConvolutionAxis& a = geometry_.axes[static_cast<size_t>(axis)];
      if (a.output_padding >= a.stride)
        throw std::invalid_argument(node.where() + ": output_padding " + std::to_string(a.output_padding) +
                                    " with stride " + std::to_string(a.stride) +
                                    " gives an output cuDNN's backward-data convolution cannot size; its baseline "
                                    "needs output_padding < stride");
      filter.push_back(cudnn_int(a.kernel, node));
      padding.push_back(cudnn_int(a.padding, node));
      stride.push_back(cudnn_int(a.stride, node));
      dilation.push_back(cudnn_int(a.dilation, node));
    }
    w_desc_ = cuda::measure::make_cudnn_filter_desc();
    check(cudnnSetFilterNdDescriptor(w_desc_.get(), CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, static_cast<int>(filter.size()),
                                     filter.data()),
          "cudnnSetFilterNdDescriptor");
    conv_desc_ = cuda::measure::make_cudnn_conv_desc();
    check(cudnnSetConvolutionNdDescriptor(conv_desc_.get(), static_cast<int>(padding.size()), padding.data(),
                                          stride.data(), dilation.data(), CUDNN_CROSS_CORRELATION, CUDNN_DATA_FLOAT),
          "cudnnSetConvolutionNdDescriptor");
    check(cudnnSetConvolutionGroupCount(conv_desc_.get(), cudnn_int(geometry_.groups, node)),
          "cudnnSetConvolutionGroupCount");
  }

  // The last, smaller chunk runs the same algorithm; its workspace may differ.
  void reserve_tail_workspace() {
    size_t tail_workspace = 0;
    check(Direction::workspace(context_.cudnn(), descriptors(true), algo_, &tail_workspace),
          "cuDNN workspace size (last chunk)");
    workspace_ = std::max(workspace_, tail_workspace);
    context_.reserve_scratch(workspace_);
  }

  // GPU model, cuDNN version, direction, problem and math mode: what Find's answer depends on.
  std::string algorithm_cache_key(const NodeContext& node, cudnnMathType_t requested) const {
    int device = 0;
    check(cudaGetDevice(&device), "cudaGetDevice");
    cudaDeviceProp properties{};
    check(cudaGetDeviceProperties(&properties, device), "cudaGetDeviceProperties");
    std::string key = std::string(properties.name) + "|cudnn " + std::to_string(cudnnGetVersion()) + "|" +
                      Direction::kCacheKey + " x";
    for (int64_t d : node.input_shapes.at(0)) key += " " + std::to_string(d);
    key += " w";
    for (int64_t d : node.input_shapes.at(1)) key += " " + std::to_string(d);
    if (geometry_.form.transposed) {  // the output's size carries output_padding
      key += " y";
      for (int64_t d : node.output_shape) key += " " + std::to_string(d);
    }
    return key + " s" + axes_text(geometry_, &ConvolutionAxis::stride) + " p" +
           axes_text(geometry_, &ConvolutionAxis::padding) + " d" + axes_text(geometry_, &ConvolutionAxis::dilation) +
           " g" + std::to_string(geometry_.groups) + " " + math_name(requested);
  }

  // A choice Find made earlier on this machine (algorithm_cache.hpp), if it is still one this
  // mode may use and cuDNN accepts for this problem.
  bool use_cached_algorithm(const std::string& key, cudnnMathType_t requested) {
    const AlgorithmCache cache(inputs::default_algorithm_cache_path());
    const std::optional<AlgorithmChoice> cached = cache.find(key);
    if (!cached || cached->algorithm < 0 || cached->algorithm >= Direction::kAlgorithmCount) return false;
    const auto math = static_cast<cudnnMathType_t>(cached->math_type);
    if (!allowed_math(requested, math)) return false;
    const auto algorithm = static_cast<typename Direction::Algorithm>(cached->algorithm);
    if (cudnnSetConvolutionMathType(conv_desc_.get(), math) != CUDNN_STATUS_SUCCESS) return false;
    size_t workspace = 0;
    if (Direction::workspace(context_.cudnn(), descriptors(false), algorithm, &workspace) != CUDNN_STATUS_SUCCESS) {
      check(cudnnSetConvolutionMathType(conv_desc_.get(), requested), "cudnnSetConvolutionMathType");
      return false;
    }
    algo_ = algorithm;
    math_ = math;
    workspace_ = workspace;
    context_.reserve_scratch(workspace_);
    algorithm_source_ = "cached cudnnFind choice (" + cache.file().string() + ")";
    return true;
  }

  void choose_algorithm(const NodeContext& node, cudnnMathType_t requested, const std::string& cache_key) {
    std::vector<typename Direction::Perf> results(static_cast<size_t>(Direction::kAlgorithmCount));
    int returned = 0;
    check(Direction::find(context_.cudnn(), descriptors(false), static_cast<int>(results.size()), &returned,
                          results.data()),
          "cudnnFind (convolution algorithms)");
    results.resize(static_cast<size_t>(returned));
    for (const typename Direction::Perf& perf : results) {  // sorted fastest first
      if (perf.status != CUDNN_STATUS_SUCCESS) continue;
      if (!allowed_math(requested, perf.mathType)) continue;
      algo_ = perf.algo;
      workspace_ = perf.memory;
      // cuDNN decides tensor-core use from algorithm and math type together. TF32 mode takes
      // the math type Find measured (as PyTorch does); strict fp32 always keeps FMA_MATH, so
      // no tensor-core kernel can run whatever Find reported.
      math_ = requested == CUDNN_FMA_MATH ? CUDNN_FMA_MATH : perf.mathType;
      check(cudnnSetConvolutionMathType(conv_desc_.get(), math_), "cudnnSetConvolutionMathType");
      context_.reserve_scratch(workspace_);
      std::string unwritten;
      algorithm_source_ = AlgorithmCache(inputs::default_algorithm_cache_path())
                                  .remember(cache_key, {static_cast<int>(algo_), static_cast<int>(math_)}, &unwritten)
                              ? "cudnnFind (remembered)"
                              : "cudnnFind (not remembered: " + unwritten + ")";
      return;
    }
    throw std::invalid_argument(node.where() + ": cuDNN found no usable " + Direction::kCall + " algorithm in " +
                                std::string(math_name(requested)) + " mode");
  }

  LibraryContext& context_;
  ConvolutionGeometry geometry_;
  CudnnTensorDesc x_desc_, y_desc_;            // one full chunk (the whole batch unless split)
  CudnnTensorDesc x_tail_desc_, y_tail_desc_;  // the last chunk, when it is smaller
  int64_t chunk_images_ = 0, tail_images_ = 0, chunks_ = 1;
  int64_t x_image_elements_ = 0, y_image_elements_ = 0;
  CudnnFilterDesc w_desc_;
  CudnnConvDesc conv_desc_;
  typename Direction::Algorithm algo_{};
  cudnnMathType_t math_ = CUDNN_DEFAULT_MATH;
  size_t workspace_ = 0;
  std::string algorithm_source_;
  bool has_bias_ = false;
  BroadcastGeometry bias_geometry_;
  std::string description_;
};

}  // namespace

std::unique_ptr<NodeStep> make_cudnn_convolution_step(const NodeContext& node, LibraryContext& context,
                                                      ConvolutionForm form) {
  const ConvolutionGeometry geometry = convolution_geometry(node.node.op, form, node.input_shapes, node.node.attrs);
  if (convolution_output_shape(geometry) != node.output_shape)
    throw std::invalid_argument(node.where() + ": output shape " + to_string(node.output_shape) +
                                " but the op gives " + to_string(convolution_output_shape(geometry)));
  if (form.transposed) return std::make_unique<CudnnConvolutionStep<BackwardDataConvolution>>(node, context, geometry);
  return std::make_unique<CudnnConvolutionStep<ForwardConvolution>>(node, context, geometry);
}

}  // namespace kbv::ops::baseline
