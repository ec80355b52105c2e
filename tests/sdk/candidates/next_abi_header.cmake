# tests/sdk/candidates/next_abi_header.cmake — writes OUTPUT: kbv/plugin.h as a future ABI 3 would have it (the
# version macros raised to 3, one field appended to kbv_plugin_info), from the real header, so
# the test follows the header as it changes. Fails if the header no longer has what it edits.
file(READ "${INPUT}" header)
# Replaces `from` (which must be there) by `to` in `header`. A function, not a list of pairs:
# the C text holds semicolons, CMake's list separator.
function(edit from to)
  string(FIND "${header}" "${from}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "next_abi_header.cmake: ${INPUT} no longer contains '${from}' (fix: update this script to the header)")
  endif()
  string(REPLACE "${from}" "${to}" edited "${header}")
  set(header "${edited}" PARENT_SCOPE)
endfunction()
edit("#define KBV_ABI_VERSION 2u" "#define KBV_ABI_VERSION 3u")
edit("#define KBV_ABI_VERSION_MAX 2u" "#define KBV_ABI_VERSION_MAX 3u")
edit("  void (*destroy)(void* state);\n} kbv_plugin_info;"
     "  void (*destroy)(void* state);\n  uint64_t abi3_field; /* appended by ABI 3 */\n} kbv_plugin_info;")
file(WRITE "${OUTPUT}" "${header}")
