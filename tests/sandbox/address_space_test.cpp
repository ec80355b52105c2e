// tests/sandbox/address_space_test.cpp — the CUDA worker's address-space limit: the sizing rule
// against the H200 measurement that set it, and the limit as applied once the "device" is up
// (in a sandboxed child, as the worker does it: after the sandbox, before the candidate).
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <limits>

#include "sandbox/address_space.hpp"
#include "sandbox_fixture.hpp"

namespace kbv::sandbox::testing {
namespace {

// The measurement (H200, driver 580): VmSize after cuInit, after the first cudaMallocAsync on the
// default pool, and the device's memory; 256 GiB failed, 512 GiB worked.
constexpr std::uint64_t kH200MappedAfterInit = 13'600'000'000ull;
constexpr std::uint64_t kH200MappedWithPool = 306'800'000'000ull;
constexpr std::uint64_t kH200DeviceMemory = 150'100'000'000ull;
constexpr std::uint64_t kFailedLimit = 256ull << 30;
constexpr std::uint64_t kWorkingLimit = 512ull << 30;

TEST(AddressSpaceSizing, CoversTheMeasuredPoolAndTheDeviceAllocationsOnAnH200) {
  const std::uint64_t limit = cuda_worker_address_space_bytes(kH200MappedAfterInit, kH200DeviceMemory);
  EXPECT_GT(limit, kFailedLimit);
  EXPECT_GE(limit, kWorkingLimit);
  // The pool's reservation as measured, then the arena (CUDA IPC) and cudaMalloc'ed memory up to
  // the device's size, then a second pool of the candidate's own.
  EXPECT_GE(limit, kH200MappedWithPool + kH200DeviceMemory + (kH200MappedWithPool - kH200MappedAfterInit));
  // Still a bound: the rule's terms and nothing more.
  EXPECT_EQ(limit, kH200MappedAfterInit + (kPoolsCovered * kPoolReservationFactor + 1) * kH200DeviceMemory + kHostHeadroomBytes);
}

TEST(AddressSpaceSizing, GrowsWithTheDeviceAndWithWhatIsMapped) {
  const std::uint64_t small = cuda_worker_address_space_bytes(kH200MappedAfterInit, 80ull << 30);
  const std::uint64_t large = cuda_worker_address_space_bytes(kH200MappedAfterInit, 192ull << 30);
  EXPECT_LT(small, large);
  EXPECT_EQ(large - small, (kPoolsCovered * kPoolReservationFactor + 1) * (112ull << 30));
  EXPECT_EQ(cuda_worker_address_space_bytes(kH200MappedAfterInit + 1000, 80ull << 30), small + 1000);
}

TEST(AddressSpaceSizing, NeverBelowWhatCudaNeedsAndNeverWraps) {
  EXPECT_EQ(cuda_worker_address_space_bytes(0, 0), std::max(kHostHeadroomBytes, kCudaMinAddressSpaceBytes));
  EXPECT_GE(cuda_worker_address_space_bytes(0, 1), kCudaMinAddressSpaceBytes);
  const std::uint64_t max = std::numeric_limits<std::uint64_t>::max();
  EXPECT_EQ(cuda_worker_address_space_bytes(max - 5, 1ull << 40), max);
  EXPECT_EQ(cuda_worker_address_space_bytes(1, max / 2), max);
}

TEST(AddressSpaceSizing, MappedBytesAreThisProcesssVmSize) {
  const auto mapped = mapped_address_space_bytes();
  ASSERT_TRUE(mapped.has_value());
  std::ifstream statm("/proc/self/statm");
  std::uint64_t pages = 0;
  statm >> pages;
  const auto page = static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE));
  // Two reads, some allocation between them: within 64 MiB of each other.
  const std::uint64_t from_statm = pages * page;
  EXPECT_LT(*mapped > from_statm ? *mapped - from_statm : from_statm - *mapped, 64ull << 20);
}

using AddressSpaceLimitTest = SandboxTest;

// As the CUDA worker does: the sandbox leaves RLIMIT_AS unset, then the limit is sized from what
// is mapped and the device's memory, and holds (a mapping beyond it is refused).
TEST_F(AddressSpaceLimitTest, SizedLimitIsAppliedAfterTheSandboxAndHolds) {
  SandboxPolicy policy = base_policy();
  policy.max_address_space_bytes.reset();
  // A make-believe 4 GiB device, so the limit is small enough to test with one mmap.
  constexpr std::uint64_t kDeviceMemory = 4ull << 30;
  const ChildOutcome outcome = run_sandboxed(policy, [](const SandboxReport&) {
    rlimit before{};
    ::getrlimit(RLIMIT_AS, &before);
    const auto mapped = mapped_address_space_bytes();
    if (!mapped) return std::string("no VmSize");
    const std::uint64_t limit = cuda_worker_address_space_bytes(*mapped, kDeviceMemory);
    const std::string line = apply_address_space_limit(limit, "test");
    rlimit after{};
    ::getrlimit(RLIMIT_AS, &after);
    // Within the limit a large reservation works; beyond it, it is refused.
    void* inside = ::mmap(nullptr, kDeviceMemory, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    const std::string inside_result = inside == MAP_FAILED ? errno_name() : "ok";
    if (inside != MAP_FAILED) ::munmap(inside, kDeviceMemory);
    void* beyond = ::mmap(nullptr, limit, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    const std::string beyond_result = beyond == MAP_FAILED ? errno_name() : "ok";
    return std::string(before.rlim_cur == RLIM_INFINITY ? "unlimited" : "limited") + " " +
           (after.rlim_cur == limit && after.rlim_max == limit ? "as-sized" : "other:" + std::to_string(after.rlim_cur)) + " " +
           inside_result + " " + beyond_result + " " + (line.find("as=" + std::to_string(limit)) != std::string::npos ? "reported" : line);
  });
  KBV_SKIP_IF_KERNEL_LACKS(outcome);
  // A harness may run the tests under its own RLIMIT_AS: then "limited" and the inherited hard
  // limit is kept (and reported), which the worker tolerates the same way.
  if (outcome.result.rfind("limited ", 0) == 0) GTEST_SKIP() << "the test runs under an inherited RLIMIT_AS: " << outcome.result;
  EXPECT_EQ(outcome.result, "unlimited as-sized ok ENOMEM reported");
}

TEST_F(AddressSpaceLimitTest, TheCudaWorkerPolicyLeavesTheLimitToTheWorker) {
  EXPECT_FALSE(worker_policy(scratch_, candidate_, {}, true).max_address_space_bytes.has_value());
  EXPECT_EQ(worker_policy(scratch_, candidate_, {}, false).max_address_space_bytes, kDefaultAddressSpaceBytes);
}

}  // namespace
}  // namespace kbv::sandbox::testing
