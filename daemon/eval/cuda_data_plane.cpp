// eval/cuda_data_plane.cpp — the CUDA device's data plane: one device arena shared with the
// worker through CUDA IPC, inputs generated on the device, the fp64 reference on the device,
// TF32 and FP32 library baselines, comparisons and digests on the device. Nothing large
// crosses to the host.
#include "eval/cuda_data_plane.hpp"

#include "eval/arena_layout.hpp"
#include "eval/phase_clock.hpp"

#include <cuda_runtime_api.h>
#include <openssl/rand.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "common/cuda_error.hpp"
#include "common/device_buffer.hpp"
#include "common/stream.hpp"
#include "data/checksum.hpp"
#include "data/checksum_mix.hpp"
#include "data/device_compare.hpp"
#include "data/device_inputs.hpp"
#include "data/poison.hpp"
#include "data/reference_context.hpp"
#include "data/reference_graph.hpp"
#include "graph/error_scale_graph.hpp"
#include "graph/operand_rounding.hpp"
#include "data/timing_inputs.hpp"
#include "measure/baseline/cuda_baseline.hpp"
#include "measure/baseline/math_mode.hpp"
#include "measure/ceilings/ceilings.hpp"
#include "measure/support/driver_version.hpp"
#include "measure/support/library_versions.hpp"
#include "measure/timing/cold_timer.hpp"
#include "measure/timing/sm_clock.hpp"
#include "inputs/secret_key.hpp"

namespace kbv::eval {
namespace {

// The arena may take at most this share of the free device memory; the rest holds the fp64
// reference scratch, the baselines' outputs and workspaces.
constexpr double kArenaShareOfFreeMemory = 0.45;
// Physical floor margins over calibrated ceilings: a correct candidate may use fp16/bf16
// tensor cores (2x TF32's rate) or fp8 (4x) on some families, and reach ~10 % more bandwidth
// than a device copy; the floor must stay a strict lower bound.
constexpr double kComputeCeilingMargin = 4.0;
constexpr double kBandwidthCeilingMargin = 1.25;
// H200 datasheet leads, used only when `kbv-calibrate` has not stored measured ceilings:
// 4.8 TB/s HBM3e, 495 TFLOP/s dense TF32 (higher than measured: a lower, safe floor).
constexpr double kDatasheetBandwidth = 4.8e12;
constexpr double kDatasheetTf32Flops = 495e12;
// A timed output is rechecked against the TF32 baseline's output on the same inputs: both
// are within the tolerance of the fp64 reference, so they agree within twice it.
constexpr double kRecheckToleranceFactor = 2.0;

std::string to_hex(const void* data, size_t bytes) {
  static const char* digits = "0123456789abcdef";
  std::string hex;
  for (size_t i = 0; i < bytes; ++i) {
    const unsigned char byte = static_cast<const unsigned char*>(data)[i];
    hex += digits[byte >> 4];
    hex += digits[byte & 15];
  }
  return hex;
}


class CudaDataPlane final : public DataPlane {
 public:
  CudaDataPlane(const ResolvedProblem& problem, int gpu)
      : problem_(problem), gpu_(gpu), error_scale_graph_(error_scale_graph(problem)), bf16_operands_(bf16_operand_inputs(problem)) {
    {
      auto step = setup_steps_.measure("cuda_context");  // ~0 when warm_up_cuda_device() ran during the worker's start
      cuda::check(cudaSetDevice(gpu), "cudaSetDevice");
      cuda::check(cudaFree(nullptr), "cudaFree(nullptr) (context creation)");
    }
    {
      auto step = setup_steps_.measure("context_and_reference");
      stream_.emplace();
      reference_.emplace(stream_->get());
    }
    cuda::require_math_mode_available(cuda::MathMode::tf32);
    {
      auto step = setup_steps_.measure("baseline_tf32");
      baseline_tf32_.emplace(problem_, cuda::MathMode::tf32);
    }
    {
      auto step = setup_steps_.measure("baseline_fp32");
      baseline_fp32_.emplace(problem_, cuda::MathMode::fp32);
    }
    // One program in both modes (kbv kernels only: relu, reductions, norms, pooling): checked
    // against the reference once per trial, its result standing for both (check_baseline).
    same_baselines_ = !baseline_tf32_->depends_on_math_mode() && !baseline_fp32_->depends_on_math_mode() &&
                      baseline_tf32_->describe() == baseline_fp32_->describe();
    {
      auto step = setup_steps_.measure("timer_and_clock");
      timer_.emplace(stream_->get());
      clock_.emplace();
    }
    if (RAND_bytes(reinterpret_cast<unsigned char*>(&digest_key_), sizeof digest_key_) != 1) digest_key_ = 0x6b62762d6469676bULL;
    {
      auto step = setup_steps_.measure("trusted_buffers");
      for (const Shape& shape : problem_.output_shapes) {
        tf32_outputs_.emplace_back(static_cast<size_t>(numel(shape)));
        fp32_outputs_.emplace_back(static_cast<size_t>(numel(shape)));
        reference_outputs_.emplace_back(static_cast<size_t>(numel(shape)));
      }
      reference_summaries_.resize(problem_.output_shapes.size());
      summary_generations_.assign(problem_.output_shapes.size(), 0);  // generation 0: no reference yet
      for (const Shape& shape : problem_.input_shapes) reference_inputs_.emplace_back(static_cast<size_t>(numel(shape)));
      // The baselines compute in fp32: an int64 or bool input is widened into its own buffer
      // (ensure_widened), float32 inputs are read in place.
      for (size_t i = 0; i < problem_.input_shapes.size(); ++i)
        widened_inputs_.emplace_back(problem_.input_dtype(i) == DType::float32 ? 0 : static_cast<size_t>(numel(problem_.input_shapes[i])));
    }
    cudaDeviceProp properties{};
    cuda::check(cudaGetDeviceProperties(&properties, gpu), "cudaGetDeviceProperties");
    device_name_ = properties.name;
    driver_ = cuda::driver_version();
    library_versions_ = cuda::library_versions();
    load_ceilings();
  }

