// eval/data_plane.hpp — where the trusted side keeps a problem's data for one device:
// the arena the worker sees, pristine inputs, the fp64 reference, the baselines, and the
// checks on the candidate's raw outputs. The host device keeps it in shared memory; the CUDA
// device in device memory shared with the worker through CUDA IPC.
#pragma once

#include <functional>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "inputs/epoch_plan.hpp"
#include "spec/problem.hpp"
#include "verify/compare.hpp"
#include "verify/precision_signature.hpp"

namespace kbv::eval {

// True when every output of the problem has one element (a loss), where a constant output equal
// to the reference's mean is the reference and says nothing about the family.
inline bool every_output_is_one_element(const ResolvedProblem& problem) {
  for (const Shape& shape : problem.output_shapes)
    if (numel(shape) != 1) return false;
  return true;
}

class DataPlane {
 public:
  virtual ~DataPlane() = default;

  // Allocates `slots` sets of input and output buffers; returns the setup-message fields
  // ("arena_bytes", "slots": [{inputs: [{name, shape, offset}], outputs: [...]}]).
  virtual nlohmann::json allocate(int slots) = 0;
  // The fd the worker maps (host) or -1 (the CUDA device passes IPC handles in allocate()).
  virtual int arena_fd() const = 0;
  // Zeroes every byte of the arena and forgets what was computed from its contents: a plane kept
  // for the next candidate (eval/evaluation_session.hpp) shows its worker nothing the previous
  // worker left there (a stash of outputs for the same seeds would otherwise reach it).
  virtual void scrub_arena() = 0;

  // Generates the inputs of one family draw and seed into `slot` and computes the fp64
  // reference for them from a pristine private copy.
  virtual void prepare(int slot, const inputs::FamilyDraw& draw, uint64_t seed) = 0;
  // Inputs for one timing sample: the same family and seed, but a device may draw them with
  // cheaper arithmetic (CUDA: single precision) since a timed output is only rechecked
  // against the TF32 baseline on the same inputs. Host: prepare().
  virtual void prepare_timing(int slot, const inputs::FamilyDraw& draw, uint64_t seed) { prepare(slot, draw, seed); }
  virtual void poison_outputs(int slot) = 0;
  // A digest of the slot's input bytes as the worker sees them.
  virtual std::string input_digest(int slot) = 0;
  // The candidate's outputs in `slot` against the reference of the last prepare(slot).
  virtual CompareResult check_outputs(int slot) = 0;
  // A digest of the candidate's outputs (run-to-run determinism).
  virtual std::string output_digest(int slot) = 0;
  // Run-to-run determinism beyond the bits: keep a private copy of the candidate's outputs in
  // `slot` (out of the worker's reach), then compare the slot's outputs of a later call with it
  // under the problem's tolerance, the kept copy standing in for the reference.
  virtual void keep_outputs(int slot) = 0;
  virtual CompareResult compare_with_kept_outputs(int slot) = 0;
  // The precision check (verify/precision_signature.hpp): the distances of the candidate's outputs
  // in `slot` to the reference and to the reference of the slot's inputs with the product operands
  // rounded to bf16 (graph/operand_rounding.hpp); nullopt where the problem has no such rounding.
  // Call it last on the slot's current inputs: the CUDA device computes the rounded reference in the
  // reference's own buffers (no memory beyond the footprint), so the next check recomputes the
  // reference.
  virtual std::optional<OperandRoundingDistances> bf16_operand_distances(int slot) = 0;
  // The fp32 baseline on the slot's pristine inputs, against the same reference.
  virtual CompareResult check_baseline(int slot) = 0;
  // Trivial outputs (zeros, a copy of an input, the reference's mean) against the reference:
  // each one that passes is returned with its name. The mean is not tried when every output is
  // one element (a loss): a constant equal to its mean is the reference itself.
  virtual std::vector<std::string> trivial_outputs_that_pass(int slot) = 0;
  // One timing sample of every baseline on the slot's inputs, by name ("fp32", "tf32"), in
  // seconds (CUDA: cold L2, events).
  virtual std::vector<std::pair<std::string, double>> time_baselines(int slot) = 0;
  // Rechecks a timed call's outputs in `slot` (host: against the fp64 reference; CUDA:
  // against the TF32 baseline's output on the same inputs, itself validated against fp64,
  // with twice the tolerance, so a sample costs no fp64 GEMM).
  virtual CompareResult recheck_timed(int slot) = 0;
  // Streams input `index` of `slot`, the bytes the worker sees (of the input's dtype, whole
  // elements), to `sink` in order and in chunks (`kbv export`: a default-shape tensor can be
  // several GB, so it is never held twice).
  virtual void read_input(int slot, size_t index, const std::function<void(std::span<const unsigned char>)>& sink) = 0;
  // Streams the fp64 reference of output `index` for the slot's current inputs the same way,
  // computing the reference first where it is not current.
  virtual void read_reference(int slot, size_t index, const std::function<void(std::span<const double>)>& sink) = 0;
  // How many slots allocate() made (the CUDA device may make fewer to fit memory).
  virtual int slot_count() const = 0;
  // No correct implementation can be faster than this (host: generous fixed ceilings; CUDA:
  // calibrated ceilings with margins for lower-precision tensor cores).
  virtual double physical_floor_s(const ResolvedProblem& problem) const = 0;
  // SM clock now relative to its default (1.0 on the host): samples below 0.75 are discarded.
  virtual double clock_ratio() { return 1.0; }
  // Device memory in use on the whole device now, seen from the evaluator's process (CUDA:
  // cudaMemGetInfo), and the device's total; both -1 where there is no such figure (host).
  struct DeviceMemory {
    double used_bytes = -1;
    double total_bytes = -1;
  };
  virtual DeviceMemory device_memory() { return {}; }
  // Device memory a baseline ("tf32" or "fp32") holds beyond inputs and outputs (workspace
  // and intermediates); 0 on host.
  virtual double baseline_extra_bytes(const std::string& /*math_mode*/) const { return 0; }

  virtual nlohmann::json environment() const = 0;
};

}  // namespace kbv::eval
