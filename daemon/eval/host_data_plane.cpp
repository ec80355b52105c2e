// eval/host_data_plane.cpp — host arena (memfd), input generation, reference and checks.
#include "eval/host_data_plane.hpp"

#include "eval/arena_layout.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <numeric>
#include <optional>
#include <stdexcept>
#include <string>
#include <system_error>
#include <thread>

#include "graph/error_scale_graph.hpp"
#include "graph/operand_rounding.hpp"
#include "graph/run_graph.hpp"
#include "inputs/generate.hpp"
#include "tensor/widen.hpp"
#include "verify/checksum.hpp"

namespace kbv::eval {

namespace {

// Upper bounds on a host's rates, for the host physical floor: no 2-core host reaches
// 1 TFLOP/s fp32 or 1 TB/s of memory bandwidth, so a time below this floor is impossible.
constexpr double kHostCeilingFlopsPerSecond = 1e12;
constexpr double kHostCeilingBytesPerSecond = 1e12;

struct Slot : SlotPlaces {
  // Private copy of what the worker was given, as the fp32 baseline reads it: an int64 or bool
  // input widened to float (exact, tensor/dtype.hpp).
  std::vector<HostTensor<float>> pristine;
  std::vector<HostTensor<double>> wide;       // `pristine` in fp64, the reference's inputs
  std::vector<HostTensor<double>> reference;  // fp64 reference of `pristine`
  std::vector<HostTensor<double>> error_scale;  // of the error-scale graph's outputs, on first need
  // Another slot's preparation rewrote an input buffer this one shares (the timing slots'
  // parameters, arena_layout.hpp): nothing above is of what the arena holds until it is prepared again.
  bool overwritten = false;
};

class HostDataPlane final : public DataPlane {
 public:
  explicit HostDataPlane(const ResolvedProblem& problem)
      : problem_(problem), error_scale_graph_(error_scale_graph(problem)), bf16_operands_(bf16_operand_inputs(problem)) {}
  ~HostDataPlane() override {
    if (base_ != MAP_FAILED) ::munmap(base_, bytes_);
    if (fd_ >= 0) ::close(fd_);
  }

  nlohmann::json allocate(int slots) override {
    ArenaLayout layout = layout_arena(problem_, slots);
    for (SlotPlaces& places : layout.slots) {
      Slot& slot = slots_.emplace_back();
      static_cast<SlotPlaces&>(slot) = std::move(places);
    }
    bytes_ = layout.bytes;
    fd_ = ::memfd_create("kbv-arena", MFD_CLOEXEC | MFD_ALLOW_SEALING);
    if (fd_ < 0 || ::ftruncate(fd_, static_cast<off_t>(bytes_)) != 0)
      throw std::system_error(errno, std::generic_category(), "cannot create the shared arena");
    // Sealed size: a worker that truncates the arena would make the evaluator fault (SIGBUS).
    if (::fcntl(fd_, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL) != 0)
      throw std::system_error(errno, std::generic_category(), "cannot seal the shared arena");
    base_ = ::mmap(nullptr, bytes_, PROT_READ | PROT_WRITE, MAP_SHARED, fd_, 0);
    if (base_ == MAP_FAILED) throw std::system_error(errno, std::generic_category(), "cannot map the shared arena");
    return {{"arena_bytes", bytes_}, {"slots", std::move(layout.slots_json)}};
  }

  int arena_fd() const override { return fd_; }

  void scrub_arena() override {
    std::memset(base_, 0, bytes_);
    for (Slot& slot : slots_) {
      slot.pristine.clear();
      slot.wide.clear();
      slot.reference.clear();
      slot.error_scale.clear();
    }
    kept_outputs_.clear();
  }

