# KbvSDKCandidate.cmake — kbv_add_candidate(): build one candidate kernel plugin (.so).
#
#   kbv_add_candidate(NAME PROBLEM <problem> DEVICE host|cuda SOURCES src... [OUTPUT_DIRECTORY dir])
#
# Produces lib<NAME>.so (a MODULE library) that exports only kbv_plugin_negotiate: hidden
# visibility by default, C++20, position independent, linked with -z defs so a missing
# symbol fails at build time instead of at load time. DEVICE cuda needs the CUDA language
# enabled (sm_90 by default) and links the CUDA runtime. The problem name is compiled in as
# KBV_PROBLEM so sources can pass it to KBV_CANDIDATE(KBV_PROBLEM, ...).
include_guard(GLOBAL)

function(kbv_add_candidate name)
  cmake_parse_arguments(ARG "" "PROBLEM;DEVICE;OUTPUT_DIRECTORY" "SOURCES" ${ARGN})
  if(NOT ARG_PROBLEM)
    message(FATAL_ERROR "kbv_add_candidate(${name}): PROBLEM <problem> is required (e.g. PROBLEM relu)")
  endif()
  if(NOT ARG_DEVICE MATCHES "^(host|cuda)$")
    message(FATAL_ERROR "kbv_add_candidate(${name}): DEVICE must be host or cuda, got '${ARG_DEVICE}'")
  endif()
  if(NOT ARG_SOURCES)
    message(FATAL_ERROR "kbv_add_candidate(${name}): SOURCES is empty")
  endif()
  add_library(${name} MODULE ${ARG_SOURCES})
  target_link_libraries(${name} PRIVATE kbv::sdk)
  target_compile_features(${name} PRIVATE cxx_std_20)
  target_compile_definitions(${name} PRIVATE KBV_PROBLEM="${ARG_PROBLEM}")
  set_target_properties(${name} PROPERTIES
    PREFIX "lib"
    CXX_VISIBILITY_PRESET hidden
    CUDA_VISIBILITY_PRESET hidden
    VISIBILITY_INLINES_HIDDEN ON
    POSITION_INDEPENDENT_CODE ON
    KBV_PROBLEM "${ARG_PROBLEM}"
    KBV_DEVICE "${ARG_DEVICE}")
  target_link_options(${name} PRIVATE "LINKER:-z,defs")
  if(ARG_DEVICE STREQUAL "cuda")
    if(NOT CMAKE_CUDA_COMPILER)
      message(FATAL_ERROR "kbv_add_candidate(${name}): DEVICE cuda needs enable_language(CUDA)")
    endif()
    find_package(CUDAToolkit REQUIRED)
    target_link_libraries(${name} PRIVATE CUDA::cudart)
    if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES OR CMAKE_CUDA_ARCHITECTURES STREQUAL "")
      set_target_properties(${name} PROPERTIES CUDA_ARCHITECTURES 90)
    endif()
  endif()
  if(ARG_OUTPUT_DIRECTORY)
    set_target_properties(${name} PROPERTIES LIBRARY_OUTPUT_DIRECTORY "${ARG_OUTPUT_DIRECTORY}")
  endif()
endfunction()
