# Runs COMMAND on its own, then under LAUNCH (mpiexec -n N ...), and requires
# status EXIT (default 0) from both and the same standard output, byte for byte:
# what a tool prints when it deals its runs over ranks is what it prints alone.
if(NOT DEFINED EXIT)
  set(EXIT 0)
endif()
execute_process(COMMAND ${COMMAND} RESULT_VARIABLE serial_rc OUTPUT_VARIABLE serial ERROR_VARIABLE serial_err)
execute_process(COMMAND ${LAUNCH} ${COMMAND} RESULT_VARIABLE dealt_rc OUTPUT_VARIABLE dealt ERROR_VARIABLE dealt_err)
if(NOT serial_rc EQUAL EXIT OR NOT dealt_rc EQUAL EXIT)
  message(FATAL_ERROR "status ${serial_rc} alone, ${dealt_rc} under ${LAUNCH}, expected ${EXIT}\n${serial_err}\n${dealt_err}")
endif()
if(serial STREQUAL "")
  message(FATAL_ERROR "no output from ${COMMAND}")
endif()
if(NOT serial STREQUAL dealt)
  message(FATAL_ERROR "alone:\n${serial}\nunder ${LAUNCH}:\n${dealt}\n${dealt_err}")
endif()
message(STATUS "the same output alone and under ${LAUNCH}:\n${serial}")