  // Each input is generated in its own dtype, copied into the arena as the candidate's bytes and
  // widened here, the host's one conversion point, to float (baseline, trivial outputs) and
  // double (reference).
  void prepare(int slot_index, const inputs::FamilyDraw& draw, uint64_t seed) override {
    Slot& slot = slots_.at(static_cast<size_t>(slot_index));
    slot.pristine.clear();
    slot.wide.clear();
    slot.error_scale.clear();
    std::vector<const double*> reference_inputs;
    std::vector<unsigned char> bytes;
    for (size_t i = 0; i < problem_.input_shapes.size(); ++i) {
      const Shape& shape = problem_.input_shapes[i];
      const TensorPlace& place = slot.inputs[i];
      bytes.resize(place.bytes());
      inputs::generate_host_typed(bytes.data(), place.dtype, place.count, draw.family, draw.params, seed, static_cast<uint32_t>(i),
                                  inputs::axes_of_shape(shape.data(), shape.size()), problem_.input_scale(i), problem_.input_ranges[i],
                                  problem_.problem.inputs[i].domain);
      std::memcpy(at_bytes(place), bytes.data(), bytes.size());
      HostTensor<float>& tensor = slot.pristine.emplace_back(shape);
      widen_elements(bytes.data(), place.dtype, place.count, tensor.data.data());
      HostTensor<double>& wide = slot.wide.emplace_back(shape);
      widen_elements(bytes.data(), place.dtype, place.count, wide.data.data());
      reference_inputs.push_back(wide.data.data());
    }
    slot.reference = run_reference_f64(problem_, reference_inputs);
    slot.overwritten = false;
    for (Slot& other : slots_) {
      if (&other == &slot || !share_an_input(other, slot)) continue;
      other.pristine.clear();
      other.wide.clear();
      other.reference.clear();
      other.error_scale.clear();
      other.overwritten = true;
    }
  }

  void poison_outputs(int slot_index) override {
    for (const auto& place : slots_.at(static_cast<size_t>(slot_index)).outputs) poison(at(place), place.count);
  }

  std::string input_digest(int slot_index) override {
    std::string digest;
    for (const auto& place : slots_.at(static_cast<size_t>(slot_index)).inputs) digest += sha256_hex(at_bytes(place), place.bytes());
    return digest;
  }

  std::string output_digest(int slot_index) override {
    std::string digest;
    for (const auto& place : slots_.at(static_cast<size_t>(slot_index)).outputs)
      digest += sha256_hex(at(place), static_cast<size_t>(place.count) * sizeof(float));
    return digest;
  }

  void keep_outputs(int slot_index) override {
    kept_outputs_.clear();
    for (const auto& place : slots_.at(static_cast<size_t>(slot_index)).outputs) {
      const float* output = at(place);
      kept_outputs_.emplace_back(output, output + place.count);  // widened exactly, as a reference
    }
  }

  CompareResult compare_with_kept_outputs(int slot_index) override {
    const Slot& slot = slots_.at(static_cast<size_t>(slot_index));
    if (kept_outputs_.size() != slot.outputs.size()) throw std::logic_error("compare_with_kept_outputs without keep_outputs");
    std::vector<CompareResult> parts;
    for (size_t i = 0; i < slot.outputs.size(); ++i) {
      std::vector<float> output(static_cast<size_t>(slot.outputs[i].count));
      std::memcpy(output.data(), at(slot.outputs[i]), output.size() * sizeof(float));
      parts.push_back(compare_output(output.data(), kept_outputs_[i].data(), slot.outputs[i].count, row_length(i), problem_.problem.tolerance));
    }
    return merge_results(parts);
  }

  CompareResult check_outputs(int slot_index) override {
    Slot& slot = prepared(slot_index);
    std::vector<CompareResult> parts;
    for (size_t i = 0; i < slot.outputs.size(); ++i) {
      // Copy first: the worker shares this memory and must not change it mid-comparison.
      std::vector<float> output(static_cast<size_t>(slot.outputs[i].count));
      std::memcpy(output.data(), at(slot.outputs[i]), output.size() * sizeof(float));
      parts.push_back(judge_against_reference(slot, output.data(), i));
    }
    return merge_results(parts);
  }

