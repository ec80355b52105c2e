# daemon/ops/ops.cmake — finds the ops (one folder each under daemon/ops/), says which files serve
# each face, and writes the generated op lists. Included by daemon/CMakeLists.txt before the
# targets that compile the faces; docs/adding-an-op.md explains the layout.
#
# An op is a folder daemon/ops/<name>/ (any folder but common/); <name> is its name in problem
# specs and its C++ namespace, kbv::ops::<name>. Its faces and the targets they go into:
#   host       host.cpp: const kbv::Op& host_op()                                 -> kbv_core
#   reference  reference.cu or .cpp: void device_reference(const ReferenceCall&)  -> kbv_cuda_data
#   baseline   baseline.cu or .cpp: std::unique_ptr<NodeStep> make_baseline_step(
#                  const NodeContext&, LibraryContext&)                           -> kbv_cuda_measure
#   cases      cases.cpp: OpCases cases()                                         -> kbv_op_cases
# An elementwise op has none of host/reference/baseline: its <name>.hpp alone defines it, and
# ops/common/{elementwise_host.cpp,reference/elementwise_reference.cu,
# baseline/elementwise_baseline.cu} generate the three faces from it. common/*.cpp, common/
# reference/*, common/baseline/* and common/cases/* go into the same four targets.
#
# The registry, the device reference dispatch, the baseline dispatch and all_op_cases() name each
# face through the generated op list, so an op missing a face fails to link (or, for an
# elementwise op, its header fails to compile), and this file refuses a folder missing a file.
#
# Sets KBV_OP_NAMES, KBV_OPS_INCLUDE_DIRS, KBV_OPS_HOST_SOURCES, KBV_OPS_REFERENCE_SOURCES,
# KBV_OPS_BASELINE_SOURCES, KBV_OPS_CASES_SOURCES; defines the kbv_op_cases library.
# Writes into ${CMAKE_BINARY_DIR}/generated/ops/:
#   op_list.inc              KBV_OP(<name>) for every op, in name order
#   elementwise_list.inc     KBV_ELEMENTWISE_OP(<name>) for every elementwise op
#   elementwise_headers.inc  #include "ops/<name>/<name>.hpp" for every elementwise op

set(KBV_OPS_DIR ${CMAKE_CURRENT_LIST_DIR})
set(KBV_OPS_GENERATED_DIR ${CMAKE_BINARY_DIR}/generated)
set(KBV_OPS_INCLUDE_DIRS ${KBV_OPS_DIR}/.. ${KBV_OPS_GENERATED_DIR})

# Folder names that cannot be ops: kbv::ops's own namespaces and C++ keywords (an op's name is a
# namespace name).
set(KBV_OPS_RESERVED_NAMES common math reference baseline detail
  alignas alignof and and_eq asm auto bitand bitor bool break case catch char char8_t char16_t
  char32_t class compl concept const consteval constexpr constinit const_cast continue co_await
  co_return co_yield decltype default delete do double dynamic_cast else enum explicit export
  extern false float for friend goto if inline int long mutable namespace new noexcept not not_eq
  nullptr operator or or_eq private protected public register reinterpret_cast requires return
  short signed sizeof static static_assert static_cast struct switch template this thread_local
  throw true try typedef typeid typename union unsigned using virtual void volatile wchar_t while
  xor xor_eq)

# Re-globbed on every build: adding an op folder or a face file re-runs configuration.
file(GLOB KBV_OPS_ENTRIES LIST_DIRECTORIES true CONFIGURE_DEPENDS ${KBV_OPS_DIR}/*)
file(GLOB KBV_OPS_FOLDER_FILES CONFIGURE_DEPENDS ${KBV_OPS_DIR}/*/*)

# The one file of `face` (reference or baseline) in op folder `dir`, .cu or .cpp.
function(kbv_ops_face_file dir op face out)
  set(found)
  foreach(extension cu cpp)
    if(EXISTS ${dir}/${face}.${extension})
      list(APPEND found ${dir}/${face}.${extension})
    endif()
  endforeach()
  list(LENGTH found count)
  if(NOT count EQUAL 1)
    message(FATAL_ERROR "daemon/ops/${op}/ has host.cpp, so it needs exactly one ${face}.cu or "
      "${face}.cpp (found ${count}); an elementwise op has neither host.cpp nor ${face} files "
      "(docs/adding-an-op.md)")
  endif()
  set(${out} ${found} PARENT_SCOPE)
endfunction()

