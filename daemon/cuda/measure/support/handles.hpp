// support/handles.hpp — RAII ownership of every CUDA-library handle the measuring code holds:
// device memory, streams, events, cuBLAS/cuBLASLt handles and descriptors, cuDNN handles and
// descriptors. Each is a std::unique_ptr whose deleter calls the library's destroy function.
#pragma once

#include <cublasLt.h>
#include <cublas_v2.h>
#include <cuda_runtime_api.h>
#include <cudnn.h>

#include <cstddef>
#include <memory>
#include <type_traits>

namespace kbv::cuda::measure {

// Destroy functions report failure through a status nobody can act on during teardown (a
// destructor must not throw), so the deleter drops it.
template <class Handle, auto Destroy>
struct HandleDeleter {
  void operator()(Handle handle) const noexcept { static_cast<void>(Destroy(handle)); }
};
template <class Handle, auto Destroy>
using UniqueHandle = std::unique_ptr<std::remove_pointer_t<Handle>, HandleDeleter<Handle, Destroy>>;

using Stream = UniqueHandle<cudaStream_t, &cudaStreamDestroy>;
using Event = UniqueHandle<cudaEvent_t, &cudaEventDestroy>;
using CublasHandle = UniqueHandle<cublasHandle_t, &cublasDestroy>;
using CublasLtHandle = UniqueHandle<cublasLtHandle_t, &cublasLtDestroy>;
using CublasLtMatmulDesc = UniqueHandle<cublasLtMatmulDesc_t, &cublasLtMatmulDescDestroy>;
using CublasLtLayout = UniqueHandle<cublasLtMatrixLayout_t, &cublasLtMatrixLayoutDestroy>;
using CublasLtPreference =
    UniqueHandle<cublasLtMatmulPreference_t, &cublasLtMatmulPreferenceDestroy>;
using CudnnHandle = UniqueHandle<cudnnHandle_t, &cudnnDestroy>;
using CudnnTensorDesc = UniqueHandle<cudnnTensorDescriptor_t, &cudnnDestroyTensorDescriptor>;
using CudnnFilterDesc = UniqueHandle<cudnnFilterDescriptor_t, &cudnnDestroyFilterDescriptor>;
using CudnnConvDesc =
    UniqueHandle<cudnnConvolutionDescriptor_t, &cudnnDestroyConvolutionDescriptor>;

Stream make_stream(unsigned flags);
Event make_event(unsigned flags);
CublasHandle make_cublas();
CublasLtHandle make_cublaslt();
CudnnHandle make_cudnn();
CudnnTensorDesc make_cudnn_tensor_desc();
CudnnFilterDesc make_cudnn_filter_desc();
CudnnConvDesc make_cudnn_conv_desc();

// One cudaMalloc'd block; empty when constructed with 0 bytes.
class DeviceMemory {
 public:
  DeviceMemory() = default;
  // `what` names the allocation in the error when it fails (e.g. "L2 flush buffer").
  DeviceMemory(size_t bytes, const char* what);

  void* get() const { return memory_.get(); }
  template <class T>
  T* as() const {
    return static_cast<T*>(memory_.get());
  }
  size_t bytes() const { return bytes_; }

 private:
  UniqueHandle<void*, &cudaFree> memory_;
  size_t bytes_ = 0;
};

// Page-locked host memory (cudaMallocHost), for device-to-host reads that must not stage.
class PinnedMemory {
 public:
  PinnedMemory() = default;
  PinnedMemory(size_t bytes, const char* what);

  template <class T>
  T* as() const {
    return static_cast<T*>(memory_.get());
  }
  size_t bytes() const { return bytes_; }

 private:
  UniqueHandle<void*, &cudaFreeHost> memory_;
  size_t bytes_ = 0;
};

}  // namespace kbv::cuda::measure
