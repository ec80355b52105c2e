# cuda_libraries.cmake — targets kbv::cupti and kbv::cudnn. CUPTI and cuDNN live inside the
# toolkit tree here (/usr/local/cuda/{include,lib}); FindCUDAToolkit provides CUDA::cupti only
# when it finds CUPTI (it looks in lib/ and extras/CUPTI/) and never provides cuDNN.
include_guard(GLOBAL)

add_library(kbv_cupti INTERFACE)
add_library(kbv::cupti ALIAS kbv_cupti)
if(TARGET CUDA::cupti)
  target_link_libraries(kbv_cupti INTERFACE CUDA::cupti)
else()
  find_path(KBV_CUPTI_INCLUDE_DIR cupti.h
    HINTS ${CUDAToolkit_INCLUDE_DIRS} ${CUDAToolkit_LIBRARY_ROOT}/extras/CUPTI/include REQUIRED)
  find_library(KBV_CUPTI_LIBRARY cupti
    HINTS ${CUDAToolkit_LIBRARY_DIR} ${CUDAToolkit_LIBRARY_ROOT}/extras/CUPTI/lib64 REQUIRED)
  target_include_directories(kbv_cupti INTERFACE ${KBV_CUPTI_INCLUDE_DIR})
  target_link_libraries(kbv_cupti INTERFACE ${KBV_CUPTI_LIBRARY})
endif()

find_path(KBV_CUDNN_INCLUDE_DIR cudnn.h HINTS ${CUDAToolkit_INCLUDE_DIRS} REQUIRED)
find_library(KBV_CUDNN_LIBRARY cudnn HINTS ${CUDAToolkit_LIBRARY_DIR} REQUIRED)
add_library(kbv_cudnn INTERFACE)
add_library(kbv::cudnn ALIAS kbv_cudnn)
target_include_directories(kbv_cudnn INTERFACE ${KBV_CUDNN_INCLUDE_DIR})
target_link_libraries(kbv_cudnn INTERFACE ${KBV_CUDNN_LIBRARY})
