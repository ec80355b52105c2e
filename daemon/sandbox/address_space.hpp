// sandbox/address_space.hpp — RLIMIT_AS for a CUDA worker, sized from its device's memory once
// the device is up (and before the candidate loads).
//
// Why it cannot be a fixed figure set with the other rlimits: CUDA's stream-ordered allocator
// reserves virtual address space for its default pool at the first cudaMallocAsync, about twice
// the device's memory. Measured on an H200 (150.1 GB, driver 580): VmSize 13.6 GB after cuInit,
// 306.8 GB after the first cudaMallocAsync; under RLIMIT_AS of 64, 128 or 256 GiB it returns
// out of memory (cudaMallocFromPoolAsync on the default pool: invalid argument), under 512 GiB
// it works. A worker's limit is therefore
//   what is mapped once the device is up
//   + kPoolsCovered × kPoolReservationFactor × device memory   (the default pool, and one pool
//     the candidate creates itself, assumed to reserve as the default one does: not measured)
//   + 1 × device memory   (cudaMalloc'ed memory and the evaluator's arena mapped through CUDA
//     IPC each take address space of their own size; together at most the device's memory)
//   + kHostHeadroomBytes  (the candidate's host buffers and the libraries it loads later)
// RLIMIT_AS bounds address space, not memory: the worker's host memory is bounded by the
// cgroup's memory.max (sandbox layer 3) where a memory controller is delegated, and only by
// this limit where none is (docs/sandbox.md, residual risks).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace kbv::sandbox {

// Measured above: 293.2 GB reserved for a 150.1 GB device is 1.95×; rounded up.
constexpr std::uint64_t kPoolReservationFactor = 2;
// The default pool and one pool of the candidate's own (cudaMemPoolCreate).
constexpr std::uint64_t kPoolsCovered = 2;
// 64 GiB for host allocations and late-loaded libraries: cuBLAS + cuDNN map a few GB each.
constexpr std::uint64_t kHostHeadroomBytes = 64ull << 30;

// The limit for a CUDA worker with `mapped_bytes` of address space in use now (VmSize) on a
// device with `device_memory_bytes` of memory. Never below kCudaMinAddressSpaceBytes; saturates
// at UINT64_MAX rather than wrapping.
std::uint64_t cuda_worker_address_space_bytes(std::uint64_t mapped_bytes, std::uint64_t device_memory_bytes);

// This process's VmSize (/proc/self/status) in bytes; nullopt when it cannot be read.
std::optional<std::uint64_t> mapped_address_space_bytes();

// Sets RLIMIT_AS (soft = hard; an inherited lower hard limit is kept, as the other rlimits do).
// Only lowers what apply_sandbox left unset: the worker calls it after its CUDA device is up.
// Returns the report line ("rlimits: as=… (…)"); throws std::system_error when setrlimit fails.
std::string apply_address_space_limit(std::uint64_t bytes, const std::string& reason);

}  // namespace kbv::sandbox
