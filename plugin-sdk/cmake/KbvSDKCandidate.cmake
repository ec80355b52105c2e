# KbvSDKCandidate.cmake — kbv_add_candidate(): build one candidate kernel plugin (.so).
#
#   kbv_add_candidate(NAME PROBLEM <problem> DEVICE host|cuda SOURCES src...
#                     [OUTPUT_DIRECTORY dir] [CUDA_ARCHITECTURES archs...])
#
# Produces lib<NAME>.so (a MODULE library) that exports only kbv_plugin_negotiate: hidden
# visibility, C++20 (CUDA sources too), position independent, linked with -z defs so a missing
# symbol fails at build time instead of at load time. The problem name is compiled in as
# KBV_PROBLEM so sources can pass it to KBV_CANDIDATE(KBV_PROBLEM, ...).
#
# A candidate is the thing being measured, so it is optimised unless told otherwise: with no
# CMAKE_BUILD_TYPE (single-config generators) it gets -O3; an explicit build type (Debug
# included) is respected. GCC and Clang record the compile flags in the library
# (-frecord-gcc-switches), so kbv can say in the result when a candidate was built unoptimised.
#
# DEVICE cuda needs the CUDA language enabled and links the CUDA runtime. It builds for sm_90
# (Hopper: H100/H200, the device kbv is measured on) unless CUDA_ARCHITECTURES is given here or
# CMAKE_CUDA_ARCHITECTURES was chosen by the author (-D, set() before enable_language(CUDA), or
# $CUDAARCHS); the value enable_language(CUDA) picks by itself (the compiler's default, e.g. 75
# or 52) is not used.
include_guard(GLOBAL)

# CMake < 3.26 does not know nvcc's C++20 flag and refuses to generate a target with
# CUDA_STANDARD 20 ("requires the language dialect CUDA20"); nvcc accepts -std=c++20 since
# CUDA 12. Directory-scoped: set here (find_package's scope) and again by kbv_add_candidate()
# in its caller's scope. Newer CMake defines it itself.
macro(_kbv_teach_cuda20_dialect)
  if(NOT DEFINED CMAKE_CUDA20_STANDARD_COMPILE_OPTION)
    set(CMAKE_CUDA20_STANDARD_COMPILE_OPTION "-std=c++20")
    set(CMAKE_CUDA20_EXTENSION_COMPILE_OPTION "-std=c++20")
  endif()
endmacro()
_kbv_teach_cuda20_dialect()

# The architectures a CUDA candidate is built for, in `out`.
function(_kbv_cuda_architectures out explicit)
  if(explicit)
    set(${out} "${explicit}" PARENT_SCOPE)
    return()
  endif()
  # enable_language(CUDA) stores the compiler's default in the cache with this help string; a
  # value given with -D carries CMake's "specified on the command line" text instead, and one
  # set() before enable_language(CUDA) is a normal variable with no cache entry behind it.
  get_property(help CACHE CMAKE_CUDA_ARCHITECTURES PROPERTY HELPSTRING)
  get_property(cached CACHE CMAKE_CUDA_ARCHITECTURES PROPERTY VALUE)
  set(picked_by_cmake OFF)
  if(help STREQUAL "CUDA architectures" AND "$ENV{CUDAARCHS}" STREQUAL "" AND "${cached}" STREQUAL "${CMAKE_CUDA_ARCHITECTURES}")
    set(picked_by_cmake ON)
  endif()
  if(picked_by_cmake OR NOT DEFINED CMAKE_CUDA_ARCHITECTURES OR CMAKE_CUDA_ARCHITECTURES STREQUAL "")
    set(${out} 90 PARENT_SCOPE)
  else()
    set(${out} "${CMAKE_CUDA_ARCHITECTURES}" PARENT_SCOPE)
  endif()
endfunction()

function(kbv_add_candidate name)
  cmake_parse_arguments(ARG "" "PROBLEM;DEVICE;OUTPUT_DIRECTORY" "SOURCES;CUDA_ARCHITECTURES" ${ARGN})
  if(NOT ARG_PROBLEM)
    message(FATAL_ERROR "kbv_add_candidate(${name}): PROBLEM <problem> is required (e.g. PROBLEM relu; `kbv problems` lists them)")
  endif()
  if(NOT ARG_DEVICE MATCHES "^(host|cuda)$")
    message(FATAL_ERROR "kbv_add_candidate(${name}): DEVICE must be host or cuda, got '${ARG_DEVICE}'")
  endif()
  if(NOT ARG_SOURCES)
    message(FATAL_ERROR "kbv_add_candidate(${name}): SOURCES is empty")
  endif()
  if(ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "kbv_add_candidate(${name}): unknown arguments '${ARG_UNPARSED_ARGUMENTS}'")
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

  # Optimised unless a build type says otherwise (see the top of this file).
  get_property(multi_config GLOBAL PROPERTY GENERATOR_IS_MULTI_CONFIG)
  if(NOT multi_config AND "${CMAKE_BUILD_TYPE}" STREQUAL "")
    target_compile_options(${name} PRIVATE $<$<COMPILE_LANGUAGE:C,CXX,CUDA>:-O3>)
  endif()
  target_compile_options(${name} PRIVATE
    $<$<COMPILE_LANG_AND_ID:CXX,GNU,Clang>:-frecord-gcc-switches>
    $<$<COMPILE_LANG_AND_ID:C,GNU,Clang>:-frecord-gcc-switches>
    $<$<COMPILE_LANG_AND_ID:CUDA,NVIDIA>:-Xcompiler=-frecord-gcc-switches>)

  if(ARG_DEVICE STREQUAL "cuda")
    if(NOT CMAKE_CUDA_COMPILER)
      message(FATAL_ERROR "kbv_add_candidate(${name}): DEVICE cuda needs the CUDA language (project(... LANGUAGES CXX CUDA) or enable_language(CUDA))")
    endif()
    find_package(CUDAToolkit REQUIRED)
    target_link_libraries(${name} PRIVATE CUDA::cudart)
    _kbv_cuda_architectures(architectures "${ARG_CUDA_ARCHITECTURES}")
    _kbv_teach_cuda20_dialect()
    set(CMAKE_CUDA20_STANDARD_COMPILE_OPTION "${CMAKE_CUDA20_STANDARD_COMPILE_OPTION}" PARENT_SCOPE)
    set(CMAKE_CUDA20_EXTENSION_COMPILE_OPTION "${CMAKE_CUDA20_EXTENSION_COMPILE_OPTION}" PARENT_SCOPE)
    set_target_properties(${name} PROPERTIES
      CUDA_ARCHITECTURES "${architectures}"
      CUDA_STANDARD 20
      CUDA_STANDARD_REQUIRED ON
      CUDA_EXTENSIONS OFF)
  elseif(ARG_CUDA_ARCHITECTURES)
    message(FATAL_ERROR "kbv_add_candidate(${name}): CUDA_ARCHITECTURES is for DEVICE cuda")
  endif()
  if(ARG_OUTPUT_DIRECTORY)
    set_target_properties(${name} PROPERTIES LIBRARY_OUTPUT_DIRECTORY "${ARG_OUTPUT_DIRECTORY}")
  endif()
endfunction()
