// data/checksum.hpp — a fast keyed checksum of device memory, taken before and after each
// candidate call to detect input mutation.
//
// It is a change detector, not a cryptographic hash, and that is enough here:
// - Any change confined to one aligned 8-byte word always changes it (checksum_mix.hpp), and an
//   unrelated change of several words leaves it unchanged with probability about 2^-64.
// - The only party that could craft a colliding change is the candidate, and it never sees the
//   checksum, the key, or the verdict while it runs: it would have to cancel terms of a sum of
//   keyed 64-bit mixes blind. With a fresh random key per call (the evaluator's job) that is a
//   guess with 2^-64 odds. Pass key 0 only where that threat does not apply (tests).
// - A cryptographic hash (SHA-256 is in verify/checksum.hpp for the host) would cost a serial
//   pass over gigabytes of KernelBench inputs; this runs at memory bandwidth.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

namespace kbv::cuda {

// Checksum of `bytes` bytes at device address `data` (any alignment). Synchronises `stream`.
uint64_t checksum_on_device(const void* data, uint64_t bytes, cudaStream_t stream,
                            uint64_t key = 0);

// The same function over host memory (for tests and for host-side twins of device buffers).
uint64_t checksum_host(const void* data, uint64_t bytes, uint64_t key = 0);

}  // namespace kbv::cuda