  nlohmann::json allocate(int slots) override {
    size_t free_bytes = 0, total_bytes = 0;
    cuda::check(cudaMemGetInfo(&free_bytes, &total_bytes), "cudaMemGetInfo");
    // At least one correctness slot and one timing slot; fewer timing slots when memory is short.
    const double budget = static_cast<double>(free_bytes) * kArenaShareOfFreeMemory;
    ArenaLayout layout = layout_arena(problem_, std::max(2, slots));
    while (layout.slots.size() > 2 && static_cast<double>(layout.bytes) > budget)
      layout = layout_arena(problem_, static_cast<int>(layout.slots.size()) - 1);
    places_ = std::move(layout.slots);
    {
      auto step = setup_steps_.measure("arena");
      arena_ = cuda::DeviceBuffer<unsigned char>(layout.bytes);
    }
    cudaIpcMemHandle_t handle{};
    cuda::check(cudaIpcGetMemHandle(&handle, arena_.get()), "cudaIpcGetMemHandle");
    return {{"arena_bytes", arena_.bytes()}, {"slots", std::move(layout.slots_json)}, {"cuda_ipc_handle", to_hex(&handle, sizeof handle)}};
  }

  int arena_fd() const override { return -1; }

  void scrub_arena() override {
    cuda::check(cudaMemsetAsync(arena_.get(), 0, arena_.bytes(), stream_->get()), "cudaMemsetAsync (scrub the arena)");
    stream_->synchronize();
    reference_slot_ = reference_inputs_slot_ = tf32_slot_ = tf32_sums_slot_ = widened_slot_ = error_scale_slot_ = kept_slot_ = -1;
    generated_digest_.reset();
  }
  int slot_count() const override { return static_cast<int>(places_.size()); }

  void prepare(int slot, const inputs::FamilyDraw& draw, uint64_t seed) override {
    const SlotPlaces& place = places_.at(static_cast<size_t>(slot));
    // Widened for the reference now, in the same pass, before any call: the fp64 reference is
    // made from what was generated, whatever GPU work the candidate may leave running later (a
    // stopped worker's kernels run on).
    forget_inputs_of(slot);
    for (size_t i = 0; i < place.inputs.size(); ++i) generate_exact(place.inputs[i], i, draw, seed, reference_inputs_[i].get());
    reference_inputs_slot_ = slot;
    stream_->synchronize();  // the generation's time belongs to this step (per-phase wall report)
    reference_slot_ = -1;  // the reference is computed on first need, from these inputs
    tf32_slot_ = -1;
    tf32_sums_slot_ = -1;
    widened_slot_ = -1;
  }

