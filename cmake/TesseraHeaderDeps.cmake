# cmake -P TesseraHeaderDeps.cmake -DARGS=<file> -DHEADERS=<file> -DCXX=<compiler> -DFORBIDDEN=<regex>
#
# Runs the compiler's -M on every header listed in HEADERS, each alone, with the include
# directories and definitions in ARGS (one compiler argument per line, as tessera_check_headers
# writes them), and fails naming each header whose dependencies match FORBIDDEN (a flag parser:
# public headers expose plain option structs and leave the parsing to .cpp files).
file(STRINGS ${ARGS} compile_args)
list(FILTER compile_args EXCLUDE REGEX "^$")
file(STRINGS ${HEADERS} headers)
list(LENGTH headers total)
set(offenders)
foreach(header ${headers})
  execute_process(COMMAND ${CXX} ${compile_args} -M -x c++ ${header}
                  OUTPUT_VARIABLE deps ERROR_VARIABLE errors RESULT_VARIABLE status)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "${header}: the compiler's -M failed:\n${errors}")
  endif()
  if(deps MATCHES "${FORBIDDEN}")
    string(REGEX MATCH "[^ \n]*(${FORBIDDEN})[^ \n]*" culprit "${deps}")
    list(APPEND offenders "${header} (pulls ${culprit})")
  endif()
endforeach()
list(LENGTH offenders count)
if(count GREATER 0)
  list(JOIN offenders "\n  " listed)
  message(FATAL_ERROR "${count} of ${total} public headers pull in a flag parser:\n  ${listed}")
endif()
message(STATUS "none of ${total} public headers pulls in a flag parser")
