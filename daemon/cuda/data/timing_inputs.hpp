// data/timing_inputs.hpp — the inputs of CUDA timing samples: fresh values of the problem's
// families for every sample, drawn fast, with the input checksum of what was written.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "inputs/families.hpp"

namespace kbv::cuda {

// Enqueues on `stream`: dst[0, count) from `family` (inside `domain`, scaled by `scale`; `geometry` as for
// generate_inputs_on_device), and the sum of the keyed checksum terms (data/checksum_mix.hpp,
// key `checksum_key`) of those count floats added to *checksum_total (device memory the caller
// zeroes): checksum_detail::finish(*checksum_total, 4·count, checksum_key) then equals
// checksum_on_device(dst, 4·count, …, checksum_key), and the evaluator's digest before the call
// needs no second pass over the inputs.
//
// Not the bit-exact draw of generate_inputs_on_device: the timing phase never compares with a
// host reference (timed outputs are rechecked against the TF32 baseline on the same inputs), so
// these values come from their own Philox streams of 8 rounds (inputs/philox.hpp), one block per
// four elements (the exact draw spends one per element and uses two or three of its four words;
// the Box–Muller families take both normals of each pair of words, inputs::uses_normal), in
// single precision with fast intrinsics; a structured family adds the axes a quad's elements
// share once per quad. Same families, same parameters and structure (the structured families'
// per-channel words come from the family's structure seed, as in the exact draw), same
// distributions (tests/cuda/data/device_inputs_test.cpp compares them and checks no two elements
// of a quad share their words).
void generate_timing_inputs_on_device(float* dst, int64_t count, inputs::Family family,
                                      const inputs::FamilyParams& params, uint64_t seed, uint32_t tensor_id,
                                      const inputs::TensorAxes& geometry, double scale, uint64_t checksum_key,
                                      unsigned long long* checksum_total, cudaStream_t stream,
                                      inputs::InputDomain domain = inputs::InputDomain::any);

}  // namespace kbv::cuda