  // Fresh timing inputs, and their digest from the same pass (data/timing_inputs.hpp): the
  // evaluator's digest before the next call is that one, without reading the inputs again. An
  // int64 or bool input takes the exact draw with the sample's seed (integer arithmetic, as cheap
  // as the timing draw) and its digest from one pass over what was written.
  void prepare_timing(int slot, const inputs::FamilyDraw& draw, uint64_t seed) override {
    const SlotPlaces& place = places_.at(static_cast<size_t>(slot));
    auto sums = cuda::DeviceBuffer<unsigned long long>::on_stream(std::max<size_t>(1, place.inputs.size()), stream_->get());
    cuda::check(cudaMemsetAsync(sums.get(), 0, sums.size() * sizeof(unsigned long long), stream_->get()), "cudaMemsetAsync");
    for (size_t i = 0; i < place.inputs.size(); ++i) {
      if (place.inputs[i].dtype != DType::float32) {
        generate_exact(place.inputs[i], i, draw, seed);
        continue;
      }
      cuda::generate_timing_inputs_on_device(at(place.inputs[i]), place.inputs[i].count, draw.family, draw.params, seed,
                                             static_cast<uint32_t>(i), axes(i), problem_.input_scale(i), digest_key_,
                                             sums.get() + i, stream_->get(), problem_.problem.inputs[i].domain);
    }
    std::vector<unsigned long long> host_sums(sums.size());
    cuda::check(cudaMemcpyAsync(host_sums.data(), sums.get(), host_sums.size() * sizeof(unsigned long long), cudaMemcpyDeviceToHost, stream_->get()),
                "cudaMemcpyAsync (timing input checksums)");
    stream_->synchronize();
    std::string text;
    for (size_t i = 0; i < place.inputs.size(); ++i) {
      const TensorPlace& input = place.inputs[i];
      const uint64_t checksum = input.dtype == DType::float32 ? cuda::checksum_detail::finish(host_sums[i], input.bytes(), digest_key_)
                                                               : cuda::checksum_on_device(at_bytes(input), input.bytes(), stream_->get(), digest_key_);
      text += std::to_string(checksum) + ",";
    }
    forget_inputs_of(slot);
    generated_digest_.emplace(slot, std::move(text));
  }

  void poison_outputs(int slot) override {
    for (const TensorPlace& output : places_.at(static_cast<size_t>(slot)).outputs) cuda::poison_on_device(at(output), output.count, stream_->get());
    stream_->synchronize();
  }

  // The digest prepare_timing() computed is used once, for the first digest of that slot after
  // it (the one before the call); every later one reads the inputs again.
  std::string input_digest(int slot) override {
    if (generated_digest_ && generated_digest_->first == slot) {
      std::string text = std::move(generated_digest_->second);
      generated_digest_.reset();
      return text;
    }
    return digest(places_.at(static_cast<size_t>(slot)).inputs);
  }
  std::string output_digest(int slot) override { return digest(places_.at(static_cast<size_t>(slot)).outputs); }

  // The kept copy lives in the FP32 baseline's output buffers: private to this process, of the
  // outputs' sizes, and rewritten by every FP32 baseline run before it is read (check_baseline,
  // time_baselines; neither runs it when it is the TF32 one's program, and then nothing but the
  // kept copy is read from them), so the determinism check costs no device memory of its own.
  void keep_outputs(int slot) override {
    const SlotPlaces& place = places_.at(static_cast<size_t>(slot));
    for (size_t o = 0; o < place.outputs.size(); ++o)
      cuda::check(cudaMemcpyAsync(fp32_outputs_[o].get(), at(place.outputs[o]), fp32_outputs_[o].bytes(), cudaMemcpyDeviceToDevice, stream_->get()),
                  "cudaMemcpyAsync (keep the candidate's outputs)");
    stream_->synchronize();
    kept_slot_ = slot;
  }

  CompareResult compare_with_kept_outputs(int slot) override {
    if (kept_slot_ != slot) throw std::logic_error("compare_with_kept_outputs without keep_outputs on that slot");
    kept_slot_ = -1;
    const SlotPlaces& place = places_.at(static_cast<size_t>(slot));
    std::vector<CompareResult> parts;
    for (size_t o = 0; o < place.outputs.size(); ++o)
      parts.push_back(to_result(compare_fp32(at(place.outputs[o]), fp32_outputs_[o].get(), o, problem_.problem.tolerance)));
    return merge_results(parts);
  }

  CompareResult check_outputs(int slot) override {
    ensure_reference(slot);
    const SlotPlaces& place = places_.at(static_cast<size_t>(slot));
    std::vector<CompareResult> parts;
    for (size_t o = 0; o < place.outputs.size(); ++o) parts.push_back(to_result(judge_against_reference(at(place.outputs[o]), o, slot)));
    return merge_results(parts);
  }

  // The rounded reference is computed in the reference's own buffers (the widened inputs rounded
  // in place), so the precision check needs no memory beyond the footprint; the reference is
  // recomputed at its next use.
  std::optional<OperandRoundingDistances> bf16_operand_distances(int slot) override {
    if (!bf16_operands_) return std::nullopt;
    ensure_reference(slot);
    const SlotPlaces& place = places_.at(static_cast<size_t>(slot));
    OperandRoundingDistances distances;
    for (size_t o = 0; o < place.outputs.size(); ++o) distances.to_reference_sq += compare_with_reference(at(place.outputs[o]), o).sum_sq_error;
    reference_slot_ = reference_inputs_slot_ = -1;  // from here on the buffers hold the rounded operands and their reference…
    ++reference_generation_;                         // …which no summary is of
    std::vector<const double*> inputs;
    for (size_t i = 0; i < reference_inputs_.size(); ++i) {
      if ((*bf16_operands_)[i]) cuda::round_to_bf16_in_place(reference_inputs_[i].get(), place.inputs[i].count, stream_->get());
      inputs.push_back(reference_inputs_[i].get());
    }
    cuda::run_reference_graph_device(problem_, inputs, pointers(reference_outputs_), *reference_);
    for (size_t o = 0; o < place.outputs.size(); ++o)
      distances.to_rounded_sq += cuda::compare_on_device(at(place.outputs[o]), reference_outputs_[o].get(), place.outputs[o].count,
                                                         row_length(o), problem_.problem.tolerance, stream_->get())
                                     .sum_sq_error;
    return distances;
  }

