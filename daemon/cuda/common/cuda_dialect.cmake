# common/cuda_dialect.cmake — teaches CMake < 3.26 nvcc's C++20 flag. The top level asks for
# CMAKE_CUDA_STANDARD 20, but CMake 3.25's Compiler/NVIDIA-CUDA.cmake stops at C++17 and
# refuses to generate ("requires the language dialect CUDA20"); nvcc accepts -std=c++20 since
# CUDA 12. Directory-scoped: include it in every folder that defines CUDA targets.
if(NOT DEFINED CMAKE_CUDA20_STANDARD_COMPILE_OPTION)
  set(CMAKE_CUDA20_STANDARD_COMPILE_OPTION "-std=c++20")
  set(CMAKE_CUDA20_EXTENSION_COMPILE_OPTION "-std=c++20")
endif()
