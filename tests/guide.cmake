# Every ```cpp block of docs/guide.md is a whole program: written out at configure
# time, built with the tests and run by CTest (guide.snippet_N), so the guide
# cannot show code that does not compile or run.
file(READ ${PROJECT_SOURCE_DIR}/docs/guide.md guide)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/docs/guide.md)
# Semicolons would split CMake's list of blocks: stand-ins while listing.
string(REPLACE ";" "<semicolon>" guide "${guide}")
string(REGEX MATCHALL "```cpp\n[^`]*```" blocks "${guide}")
set(index 0)
foreach(block IN LISTS blocks)
  math(EXPR index "${index} + 1")
  string(REGEX REPLACE "^```cpp\n" "" code "${block}")
  string(REGEX REPLACE "```$" "" code "${code}")
  string(REPLACE "<semicolon>" ";" code "${code}")
  set(source ${CMAKE_CURRENT_BINARY_DIR}/guide/snippet_${index}.cpp)
  file(CONFIGURE OUTPUT ${source} CONTENT "${code}" @ONLY)
  add_executable(guide_snippet_${index} ${source})
  target_link_libraries(guide_snippet_${index} PRIVATE fabric::fabric fabric_dev_flags)
  add_test(NAME guide.snippet_${index} COMMAND guide_snippet_${index})
endforeach()
if(index LESS 3)
  message(FATAL_ERROR "docs/guide.md: expected its programs, found ${index} cpp blocks")
endif()