  CompareResult check_baseline(int slot) override {
    ensure_reference(slot);
    const auto inputs = baseline_inputs(slot);
    std::vector<CompareResult> parts;
    baseline_tf32_->run(inputs, pointers(tf32_outputs_), stream_->get());
    tf32_output_sums_.clear();
    for (size_t o = 0; o < tf32_outputs_.size(); ++o) {
      const cuda::DeviceComparison figures = judge_against_reference(tf32_outputs_[o].get(), o, slot);
      tf32_output_sums_.push_back(figures.output_sum);
      parts.push_back(to_result(figures));
    }
    tf32_sums_slot_ = slot;
    if (same_baselines_) {
      const std::vector<CompareResult> tf32_parts = parts;  // the FP32 baseline is this program
      parts.insert(parts.end(), tf32_parts.begin(), tf32_parts.end());
      return merge_results(parts);
    }
    baseline_fp32_->run(inputs, pointers(fp32_outputs_), stream_->get());
    for (size_t o = 0; o < fp32_outputs_.size(); ++o) parts.push_back(to_result(judge_against_reference(fp32_outputs_[o].get(), o, slot)));
    return merge_results(parts);
  }

  // Zeros, a copy of each input (repeated until the output is full: the host's rule) and the
  // reference's mean, judged in one pass over each output's reference without being written
  // (data/device_compare.hpp). The mean is the TF32 baseline's, which check_baseline() summed
  // on these inputs: within the tolerance of the reference's.
  std::vector<std::string> trivial_outputs_that_pass(int slot) override {
    ensure_reference(slot);
    if (tf32_sums_slot_ != slot) (void)check_baseline(slot);
    const SlotPlaces& place = places_.at(static_cast<size_t>(slot));
    const std::vector<const float*> inputs = baseline_inputs(slot);  // an int64 or bool input's values, widened
    constexpr size_t kZeros = 0, kMean = 1, kFirstInput = 2;  // the order of TrivialOutputs' verdicts
    std::vector<std::string> names{"zeros", "constant reference mean"};
    for (const auto& input : problem_.problem.inputs) names.push_back("copy of input " + input.name);
    std::vector<bool> passes_everywhere(names.size(), true);  // on every output
    for (size_t o = 0; o < reference_outputs_.size(); ++o) {
      const auto count = static_cast<int64_t>(reference_outputs_[o].size());
      cuda::TrivialOutputs trivial;
      trivial.constants = {0.0f, static_cast<float>(tf32_output_sums_.at(o) / static_cast<double>(count))};
      for (size_t i = 0; i < place.inputs.size(); ++i) trivial.repeated_inputs.emplace_back(inputs[i], place.inputs[i].count);
      const std::vector<bool> passed = cuda::trivial_outputs_pass_on_device(reference_outputs_[o].get(), summary_of(o), count,
                                                                            row_length(o), trivial, problem_.problem.tolerance,
                                                                            stream_->get());
      for (size_t k = 0; k < passed.size(); ++k) passes_everywhere[k] = passes_everywhere[k] && passed[k];
    }
    std::vector<size_t> report_order{kZeros};  // as the host reports them: zeros, copies, mean
    for (size_t k = kFirstInput; k < names.size(); ++k) report_order.push_back(k);
    if (!every_output_is_one_element(problem_)) report_order.push_back(kMean);  // a loss's mean is the loss
    std::vector<std::string> passing;
    for (size_t k : report_order)
      if (passes_everywhere[k]) passing.push_back(names[k]);
    return passing;
  }

  std::vector<std::pair<std::string, double>> time_baselines(int slot) override {
    const auto inputs = baseline_inputs(slot);  // widened before the samples, outside the timed window
    const auto tf32_out = pointers(tf32_outputs_);
    const double tf32 = timer_->cold_sample([&](cudaStream_t stream, uint64_t) { baseline_tf32_->run(inputs, tf32_out, stream); }, ++sample_);
    tf32_slot_ = slot;
    // One program in both modes (same_baselines_): timed once, its sample standing for both, as
    // its check does. Both ran while the stop rule wanted 0.5 s of measured GPU time, which a
    // second run brought sooner; the evaluator's rule counts samples now (timing/stop_rule.cpp),
    // so the second run was a relu's 4.3 ms per sample for nothing (H100, r73: 0.34 s of its
    // 2.6 s evaluation went to the baselines). Only "tf32" is returned: the sample's measured
    // GPU time counts the run once, and the evaluator reports it for both modes.
    if (same_baselines_) return {{"tf32", tf32}};
    const auto fp32_out = pointers(fp32_outputs_);
    const double fp32 = timer_->cold_sample([&](cudaStream_t stream, uint64_t) { baseline_fp32_->run(inputs, fp32_out, stream); }, ++sample_);
    return {{"tf32", tf32}, {"fp32", fp32}};
  }