  std::optional<OperandRoundingDistances> bf16_operand_distances(int slot_index) override {
    if (!bf16_operands_) return std::nullopt;
    const Slot& slot = prepared(slot_index);
    std::vector<HostTensor<double>> rounded;
    rounded.reserve(slot.wide.size());  // the pointers below stay valid
    std::vector<const double*> inputs;
    for (size_t i = 0; i < slot.wide.size(); ++i) {
      if (!(*bf16_operands_)[i]) {
        inputs.push_back(slot.wide[i].data.data());
        continue;
      }
      HostTensor<double>& copy = rounded.emplace_back(slot.wide[i]);
      for (double& value : copy.data) value = round_to_bf16(static_cast<float>(value));  // exact fp32 values
      inputs.push_back(copy.data.data());
    }
    const std::vector<HostTensor<double>> rounded_reference = run_reference_f64(problem_, inputs);
    OperandRoundingDistances distances;
    for (size_t o = 0; o < slot.outputs.size(); ++o) {
      std::vector<float> output(static_cast<size_t>(slot.outputs[o].count));  // a private copy, as check_outputs
      std::memcpy(output.data(), at(slot.outputs[o]), output.size() * sizeof(float));
      add_operand_rounding_distances(distances, output.data(), slot.reference[o].data.data(), rounded_reference[o].data.data(),
                                     slot.outputs[o].count);
    }
    return distances;
  }

  CompareResult check_baseline(int slot_index) override {
    Slot& slot = prepared(slot_index);
    const auto outputs = run_baseline_f32(problem_, pristine_pointers(slot));
    std::vector<CompareResult> parts;
    for (size_t i = 0; i < outputs.size(); ++i) parts.push_back(judge_against_reference(slot, outputs[i].data.data(), i));
    return merge_results(parts);
  }

  std::vector<std::string> trivial_outputs_that_pass(int slot_index) override {
    const Slot& slot = prepared(slot_index);
    std::vector<std::string> passing;
    // A trivial output passes only if it passes on every output: the first output it fails ends
    // the try (inputs x outputs comparisons made a spec of 8000 of each take a minute).
    auto try_trivial = [&](const std::string& name, auto&& fill) {
      for (size_t o = 0; o < slot.reference.size(); ++o) {
        std::vector<float> trivial(slot.reference[o].data.size());
        fill(o, trivial);
        if (!compare_output(trivial.data(), slot.reference[o].data.data(), static_cast<int64_t>(trivial.size()), row_length(o),
                            problem_.problem.tolerance)
                 .passed)
          return;
      }
      passing.push_back(name);
    };
    try_trivial("zeros", [](size_t, std::vector<float>& out) { std::fill(out.begin(), out.end(), 0.0f); });
    for (size_t i = 0; i < slot.pristine.size(); ++i) {
      const auto& input = slot.pristine[i].data;
      try_trivial("copy of input " + problem_.problem.inputs[i].name, [&](size_t, std::vector<float>& out) {
        for (size_t e = 0; e < out.size(); ++e) out[e] = input[e % input.size()];
      });
    }
    if (!every_output_is_one_element(problem_))
      try_trivial("constant reference mean", [&](size_t o, std::vector<float>& out) {
        const auto& ref = slot.reference[o].data;
        const double mean = std::accumulate(ref.begin(), ref.end(), 0.0) / static_cast<double>(ref.size());
        std::fill(out.begin(), out.end(), static_cast<float>(mean));
      });
    return passing;
  }

  void read_input(int slot_index, size_t index, const std::function<void(std::span<const unsigned char>)>& sink) override {
    const TensorPlace& place = prepared(slot_index).inputs.at(index);
    sink({static_cast<const unsigned char*>(at_bytes(place)), place.bytes()});
  }

  void read_reference(int slot_index, size_t index, const std::function<void(std::span<const double>)>& sink) override {
    const std::vector<double>& reference = prepared(slot_index).reference.at(index).data;
    sink({reference.data(), reference.size()});
  }

  std::vector<std::pair<std::string, double>> time_baselines(int slot) override { return {{"fp32", time_fp32(slot)}}; }
  CompareResult recheck_timed(int slot) override { return check_outputs(slot); }
  int slot_count() const override { return static_cast<int>(slots_.size()); }
  double physical_floor_s(const ResolvedProblem& problem) const override {
    return std::max(problem.flops / kHostCeilingFlopsPerSecond, problem.compulsory_bytes / kHostCeilingBytesPerSecond);
  }

