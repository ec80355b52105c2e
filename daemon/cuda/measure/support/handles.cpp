// support/handles.cpp — creation of the RAII handles, throwing CudaError on failure.
#include "measure/support/handles.hpp"

#include <string>

#include "measure/support/library_errors.hpp"

namespace kbv::cuda::measure {

Stream make_stream(unsigned flags) {
  cudaStream_t stream = nullptr;
  check(cudaStreamCreateWithFlags(&stream, flags), "cudaStreamCreateWithFlags");
  return Stream(stream);
}

Event make_event(unsigned flags) {
  cudaEvent_t event = nullptr;
  check(cudaEventCreateWithFlags(&event, flags), "cudaEventCreateWithFlags");
  return Event(event);
}

CublasHandle make_cublas() {
  cublasHandle_t handle = nullptr;
  check(cublasCreate(&handle), "cublasCreate");
  return CublasHandle(handle);
}

CublasLtHandle make_cublaslt() {
  cublasLtHandle_t handle = nullptr;
  check(cublasLtCreate(&handle), "cublasLtCreate");
  return CublasLtHandle(handle);
}

CudnnHandle make_cudnn() {
  cudnnHandle_t handle = nullptr;
  check(cudnnCreate(&handle), "cudnnCreate");
  return CudnnHandle(handle);
}

CudnnTensorDesc make_cudnn_tensor_desc() {
  cudnnTensorDescriptor_t desc = nullptr;
  check(cudnnCreateTensorDescriptor(&desc), "cudnnCreateTensorDescriptor");
  return CudnnTensorDesc(desc);
}

CudnnFilterDesc make_cudnn_filter_desc() {
  cudnnFilterDescriptor_t desc = nullptr;
  check(cudnnCreateFilterDescriptor(&desc), "cudnnCreateFilterDescriptor");
  return CudnnFilterDesc(desc);
}

CudnnConvDesc make_cudnn_conv_desc() {
  cudnnConvolutionDescriptor_t desc = nullptr;
  check(cudnnCreateConvolutionDescriptor(&desc), "cudnnCreateConvolutionDescriptor");
  return CudnnConvDesc(desc);
}

DeviceMemory::DeviceMemory(size_t bytes, const char* what) : bytes_(bytes) {
  if (bytes == 0) return;
  void* pointer = nullptr;
  check(cudaMalloc(&pointer, bytes),
        (std::string("cudaMalloc of ") + std::to_string(bytes) + " bytes for " + what).c_str());
  memory_.reset(pointer);
}

PinnedMemory::PinnedMemory(size_t bytes, const char* what) : bytes_(bytes) {
  if (bytes == 0) return;
  void* pointer = nullptr;
  check(cudaMallocHost(&pointer, bytes),
        (std::string("cudaMallocHost of ") + std::to_string(bytes) + " bytes for " + what)
            .c_str());
  memory_.reset(pointer);
}

}  // namespace kbv::cuda::measure