  CompareResult recheck_timed(int slot) override {
    if (tf32_slot_ != slot) {  // the baselines ran on another slot: refresh the TF32 output
      baseline_tf32_->run(baseline_inputs(slot), pointers(tf32_outputs_), stream_->get());
      tf32_slot_ = slot;
    }
    Tolerance doubled = problem_.problem.tolerance;
    doubled.atol *= kRecheckToleranceFactor;
    doubled.rtol *= kRecheckToleranceFactor;
    doubled.rel_l2 *= kRecheckToleranceFactor;
    const SlotPlaces& place = places_.at(static_cast<size_t>(slot));
    std::vector<CompareResult> parts;
    for (size_t o = 0; o < place.outputs.size(); ++o) {
      const auto judge = [&](const double* error_scale) {
        return cuda::to_compare_result(compare_fp32(at(place.outputs[o]), tf32_outputs_[o].get(), o, doubled, error_scale), doubled);
      };
      CompareResult part = judge(nullptr);
      // Two honest TF32 products differ by the products' rounding, not the output's: where the
      // default rule fails, judged again by the error scale of these timing inputs (computed from
      // their fp64 reference: a cost paid only here).
      if (!part.passed)
        if (const double* scale = error_scale_of(o, slot)) part = judge(scale);
      parts.push_back(part);
    }
    return merge_results(parts);
  }

  void read_input(int slot, size_t index, const std::function<void(std::span<const unsigned char>)>& sink) override {
    const TensorPlace& input = places_.at(static_cast<size_t>(slot)).inputs.at(index);
    // Chunks of whole elements: the chunk size is a multiple of every element size.
    copy_to_host_in_chunks(static_cast<const unsigned char*>(at_bytes(input)), input.bytes(), sink);
  }

  void read_reference(int slot, size_t index, const std::function<void(std::span<const double>)>& sink) override {
    ensure_reference(slot);
    const cuda::DeviceBuffer<double>& reference = reference_outputs_.at(index);
    copy_to_host_in_chunks(static_cast<const double*>(reference.get()), reference.size(), sink);
  }

  // Device to host through one bounded host buffer (`kbv export`: a default-shape tensor can be
  // several GB), in order, on the plane's stream: after the work queued on it (prepare()).
  static constexpr size_t kReadbackChunkBytes = size_t{256} << 20;
  template <class T>
  void copy_to_host_in_chunks(const T* device, size_t count, const std::function<void(std::span<const T>)>& sink) {
    std::vector<T> chunk(std::min(count, kReadbackChunkBytes / sizeof(T)));
    for (size_t done = 0; done < count; done += chunk.size()) {
      const size_t now = std::min(chunk.size(), count - done);
      cuda::check(cudaMemcpyAsync(chunk.data(), device + done, now * sizeof(T), cudaMemcpyDeviceToHost, stream_->get()), "cudaMemcpyAsync");
      stream_->synchronize();
      sink(std::span<const T>(chunk.data(), now));
    }
  }

  double physical_floor_s(const ResolvedProblem& problem) const override {
    return std::max(problem.flops / (tf32_flops_ * kComputeCeilingMargin), problem.compulsory_bytes / (bandwidth_ * kBandwidthCeilingMargin));
  }

  double clock_ratio() override {
    const double now = clock_->sample_mhz(stream_->get());
    return now > 0 && clock_->default_mhz() > 0 ? now / clock_->default_mhz() : 1.0;
  }

  DeviceMemory device_memory() override {
    size_t free_bytes = 0, total_bytes = 0;
    cuda::check(cudaMemGetInfo(&free_bytes, &total_bytes), "cudaMemGetInfo");
    return {static_cast<double>(total_bytes - free_bytes), static_cast<double>(total_bytes)};
  }

  double baseline_extra_bytes(const std::string& math_mode) const override {
    return static_cast<double>((math_mode == "fp32" ? baseline_fp32_ : baseline_tf32_)->workspace_bytes());
  }

  nlohmann::json environment() const override {
    int driver = 0, runtime = 0;
    cudaDriverGetVersion(&driver);
    cudaRuntimeGetVersion(&runtime);
    return {{"device", "cuda"},
            {"gpu", gpu_},
            {"device_name", device_name_},
            {"driver", driver_},
            {"cuda_driver_api", driver},
            {"cuda_runtime", runtime},
            {"library_versions", library_versions_},
            {"math_mode", "candidate: as built; baselines: tf32 (TF32 tensor-op math) and fp32 (strict)"},
            {"baseline_tf32", baseline_tf32_->describe()},
            {"baseline_fp32", baseline_fp32_->describe()},
            {"baselines_one_program", same_baselines_},  // checked once per trial and timed once per sample, for both modes
            {"sm_clock_source", clock_->source()},
            {"sm_default_clock_mhz", clock_->default_mhz()},
            {"ceilings", ceilings_source_},
            {"baseline_launch_gate", timer_ ? timer_->launch_gate_state() : std::string("not started")},
            {"timing_slots", slot_count() - 1},
            {"setup_s_by_step", setup_steps_.to_json()}};
  }

