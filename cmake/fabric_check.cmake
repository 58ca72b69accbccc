# fabric_check(NAME <test> [EXIT <status>] [MATCH <regex>...] [NOT_MATCH <regex>...] COMMAND <target> <args>...)
#
# A test of a program's output: runs it, requires the exit status (0 unless EXIT
# says otherwise), then requires every MATCH regex and no NOT_MATCH regex in what
# it printed (standard output and error together). CTest's PASS_REGULAR_EXPRESSION
# ignores the exit status and WILL_FAIL passes on any non-zero one; this checks both.
# At least one MATCH is required: a test of a program checks a value it prints.
set(FABRIC_CHECK_SCRIPT ${CMAKE_CURRENT_LIST_DIR}/fabric_check_run.cmake)

function(fabric_check)
  cmake_parse_arguments(ARG "" "NAME;EXIT" "MATCH;NOT_MATCH;COMMAND" ${ARGN})
  if(NOT ARG_NAME OR NOT ARG_COMMAND)
    message(FATAL_ERROR "fabric_check: NAME and COMMAND are required")
  endif()
  if(NOT ARG_MATCH)
    message(FATAL_ERROR "fabric_check(${ARG_NAME}): give at least one MATCH, a value the program must print")
  endif()
  if(NOT DEFINED ARG_EXIT)
    set(ARG_EXIT 0)
  endif()
  list(POP_FRONT ARG_COMMAND program)
  if(TARGET ${program})
    set(program $<TARGET_FILE:${program}>)
  endif()
  # Lists travel to the script joined by a separator no argument or regex uses.
  string(REPLACE ";" "<sep>" args "${ARG_COMMAND}")
  string(REPLACE ";" "<sep>" match "${ARG_MATCH}")
  string(REPLACE ";" "<sep>" not_match "${ARG_NOT_MATCH}")
  add_test(NAME ${ARG_NAME}
           COMMAND ${CMAKE_COMMAND} "-DPROGRAM=${program}" "-DARGS=${args}" "-DEXIT=${ARG_EXIT}"
                   "-DMATCH=${match}" "-DNOT_MATCH=${not_match}" -P ${FABRIC_CHECK_SCRIPT})
endfunction()
