# Every run-time and paper test file keeps its names in a namespace of its own,
# `namespace unit_<file> {`: tests/CMakeLists.txt compiles them in batches (unity
# builds), in which names at file scope of two files would collide.
# Run as: cmake -DSOURCE_DIR=<dir with runtime/, paper/ and collective/> -P unit_namespaces.cmake
cmake_minimum_required(VERSION 3.20)

file(GLOB sources "${SOURCE_DIR}/runtime/*.cpp" "${SOURCE_DIR}/paper/*.cpp" "${SOURCE_DIR}/collective/*.cpp")
set(missing "")
foreach(source IN LISTS sources)
  get_filename_component(stem "${source}" NAME_WE)
  file(STRINGS "${source}" opening REGEX "^namespace unit_${stem} {")
  if(NOT opening)
    list(APPEND missing "${source}")
  endif()
endforeach()
if(missing)
  list(JOIN missing "\n  " listed)
  message(FATAL_ERROR "fabric: these test files do not open `namespace unit_<file> {` after their includes (their "
                      "names would collide with another file's in a batch; see tests/CMakeLists.txt):\n  ${listed}")
endif()
list(LENGTH sources checked)
message(STATUS "${checked} test files, each in its own namespace")
