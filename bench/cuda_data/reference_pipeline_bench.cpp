// bench/cuda_data/reference_pipeline_bench.cpp — prints how long each stage of the trusted GPU
// data path takes per bundled problem (default: KernelBench shapes), to check that the fp64
// device reference stays within seconds on an H200.
//
//   kbv_bench_cuda_data [--shapes default|small] [problem ...]
#include <cuda_runtime_api.h>

#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "common/device_buffer.hpp"
#include "common/event.hpp"
#include "common/stream.hpp"
#include "data/checksum.hpp"
#include "data/device_compare.hpp"
#include "data/device_inputs.hpp"
#include "data/poison.hpp"
#include "data/reference_graph.hpp"
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
    generate += time_ms(stream, [&] {
      kbv::cuda::generate_inputs_on_device(f32, count, kbv::inputs::Family::normal, {}, kSeed,
                                           static_cast<uint32_t>(i),
                                           shape.empty() ? 1 : static_cast<uint64_t>(shape.back()),
                                           problem.input_scale(i), stream);
    });
    widen += time_ms(stream, [&] { kbv::cuda::widen_f32_to_f64(f32, f64, count, stream); });
    checksum += time_ms(stream, [&] {
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
  const float reference = time_ms(stream, [&] {
    kbv::cuda::run_reference_graph_device(problem, input_pointers, output_pointers, context);
  });
  // Compare a poisoned fp32 output (every element unwritten): the cost does not depend on values.
  float poison = 0, compare = 0;
  for (size_t o = 0; o < outputs_f64.size(); ++o) {
    const int64_t count = kbv::numel(problem.output_shapes[o]);
    DeviceBuffer<float> candidate(static_cast<size_t>(count));
    poison += time_ms(stream, [&] { kbv::cuda::poison_on_device(candidate.get(), count, stream); });
    compare += time_ms(stream, [&] {
      (void)kbv::cuda::compare_on_device(candidate.get(), outputs_f64[o].get(), count,
                                         problem.problem.tolerance, stream);
    });
  }
  std::printf("%-24s %8.3g %10.2f %9.2f %9.2f %11.2f %9.2f %9.2f\n", problem.problem.name.c_str(),
              elements, generate, widen, checksum, reference, poison, compare);
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
    std::printf("%-24s %8s %10s %9s %9s %11s %9s %9s\n", "problem", "in elems", "generate",
                "widen", "checksum", "reference", "poison", "compare");
    for (const std::string& name : names) {
      run_problem(kbv::resolve_problem(catalog.get(name), shape_set), stream.get());
    }
  } catch (const std::exception& error) {
    std::fprintf(stderr, "kbv_bench_cuda_data: %s\n", error.what());
    return 1;
  }
  return 0;
}