  // Output `o`'s values against the slot's reference; where the default rule fails and the output
  // has an error scale, judged again with it (verify/compare.hpp): an output fails only if it fails
  // both rules, and the scale is computed only where the default one fails. Trivial outputs and the
  // determinism check keep the default rule: a family where a trivial output passes only by the
  // error scale still gates (stricter), and two runs of one candidate share their rounding.
  CompareResult judge_against_reference(Slot& slot, const float* output, size_t o) {
    const double* reference = slot.reference[o].data.data();
    const auto count = static_cast<int64_t>(slot.reference[o].data.size());
    CompareResult result = compare_output(output, reference, count, row_length(o), problem_.problem.tolerance);
    const int scale_index = error_scale_graph_ ? error_scale_graph_->scale_of_output.at(o) : -1;
    if (result.passed || scale_index < 0) return result;
    if (slot.error_scale.empty()) {
      std::vector<const double*> inputs;
      for (const auto& input : slot.wide) inputs.push_back(input.data.data());
      slot.error_scale = run_reference_f64(error_scale_graph_->problem, inputs);
    }
    return compare_output(output, reference, count, row_length(o), problem_.problem.tolerance,
                          slot.error_scale.at(static_cast<size_t>(scale_index)).data.data());
  }

  double time_fp32(int slot_index) {
    const Slot& slot = prepared(slot_index);
    if (baseline_outputs_.empty())
      for (const Shape& shape : problem_.output_shapes) baseline_outputs_.emplace_back(shape);
    std::vector<float*> outputs;
    for (auto& output : baseline_outputs_) outputs.push_back(output.data.data());
    const auto inputs = pristine_pointers(slot);
    const auto start = std::chrono::steady_clock::now();
    run_baseline_f32_into(problem_, inputs, outputs);
    const auto end = std::chrono::steady_clock::now();
    return std::chrono::duration<double>(end - start).count();
  }

  nlohmann::json environment() const override {
    return {{"device", "host"}, {"device_name", "host CPU"}, {"math_mode", "fp32 (host)"},
            {"hardware_threads", std::thread::hardware_concurrency()}};
  }

 private:
  float* at(const TensorPlace& place) { return reinterpret_cast<float*>(at_bytes(place)); }
  // A slot whose private copies are of what the arena holds (Slot::overwritten).
  Slot& prepared(int slot_index) {
    Slot& slot = slots_.at(static_cast<size_t>(slot_index));
    if (slot.overwritten)
      throw std::logic_error("host data plane: slot " + std::to_string(slot_index) +
                             "'s inputs were rewritten by another slot's preparation (a shared parameter buffer): prepare it again before use");
    return slot;
  }
  void* at_bytes(const TensorPlace& place) { return static_cast<char*>(base_) + place.offset; }
  static std::vector<const float*> pristine_pointers(const Slot& slot) {
    std::vector<const float*> pointers;
    for (const auto& tensor : slot.pristine) pointers.push_back(tensor.data.data());
    return pointers;
  }
  // Output `o`'s rows for the comparison's local RMS (verify/compare.hpp).
  int64_t row_length(size_t o) const { return local_rms_row_length(problem_.output_shapes.at(o)); }

  const ResolvedProblem& problem_;
  std::optional<ErrorScaleGraph> error_scale_graph_;
  std::optional<std::vector<bool>> bf16_operands_;  // per input, rounded by the precision check; nullopt: no check
  std::vector<Slot> slots_;
  std::vector<HostTensor<float>> baseline_outputs_;
  std::vector<std::vector<double>> kept_outputs_;  // keep_outputs(): a candidate's earlier outputs
  int fd_ = -1;
  void* base_ = MAP_FAILED;
  size_t bytes_ = 0;
};

}  // namespace

std::unique_ptr<DataPlane> make_host_data_plane(const ResolvedProblem& problem) {
  return std::make_unique<HostDataPlane>(problem);
}

}  // namespace kbv::eval
