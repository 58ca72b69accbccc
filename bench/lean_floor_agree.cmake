# bench/lean_floor's two event structures, router wakes and per-stage lists, give
# the same flit moves, cycles and mean latency (its timing aside).
# Run as: cmake -DPROGRAM=<lean_floor> -DCASE=torus8 -P lean_floor_agree.cmake
cmake_minimum_required(VERSION 3.20)

foreach(structure wakes stages)
  execute_process(COMMAND ${PROGRAM} ${structure} ${CASE} OUTPUT_VARIABLE out RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "lean_floor ${structure} ${CASE} failed (${rc})")
  endif()
  string(REGEX REPLACE ", \"seconds\": [0-9.e+-]+" "" ${structure} "${out}")
endforeach()
if(NOT wakes STREQUAL stages)
  message(FATAL_ERROR "lean_floor's structures differ on ${CASE}:\n  wakes  ${wakes}  stages ${stages}")
endif()
message(STATUS "both: ${wakes}")