 private:
  // The geometry of input i, for the families with structure along its axes.
  inputs::TensorAxes axes(size_t input) const {
    const Shape& shape = problem_.input_shapes[input];
    return inputs::axes_of_shape(shape.data(), shape.size());
  }

  float* at(const TensorPlace& place) const { return reinterpret_cast<float*>(at_bytes(place)); }
  void* at_bytes(const TensorPlace& place) const { return arena_.get() + place.offset; }

  // The bit-exact draw of input i (data/device_inputs.hpp), of its own dtype; `wide`, when given,
  // its fp64 widening too.
  void generate_exact(const TensorPlace& input, size_t i, const inputs::FamilyDraw& draw, uint64_t seed, double* wide = nullptr) {
    cuda::generate_typed_inputs_on_device(at_bytes(input), input.dtype, input.count, draw.family, draw.params, seed, static_cast<uint32_t>(i),
                                          axes(i), problem_.input_scale(i), problem_.input_ranges[i], stream_->get(),
                                          problem_.problem.inputs[i].domain, wide);
  }

  // The slot's inputs as the fp32 baselines read them: float32 inputs in place, int64 and bool
  // inputs widened (exact) into widened_inputs_ once per slot contents.
  std::vector<const float*> baseline_inputs(int slot) {
    const SlotPlaces& place = places_.at(static_cast<size_t>(slot));
    const bool stale = widened_slot_ != slot;
    std::vector<const float*> result;
    for (size_t i = 0; i < place.inputs.size(); ++i) {
      const TensorPlace& input = place.inputs[i];
      if (input.dtype == DType::float32) {
        result.push_back(at(input));
        continue;
      }
      if (stale) cuda::widen_to_f32(at_bytes(input), input.dtype, widened_inputs_[i].get(), input.count, stream_->get());
      result.push_back(widened_inputs_[i].get());
    }
    widened_slot_ = slot;
    return result;
  }
  template <class T>
  static std::vector<T*> pointers(std::vector<cuda::DeviceBuffer<T>>& buffers) {
    std::vector<T*> result;
    for (auto& buffer : buffers) result.push_back(buffer.get());
    return result;
  }

  // Over each tensor's real bytes (an int64 input's 8 per element, a bool's 1).
  std::string digest(const std::vector<TensorPlace>& places) {
    std::string text;
    for (const TensorPlace& place : places)
      text += std::to_string(cuda::checksum_on_device(at_bytes(place), place.bytes(), stream_->get(), digest_key_)) + ",";
    return text;
  }

  // An fp32 output of the shape of output `o` against another fp32 one (the TF32 baseline's for a
  // timed output's recheck, the candidate's own for the determinism check): one read where it
  // proves the pass under `tolerance`'s default rule (relu's recheck: 12.8 GB read instead of
  // 19.2), else the two-pass comparison, whose verdict the one read's is.
  cuda::DeviceComparison compare_fp32(const float* output, const float* other, size_t o, const Tolerance& tolerance,
                                      const double* error_scale = nullptr) {
    const auto count = static_cast<int64_t>(fp32_outputs_[o].size());
    if (error_scale == nullptr)
      if (std::optional<cuda::DeviceComparison> quick = cuda::pass_in_one_read(output, other, count, tolerance, stream_->get()))
        return *quick;
    return cuda::compare_on_device(output, other, count, row_length(o), tolerance, stream_->get(), error_scale);
  }
  // Output `o`'s reference summary, computed on first need after each reference: a candidate's
  // trial that one read proves a pass (compare_with_reference) never needs it.
  const cuda::ReferenceSummary& summary_of(size_t o) {
    if (summary_generations_.at(o) != reference_generation_) {
      reference_summaries_[o].compute(reference_outputs_[o].get(), static_cast<int64_t>(reference_outputs_[o].size()), row_length(o),
                                      problem_.problem.tolerance.atol, stream_->get());
      summary_generations_[o] = reference_generation_;
    }
    return reference_summaries_[o];
  }
  // An fp32 output of the shape of output `o` against its fp64 reference. An honest output is
  // proved within the default rule by one read of it and the reference (cuda::pass_in_one_read:
  // relu at its default size reads 19 GB instead of 32 with the summary); any other, and a
  // comparison by the error scale, gets the two-pass comparison (its first pass over the
  // reference shared by every comparison against it: summary_of), whose verdict the one read's is.
  cuda::DeviceComparison compare_with_reference(const float* output, size_t o, const double* error_scale = nullptr) {
    const auto count = static_cast<int64_t>(reference_outputs_[o].size());
    if (error_scale == nullptr)
      if (std::optional<cuda::DeviceComparison> quick =
              cuda::pass_in_one_read(output, reference_outputs_[o].get(), count, problem_.problem.tolerance, stream_->get()))
        return *quick;
    return cuda::compare_on_device(output, reference_outputs_[o].get(), summary_of(o), count, row_length(o), problem_.problem.tolerance,
                                   stream_->get(), error_scale);
  }
  // The same, judged again by the products' error scale where the default rule fails and the
  // output has one (verify/compare.hpp): an output fails only if it fails both rules, and the scale
  // (one more fp64 graph) is computed only where the default one fails; the timed recheck does the
  // same (recheck_timed). Trivial outputs and the
  // determinism check keep the default rule: a family where a trivial output passes only by the
  // error scale still gates (stricter), and two runs of one candidate share their rounding.
  cuda::DeviceComparison judge_against_reference(const float* output, size_t o, int slot) {
    const cuda::DeviceComparison figures = compare_with_reference(output, o);
    if (to_result(figures).passed) return figures;
    const double* scale = error_scale_of(o, slot);
    return scale == nullptr ? figures : compare_with_reference(output, o, scale);
  }
  // Output `o`'s rows for the comparison's local RMS (verify/compare.hpp).
  int64_t row_length(size_t o) const { return local_rms_row_length(problem_.output_shapes.at(o)); }
  CompareResult to_result(const cuda::DeviceComparison& figures) const { return cuda::to_compare_result(figures, problem_.problem.tolerance); }