set(KBV_OP_NAMES)
set(KBV_OPS_ELEMENTWISE_NAMES)
set(KBV_OPS_HOST_SOURCES)
set(KBV_OPS_REFERENCE_SOURCES)
set(KBV_OPS_BASELINE_SOURCES)
set(KBV_OPS_CASES_SOURCES)
foreach(entry IN LISTS KBV_OPS_ENTRIES)
  if(NOT IS_DIRECTORY ${entry})
    continue()
  endif()
  get_filename_component(op ${entry} NAME)
  if(op STREQUAL "common")
    continue()
  endif()
  if(NOT op MATCHES "^[a-z][a-z0-9_]*$" OR op IN_LIST KBV_OPS_RESERVED_NAMES)
    message(FATAL_ERROR "daemon/ops/${op}/: an op folder's name must be a lower-case C++ "
      "identifier ([a-z][a-z0-9_]*) other than a C++ keyword and ${KBV_OPS_RESERVED_NAMES}")
  endif()
  # A source file no face names would silently not be compiled.
  file(GLOB op_sources RELATIVE ${entry} ${entry}/*.cpp ${entry}/*.cu)
  foreach(source IN LISTS op_sources)
    if(NOT source MATCHES "^(host\\.cpp|reference\\.(cu|cpp)|baseline\\.(cu|cpp)|cases\\.cpp)$")
      message(FATAL_ERROR "daemon/ops/${op}/${source} is not a face (host.cpp, reference.cu, "
        "baseline.cu, cases.cpp) and would not be compiled: move its code into a face or into "
        "daemon/ops/common/")
    endif()
  endforeach()
  if(NOT EXISTS ${entry}/cases.cpp)
    message(FATAL_ERROR "daemon/ops/${op}/ has no cases.cpp: every op provides test cases "
      "(OpCases kbv::ops::${op}::cases(), docs/adding-an-op.md)")
  endif()
  list(APPEND KBV_OPS_CASES_SOURCES ${entry}/cases.cpp)
  if(EXISTS ${entry}/host.cpp)
    list(APPEND KBV_OPS_HOST_SOURCES ${entry}/host.cpp)
    kbv_ops_face_file(${entry} ${op} reference reference_source)
    kbv_ops_face_file(${entry} ${op} baseline baseline_source)
    list(APPEND KBV_OPS_REFERENCE_SOURCES ${reference_source})
    list(APPEND KBV_OPS_BASELINE_SOURCES ${baseline_source})
  else()
    if(NOT EXISTS ${entry}/${op}.hpp)
      message(FATAL_ERROR "daemon/ops/${op}/ has neither host.cpp nor ${op}.hpp: an elementwise "
        "op is its ${op}.hpp, any other op has host.cpp, reference.cu and baseline.cu")
    endif()
    foreach(face reference baseline)
      if(EXISTS ${entry}/${face}.cu OR EXISTS ${entry}/${face}.cpp)
        message(FATAL_ERROR "daemon/ops/${op}/ has a ${face} file but no host.cpp: an "
          "elementwise op gets all its faces from ${op}.hpp; add host.cpp to write them by hand")
      endif()
    endforeach()
    list(APPEND KBV_OPS_ELEMENTWISE_NAMES ${op})
  endif()
  list(APPEND KBV_OP_NAMES ${op})
endforeach()

file(GLOB KBV_OPS_COMMON_HOST CONFIGURE_DEPENDS ${KBV_OPS_DIR}/*.cpp ${KBV_OPS_DIR}/common/*.cpp)
file(GLOB KBV_OPS_COMMON_REFERENCE CONFIGURE_DEPENDS
  ${KBV_OPS_DIR}/common/reference/*.cu ${KBV_OPS_DIR}/common/reference/*.cpp)
file(GLOB KBV_OPS_COMMON_BASELINE CONFIGURE_DEPENDS
  ${KBV_OPS_DIR}/common/baseline/*.cu ${KBV_OPS_DIR}/common/baseline/*.cpp)
file(GLOB KBV_OPS_COMMON_CASES CONFIGURE_DEPENDS ${KBV_OPS_DIR}/common/cases/*.cpp)
list(APPEND KBV_OPS_HOST_SOURCES ${KBV_OPS_COMMON_HOST})
list(APPEND KBV_OPS_REFERENCE_SOURCES ${KBV_OPS_COMMON_REFERENCE})
list(APPEND KBV_OPS_BASELINE_SOURCES ${KBV_OPS_COMMON_BASELINE})
list(APPEND KBV_OPS_CASES_SOURCES ${KBV_OPS_COMMON_CASES})

# The generated lists (file(CONFIGURE) rewrites a file only when its content changes).
set(kbv_ops_banner "// Generated by daemon/ops/ops.cmake from the folders under daemon/ops/; do not edit.\n")
set(op_list "${kbv_ops_banner}")
foreach(op IN LISTS KBV_OP_NAMES)
  string(APPEND op_list "KBV_OP(${op})\n")
endforeach()
set(elementwise_list "${kbv_ops_banner}")
set(elementwise_headers "${kbv_ops_banner}")
foreach(op IN LISTS KBV_OPS_ELEMENTWISE_NAMES)
  string(APPEND elementwise_list "KBV_ELEMENTWISE_OP(${op})\n")
  string(APPEND elementwise_headers "#include \"ops/${op}/${op}.hpp\"\n")
endforeach()
file(CONFIGURE OUTPUT ${KBV_OPS_GENERATED_DIR}/ops/op_list.inc CONTENT "${op_list}" @ONLY)
file(CONFIGURE OUTPUT ${KBV_OPS_GENERATED_DIR}/ops/elementwise_list.inc
  CONTENT "${elementwise_list}" @ONLY)
file(CONFIGURE OUTPUT ${KBV_OPS_GENERATED_DIR}/ops/elementwise_headers.inc
  CONTENT "${elementwise_headers}" @ONLY)
list(LENGTH KBV_OP_NAMES kbv_op_count)
message(STATUS "kbv: ${kbv_op_count} ops under daemon/ops/")

# Every op's test cases, for the generic op suites (tests only).
if(KBV_BUILD_TESTS)
  add_library(kbv_op_cases STATIC ${KBV_OPS_CASES_SOURCES})
  target_link_libraries(kbv_op_cases PUBLIC kbv_core)
  target_compile_options(kbv_op_cases PRIVATE ${KBV_WARNINGS})
endif()
