// eval/data_plane.hpp — where the trusted side keeps a problem's data for one device:
// the arena the worker sees, pristine inputs, the fp64 reference, the baselines, and the
// checks on the candidate's raw outputs. The host device keeps it in shared memory; the CUDA
// device in device memory shared with the worker through CUDA IPC.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "inputs/epoch_plan.hpp"
#include "spec/problem.hpp"
#include "verify/compare.hpp"

namespace kbv::eval {

class DataPlane {
 public:
  virtual ~DataPlane() = default;

  // Allocates `slots` sets of input and output buffers; returns the setup-message fields
  // ("arena_bytes", "slots": [{inputs: [{name, shape, offset}], outputs: [...]}]).
  virtual nlohmann::json allocate(int slots) = 0;
  // The fd the worker maps (host) or -1 (the CUDA device passes IPC handles in allocate()).
  virtual int arena_fd() const = 0;

  // Generates the inputs of one family draw and seed into `slot` and computes the fp64
  // reference for them from a pristine private copy.
  virtual void prepare(int slot, const inputs::FamilyDraw& draw, uint64_t seed) = 0;
  virtual void poison_outputs(int slot) = 0;
  // A digest of the slot's input bytes as the worker sees them.
  virtual std::string input_digest(int slot) = 0;
  // The candidate's outputs in `slot` against the reference of the last prepare(slot).
  virtual CompareResult check_outputs(int slot) = 0;
  // A digest of the candidate's outputs (run-to-run determinism).
  virtual std::string output_digest(int slot) = 0;
  // The fp32 baseline on the slot's pristine inputs, against the same reference.
  virtual CompareResult check_baseline(int slot) = 0;
  // Trivial outputs (zeros, a copy of an input, the reference's mean) against the reference:
  // each one that passes is returned with its name.
  virtual std::vector<std::string> trivial_outputs_that_pass(int slot) = 0;
  // Runs the fp32 baseline on the slot's inputs once and returns its time in seconds.
  virtual double time_baseline(int slot) = 0;

  virtual nlohmann::json environment() const = 0;
};

}  // namespace kbv::eval