  // The slot's inputs widened into reference_inputs_ (exact), from the arena as it is now.
  void widen_reference_inputs(int slot) {
    const SlotPlaces& place = places_.at(static_cast<size_t>(slot));
    for (size_t i = 0; i < place.inputs.size(); ++i)
      cuda::widen_to_f64(at_bytes(place.inputs[i]), place.inputs[i].dtype, reference_inputs_[i].get(), place.inputs[i].count, stream_->get());
    reference_inputs_slot_ = slot;
  }

  // What was computed from a slot's inputs is stale once they are rewritten: that slot's, and that
  // of every slot sharing an input buffer with it (the timing slots' parameters, arena_layout.hpp).
  void forget_inputs_of(int slot) {
    const auto stale = [&](int cached) {
      return cached >= 0 && (cached == slot || share_an_input(places_.at(static_cast<size_t>(cached)), places_.at(static_cast<size_t>(slot))));
    };
    for (int* cached : {&reference_inputs_slot_, &reference_slot_, &tf32_slot_, &tf32_sums_slot_, &widened_slot_, &error_scale_slot_})
      if (stale(*cached)) *cached = -1;
    if (generated_digest_ && stale(generated_digest_->first)) generated_digest_.reset();
  }

  // The fp64 reference of the slot's current inputs: the correctness slot's widened when they
  // were generated (prepare), a timing slot's from the arena on first need (input digests around
  // every call prove those bytes unchanged through the call).
  void ensure_reference(int slot) {
    if (reference_slot_ == slot) return;
    if (reference_inputs_slot_ != slot) widen_reference_inputs(slot);
    std::vector<const double*> wide_inputs;
    for (const auto& input : reference_inputs_) wide_inputs.push_back(input.get());
    std::vector<double*> wide_outputs;
    for (auto& output : reference_outputs_) wide_outputs.push_back(output.get());
    cuda::run_reference_graph_device(problem_, wide_inputs, wide_outputs, *reference_);
    error_scale_slot_ = -1;  // of the previous inputs
    ++reference_generation_;  // every summary is of the previous reference (summary_of)
    stream_->synchronize();
    reference_slot_ = slot;
  }

  // Output `o`'s error scale for the slot's current inputs (device), or null when it has none.
  // The error-scale graph runs on first need (from the reference's widened inputs) and its outputs
  // are kept until the reference is recomputed.
  const double* error_scale_of(size_t o, int slot) {
    const int index = error_scale_graph_ ? error_scale_graph_->scale_of_output.at(o) : -1;
    if (index < 0) return nullptr;
    ensure_reference(slot);
    if (error_scale_slot_ != slot) compute_error_scales();
    error_scale_slot_ = slot;
    return error_scales_.at(static_cast<size_t>(index)).get();
  }
  void compute_error_scales() {
    if (error_scales_.empty())
      for (const Shape& shape : error_scale_graph_->problem.output_shapes) error_scales_.emplace_back(static_cast<size_t>(numel(shape)));
    std::vector<const double*> inputs;
    for (const auto& input : reference_inputs_) inputs.push_back(input.get());
    std::vector<double*> outputs;
    for (auto& scale : error_scales_) outputs.push_back(scale.get());
    cuda::run_reference_graph_device(error_scale_graph_->problem, inputs, outputs, *reference_);
  }

