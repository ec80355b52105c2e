// daemon/ops/conv2d/baseline.cpp — conv2d's CUDA baseline: cuDNN (NCHW fp32, cross-correlation),
// then the bias as a separate in-place broadcast add, as PyTorch eager does (_convolution:
// cudnn_convolution then output.add_(reshape_bias(bias))).
//
// Math: TF32 mode sets CUDNN_DEFAULT_MATH, which lets cuDNN use TF32 tensor cores for fp32 data
// (torch.backends.cudnn.allow_tf32 = True, PyTorch's default); fp32 mode sets CUDNN_FMA_MATH, which
// forbids them (allow_tf32 = False). Algorithm: cudnnFindConvolutionForwardAlgorithm times every
// algorithm and the fastest successful one is kept (torch.backends.cudnn.benchmark = True). This
// baseline is therefore never slower than PyTorch's default heuristic pick, so it cannot inflate a
// speedup. Find's answer is remembered per machine (algorithm_cache.hpp) and reused by later
// evaluations.
//
// Large tensors: cuDNN's 4-d descriptors take at most INT_MAX elements, so when the input or the
// output is larger the batch is split into chunks of about kChunkElements, each its own
// cudnnConvolutionForward, as PyTorch eager does (split_batch_dim_to_32bit_out in
// aten/src/ATen/native/cudnn/Conv_v7.cpp); KernelBench L1 #87's output is 2³¹ elements.
#include <algorithm>
#include <climits>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "inputs/secret_key.hpp"
#include "measure/baseline/algorithm_cache.hpp"
#include "measure/baseline/node_step.hpp"
#include "measure/support/library_errors.hpp"
#include "ops/common/baseline/broadcast.hpp"

