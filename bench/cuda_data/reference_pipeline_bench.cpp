// bench/cuda_data/reference_pipeline_bench.cpp — prints how long each stage of the trusted GPU
// data path takes per bundled problem (default: KernelBench shapes), to check that the fp64
// device reference stays within seconds on an H200. The comparison columns: a poisoned output
// (non-finite branch), zeros (finite branch) in two passes, the reference's summary, zeros
// against the summary (one pass), every trivial output of a family in one pass, and an honest
// candidate's recheck (fp32 against the same fp32) in two passes and, `recheck1`, in the one read
// the data plane makes it with (cuda::pass_in_one_read); then the exact draw of the problem's inputs for
// each input family, and the timing draw (a timing sample's fresh inputs) for each, beside a
// memset of the same bytes; a convolution's reference at several im2col budgets and, where the
// budget holds several whole images, with several images a GEMM. Every stage is timed after an untimed run; the fp64 reference's
// `reference` column too where its first run took under kSecondReferenceRunBelowMs (else that
// run), with the first run's time on a line of its own.
//
//   kbv_bench_cuda_data [--shapes default|small] [problem ...]
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <optional>
#include <string>
#include <vector>

#include "common/device_buffer.hpp"
#include "common/event.hpp"
#include "common/stream.hpp"
#include "data/checksum.hpp"
#include "data/device_compare.hpp"
#include "data/device_inputs.hpp"
#include "data/poison.hpp"
#include "data/timing_inputs.hpp"
#include "data/reference_graph.hpp"
#include "data/reference_ops.hpp"
#include "inputs/epoch_plan.hpp"
#include "inputs/family_names.hpp"
#include "ops/common/convolution.hpp"
#include "ops/common/reference/convolution_f64.hpp"
#include "ops/registry.hpp"
#include "spec/catalog.hpp"

