# A tool's --dump-config writes the settings a command line (ARGS) implies;
# running that file gives exactly the output the command line gives, which must
# match EXPECT (after removing what IGNORE matches, if given).
set(args ${ARGS})
file(MAKE_DIRECTORY ${DIR})
get_filename_component(tool ${PROGRAM} NAME)
set(file ${DIR}/roundtrip_${tool}.json)
execute_process(COMMAND ${PROGRAM} ${args} --dump-config OUTPUT_FILE ${file} RESULT_VARIABLE s1)
execute_process(COMMAND ${PROGRAM} ${args} OUTPUT_VARIABLE direct RESULT_VARIABLE s2)
execute_process(COMMAND ${PROGRAM} --config ${file} OUTPUT_VARIABLE from_file RESULT_VARIABLE s3)
if(NOT s1 EQUAL 0 OR NOT s2 EQUAL 0 OR NOT s3 EQUAL 0)
  message(FATAL_ERROR "exit statuses ${s1} ${s2} ${s3}, expected 0")
endif()
if(IGNORE)  # a measured time, say, which differs from run to run
  string(REGEX REPLACE "${IGNORE}" "" direct "${direct}")
  string(REGEX REPLACE "${IGNORE}" "" from_file "${from_file}")
endif()
if(NOT direct STREQUAL from_file)
  message(FATAL_ERROR "the dumped configuration gives other results:\n${direct}\nagainst\n${from_file}")
endif()
if(NOT direct MATCHES "${EXPECT}")
  message(FATAL_ERROR "unexpected output:\n${direct}")
endif()
message(STATUS "the dumped configuration reproduces the run")
