# tests/ops/check_op_table.cmake — `kbv problems --ops --markdown` prints what docs/problem-spec.md
# carries between its op-table markers (ctest -R OpTable.KbvProblemsOpsMarkdown).
# Run as: cmake -DKBV=<kbv binary> -DDOC=<docs/problem-spec.md> -P check_op_table.cmake
execute_process(COMMAND ${KBV} problems --ops --markdown OUTPUT_VARIABLE printed
  RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "kbv problems --ops --markdown exited with ${status}")
endif()
file(READ ${DOC} doc)
string(FIND "${doc}" "<!-- op-table: begin" begin)
string(FIND "${doc}" "<!-- op-table: end -->" end)
if(begin EQUAL -1 OR end EQUAL -1)
  message(FATAL_ERROR "${DOC} lacks the op-table markers")
endif()
string(SUBSTRING "${doc}" ${begin} -1 from_begin)
string(FIND "${from_begin}" "\n" first_newline)
math(EXPR first "${begin} + ${first_newline} + 1")
math(EXPR length "${end} - ${first}")
string(SUBSTRING "${doc}" ${first} ${length} documented)
if(NOT documented STREQUAL printed)
  message(FATAL_ERROR "${DOC}'s op table differs from `kbv problems --ops --markdown`:\n"
    "--- documented\n${documented}--- printed\n${printed}")
endif()