namespace {

using kbv::cuda::DeviceBuffer;
using kbv::cuda::Event;

// Milliseconds `stage` takes on `stream`, measured with CUDA events.
template <class Stage>
float time_ms(cudaStream_t stream, Stage stage) {
  const Event start, stop;
  start.record(stream);
  stage();
  stop.record(stream);
  stop.synchronize();
  return stop.elapsed_ms_since(start);
}

// The same after one untimed run: a kernel's first launch loads its module (CUDA's lazy
// loading), which a single run would count (the checksum's first call read 9.4 ms for relu's
// 6.4 GB on the H100, r55, against ≈ 2.9 ms a call inside an evaluation, timing.input_digests).
// For the stages every evaluation repeats; the fp64 reference, seconds for some problems, keeps
// one run.
template <class Stage>
float warm_time_ms(cudaStream_t stream, Stage stage) {
  stage();
  return time_ms(stream, stage);
}

// The fp64 reference's first run in a process also loads its kernels and the library's: conv2d's
// first took 99 ms against 41 ms warm (H100, r98), and the problem named first took that cost in
// every run (r100). A second run is cheap where the first took under this.
constexpr float kSecondReferenceRunBelowMs = 5000;

// " family ms" for every input family: `generate(input, family, draw)` of every input of the
// problem, timed together (the public key's draw of each family's parameters).
template <class Generate>
std::string times_by_family(const kbv::ResolvedProblem& problem, cudaStream_t stream, Generate generate) {
  std::string text;
  const kbv::inputs::SecretKey public_key = kbv::inputs::SecretKey::from_bytes({});
  for (uint32_t f = 0; f < kbv::inputs::kFamilyCount; ++f) {
    const auto family = static_cast<kbv::inputs::Family>(f);
    const kbv::inputs::FamilyDraw draw = kbv::inputs::draw_family(public_key, 0, problem.problem.name, family, 0);
    const float ms = warm_time_ms(stream, [&] {
      for (size_t i = 0; i < problem.input_shapes.size(); ++i) generate(i, family, draw);
    });
    char item[64];
    std::snprintf(item, sizeof item, " %s %.2f", std::string(kbv::inputs::family_name(family)).c_str(), ms);
    text += item;
  }
  return text;
}

// A first node that convolves the problem's own inputs (conv2d_relu_biasadd's) where the im2col
// budget holds two or more whole images: that node's fp64 reference with 1, 2, 4, … images a
// strided-batched GEMM, up to all the budget holds (kbv's references take kConvImagesPerGemm).
void time_images_per_gemm(const kbv::ResolvedProblem& problem, const std::vector<const double*>& input_pointers,
                          const kbv::cuda::ReferenceContext& context, cudaStream_t stream) {
  const kbv::Node& node = problem.problem.graph.at(0);
  const kbv::Op* op = kbv::find_op(node.op);
  const std::optional<kbv::ops::ConvolutionForm> form = op ? kbv::ops::convolution_form_of(*op) : std::nullopt;
  if (!form) return;
  kbv::OpArgs<double> args;
  for (const std::string& name : node.inputs) {
    const auto& declared = problem.problem.inputs;
    const auto found = std::find_if(declared.begin(), declared.end(), [&](const kbv::TensorDecl& d) { return d.name == name; });
    if (found == declared.end()) return;  // an intermediate: not this bench's case
    const auto index = static_cast<size_t>(found - declared.begin());
    args.inputs.push_back(input_pointers[index]);
    args.input_shapes.push_back(problem.input_shapes[index]);
  }
  args.attrs = &node.attrs;
  const kbv::ops::ConvolutionGeometry geometry = kbv::ops::convolution_geometry(node.op, *form, args.input_shapes, node.attrs);
  const int64_t fitting = kbv::ops::reference::images_per_gemm(geometry, kbv::ops::reference::kConvColumnBudgetBytes, geometry.batch);
  if (fitting < 2) return;
  args.output_shape = op->infer_shape(args.input_shapes, node.attrs);
  DeviceBuffer<double> output(static_cast<size_t>(kbv::numel(args.output_shape)));
  args.output = output.get();
  for (int64_t images = 1;; images = std::min(images * 2, fitting)) {
    const float ms = warm_time_ms(stream, [&] {
      kbv::ops::reference::convolution_f64_device(node.op, args, context, kbv::ops::reference::kConvColumnBudgetBytes, images);
    });
    std::printf("  %s (%s) fp64 reference, %2lld image(s) a GEMM%s: %.2f ms\n", node.name.c_str(), node.op.c_str(),
                static_cast<long long>(images), images == kbv::ops::reference::kConvImagesPerGemm ? " (kbv's)" : "", ms);
    if (images == fitting) break;
  }
}

void run_problem(const kbv::ResolvedProblem& problem, cudaStream_t stream) {
  constexpr uint64_t kSeed = 0xbe4c;
  std::vector<DeviceBuffer<float>> inputs_f32;
  std::vector<DeviceBuffer<double>> inputs_f64;
  std::vector<const double*> input_pointers;
  double elements = 0;
  float generate = 0, widen = 0, checksum = 0;
  for (size_t i = 0; i < problem.input_shapes.size(); ++i) {
    const kbv::Shape& shape = problem.input_shapes[i];
    const int64_t count = kbv::numel(shape);
    elements += static_cast<double>(count);
    inputs_f32.emplace_back(static_cast<size_t>(count));
    inputs_f64.emplace_back(static_cast<size_t>(count));
    float* f32 = inputs_f32.back().get();
    double* f64 = inputs_f64.back().get();
    generate += warm_time_ms(stream, [&] {
      kbv::cuda::generate_inputs_on_device(f32, count, kbv::inputs::Family::normal, {}, kSeed,
                                           static_cast<uint32_t>(i), kbv::inputs::axes_of_shape(shape.data(), shape.size()),
                                           problem.input_scale(i), stream);
    });
    widen += warm_time_ms(stream, [&] { kbv::cuda::widen_f32_to_f64(f32, f64, count, stream); });
    checksum += warm_time_ms(stream, [&] {
      (void)kbv::cuda::checksum_on_device(f32, static_cast<uint64_t>(count) * sizeof(float), stream, kSeed);
    });
    input_pointers.push_back(f64);
  }
  std::vector<DeviceBuffer<double>> outputs_f64;
  std::vector<double*> output_pointers;
  for (const kbv::Shape& shape : problem.output_shapes) {
    outputs_f64.emplace_back(static_cast<size_t>(kbv::numel(shape)));
    output_pointers.push_back(outputs_f64.back().get());
  }
  const kbv::cuda::ReferenceContext context(stream);
  const auto run_reference = [&] { kbv::cuda::run_reference_graph_device(problem, input_pointers, output_pointers, context); };
  const float first_reference = time_ms(stream, run_reference);
  const float reference = first_reference < kSecondReferenceRunBelowMs ? time_ms(stream, run_reference) : first_reference;
  // Comparisons of one fp32 output per problem output. A poisoned output takes the non-finite
  // branch of the element rule; zeros take the finite branch (the one real outputs take).
  float poison = 0, compare_poisoned = 0, compare_zeros = 0, summary = 0, compare_summarised = 0, trivial = 0, recheck = 0, recheck_one_read = 0;
  for (size_t o = 0; o < outputs_f64.size(); ++o) {
    const int64_t count = kbv::numel(problem.output_shapes[o]);
    const int64_t rows = kbv::local_rms_row_length(problem.output_shapes[o]);  // as the data plane judges it
    const kbv::Tolerance& tolerance = problem.problem.tolerance;
    DeviceBuffer<float> candidate(static_cast<size_t>(count));
    poison += warm_time_ms(stream, [&] { kbv::cuda::poison_on_device(candidate.get(), count, stream); });
    compare_poisoned += warm_time_ms(stream, [&] {
      (void)kbv::cuda::compare_on_device(candidate.get(), outputs_f64[o].get(), count, rows, tolerance, stream);
    });
    kbv::cuda::check(cudaMemsetAsync(candidate.get(), 0, candidate.bytes(), stream), "cudaMemsetAsync");
    compare_zeros += warm_time_ms(stream, [&] {
      (void)kbv::cuda::compare_on_device(candidate.get(), outputs_f64[o].get(), count, rows, tolerance, stream);
    });
    kbv::cuda::ReferenceSummary reference_summary;
    summary += warm_time_ms(stream, [&] { reference_summary.compute(outputs_f64[o].get(), count, rows, tolerance.atol, stream); });
    compare_summarised += warm_time_ms(stream, [&] {
      (void)kbv::cuda::compare_on_device(candidate.get(), outputs_f64[o].get(), reference_summary, count, rows, tolerance, stream);
    });
    // What the data plane judges per family: zeros, the mean, a copy of each input.
    kbv::cuda::TrivialOutputs outputs;
    outputs.constants = {0.0f, 0.5f};
    for (size_t i = 0; i < inputs_f32.size(); ++i)
      outputs.repeated_inputs.emplace_back(inputs_f32[i].get(), static_cast<int64_t>(inputs_f32[i].size()));
    trivial += warm_time_ms(stream, [&] {
      (void)kbv::cuda::trivial_outputs_pass_on_device(outputs_f64[o].get(), reference_summary, count, rows, outputs, tolerance, stream);
    });
    // A timed output's recheck: fp32 against the TF32 baseline's fp32 output, finite values.
    DeviceBuffer<float> baseline(static_cast<size_t>(count));
    kbv::cuda::generate_inputs_on_device(baseline.get(), count, kbv::inputs::Family::normal, {}, kSeed + 1, 0,
                                         kbv::inputs::axes_of_shape(&count, 1), 1.0, stream);
    // An honest candidate's: its output the baseline's (the zeros above would fail everywhere).
    kbv::cuda::check(cudaMemcpyAsync(candidate.get(), baseline.get(), baseline.bytes(), cudaMemcpyDeviceToDevice, stream), "cudaMemcpyAsync");
    recheck += warm_time_ms(stream, [&] { (void)kbv::cuda::compare_on_device(candidate.get(), baseline.get(), count, rows, tolerance, stream); });
    // The same recheck as the data plane makes it: one read proves the pass (cuda::pass_in_one_read).
    bool proved = true;
    recheck_one_read += warm_time_ms(stream, [&] {
      proved = kbv::cuda::pass_in_one_read(candidate.get(), baseline.get(), count, tolerance, stream).has_value() && proved;
    });
    if (!proved) std::fprintf(stderr, "%s: one read did not prove an exact copy's pass\n", problem.problem.name.c_str());
  }
  std::printf("%-22s %8.3g %8.2f %6.2f %6.2f %9.2f %6.2f %8.2f %8.2f %7.2f %8.2f %7.2f %7.2f %8.2f\n", problem.problem.name.c_str(), elements,
              generate, widen, checksum, reference, poison, compare_poisoned, compare_zeros, summary, compare_summarised, trivial, recheck,
              recheck_one_read);
  std::printf("  fp64 reference's first run (its kernels and the library loaded): %.2f ms%s\n", first_reference,
              first_reference < kSecondReferenceRunBelowMs ? "; the reference column is a second run" : "; the reference column is that run");
  // The exact draw of every input, family by family (the structured families read a Philox block
  // per axis per element; every family costs one such draw per correctness trial).
  const std::string by_family = times_by_family(problem, stream, [&](size_t i, kbv::inputs::Family family, const kbv::inputs::FamilyDraw& draw) {
    const kbv::Shape& shape = problem.input_shapes[i];
    kbv::cuda::generate_inputs_on_device(inputs_f32[i].get(), kbv::numel(shape), family, draw.params, kSeed, static_cast<uint32_t>(i),
                                         kbv::inputs::axes_of_shape(shape.data(), shape.size()), problem.input_scale(i), stream);
  });
  std::printf("  generate by family (ms):%s\n", by_family.c_str());
  // The timing draw of every input, family by family: what each timing sample pays before the
  // candidate is called (timing.prepare_inputs), with its checksum in the same pass; beside it a
  // memset of the same bytes, the write-bandwidth floor no draw can beat.
  DeviceBuffer<unsigned long long> sums(problem.input_shapes.size());
  const float floor_ms = warm_time_ms(stream, [&] {
    for (size_t i = 0; i < problem.input_shapes.size(); ++i)
      kbv::cuda::check(cudaMemsetAsync(inputs_f32[i].get(), 0, inputs_f32[i].bytes(), stream), "cudaMemsetAsync");
  });
  const std::string timing_by_family = times_by_family(problem, stream, [&](size_t i, kbv::inputs::Family family, const kbv::inputs::FamilyDraw& draw) {
    const kbv::Shape& shape = problem.input_shapes[i];
    kbv::cuda::generate_timing_inputs_on_device(inputs_f32[i].get(), kbv::numel(shape), family, draw.params, kSeed, static_cast<uint32_t>(i),
                                                kbv::inputs::axes_of_shape(shape.data(), shape.size()), problem.input_scale(i), kSeed,
                                                sums.get() + i, stream);
  });
  std::printf("  timing draw by family (ms; memset of the same bytes %.2f):%s\n", floor_ms, timing_by_family.c_str());
  // A lone convolution (conv1d/2d/3d, conv_transpose1d/2d/3d): its fp64 reference (im2col in
  // chunks, then Dgemm) at several im2col budgets; small chunks can stay in L2 (60 MiB on the
  // H200) between im2col and the GEMM.
  const bool lone_convolution =
      problem.problem.graph.size() == 1 && kbv::ops::convolution_form_of(*kbv::find_op(problem.problem.graph[0].op));
  if (lone_convolution) {
    const std::string& op = problem.problem.graph[0].op;
    kbv::OpArgs<double> args;
    args.inputs = {input_pointers.begin(), input_pointers.end()};
    args.input_shapes = problem.input_shapes;
    args.output = outputs_f64[0].get();
    args.output_shape = problem.output_shapes[0];
    args.attrs = &problem.problem.graph[0].attrs;
    for (const size_t megabytes : {512, 128, 48, 24, 12, 6}) {
      const float ms =
          time_ms(stream, [&] { kbv::ops::reference::convolution_f64_device(op, args, context, megabytes << 20); });
      std::printf("  %s fp64 reference, im2col budget %3zu MiB: %.2f ms\n", op.c_str(), megabytes, ms);
    }
  }
  time_images_per_gemm(problem, input_pointers, context, stream);
}

}  // namespace

