// mapped_host_plane.hpp — a test fixture: a host data plane with one slot whose arena the test maps
// as the worker maps it, so that a test can write a candidate's outputs and read the inputs.
#pragma once

#include <sys/mman.h>

#include <cstdint>
#include <memory>
#include <span>
#include <stdexcept>
#include <vector>

#include "eval/arena_layout.hpp"
#include "eval/host_data_plane.hpp"
#include "inputs/epoch_plan.hpp"

namespace kbv::test {

// A host data plane with one slot, its arena mapped here as the worker maps it, and the slot's
// inputs drawn from `family` under a fixed test key.
class MappedHostPlane {
 public:
  MappedHostPlane(const ResolvedProblem& problem, inputs::Family family, uint8_t key, uint64_t seed)
      : plane_(eval::make_host_data_plane(problem)), layout_(eval::layout_arena(problem, 1)) {
    bytes_ = plane_->allocate(1)["arena_bytes"].get<size_t>();
    base_ = ::mmap(nullptr, bytes_, PROT_READ | PROT_WRITE, MAP_SHARED, plane_->arena_fd(), 0);
    if (base_ == MAP_FAILED) throw std::runtime_error("mmap of the host data plane's arena failed");
    plane_->prepare(0, inputs::draw_family(inputs::SecretKey::from_bytes({key}), 0, problem.problem.name, family, 1), seed);
  }
  ~MappedHostPlane() { ::munmap(base_, bytes_); }
  MappedHostPlane(const MappedHostPlane&) = delete;
  MappedHostPlane& operator=(const MappedHostPlane&) = delete;

  const float* input(size_t i) const { return reinterpret_cast<const float*>(arena() + layout_.slots[0].inputs[i].offset); }
  float* output() { return reinterpret_cast<float*>(arena() + layout_.slots[0].outputs[0].offset); }
  std::vector<double> reference() const {
    std::vector<double> values;
    plane_->read_reference(0, 0, [&](std::span<const double> part) { values.insert(values.end(), part.begin(), part.end()); });
    return values;
  }
  eval::DataPlane& plane() { return *plane_; }

 private:
  unsigned char* arena() const { return static_cast<unsigned char*>(base_); }
  std::unique_ptr<eval::DataPlane> plane_;
  eval::ArenaLayout layout_;
  size_t bytes_ = 0;
  void* base_ = nullptr;
};

}  // namespace kbv::test
