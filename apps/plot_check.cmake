# An app's output drawn by tools/plot: PROGRAM with ARGS writes DATA; PYTHON runs
# tools/plot (PLOT) with PLOT_ARGS on it, which must write a PNG of WIDTH x HEIGHT
# pixels (read from the PNG header).
string(REPLACE "<sep>" ";" args "${ARGS}")
string(REPLACE "<sep>" ";" plot_args "${PLOT_ARGS}")
set(data ${DIR}/${DATA})
# The picture is named after the whole data file (plot_latency.csv.png), so that
# two checks drawing plot_latency.csv and plot_latency.json in parallel never share one.
set(png ${data}.png)
file(REMOVE ${png})
execute_process(COMMAND ${PROGRAM} ${args} OUTPUT_FILE ${data} RESULT_VARIABLE s1)
if(NOT s1 EQUAL 0)
  message(FATAL_ERROR "${PROGRAM} ${args}: exit status ${s1}")
endif()
execute_process(COMMAND ${PYTHON} ${PLOT} ${plot_args} ${data} -o ${png} RESULT_VARIABLE s2
                OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT s2 EQUAL 0 OR NOT out MATCHES "tools/plot: wrote ")
  message(FATAL_ERROR "tools/plot ${plot_args}: exit status ${s2}\n${out}${err}")
endif()
file(READ ${png} head LIMIT 24 HEX)
# The signature, then the IHDR chunk: width and height as 4-byte big-endian numbers.
if(NOT head MATCHES "^89504e470d0a1a0a0000000d49484452")
  message(FATAL_ERROR "${png} is not a PNG")
endif()
string(SUBSTRING ${head} 32 8 w)
string(SUBSTRING ${head} 40 8 h)
math(EXPR w "0x${w}")
math(EXPR h "0x${h}")
if(NOT w EQUAL WIDTH OR NOT h EQUAL HEIGHT)
  message(FATAL_ERROR "${png} is ${w} x ${h} pixels, expected ${WIDTH} x ${HEIGHT}")
endif()
message(STATUS "${png}: ${w} x ${h}")
