# CITATION.cff states the version CMakeLists.txt's project() declares, and the licence LICENSE holds.
# Run as cmake -DSOURCE_DIR=<repository> -DVERSION=<project version> -P tests/citation.cmake
file(READ ${SOURCE_DIR}/CITATION.cff cff)
if(NOT cff MATCHES "\nversion: \"?([^\"\n]+)\"?\n")
  message(FATAL_ERROR "CITATION.cff: no version line")
endif()
if(NOT CMAKE_MATCH_1 STREQUAL VERSION)
  message(FATAL_ERROR "CITATION.cff says version ${CMAKE_MATCH_1}; CMakeLists.txt's project() says ${VERSION}")
endif()
file(READ ${SOURCE_DIR}/LICENSE licence)
if(NOT cff MATCHES "\nlicense: BSL-1.0\n" OR NOT licence MATCHES "^Boost Software License - Version 1.0")
  message(FATAL_ERROR "CITATION.cff's license (BSL-1.0) and LICENSE (the Boost Software License 1.0) disagree")
endif()
message(STATUS "CITATION.cff: version ${VERSION}, BSL-1.0")
