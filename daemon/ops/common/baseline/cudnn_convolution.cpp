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
#include <functional>
#include <optional>
#include <type_traits>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/device_buffer.hpp"
#include "common/event.hpp"
#include "common/stream.hpp"
#include "inputs/secret_key.hpp"
#include "measure/baseline/algorithm_cache.hpp"
#include "measure/support/library_errors.hpp"
#include "ops/common/baseline/batched_transpose.hpp"
#include "ops/common/baseline/broadcast.hpp"
#include "ops/common/baseline/conv_epilogue.hpp"

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
// The channels-last form (ChannelsLast below) is tried only while its scratch, twice over (the
// timing runs' own buffers, then the kept scratch), stays within this share of the free device
// memory: the evaluator's arena and fp64 reference come after the baselines and need the rest.
constexpr double kChannelsLastMemoryShare = 0.125;
// Runs of each layout's whole pipeline timed (after one warm-up) to choose between them; the
// median decides. Each run of a default-size KernelBench convolution is milliseconds.
constexpr int kLayoutTimingRuns = 5;
// Scratch sub-buffers each start aligned (LibraryContext::scratch_aligned).
size_t aligned_bytes(size_t bytes) { return LibraryContext::scratch_aligned(bytes); }

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
  // `epilogue`: the elementwise chain folded after a forward convolution (conv_epilogue.hpp), or null.
  CudnnConvolutionStep(const NodeContext& node, LibraryContext& context, const ConvolutionGeometry& g,
                       std::unique_ptr<ConvEpilogue> epilogue = nullptr)
      : context_(context), geometry_(g), conv_inputs_(node.input_shapes.size()), epilogue_(std::move(epilogue)) {
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
    const std::optional<Chosen> chosen = choose(cache_key, requested, descriptors(false));
    if (!chosen)
      throw std::invalid_argument(node.where() + ": cuDNN found no usable " + Direction::kCall + " algorithm in " +
                                  std::string(math_name(requested)) + " mode");
    adopt(*chosen);
    if (tail_images_ != chunk_images_) reserve_tail_workspace();

    if (node.input_shapes.size() == 3) {
      has_bias_ = true;
      Shape channel(y.size() - 1, 1);
      channel[0] = g.out_channels;
      bias_geometry_ = make_broadcast_geometry(y, channel, y);
    }
    if constexpr (std::is_same_v<Direction, ForwardConvolution>) consider_channels_last(node, requested, cache_key);
    if (channels_last_) {
      const ChannelsLast& cl = *channels_last_;
      description_ = std::string(Direction::kCall) + " channels-last (NHWC) algo=" + ForwardConvolution::name(cl.algo) + " math=" +
                     math_name(cl.math) + " workspace=" + std::to_string(cl.workspace) + "B stride=" + axes_text(g, &ConvolutionAxis::stride) +
                     " padding=" + axes_text(g, &ConvolutionAxis::padding) + " dilation=" + axes_text(g, &ConvolutionAxis::dilation) +
                     " groups=1 chosen by " + cl.algorithm_source + ", " + layout_source_ +
                     " + kbv transpose kernels: input and weight to channels-last, the output back to NCHW" +
                     (has_bias_ ? " with the channel bias added" : "") +
                     (epilogue_ ? std::string(has_bias_ ? " and" : " with") + " the elementwise chain (" + epilogue_->describe() +
                                                    (epilogue_->transposed_written_out() ? ", written out" : "") + ") applied"
                                  : "");
      return;
    }
    description_ = std::string(Direction::kCall) + " algo=" + Direction::name(algo_) + " math=" + math_name(math_) +
                   " workspace=" + std::to_string(workspace_) + "B stride=" + axes_text(g, &ConvolutionAxis::stride) +
                   " padding=" + axes_text(g, &ConvolutionAxis::padding) +
                   (g.form.transposed ? " output_padding=" + axes_text(g, &ConvolutionAxis::output_padding) : "") +
                   " dilation=" + axes_text(g, &ConvolutionAxis::dilation) + " groups=" + std::to_string(g.groups) +
                   " chosen by " + algorithm_source_ + (layout_source_.empty() ? "" : ", " + layout_source_) +
                   (chunks_ > 1 ? " in " + std::to_string(chunks_) + " batch chunks of " +
                                      std::to_string(chunk_images_) + " (cuDNN's int element counts)"
                                : "") +
                   (has_bias_ ? " + kbv channel-bias add kernel" : "") +
                   (epilogue_ ? " + kbv fused elementwise kernel (" + epilogue_->describe() + ") in place" : "");
  }

  void run(std::span<const float* const> in, float* out, cudaStream_t stream) override {
    if (channels_last_) {
      run_channels_last(*channels_last_, in, out, context_.scratch(), stream);
      return;
    }
    run_nchw(in, out, context_.scratch(), stream);
  }

  std::string describe() const override { return description_; }

 private:
  // The channels-last form of a forward 2-D convolution (groups 1, one chunk): cuDNN's NHWC
  // tensor-core kernels can be far faster than its NCHW ones (KernelBench L2 #1 on an H200:
  // torch.compile, whose layout optimisation runs convolutions channels-last, 1.57 ms; cuDNN on
  // NCHW 3.7 ms), so both whole pipelines are timed once and the faster one runs, as
  // torch.backends.cudnn.benchmark chooses among algorithms: NCHW, the convolution and the bias add;
  // channels-last, the input and weight transposed in, the convolution, the output transposed back
  // with the bias. The choice is remembered with Find's (algorithm_cache.hpp).
  struct ChannelsLast {
    CudnnTensorDesc x, y;
    CudnnFilterDesc w;
    CudnnConvDesc conv;
    cudnnConvolutionFwdAlgo_t algo{};
    cudnnMathType_t math = CUDNN_DEFAULT_MATH;
    size_t workspace = 0;
    std::string algorithm_source;
    int64_t images = 0, in_channels = 0, in_pixels = 0, out_channels = 0, out_pixels = 0, taps = 0;
    // Scratch: the workspace, then the transposed input, weight and output, each aligned.
    size_t x_offset = 0, w_offset = 0, y_offset = 0, bytes = 0;
  };

  // `in`: x, weight, the bias when there is one, then the epilogue's inputs.
  void run_channels_last(const ChannelsLast& cl, std::span<const float* const> in, float* y, void* scratch, cudaStream_t stream) const {
    const float* x = in[0];
    const float* w = in[1];
    const float* bias = has_bias_ ? in[2] : nullptr;
    auto* base = static_cast<unsigned char*>(scratch);
    auto* xt = reinterpret_cast<float*>(base + cl.x_offset);
    auto* wt = reinterpret_cast<float*>(base + cl.w_offset);
    auto* yt = reinterpret_cast<float*>(base + cl.y_offset);
    // The input in long rows where it fits (conv2d_relu_biasadd's: 0.276 ms against the wide form's
    // 0.332 and the narrow one's 0.400, a copy of its bytes 0.260; r91 on an H200), the weight
    // (kilobytes) wide; the output pass, with or without an epilogue, in long rows (the bias alone:
    // 0.520 ms against the narrow form's 0.758, r91). kbv_bench_cuda_timing --conv-passes.
    launch_batched_transpose(x, xt, cl.images, cl.in_channels, cl.in_pixels, nullptr, stream, TransposeForm::long_rows_where_it_fits);
    launch_batched_transpose(w, wt, cl.out_channels, cl.in_channels, cl.taps, nullptr, stream, TransposeForm::wide_where_it_fits);
    check(cudnnConvolutionForward(context_.cudnn(), &kOne, cl.x.get(), xt, cl.w.get(), wt, cl.conv.get(), cl.algo, base, cl.workspace, &kZero,
                                  cl.y.get(), yt),
          "cudnnConvolutionForward (channels-last)");
    if (epilogue_)
      epilogue_->run_transposed(yt, y, cl.images, cl.out_pixels, cl.out_channels, bias, in.subspan(conv_inputs_), stream);
    else
      launch_batched_transpose(yt, y, cl.images, cl.out_pixels, cl.out_channels, bias, stream, TransposeForm::long_rows_where_it_fits);
  }

  void run_nchw(std::span<const float* const> in, float* out, void* workspace, cudaStream_t stream) {
    for (int64_t chunk = 0; chunk < chunks_; ++chunk) {
      const bool tail = chunk == chunks_ - 1 && tail_images_ != chunk_images_;
      const int64_t first_image = chunk * chunk_images_;
      check(Direction::run(context_.cudnn(), descriptors(tail), in[0] + first_image * x_image_elements_, in[1], algo_,
                           workspace, workspace_, out + first_image * y_image_elements_),
            Direction::kCall);
    }
    if (has_bias_) launch_broadcast_add(bias_geometry_, out, in[2], out, stream);
    if (epilogue_) epilogue_->run_in_place(out, in.subspan(conv_inputs_), stream);
  }

  // Builds the channels-last form and keeps it when it is (or was, on this machine) timed faster.
  // Leaves channels_last_ empty, and says why in layout_source_ where it was considered.
  void consider_channels_last(const NodeContext& node, cudnnMathType_t requested, const std::string& cache_key) {
    const ConvolutionGeometry& g = geometry_;
    if (g.form.transposed || g.form.spatial_rank != 2 || g.groups != 1 || chunks_ != 1) return;
    const ConvolutionAxis& height = g.axes[static_cast<size_t>(kMaxSpatialRank - 2)];
    const ConvolutionAxis& width = g.axes[static_cast<size_t>(kMaxSpatialRank - 1)];
    ChannelsLast cl;
    cl.images = g.batch, cl.in_channels = g.in_channels, cl.out_channels = g.out_channels;
    cl.in_pixels = height.input * width.input, cl.out_pixels = height.output * width.output, cl.taps = height.kernel * width.kernel;
    cl.x = cuda::measure::make_cudnn_tensor_desc();
    check(cudnnSetTensor4dDescriptor(cl.x.get(), CUDNN_TENSOR_NHWC, CUDNN_DATA_FLOAT, cudnn_int(g.batch, node), cudnn_int(g.in_channels, node),
                                     cudnn_int(height.input, node), cudnn_int(width.input, node)),
          "cudnnSetTensor4dDescriptor (channels-last x)");
    cl.y = cuda::measure::make_cudnn_tensor_desc();
    check(cudnnSetTensor4dDescriptor(cl.y.get(), CUDNN_TENSOR_NHWC, CUDNN_DATA_FLOAT, cudnn_int(g.batch, node), cudnn_int(g.out_channels, node),
                                     cudnn_int(height.output, node), cudnn_int(width.output, node)),
          "cudnnSetTensor4dDescriptor (channels-last y)");
    cl.w = cuda::measure::make_cudnn_filter_desc();
    check(cudnnSetFilter4dDescriptor(cl.w.get(), CUDNN_DATA_FLOAT, CUDNN_TENSOR_NHWC, cudnn_int(g.out_channels, node),
                                     cudnn_int(g.in_channels, node), cudnn_int(height.kernel, node), cudnn_int(width.kernel, node)),
          "cudnnSetFilter4dDescriptor (channels-last)");
    cl.conv = convolution_desc(node);
    check(cudnnSetConvolutionMathType(cl.conv.get(), requested), "cudnnSetConvolutionMathType");
    const CallDescriptors nhwc{cl.x.get(), cl.w.get(), cl.conv.get(), cl.y.get()};

    const size_t x_bytes = static_cast<size_t>(g.batch * g.in_channels * cl.in_pixels) * sizeof(float);
    const size_t w_bytes = static_cast<size_t>(g.out_channels * g.in_channels * cl.taps) * sizeof(float);
    const size_t y_bytes = static_cast<size_t>(g.batch * g.out_channels * cl.out_pixels) * sizeof(float);
    size_t free_bytes = 0, total_bytes = 0;
    check(cudaMemGetInfo(&free_bytes, &total_bytes), "cudaMemGetInfo");
    // The largest workspace cuDNN may ask for is not known before Find; count the NCHW one's.
    const double needed = 2.0 * static_cast<double>(aligned_bytes(workspace_) + aligned_bytes(x_bytes) + aligned_bytes(w_bytes) + y_bytes);
    if (needed > kChannelsLastMemoryShare * static_cast<double>(free_bytes)) {
      layout_source_ = "NCHW (channels-last not tried: its buffers would take more than " +
                       std::to_string(static_cast<int>(kChannelsLastMemoryShare * 100)) + " % of the free device memory)";
      return;
    }
    const std::string nhwc_key = cache_key + " nhwc";
    const std::optional<Chosen> chosen = choose(nhwc_key, requested, nhwc);
    if (!chosen) {
      layout_source_ = "NCHW (cuDNN found no usable channels-last algorithm)";
      return;
    }
    cl.algo = chosen->algo, cl.math = chosen->math, cl.workspace = chosen->workspace, cl.algorithm_source = chosen->source;
    cl.x_offset = aligned_bytes(cl.workspace);
    cl.w_offset = cl.x_offset + aligned_bytes(x_bytes);
    cl.y_offset = cl.w_offset + aligned_bytes(w_bytes);
    cl.bytes = cl.y_offset + y_bytes;

    // The layout: remembered, else timed now (1 = channels-last, 0 = NCHW).
    // With an epilogue the NCHW form pays a pass more: its own choice.
    const std::string layout_key = cache_key + (epilogue_ ? " layout with epilogue" : " layout");
    const AlgorithmCache cache(inputs::default_algorithm_cache_path());
    bool faster = false;
    if (const std::optional<AlgorithmChoice> remembered = cache.find(layout_key); remembered && (remembered->algorithm == 0 || remembered->algorithm == 1)) {
      faster = remembered->algorithm == 1;
      layout_source_ = std::string(faster ? "channels-last" : "NCHW") + " timed faster than " + (faster ? "NCHW" : "channels-last") +
                       " (cached layout choice)";
    } else {
      const auto [nchw_ms, nhwc_ms] = time_layouts(cl, x_bytes, w_bytes, y_bytes);
      faster = nhwc_ms < nchw_ms;
      std::string unwritten;
      const bool kept = cache.remember(layout_key, {faster ? 1 : 0, 0}, &unwritten);
      layout_source_ = std::string(faster ? "channels-last" : "NCHW") + " timed faster than " + (faster ? "NCHW" : "channels-last") + " (" +
                       (kept ? "remembered" : "not remembered: " + unwritten) + ")";
    }
    if (!faster) return;
    context_.reserve_scratch(cl.bytes);
    channels_last_.emplace(std::move(cl));
  }

  // Both layouts' whole pipelines on buffers of their own (filled with a finite nonzero pattern),
  // on a stream of their own: the median of kLayoutTimingRuns runs each, in ms (NCHW, NHWC).
  std::pair<double, double> time_layouts(const ChannelsLast& cl, size_t x_bytes, size_t w_bytes, size_t y_bytes) {
    const cuda::Stream stream;
    context_.bind_stream(stream.get());  // every run binds the handles to its own stream again
    cuda::DeviceBuffer<unsigned char> x(x_bytes), w(w_bytes), y(y_bytes), bias(aligned_bytes(static_cast<size_t>(cl.out_channels) * sizeof(float)));
    cuda::DeviceBuffer<unsigned char> nchw_scratch(std::max<size_t>(workspace_, 1)), nhwc_scratch(cl.bytes);
    constexpr int kPatternByte = 0x3c;  // every float 0x3c3c3c3c ≈ 0.0115: finite, nonzero
    for (auto* buffer : {&x, &w, &y, &bias})
      check(cudaMemsetAsync(buffer->get(), kPatternByte, buffer->bytes(), stream.get()), "cudaMemsetAsync (layout timing)");
    const auto* xf = reinterpret_cast<const float*>(x.get());
    const auto* wf = reinterpret_cast<const float*>(w.get());
    const auto* bf = reinterpret_cast<const float*>(bias.get());
    auto* yf = reinterpret_cast<float*>(y.get());
    std::vector<const float*> inputs{xf, wf};
    if (has_bias_) inputs.push_back(bf);
    std::vector<cuda::DeviceBuffer<float>> chain_inputs;  // the epilogue's operands, the same pattern
    for (size_t k = 0; epilogue_ && k < epilogue_->inputs(); ++k) {
      chain_inputs.emplace_back(static_cast<size_t>(epilogue_->input_elements(k)));
      check(cudaMemsetAsync(chain_inputs.back().get(), kPatternByte, chain_inputs.back().bytes(), stream.get()), "cudaMemsetAsync (layout timing)");
      inputs.push_back(chain_inputs.back().get());
    }
    const std::span<const float* const> in(inputs);
    const auto median_ms = [&](const std::function<void()>& pipeline) {
      pipeline();  // warm-up: kernels loaded, clocks up
      std::vector<float> ms;
      for (int run = 0; run < kLayoutTimingRuns; ++run) {
        const cuda::Event start, stop;
        start.record(stream.get());
        pipeline();
        stop.record(stream.get());
        stop.synchronize();
        ms.push_back(stop.elapsed_ms_since(start));
      }
      std::sort(ms.begin(), ms.end());
      return static_cast<double>(ms[ms.size() / 2]);
    };
    const double nchw = median_ms([&] { run_nchw(in, yf, nchw_scratch.get(), stream.get()); });
    const double nhwc = median_ms([&] { run_channels_last(cl, in, yf, nhwc_scratch.get(), stream.get()); });
    context_.bind_stream(nullptr);  // this stream ends here; later Finds on the handles use the default one
    return {nchw, nhwc};
  }

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
    for (int axis = first_cudnn_axis(geometry_); axis < kMaxSpatialRank; ++axis) {
      const ConvolutionAxis& a = geometry_.axes[static_cast<size_t>(axis)];
      if (a.output_padding >= a.stride)
        throw std::invalid_argument(node.where() + ": output_padding " + std::to_string(a.output_padding) +
                                    " with stride " + std::to_string(a.stride) +
                                    " gives an output cuDNN's backward-data convolution cannot size; its baseline "
                                    "needs output_padding < stride");
      filter.push_back(cudnn_int(a.kernel, node));
    }
    w_desc_ = cuda::measure::make_cudnn_filter_desc();
    check(cudnnSetFilterNdDescriptor(w_desc_.get(), CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, static_cast<int>(filter.size()),
                                     filter.data()),
          "cudnnSetFilterNdDescriptor");
    conv_desc_ = convolution_desc(node);
  }

  // Padding, stride and dilation per axis, cross-correlation, fp32, the op's groups.
  CudnnConvDesc convolution_desc(const NodeContext& node) const {
    std::vector<int> padding, stride, dilation;
    for (int axis = first_cudnn_axis(geometry_); axis < kMaxSpatialRank; ++axis) {
      const ConvolutionAxis& a = geometry_.axes[static_cast<size_t>(axis)];
      padding.push_back(cudnn_int(a.padding, node));
      stride.push_back(cudnn_int(a.stride, node));
      dilation.push_back(cudnn_int(a.dilation, node));
    }
    CudnnConvDesc conv = cuda::measure::make_cudnn_conv_desc();
    check(cudnnSetConvolutionNdDescriptor(conv.get(), static_cast<int>(padding.size()), padding.data(), stride.data(), dilation.data(),
                                          CUDNN_CROSS_CORRELATION, CUDNN_DATA_FLOAT),
          "cudnnSetConvolutionNdDescriptor");
    check(cudnnSetConvolutionGroupCount(conv.get(), cudnn_int(geometry_.groups, node)), "cudnnSetConvolutionGroupCount");
    return conv;
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

  // An algorithm for one set of descriptors, with its math type (set on d.conv) and workspace.
  struct Chosen {
    typename Direction::Algorithm algo{};
    cudnnMathType_t math = CUDNN_DEFAULT_MATH;
    size_t workspace = 0;
    std::string source;
  };

  // A choice Find made earlier on this machine (algorithm_cache.hpp), if it is still one this
  // mode may use and cuDNN accepts for these descriptors.
  std::optional<Chosen> cached_choice(const std::string& key, cudnnMathType_t requested, const CallDescriptors& d) {
    const AlgorithmCache cache(inputs::default_algorithm_cache_path());
    const std::optional<AlgorithmChoice> cached = cache.find(key);
    if (!cached || cached->algorithm < 0 || cached->algorithm >= Direction::kAlgorithmCount) return std::nullopt;
    const auto math = static_cast<cudnnMathType_t>(cached->math_type);
    if (!allowed_math(requested, math)) return std::nullopt;
    const auto algorithm = static_cast<typename Direction::Algorithm>(cached->algorithm);
    if (cudnnSetConvolutionMathType(d.conv, math) != CUDNN_STATUS_SUCCESS) return std::nullopt;
    size_t workspace = 0;
    if (Direction::workspace(context_.cudnn(), d, algorithm, &workspace) != CUDNN_STATUS_SUCCESS) {
      check(cudnnSetConvolutionMathType(d.conv, requested), "cudnnSetConvolutionMathType");
      return std::nullopt;
    }
    return Chosen{algorithm, math, workspace, "cached cudnnFind choice (" + cache.file().string() + ")"};
  }

  // cudnnFind's fastest successful algorithm of a math type this mode may use, remembered; nullopt
  // when there is none.
  std::optional<Chosen> find_choice(cudnnMathType_t requested, const std::string& key, const CallDescriptors& d) {
    std::vector<typename Direction::Perf> results(static_cast<size_t>(Direction::kAlgorithmCount));
    int returned = 0;
    check(Direction::find(context_.cudnn(), d, static_cast<int>(results.size()), &returned, results.data()),
          "cudnnFind (convolution algorithms)");
    results.resize(static_cast<size_t>(returned));
    for (const typename Direction::Perf& perf : results) {  // sorted fastest first
      if (perf.status != CUDNN_STATUS_SUCCESS) continue;
      if (!allowed_math(requested, perf.mathType)) continue;
      // cuDNN decides tensor-core use from algorithm and math type together. TF32 mode takes
      // the math type Find measured (as PyTorch does); strict fp32 always keeps FMA_MATH, so
      // no tensor-core kernel can run whatever Find reported.
      Chosen chosen{perf.algo, requested == CUDNN_FMA_MATH ? CUDNN_FMA_MATH : perf.mathType, perf.memory, ""};
      check(cudnnSetConvolutionMathType(d.conv, chosen.math), "cudnnSetConvolutionMathType");
      std::string unwritten;
      chosen.source = AlgorithmCache(inputs::default_algorithm_cache_path())
                              .remember(key, {static_cast<int>(chosen.algo), static_cast<int>(chosen.math)}, &unwritten)
                          ? "cudnnFind (remembered)"
                          : "cudnnFind (not remembered: " + unwritten + ")";
      return chosen;
    }
    return std::nullopt;
  }

  // The choice remembered on this machine, else Find's (remembered for next time).
  std::optional<Chosen> choose(const std::string& key, cudnnMathType_t requested, const CallDescriptors& d) {
    if (std::optional<Chosen> cached = cached_choice(key, requested, d)) return cached;
    return find_choice(requested, key, d);
  }

  void adopt(const Chosen& chosen) {
    algo_ = chosen.algo;
    math_ = chosen.math;
    workspace_ = chosen.workspace;
    algorithm_source_ = chosen.source;
    context_.reserve_scratch(workspace_);
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
  std::string layout_source_;                  // forward 2-D: which layout runs and how that was chosen
  std::optional<ChannelsLast> channels_last_;  // set when channels-last runs
  bool has_bias_ = false;
  BroadcastGeometry bias_geometry_;
  size_t conv_inputs_ = 0;                   // the node's inputs; the epilogue's follow them
  std::unique_ptr<ConvEpilogue> epilogue_;
  std::string description_;
};

}  // namespace

