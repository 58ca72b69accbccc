# Every ```cpp block of docs/guide.md, of the README, and of the pages on the files a
# user brings (docs/graph_topology.md, docs/traces.md), is a whole program: written out at
# configure time, built with the tests and run by CTest (guide.snippet_N, and
# docs.<page>.snippet_N), so the docs cannot show code that does not compile or run.
function(fabric_doc_snippets page prefix least)
  file(READ ${PROJECT_SOURCE_DIR}/docs/${page}.md text)
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/docs/${page}.md)
  # Semicolons would split CMake's list of blocks: stand-ins while listing.
  string(REPLACE ";" "<semicolon>" text "${text}")
  string(REGEX MATCHALL "```cpp\n[^`]*```" blocks "${text}")
  set(index 0)
  foreach(block IN LISTS blocks)
    math(EXPR index "${index} + 1")
    string(REGEX REPLACE "^```cpp\n" "" code "${block}")
    string(REGEX REPLACE "```$" "" code "${code}")
    string(REPLACE "<semicolon>" ";" code "${code}")
    string(MAKE_C_IDENTIFIER "${prefix}_snippet_${index}" stem)
    set(source ${CMAKE_CURRENT_BINARY_DIR}/guide/${stem}.cpp)
    file(CONFIGURE OUTPUT ${source} CONTENT "${code}" @ONLY)
    add_executable(${stem} ${source})
    target_link_libraries(${stem} PRIVATE fabric::fabric fabric_dev_flags)
    add_test(NAME ${prefix}.snippet_${index} COMMAND ${stem})
  endforeach()
  if(index LESS least)
    message(FATAL_ERROR "docs/${page}.md: expected its programs, found ${index} cpp blocks")
  endif()
endfunction()

fabric_doc_snippets(guide guide 3)
fabric_doc_snippets(../README docs.readme 1)  # the README's program (docs.readme.snippet_1)
fabric_doc_snippets(graph_topology docs.graph_topology 1)
fabric_doc_snippets(traces docs.traces 1)
