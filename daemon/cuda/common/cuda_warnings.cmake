# common/cuda_warnings.cmake — kbv_target_warnings(<target>): the house warning flags for a
# target whose sources mix C++ and CUDA.
#
# nvcc's host pass emits GCC line directives that -Wpedantic rejects ("style of line directive
# is a GCC extension"), so CUDA sources get the house warnings without -Wpedantic, and
# --Werror=all-warnings makes nvcc's own (device-side) warnings errors too.
include_guard(GLOBAL)

function(kbv_target_warnings target)
  set(host_flags ${KBV_WARNINGS})
  list(REMOVE_ITEM host_flags -Wpedantic -Werror)
  list(JOIN host_flags "," host_flags_joined)
  set(cuda_flags "-Xcompiler=${host_flags_joined}")
  if(KBV_WERROR)
    list(APPEND cuda_flags "-Xcompiler=-Werror" "--Werror=all-warnings")
  endif()
  target_compile_options(${target} PRIVATE
    "$<$<COMPILE_LANGUAGE:CXX>:${KBV_WARNINGS}>" "$<$<COMPILE_LANGUAGE:CUDA>:${cuda_flags}>")
endfunction()
