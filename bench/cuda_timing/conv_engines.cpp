// bench/cuda_timing/conv_engines.cpp — kbv_bench_cuda_timing --conv-engines [N,C,H,W,K,R,S]:
// every cuDNN engine that can run one channels-last (NHWC input and output, KRSC weight) fp32
// forward convolution with TF32 allowed, timed alone, with the kernels each runs (CUPTI). The
// question it answers (issue #13): torch.compile's convolution for conv2d_relu_biasadd runs cuDNN's
// sm90 warp-specialized kernel (0.851 ms on the H100, docs/results/h100/parity-kernels.md) while
// cudnnFind's best legacy algorithm and the backend heuristics' first 8 plans ran ~1.4 ms; does
// any plan of this cuDNN reach it, and from which source (heuristics mode A, B, fallback, or an
// engine's default configuration)? Also times the legacy API's algorithms on the same tensors.
// Default shape: conv2d_relu_biasadd's (problems/conv2d_relu_biasadd.yaml, 3x3, stride 1, no
// padding). Prints figures; asserts nothing.
#include <cuda_runtime_api.h>
#include <cudnn.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "common/event.hpp"
#include "common/stream.hpp"
#include "measure/cupti/cupti_tracer.hpp"
#include "measure/support/handles.hpp"
#include "measure/support/library_errors.hpp"
#include "measure/support/random_fill.hpp"