namespace {

// The step of a convolution node, with `epilogue` (a forward convolution's only) when not null.
std::unique_ptr<NodeStep> make_step(const NodeContext& node, LibraryContext& context, ConvolutionForm form,
                                    std::unique_ptr<ConvEpilogue> epilogue) {
  const ConvolutionGeometry geometry = convolution_geometry(node.node.op, form, node.input_shapes, node.node.attrs);
  if (convolution_output_shape(geometry) != node.output_shape)
    throw std::invalid_argument(node.where() + ": output shape " + to_string(node.output_shape) +
                                " but the op gives " + to_string(convolution_output_shape(geometry)));
  if (form.transposed) return std::make_unique<CudnnConvolutionStep<BackwardDataConvolution>>(node, context, geometry);
  return std::make_unique<CudnnConvolutionStep<ForwardConvolution>>(node, context, geometry, std::move(epilogue));
}

}  // namespace

std::unique_ptr<NodeStep> make_cudnn_convolution_step(const NodeContext& node, LibraryContext& context,
                                                      ConvolutionForm form) {
  return make_step(node, context, form, nullptr);
}

std::unique_ptr<NodeStep> make_conv_epilogue_step(const ResolvedProblem& problem, const cuda::BaselineUnit& unit, LibraryContext& context) {
  const Node& node = problem.problem.graph.at(unit.nodes.front());
  std::vector<Shape> input_shapes;
  for (const std::string& name : node.inputs) input_shapes.push_back(problem.tensor_shapes.at(name));
  const NodeContext context_of_node{node, input_shapes, problem.tensor_shapes.at(node.output)};
  if (node.op != "conv2d")
    throw std::invalid_argument(context_of_node.where() + ": a convolution epilogue follows a conv2d only (conv_epilogue_fold.hpp)");
  constexpr ConvolutionForm kConv2d{2, false};
  return make_step(context_of_node, context, kConv2d, std::make_unique<ConvEpilogue>(problem, unit));
}

}  // namespace kbv::ops::baseline
