# cycle_sim's mean latency over several seeds against BookSim2's figure for the
# same file and keys: runs PROGRAM --booksim FILE KEYS seed=S for each S in SEEDS,
# reads each run's "latency mean", and fails unless their mean is within PERCENT
# of EXPECTED. Run as cmake -DPROGRAM=... -DFILE=... "-DKEYS=k=v;k=v" "-DSEEDS=0;1"
# -DEXPECTED=55.51 -DPERCENT=3 -P booksim_mean.cmake.
set(sum 0)
set(runs "")
foreach(seed IN LISTS SEEDS)
  execute_process(COMMAND ${PROGRAM} --booksim ${FILE} ${KEYS} seed=${seed} RESULT_VARIABLE status
                  OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT status EQUAL 0 OR NOT out MATCHES "latency mean ([0-9]+\\.[0-9]+)")
    message(FATAL_ERROR "seed ${seed}: exit status ${status}, no latency mean\n${out}${err}")
  endif()
  string(APPEND runs " ${CMAKE_MATCH_1}")
  # CMake's math is integer: hundredths of a cycle.
  string(REPLACE "." "" hundredths "${CMAKE_MATCH_1}")
  string(REGEX REPLACE "^0+([0-9])" "\\1" hundredths "${hundredths}")
  math(EXPR sum "${sum} + ${hundredths}")
endforeach()
list(LENGTH SEEDS n)
math(EXPR mean "${sum} / ${n}")
string(REPLACE "." "" expected "${EXPECTED}")
math(EXPR low "${expected} * (100 - ${PERCENT}) / 100")
math(EXPR high "${expected} * (100 + ${PERCENT}) / 100")
if(mean LESS low OR mean GREATER high)
  message(FATAL_ERROR "mean latency ${mean}/100 over seeds ${SEEDS} (${runs}), BookSim2's ${EXPECTED}: "
                      "more than ${PERCENT}% apart")
endif()
message(STATUS "ok: mean latency ${mean}/100 (${runs}) against BookSim2's ${EXPECTED}, within ${PERCENT}%")
