# A run's peak memory against what the tool said or allowed: runs PROGRAM with
# ARGS (a list) under /usr/bin/time, expects exit status EXIT (default 0) and a
# peak resident set of at most MAX_MB, and at least MIN_MB when given (an
# estimate within 2x holds both ways). Run as cmake -DPROGRAM=... -DARGS=...
# -DMAX_MB=... [-DMIN_MB=...] [-DEXIT=...] [-DMATCH=regex] -P memory_check.cmake.
if(NOT DEFINED EXIT)
  set(EXIT 0)
endif()
execute_process(COMMAND /usr/bin/time -f "peak_kb %M" ${PROGRAM} ${ARGS} RESULT_VARIABLE status OUTPUT_VARIABLE out
                ERROR_VARIABLE err)
if(NOT status STREQUAL "${EXIT}")
  message(FATAL_ERROR "exit status ${status}, expected ${EXIT}\n${out}${err}")
endif()
if(NOT err MATCHES "peak_kb ([0-9]+)")
  message(FATAL_ERROR "no peak from /usr/bin/time:\n${err}")
endif()
math(EXPR peak_mb "${CMAKE_MATCH_1} / 1024")
if(peak_mb GREATER MAX_MB)
  message(FATAL_ERROR "peak ${peak_mb} MB, more than ${MAX_MB} MB\n${out}${err}")
endif()
if(DEFINED MIN_MB AND peak_mb LESS MIN_MB)
  message(FATAL_ERROR "peak ${peak_mb} MB, less than ${MIN_MB} MB\n${out}${err}")
endif()
if(DEFINED MATCH AND NOT "${out}${err}" MATCHES "${MATCH}")
  message(FATAL_ERROR "missing: ${MATCH}\n${out}${err}")
endif()
message(STATUS "ok: peak ${peak_mb} MB\n${out}")
