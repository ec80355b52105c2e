// timing/l2_flush.cpp — persisting-L2 reset and memset flush.
#include "measure/timing/l2_flush.hpp"

#include "measure/support/library_errors.hpp"

namespace kbv::cuda {

namespace {
// Used when a device reports no L2 size: larger than any current GPU's L2 (H200: 60 MiB).
constexpr size_t kFallbackL2Bytes = size_t{128} << 20;
}  // namespace

L2Flusher::L2Flusher() {
  int device = 0;
  measure::check(cudaGetDevice(&device), "cudaGetDevice");
  int l2 = 0;
  measure::check(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, device),
                 "cudaDeviceGetAttribute(L2CacheSize)");
  l2_bytes_ = l2 > 0 ? static_cast<size_t>(l2) : kFallbackL2Bytes;
  int persisting = 0;
  measure::check(cudaDeviceGetAttribute(&persisting, cudaDevAttrMaxPersistingL2CacheSize, device),
                 "cudaDeviceGetAttribute(MaxPersistingL2CacheSize)");
  max_persisting_bytes_ = persisting > 0 ? static_cast<size_t>(persisting) : 0;
  buffer_ = measure::DeviceMemory(kL2Multiple * l2_bytes_, "L2 flush buffer");
}

void L2Flusher::flush(cudaStream_t stream, uint64_t sample) {
  reset_persisting(stream);
  enqueue(stream, sample);
}

void L2Flusher::reset_persisting(cudaStream_t stream) {
  if (max_persisting_bytes_ > 0) {
    // A candidate may have marked its data persisting (access-policy window) so it survives
    // the flush; demote every persisting line, close the carve-out, clear our stream's window.
    measure::check(cudaCtxResetPersistingL2Cache(), "cudaCtxResetPersistingL2Cache");
    size_t carve_out = 0;
    measure::check(cudaDeviceGetLimit(&carve_out, cudaLimitPersistingL2CacheSize),
                   "cudaDeviceGetLimit(PersistingL2CacheSize)");
    if (carve_out != 0)
      measure::check(cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, 0),
                     "cudaDeviceSetLimit(PersistingL2CacheSize, 0)");
  }
  // Stream attributes are per created stream; the legacy default stream (nullptr) is left as
  // it is, and the harness times on a created stream.
  if (max_persisting_bytes_ > 0 && stream != nullptr) {
    cudaStreamAttrValue no_window{};
    no_window.accessPolicyWindow.base_ptr = nullptr;
    no_window.accessPolicyWindow.num_bytes = 0;
    no_window.accessPolicyWindow.hitRatio = 0.f;
    no_window.accessPolicyWindow.hitProp = cudaAccessPropertyNormal;
    no_window.accessPolicyWindow.missProp = cudaAccessPropertyNormal;
    measure::check(cudaStreamSetAttribute(stream, cudaStreamAttributeAccessPolicyWindow,
                                          &no_window),
                   "cudaStreamSetAttribute(AccessPolicyWindow, none)");
  }
}

void L2Flusher::enqueue(cudaStream_t stream, uint64_t sample) {
  constexpr uint64_t kByteValues = 256;
  measure::check(cudaMemsetAsync(buffer_.get(), static_cast<int>(sample % kByteValues),
                                 buffer_.bytes(), stream),
                 "cudaMemsetAsync(L2 flush)");
}

}  // namespace kbv::cuda