int main(int argc, char** argv) {
  std::string shape_set = "default";
  std::vector<std::string> names;
  for (int a = 1; a < argc; ++a) {
    const std::string arg = argv[a];
    if (arg == "--shapes" && a + 1 < argc) {
      shape_set = argv[++a];
    } else {
      names.push_back(arg);
    }
  }
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::fprintf(stderr, "kbv_bench_cuda_data: no CUDA device\n");
    return 1;
  }
  try {
    const kbv::ProblemCatalog catalog = kbv::ProblemCatalog::load(kbv::default_problems_directory());
    if (names.empty()) names = catalog.names();
    const kbv::cuda::Stream stream;
    std::printf("shape set %s; times in ms (CUDA events)\n", shape_set.c_str());
    std::printf("%-22s %8s %8s %6s %6s %9s %6s %8s %8s %7s %8s %7s %7s %8s\n", "problem", "in elems", "generate", "widen", "checksum",
                "reference", "poison", "cmp(poi)", "cmp(0s)", "summary", "cmp(sum)", "trivial", "recheck", "recheck1");
    for (const std::string& name : names) {
      run_problem(kbv::resolve_problem(catalog.get(name), shape_set), stream.get());
    }
  } catch (const std::exception& error) {
    std::fprintf(stderr, "kbv_bench_cuda_data: %s\n", error.what());
    return 1;
  }
  return 0;
}