  void load_ceilings() {
    tf32_flops_ = kDatasheetTf32Flops;
    bandwidth_ = kDatasheetBandwidth;
    ceilings_source_ = "datasheet leads (run kbv calibrate to measure)";
    const std::filesystem::path path = inputs::default_ceilings_path();
    std::error_code missing;
    // An empty $KBV_CEILINGS is unset (default_ceilings_path() reads it so): the default path, if there.
    const char* named = std::getenv("KBV_CEILINGS");
    if ((named != nullptr && *named != '\0') || std::filesystem::exists(path, missing)) {
      const cuda::Ceilings measured = cuda::load_ceilings(path);
      if (measured.device_name != device_name_)
        throw std::runtime_error(path.string() + " holds the ceilings of a " + measured.device_name + ", not of this " + device_name_ +
                                 " (fix: run kbv calibrate on this machine, or point KBV_CEILINGS at this GPU's file)");
      if (measured.tf32_flops_per_s > 0) tf32_flops_ = measured.tf32_flops_per_s;
      if (measured.copy_bytes_per_s > 0) bandwidth_ = measured.copy_bytes_per_s;
      ceilings_source_ = "measured: " + path.string() + " (" + measured.measured_at + ")";
    }
  }

  const ResolvedProblem& problem_;
  int gpu_;
  std::optional<cuda::Stream> stream_;
  std::optional<cuda::ReferenceContext> reference_;
  std::optional<cuda::CudaBaseline> baseline_tf32_, baseline_fp32_;
  bool same_baselines_ = false;  // no step depends on the math mode: one program, checked once
  std::optional<cuda::ColdTimer> timer_;
  std::optional<cuda::SmClock> clock_;
  cuda::DeviceBuffer<unsigned char> arena_;
  std::vector<SlotPlaces> places_;
  std::vector<cuda::DeviceBuffer<float>> tf32_outputs_, fp32_outputs_;
  int kept_slot_ = -1;  // keep_outputs() copied this slot's outputs into fp32_outputs_
  std::vector<cuda::DeviceBuffer<double>> reference_inputs_, reference_outputs_;
  std::vector<cuda::DeviceBuffer<float>> widened_inputs_;  // per input: an int64 or bool input as float (empty for float32)
  int widened_slot_ = -1;                                   // whose inputs widened_inputs_ hold
  std::vector<cuda::ReferenceSummary> reference_summaries_;  // of reference_outputs_, for the problem's atol…
  std::vector<uint64_t> summary_generations_;                // …each of this reference (summary_of)
  uint64_t reference_generation_ = 0;                        // reference computations so far (ensure_reference)
  int reference_slot_ = -1;
  int reference_inputs_slot_ = -1;  // whose inputs reference_inputs_ hold, widened (not rounded)
  std::optional<ErrorScaleGraph> error_scale_graph_;    // nullopt: no output has an error scale
  std::optional<std::vector<bool>> bf16_operands_;      // per input, rounded by the precision check; nullopt: no check
  std::vector<cuda::DeviceBuffer<double>> error_scales_;  // its outputs, allocated on first need…
  int error_scale_slot_ = -1;                             // …for this slot's current reference
  int tf32_slot_ = -1;
  std::vector<double> tf32_output_sums_;  // Σ of each TF32 baseline output, from check_baseline() on…
  int tf32_sums_slot_ = -1;               // …this slot's current inputs
  uint64_t digest_key_ = 0;
  // Where the data plane's setup went (environment.setup_s_by_step): conv2d's took ~1 s on the
  // H200, in parts nobody had measured.
  PhaseClock setup_steps_;
  std::optional<std::pair<int, std::string>> generated_digest_;  // slot, digest of its fresh timing inputs
  uint64_t sample_ = 0;
  std::string device_name_;
  std::string driver_;  // as PyTorch calibrations record it (measure/support/driver_version.hpp)
  std::string library_versions_;  // likewise (measure/support/library_versions.hpp)
  double tf32_flops_ = 0, bandwidth_ = 0;
  std::string ceilings_source_;
};

}  // namespace

void warm_up_cuda_device(int gpu) noexcept {
  if (cudaSetDevice(gpu) == cudaSuccess) (void)cudaFree(nullptr);  // cudaFree(nullptr): the context, nothing else
}

std::optional<double> cuda_free_bytes(int gpu) noexcept {
  size_t free_bytes = 0, total_bytes = 0;
  if (cudaSetDevice(gpu) != cudaSuccess || cudaMemGetInfo(&free_bytes, &total_bytes) != cudaSuccess) return std::nullopt;
  return static_cast<double>(free_bytes);
}

std::unique_ptr<DataPlane> make_cuda_data_plane(const ResolvedProblem& problem, int gpu) {
  return std::make_unique<CudaDataPlane>(problem, gpu);
}

}  // namespace kbv::eval