namespace kbv::ops::conv2d {
namespace {

using cuda::MathMode;
using cuda::measure::AlgorithmCache;
using cuda::measure::AlgorithmChoice;
using cuda::measure::check;
using cuda::measure::CudnnConvDesc;
using cuda::measure::CudnnFilterDesc;
using cuda::measure::CudnnTensorDesc;
using cuda::measure::LibraryContext;
using cuda::measure::make_cudnn_conv_desc;
using cuda::measure::make_cudnn_filter_desc;
using cuda::measure::make_cudnn_tensor_desc;
using cuda::measure::NodeContext;
using cuda::measure::NodeStep;

constexpr float kOne = 1.f;
constexpr float kZero = 0.f;
// PyTorch's max_worksize for a batch chunk (split_batch_dim_to_32bit_out): 256 Mi elements.
constexpr int64_t kChunkElements = int64_t{1024} * 1024 * 256;

// Images per cudnnConvolutionForward: all of them when both tensors fit cuDNN's int counts,
// else PyTorch's chunk (at least one image).
int64_t images_per_chunk(const Shape& x, const Shape& y) {
  const int64_t x_elements = x[0] * x[1] * x[2] * x[3];
  const int64_t y_elements = y[0] * y[1] * y[2] * y[3];
  if (x_elements <= INT_MAX && y_elements <= INT_MAX) return x[0];
  const int64_t per_image = std::max(x_elements, y_elements) / x[0];
  return std::max<int64_t>(kChunkElements / per_image, 1);
}

int as_int(double value, const NodeContext& node, const char* name, int min_value) {
  if (value != static_cast<double>(static_cast<int>(value)) || value < min_value)
    throw std::invalid_argument(node.where() + ": attribute " + name + " = " +
                                std::to_string(value) + " must be an integer >= " +
                                std::to_string(min_value));
  return static_cast<int>(value);
}

int dim(int64_t value, const NodeContext& node) {
  if (value < 1 || value > INT_MAX)
    throw std::invalid_argument(node.where() + ": dimension " + std::to_string(value) +
                                " is outside cuDNN's int range");
  return static_cast<int>(value);
}

const char* algorithm_name(cudnnConvolutionFwdAlgo_t algo) {
  switch (algo) {
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

const char* math_name(cudnnMathType_t math) {
  switch (math) {
    case CUDNN_DEFAULT_MATH: return "DEFAULT_MATH";
    case CUDNN_TENSOR_OP_MATH: return "TENSOR_OP_MATH";
    case CUDNN_TENSOR_OP_MATH_ALLOW_CONVERSION: return "TENSOR_OP_MATH_ALLOW_CONVERSION";
    case CUDNN_FMA_MATH: return "FMA_MATH";
    default: return "unknown";
  }
}

class ConvStep final : public NodeStep {
 public:
  ConvStep(const NodeContext& node, LibraryContext& context) : context_(context) {
    const Shape& x = node.input_shapes.at(0);
    const Shape& w = node.input_shapes.at(1);
    const Shape& y = node.output_shape;
    const int stride = as_int(node.attr("stride"), node, "stride", 1);
    const int padding = as_int(node.attr("padding"), node, "padding", 0);
    const int dilation = as_int(node.attr("dilation"), node, "dilation", 1);
    const int groups = as_int(node.attr("groups"), node, "groups", 1);

    chunk_images_ = images_per_chunk(x, y);
    x_image_elements_ = x[1] * x[2] * x[3];
    y_image_elements_ = y[1] * y[2] * y[3];
    chunks_ = (x[0] + chunk_images_ - 1) / chunk_images_;
    tail_images_ = x[0] - (chunks_ - 1) * chunk_images_;
    x_desc_ = chunk_tensor_desc(x, chunk_images_, node, "x");
    y_desc_ = chunk_tensor_desc(y, chunk_images_, node, "y");
    if (tail_images_ != chunk_images_) {
      x_tail_desc_ = chunk_tensor_desc(x, tail_images_, node, "x");
      y_tail_desc_ = chunk_tensor_desc(y, tail_images_, node, "y");
    }
    w_desc_ = make_cudnn_filter_desc();
    conv_desc_ = make_cudnn_conv_desc();
    check(cudnnSetFilter4dDescriptor(w_desc_.get(), CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW,
                                     dim(w[0], node), dim(w[1], node), dim(w[2], node),
                                     dim(w[3], node)),
          "cudnnSetFilter4dDescriptor");
    check(cudnnSetConvolution2dDescriptor(conv_desc_.get(), padding, padding, stride, stride,
                                          dilation, dilation, CUDNN_CROSS_CORRELATION,
                                          CUDNN_DATA_FLOAT),
          "cudnnSetConvolution2dDescriptor");
    check(cudnnSetConvolutionGroupCount(conv_desc_.get(), groups),
          "cudnnSetConvolutionGroupCount");
    const cudnnMathType_t requested =
        context_.mode() == MathMode::tf32 ? CUDNN_DEFAULT_MATH : CUDNN_FMA_MATH;
    check(cudnnSetConvolutionMathType(conv_desc_.get(), requested), "cudnnSetConvolutionMathType");

    const std::string cache_key = algorithm_cache_key(x, w, stride, padding, dilation, groups, requested);
    if (!use_cached_algorithm(cache_key, requested)) choose_algorithm(node, requested, cache_key);
    if (tail_images_ != chunk_images_) reserve_tail_workspace();

    if (node.input_shapes.size() == 3) {
      has_bias_ = true;
      bias_geometry_ = baseline::make_broadcast_geometry(y, Shape{y[1], 1, 1}, y);
    }
    description_ = std::string("cudnnConvolutionForward algo=") + algorithm_name(algo_) +
                   " math=" + math_name(math_) + " workspace=" + std::to_string(workspace_) +
                   "B stride=" + std::to_string(stride) + " padding=" +
                   std::to_string(padding) + " dilation=" + std::to_string(dilation) +
                   " groups=" + std::to_string(groups) + " chosen by " + algorithm_source_ +
                   (chunks_ > 1 ? " in " + std::to_string(chunks_) + " batch chunks of " + std::to_string(chunk_images_) +
                                      " (cuDNN's int element counts)"
                                : "") +
                   (has_bias_ ? " + kbv channel-bias add kernel" : "");
  }

  void run(std::span<const float* const> in, float* out, cudaStream_t stream) override {
    for (int64_t chunk = 0; chunk < chunks_; ++chunk) {
      const bool tail = chunk == chunks_ - 1 && tail_images_ != chunk_images_;
      const int64_t first_image = chunk * chunk_images_;
      check(cudnnConvolutionForward(context_.cudnn(), &kOne, tail ? x_tail_desc_.get() : x_desc_.get(),
                                    in[0] + first_image * x_image_elements_, w_desc_.get(), in[1], conv_desc_.get(), algo_,
                                    context_.scratch(), workspace_, &kZero, tail ? y_tail_desc_.get() : y_desc_.get(),
                                    out + first_image * y_image_elements_),
            "cudnnConvolutionForward");
    }
    if (has_bias_)
      baseline::launch_broadcast_add(bias_geometry_, out, in[2], out, stream);
  }

  std::string describe() const override { return description_; }

 private:
  // An NCHW descriptor of `images` images of `shape`.
  static CudnnTensorDesc chunk_tensor_desc(const Shape& shape, int64_t images, const NodeContext& node, const char* name) {
    CudnnTensorDesc desc = make_cudnn_tensor_desc();
    check(cudnnSetTensor4dDescriptor(desc.get(), CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, dim(images, node), dim(shape[1], node),
                                     dim(shape[2], node), dim(shape[3], node)),
          (std::string("cudnnSetTensor4dDescriptor(") + name + ")").c_str());
    return desc;
  }

  // The last, smaller chunk runs the same algorithm; its workspace may differ.
  void reserve_tail_workspace() {
    size_t tail_workspace = 0;
    check(cudnnGetConvolutionForwardWorkspaceSize(context_.cudnn(), x_tail_desc_.get(), w_desc_.get(), conv_desc_.get(),
                                                  y_tail_desc_.get(), algo_, &tail_workspace),
          "cudnnGetConvolutionForwardWorkspaceSize(last chunk)");
    workspace_ = std::max(workspace_, tail_workspace);
    context_.reserve_scratch(workspace_);
  }

  // GPU model, cuDNN version, problem and math mode: what Find's answer depends on.
  static std::string algorithm_cache_key(const Shape& x, const Shape& w, int stride, int padding, int dilation, int groups,
                                         cudnnMathType_t requested) {
    int device = 0;
    check(cudaGetDevice(&device), "cudaGetDevice");
    cudaDeviceProp properties{};
    check(cudaGetDeviceProperties(&properties, device), "cudaGetDeviceProperties");
    std::string key = std::string(properties.name) + "|cudnn " + std::to_string(cudnnGetVersion()) + "|fwd x";
    for (int64_t d : x) key += " " + std::to_string(d);
    key += " w";
    for (int64_t d : w) key += " " + std::to_string(d);
    return key + " s" + std::to_string(stride) + " p" + std::to_string(padding) + " d" + std::to_string(dilation) + " g" +
           std::to_string(groups) + " " + math_name(requested);
  }

  // A choice Find made earlier on this machine (algorithm_cache.hpp), if it is still one this
  // mode may use and cuDNN accepts for this problem.
  bool use_cached_algorithm(const std::string& key, cudnnMathType_t requested) {
    const std::optional<AlgorithmChoice> cached = AlgorithmCache(inputs::default_algorithm_cache_path()).find(key);
    if (!cached || cached->algorithm < 0 || cached->algorithm >= CUDNN_CONVOLUTION_FWD_ALGO_COUNT) return false;
    const auto math = static_cast<cudnnMathType_t>(cached->math_type);
    if (!allowed_math(requested, math)) return false;
    const auto algorithm = static_cast<cudnnConvolutionFwdAlgo_t>(cached->algorithm);
    if (cudnnSetConvolutionMathType(conv_desc_.get(), math) != CUDNN_STATUS_SUCCESS) return false;
    size_t workspace = 0;
    if (cudnnGetConvolutionForwardWorkspaceSize(context_.cudnn(), x_desc_.get(), w_desc_.get(), conv_desc_.get(), y_desc_.get(),
                                                algorithm, &workspace) != CUDNN_STATUS_SUCCESS) {
      check(cudnnSetConvolutionMathType(conv_desc_.get(), requested), "cudnnSetConvolutionMathType");
      return false;
    }
    algo_ = algorithm;
    math_ = math;
    workspace_ = workspace;
    context_.reserve_scratch(workspace_);
    algorithm_source_ = "cached cudnnFind choice (" + AlgorithmCache(inputs::default_algorithm_cache_path()).file().string() + ")";
    return true;
  }

  // ALLOW_CONVERSION may run fp32 data through fp16 tensor cores: never a baseline. Strict fp32
  // never takes a tensor-op math type.
  static bool allowed_math(cudnnMathType_t requested, cudnnMathType_t math) {
    if (math == CUDNN_TENSOR_OP_MATH_ALLOW_CONVERSION) return false;
    if (requested == CUDNN_FMA_MATH) return math == CUDNN_FMA_MATH || math == CUDNN_DEFAULT_MATH;
    return true;
  }

  void choose_algorithm(const NodeContext& node, cudnnMathType_t requested, const std::string& cache_key) {
    std::vector<cudnnConvolutionFwdAlgoPerf_t> results(CUDNN_CONVOLUTION_FWD_ALGO_COUNT);
    int returned = 0;
    check(cudnnFindConvolutionForwardAlgorithm(context_.cudnn(), x_desc_.get(), w_desc_.get(),
                                               conv_desc_.get(), y_desc_.get(),
                                               static_cast<int>(results.size()), &returned,
                                               results.data()),
          "cudnnFindConvolutionForwardAlgorithm");
    results.resize(static_cast<size_t>(returned));
    for (const cudnnConvolutionFwdAlgoPerf_t& perf : results) {  // sorted fastest first
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
      // The math type Find measured, not math_: strict fp32 keeps FMA_MATH either way.
      std::string unwritten;
      algorithm_source_ = AlgorithmCache(inputs::default_algorithm_cache_path())
                                  .remember(cache_key, {static_cast<int>(algo_), static_cast<int>(math_)}, &unwritten)
                              ? "cudnnFind (remembered)"
                              : "cudnnFind (not remembered: " + unwritten + ")";
      return;
    }
    throw std::invalid_argument(node.where() + ": cuDNN found no usable forward algorithm in " +
                                std::string(math_name(requested)) + " mode");
  }

  LibraryContext& context_;
  CudnnTensorDesc x_desc_, y_desc_;            // one full chunk (the whole batch unless split)
  CudnnTensorDesc x_tail_desc_, y_tail_desc_;  // the last chunk, when it is smaller
  int64_t chunk_images_ = 0, tail_images_ = 0, chunks_ = 1;
  int64_t x_image_elements_ = 0, y_image_elements_ = 0;
  CudnnFilterDesc w_desc_;
  CudnnConvDesc conv_desc_;
  cudnnConvolutionFwdAlgo_t algo_ = CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM;
  cudnnMathType_t math_ = CUDNN_DEFAULT_MATH;
  size_t workspace_ = 0;
  std::string algorithm_source_;
  bool has_bias_ = false;
  baseline::BroadcastGeometry bias_geometry_;
  std::string description_;
};

}  // namespace

std::unique_ptr<NodeStep> make_baseline_step(const NodeContext& node, LibraryContext& context) {
  const std::vector<Shape>& in = node.input_shapes;
  if (in.size() < 2 || in.size() > 3 || in[0].size() != 4 || in[1].size() != 4 ||
      node.output_shape.size() != 4 || (in.size() == 3 && in[2] != Shape{in[1][0]}))
    throw std::invalid_argument(node.where() + ": expected x[N,C,H,W], weight[O,C/groups,kH,kW]"
                                ", bias[O]?");
  return std::make_unique<ConvStep>(node, context);
}

}  // namespace kbv::ops::conv2d