namespace kbv::bench {
namespace {

using cuda::measure::check;
using Descriptor = std::shared_ptr<void>;

constexpr int64_t kXId = 'x', kWId = 'w', kYId = 'y';
// cuDNN's sm90 kernels load through TMA, which wants 16-byte aligned tensors (cudaMalloc gives 256).
constexpr int64_t kAlignmentBytes = 16;
// Plans whose workspace exceeds this are listed, not run (the H100 has 80 GB; the tensors ~1.6 GB).
constexpr int64_t kMaxWorkspaceBytes = int64_t{4} << 30;
constexpr int kWarmupRuns = 2;
constexpr int kTimedRuns = 7;

struct ConvShape {
  int64_t n = 128, c = 64, h = 128, w = 128, k = 128, r = 3, s = 3;  // conv2d_relu_biasadd default
  int64_t out_h() const { return h - r + 1; }
  int64_t out_w() const { return w - s + 1; }
};

Descriptor owned(cudnnBackendDescriptor_t raw) {
  return Descriptor(raw, [](void* d) {
    if (d != nullptr) static_cast<void>(cudnnBackendDestroyDescriptor(static_cast<cudnnBackendDescriptor_t>(d)));
  });
}
Descriptor create(cudnnBackendDescriptorType_t type) {
  cudnnBackendDescriptor_t raw = nullptr;
  check(cudnnBackendCreateDescriptor(type, &raw), "cudnnBackendCreateDescriptor");
  return owned(raw);
}
cudnnBackendDescriptor_t raw(const Descriptor& d) { return static_cast<cudnnBackendDescriptor_t>(d.get()); }
template <class T>
void set(const Descriptor& d, cudnnBackendAttributeName_t name, cudnnBackendAttributeType_t type, const T* values, int64_t count) {
  check(cudnnBackendSetAttribute(raw(d), name, type, count, values), "cudnnBackendSetAttribute");
}
void set_descriptor(const Descriptor& d, cudnnBackendAttributeName_t name, const Descriptor& value) {
  cudnnBackendDescriptor_t v = raw(value);
  set(d, name, CUDNN_TYPE_BACKEND_DESCRIPTOR, &v, 1);
}

// An fp32 tensor of NCHW-ordered dims stored channels-last.
Descriptor channels_last_tensor(int64_t id, std::array<int64_t, 4> dims) {
  Descriptor t = create(CUDNN_BACKEND_TENSOR_DESCRIPTOR);
  const int64_t c = dims[1], h = dims[2], w = dims[3];
  const std::array<int64_t, 4> strides{c * h * w, 1, w * c, c};
  const cudnnDataType_t type = CUDNN_DATA_FLOAT;
  set(t, CUDNN_ATTR_TENSOR_DATA_TYPE, CUDNN_TYPE_DATA_TYPE, &type, 1);
  set(t, CUDNN_ATTR_TENSOR_DIMENSIONS, CUDNN_TYPE_INT64, dims.data(), 4);
  set(t, CUDNN_ATTR_TENSOR_STRIDES, CUDNN_TYPE_INT64, strides.data(), 4);
  set(t, CUDNN_ATTR_TENSOR_UNIQUE_ID, CUDNN_TYPE_INT64, &id, 1);
  set(t, CUDNN_ATTR_TENSOR_BYTE_ALIGNMENT, CUDNN_TYPE_INT64, &kAlignmentBytes, 1);
  check(cudnnBackendFinalize(raw(t)), "cudnnBackendFinalize (tensor)");
  return t;
}

struct Graph {
  Descriptor x, w, y, conv, operation, graph;
};

Graph build_graph(cudnnHandle_t handle, const ConvShape& s) {
  Graph g;
  g.x = channels_last_tensor(kXId, {s.n, s.c, s.h, s.w});
  g.w = channels_last_tensor(kWId, {s.k, s.c, s.r, s.s});
  g.y = channels_last_tensor(kYId, {s.n, s.k, s.out_h(), s.out_w()});
  g.conv = create(CUDNN_BACKEND_CONVOLUTION_DESCRIPTOR);
  const int64_t spatial = 2;
  const std::array<int64_t, 2> zero{0, 0}, one{1, 1};
  const cudnnDataType_t compute = CUDNN_DATA_FLOAT;
  const cudnnConvolutionMode_t mode = CUDNN_CROSS_CORRELATION;
  set(g.conv, CUDNN_ATTR_CONVOLUTION_SPATIAL_DIMS, CUDNN_TYPE_INT64, &spatial, 1);
  set(g.conv, CUDNN_ATTR_CONVOLUTION_COMP_TYPE, CUDNN_TYPE_DATA_TYPE, &compute, 1);
  set(g.conv, CUDNN_ATTR_CONVOLUTION_CONV_MODE, CUDNN_TYPE_CONVOLUTION_MODE, &mode, 1);
  set(g.conv, CUDNN_ATTR_CONVOLUTION_PRE_PADDINGS, CUDNN_TYPE_INT64, zero.data(), 2);
  set(g.conv, CUDNN_ATTR_CONVOLUTION_POST_PADDINGS, CUDNN_TYPE_INT64, zero.data(), 2);
  set(g.conv, CUDNN_ATTR_CONVOLUTION_FILTER_STRIDES, CUDNN_TYPE_INT64, one.data(), 2);
  set(g.conv, CUDNN_ATTR_CONVOLUTION_DILATIONS, CUDNN_TYPE_INT64, one.data(), 2);
  check(cudnnBackendFinalize(raw(g.conv)), "cudnnBackendFinalize (convolution)");
  g.operation = create(CUDNN_BACKEND_OPERATION_CONVOLUTION_FORWARD_DESCRIPTOR);
  set_descriptor(g.operation, CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_X, g.x);
  set_descriptor(g.operation, CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_W, g.w);
  set_descriptor(g.operation, CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_Y, g.y);
  set_descriptor(g.operation, CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_CONV_DESC, g.conv);
  const float alpha = 1.f, beta = 0.f;
  set(g.operation, CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_ALPHA, CUDNN_TYPE_FLOAT, &alpha, 1);
  set(g.operation, CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_BETA, CUDNN_TYPE_FLOAT, &beta, 1);
  check(cudnnBackendFinalize(raw(g.operation)), "cudnnBackendFinalize (operation)");
  g.graph = create(CUDNN_BACKEND_OPERATIONGRAPH_DESCRIPTOR);
  set_descriptor(g.graph, CUDNN_ATTR_OPERATIONGRAPH_OPS, g.operation);
  set(g.graph, CUDNN_ATTR_OPERATIONGRAPH_HANDLE, CUDNN_TYPE_HANDLE, &handle, 1);
  check(cudnnBackendFinalize(raw(g.graph)), "cudnnBackendFinalize (graph)");
  return g;
}

// One engine configuration to try, and where it came from.
struct Candidate {
  std::string source;  // "heur_a #3", "engine default"
  Descriptor config;
};

std::vector<Candidate> heuristic_configs(const Graph& g, cudnnBackendHeurMode_t mode, const char* name) {
  std::vector<Candidate> out;
  Descriptor heuristics = create(CUDNN_BACKEND_ENGINEHEUR_DESCRIPTOR);
  set_descriptor(heuristics, CUDNN_ATTR_ENGINEHEUR_OPERATION_GRAPH, g.graph);
  set(heuristics, CUDNN_ATTR_ENGINEHEUR_MODE, CUDNN_TYPE_HEUR_MODE, &mode, 1);
  if (cudnnBackendFinalize(raw(heuristics)) != CUDNN_STATUS_SUCCESS) {
    std::printf("heuristics %s: does not finalize for this graph\n", name);
    return out;
  }
  int64_t count = 0;
  check(cudnnBackendGetAttribute(raw(heuristics), CUDNN_ATTR_ENGINEHEUR_RESULTS, CUDNN_TYPE_BACKEND_DESCRIPTOR, 0, &count, nullptr),
        "cudnnBackendGetAttribute (heuristics count)");
  std::vector<Descriptor> configs;
  std::vector<cudnnBackendDescriptor_t> raws;
  for (int64_t i = 0; i < count; ++i) {
    configs.push_back(create(CUDNN_BACKEND_ENGINECFG_DESCRIPTOR));
    raws.push_back(raw(configs.back()));
  }
  int64_t returned = 0;
  check(cudnnBackendGetAttribute(raw(heuristics), CUDNN_ATTR_ENGINEHEUR_RESULTS, CUDNN_TYPE_BACKEND_DESCRIPTOR, count, &returned, raws.data()),
        "cudnnBackendGetAttribute (heuristics results)");
  for (int64_t i = 0; i < returned; ++i) out.push_back({std::string(name) + " #" + std::to_string(i), configs[static_cast<size_t>(i)]});
  std::printf("heuristics %s: %lld configurations\n", name, static_cast<long long>(returned));
  return out;
}

// Every engine the graph has, each with its default knobs; engines that do not finalize for this
// graph are counted.
std::vector<Candidate> engine_defaults(const Graph& g) {
  std::vector<Candidate> out;
  int64_t engines = 0, returned = 0;
  check(cudnnBackendGetAttribute(raw(g.graph), CUDNN_ATTR_OPERATIONGRAPH_ENGINE_GLOBAL_COUNT, CUDNN_TYPE_INT64, 1, &returned, &engines),
        "cudnnBackendGetAttribute (engine count)");
  int unsupported = 0;
  for (int64_t index = 0; index < engines; ++index) {
    Descriptor engine = create(CUDNN_BACKEND_ENGINE_DESCRIPTOR);
    set_descriptor(engine, CUDNN_ATTR_ENGINE_OPERATION_GRAPH, g.graph);
    set(engine, CUDNN_ATTR_ENGINE_GLOBAL_INDEX, CUDNN_TYPE_INT64, &index, 1);
    if (cudnnBackendFinalize(raw(engine)) != CUDNN_STATUS_SUCCESS) {
      ++unsupported;
      continue;
    }
    Descriptor config = create(CUDNN_BACKEND_ENGINECFG_DESCRIPTOR);
    set_descriptor(config, CUDNN_ATTR_ENGINECFG_ENGINE, engine);
    if (cudnnBackendFinalize(raw(config)) != CUDNN_STATUS_SUCCESS) {
      ++unsupported;
      continue;
    }
    out.push_back({"engine default", config});
  }
  std::printf("engines: %lld in the graph's global count, %d do not finalize for it\n", static_cast<long long>(engines), unsupported);
  return out;
}

// The engine behind a configuration: its global index and its notes.
struct EngineFacts {
  int64_t index = -1;
  std::string notes;
};

EngineFacts engine_facts(const Descriptor& config) {
  EngineFacts facts;
  Descriptor engine = create(CUDNN_BACKEND_ENGINE_DESCRIPTOR);
  cudnnBackendDescriptor_t engine_raw = raw(engine);
  int64_t returned = 0;
  if (cudnnBackendGetAttribute(raw(config), CUDNN_ATTR_ENGINECFG_ENGINE, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1, &returned, &engine_raw) !=
      CUDNN_STATUS_SUCCESS)
    return facts;
  (void)cudnnBackendGetAttribute(engine_raw, CUDNN_ATTR_ENGINE_GLOBAL_INDEX, CUDNN_TYPE_INT64, 1, &returned, &facts.index);
  std::array<cudnnBackendNumericalNote_t, CUDNN_NUMERICAL_NOTE_TYPE_COUNT> numerical{};
  if (cudnnBackendGetAttribute(engine_raw, CUDNN_ATTR_ENGINE_NUMERICAL_NOTE, CUDNN_TYPE_NUMERICAL_NOTE, numerical.size(), &returned,
                               numerical.data()) == CUDNN_STATUS_SUCCESS)
    for (int64_t i = 0; i < returned; ++i) {
      switch (numerical[static_cast<size_t>(i)]) {
        case CUDNN_NUMERICAL_NOTE_TENSOR_CORE: facts.notes += "tensor_core "; break;
        case CUDNN_NUMERICAL_NOTE_DOWN_CONVERT_INPUTS: facts.notes += "down_convert "; break;
        case CUDNN_NUMERICAL_NOTE_REDUCED_PRECISION_REDUCTION: facts.notes += "reduced_precision "; break;
        case CUDNN_NUMERICAL_NOTE_FFT: facts.notes += "fft "; break;
        case CUDNN_NUMERICAL_NOTE_NONDETERMINISTIC: facts.notes += "nondeterministic "; break;
        case CUDNN_NUMERICAL_NOTE_WINOGRAD: facts.notes += "winograd "; break;
        default: facts.notes += "note" + std::to_string(static_cast<int>(numerical[static_cast<size_t>(i)])) + " "; break;
      }
    }
  std::array<cudnnBackendBehaviorNote_t, CUDNN_BEHAVIOR_NOTE_TYPE_COUNT> behavior{};
  if (cudnnBackendGetAttribute(engine_raw, CUDNN_ATTR_ENGINE_BEHAVIOR_NOTE, CUDNN_TYPE_BEHAVIOR_NOTE, behavior.size(), &returned,
                               behavior.data()) == CUDNN_STATUS_SUCCESS)
    for (int64_t i = 0; i < returned; ++i)
      facts.notes += behavior[static_cast<size_t>(i)] == CUDNN_BEHAVIOR_NOTE_RUNTIME_COMPILATION
                         ? "runtime_compiled "
                         : "behavior" + std::to_string(static_cast<int>(behavior[static_cast<size_t>(i)])) + " ";
  return facts;
}

struct Buffers {
  float *x, *w, *y;
  void* workspace;
};

// A finalized plan's run; the variant pack is built per run (what kbv's baseline would do).
cudnnStatus_t execute(cudnnHandle_t handle, const Descriptor& plan, const Buffers& b) {
  Descriptor pack = create(CUDNN_BACKEND_VARIANT_PACK_DESCRIPTOR);
  const std::array<int64_t, 3> ids{kXId, kWId, kYId};
  std::array<void*, 3> pointers{b.x, b.w, b.y};
  void* workspace = b.workspace;
  set(pack, CUDNN_ATTR_VARIANT_PACK_UNIQUE_IDS, CUDNN_TYPE_INT64, ids.data(), 3);
  set(pack, CUDNN_ATTR_VARIANT_PACK_DATA_POINTERS, CUDNN_TYPE_VOID_PTR, pointers.data(), 3);
  set(pack, CUDNN_ATTR_VARIANT_PACK_WORKSPACE, CUDNN_TYPE_VOID_PTR, &workspace, 1);
  check(cudnnBackendFinalize(raw(pack)), "cudnnBackendFinalize (variant pack)");
  return cudnnBackendExecute(handle, static_cast<cudnnBackendDescriptor_t>(plan.get()), raw(pack));
}

// Median of kTimedRuns event-timed runs after kWarmupRuns, or nullopt when a run fails.
template <class Run>
std::optional<double> median_ms(Run&& run, cudaStream_t stream) {
  for (int i = 0; i < kWarmupRuns; ++i)
    if (!run()) return std::nullopt;
  cuda::Event start, stop;
  std::vector<double> times;
  for (int i = 0; i < kTimedRuns; ++i) {
    check(cudaEventRecord(start.get(), stream), "cudaEventRecord");
    if (!run()) return std::nullopt;
    check(cudaEventRecord(stop.get(), stream), "cudaEventRecord");
    check(cudaEventSynchronize(stop.get()), "cudaEventSynchronize");
    float ms = 0;
    check(cudaEventElapsedTime(&ms, start.get(), stop.get()), "cudaEventElapsedTime");
    times.push_back(ms);
  }
  std::nth_element(times.begin(), times.begin() + times.size() / 2, times.end());
  return times[times.size() / 2];
}

// The kernels one more run launches, as CUPTI saw them: "name (ms)" joined.
template <class Run>
std::string kernels_of(Run&& run, cudaStream_t stream) {
  cuda::CuptiTracer& tracer = cuda::CuptiTracer::instance();
  tracer.begin_window();
  const bool ran = run();
  check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
  const cuda::TraceWindow window = tracer.end_window();
  if (!ran) return "(failed)";
  std::ostringstream text;
  for (const auto& kernel : window.kernels) {
    std::string name = kernel.name.substr(0, 140);
    text << name << " (" << static_cast<double>(kernel.end_ns - kernel.start_ns) * 1e-6 << " ms); ";
  }
  return text.str();
}

struct Row {
  explicit Row(std::string from) : source(std::move(from)) {}
  std::string source, notes, kernels, status;
  int64_t engine = -1;
  double workspace_mb = 0;
  std::optional<double> ms;
};

void legacy_algorithms(cudnnHandle_t handle, const ConvShape& s, const Buffers& b, cudaStream_t stream, std::vector<Row>& rows) {
  auto x = cuda::measure::make_cudnn_tensor_desc();
  auto y = cuda::measure::make_cudnn_tensor_desc();
  auto w = cuda::measure::make_cudnn_filter_desc();
  auto conv = cuda::measure::make_cudnn_conv_desc();
  check(cudnnSetTensor4dDescriptor(x.get(), CUDNN_TENSOR_NHWC, CUDNN_DATA_FLOAT, int(s.n), int(s.c), int(s.h), int(s.w)), "x desc");
  check(cudnnSetTensor4dDescriptor(y.get(), CUDNN_TENSOR_NHWC, CUDNN_DATA_FLOAT, int(s.n), int(s.k), int(s.out_h()), int(s.out_w())), "y desc");
  check(cudnnSetFilter4dDescriptor(w.get(), CUDNN_DATA_FLOAT, CUDNN_TENSOR_NHWC, int(s.k), int(s.c), int(s.r), int(s.s)), "w desc");
  check(cudnnSetConvolution2dDescriptor(conv.get(), 0, 0, 1, 1, 1, 1, CUDNN_CROSS_CORRELATION, CUDNN_DATA_FLOAT), "conv desc");
  check(cudnnSetConvolutionMathType(conv.get(), CUDNN_DEFAULT_MATH), "math type (TF32 allowed)");
  for (int a = 0; a < CUDNN_CONVOLUTION_FWD_ALGO_COUNT; ++a) {
    const auto algo = static_cast<cudnnConvolutionFwdAlgo_t>(a);
    Row row("legacy algo " + std::to_string(a));
    size_t bytes = 0;
    if (cudnnGetConvolutionForwardWorkspaceSize(handle, x.get(), w.get(), conv.get(), y.get(), algo, &bytes) != CUDNN_STATUS_SUCCESS) {
      row.status = "not supported";
      rows.push_back(row);
      continue;
    }
    row.workspace_mb = static_cast<double>(bytes) / (1 << 20);
    if (static_cast<int64_t>(bytes) > kMaxWorkspaceBytes) {
      row.status = "workspace too large";
      rows.push_back(row);
      continue;
    }
    const float one = 1.f, zero = 0.f;
    const auto run = [&] {
      return cudnnConvolutionForward(handle, &one, x.get(), b.x, w.get(), b.w, conv.get(), algo, b.workspace, bytes, &zero, y.get(), b.y) ==
             CUDNN_STATUS_SUCCESS;
    };
    row.ms = median_ms(run, stream);
    row.status = row.ms ? "ok" : "failed";
    if (row.ms) row.kernels = kernels_of(run, stream);
    rows.push_back(row);
  }
}

}  // namespace

int run_conv_engines(const std::string& shape_text) {
  ConvShape s;
  if (!shape_text.empty()) {
    std::array<int64_t, 7> v{};
    if (std::sscanf(shape_text.c_str(), "%ld,%ld,%ld,%ld,%ld,%ld,%ld", &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6]) != 7) {
      std::fprintf(stderr, "kbv_bench_cuda_timing: --conv-engines takes N,C,H,W,K,R,S (e.g. 128,64,128,128,128,3,3), not %s\n",
                   shape_text.c_str());
      return 2;
    }
    s = {v[0], v[1], v[2], v[3], v[4], v[5], v[6]};
  }
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::fprintf(stderr, "kbv_bench_cuda_timing: no CUDA device\n");
    return 1;
  }
  cudaDeviceProp properties{};
  check(cudaGetDeviceProperties(&properties, 0), "cudaGetDeviceProperties");
  (void)cuda::CuptiTracer::instance();  // on before the first kernel, as in the worker
  cuda::Stream stream;
  const auto handle = cuda::measure::make_cudnn();
  check(cudnnSetStream(handle.get(), stream.get()), "cudnnSetStream");
  std::printf("cuDNN engines for a channels-last fp32 convolution, TF32 allowed, on %s; cuDNN %zu (headers %d)\n", properties.name,
              cudnnGetVersion(), CUDNN_VERSION);
  std::printf("x [%ld,%ld,%ld,%ld] NHWC, w [%ld,%ld,%ld,%ld] KRSC, y [%ld,%ld,%ld,%ld] NHWC; %d warm-up runs, median of %d (CUDA events)\n\n",
              s.n, s.c, s.h, s.w, s.k, s.c, s.r, s.s, s.n, s.k, s.out_h(), s.out_w(), kWarmupRuns, kTimedRuns);

  const int64_t x_elems = s.n * s.c * s.h * s.w, w_elems = s.k * s.c * s.r * s.s, y_elems = s.n * s.k * s.out_h() * s.out_w();
  cuda::measure::DeviceMemory x(static_cast<size_t>(x_elems) * 4, "x"), w(static_cast<size_t>(w_elems) * 4, "w"),
      y(static_cast<size_t>(y_elems) * 4, "y"), workspace(static_cast<size_t>(kMaxWorkspaceBytes), "workspace");
  cuda::fill_random_uniform(x.as<float>(), x_elems, 1, 1.f, stream.get());
  cuda::fill_random_uniform(w.as<float>(), w_elems, 2, 0.04f, stream.get());
  const Buffers buffers{x.as<float>(), w.as<float>(), y.as<float>(), workspace.get()};

  const Graph graph = build_graph(handle.get(), s);
  std::vector<Candidate> candidates;
  for (auto [mode, name] : {std::pair{CUDNN_HEUR_MODE_A, "heur_a"}, std::pair{CUDNN_HEUR_MODE_B, "heur_b"},
                            std::pair{CUDNN_HEUR_MODE_FALLBACK, "fallback"}})
    for (auto& c : heuristic_configs(graph, mode, name)) candidates.push_back(std::move(c));
  for (auto& c : engine_defaults(graph)) candidates.push_back(std::move(c));

  std::vector<Row> rows;
  for (const Candidate& candidate : candidates) {
    Row row(candidate.source);
    const EngineFacts facts = engine_facts(candidate.config);
    row.engine = facts.index;
    row.notes = facts.notes;
    Descriptor plan = create(CUDNN_BACKEND_EXECUTION_PLAN_DESCRIPTOR);
    cudnnHandle_t h = handle.get();
    cudnnBackendDescriptor_t config = raw(candidate.config);
    set(plan, CUDNN_ATTR_EXECUTION_PLAN_HANDLE, CUDNN_TYPE_HANDLE, &h, 1);
    set(plan, CUDNN_ATTR_EXECUTION_PLAN_ENGINE_CONFIG, CUDNN_TYPE_BACKEND_DESCRIPTOR, &config, 1);
    if (cudnnBackendFinalize(raw(plan)) != CUDNN_STATUS_SUCCESS) {
      row.status = "plan does not finalize";
      rows.push_back(row);
      continue;
    }
    int64_t bytes = 0, returned = 0;
    check(cudnnBackendGetAttribute(raw(plan), CUDNN_ATTR_EXECUTION_PLAN_WORKSPACE_SIZE, CUDNN_TYPE_INT64, 1, &returned, &bytes),
          "workspace size");
    row.workspace_mb = static_cast<double>(bytes) / (1 << 20);
    if (bytes > kMaxWorkspaceBytes) {
      row.status = "workspace too large";
      rows.push_back(row);
      continue;
    }
    const auto run = [&] { return execute(handle.get(), plan, buffers) == CUDNN_STATUS_SUCCESS; };
    row.ms = median_ms(run, stream.get());
    row.status = row.ms ? "ok" : "execute failed";
    if (row.ms) row.kernels = kernels_of(run, stream.get());
    rows.push_back(row);
  }
  legacy_algorithms(handle.get(), s, buffers, stream.get(), rows);

  std::stable_sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) {
    if (a.ms.has_value() != b.ms.has_value()) return a.ms.has_value();
    return a.ms && b.ms && *a.ms < *b.ms;
  });
  std::printf("\n%-16s %6s %9s %9s  %-40s %s\n", "source", "engine", "ws MiB", "ms", "notes / status", "kernels (CUPTI, ms)");
  for (const Row& row : rows)
    std::printf("%-16s %6ld %9.1f %9s  %-40s %s\n", row.source.c_str(), static_cast<long>(row.engine), row.workspace_mb,
                row.ms ? std::to_string(*row.ms).substr(0, 7).c_str() : "-", (row.notes + (row.status == "ok" ? "" : row.status)).c_str(),
                row.kernels.c_str());
  return 0;
}

}  // namespace kbv::bench
